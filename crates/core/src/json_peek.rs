//! Reading JSON text only as far as a caller needs: one scan that says how a text may be read
//! (its depth, an integer `-0`, a surrogate escape), and one level of a value read with the rest
//! kept as text. `list --all -o csv|tsv|table` and `--jq .id` over 100,000 resources read every
//! item whole (its `properties` are most of its bytes) for a few fields: 9-15x the time of `-o
//! ndjson` (benches/list_formats.sh). Reading one level and the fields asked for, on a quiet
//! machine: table 1.62x, csv 1.28x, tsv 1.33x, `--jq .id` 1.46x (ndjson 0.39 s; `ROUNDS=3`).
//!
//! Every function takes text a JSON parser accepted (a page's items are) and never panics on
//! anything else.

use std::borrow::Cow;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

/// What one scan of a JSON text finds that decides how it may be read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// How deep arrays and objects nest (brackets inside strings do not count).
    pub depth: usize,
    /// Whether it holds the integer `-0` outside a string: `-0` followed by no digit, `.`, `e`
    /// or `E` (jaq reads it as 0).
    pub minus_zero: bool,
    /// Whether a string holds a `\u` escape of a UTF-16 surrogate (half of a pair, or a lone one,
    /// which serde_json refuses when it reads the string, though it skips it unread).
    pub surrogate_escape: bool,
}

/// The nesting under which a text with no surrogate escape reads as a `serde_json::Value` for
/// sure, whatever part of it is read on its own: serde_json gives up at 128 levels.
pub(crate) const SURELY_READABLE_DEPTH: usize = 64;

impl Facts {
    /// Whether serde_json reads the text whole, as it read it to find its syntax valid (and so
    /// whether a part of it read on its own says what the whole would).
    pub fn surely_readable(&self) -> bool {
        self.depth <= SURELY_READABLE_DEPTH && !self.surrogate_escape
    }
}

/// Scans `json` once: outside strings byte by byte, inside them from backslash to backslash
/// (memchr), where most of an item's bytes are.
pub fn facts(json: &[u8]) -> Facts {
    let mut facts = Facts::default();
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(&byte) = json.get(i) {
        match byte {
            b'"' => {
                i = string_end(json, i + 1, &mut facts);
                continue;
            }
            b'[' | b'{' => {
                depth += 1;
                facts.depth = facts.depth.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'-' => note_minus_zero(json, i, &mut facts),
            _ => {}
        }
        i += 1;
    }
    facts
}

/// Past the closing quote of the string whose text starts at `i`; the text's end when it is not
/// closed. Notes a surrogate escape on the way.
fn string_end(json: &[u8], mut i: usize, facts: &mut Facts) -> usize {
    loop {
        let rest = json.get(i..).unwrap_or_default();
        let Some(at) = quote_or_backslash(rest) else {
            return json.len();
        };
        i += at;
        if json[i] == b'"' {
            return i + 1;
        }
        if json.get(i + 1) == Some(&b'u')
            && matches!(json.get(i + 2), Some(b'd' | b'D'))
            && matches!(
                json.get(i + 3),
                Some(b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F')
            )
        {
            facts.surrogate_escape = true;
        }
        i += 2;
    }
}

/// Where the first `"` or `\` is in `text`. Most strings in an item are keys and short values:
/// their first bytes are looked at one by one, which beats memchr's setup, and memchr takes the
/// rest of a long one. `list --all -o table` over 100,000 resources: memchr called on each
/// string took 12% of its samples (perf), more than the bytes it found.
fn quote_or_backslash(text: &[u8]) -> Option<usize> {
    const SHORT: usize = 24;
    let head = text.get(..SHORT).unwrap_or(text);
    if let Some(at) = head.iter().position(|&b| b == b'"' || b == b'\\') {
        return Some(at);
    }
    let tail = text.get(SHORT..)?;
    memchr::memchr2(b'"', b'\\', tail).map(|at| at + SHORT)
}

/// One level of a JSON value, what lies below kept as text.
#[derive(Clone, Debug, PartialEq)]
pub enum Node<'a> {
    /// An object's members in order, keys read, values as text (a key may come twice).
    Object(Vec<(Cow<'a, str>, &'a str)>),
    Array(Vec<&'a str>),
    /// A string, number, boolean or null, as text.
    Scalar(&'a str),
}

impl<'a> Node<'a> {
    /// The text of the member `key`: the last one when the key comes twice, as a parsed object
    /// keeps it. `None` when this is no object or has no such member.
    pub fn member(&self, key: &str) -> Option<&'a str> {
        match self {
            Node::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|m| m.1),
            _ => None,
        }
    }
}

/// `json` read one level deep; `None` when it is not JSON serde_json reads.
pub fn node(json: &str) -> Option<Node<'_>> {
    match json.trim_start().as_bytes().first()? {
        b'{' => serde_json::from_str::<Members>(json)
            .ok()
            .map(|m| Node::Object(m.0)),
        b'[' => serde_json::from_str::<Vec<&RawValue>>(json)
            .ok()
            .map(|items| Node::Array(items.into_iter().map(RawValue::get).collect())),
        _ => Some(Node::Scalar(json.trim())),
    }
}

/// [`facts`] and [`node`] in one scan of the text, for text a JSON parser accepted (a page's
/// items): the members of an object (the elements of an array) are found by the scan itself,
/// where [`node`] has serde_json check every value's syntax again after [`facts`] went over the
/// same bytes. `list --all -o csv` over 100,000 resources: the two scans took a quarter of its
/// samples (perf); with this one and borrowed cells it takes 1.28x ndjson's time
/// (`BIN=target/release/appdeck ROUNDS=3 benches/list_formats.sh`, a quiet machine). The node
/// is `None` when the text does not look like JSON here: a caller then reads it whole, which
/// says what is wrong (as it does when the facts say the text is not
/// [`Facts::surely_readable`]).
pub fn peek(json: &str) -> (Facts, Option<Node<'_>>) {
    let bytes = json.as_bytes();
    let open = skip_space(bytes, 0);
    if !matches!(bytes.get(open), Some(b'{' | b'[')) {
        let node = (open < bytes.len()).then(|| Node::Scalar(json.trim()));
        return (facts(bytes), node);
    }
    let mut found = Facts::default();
    match one_level(json, open, &mut found) {
        Some(node) => (found, Some(node)),
        // Not what it looked like: the facts of the whole, however far the scan got.
        None => (facts(bytes), None),
    }
}

/// The members of the object (the elements of the array) whose bracket is at `open`, the facts
/// of its text noted on the way; `None` when it is not one followed by nothing but whitespace.
fn one_level<'a>(json: &'a str, open: usize, facts: &mut Facts) -> Option<Node<'a>> {
    let bytes = json.as_bytes();
    let object = bytes[open] == b'{';
    let close = if object { b'}' } else { b']' };
    facts.depth = 1;
    let mut members = Vec::new();
    let mut items = Vec::new();
    let mut i = skip_space(bytes, open + 1);
    if bytes.get(i) == Some(&close) {
        i += 1;
    } else {
        loop {
            let mut key = None;
            if object {
                if bytes.get(i) != Some(&b'"') {
                    return None;
                }
                let key_end = string_end(bytes, i + 1, facts);
                key = Some(key_text(json.get(i..key_end)?)?);
                i = skip_space(bytes, key_end);
                if bytes.get(i) != Some(&b':') {
                    return None;
                }
                i = skip_space(bytes, i + 1);
            }
            let end = value_end(bytes, i, facts)?;
            let value = json.get(i..end)?;
            match key {
                Some(key) => members.push((key, value)),
                None => items.push(value),
            }
            i = skip_space(bytes, end);
            match bytes.get(i) {
                Some(b',') => i = skip_space(bytes, i + 1),
                Some(&b) if b == close => {
                    i += 1;
                    break;
                }
                _ => return None,
            }
        }
    }
    let node = match object {
        true => Node::Object(members),
        false => Node::Array(items),
    };
    (skip_space(bytes, i) == bytes.len()).then_some(node)
}

/// A key's text from its JSON string (quotes included): borrowed unless it holds an escape.
fn key_text(quoted: &str) -> Option<Cow<'_, str>> {
    match string_text(quoted) {
        Some(text) => Some(Cow::Borrowed(text)),
        None => serde_json::from_str::<String>(quoted).ok().map(Cow::Owned),
    }
}

/// The text of a JSON string (quotes included) that holds no escape, as it is; `None` for any
/// other JSON text (an escaped string is read by serde_json).
pub fn string_text(json: &str) -> Option<&str> {
    let inner = json.strip_prefix('"')?.strip_suffix('"')?;
    memchr::memchr(b'\\', inner.as_bytes())
        .is_none()
        .then_some(inner)
}

/// Past the value that starts at `i` (a member's value, at depth 1), noting its facts; `None`
/// when no value starts there.
fn value_end(json: &[u8], i: usize, facts: &mut Facts) -> Option<usize> {
    match json.get(i)? {
        b'"' => Some(string_end(json, i + 1, facts)),
        b'{' | b'[' => {
            let mut depth = 1usize;
            let mut at = i;
            while let Some(&byte) = json.get(at) {
                match byte {
                    b'"' => {
                        at = string_end(json, at + 1, facts);
                        continue;
                    }
                    b'[' | b'{' => {
                        depth += 1;
                        facts.depth = facts.depth.max(depth);
                    }
                    b']' | b'}' => {
                        depth -= 1;
                        if depth == 1 {
                            return Some(at + 1);
                        }
                    }
                    b'-' => note_minus_zero(json, at, facts),
                    _ => {}
                }
                at += 1;
            }
            None
        }
        b',' | b'}' | b']' | b':' => None,
        _ => {
            // A number, true, false or null: up to the next delimiter or space.
            let len = json[i..]
                .iter()
                .position(|b| matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))
                .unwrap_or(json.len() - i);
            // Every `-` counts, as in [`facts`] (`1E-0` included: a needless slow read only).
            for at in memchr::memchr_iter(b'-', &json[i..i + len]) {
                note_minus_zero(json, i + at, facts);
            }
            Some(i + len)
        }
    }
}

/// Notes an integer `-0` at `i` (where a `-` is), as [`facts`] does.
fn note_minus_zero(json: &[u8], i: usize, facts: &mut Facts) {
    if json.get(i + 1) == Some(&b'0') {
        let next = json.get(i + 2).copied().unwrap_or(b' ');
        if !(next.is_ascii_digit() || matches!(next, b'.' | b'e' | b'E')) {
            facts.minus_zero = true;
        }
    }
}

fn skip_space(json: &[u8], mut i: usize) -> usize {
    while matches!(json.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// An object's members, values unread (serde_json only checks their syntax).
struct Members<'a>(Vec<(Cow<'a, str>, &'a str)>);

impl<'de: 'a, 'a> Deserialize<'de> for Members<'a> {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> Visitor<'de> for Entries {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut members = Vec::new();
                while let Some((Key(key), value)) = map.next_entry::<Key, &'de RawValue>()? {
                    members.push((key, value.get()));
                }
                Ok(Members(members))
            }
        }
        de.deserialize_map(Entries)
    }
}

/// A key, borrowed from the text unless it holds an escape.
struct Key<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Key<'a> {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct Text;
        impl<'de> Visitor<'de> for Text {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Owned(s.to_owned())))
            }
            fn visit_string<E>(self, s: String) -> Result<Self::Value, E> {
                Ok(Key(Cow::Owned(s)))
            }
        }
        de.deserialize_str(Text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scan_finds_depth_minus_zero_and_surrogates_outside_and_inside_strings() {
        let f = facts(br#"{"a":[{"b":"[[[{{"}],"c":"\\u-0"}"#);
        assert_eq!(f.depth, 3);
        assert!(!f.minus_zero && !f.surrogate_escape);
        for yes in [
            "-0",
            "[1,-0]",
            r#"{"a":-0}"#,
            "-0 ",
            r#"{"s":"x\"","n":-0}"#,
        ] {
            assert!(facts(yes.as_bytes()).minus_zero, "{yes}");
        }
        for no in [
            "-0.0",
            "-0e1",
            "-0E1",
            r#""-0""#,
            r#"{"d":"2024-05-01"}"#,
            "10",
            "-1",
        ] {
            assert!(!facts(no.as_bytes()).minus_zero, "{no}");
        }
        for yes in [r#""\ud800""#, r#"{"\uDC00":1}"#, r#"["\ud83d\ude00"]"#] {
            assert!(facts(yes.as_bytes()).surrogate_escape, "{yes}");
        }
        for no in [r#""\u00e9\\ud800""#, r#""\ue000""#, "\"\\u", "\"\\"] {
            assert!(!facts(no.as_bytes()).surrogate_escape, "{no}");
        }
        // Unclosed strings and stray closers neither panic nor count.
        assert_eq!(facts(b"]]\"[[").depth, 0);
        let deep = format!("{}1{}", "[".repeat(65), "]".repeat(65));
        assert!(!facts(deep.as_bytes()).surely_readable());
        assert!(facts(&deep.as_bytes()[1..deep.len() - 1]).surely_readable());
    }

    /// One scan gives what the scan and serde_json give, for every kind of text a parser
    /// accepts (and no panic on what it does not).
    #[test]
    fn a_peek_is_the_facts_and_the_node_in_one_scan() {
        let mut texts: Vec<String> = crate::api::page::tests::odd_items();
        texts.extend(
            [
                r#"{"a":-0,"b":[-0.5,{"c":"\ud800 [{"}],"d":{"e":{"f":-0}},"g":true,"h":null}"#,
                " {\n\t\"k\" :\r1E400 ,\"\\u0041\":\"x\\\"y\" }\n",
                r#"{"x":"-0","y":-10,"z":"\uDBFF"}"#,
                "{}",
                " { } ",
                "1",
                " \"s\" ",
                "[]",
            ]
            .map(str::to_owned),
        );
        for text in &texts {
            let (facts, node) = peek(text);
            assert_eq!(facts, self::facts(text.as_bytes()), "{text}");
            // Deeper than serde_json goes, the node is there, unread by callers (see the facts).
            if facts.surely_readable() {
                assert_eq!(node, super::node(text), "{text}");
            }
        }
        for broken in [
            "{",
            "{\"a\"",
            "{\"a\":",
            "{\"a\":1",
            "{\"a\" 1}",
            "{\"a\":1,}",
            "{1:2}",
            "{\"a\":1} x",
            "{\"a\":[1}",
            "{\"a\":{\"b\":1}",
            "{\"a\":}",
            "",
            "[1,]",
            "[1 2]",
            "[",
            " [1] ]",
        ] {
            assert_eq!(peek(broken).1, None, "{broken}");
        }
        assert_eq!(string_text(r#""plain é""#), Some("plain é"));
        assert_eq!(string_text(r#""esc\n""#), None);
        assert_eq!(string_text("12"), None);
    }

    #[test]
    fn quotes_and_backslashes_are_found_near_and_far() {
        for len in [0usize, 1, 23, 24, 25, 100] {
            for (at, byte) in [(0, b'"'), (len / 2, b'\\'), (len.saturating_sub(1), b'"')] {
                let mut text = vec![b'a'; len];
                if len > 0 {
                    text[at] = byte;
                }
                let found = memchr::memchr2(b'"', b'\\', &text);
                assert_eq!(quote_or_backslash(&text), found, "{len} {at}");
            }
        }
    }

    #[test]
    fn a_node_is_one_level_the_rest_as_text() {
        let node = node(r#" {"a": [1, 2], "b\n": {"c": 1E2}, "a": "last"} "#).unwrap();
        assert_eq!(
            node,
            Node::Object(vec![
                (Cow::Borrowed("a"), "[1, 2]"),
                (Cow::Owned("b\n".to_owned()), r#"{"c": 1E2}"#),
                (Cow::Borrowed("a"), r#""last""#),
            ])
        );
        assert_eq!(node.member("a"), Some(r#""last""#));
        assert_eq!(node.member("b\n"), Some(r#"{"c": 1E2}"#));
        assert_eq!(node.member("z"), None);
        assert_eq!(
            super::node("[1, {\"x\": -0}]"),
            Some(Node::Array(vec!["1", "{\"x\": -0}"]))
        );
        assert_eq!(super::node(" 1E400 "), Some(Node::Scalar("1E400")));
        assert_eq!(super::node("{"), None);
        assert_eq!(super::node(""), None);
    }
}
