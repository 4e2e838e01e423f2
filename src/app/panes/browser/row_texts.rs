//! How the texts of a row's columns are packed, one row after another in the listing's
//! [`Texts`](super::texts::Texts): one `char` per column, its length plus one (`0`: the column
//! has no value), then the texts one after the other. A length is a char's value (skipping the
//! surrogates), so a column of up to 1,112,062 bytes fits, and the usual short ones take one
//! byte each. A packed row says where it ends, so rows need no separator.

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

/// The longest column text kept whole; a longer one (a name of over a megabyte) is cut at a
/// character boundary: the table shows a screen's width of it, the detail the whole item.
pub const MAX_LEN: usize = 0x10_FFFF - 0x800 - 1;

/// The bytes `texts` take packed (after [`cut`]).
pub fn packed_len(texts: &[Option<&str>; COUNT]) -> usize {
    let packed = |text: &str| length_char(text.len() + 1).len_utf8() + text.len();
    texts.iter().map(|t| t.map_or(1, |t| packed(cut(t)))).sum()
}

/// Appends `texts`, packed, to `out`.
pub fn pack(texts: &[Option<&str>; COUNT], out: &mut String) {
    let texts = texts.map(|t| t.map(cut));
    for text in &texts {
        out.push(length_char(text.map_or(0, |t| t.len() + 1)));
    }
    for text in texts.iter().flatten() {
        out.push_str(text);
    }
}

/// One column of the row packed at the start of `packed` (rows packed after it may follow).
pub fn get(packed: &str, which: Text) -> Option<&str> {
    let mut chars = packed.chars();
    let mut lens = [0; COUNT];
    for len in &mut lens {
        *len = length_of(chars.next()?);
    }
    let texts = chars.as_str();
    let which = which as usize;
    let start: usize = lens[..which].iter().map(|n| n.saturating_sub(1)).sum();
    let len = lens[which].checked_sub(1)?;
    texts.get(start..start + len)
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
        let mut packed = String::new();
        pack(&texts, &mut packed);
        assert_eq!(packed.len(), packed_len(&texts));
        packed.push_str("\u{3}next row");
        assert_eq!(ALL.map(|t| get(&packed, t)), texts);
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
        for n in [127, 128, 0xD7FE, 0xD7FF, 0xD800, 0xDFFF, 0xE000, MAX_LEN] {
            let long = "a".repeat(n);
            round_trip([Some("t"), Some(&long), Some("s"), None, Some("id"), None]);
        }
    }

    #[test]
    fn a_text_past_the_longest_is_cut_at_a_character() {
        let long = "é".repeat(MAX_LEN / 2 + 5);
        let texts = [None, Some(long.as_str()), None, None, Some("id"), None];
        let mut packed = String::new();
        pack(&texts, &mut packed);
        assert_eq!(packed.len(), packed_len(&texts));
        let title = get(&packed, Text::Title).unwrap();
        assert!(title.len() <= MAX_LEN && long.starts_with(title) && title.len() > MAX_LEN - 2);
        assert_eq!(get(&packed, Text::Id), Some("id"));
    }
}
