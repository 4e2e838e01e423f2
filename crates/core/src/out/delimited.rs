//! `-o csv` and `-o tsv` (and the TUI's `:export FILE.csv`): one record a line. CSV quotes a
//! field holding a comma, a quote, a carriage return or a newline, doubling its quotes (RFC
//! 4180); TSV escapes backslash, tab, newline and carriage return as `\\`, `\t`, `\n`, `\r` (as
//! jq's `@tsv`), so that every record is one line.
//!
//! Server text never drives the terminal a pipe ends in (`list -o csv | cat`): tsv writes every
//! other control character (C0, DEL, C1) and bidi mark as a `\u001b` escape, which its `\\`
//! keeps reversible; csv has no escape, so it writes U+FFFD in their place and counts the fields
//! it changed ([`Records::replaced`]) for the caller to say so (`-o ndjson` keeps the text). On
//! a terminal the line is neutralised as well (see [`crate::sanitize`]): a csv field's return.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::Write;

use crate::sanitize;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delimiter {
    Comma,
    Tab,
}

/// Writes records with one delimiter.
#[derive(Clone, Debug)]
pub struct Records {
    delimiter: Delimiter,
    terminal: bool,
    /// csv fields written with U+FFFD for a control character or a bidi mark.
    replaced: u64,
}

impl Records {
    pub fn new(delimiter: Delimiter, terminal: bool) -> Self {
        Records {
            delimiter,
            terminal,
            replaced: 0,
        }
    }

    /// How many csv fields so far had a control character or a bidi mark replaced by U+FFFD
    /// (tsv escapes them instead: none).
    pub fn replaced(&self) -> u64 {
        self.replaced
    }

    /// Writes one record. Off a terminal the fields go straight to `out`, a plain field (most
    /// are) in one piece; on one the line is built first, to be neutralised whole. Building
    /// each line and quoting by `str::contains` took 3% of `list --all -o csv`'s samples over
    /// 100,000 resources (perf); see [`super::columns::cells_of_item`] for the whole gain.
    pub fn write<S: AsRef<str>>(
        &mut self,
        fields: &[S],
        out: &mut impl Write,
    ) -> std::io::Result<()> {
        if !self.terminal {
            for (i, field) in fields.iter().enumerate() {
                if i > 0 {
                    out.write_all(self.separator().as_bytes())?;
                }
                let field = field.as_ref();
                if self.needs_escape(field) {
                    let mut escaped = String::with_capacity(field.len() + 8);
                    self.field(field, &mut escaped);
                    out.write_all(escaped.as_bytes())?;
                } else {
                    out.write_all(field.as_bytes())?;
                }
            }
            return out.write_all(b"\n");
        }
        let mut line = String::new();
        for (i, field) in fields.iter().enumerate() {
            if i > 0 {
                line.push_str(self.separator());
            }
            self.field(field.as_ref(), &mut line);
        }
        let mut line = sanitize::multiline(&line).into_owned();
        line.push('\n');
        out.write_all(line.as_bytes())
    }

    fn separator(&self) -> &'static str {
        match self.delimiter {
            Delimiter::Comma => ",",
            Delimiter::Tab => "\t",
        }
    }

    /// Whether `field` is written other than as it is: quoted, escaped or with U+FFFD.
    fn needs_escape(&self, field: &str) -> bool {
        let special: &[u8] = match self.delimiter {
            Delimiter::Comma => b",\"\n\r",
            Delimiter::Tab => b"\\\t\n\r",
        };
        field.bytes().any(|b| special.contains(&b))
            || sanitize::has_dangerous_beside_whitespace(field)
    }

    fn field(&mut self, field: &str, line: &mut String) {
        match self.delimiter {
            Delimiter::Comma => {
                let field = match sanitize::has_dangerous_beside_whitespace(field) {
                    true => {
                        self.replaced += 1;
                        Cow::Owned(without_controls(field))
                    }
                    false => Cow::Borrowed(field),
                };
                csv_field(&field, line)
            }
            Delimiter::Tab => tsv_field(field, line),
        }
    }
}

/// `field` with U+FFFD for each control character (but tab, newline and return) and bidi mark.
fn without_controls(field: &str) -> String {
    field
        .chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            c if sanitize::is_dangerous(c) => '\u{fffd}',
            c => c,
        })
        .collect()
}

fn csv_field(field: &str, line: &mut String) {
    if field.contains([',', '"', '\n', '\r']) {
        line.push('"');
        line.push_str(&field.replace('"', "\"\""));
        line.push('"');
    } else {
        line.push_str(field);
    }
}

fn tsv_field(field: &str, line: &mut String) {
    for c in field.chars() {
        match c {
            '\\' => line.push_str("\\\\"),
            '\t' => line.push_str("\\t"),
            '\n' => line.push_str("\\n"),
            '\r' => line.push_str("\\r"),
            // Every such character is in the Basic Multilingual Plane: one escape.
            c if sanitize::is_dangerous(c) => {
                let _ = write!(line, "\\u{:04x}", c as u32);
            }
            c => line.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(delimiter: Delimiter, fields: &[&str]) -> String {
        let mut out = Vec::new();
        Records::new(delimiter, false)
            .write(fields, &mut out)
            .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn csv_quotes_what_needs_it() {
        assert_eq!(
            record(
                Delimiter::Comma,
                &["plain", "a,b", "say \"hi\"", "two\nlines", "cr\r", ""]
            ),
            "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\",\n"
        );
    }

    #[test]
    fn tsv_escapes_so_a_record_is_one_line() {
        assert_eq!(
            record(Delimiter::Tab, &["a\tb", "c\nd", "back\\slash", "e,\"f\""]),
            "a\\tb\tc\\nd\tback\\\\slash\te,\"f\"\n"
        );
    }

    /// Off a terminal the fields are written piece by piece, on one as a line: the same bytes
    /// when nothing needs neutralising (but the tab separator).
    #[test]
    fn a_terminal_and_a_file_get_the_same_plain_records() {
        let fields = [
            "plain",
            "a,b",
            "say \"hi\"",
            "two\nlines",
            "back\\slash",
            "é ·",
            "",
        ];
        for delimiter in [Delimiter::Comma, Delimiter::Tab] {
            let mut on_terminal = Vec::new();
            Records::new(delimiter, true)
                .write(&fields, &mut on_terminal)
                .unwrap();
            assert_eq!(
                String::from_utf8(on_terminal).unwrap(),
                // A terminal shows a tab as spaces.
                record(delimiter, &fields).replace('\t', "    "),
                "{delimiter:?}"
            );
        }
    }

    #[test]
    fn a_terminal_gets_no_escape_sequences() {
        let mut out = Vec::new();
        Records::new(Delimiter::Comma, true)
            .write(&["\u{1b}[2Jx", "a\nb"], &mut out)
            .unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "\u{fffd}[2Jx,\"a\nb\"\n");
    }

    /// What a terminal must not get as it is (an OSC 52 clipboard write, CSI, C1, DEL, bidi
    /// overrides) reaches no pipe either: csv writes U+FFFD, keeping tab and line breaks in
    /// its quotes, and counts the fields it changed; tsv escapes, and `\\` keeps it reversible.
    #[test]
    fn a_pipe_gets_no_escape_sequences_either() {
        let fields = [
            "\u{1b}]52;c;aGk=\u{7}x",
            "\u{9b}31m\u{7f}\u{202e}\u{feff}",
            "tab\there\r\n",
            "\\u001b",
            "plain é",
        ];
        let mut out = Vec::new();
        let mut csv = Records::new(Delimiter::Comma, false);
        csv.write(&fields, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\u{fffd}]52;c;aGk=\u{fffd}x,\u{fffd}31m\u{fffd}\u{fffd}\u{fffd},\"tab\there\r\n\",\\u001b,plain é\n"
        );
        assert_eq!(csv.replaced(), 2);
        assert_eq!(
            record(Delimiter::Tab, &fields),
            "\\u001b]52;c;aGk=\\u0007x\t\\u009b31m\\u007f\\u202e\\ufeff\ttab\\there\\r\\n\t\\\\u001b\tplain é\n"
        );
        for written in [
            record(Delimiter::Comma, &fields),
            record(Delimiter::Tab, &fields),
        ] {
            let unsafe_char = written
                .chars()
                .find(|&c| sanitize::is_dangerous(c) && !matches!(c, '\t' | '\n' | '\r'));
            assert_eq!(unsafe_char, None, "{written:?}");
        }
    }
}
