//! How large a schema is once its local `$ref`s are expanded: about what a validator checking a
//! value, or a comparison of two versions, walks. A schema whose definitions each refer to the
//! next twice (`allOf: [{$ref: next}, {$ref: next}]`) doubles with each level: 22 levels took a
//! check 0.43 s and 40 never ended, on the UI thread, where a small report is checked as it is
//! typed. Checks and comparisons ask [`too_costly`] first, which sizes each reference's target
//! once (linear in the schema's text), and refuse such a schema with a reason instead.

use std::collections::HashMap;

use serde_json::Value;

/// The most schema objects a check or comparison follows references into. A real schema of a
/// few megabytes is tens of thousands. Checking `{}` against the doubling schema at 786,376
/// objects took 1.3 ms, at 12.6 million 56-70 ms (2 loaded cores); sizing it took 0.05 ms.
pub const MAX_EXPANDED: u64 = 1_000_000;

/// Chains of references deeper than this are not sized (a validator following them would
/// exhaust its stack first): the schema counts as too costly.
const MAX_CHAIN: usize = 128;

/// Why `doing` with `schema` ("check", "compare") would take too long: its references expand
/// to more than [`MAX_EXPANDED`] objects. `None` for every other schema.
pub fn too_costly(schema: &Value, doing: &str) -> Option<String> {
    let mut sizer = Sizer {
        root: schema,
        sized: HashMap::new(),
        following: Vec::new(),
    };
    let size = sizer.size(schema);
    (size > MAX_EXPANDED).then(|| {
        format!(
            "too costly to {doing}: its $refs expand to more than {MAX_EXPANDED} schemas (a \
             definition referred to more than once at each of many levels)"
        )
    })
}

struct Sizer<'a> {
    root: &'a Value,
    /// The expanded size of each reference's target, once known.
    sized: HashMap<&'a str, u64>,
    /// The references being sized: one met again is a cycle, which a check follows only as deep
    /// as the value it checks, so it counts once.
    following: Vec<&'a str>,
}

impl<'a> Sizer<'a> {
    /// The objects under `value`, each reference counted as its target's size; saturating.
    fn size(&mut self, value: &'a Value) -> u64 {
        match value {
            Value::Object(map) => {
                let mut size = 1u64;
                for (key, member) in map {
                    size = size.saturating_add(match (key.as_str(), member) {
                        ("$ref", Value::String(target)) => self.target(target),
                        _ => self.size(member),
                    });
                    if size > MAX_EXPANDED {
                        return size;
                    }
                }
                size
            }
            Value::Array(items) => {
                let mut size = 0u64;
                for item in items {
                    size = size.saturating_add(self.size(item));
                    if size > MAX_EXPANDED {
                        return size;
                    }
                }
                size
            }
            _ => 0,
        }
    }

    /// The expanded size of a reference's target: local ones (`#/…`) only; others count one.
    fn target(&mut self, reference: &'a str) -> u64 {
        if let Some(size) = self.sized.get(reference) {
            return *size;
        }
        if self.following.contains(&reference) {
            return 1;
        }
        if self.following.len() >= MAX_CHAIN {
            return u64::MAX;
        }
        let Some(target) = (reference.strip_prefix('#')).and_then(|p| self.root.pointer(p)) else {
            return 1;
        };
        self.following.push(reference);
        let size = self.size(target);
        self.following.pop();
        self.sized.insert(reference, size);
        size
    }
}

/// Definitions `a0`…`aN`, each referring to the next twice: 2^N schemas expanded. A test's
/// schema, here and in the checks, the comparison and the fill that refuse it.
#[cfg(test)]
pub(crate) fn doubling(levels: usize) -> Value {
    let mut defs = serde_json::Map::new();
    for i in 0..levels {
        let next = serde_json::json!({"$ref": format!("#/$defs/a{}", i + 1)});
        defs.insert(format!("a{i}"), serde_json::json!({"allOf": [next, next]}));
    }
    defs.insert(format!("a{levels}"), serde_json::json!({"type": "object"}));
    serde_json::json!({"$defs": defs, "$ref": "#/$defs/a0"})
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    #[test]
    fn a_schema_doubling_at_each_level_is_too_costly_past_the_bound() {
        assert_eq!(too_costly(&doubling(16), "check"), None, "786,376 schemas");
        assert!(
            too_costly(&doubling(17), "check").is_some(),
            "1,572,805 schemas"
        );
        let why = too_costly(&doubling(40), "check").expect("2^40 schemas");
        assert!(why.contains("too costly to check"), "{why}");
        // Sized in linear time: this returns at once, where a check never ends.
        assert!(too_costly(&doubling(5_000), "check").is_some());
    }

    #[test]
    fn cycles_shared_definitions_and_remote_references_are_not_costly() {
        let tree = json!({"$defs": {"node": {"type": "object", "properties": {
            "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}},
            "$ref": "#/$defs/node"});
        assert_eq!(too_costly(&tree, "check"), None);
        let shared: serde_json::Map<String, Value> = (0..1_000)
            .map(|i| (format!("p{i}"), json!({"$ref": "#/$defs/address"})))
            .collect();
        let schema = json!({"$defs": {"address": {"type": "object", "properties": {
            "street": {"type": "string"}}}}, "properties": shared});
        assert_eq!(
            too_costly(&schema, "check"),
            None,
            "1,000 uses of a 2-object definition"
        );
        assert_eq!(
            too_costly(&json!({"$ref": "https://example.com/s.json"}), "check"),
            None
        );
        assert_eq!(too_costly(&json!({"$ref": "#/nowhere"}), "check"), None);
    }
}
