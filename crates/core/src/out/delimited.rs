//! `-o csv` and `-o tsv` (and the TUI's `:export FILE.csv`): one record a line. CSV quotes a
//! field holding a comma, a quote, a carriage return or a newline, doubling its quotes (RFC
//! 4180); TSV escapes backslash, tab,
//! newline and carriage return as `\\`, `\t`, `\n`, `\r` (as jq's `@tsv`), so that every record
//! is one line. On a terminal the fields are neutralised as well (see [`crate::sanitize`]).

use std::io::Write;

use crate::sanitize;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delimiter {
    Comma,
    Tab,
}

/// Writes records with one delimiter.
#[derive(Clone, Copy, Debug)]
pub struct Records {
    delimiter: Delimiter,
    terminal: bool,
}

impl Records {
    pub fn new(delimiter: Delimiter, terminal: bool) -> Self {
        Records {
            delimiter,
            terminal,
        }
    }

    pub fn write<S: AsRef<str>>(&self, fields: &[S], out: &mut impl Write) -> std::io::Result<()> {
        let mut line = String::new();
        for (i, field) in fields.iter().enumerate() {
            if i > 0 {
                line.push(match self.delimiter {
                    Delimiter::Comma => ',',
                    Delimiter::Tab => '\t',
                });
            }
            let field = field.as_ref();
            match self.delimiter {
                Delimiter::Comma => csv_field(field, &mut line),
                Delimiter::Tab => tsv_field(field, &mut line),
            }
        }
        if self.terminal {
            line = sanitize::multiline(&line).into_owned();
        }
        line.push('\n');
        out.write_all(line.as_bytes())
    }
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

    #[test]
    fn a_terminal_gets_no_escape_sequences() {
        let mut out = Vec::new();
        Records::new(Delimiter::Comma, true)
            .write(&["\u{1b}[2Jx", "a\nb"], &mut out)
            .unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "␛[2Jx,\"a\nb\"\n");
    }
}
