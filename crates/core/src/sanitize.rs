//! Text from the server is untrusted. Everything that could drive a terminal (C0 and C1 controls,
//! hence every ESC/CSI/OSC/DCS sequence, DEL) or reorder what is shown (bidirectional overrides and
//! isolates) is replaced by a visible stand-in before it reaches any output; in JSON output it is
//! escaped instead, so that the data stays exact.

use std::borrow::Cow;
use std::fmt::Write;

/// Whether `c` must not reach a terminal as it is. Newline and tab are handled by the callers.
pub fn is_dangerous(c: char) -> bool {
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

/// Whether `text` holds a character [`is_dangerous`] finds (a newline aside when
/// `newline_allowed`).
fn has_dangerous(text: &str, newline_allowed: bool) -> bool {
    has_dangerous_but(text, if newline_allowed { b"\n" } else { b"" })
}

/// Whether `text` holds a character [`is_dangerous`] finds other than tab, newline and return
/// (which csv quotes and tsv escapes).
pub(crate) fn has_dangerous_beside_whitespace(text: &str) -> bool {
    has_dangerous_but(text, b"\t\n\r")
}

/// Whether `text` holds a character [`is_dangerous`] finds other than the control bytes
/// `allowed`, told from its bytes: printable ASCII at once (most cells), else a C0 control byte
/// or what [`json_needs_escape`] finds, the same set. `list --all -o table` over 100,000
/// resources neutralises 600,000 cells: read char by char they took 2% of its samples (perf),
/// and most names hold a `·`, which sent them down the char path.
fn has_dangerous_but(text: &str, allowed: &[u8]) -> bool {
    let bytes = text.as_bytes();
    if bytes.iter().all(|b| (b' '..=b'~').contains(b)) {
        return false;
    }
    bytes.iter().any(|&b| b < b' ' && !allowed.contains(&b)) || json_needs_escape(bytes)
}

/// Neutralises text for a single line: newlines and tabs become visible stand-ins too.
pub fn line(text: &str) -> Cow<'_, str> {
    if !has_dangerous(text, false) {
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
    if !has_dangerous(text, true) {
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

/// Makes serialised JSON safe to print: DEL, C1 controls and bidi marks, which serde_json writes
/// raw, become `\uXXXX` escapes (lowercase hex, as serde_json writes C0 controls). The result is
/// valid JSON with the same meaning, because such characters can only occur inside JSON strings,
/// where an escape stands for the character itself; a consumer reading the output gets the exact
/// data while a terminal showing it gets nothing it would act on.
pub fn json_for_terminal(json: &str) -> Cow<'_, str> {
    // C0 controls never reach here raw: JSON escapes them inside strings, and outside strings
    // only its whitespace (tab, newline, return) may occur, which must stay as it is.
    let needs_escape = |c: char| c > '\u{1f}' && is_dangerous(c);
    if !json_needs_escape(json.as_bytes()) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if needs_escape(c) {
            // Every such character is in the Basic Multilingual Plane: one escape, no surrogates.
            let _ = write!(out, "\\u{:04x}", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Whether UTF-8 JSON text holds a character [`json_for_terminal`] escapes: DEL, a C1 control or a
/// bidi mark. A byte scan (`list --all` runs it over every byte it writes): each such character
/// starts with one of five lead bytes, found with memchr, and is then told by its next bytes.
pub(crate) fn json_needs_escape(json: &[u8]) -> bool {
    let at = |pos: usize| -> bool {
        let next = |k: usize| json.get(pos + k).copied().unwrap_or(0);
        match json[pos] {
            0x7f => true,
            // U+0080 to U+009F
            0xc2 => (0x80..=0x9f).contains(&next(1)),
            // U+061C
            0xd8 => next(1) == 0x9c,
            // U+200E, U+200F, U+202A to U+202E; U+2066 to U+2069
            0xe2 => match next(1) {
                0x80 => matches!(next(2), 0x8e | 0x8f | 0xaa..=0xae),
                0x81 => (0xa6..=0xa9).contains(&next(2)),
                _ => false,
            },
            // U+FEFF
            0xef => next(1) == 0xbb && next(2) == 0xbf,
            _ => false,
        }
    };
    memchr::memchr3_iter(0x7f, 0xc2, 0xe2, json).any(at)
        || memchr::memchr2_iter(0xd8, 0xef, json).any(at)
}

/// Whether `text` holds a character that could drive a terminal or a shell it is pasted into
/// (ESC and the other C0 controls, CR among them, DEL, C1, bidi marks), newline and tab aside:
/// such text goes to the clipboard only escaped (see [`for_clipboard`]).
pub fn holds_control(text: &str) -> bool {
    has_dangerous_but(text, b"\n\t")
}

/// How `text` goes to the clipboard, and whether it was escaped. Plain text (newlines and tabs
/// included) goes as it is. Text that [`holds_control`] goes with nothing raw: JSON (an object
/// `y` copies) as the same JSON with such characters as `\uXXXX` escapes, anything else as its
/// JSON string literal. A pasted ESC could otherwise end a shell's bracketed paste and run what
/// follows (`ESC [201~` then a newline).
pub fn for_clipboard(text: &str) -> (Cow<'_, str>, bool) {
    if !holds_control(text) {
        return (Cow::Borrowed(text), false);
    }
    if serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok() {
        let escaped = json_for_terminal(text);
        if !holds_control(&escaped) {
            return (Cow::Owned(escaped.into_owned()), true);
        }
    }
    (Cow::Owned(quoted_exactly(text, usize::MAX)), true)
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

/// A value quoted exactly as it was given, for a message that must show what is wrong with it: a
/// JSON string (tab, newline and return as `\t`, `\n`, `\r`), where every character a reader
/// could not see or tell from a space (controls, other spaces, zero-width and bidi marks, the
/// BOM) is a `\uXXXX` escape. At most `max_chars` characters of `text`, then `…` after the quote.
pub fn quoted_exactly(text: &str, max_chars: usize) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars().take(max_chars) {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if is_dangerous(c) || is_unseen(c) => {
                for unit in c.encode_utf16(&mut [0; 2]) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    if text.chars().nth(max_chars).is_some() {
        out.push('…');
    }
    out
}

/// Characters a reader cannot see, or cannot tell from an ordinary space: the other Unicode
/// spaces, the soft hyphen, zero-width and invisible format characters, tags.
fn is_unseen(c: char) -> bool {
    matches!(c,
        '\u{a0}' | '\u{ad}' | '\u{034f}' | '\u{115f}' | '\u{1160}' | '\u{1680}' | '\u{180e}'
        | '\u{2000}'..='\u{200f}' | '\u{2028}'..='\u{202f}' | '\u{205f}'..='\u{206f}'
        | '\u{3000}' | '\u{3164}' | '\u{fe00}'..='\u{fe0f}' | '\u{ffa0}' | '\u{fff9}'..='\u{fffb}'
        | '\u{e0000}'..='\u{e0fff}')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte test finds what the character test finds, for every character that may matter.
    #[test]
    fn dangerous_text_is_told_from_its_bytes_as_from_its_characters() {
        let chars = (0..0x3000u32)
            .chain(0xfe00..0x10000)
            .chain([0x1f600, 0x10ffff])
            .filter_map(char::from_u32);
        for c in chars {
            for text in [c.to_string(), format!("ab·{c}x")] {
                assert_eq!(
                    has_dangerous(&text, false),
                    is_dangerous(c),
                    "{:x}",
                    c as u32
                );
                let multiline = c != '\n' && is_dangerous(c);
                assert_eq!(has_dangerous(&text, true), multiline, "{:x}", c as u32);
                assert_eq!(
                    has_dangerous_beside_whitespace(&text),
                    is_dangerous_outside_whitespace(c),
                    "{:x}",
                    c as u32
                );
            }
        }
    }

    #[test]
    fn a_value_is_quoted_exactly_with_what_cannot_be_seen_escaped() {
        assert_eq!(
            quoted_exactly(" 2024\t\n\u{200b}\u{1b}\"\\é\u{e0041}", 40),
            r#"" 2024\t\n\u200b\u001b\"\\é\udb40\udc41""#
        );
        assert_eq!(quoted_exactly("abcdef", 3), "\"abc\"…");
        assert_eq!(quoted_exactly("abc", 3), "\"abc\"");
    }

    /// The byte scan agrees with the character test on every character it could meet.
    #[test]
    fn the_byte_scan_finds_exactly_what_json_for_terminal_escapes() {
        for code in 0x20..=0xffffu32 {
            let Some(c) = char::from_u32(code) else {
                continue;
            };
            let text = format!("\"a{c}b\"");
            assert_eq!(
                json_needs_escape(text.as_bytes()),
                is_dangerous(c),
                "U+{code:04X}"
            );
        }
        assert!(json_needs_escape("x\u{feff}".as_bytes()));
        assert!(!json_needs_escape("x\u{fefe}é©".as_bytes()));
    }

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
    fn json_for_terminal_escapes_what_serde_json_leaves_raw() {
        let value = serde_json::json!({
            "name": "a\u{9b}31m\u{202e}b\u{7f}\u{200f}\u{2066}\u{61c}\u{feff}\u{85}",
            "esc": "\u{1b}[2J", "ok": "héllo ✓"
        });
        for json in [
            serde_json::to_string(&value).unwrap(),
            serde_json::to_string_pretty(&value).unwrap(),
        ] {
            let safe = json_for_terminal(&json);
            assert!(!safe.chars().any(is_dangerous_outside_whitespace), "{safe}");
            assert!(safe.contains(r"a\u009b31m\u202eb\u007f\u200f\u2066\u061c\ufeff\u0085"));
            assert!(safe.contains(r"\u001b[2J") && safe.contains("héllo ✓"));
            let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
            assert_eq!(back, value);
        }
    }

    fn is_dangerous_outside_whitespace(c: char) -> bool {
        is_dangerous(c) && !matches!(c, '\n' | '\t' | '\r')
    }

    #[test]
    fn clean_json_is_borrowed() {
        assert!(matches!(
            json_for_terminal("{\n  \"a\": \"日本\\u001b\"\n}"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn excerpt_is_short_and_safe() {
        assert_eq!(excerpt(b"  <html>\x1b[31m</html> ", 10), "<html>␛[31…");
    }

    #[test]
    fn plain_text_goes_to_the_clipboard_as_it_is() {
        for plain in [
            "w-1",
            "two\nlines\tand a tab",
            "café · 日本",
            "it's \"quoted\" \\",
        ] {
            assert_eq!(
                for_clipboard(plain),
                (Cow::Borrowed(plain), false),
                "{plain:?}"
            );
        }
    }

    #[test]
    fn text_with_controls_goes_to_the_clipboard_as_its_json_string() {
        let cases = [
            // The tester's paste: ESC ends bracketed paste, the newline runs the command.
            (
                "innocent\u{1b}[201~\necho PWNED\n",
                r#""innocent\u001b[201~\necho PWNED\n""#,
            ),
            ("title\u{1b}]0;T\u{7}", r#""title\u001b]0;T\u0007""#),
            ("a\rb", r#""a\rb""#),
            ("csi\u{9b}2J", r#""csi\u009b2J""#),
            ("del\u{7f}", r#""del\u007f""#),
            ("abc\u{202e}fed", r#""abc\u202efed""#),
            ("iso\u{2066}x", r#""iso\u2066x""#),
        ];
        for (text, literal) in cases {
            let (copied, escaped) = for_clipboard(text);
            assert_eq!((&*copied, escaped), (literal, true), "{text:?}");
            assert!(!holds_control(&copied), "{copied:?}");
            assert_eq!(serde_json::from_str::<String>(&copied).unwrap(), text);
        }
    }

    #[test]
    fn json_with_controls_goes_to_the_clipboard_as_the_same_json_escaped() {
        let value = serde_json::json!({"name": "x\u{1b}[201~\u{9b}\u{202e}", "n": 1});
        let text = value.to_string();
        let (copied, escaped) = for_clipboard(&text);
        assert!(escaped && !holds_control(&copied), "{copied:?}");
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&copied).unwrap(),
            value
        );
    }
}
