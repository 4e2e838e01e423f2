//! The raw JSON pane's text: the item's own text laid out as `serde_json::to_string_pretty`
//! lays out a value, re-indented token by token (numbers and strings as they came: `1E2` stays
//! `1E2`, see `core::json_text`), one entry per line, each line knowing the JSON pointer and the
//! text of the value it belongs to, so that `y` and `v` on any line (a closing `}` included)
//! reach a whole value as it came.

use std::ops::Range;
use std::sync::Arc;

use crate::json_text;
use crate::sanitize;

/// Which value the raw pane shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawSource {
    /// The resource's `properties` (what the tree shows).
    Properties,
    /// The whole item, every field as it came.
    Resource,
}

impl RawSource {
    pub(crate) fn toggled(self) -> Self {
        match self {
            RawSource::Properties => RawSource::Resource,
            RawSource::Resource => RawSource::Properties,
        }
    }

    /// What the pane's title calls it.
    pub(crate) fn label(self) -> &'static str {
        match self {
            RawSource::Properties => "properties",
            RawSource::Resource => "whole resource",
        }
    }
}

/// A value's text laid out as pretty JSON lines (sanitised), with the pointer and the text of
/// each line's value.
#[derive(Clone, Debug, Default)]
pub(crate) struct RawJson {
    /// The text the value is part of (the whole item's, shared by both layouts).
    source: Arc<str>,
    lines: Vec<String>,
    /// For each line, the pointer (within the value laid out) of the value that starts on it,
    /// or that a closing `}` / `]` ends.
    pointers: Vec<Box<str>>,
    /// For each line, where that value is in `source`.
    spans: Vec<Range<usize>>,
}

impl RawJson {
    /// Lays out the value at `within` in `source`; nothing at all for an empty range (no
    /// properties).
    pub(crate) fn new(source: Arc<str>, within: Range<usize>) -> Self {
        let Some(text) = source.get(within.clone()) else {
            return RawJson::default();
        };
        let laid = json_text::lines(text);
        let mut raw = RawJson {
            lines: Vec::with_capacity(laid.len()),
            pointers: Vec::with_capacity(laid.len()),
            spans: Vec::with_capacity(laid.len()),
            source: source.clone(),
        };
        for line in laid {
            raw.lines.push(sanitize::line(&line.text).into_owned());
            raw.pointers.push(line.pointer.into());
            raw.spans
                .push(line.span.start + within.start..line.span.end + within.start);
        }
        raw
    }

    /// Lays out the whole of `source`.
    pub(crate) fn whole(source: Arc<str>) -> Self {
        let all = 0..source.len();
        RawJson::new(source, all)
    }

    pub(crate) fn lines(&self) -> &[String] {
        &self.lines
    }

    pub(crate) fn len(&self) -> usize {
        self.lines.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The pointer of the value line `line` belongs to.
    pub(crate) fn pointer(&self, line: usize) -> Option<&str> {
        self.pointers.get(line).map(|p| &**p)
    }

    /// The text, as it came, of the value line `line` belongs to: the scalar on it, the object
    /// or array it opens, or the one a closing `}` / `]` ends.
    pub(crate) fn text_at(&self, line: usize) -> Option<&str> {
        self.source.get(self.spans.get(line)?.clone())
    }

    /// The text, as it came, of the value at `pointer`, if it is shown.
    pub(crate) fn text_of(&self, pointer: &str) -> Option<&str> {
        self.source.get(self.span_of(pointer)?)
    }

    /// Where the value at `pointer` is in the text, if it is shown.
    pub(crate) fn span_of(&self, pointer: &str) -> Option<Range<usize>> {
        self.spans.get(self.line_of(pointer)?).cloned()
    }

    /// The first line of the value at `pointer`, if it is shown.
    pub(crate) fn line_of(&self, pointer: &str) -> Option<usize> {
        self.pointers.iter().position(|p| &**p == pointer)
    }
}

/// A value's text as `y` copies it: a string's contents, anything else compact as it came.
pub(crate) fn copied(text: &str) -> String {
    match serde_json::from_str::<String>(text) {
        Ok(string) => string,
        Err(_) => json_text::compact(text),
    }
}

/// A value's text as `v` shows it: a string's contents, anything else pretty as it came.
pub(crate) fn shown(text: &str) -> String {
    match serde_json::from_str::<String>(text) {
        Ok(string) => string,
        Err(_) => json_text::pretty(text),
    }
}

/// The pointer of `pointer` (inside `properties`) within the whole resource, and back.
pub(crate) fn map_pointer(pointer: &str, to: RawSource) -> Option<String> {
    match to {
        RawSource::Resource => Some(format!("/properties{pointer}")),
        RawSource::Properties => {
            if pointer == "/properties" {
                Some(String::new())
            } else {
                pointer
                    .strip_prefix("/properties/")
                    .map(|p| format!("/{p}"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn raw(value: Value) -> RawJson {
        RawJson::whole(Arc::from(value.to_string()))
    }

    #[test]
    fn lines_are_those_of_serde_pretty_printing() {
        let value = json!({
            "a": 1, "b": [true, null, {"c": "x\"y"}, [], {}], "e": {}, "f": [],
            "g/h~i": {"j": [1.5, -2]}, "\u{1b}k": "\u{202e}v"
        });
        let expected: Vec<String> = serde_json::to_string_pretty(&value)
            .unwrap()
            .lines()
            .map(|l| sanitize::line(l).into_owned())
            .collect();
        assert_eq!(raw(value).lines(), expected.as_slice());
        assert_eq!(raw(json!([])).lines(), ["[]"]);
        assert_eq!(raw(json!("s")).lines(), ["\"s\""]);
        assert!(RawJson::new(Arc::from("{}"), 0..0).is_empty());
    }

    #[test]
    fn numbers_and_strings_are_laid_out_as_they_came() {
        let text: Arc<str> = Arc::from(r#"{"p": {"a": 1E2, "b": -0, "c": "\u202e", "d": [2E+3]}}"#);
        let within = json_text::span_of(&text, "/p").unwrap();
        let r = RawJson::new(text.clone(), within);
        assert_eq!(
            r.lines(),
            [
                "{",
                "  \"a\": 1E2,",
                "  \"b\": -0,",
                "  \"c\": \"\\u202e\",",
                "  \"d\": [",
                "    2E+3",
                "  ]",
                "}"
            ]
        );
        assert_eq!(r.pointer(5), Some("/d/0"));
        assert_eq!(r.text_at(4), Some("[2E+3]"));
        assert_eq!(copied(r.text_at(4).unwrap()), "[2E+3]");
        assert_eq!(shown(r.text_at(4).unwrap()), "[\n  2E+3\n]");
        assert_eq!(copied(r.text_at(3).unwrap()), "\u{202e}");
    }

    #[test]
    fn every_line_belongs_to_a_value_closing_brackets_too() {
        let r = raw(json!({"a": {"b": 1, "c": [2, 3]}, "d/e": "x"}));
        let shown: Vec<(&str, &str)> = (0..r.len())
            .map(|i| (r.lines()[i].trim(), r.pointer(i).unwrap()))
            .collect();
        assert_eq!(
            shown,
            [
                ("{", ""),
                ("\"a\": {", "/a"),
                ("\"b\": 1,", "/a/b"),
                ("\"c\": [", "/a/c"),
                ("2,", "/a/c/0"),
                ("3", "/a/c/1"),
                ("]", "/a/c"),
                ("},", "/a"),
                ("\"d/e\": \"x\"", "/d~1e"),
                ("}", ""),
            ]
        );
        assert_eq!(r.text_at(7), Some(r#"{"b":1,"c":[2,3]}"#));
        assert_eq!(r.text_at(8), Some(r#""x""#));
        assert_eq!(r.line_of("/a/c"), Some(3));
    }

    #[test]
    fn pointers_map_between_properties_and_the_whole_resource() {
        assert_eq!(
            map_pointer("/a/0", RawSource::Resource).as_deref(),
            Some("/properties/a/0")
        );
        assert_eq!(
            map_pointer("/properties/a", RawSource::Properties).as_deref(),
            Some("/a")
        );
        assert_eq!(
            map_pointer("/properties", RawSource::Properties).as_deref(),
            Some("")
        );
        assert_eq!(map_pointer("/id", RawSource::Properties), None);
        assert_eq!(map_pointer("/propertiesx", RawSource::Properties), None);
    }
}
