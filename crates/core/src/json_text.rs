//! JSON text laid out token by token: numbers and strings copied as they came, only the space
//! between tokens changed. What the service sent is what appdeck shows and sends, and a parsed
//! `Value` does not keep it: serde_json writes an exponent as `e+` (`1E2` comes back `1e+2`).
//! So the raw pane, the report composer's start, a send and the sandbox's store work on the text.
//!
//! Every function takes JSON text that a parser accepted; on anything else it never panics and
//! lays out what it can.

use std::ops::Range;

/// One line of a value laid out as `serde_json::to_string_pretty` lays it out (two spaces a
/// level, `"key": value`, `{}` and `[]` when empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub text: String,
    /// The JSON pointer (RFC 6901) of the value that starts on this line, or that a closing
    /// `}` / `]` on it ends.
    pub pointer: String,
    /// Where that value is in the text laid out: its bytes, as they came.
    pub span: Range<usize>,
}

/// An object or array opened and not yet closed.
struct Open {
    /// The line that opened it, whose span is known once it closes.
    line: usize,
    start: usize,
    close: u8,
    pointer: String,
    /// The next element's index, in an array.
    next: usize,
}

/// `json` laid out one value or bracket a line, each line knowing its value (see [`Line`]).
/// Iterative, so depth costs no stack; a line's indent and pointer grow with its depth, which the
/// parser bounds (128) for every text that reaches here.
pub fn lines(json: &str) -> Vec<Line> {
    let b = json.as_bytes();
    let mut lines: Vec<Line> = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut i = 0;
    loop {
        i = skip_space(b, i);
        let Some(&byte) = b.get(i) else { break };
        if byte == b'}' || byte == b']' {
            let Some(open) = stack.pop() else { break };
            let end = i + 1;
            let span = open.start..end;
            let comma = comma_after(b, &mut i, end);
            lines[open.line].span = span.clone();
            lines.push(Line {
                text: format!("{}{}{comma}", indent(stack.len()), open.close as char),
                pointer: open.pointer,
                span,
            });
            if stack.is_empty() {
                break;
            }
            continue;
        }
        let depth = stack.len();
        let (key, pointer) = match stack.last_mut() {
            Some(top) if top.close == b'}' => {
                if byte != b'"' {
                    break;
                }
                let end = string_end(b, i);
                let token = &json[i..end];
                let name = serde_json::from_str::<String>(token)
                    .unwrap_or_else(|_| token.trim_matches('"').to_owned());
                i = skip_space(b, end);
                if b.get(i) == Some(&b':') {
                    i = skip_space(b, i + 1);
                }
                (
                    format!("{token}: "),
                    format!("{}/{}", top.pointer, escape_token(&name)),
                )
            }
            Some(top) => {
                top.next += 1;
                (String::new(), format!("{}/{}", top.pointer, top.next - 1))
            }
            None => (String::new(), String::new()),
        };
        let start = i;
        match b.get(i) {
            Some(&open @ (b'{' | b'[')) => {
                let close = if open == b'{' { b'}' } else { b']' };
                let inside = skip_space(b, i + 1);
                if b.get(inside) == Some(&close) {
                    let comma = comma_after(b, &mut i, inside + 1);
                    lines.push(Line {
                        text: format!(
                            "{}{key}{}{}{comma}",
                            indent(depth),
                            open as char,
                            close as char
                        ),
                        pointer,
                        span: start..inside + 1,
                    });
                } else {
                    lines.push(Line {
                        text: format!("{}{key}{}", indent(depth), open as char),
                        pointer: pointer.clone(),
                        span: start..start,
                    });
                    stack.push(Open {
                        line: lines.len() - 1,
                        start,
                        close,
                        pointer,
                        next: 0,
                    });
                    i += 1;
                    continue;
                }
            }
            Some(&first) => {
                let end = if first == b'"' {
                    string_end(b, i)
                } else {
                    scalar_end(b, i)
                };
                if end == i {
                    break;
                }
                let token = &json[i..end];
                let comma = comma_after(b, &mut i, end);
                lines.push(Line {
                    text: format!("{}{key}{token}{comma}", indent(depth)),
                    pointer,
                    span: start..end,
                });
            }
            None => break,
        }
        if stack.is_empty() {
            break;
        }
    }
    lines
}

/// `json` laid out as `serde_json::to_string_pretty` lays out its value, every number and
/// string as written.
pub fn pretty(json: &str) -> String {
    let lines = lines(json);
    let mut out = String::with_capacity(json.len() + json.len() / 2);
    for (n, line) in lines.iter().enumerate() {
        if n > 0 {
            out.push('\n');
        }
        out.push_str(&line.text);
    }
    out
}

/// `json` with the space between its tokens taken out, every number and string as written.
pub fn compact(json: &str) -> String {
    let b = json.as_bytes();
    let mut out = String::with_capacity(json.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                let end = string_end(b, i);
                out.push_str(&json[i..end]);
                i = end;
            }
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            _ => {
                let end = scalar_end(b, i).max(i + 1);
                out.push_str(&json[i..end]);
                i = end;
            }
        }
    }
    out
}

/// `json` compact, as a body to post: serialising it writes its text unchanged. `None` when it
/// is not JSON.
pub fn body(json: &str) -> Option<Box<serde_json::value::RawValue>> {
    serde_json::value::RawValue::from_string(compact(json)).ok()
}

/// Where the value at `pointer` is in `json`, if it is there.
pub fn span_of(json: &str, pointer: &str) -> Option<Range<usize>> {
    lines(json)
        .into_iter()
        .find(|l| l.pointer == pointer)
        .map(|l| l.span)
}

/// The text of each member of the object `json` (its keys as parsed), in their order; empty
/// when `json` is not an object.
pub fn members(json: &str) -> Vec<(String, &str)> {
    if !json.trim_start().starts_with('{') {
        return Vec::new();
    }
    lines(json)
        .into_iter()
        // A member's first line starts with its key; its closing line with a bracket.
        .filter(|l| l.text.trim_start().starts_with('"'))
        .filter_map(|l| {
            let key = l.pointer.strip_prefix('/')?;
            (!key.contains('/')).then(|| (unescape_token(key), &json[l.span]))
        })
        .collect()
}

/// The object `json` with its member `key` set to `value` (JSON text, spliced as it is): the
/// member's value replaced where it stands (each time the key appears), or the member added last.
/// Every other byte of `json` stays, which a parsed `Value` written back would not keep (`1E2`
/// comes back `1e+2`). `None` when `json` is not an object.
pub fn set_member(json: &str, key: &str, value: &str) -> Option<String> {
    let all = lines(json);
    let whole = all
        .first()
        .filter(|l| json[l.span.clone()].starts_with('{'))?;
    if whole.span.is_empty() {
        // An object not closed: not JSON.
        return None;
    }
    let found: Vec<Range<usize>> = all
        .iter()
        .filter(|l| l.text.trim_start().starts_with('"'))
        .filter(|l| {
            l.pointer
                .strip_prefix('/')
                .is_some_and(|k| !k.contains('/') && unescape_token(k) == key)
        })
        .map(|l| l.span.clone())
        .collect();
    let mut out = json.to_owned();
    if found.is_empty() {
        let last = all
            .iter()
            .filter(|l| l.text.trim_start().starts_with('"'))
            .filter(|l| {
                l.pointer
                    .strip_prefix('/')
                    .is_some_and(|k| !k.contains('/'))
            })
            .map(|l| l.span.end)
            .max();
        let (at, comma) = match last {
            Some(end) => (end, ","),
            None => (whole.span.end - 1, ""),
        };
        out.insert_str(at, &format!("{comma}{}:{value}", string(key)));
    } else {
        for span in found.into_iter().rev() {
            out.replace_range(span, value);
        }
    }
    Some(out)
}

/// `text` as a JSON string that appdeck writes: escaped as serde_json escapes, and DEL, C1
/// controls and bidi marks as `\u` escapes too (the same string, nothing a terminal acts on).
pub fn string(text: &str) -> String {
    let quoted = serde_json::Value::from(text).to_string();
    crate::sanitize::json_for_terminal(&quoted).into_owned()
}

fn indent(depth: usize) -> String {
    "  ".repeat(depth)
}

fn skip_space(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// After a value ending at `end`: `","` when a comma follows (it is consumed: `i` moves past
/// it), else `""` (`i` moves to `end`).
fn comma_after(b: &[u8], i: &mut usize, end: usize) -> &'static str {
    let next = skip_space(b, end);
    if b.get(next) == Some(&b',') {
        *i = next + 1;
        ","
    } else {
        *i = end;
        ""
    }
}

/// The end (past the closing quote) of the string starting at `start`; the text's end when it
/// is not closed.
fn string_end(b: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while let Some(&c) = b.get(i) {
        match c {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// The end of a number, `true`, `false` or `null` starting at `start`.
fn scalar_end(b: &[u8], start: usize) -> usize {
    let mut i = start;
    while let Some(&c) = b.get(i) {
        if matches!(
            c,
            b' ' | b'\t' | b'\n' | b'\r' | b',' | b':' | b'{' | b'}' | b'[' | b']' | b'"'
        ) {
            break;
        }
        i += 1;
    }
    i
}

/// The pointer (RFC 6901) of member `key` inside the value at `parent` (`""`: the top).
pub fn child_pointer(parent: &str, key: &str) -> String {
    format!("{parent}/{}", escape_token(key))
}

/// A key as one token of a JSON pointer.
fn escape_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn unescape_token(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    const NUMBERS: &str =
        r#"{"a": 1E2, "b": [-0, 1e400, 0.10, {}], "c": {"d": "\u202e\/", "e": []}, "f": 2E+3}"#;

    #[test]
    fn pretty_lays_out_as_serde_json_does_keeping_every_token() {
        let same =
            json!({"a": 1, "b": [true, null, {"c": "x"}], "d": {}, "e": [], "f": {"g": 2.5}});
        let text = serde_json::to_string(&same).unwrap();
        assert_eq!(pretty(&text), serde_json::to_string_pretty(&same).unwrap());
        let laid = pretty(NUMBERS);
        for token in ["1E2", "-0", "1e400", "0.10", r#""\u202e\/""#, "2E+3"] {
            assert!(laid.contains(token), "{token} in {laid}");
        }
        assert!(
            laid.starts_with("{\n  \"a\": 1E2,\n  \"b\": [\n    -0,"),
            "{laid}"
        );
        assert!(laid.contains("\"c\": {\n    \"d\""), "{laid}");
        assert!(laid.contains("    {}\n  ],"), "{laid}");
        assert!(laid.contains("\"e\": []\n"), "{laid}");
        // The same value, other bytes.
        let parsed: Value = serde_json::from_str(&laid).unwrap();
        assert_eq!(parsed, serde_json::from_str::<Value>(NUMBERS).unwrap());
    }

    #[test]
    fn compact_drops_only_the_space_between_tokens() {
        assert_eq!(
            compact(NUMBERS),
            r#"{"a":1E2,"b":[-0,1e400,0.10,{}],"c":{"d":"\u202e\/","e":[]},"f":2E+3}"#
        );
        assert_eq!(compact(r#"" a : b ""#), r#"" a : b ""#);
    }

    #[test]
    fn a_body_serialises_as_its_text() {
        let body = body(NUMBERS).unwrap();
        assert_eq!(serde_json::to_string(&body).unwrap(), compact(NUMBERS));
        assert!(super::body("{").is_none());
    }

    #[test]
    fn each_line_knows_its_value_and_where_it_is() {
        let all = lines(NUMBERS);
        let at = |pointer: &str| {
            let line = all.iter().find(|l| l.pointer == pointer).unwrap();
            &NUMBERS[line.span.clone()]
        };
        assert_eq!(at(""), NUMBERS);
        assert_eq!(at("/a"), "1E2");
        assert_eq!(at("/b/1"), "1e400");
        assert_eq!(at("/b/3"), "{}");
        assert_eq!(at("/c"), r#"{"d": "\u202e\/", "e": []}"#);
        assert_eq!(at("/c/d"), r#""\u202e\/""#);
        // A closing bracket belongs to the value it ends.
        let close = all.iter().rposition(|l| l.text.trim() == "],").unwrap();
        assert_eq!(all[close].pointer, "/b");
        assert_eq!(span_of(NUMBERS, "/f").map(|s| &NUMBERS[s]), Some("2E+3"));
        let keys = json!({"a/b": {"~": 1}});
        let text = keys.to_string();
        assert_eq!(span_of(&text, "/a~1b/~0").map(|s| &text[s]), Some("1"));
    }

    #[test]
    fn members_are_the_top_level_texts_in_order() {
        let got = members(NUMBERS);
        let keys: Vec<&str> = got.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["a", "b", "c", "f"]);
        assert_eq!(got[1].1, "[-0, 1e400, 0.10, {}]");
        assert!(members("[1, 2]").is_empty());
    }

    #[test]
    fn set_member_splices_the_value_and_keeps_every_other_byte() {
        assert_eq!(
            set_member(NUMBERS, "a", "3E1").as_deref(),
            Some(
                r#"{"a": 3E1, "b": [-0, 1e400, 0.10, {}], "c": {"d": "\u202e\/", "e": []}, "f": 2E+3}"#
            )
        );
        assert_eq!(
            set_member(NUMBERS, "d", "1E400").as_deref(),
            Some(
                r#"{"a": 1E2, "b": [-0, 1e400, 0.10, {}], "c": {"d": "\u202e\/", "e": []}, "f": 2E+3,"d":1E400}"#
            ),
            "a nested key is another member"
        );
        assert_eq!(set_member("{ }", "k", "1").as_deref(), Some(r#"{ "k":1}"#));
        assert_eq!(set_member("{}\n", "k", "1").as_deref(), Some("{\"k\":1}\n"));
        assert_eq!(
            set_member(r#"{"a/b":1,"x":{"y":2},"a/b":3}"#, "a/b", "0").as_deref(),
            Some(r#"{"a/b":0,"x":{"y":2},"a/b":0}"#),
            "each time the key appears"
        );
        assert_eq!(
            set_member(r#"{"x":{"y":2}}"#, "k\u{202e}", "1").as_deref(),
            Some(r#"{"x":{"y":2},"k\u202e":1}"#)
        );
        for not_an_object in ["[1]", "1", "\"{}\"", "{", ""] {
            assert_eq!(set_member(not_an_object, "k", "1"), None, "{not_an_object}");
        }
    }

    #[test]
    fn a_string_appdeck_writes_escapes_what_a_terminal_acts_on() {
        assert_eq!(
            string("a\"\u{202e}\u{9b}\u{7f}\n"),
            r#""a\"\u202e\u009b\u007f\n""#
        );
    }

    #[test]
    fn deep_or_broken_text_never_panics() {
        let deep = format!("{}1{}", "[".repeat(1000), "]".repeat(1000));
        assert_eq!(lines(&deep).len(), 2001);
        for broken in [
            "",
            "{",
            "{\"a\"",
            "{\"a\":",
            "[1,",
            "}",
            "\"x",
            "{1: 2}",
            "[,]",
            "{\"a\" 1}",
        ] {
            let _ = (
                lines(broken),
                pretty(broken),
                compact(broken),
                members(broken),
            );
        }
    }
}
