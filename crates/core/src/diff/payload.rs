//! The payload level of the comparison: the app, its types (matched by `type` name), their
//! capabilities, texts and schemas, and their actions (matched by `name`).

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::{Change, Direction, Impact, push_token, schema};

/// The capability flags of a type definition. Absent counts as false: the spec gives no default,
/// and assuming less is the safe side for the users of the old version.
const CAPABILITIES: &[&str] = &[
    "list_supported",
    "read_supported",
    "create_supported",
    "update_supported",
    "delete_supported",
    "healthcheck_supported",
];

/// Texts for people: changing them breaks nobody.
const TYPE_TEXTS: &[&str] = &[
    "display_name",
    "description",
    "instructions_markdown",
    "links",
];
const ACTION_TEXTS: &[&str] = &["display_name", "description"];

/// The schemas of a type definition: all inputs (what apps report and what callers send).
const TYPE_SCHEMAS: &[&str] = &[
    "property_json_schema",
    "create_input_schema",
    "update_input_schema",
];

/// Every field of a type definition compared by a rule of its own.
const TYPE_FIELDS: &[&str] = &["type", "lifecycle_stage", "actions"];
const ACTION_FIELDS: &[&str] = &["name", "input_json_schema", "output_json_schema"];

pub(super) fn compare(old: &Value, new: &Value, out: &mut Vec<Change>) {
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    let (old_app, new_app) = (text(old, "app_id"), text(new, "app_id"));
    if old_app != new_app {
        out.push(Change {
            impact: Impact::Unknown,
            path: "/app_id".to_owned(),
            subject: "app".to_owned(),
            reason: format!(
                "app_id differs ({} then {}): these are versions of different apps",
                quoted(old_app.as_deref()),
                quoted(new_app.as_deref())
            ),
        });
    }
    let (old_version, new_version) = (text(old, "version"), text(new, "version"));
    if old_version != new_version {
        out.push(Change {
            impact: Impact::NonBreaking,
            path: "/version".to_owned(),
            subject: "app".to_owned(),
            reason: format!(
                "version {} to {}",
                quoted(old_version.as_deref()),
                quoted(new_version.as_deref())
            ),
        });
    }
    let old_types = named(old.get("resources"), "type");
    let new_types = named(new.get("resources"), "type");
    let old_index: HashMap<&str, (usize, &Map<String, Value>)> = old_types
        .iter()
        .map(|(name, i, def)| (*name, (*i, *def)))
        .collect();
    let new_names: HashMap<&str, usize> =
        new_types.iter().map(|(name, i, _)| (*name, *i)).collect();

    for (name, i, _) in &old_types {
        if !new_names.contains_key(name) {
            out.push(Change {
                impact: Impact::Breaking,
                path: format!("/resources/{i}"),
                subject: format!("type {}", quoted(Some(name))),
                reason: "type removed (path in the old payload): its resources and the apps \
                         reporting them lose their definition"
                    .to_owned(),
            });
        }
    }
    for (name, i, definition) in &new_types {
        let path = format!("/resources/{i}");
        let subject = format!("type {}", quoted(Some(name)));
        match old_index.get(name) {
            None => out.push(Change {
                impact: Impact::NonBreaking,
                path,
                subject,
                reason: "type added".to_owned(),
            }),
            Some((old_i, old_definition)) => compare_type(
                old_definition,
                definition,
                &format!("/resources/{old_i}"),
                &path,
                &subject,
                out,
            ),
        }
    }
}

/// `old_path` is the type's place in the old payload, for what was removed; `path` its place in
/// the new one, for everything else.
fn compare_type(
    old: &Map<String, Value>,
    new: &Map<String, Value>,
    old_path: &str,
    path: &str,
    subject: &str,
    out: &mut Vec<Change>,
) {
    let at = |key: &str| {
        let mut p = path.to_owned();
        push_token(&mut p, key);
        p
    };
    let mut push = |impact: Impact, key: &str, reason: String| {
        out.push(Change {
            impact,
            path: at(key),
            subject: subject.to_owned(),
            reason,
        })
    };
    for key in CAPABILITIES {
        let flag = |m: &Map<String, Value>| m.get(*key).and_then(Value::as_bool).unwrap_or(false);
        match (flag(old), flag(new)) {
            (true, false) => push(
                Impact::Breaking,
                key,
                format!("`{key}` turned from true to false: callers relying on it fail"),
            ),
            (false, true) => push(Impact::NonBreaking, key, format!("`{key}` turned on")),
            _ if old.get(*key) != new.get(*key) => {
                let malformed =
                    |m: &Map<String, Value>| m.get(*key).is_some_and(|v| !v.is_boolean());
                if malformed(old) || malformed(new) {
                    push(
                        Impact::Unknown,
                        key,
                        format!("`{key}` is not a boolean; cannot tell what the change does"),
                    );
                }
            }
            _ => {}
        }
    }
    if old.get("lifecycle_stage") != new.get("lifecycle_stage") {
        push(
            Impact::NonBreaking,
            "lifecycle_stage",
            format!(
                "lifecycle stage {} to {}",
                shown(old.get("lifecycle_stage")),
                shown(new.get("lifecycle_stage"))
            ),
        );
    }
    for key in TYPE_TEXTS {
        if old.get(*key) != new.get(*key) {
            push(Impact::NonBreaking, key, format!("`{key}` changed"));
        }
    }
    other_fields(old, new, TYPE_FIELDS, path, subject, out);
    for key in TYPE_SCHEMAS {
        schema::compare(
            old.get(*key),
            new.get(*key),
            Direction::Input,
            &format!("{subject}, {key}"),
            &at(key),
            out,
        );
    }
    compare_actions(
        old.get("actions"),
        new.get("actions"),
        &format!("{old_path}/actions"),
        &at("actions"),
        subject,
        out,
    );
}

fn compare_actions(
    old: Option<&Value>,
    new: Option<&Value>,
    old_path: &str,
    path: &str,
    type_subject: &str,
    out: &mut Vec<Change>,
) {
    let old_actions = named(old, "name");
    let new_actions = named(new, "name");
    let new_names: HashMap<&str, usize> =
        new_actions.iter().map(|(name, j, _)| (*name, *j)).collect();
    let old_index: HashMap<&str, &Map<String, Value>> = old_actions
        .iter()
        .map(|(name, _, def)| (*name, *def))
        .collect();
    for (name, j, _) in &old_actions {
        if !new_names.contains_key(name) {
            out.push(Change {
                impact: Impact::Breaking,
                path: format!("{old_path}/{j}"),
                subject: format!("{type_subject}, action {}", quoted(Some(name))),
                reason: "action removed (path in the old payload): callers of it fail".to_owned(),
            });
        }
    }
    for (name, j, new_action) in &new_actions {
        let action_path = format!("{path}/{j}");
        let subject = format!("{type_subject}, action {}", quoted(Some(name)));
        let Some(old_action) = old_index.get(name) else {
            out.push(Change {
                impact: Impact::NonBreaking,
                path: action_path,
                subject,
                reason: "action added".to_owned(),
            });
            continue;
        };
        for key in ACTION_TEXTS {
            if old_action.get(*key) != new_action.get(*key) {
                out.push(Change {
                    impact: Impact::NonBreaking,
                    path: format!("{action_path}/{key}"),
                    subject: subject.clone(),
                    reason: format!("`{key}` changed"),
                });
            }
        }
        other_fields(
            old_action,
            new_action,
            ACTION_FIELDS,
            &action_path,
            &subject,
            out,
        );
        for (key, direction) in [
            ("input_json_schema", Direction::Input),
            ("output_json_schema", Direction::Output),
        ] {
            let which = match direction {
                Direction::Input => "input",
                Direction::Output => "output",
            };
            schema::compare(
                old_action.get(key),
                new_action.get(key),
                direction,
                &format!("{subject} {which}"),
                &format!("{action_path}/{key}"),
                out,
            );
        }
    }
}

/// Fields the spec does not name: what they mean is unknown, so a change to one is too.
fn other_fields(
    old: &Map<String, Value>,
    new: &Map<String, Value>,
    own: &[&str],
    path: &str,
    subject: &str,
    out: &mut Vec<Change>,
) {
    let known = |k: &str| {
        own.contains(&k)
            || CAPABILITIES.contains(&k)
            || TYPE_TEXTS.contains(&k)
            || TYPE_SCHEMAS.contains(&k)
    };
    let mut keys: Vec<&String> = old.keys().collect();
    keys.extend(new.keys().filter(|k| !old.contains_key(*k)));
    for key in keys.into_iter().filter(|k| !known(k)) {
        if old.get(key) != new.get(key) {
            let mut at = path.to_owned();
            push_token(&mut at, key);
            out.push(Change {
                impact: Impact::Unknown,
                path: at,
                subject: subject.to_owned(),
                reason: format!("`{key}` (a field the spec does not name) changed"),
            });
        }
    }
}

/// The objects of an array with a string field `key`, as (name, index, object). A second object
/// of the same name is left out: names are unique in a valid payload (validate says so).
fn named<'v>(list: Option<&'v Value>, key: &str) -> Vec<(&'v str, usize, &'v Map<String, Value>)> {
    let mut seen = std::collections::HashSet::new();
    list.and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .enumerate()
                .filter_map(|(i, item)| {
                    let map = item.as_object()?;
                    let name = map.get(key)?.as_str()?;
                    seen.insert(name).then_some((name, i, map))
                })
                .collect()
        })
        .unwrap_or_default()
}

fn quoted(text: Option<&str>) -> String {
    text.map_or_else(|| "none".to_owned(), |t| format!("\"{t}\""))
}

fn shown(value: Option<&Value>) -> String {
    value.map_or_else(|| "none".to_owned(), Value::to_string)
}
