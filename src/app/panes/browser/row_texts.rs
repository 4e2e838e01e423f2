//! The texts of a row's columns in one allocation: at a million rows, seven boxed strings a row
//! cost more in pointers and allocator overhead than in text. The string starts with one
//! `char` per column, its length plus one (`0`: the column has no value), then the texts one
//! after the other. A length is a char's value (skipping the surrogates), so a column of up to
//! 1,112,062 bytes fits, and the usual short ones take one byte each.

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

const COUNT: usize = 6;

/// The longest column text kept whole; a longer one (a name of over a megabyte) is cut at a
/// character boundary: the table shows a screen's width of it, the detail the whole item.
pub const MAX_LEN: usize = 0x10_FFFF - 0x800 - 1;

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RowTexts(Box<str>);

impl RowTexts {
    pub fn new(texts: [Option<&str>; COUNT]) -> RowTexts {
        let texts = texts.map(|t| t.map(cut));
        let len: usize = texts.iter().flatten().map(|t| t.len() + 4).sum();
        let mut packed = String::with_capacity(len + COUNT);
        for text in &texts {
            packed.push(length_char(text.map_or(0, |t| t.len() + 1)));
        }
        for text in texts.iter().flatten() {
            packed.push_str(text);
        }
        RowTexts(packed.into_boxed_str())
    }

    pub fn get(&self, which: Text) -> Option<&str> {
        let mut chars = self.0.chars();
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
}

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

    const ALL: [Text; COUNT] = [
        Text::Type,
        Text::Title,
        Text::Status,
        Text::ExternalId,
        Text::Id,
        Text::UpdatedAt,
    ];

    fn round_trip(texts: [Option<&str>; COUNT]) {
        let packed = RowTexts::new(texts);
        assert_eq!(ALL.map(|t| packed.get(t)), texts);
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
        let packed = RowTexts::new([None, Some(&long), None, None, Some("id"), None]);
        let title = packed.get(Text::Title).unwrap();
        assert!(title.len() <= MAX_LEN && long.starts_with(title) && title.len() > MAX_LEN - 2);
        assert_eq!(packed.get(Text::Id), Some("id"));
    }
}
