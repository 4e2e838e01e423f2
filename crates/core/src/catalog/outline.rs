//! A connect payload's outline, as the TUI's connect composer shows it beside the payload: its
//! types, each with its capabilities (`LRCUDH` marks, as in the types view) and its actions, and
//! the line and column of the text where it starts, for `Enter` to jump to.

use serde_json::Value;

use super::Capabilities;
use crate::api::ResourceType;
use crate::json_locate::position_of;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutlineType {
    /// The type's name as written (sanitise before showing); `(no type)` when it has none.
    pub name: String,
    /// `LRCUDH`, as the types view marks them (`Capabilities::marks`).
    pub capabilities: String,
    pub actions: Vec<String>,
    /// 0-based editor line and column where the type's definition starts.
    pub at: (usize, usize),
}

/// The outline of `payload`, whose text is `text`.
pub fn outline(payload: &Value, text: &str) -> Vec<OutlineType> {
    let Some(resources) = payload.get("resources").and_then(Value::as_array) else {
        return Vec::new();
    };
    resources
        .iter()
        .enumerate()
        .map(|(i, definition)| {
            let name = definition
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or("(no type)")
                .to_owned();
            // Read as the types view reads a definition: the same marks for the same fields.
            let read = definition.as_object().cloned().map(ResourceType::from_map);
            let capabilities = Capabilities::of(&read.unwrap_or_default()).marks();
            let actions = definition
                .get("actions")
                .and_then(Value::as_array)
                .map(|actions| {
                    actions
                        .iter()
                        .map(|a| {
                            let name = a.get("name").and_then(Value::as_str);
                            name.unwrap_or("(no name)").to_owned()
                        })
                        .collect()
                })
                .unwrap_or_default();
            OutlineType {
                name,
                capabilities,
                actions,
                at: position_of(text, &format!("/resources/{i}")),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_with_capabilities_actions_and_lines() {
        let text = "{\n  \"resources\": [\n    {\"type\": \"a\", \"list_supported\": true,\n     \"read_supported\": \"yes\",\n     \"actions\": [{\"name\": \"sync\"}]},\n    {\"type\": \"b\"}\n  ]\n}";
        let payload: Value = serde_json::from_str(text).unwrap();
        let found = outline(&payload, text);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].name, "a");
        assert_eq!(found[0].capabilities, "L?----");
        assert_eq!(found[0].actions, vec!["sync"]);
        assert_eq!(found[0].at, (2, 4));
        assert_eq!(found[1].at, (5, 4));
        assert_eq!(found[1].capabilities, "------");
    }
}
