//! How the texts of a row's columns are packed, one row after another in the listing's
//! [`Texts`](super::texts::Texts): one `char` per column, then the texts one after the other.
//! A column's char is `0` when it has no value, 1 to [`COMMON`] for one of the listing's common
//! values (the few types and statuses that every row repeats, kept once), then one of the
//! [`KINDS`] of compact texts (see `compact.rs`: a time, a prefixed number, a UUID, each
//! followed by its payload), then [`JOINED`] for a title kept as one of the listing's title
//! starts and its rest (see `title_starts.rs`: followed by the start's index and the rest's
//! length, each as a char, and the rest), else its length plus [`INLINE`]. The char's value skips the
//! surrogates, so a column of over a megabyte fits, and the usual short ones take one byte
//! each. A packed row says where it ends, so rows need no separator.

use std::ops::Deref;

use super::compact::{Compact, KINDS, Made, payload_len};
use super::title_starts::{Joined, Starts};

/// The columns kept, in their order in the string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Text {
    Type,
    Title,
    Status,
    ExternalId,
    Id,
    UpdatedAt,
}

pub(crate) const COUNT: usize = 6;

/// How many common values a listing keeps: their chars take one byte, as do the lengths of
/// texts of up to 42 bytes (see [`INLINE`]).
pub(crate) const COMMON: usize = 64;

/// The char of a title kept as a start and its rest.
const JOINED: usize = COMMON + 1 + KINDS;

/// The char of a text kept as itself, less its length.
const INLINE: usize = JOINED + 1;

/// The longest column text kept whole; a longer one (a name of over a megabyte) is cut at a
/// character boundary: the table shows a screen's width of it, the detail the whole item.
pub(crate) const MAX_LEN: usize = 0x10_FFFF - 0x800 - INLINE;

/// A column as it is packed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Packed<'a> {
    Missing,
    /// The listing's common value of this index (under [`COMMON`]).
    Common(usize),
    /// The text itself, cut to [`MAX_LEN`].
    Inline(&'a str),
    /// A text in a compact form that prints it back.
    Compact(Compact),
    /// A title: the listing's title start of this index, then `rest`.
    Joined {
        start: usize,
        rest: &'a str,
    },
}

impl<'a> Packed<'a> {
    /// `text` itself, cut to [`MAX_LEN`] at a character boundary.
    pub(crate) fn inline(text: &'a str) -> Self {
        Packed::Inline(cut(text))
    }

    /// The value of its char.
    fn value(self) -> usize {
        match self {
            Packed::Missing => 0,
            Packed::Common(index) => index + 1,
            Packed::Compact(compact) => COMMON + 1 + compact.kind(),
            Packed::Joined { .. } => JOINED,
            Packed::Inline(text) => text.len() + INLINE,
        }
    }

    /// The bytes it takes packed: its char and what follows.
    fn len(self) -> usize {
        let payload = match self {
            Packed::Joined { start, rest } => {
                length_char(start).len_utf8() + length_char(rest.len()).len_utf8() + rest.len()
            }
            _ => payload(self.value()),
        };
        length_char(self.value()).len_utf8() + payload
    }
}

/// The bytes after the chars that the column whose char has `value` takes, when its char says
/// (all but [`JOINED`]: see [`joined_at`]).
fn payload(value: usize) -> usize {
    match value {
        0..=COMMON => 0,
        _ if value < JOINED => payload_len(value - COMMON - 1),
        _ => value.saturating_sub(INLINE),
    }
}

/// The bytes `columns` take packed.
pub(crate) fn packed_len(columns: &[Packed<'_>; COUNT]) -> usize {
    columns.iter().map(|&c| c.len()).sum()
}

/// Appends `columns`, packed, to `out`.
pub(crate) fn pack(columns: &[Packed<'_>; COUNT], out: &mut String) {
    for column in columns {
        out.push(length_char(column.value()));
    }
    for column in columns {
        match column {
            Packed::Inline(text) => out.push_str(text),
            Packed::Compact(compact) => compact.write_payload(out),
            &Packed::Joined { start, rest } => {
                out.push(length_char(start));
                out.push(length_char(rest.len()));
                out.push_str(rest);
            }
            Packed::Missing | Packed::Common(_) => {}
        }
    }
}

/// The values a listing keeps once for all its rows.
#[derive(Clone, Copy)]
pub(crate) struct Shared<'a> {
    /// The common types and statuses.
    pub common: &'a [Box<str>],
    /// The prefixes of compact numbers.
    pub prefixes: &'a [Box<str>],
    /// The title starts.
    pub titles: &'a Starts,
}

/// One column of the row packed at the start of `packed` (rows packed after it may follow),
/// with the listing's `shared` values.
pub(crate) fn get<'a>(packed: &'a str, which: Text, shared: Shared<'a>) -> Option<Cell<'a>> {
    let mut chars = packed.chars();
    let mut values = [0; COUNT];
    for value in &mut values {
        *value = length_of(chars.next()?);
    }
    let mut texts = chars.as_str();
    let which = which as usize;
    for &value in &values[..which] {
        let skip = match value {
            JOINED => joined_at(texts)?.2,
            value => payload(value),
        };
        texts = texts.get(skip..)?;
    }
    match values[which] {
        0 => None,
        value if value <= COMMON => shared.common.get(value - 1).map(|c| Cell::Text(c)),
        JOINED => {
            let (start, rest, _) = joined_at(texts)?;
            Joined::new(shared.titles.get(start)?, rest).map(Cell::Joined)
        }
        value if value < JOINED => {
            let compact = Compact::read(value - COMMON - 1, texts.as_bytes())?;
            compact.text(shared.prefixes).map(Cell::Made)
        }
        value => texts.get(..payload(value)).map(Cell::Text),
    }
}

/// A [`JOINED`] column's payload at the start of `payload`: the index of its start, its rest,
/// and the bytes they take.
fn joined_at(payload: &str) -> Option<(usize, &str, usize)> {
    let mut chars = payload.chars();
    let start = length_of(chars.next()?);
    let len = length_of(chars.next()?);
    let after = chars.as_str();
    let rest = after.get(..len)?;
    Some((start, rest, payload.len() - after.len() + len))
}

/// A column's text as read from a listing's texts: borrowed from them, printed back from its
/// compact form, or a title put back together from its start and rest (no allocation in any
/// case). Reads as a `str`.
#[derive(Clone, Copy)]
pub enum Cell<'a> {
    Text(&'a str),
    Made(Made),
    Joined(Joined),
}

impl<'a> Cell<'a> {
    /// The text, when it is borrowed from the listing's (a column never kept compact or
    /// joined: the type, the status).
    pub fn borrowed(self) -> Option<&'a str> {
        match self {
            Cell::Text(text) => Some(text),
            Cell::Made(_) | Cell::Joined(_) => None,
        }
    }
}

impl Deref for Cell<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        match self {
            Cell::Text(text) => text,
            Cell::Made(made) => made.as_str(),
            Cell::Joined(joined) => joined.as_str(),
        }
    }
}

impl PartialEq for Cell<'_> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl PartialEq<&str> for Cell<'_> {
    fn eq(&self, other: &&str) -> bool {
        **self == **other
    }
}

impl From<Cell<'_>> for Box<str> {
    fn from(cell: Cell<'_>) -> Box<str> {
        Box::from(&*cell)
    }
}

impl std::fmt::Display for Cell<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self)
    }
}

impl std::fmt::Debug for Cell<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

/// Every column, in the order they are packed.
pub(crate) const ALL: [Text; COUNT] = [
    Text::Type,
    Text::Title,
    Text::Status,
    Text::ExternalId,
    Text::Id,
    Text::UpdatedAt,
];

fn cut(text: &str) -> &str {
    if text.len() <= MAX_LEN {
        return text;
    }
    let mut end = MAX_LEN;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// `n` as a char: its value, past the surrogates once it reaches them.
fn length_char(n: usize) -> char {
    let value = if n >= 0xD800 { n + 0x800 } else { n };
    u32::try_from(value)
        .ok()
        .and_then(char::from_u32)
        .unwrap_or('\0')
}

fn length_of(c: char) -> usize {
    let value = c as usize;
    if value >= 0xE000 {
        value - 0x800
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONE: Shared<'static> = Shared {
        common: &[],
        prefixes: &[],
        titles: &Starts::new(),
    };

    fn read<'a>(packed: &'a str, shared: Shared<'a>) -> [Option<String>; COUNT] {
        ALL.map(|t| get(packed, t, shared).map(|c| c.to_string()))
    }

    fn owned(texts: [Option<&str>; COUNT]) -> [Option<String>; COUNT] {
        texts.map(|t| t.map(str::to_owned))
    }

    fn round_trip(texts: [Option<&str>; COUNT]) {
        let columns = texts.map(|t| t.map_or(Packed::Missing, Packed::inline));
        let mut packed = String::new();
        pack(&columns, &mut packed);
        assert_eq!(packed.len(), packed_len(&columns));
        packed.push_str("\u{3}next row");
        assert_eq!(read(&packed, NONE), owned(texts));
    }

    /// Compact texts between others, each read back as it was, the texts after them too.
    #[test]
    fn compact_texts_read_back_between_texts() {
        let prefixes: Vec<Box<str>> = vec!["res_".into()];
        let shared = Shared {
            common: &[],
            prefixes: &prefixes,
            titles: &Starts::new(),
        };
        let time = "2024-12-28T22:14:00.120Z";
        let uuid = "123e4567-e89b-12d3-a456-426614174000";
        let columns = [
            Packed::Compact(Compact::uuid(uuid).unwrap()),
            Packed::inline("title"),
            Packed::Compact(Compact::time(time).unwrap()),
            Packed::Compact(Compact::Number {
                prefix: 0,
                value: 1234,
            }),
            Packed::inline("id"),
            Packed::Missing,
        ];
        let mut packed = String::new();
        pack(&columns, &mut packed);
        assert_eq!(packed.len(), packed_len(&columns));
        assert_eq!(
            read(&packed, shared),
            owned([
                Some(uuid),
                Some("title"),
                Some(time),
                Some("res_1234"),
                Some("id"),
                None
            ])
        );
        assert!(
            packed.len() < 6 + uuid.len() + time.len(),
            "{}",
            packed.len()
        );
    }

    /// Titles kept by a start (its index one byte or two), between texts
    /// of every kind: each read back as it was.
    #[test]
    fn joined_titles_read_back_between_texts() {
        let names: Vec<String> = (0..300).map(|i| format!("start {i} · ")).collect();
        let titles = Starts::of(&names.iter().map(String::as_str).collect::<Vec<_>>());
        let shared = Shared {
            common: &[],
            prefixes: &[],
            titles: &titles,
        };
        let long = "é".repeat(55);
        let columns = [
            Packed::Joined {
                start: 299,
                rest: &long,
            },
            Packed::Joined {
                start: 3,
                rest: "copy 7",
            },
            Packed::Compact(Compact::time("2024-12-28T22:14:00Z").unwrap()),
            Packed::Joined {
                start: 127,
                rest: "",
            },
            Packed::inline("id"),
            Packed::Joined {
                start: 300,
                rest: "x",
            },
        ];
        let mut packed = String::new();
        pack(&columns, &mut packed);
        assert_eq!(packed.len(), packed_len(&columns));
        packed.push_str("\u{3}next row");
        let first = format!("start 299 · {long}");
        assert_eq!(
            read(&packed, shared),
            owned([
                Some(&first),
                Some("start 3 · copy 7"),
                Some("2024-12-28T22:14:00Z"),
                Some("start 127 · "),
                Some("id"),
                None,
            ])
        );
        let cell = get(&packed, Text::Title, shared).unwrap();
        assert!(cell.borrowed().is_none(), "put together, not borrowed");
    }

    /// Common values are read from the listing's, the texts around them from the row.
    #[test]
    fn common_values_read_back_between_texts() {
        let common: Vec<Box<str>> = (0..COMMON).map(|i| format!("common {i}").into()).collect();
        let long = "l".repeat(300);
        let columns = [
            Packed::Common(0),
            Packed::inline("title"),
            Packed::Common(COMMON - 1),
            Packed::Missing,
            Packed::inline(&long),
            Packed::inline("2024"),
        ];
        let mut packed = String::new();
        pack(&columns, &mut packed);
        assert_eq!(packed.len(), packed_len(&columns));
        let shared = Shared {
            common: &common,
            prefixes: &[],
            titles: &Starts::new(),
        };
        assert_eq!(
            read(&packed, shared),
            owned([
                Some("common 0"),
                Some("title"),
                Some("common 63"),
                None,
                Some(long.as_str()),
                Some("2024")
            ])
        );
        assert_eq!(
            packed.len(),
            6 + 1 + "title".len() + long.len() + "2024".len()
        );
    }

    #[test]
    fn every_column_reads_back_absent_empty_or_as_given() {
        round_trip([None; COUNT]);
        round_trip([Some(""); COUNT]);
        round_trip([
            Some("repo"),
            None,
            Some(""),
            Some("ext-1"),
            Some("r1"),
            Some("2024"),
        ]);
        round_trip([
            None,
            Some("ünïcödé · キュー"),
            None,
            None,
            None,
            Some("\u{0}\u{7f}x"),
        ]);
    }

    /// Lengths around the surrogates, which no char holds, and the longest kept.
    #[test]
    fn long_texts_keep_their_length() {
        let near = |value: usize| [value - INLINE - 1, value - INLINE, value - INLINE + 1];
        let lengths = [62, 63, 127, 128, 0xD7FF, 0xD800, 0xDFFF, 0xE000, MAX_LEN];
        for n in lengths.into_iter().chain(near(0xD800)).chain(near(0xE000)) {
            let long = "a".repeat(n);
            round_trip([Some("t"), Some(&long), Some("s"), None, Some("id"), None]);
        }
    }

    #[test]
    fn a_text_past_the_longest_is_cut_at_a_character() {
        let long = "é".repeat(MAX_LEN / 2 + 5);
        let texts = [None, Some(long.as_str()), None, None, Some("id"), None];
        let columns = texts.map(|t| t.map_or(Packed::Missing, Packed::inline));
        let mut packed = String::new();
        pack(&columns, &mut packed);
        assert_eq!(packed.len(), packed_len(&columns));
        let title = get(&packed, Text::Title, NONE).unwrap().borrowed().unwrap();
        assert!(title.len() <= MAX_LEN && long.starts_with(title) && title.len() > MAX_LEN - 2);
        assert_eq!(get(&packed, Text::Id, NONE).unwrap(), "id");
    }
}
