//! The column texts of a listing's rows, packed one row after another (see `row_texts.rs`) in
//! chunks of a megabyte, only ever appended to. A row holds where its texts start
//! ([`TextsAt`], four bytes, `Copy`) instead of a string of its own: at a million rows, one
//! allocation a row cost a pointer, the allocator's header and rounding (about 30 bytes a row),
//! and copying the rows' keys out for a sort meant a cache miss a row on the UI thread. A job
//! takes the chunks as they are ([`SharedTexts`]: the full ones shared, the one being filled
//! copied) and reads the texts itself, off the UI thread.
//!
//! A row whose texts change is not written over: its new texts are appended and it points at
//! them (the old ones stay, unread, until the listing goes).

use std::sync::Arc;

use super::compact::Compact;
use super::row_texts::{self, COMMON, COUNT, Cell, Packed, Shared, Text};
use super::title_starts::{Starts, TitleStarts};

/// The size of a chunk; a row packed larger than this takes a chunk of its own (the next row
/// starts another).
pub(crate) const CHUNK: usize = 1 << 20;

/// Where a row's texts start: a chunk (the high 12 bits) and an offset in it (the low 20, as
/// a chunk is a megabyte: a row starts before its end). Four bytes, not eight: a row is 16.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TextsAt(u32);

/// The bits of a [`TextsAt`] that hold the offset.
const OFFSET_BITS: u32 = CHUNK.trailing_zeros();
/// How many chunks a listing's texts take at most (4 GB of them: memory runs out long before);
/// the rows added past them read no texts (empty cells), their items whole as ever.
const MAX_CHUNKS: usize = 1 << (32 - OFFSET_BITS);

impl TextsAt {
    /// Where no texts are: past the last chunk there can be.
    const NOWHERE: TextsAt = TextsAt(u32::MAX);

    fn new(chunk: usize, offset: usize) -> TextsAt {
        match (u32::try_from(chunk), u32::try_from(offset)) {
            (Ok(chunk), Ok(offset)) if chunk < MAX_CHUNKS as u32 - 1 && offset < CHUNK as u32 => {
                TextsAt(chunk << OFFSET_BITS | offset)
            }
            _ => TextsAt::NOWHERE,
        }
    }

    fn chunk(self) -> usize {
        (self.0 >> OFFSET_BITS) as usize
    }

    fn offset(self) -> usize {
        (self.0 & (CHUNK as u32 - 1)) as usize
    }
}

/// A type or status this long or shorter may become one of a listing's common values.
const COMMON_LEN: usize = 64;

/// The texts of a listing's rows; rows added append to the last chunk.
#[derive(Clone, Default)]
pub struct Texts {
    /// The full chunks, shared with the jobs that read them.
    full: Vec<Arc<str>>,
    /// The chunk being filled (the one after the full ones).
    filling: String,
    /// The first types and statuses seen (up to [`COMMON`]), each kept once: the rows refer
    /// to them by their index, in a byte.
    common: Vec<Box<str>>,
    /// The prefixes of the ids kept as a prefix and a number (see `compact.rs`), up to
    /// [`COMMON`] of them: the first seen.
    prefixes: Vec<Box<str>>,
    /// The starts the titles are kept by (see `title_starts.rs`).
    titles: TitleStarts,
}

/// Sizes only: the texts themselves would flood a listing's debug output.
impl std::fmt::Debug for Texts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Texts")
            .field("full", &self.full.len())
            .field("filling", &self.filling.len())
            .field("common", &self.common.len())
            .field("prefixes", &self.prefixes.len())
            .field("titles", &self.titles.kept().len())
            .finish()
    }
}

impl Texts {
    pub const fn new() -> Texts {
        Texts {
            full: Vec::new(),
            filling: String::new(),
            common: Vec::new(),
            prefixes: Vec::new(),
            titles: TitleStarts::new(),
        }
    }

    /// Appends one row's texts; where they start reads them back.
    pub fn push(&mut self, texts: &[Option<&str>; COUNT]) -> TextsAt {
        let mut columns = [Packed::Missing; COUNT];
        for ((column, text), which) in columns.iter_mut().zip(texts).zip(row_texts::ALL) {
            *column = text.map_or(Packed::Missing, |text| self.packed(which, text));
        }
        let len = row_texts::packed_len(&columns);
        if !self.filling.is_empty() && self.filling.len() + len > CHUNK {
            self.seal();
        }
        let at = TextsAt::new(self.full.len(), self.filling.len());
        if at == TextsAt::NOWHERE {
            return at;
        }
        if self.filling.capacity() == 0 {
            self.filling.reserve_exact(CHUNK.max(len));
        }
        row_texts::pack(&columns, &mut self.filling);
        at
    }

    /// How `text`, the `which` column of a row, is packed: a type or status as one of the
    /// common values (made one while there is room), a title by one of the listing's title
    /// starts when one fits, an id or a time in a compact form when it prints back exactly as
    /// it came, any other text as itself.
    fn packed<'a>(&mut self, which: Text, text: &'a str) -> Packed<'a> {
        let compact = match which {
            Text::Type | Text::Status => return self.common(text),
            Text::Title => match self.titles.split(text) {
                Some((start, rest)) => return Packed::Joined { start, rest },
                None => None,
            },
            Text::Id | Text::ExternalId => Compact::uuid(text).or_else(|| self.number(text)),
            Text::UpdatedAt => Compact::time(text),
        };
        match compact {
            // Checked here once for every kind: what is shown is what was sent.
            Some(c) if c.text(&self.prefixes).is_some_and(|t| t.as_str() == text) => {
                Packed::Compact(c)
            }
            _ => Packed::inline(text),
        }
    }

    /// A type or status as one of the common values, made one while there is room.
    fn common<'a>(&mut self, text: &'a str) -> Packed<'a> {
        if text.len() > COMMON_LEN {
            return Packed::inline(text);
        }
        match kept_once(&mut self.common, text) {
            Some(index) => Packed::Common(index),
            None => Packed::inline(text),
        }
    }

    /// An id as a prefix and a number, its prefix one of the listing's while there is room.
    fn number(&mut self, text: &str) -> Option<Compact> {
        let (prefix, value) = Compact::split_number(text)?;
        let prefix = u8::try_from(kept_once(&mut self.prefixes, prefix)?).ok()?;
        Some(Compact::Number { prefix, value })
    }

    /// The chunk being filled becomes a full one (copied to its size: it is shared from then).
    /// The next chunk is a new allocation rather than this one cleared: the pages of a cleared
    /// chunk stay resident, a new one's only as they are written (up to a megabyte less).
    fn seal(&mut self) {
        self.full.push(Arc::from(self.filling.as_str()));
        self.filling = String::new();
    }

    fn shared(&self) -> Shared<'_> {
        Shared {
            common: &self.common,
            prefixes: &self.prefixes,
            titles: self.titles.kept(),
        }
    }

    /// The bytes held: the full chunks and the one being filled.
    pub fn bytes(&self) -> usize {
        self.full.iter().map(|c| c.len()).sum::<usize>() + self.filling.capacity()
    }

    /// One column of the row whose texts start at `at`; `None` when it has no value, or when
    /// `at` lies past these texts (it is from another listing's).
    pub fn get(&self, at: TextsAt, which: Text) -> Option<Cell<'_>> {
        let chunk = match self.full.get(at.chunk()) {
            Some(full) => full,
            None if at.chunk() == self.full.len() => self.filling.as_str(),
            None => return None,
        };
        row_texts::get(chunk.get(at.offset()..)?, which, self.shared())
    }

    /// Every column of the row at `at`, in their order.
    pub fn row(&self, at: TextsAt) -> [Option<Cell<'_>>; COUNT] {
        row_texts::ALL.map(|which| self.get(at, which))
    }

    /// The texts as they are now, for a job on another thread: the full chunks shared, a copy of
    /// the one being filled (at most a chunk) and of the common values, prefixes and title
    /// starts (a few kilobytes).
    pub fn share(&self) -> SharedTexts {
        let mut chunks = self.full.clone();
        chunks.push(Arc::from(self.filling.as_str()));
        SharedTexts {
            chunks,
            common: self.common.clone(),
            prefixes: self.prefixes.clone(),
            titles: self.titles.kept().clone(),
        }
    }
}

/// The index of `text` in `values`, added if it is not there and there is room (up to
/// [`COMMON`]).
fn kept_once(values: &mut Vec<Box<str>>, text: &str) -> Option<usize> {
    if let Some(index) = values.iter().position(|v| **v == *text) {
        return Some(index);
    }
    if values.len() == COMMON {
        return None;
    }
    values.push(text.into());
    Some(values.len() - 1)
}

/// The texts of a listing at one moment, read by a job while the listing goes on growing.
#[derive(Clone, Default)]
pub struct SharedTexts {
    chunks: Vec<Arc<str>>,
    common: Vec<Box<str>>,
    prefixes: Vec<Box<str>>,
    titles: Starts,
}

impl std::fmt::Debug for SharedTexts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedTexts")
            .field("chunks", &self.chunks.len())
            .finish()
    }
}

impl SharedTexts {
    /// As [`Texts::get`], for the rows there were when these were shared.
    pub fn get(&self, at: TextsAt, which: Text) -> Option<Cell<'_>> {
        let chunk = self.chunks.get(at.chunk())?;
        let shared = Shared {
            common: &self.common,
            prefixes: &self.prefixes,
            titles: &self.titles,
        };
        row_texts::get(chunk.get(at.offset()..)?, which, shared)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts_of(i: usize, name: &str) -> [Option<String>; COUNT] {
        [
            Some("repo".into()),
            Some(name.into()),
            (!i.is_multiple_of(3)).then(|| format!("s{}", i % 3)),
            None,
            Some(format!("r{i}")),
            Some(String::new()),
        ]
    }

    fn borrowed(texts: &[Option<String>; COUNT]) -> [Option<&str>; COUNT] {
        texts.each_ref().map(|t| t.as_deref())
    }

    fn owned(cells: [Option<Cell<'_>>; COUNT]) -> [Option<String>; COUNT] {
        cells.map(|c| c.map(|c| c.to_string()))
    }

    /// Enough rows to fill several chunks, each read back whole, from the texts and from a
    /// share taken halfway (which does not see the rows added after it).
    #[test]
    fn rows_read_back_across_chunk_boundaries() {
        let mut texts = Texts::new();
        let name = "n".repeat(200);
        let rows = 3 * CHUNK / 200;
        let mut ats = Vec::new();
        let mut shared = None;
        for i in 0..rows {
            ats.push(texts.push(&borrowed(&texts_of(i, &name))));
            if i == rows / 2 {
                shared = Some(texts.share());
            }
        }
        assert!(texts.full.len() >= 2, "{texts:?}");
        let shared = shared.unwrap();
        for (i, &at) in ats.iter().enumerate() {
            let want = texts_of(i, &name);
            assert_eq!(owned(texts.row(at)), want, "row {i}");
            let seen = row_texts::ALL.map(|which| shared.get(at, which));
            if i <= rows / 2 {
                assert_eq!(owned(seen), want, "row {i} in the share");
            } else {
                assert!(seen.iter().all(Option::is_none), "row {i} after the share");
            }
        }
        let chunks: std::collections::BTreeSet<usize> = ats.iter().map(|at| at.chunk()).collect();
        assert!(chunks.len() >= 3, "{chunks:?}");
    }

    /// Titles kept by their starts (see `title_starts.rs`), between columns of every kind,
    /// over several chunks: each row reads back as given, from the texts and from a share
    /// taken while starts were still being found (which reads the rows before it, and only
    /// those).
    #[test]
    fn titles_kept_by_their_start_read_back_across_chunks_and_from_a_share() {
        let first = [
            "payments-api v2.30.9 → staging",
            "INC-1009: 決済APIの遅延",
            "Ledger",
        ];
        let then = ["Checkout web #4", "東京リージョン監視 (38)"];
        let rows = 3 * CHUNK / 80;
        let half = rows / 2;
        let row = |i: usize| -> [Option<String>; COUNT] {
            let name = match i < half {
                true => first[i % first.len()],
                false => then[i % then.len()],
            };
            [
                Some("deploy".into()),
                Some(format!("{name} · copy {i}")),
                None,
                Some(format!("gen-{i}")),
                Some(format!(
                    "a text of sixty bytes or so, not compact, row {i:>8}"
                )),
                Some("2024-12-28T22:14:00Z".into()),
            ]
        };
        let (mut texts, mut ats, mut shared) = (Texts::new(), Vec::new(), None);
        for i in 0..rows {
            if i == half {
                shared = Some((texts.share(), texts.titles.kept().len()));
            }
            ats.push(texts.push(&borrowed(&row(i))));
        }
        let (shared, starts_then) = shared.unwrap();
        assert!(
            texts.titles.kept().len() > starts_then,
            "found after the share"
        );
        assert!(texts.full.len() >= 2, "{texts:?}");
        for (i, &at) in ats.iter().enumerate() {
            assert_eq!(owned(texts.row(at)), row(i), "row {i}");
            let seen = row_texts::ALL.map(|which| shared.get(at, which));
            if i < half {
                assert_eq!(owned(seen), row(i), "row {i} in the share");
            } else {
                assert!(seen.iter().all(Option::is_none), "row {i} after the share");
            }
        }
        let joined = |at| matches!(texts.get(at, Text::Title), Some(Cell::Joined(_)));
        assert!(
            ats[30..half].iter().all(|&at| joined(at)),
            "after the first rounds"
        );
        assert!(
            ats[half + 30..].iter().all(|&at| joined(at)),
            "the later ones too"
        );
    }

    /// A row larger than a chunk takes one of its own; the rows around it are read back.
    #[test]
    fn a_row_larger_than_a_chunk() {
        let mut texts = Texts::new();
        let small = texts.push(&borrowed(&texts_of(1, "before")));
        let huge = "é".repeat(CHUNK / 2 + 10);
        let large = texts.push(&borrowed(&texts_of(2, &huge)));
        let after = texts.push(&borrowed(&texts_of(3, "after")));
        assert_eq!(texts.get(small, Text::Title).unwrap(), "before");
        assert_eq!(texts.get(large, Text::Title).unwrap(), huge.as_str());
        assert_eq!(texts.get(large, Text::Id).unwrap(), "r2");
        assert_eq!(texts.get(after, Text::Title).unwrap(), "after");
        assert_ne!(small.chunk(), large.chunk());
        assert_ne!(large.chunk(), after.chunk());
        assert_eq!(
            texts.share().get(large, Text::Title).unwrap(),
            huge.as_str()
        );
        assert!(texts.filling.capacity() <= CHUNK, "back to the usual size");
    }

    #[test]
    fn a_place_from_other_texts_reads_nothing() {
        let mut other = Texts::new();
        for i in 0..3 {
            other.push(&borrowed(&texts_of(i, "x")));
        }
        let elsewhere = other.push(&borrowed(&texts_of(3, "far")));
        let mut texts = Texts::new();
        texts.push(&borrowed(&texts_of(0, "x")));
        assert_eq!(texts.get(elsewhere, Text::Title), None);
        let beyond = TextsAt::new(7, 0);
        assert_eq!(texts.get(beyond, Text::Title), None);
        assert_eq!(texts.share().get(beyond, Text::Title), None);
    }

    /// Ids and times that print back the same are kept compact; the others, and the same
    /// shapes in the columns that are never compact, as they came; all read back as given.
    #[test]
    fn compact_columns_read_back_exactly_as_they_came() {
        let rows: [[Option<&str>; COUNT]; 5] = [
            [
                None,
                Some("2024-05-01T12:00:00Z"),
                None,
                Some("gen-7"),
                Some("res_12"),
                Some("2024-05-01T12:00:00Z"),
            ],
            [
                None,
                None,
                None,
                Some("123e4567-e89b-12d3-a456-426614174000"),
                Some("res_007"),
                Some("2024-05-01T12:00:00.000Z"),
            ],
            [
                None,
                None,
                None,
                Some("123E4567-E89B-12D3-A456-426614174000"),
                Some("res_"),
                Some("2024-05-01T12:00:00+00:00"),
            ],
            [
                None,
                None,
                None,
                Some("42"),
                Some("r-1"),
                Some("2024-05-01T12:00:00.000000Z"),
            ],
            [
                None,
                None,
                None,
                None,
                Some("9223372036854775807"),
                Some("1969-12-31T23:59:59Z"),
            ],
        ];
        let mut texts = Texts::new();
        let mut sizes = Vec::new();
        let ats: Vec<TextsAt> = (rows.iter())
            .map(|row| {
                let before = texts.filling.len();
                let at = texts.push(row);
                sizes.push(texts.filling.len() - before);
                at
            })
            .collect();
        for (row, &at) in rows.iter().zip(&ats) {
            assert_eq!(owned(texts.row(at)), row.map(|t| t.map(str::to_owned)));
        }
        // Row 0: the title as text, the ids (a prefix and a number byte each) and the time (its
        // seconds) compact.
        assert_eq!(sizes[0], COUNT + 20 + 2 + 2 + 5, "{sizes:?}");
        let inline: usize = rows[2].iter().flatten().map(|t| t.len()).sum();
        assert_eq!(sizes[2], COUNT + inline, "{sizes:?}: nothing compact");
        assert_eq!(
            texts.prefixes,
            ["gen-", "res_", "", "r-"].map(Box::<str>::from)
        );
    }

    /// The prefixes kept are the first [`COMMON`]; an id of another prefix stays text.
    #[test]
    fn ids_past_the_prefixes_kept_stay_text() {
        let mut texts = Texts::new();
        let ids: Vec<String> = (0..COMMON + 5).map(|i| format!("p{i}x-1")).collect();
        let ats: Vec<TextsAt> = (ids.iter())
            .map(|id| texts.push(&[None, None, None, None, Some(id.as_str()), None]))
            .collect();
        assert_eq!(texts.prefixes.len(), COMMON);
        for (id, &at) in ids.iter().zip(&ats) {
            assert_eq!(texts.get(at, Text::Id).unwrap(), id.as_str());
        }
        let share = texts.share();
        assert_eq!(share.get(ats[3], Text::Id).unwrap(), "p3x-1");
    }

    /// Past the most chunks a place can say, rows read no texts rather than another row's.
    #[test]
    fn rows_past_the_last_chunk_read_nothing() {
        assert_eq!(
            TextsAt::new(MAX_CHUNKS - 2, CHUNK - 1).chunk(),
            MAX_CHUNKS - 2
        );
        assert_eq!(TextsAt::new(MAX_CHUNKS - 2, CHUNK - 1).offset(), CHUNK - 1);
        assert_eq!(TextsAt::new(MAX_CHUNKS - 1, 0), TextsAt::NOWHERE);
        assert_eq!(TextsAt::new(0, CHUNK), TextsAt::NOWHERE);
        let mut texts = Texts::new();
        texts.full = vec![Arc::from(""); MAX_CHUNKS - 1];
        let at = texts.push(&borrowed(&texts_of(1, "late")));
        assert_eq!(at, TextsAt::NOWHERE);
        assert!(texts.row(at).iter().all(Option::is_none));
        assert!(texts.filling.is_empty());
    }

    /// Types and statuses are kept once each, up to [`COMMON`] of them; past that, and for a
    /// long one, in the row; every row reads back what it was given, a share too.
    #[test]
    fn types_and_statuses_are_kept_once_and_read_back() {
        let mut texts = Texts::new();
        let long = "s".repeat(COMMON_LEN + 1);
        let rows: Vec<[Option<String>; COUNT]> = (0..3 * COMMON)
            .map(|i| {
                let status = if i.is_multiple_of(5) {
                    long.clone()
                } else {
                    format!("st{}", i % 3)
                };
                [
                    Some(format!("type {}", i % (COMMON + 10))),
                    Some(format!("type {i}")),
                    Some(status),
                    None,
                    Some(format!("r{i}")),
                    None,
                ]
            })
            .collect();
        let ats: Vec<TextsAt> = rows.iter().map(|r| texts.push(&borrowed(r))).collect();
        assert_eq!(texts.common.len(), COMMON);
        assert!(
            texts
                .common
                .iter()
                .all(|c| c.starts_with("type") || c.starts_with("st"))
        );
        let shared = texts.share();
        for (row, &at) in rows.iter().zip(&ats) {
            assert_eq!(owned(texts.row(at)), *row);
            let seen = row_texts::ALL.map(|which| shared.get(at, which));
            assert_eq!(owned(seen), *row);
        }
        // A row of the first type and status takes a byte for each.
        let before = texts.filling.len();
        texts.push(&[Some("type 0"), None, Some("st1"), None, None, None]);
        assert_eq!(texts.filling.len() - before, COUNT);
    }
}
