//! How the texts of a row's columns are packed, one row after another in the listing's
//! [`Texts`](super::texts::Texts): one `char` per column, then the texts one after the other.
//! A column's char is `0` when it has no value, 1 to [`COMMON`] for one of the listing's common
//! values (the few types and statuses that every row repeats, kept once), else its length plus
//! [`COMMON`] plus one. The char's value skips the surrogates, so a column of over a megabyte
//! fits, and the usual short ones take one byte each. A packed row says where it ends, so rows
//! need no separator.

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

pub const COUNT: usize = 6;

/// How many common values a listing keeps: their chars take one byte, as do the lengths of
/// texts of up to 62 bytes.
pub const COMMON: usize = 64;

/// The longest column text kept whole; a longer one (a name of over a megabyte) is cut at a
/// character boundary: the table shows a screen's width of it, the detail the whole item.
pub const MAX_LEN: usize = 0x10_FFFF - 0x800 - 1 - COMMON;

/// A column as it is packed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Packed<'a> {
    Missing,
    /// The listing's common value of this index (under [`COMMON`]).
    Common(usize),
    /// The text itself, cut to [`MAX_LEN`].
    Inline(&'a str),
}

impl<'a> Packed<'a> {
    /// `text` itself, cut to [`MAX_LEN`] at a character boundary.
    pub fn inline(text: &'a str) -> Self {
        Packed::Inline(cut(text))
    }

    /// The value of its char.
    fn value(self) -> usize {
        match self {
            Packed::Missing => 0,
            Packed::Common(index) => index + 1,
            Packed::Inline(text) => text.len() + 1 + COMMON,
        }
    }
}

/// The bytes `columns` take packed.
pub fn packed_len(columns: &[Packed<'_>; COUNT]) -> usize {
    let text = |c: Packed<'_>| {
        if let Packed::Inline(t) = c {
            t.len()
        } else {
            0
        }
    };
    (columns.iter())
        .map(|&c| length_char(c.value()).len_utf8() + text(c))
        .sum()
}

/// Appends `columns`, packed, to `out`.
pub fn pack(columns: &[Packed<'_>; COUNT], out: &mut String) {
    for column in columns {
        out.push(length_char(column.value()));
    }
    for column in columns {
        if let Packed::Inline(text) = column {
            out.push_str(text);
        }
    }
}

/// One column of the row packed at the start of `packed` (rows packed after it may follow),
/// `common` the listing's common values.
pub fn get<'a>(packed: &'a str, which: Text, common: &'a [Box<str>]) -> Option<&'a str> {
    let mut chars = packed.chars();
    let mut values = [0; COUNT];
    for value in &mut values {
        *value = length_of(chars.next()?);
    }
    let texts = chars.as_str();
    let inline_len = |value: usize| value.saturating_sub(COMMON + 1);
    let which = which as usize;
    match values[which] {
        0 => None,
        value if value <= COMMON => common.get(value - 1).map(|c| &**c),
        value => {
            let start: usize = values[..which].iter().map(|&v| inline_len(v)).sum();
            texts.get(start..start + inline_len(value))
        }
    }
}

/// Every column, in the order they are packed.
pub const ALL: [Text; COUNT] = [
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

    fn round_trip(texts: [Option<&str>; COUNT]) {
        let columns = texts.map(|t| t.map_or(Packed::Missing, Packed::inline));
        let mut packed = String::new();
        pack(&columns, &mut packed);
        assert_eq!(packed.len(), packed_len(&columns));
        packed.push_str("\u{3}next row");
        assert_eq!(ALL.map(|t| get(&packed, t, &[])), texts);
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
        assert_eq!(
            ALL.map(|t| get(&packed, t, &common)),
            [
                Some("common 0"),
                Some("title"),
                Some("common 63"),
                None,
                Some(long.as_str()),
                Some("2024")
            ]
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
        let near = |value: usize| [value - COMMON - 2, value - COMMON - 1, value - COMMON];
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
        let title = get(&packed, Text::Title, &[]).unwrap();
        assert!(title.len() <= MAX_LEN && long.starts_with(title) && title.len() > MAX_LEN - 2);
        assert_eq!(get(&packed, Text::Id, &[]), Some("id"));
    }
}
