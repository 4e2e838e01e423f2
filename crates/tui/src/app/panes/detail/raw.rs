//! The raw JSON pane's text: a value pretty-printed exactly as `serde_json::to_string_pretty`
//! prints it, one entry per line, each line knowing the JSON pointer of the value it belongs to,
//! so that `y` and `v` on any line (a closing `}` included) reach a whole value.

use std::sync::Arc;

use serde_json::Value;

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
    pub fn toggled(self) -> Self {
        match self {
            RawSource::Properties => RawSource::Resource,
            RawSource::Resource => RawSource::Properties,
        }
    }

    /// What the pane's title calls it.
    pub fn label(self) -> &'static str {
        match self {
            RawSource::Properties => "properties",
            RawSource::Resource => "whole resource",
        }
    }
}

/// A value laid out as pretty JSON lines (sanitised), with the pointer of each line's value.
#[derive(Clone, Debug, Default)]
pub struct RawJson {
    root: Arc<Value>,
    lines: Vec<String>,
    /// For each line, the pointer (within `root`) of the value that starts on it, or that a
    /// closing `}` / `]` ends.
    pointers: Vec<Box<str>>,
}

impl RawJson {
    /// Lays `root` out; nothing at all for `null` (no properties).
    pub fn new(root: Arc<Value>) -> Self {
        let mut raw = RawJson {
            root,
            lines: Vec::new(),
            pointers: Vec::new(),
        };
        if !raw.root.is_null() {
            let root = raw.root.clone();
            raw.push_value(&root, "", 0, "", "");
        }
        raw
    }

    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    pub fn root(&self) -> &Value {
        &self.root
    }

    /// The pointer of the value line `line` belongs to.
    pub fn pointer(&self, line: usize) -> Option<&str> {
        self.pointers.get(line).map(|p| &**p)
    }

    /// The value line `line` belongs to: the scalar on it, the object or array it opens, or the
    /// one a closing `}` / `]` ends.
    pub fn value_at(&self, line: usize) -> Option<&Value> {
        self.root.pointer(self.pointer(line)?)
    }

    /// The first line of the value at `pointer`, if it is shown.
    pub fn line_of(&self, pointer: &str) -> Option<usize> {
        self.pointers.iter().position(|p| &**p == pointer)
    }

    fn push(&mut self, text: String, pointer: &str) {
        self.lines.push(sanitize::line(&text).into_owned());
        self.pointers.push(pointer.into());
    }

    /// `key` is `"name": ` (or empty in an array and at the top), `comma` is `,` or empty.
    fn push_value(&mut self, value: &Value, pointer: &str, depth: usize, key: &str, comma: &str) {
        let indent = "  ".repeat(depth);
        let (open, close, len) = match value {
            Value::Object(map) if !map.is_empty() => ('{', '}', map.len()),
            Value::Array(items) if !items.is_empty() => ('[', ']', items.len()),
            scalar => {
                let text = serde_json::to_string(scalar).unwrap_or_default();
                self.push(format!("{indent}{key}{text}{comma}"), pointer);
                return;
            }
        };
        self.push(format!("{indent}{key}{open}"), pointer);
        match value {
            Value::Object(map) => {
                for (i, (k, child)) in map.iter().enumerate() {
                    let child_key = format!("{}: ", serde_json::to_string(k).unwrap_or_default());
                    let child_pointer = format!("{pointer}/{}", escape_token(k));
                    let comma = if i + 1 < len { "," } else { "" };
                    self.push_value(child, &child_pointer, depth + 1, &child_key, comma);
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    let comma = if i + 1 < len { "," } else { "" };
                    self.push_value(child, &format!("{pointer}/{i}"), depth + 1, "", comma);
                }
            }
            _ => {}
        }
        self.push(format!("{indent}{close}{comma}"), pointer);
    }
}

/// A key as one token of a JSON pointer (RFC 6901).
fn escape_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The pointer of `pointer` (inside `properties`) within the whole resource, and back.
pub fn map_pointer(pointer: &str, to: RawSource) -> Option<String> {
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
    use serde_json::json;

    fn raw(value: Value) -> RawJson {
        RawJson::new(Arc::new(value))
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
        assert!(raw(Value::Null).is_empty());
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
        assert_eq!(r.value_at(7), Some(&json!({"b": 1, "c": [2, 3]})));
        assert_eq!(r.value_at(8), Some(&json!("x")));
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
