//! What changed between two JSON texts of one resource, value by value: what a report changed
//! (the resource as listed before, and as the report sent it). Each value is compared and shown
//! as its text, compact, every number and string as written (`1E2` stays `1E2`).

use std::collections::HashMap;

use crate::json_text;

/// One value that differs, at `pointer` (RFC 6901; `""` is the whole text).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Change {
    pub pointer: String,
    /// Its text before; `None`: added.
    pub before: Option<String>,
    /// Its text after; `None`: removed.
    pub after: Option<String>,
}

impl Change {
    /// `added`, `removed` or `changed`.
    pub fn kind(&self) -> &'static str {
        match (&self.before, &self.after) {
            (None, _) => "added",
            (_, None) => "removed",
            _ => "changed",
        }
    }
}

impl std::fmt::Display for Change {
    /// `changed /properties/visibility: "private" → "public"`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = if self.pointer.is_empty() {
            "(the whole value)"
        } else {
            &self.pointer
        };
        match (&self.before, &self.after) {
            (Some(before), Some(after)) => write!(f, "changed {at}: {before} → {after}"),
            (None, Some(after)) => write!(f, "added {at}: {after}"),
            (Some(before), None) => write!(f, "removed {at}: {before}"),
            (None, None) => write!(f, "unchanged {at}"),
        }
    }
}

/// The values of `after` that differ from `before`, field by field: a value changed in place
/// (a scalar, or an object or array turned into something else), then added, in the order of
/// `after`; then removed, in the order of `before`. An object or array added or removed whole is
/// one change, not one per value inside it. Two texts that differ only in the space between
/// tokens have no changes.
pub fn between(before: &str, after: &str) -> Vec<Change> {
    let old = leaves(before);
    let new = leaves(after);
    let old_at: HashMap<&str, &Value> = old.iter().map(|(p, v)| (p.as_str(), v)).collect();
    let new_at: HashMap<&str, &Value> = new.iter().map(|(p, v)| (p.as_str(), v)).collect();
    let mut changes = Vec::new();
    for (pointer, value) in &new {
        match old_at.get(pointer.as_str()) {
            Some(was) if was == &value => {}
            // Both objects, or both arrays: what differs inside is listed value by value.
            Some(Value::Container(was)) if value.same_kind_of_container(was) => {}
            Some(was) => changes.push(Change {
                pointer: pointer.clone(),
                before: Some(was.text().to_owned()),
                after: Some(value.text().to_owned()),
            }),
            None if listed_above(pointer, &new_at, &old_at) => {}
            None => changes.push(Change {
                pointer: pointer.clone(),
                before: None,
                after: Some(value.text().to_owned()),
            }),
        }
    }
    for (pointer, value) in &old {
        if !new_at.contains_key(pointer.as_str()) && !listed_above(pointer, &old_at, &new_at) {
            changes.push(Change {
                pointer: pointer.clone(),
                before: Some(value.text().to_owned()),
                after: None,
            });
        }
    }
    changes
}

/// What a report (its JSON text) changed in its resource, `before` being that resource's text
/// as it was listed; `None` when the report carries no resource.
pub fn made_by_report(before: &str, report: &str) -> Option<Vec<Change>> {
    let at = json_text::span_of(report, "/response/resource")?;
    Some(between(before, report.get(at)?))
}

/// What the resource after a report is: as the report sent it, or as the service lists it
/// once the report was taken (`report --diff`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    Sent,
    ListedAgain,
}

impl After {
    pub fn words(self) -> &'static str {
        match self {
            After::Sent => "as the report sent it",
            After::ListedAgain => "listed again",
        }
    }
}

/// How many values a report changed, and against what, in words: the heading above the
/// changes in the answer pane, the history, `history show` and `report --diff`.
pub fn counted(count: usize, after: After) -> String {
    match (count, after) {
        (0, After::Sent) => "nothing (the resource was sent as it was listed)".to_owned(),
        (0, After::ListedAgain) => "nothing (the resource is listed as it was)".to_owned(),
        (n, after) => format!(
            "{} (before: as listed · after: {})",
            crate::text::counted(n, "value"),
            after.words()
        ),
    }
}

/// A value as compared: a scalar's text, or a container's whole text (compact).
#[derive(Debug, PartialEq, Eq)]
enum Value {
    Scalar(String),
    Container(String),
}

impl Value {
    /// Whether this and `other` (a container's text) are both objects or both arrays.
    fn same_kind_of_container(&self, other: &str) -> bool {
        matches!(self, Value::Container(text) if text.as_bytes().first() == other.as_bytes().first())
    }

    fn text(&self) -> &str {
        match self {
            Value::Scalar(text) | Value::Container(text) => text,
        }
    }
}

/// Every value of `json` by its pointer, in document order (containers too, for the changes of
/// shape and the values added or removed whole).
fn leaves(json: &str) -> Vec<(String, Value)> {
    let mut seen = std::collections::HashSet::new();
    json_text::lines(json)
        .into_iter()
        // A container's closing line repeats its pointer.
        .filter(|line| seen.insert(line.pointer.clone()))
        .filter_map(|line| {
            let text = json_text::compact(json.get(line.span)?);
            let value = match text.as_bytes().first() {
                Some(b'{' | b'[') => Value::Container(text),
                _ => Value::Scalar(text),
            };
            Some((line.pointer, value))
        })
        .collect()
}

/// Whether a container above `pointer` (a value of `this` side) is itself a change: missing
/// from the `other` side, or there as something else (a scalar, an object for an array). Then
/// the change is that container's, listed once.
fn listed_above(
    pointer: &str,
    this: &HashMap<&str, &Value>,
    other: &HashMap<&str, &Value>,
) -> bool {
    let mut at = pointer;
    while let Some(slash) = at.rfind('/') {
        at = &at[..slash];
        let same = match (this.get(at), other.get(at)) {
            (Some(Value::Container(here)), Some(there)) => there.same_kind_of_container(here),
            _ => false,
        };
        if !same {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(before: &str, after: &str) -> Vec<String> {
        between(before, after)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn values_changed_added_and_removed_are_listed_as_written() {
        let before = r#"{"id": "r1", "status": "active", "properties": {"n": 1E2, "gone": [1, 2], "same": "x"}}"#;
        let after = r#"{"id":"r1","status":"archived","properties":{"n":100,"same":"x","new":{"a":1}},"note":"\u202e"}"#;
        assert_eq!(
            shown(before, after),
            [
                r#"changed /status: "active" → "archived""#,
                "changed /properties/n: 1E2 → 100",
                r#"added /properties/new: {"a":1}"#,
                r#"added /note: "\u202e""#,
                "removed /properties/gone: [1,2]",
            ]
        );
    }

    #[test]
    fn space_between_tokens_is_no_change_and_a_change_of_shape_is_one() {
        assert!(between("{\"a\": [1, 2]}", "{\"a\":[1,2]}").is_empty());
        assert_eq!(
            shown(r#"{"a": {"b": 1}}"#, r#"{"a": 5}"#),
            [r#"changed /a: {"b":1} → 5"#]
        );
        assert_eq!(
            shown(r#"{"a": [1]}"#, r#"{"a": [1, 2]}"#),
            ["added /a/1: 2"]
        );
        assert_eq!(
            shown(r#"{"a": {}}"#, r#"{"a": []}"#),
            ["changed /a: {} → []"]
        );
        assert_eq!(
            shown(r#"{"a": 5}"#, r#"{"a": {"b": 1}}"#),
            [r#"changed /a: 5 → {"b":1}"#]
        );
    }

    #[test]
    fn text_that_is_not_json_never_panics() {
        for (before, after) in [("", "{"), ("{\"a\":", "[1,"), ("\"", "}}}")] {
            let _ = between(before, after);
        }
    }
}
