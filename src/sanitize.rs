//! Text from the server is untrusted. Everything that could drive a terminal (C0 and C1 controls,
//! hence every ESC/CSI/OSC/DCS sequence, DEL) or reorder what is shown (bidirectional overrides and
//! isolates) is replaced by a visible stand-in before it reaches any output.

use std::borrow::Cow;

/// Whether `c` must not reach a terminal as it is. Newline and tab are handled by the callers.
fn is_dangerous(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        | '\u{061c}' | '\u{feff}')
}

/// The visible stand-in for a dangerous character: control pictures for C0 (`␛` for ESC), `␡`
/// for DEL, and `�` for C1 controls and bidi marks.
fn stand_in(c: char) -> char {
    match c {
        '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
        '\u{7f}' => '\u{2421}',
        _ => '\u{fffd}',
    }
}

/// Neutralises text for a single line: newlines and tabs become visible stand-ins too.
pub fn line(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_dangerous) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| if is_dangerous(c) { stand_in(c) } else { c })
            .collect(),
    )
}

/// Neutralises text that may span lines: `\n` is kept, a tab becomes spaces, `\r` and the rest are
/// replaced like in [`line`].
pub fn multiline(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && is_dangerous(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push('\n'),
            '\t' => out.push_str("    "),
            c if is_dangerous(c) => out.push(stand_in(c)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A short, safe excerpt of a raw body for error messages: at most `max_chars` characters.
pub fn excerpt(body: &[u8], max_chars: usize) -> String {
    let text = String::from_utf8_lossy(body);
    let trimmed = text.trim();
    let mut out: String = line(trimmed).chars().take(max_chars).collect();
    if trimmed.chars().count() > max_chars {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_become_inert_text() {
        let hostile = "a\u{1b}[2J\u{1b}]0;title\u{7}b\u{9b}31mc\u{202e}d";
        let safe = line(hostile);
        assert!(!safe.chars().any(is_dangerous));
        assert_eq!(safe, "a␛[2J␛]0;title␇b�31mc�d");
    }

    #[test]
    fn clean_text_is_borrowed() {
        assert!(matches!(line("héllo wörld ✓"), Cow::Borrowed(_)));
        assert!(matches!(multiline("two\nlines"), Cow::Borrowed(_)));
    }

    #[test]
    fn multiline_keeps_newlines_only() {
        assert_eq!(multiline("a\n\tb\r\n"), "a\n    b␍\n");
    }

    #[test]
    fn excerpt_is_short_and_safe() {
        assert_eq!(excerpt(b"  <html>\x1b[31m</html> ", 10), "<html>␛[31…");
    }
}
