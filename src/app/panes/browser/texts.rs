//! The column texts of a listing's rows, packed one row after another (see `row_texts.rs`) in
//! chunks of a megabyte, only ever appended to. A row holds where its texts start
//! ([`TextsAt`], eight bytes, `Copy`) instead of a string of its own: at a million rows, one
//! allocation a row cost a pointer, the allocator's header and rounding (about 30 bytes a row),
//! and copying the rows' keys out for a sort meant a cache miss a row on the UI thread. A job
//! takes the chunks as they are ([`SharedTexts`]: the full ones shared, the one being filled
//! copied) and reads the texts itself, off the UI thread.
//!
//! A row whose texts change is not written over: its new texts are appended and it points at
//! them (the old ones stay, unread, until the listing goes).

use std::sync::Arc;

use super::row_texts::{self, COMMON, COUNT, Packed, Text};

/// The size of a chunk; a row packed larger than this takes a chunk of its own (the next row
/// starts another).
pub const CHUNK: usize = 1 << 20;

/// Where a row's texts start: a chunk and an offset in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TextsAt {
    chunk: u32,
    offset: u32,
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
}

/// Sizes only: the texts themselves would flood a listing's debug output.
impl std::fmt::Debug for Texts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Texts")
            .field("full", &self.full.len())
            .field("filling", &self.filling.len())
            .field("common", &self.common.len())
            .finish()
    }
}

impl Texts {
    pub const fn new() -> Texts {
        Texts {
            full: Vec::new(),
            filling: String::new(),
            common: Vec::new(),
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
        if self.filling.capacity() == 0 {
            self.filling.reserve_exact(CHUNK.max(len));
        }
        let at = TextsAt {
            chunk: u32::try_from(self.full.len()).unwrap_or(u32::MAX),
            offset: u32::try_from(self.filling.len()).unwrap_or(u32::MAX),
        };
        row_texts::pack(&columns, &mut self.filling);
        at
    }

    /// How `text`, the `which` column of a row, is packed: a type or status as one of the
    /// common values (made one while there is room), any other text as itself.
    fn packed<'a>(&mut self, which: Text, text: &'a str) -> Packed<'a> {
        if !matches!(which, Text::Type | Text::Status) || text.len() > COMMON_LEN {
            return Packed::inline(text);
        }
        if let Some(index) = self.common.iter().position(|c| **c == *text) {
            return Packed::Common(index);
        }
        if self.common.len() == COMMON {
            return Packed::inline(text);
        }
        self.common.push(text.into());
        Packed::Common(self.common.len() - 1)
    }

    /// The chunk being filled becomes a full one (copied to its size: it is shared from then).
    fn seal(&mut self) {
        self.full.push(Arc::from(self.filling.as_str()));
        self.filling.clear();
        if self.filling.capacity() > CHUNK {
            // It held a row larger than a chunk: back to the usual size.
            self.filling = String::new();
        }
    }

    /// The bytes held: the full chunks and the one being filled.
    pub fn bytes(&self) -> usize {
        self.full.iter().map(|c| c.len()).sum::<usize>() + self.filling.capacity()
    }

    /// One column of the row whose texts start at `at`; `None` when it has no value, or when
    /// `at` lies past these texts (it is from another listing's).
    pub fn get(&self, at: TextsAt, which: Text) -> Option<&str> {
        let chunk = match self.full.get(at.chunk as usize) {
            Some(full) => full,
            None if at.chunk as usize == self.full.len() => self.filling.as_str(),
            None => return None,
        };
        row_texts::get(chunk.get(at.offset as usize..)?, which, &self.common)
    }

    /// Every column of the row at `at`, in their order.
    pub fn row(&self, at: TextsAt) -> [Option<&str>; COUNT] {
        row_texts::ALL.map(|which| self.get(at, which))
    }

    /// The texts as they are now, for a job on another thread: the full chunks shared, a copy of
    /// the one being filled (at most a chunk) and of the common values (a few kilobytes).
    pub fn share(&self) -> SharedTexts {
        let mut chunks = self.full.clone();
        chunks.push(Arc::from(self.filling.as_str()));
        SharedTexts {
            chunks,
            common: self.common.clone(),
        }
    }
}

/// The texts of a listing at one moment, read by a job while the listing goes on growing.
#[derive(Clone, Default)]
pub struct SharedTexts {
    chunks: Vec<Arc<str>>,
    common: Vec<Box<str>>,
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
    pub fn get(&self, at: TextsAt, which: Text) -> Option<&str> {
        let chunk = self.chunks.get(at.chunk as usize)?;
        row_texts::get(chunk.get(at.offset as usize..)?, which, &self.common)
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
            assert_eq!(texts.row(at), borrowed(&want), "row {i}");
            let seen = row_texts::ALL.map(|which| shared.get(at, which));
            if i <= rows / 2 {
                assert_eq!(seen, borrowed(&want), "row {i} in the share");
            } else {
                assert!(seen.iter().all(Option::is_none), "row {i} after the share");
            }
        }
        let chunks: std::collections::BTreeSet<u32> = ats.iter().map(|at| at.chunk).collect();
        assert!(chunks.len() >= 3, "{chunks:?}");
    }

    /// A row larger than a chunk takes one of its own; the rows around it are read back.
    #[test]
    fn a_row_larger_than_a_chunk() {
        let mut texts = Texts::new();
        let small = texts.push(&borrowed(&texts_of(1, "before")));
        let huge = "é".repeat(CHUNK / 2 + 10);
        let large = texts.push(&borrowed(&texts_of(2, &huge)));
        let after = texts.push(&borrowed(&texts_of(3, "after")));
        assert_eq!(texts.get(small, Text::Title), Some("before"));
        assert_eq!(texts.get(large, Text::Title), Some(huge.as_str()));
        assert_eq!(texts.get(large, Text::Id), Some("r2"));
        assert_eq!(texts.get(after, Text::Title), Some("after"));
        assert_ne!(small.chunk, large.chunk);
        assert_ne!(large.chunk, after.chunk);
        assert_eq!(texts.share().get(large, Text::Title), Some(huge.as_str()));
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
        let beyond = TextsAt {
            chunk: 7,
            offset: 0,
        };
        assert_eq!(texts.get(beyond, Text::Title), None);
        assert_eq!(texts.share().get(beyond, Text::Title), None);
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
            assert_eq!(texts.row(at), borrowed(row));
            let seen = row_texts::ALL.map(|which| shared.get(at, which));
            assert_eq!(seen, borrowed(row));
        }
        // A row of the first type and status takes a byte for each.
        let before = texts.filling.len();
        texts.push(&[Some("type 0"), None, Some("st1"), None, None, None]);
        assert_eq!(texts.filling.len() - before, COUNT);
    }
}
