//! Keys given twice in one object. JSON allows them, but a reader keeps one (appdeck and most
//! parsers the last, silently), so what was written first is lost without a word.

use std::collections::HashSet;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// The objects (as JSON pointers) and keys that appear twice, in document order. Text that does
/// not parse (or nests past the parser's limit) has none: its syntax is judged elsewhere.
pub fn duplicate_keys(text: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut reader = serde_json::Deserializer::from_str(text);
    let walk = Walk {
        path: String::new(),
        found: &mut found,
    };
    match walk.deserialize(&mut reader) {
        Ok(()) => found,
        Err(_) => Vec::new(),
    }
}

/// Walks one value, noting repeated keys under `path`.
struct Walk<'a> {
    path: String,
    found: &'a mut Vec<(String, String)>,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, value: D) -> Result<(), D::Error> {
        value.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<(), A::Error> {
        let mut index = 0usize;
        loop {
            let walk = Walk {
                path: format!("{}/{index}", self.path),
                found: &mut *self.found,
            };
            if items.next_element_seed(walk)?.is_none() {
                return Ok(());
            }
            index += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = entries.next_key::<String>()? {
            let path = format!(
                "{}/{}",
                self.path,
                key.replace('~', "~0").replace('/', "~1")
            );
            if !seen.insert(key.clone()) {
                self.found.push((self.path.clone(), key));
            }
            entries.next_value_seed(Walk {
                path,
                found: &mut *self.found,
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_keys_are_found_with_their_object_at_any_depth() {
        let text = r#"{"status": "ok", "response": {"resource": {"a/b": 1, "x": [{"k": 1, "k": 2}],
            "a/b": 12345678901234567890123}}, "status": "error"}"#;
        assert_eq!(
            duplicate_keys(text),
            [
                ("/response/resource/x/0".to_owned(), "k".to_owned()),
                ("/response/resource".to_owned(), "a/b".to_owned()),
                (String::new(), "status".to_owned()),
            ]
        );
    }

    #[test]
    fn distinct_keys_and_broken_text_have_none() {
        assert!(duplicate_keys(r#"{"a": {"a": 1}, "b": [1E400, {"a": 2}]}"#).is_empty());
        assert!(duplicate_keys(r#"{"a": 1, "a": "#).is_empty());
        assert!(duplicate_keys(&"[".repeat(500)).is_empty());
    }
}
