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

    /// Writes one record. Off a terminal the fields go straight to `out`, a plain field (most
    /// are) in one piece; on one the line is built first, to be neutralised whole. Building
    /// each line and quoting by `str::contains` took 3% of `list --all -o csv`'s samples over
    /// 100,000 resources (perf); see [`super::columns::cells_of_item`] for the whole gain.
    pub fn write<S: AsRef<str>>(&self, fields: &[S], out: &mut impl Write) -> std::io::Result<()> {
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

    /// Whether `field` is written other than as it is: quoted (csv) or escaped (tsv).
    fn needs_escape(&self, field: &str) -> bool {
        let special: &[u8] = match self.delimiter {
            Delimiter::Comma => b",\"\n\r",
            Delimiter::Tab => b"\\\t\n\r",
        };
        field.bytes().any(|b| special.contains(&b))
    }

    fn field(&self, field: &str, line: &mut String) {
        match self.delimiter {
            Delimiter::Comma => csv_field(field, line),
            Delimiter::Tab => tsv_field(field, line),
        }
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
        assert_eq!(String::from_utf8(out).unwrap(), "␛[2Jx,\"a\nb\"\n");
    }
}
