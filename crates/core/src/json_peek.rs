//! Reading JSON text only as far as a caller needs: one scan that says how a text may be read
//! (its depth, an integer `-0`, a surrogate escape), and one level of a value read with the rest
//! kept as text. `list --all -o csv|tsv|table` and `--jq .id` over 100,000 resources read every
//! item whole (its `properties` are most of its bytes) for a few fields: 9-15x the time of `-o
//! ndjson` (benches/list_formats.sh). Reading one level and the fields asked for: 2-3x.
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
pub const SURELY_READABLE_DEPTH: usize = 64;

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
            b'-' if json.get(i + 1) == Some(&b'0') => {
                let next = json.get(i + 2).copied().unwrap_or(b' ');
                if !(next.is_ascii_digit() || matches!(next, b'.' | b'e' | b'E')) {
                    facts.minus_zero = true;
                }
            }
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
        let Some(at) = memchr::memchr2(b'"', b'\\', rest) else {
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
