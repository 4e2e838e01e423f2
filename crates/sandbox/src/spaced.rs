//! The `spaced` fault: a page laid out as many services write JSON rather than compact, to show
//! that a client keeps what was sent (`list -o ndjson` and the TUI's `:export` write each item's
//! bytes as they came). Two-space indent over many lines and a space after `:` (Python's
//! `json.dumps(indent=2)`), every character outside ASCII as a `\u` escape (its default
//! `ensure_ascii`), and `/` escaped as `\/` (PHP's `json_encode`): the same JSON values, other
//! bytes.

/// `json` (valid JSON text) laid out as the module says.
pub(crate) fn spaced_out(json: &str) -> String {
    let mut out = String::with_capacity(json.len() * 2);
    let mut depth = 0usize;
    let mut chars = json.chars().peekable();
    let new_line = |out: &mut String, depth: usize| {
        out.push('\n');
        out.extend(std::iter::repeat_n("  ", depth));
    };
    while let Some(c) = chars.next() {
        match c {
            '"' => string(&mut chars, &mut out),
            '{' | '[' => {
                while chars.next_if(|c| c.is_ascii_whitespace()).is_some() {}
                let close = if c == '{' { '}' } else { ']' };
                out.push(c);
                if chars.next_if_eq(&close).is_some() {
                    out.push(close);
                } else {
                    depth += 1;
                    new_line(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                new_line(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(',');
                new_line(&mut out, depth);
            }
            ':' => out.push_str(": "),
            c if c.is_ascii_whitespace() => {}
            c => out.push(c),
        }
    }
    out
}

/// The rest of a string whose opening quote is written already, up to its closing quote.
fn string(chars: &mut impl Iterator<Item = char>, out: &mut String) {
    out.push('"');
    while let Some(c) = chars.next() {
        match c {
            '"' => break,
            // An escape already there stays as it is.
            '\\' => {
                out.push('\\');
                out.extend(chars.next());
                continue;
            }
            '/' => out.push_str("\\/"),
            c if c.is_ascii() => out.push(c),
            c => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn lays_the_json_out_over_lines_with_escapes_and_keeps_its_values() {
        let compact = r#"{"resources":[{"id":"a/b","n":1.50,"e":[],"o":{},"s":"Zoë 😀 \"q\" \/ \u00e9"}],"next":"c"}"#;
        let spaced = spaced_out(compact);
        assert_eq!(
            spaced,
            "{\n  \"resources\": [\n    {\n      \"id\": \"a\\/b\",\n      \"n\": 1.50,\n      \
             \"e\": [],\n      \"o\": {},\n      \
             \"s\": \"Zo\\u00eb \\ud83d\\ude00 \\\"q\\\" \\/ \\u00e9\"\n    }\n  ],\n  \
             \"next\": \"c\"\n}"
        );
        let value = |text: &str| serde_json::from_str::<Value>(text).unwrap();
        assert_eq!(value(&spaced), value(compact));
        assert_eq!(spaced_out("[ ]"), "[]");
    }
}
