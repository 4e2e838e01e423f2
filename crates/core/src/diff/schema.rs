//! Comparing two JSON Schemas keyword by keyword. Each keyword change is classed by what it does
//! to the set of accepted values ([`Effect`]); the schema's [`Direction`] then says whether that
//! breaks. Keywords appdeck does not model are compared for equality only, and a difference is of
//! unknown effect.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::{Change, Direction, Effect, push_token};

/// Deeper than this, a schema is not compared further (a hostile or generated schema must not
/// overflow the stack); what is left is reported as of unknown effect if it differs.
const MAX_DEPTH: usize = 64;

/// Keywords that describe without constraining: their changes are listed, never breaking.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$id",
    "$anchor",
];

/// Lower bounds: raising one narrows.
const LOWER_BOUNDS: &[&str] = &[
    "minimum",
    "exclusiveMinimum",
    "minLength",
    "minItems",
    "minProperties",
    "minContains",
];
/// Upper bounds: lowering one narrows.
const UPPER_BOUNDS: &[&str] = &[
    "maximum",
    "exclusiveMaximum",
    "maxLength",
    "maxItems",
    "maxProperties",
    "maxContains",
];

/// Keywords handled by a dedicated rule below (or deliberately skipped: definitions are compared
/// where they are used).
const HANDLED: &[&str] = &[
    "type",
    "enum",
    "const",
    "required",
    "properties",
    "additionalProperties",
    "items",
    "pattern",
    "format",
    "multipleOf",
    "uniqueItems",
    "allOf",
    "anyOf",
    "$ref",
    "$defs",
    "definitions",
    "$schema",
];

/// Compares the schema at `path` of the old payload with the one of the new payload. A missing
/// schema (`None`) accepts anything, like `{}`.
pub(crate) fn compare(
    old: Option<&Value>,
    new: Option<&Value>,
    direction: Direction,
    subject: &str,
    path: &str,
    out: &mut Vec<Change>,
) {
    let any = Value::Object(Map::new());
    let old = old.filter(|v| !v.is_null()).unwrap_or(&any);
    let new = new.filter(|v| !v.is_null()).unwrap_or(&any);
    if old == new {
        return;
    }
    let too_costly = |schema| crate::schema::too_costly(schema, "compare");
    if let Some(why) = too_costly(old).or_else(|| too_costly(new)) {
        out.push(Change {
            impact: Effect::Unknown.impact(direction),
            path: path.to_owned(),
            subject: subject.to_owned(),
            reason: why,
        });
        return;
    }
    let mut comparer = Comparer {
        old_root: old,
        new_root: new,
        definitions_equal: definitions(old) == definitions(new),
        direction,
        subject,
        out,
        old_refs: Vec::new(),
        new_refs: Vec::new(),
    };
    let mut path = path.to_owned();
    comparer.node(old, new, &mut path, 0);
}

/// The definitions a local `$ref` can point at, to know whether equal text means equal meaning.
fn definitions(schema: &Value) -> (Option<&Value>, Option<&Value>) {
    (schema.get("$defs"), schema.get("definitions"))
}

struct Comparer<'a> {
    old_root: &'a Value,
    new_root: &'a Value,
    /// When both schemas have the same definitions, two equal subschemas mean the same thing
    /// (their `$ref`s resolve alike), so they need no walk.
    definitions_equal: bool,
    direction: Direction,
    subject: &'a str,
    out: &'a mut Vec<Change>,
    /// The `$ref`s being followed on each side, to stop at a cycle.
    old_refs: Vec<String>,
    new_refs: Vec<String>,
}

/// A schema after following its `$ref`, and whether a cycle stopped the following.
struct Resolved<'v> {
    schema: Cow<'v, Value>,
    followed: Option<String>,
    cycle: bool,
}

/// Follows a local `$ref` (`#/...`) of `node` within `root`. Keywords beside the `$ref` apply too
/// (draft 2019-09 and later), so they are merged over the target. An external or dangling `$ref`
/// is left as it is: then the `$ref` strings themselves are compared.
fn resolve<'v>(root: &'v Value, node: &'v Value, stack: &[String]) -> Resolved<'v> {
    let unchanged = Resolved {
        schema: Cow::Borrowed(node),
        followed: None,
        cycle: false,
    };
    let Some(reference) = node.get("$ref").and_then(Value::as_str) else {
        return unchanged;
    };
    let Some(pointer) = reference.strip_prefix('#') else {
        return unchanged;
    };
    if stack.iter().any(|r| r == reference) {
        return Resolved {
            cycle: true,
            ..unchanged
        };
    }
    let Some(target) = root.pointer(pointer) else {
        return unchanged;
    };
    let siblings = node
        .as_object()
        .map(|m| m.keys().filter(|k| *k != "$ref").count())
        .unwrap_or(0);
    let schema = if siblings == 0 {
        Cow::Borrowed(target)
    } else {
        let mut merged = target.as_object().cloned().unwrap_or_default();
        if let Some(map) = node.as_object() {
            for (k, v) in map.iter().filter(|(k, _)| *k != "$ref") {
                merged.insert(k.clone(), v.clone());
            }
        }
        Cow::Owned(Value::Object(merged))
    };
    Resolved {
        schema,
        followed: Some(reference.to_owned()),
        cycle: false,
    }
}

impl Comparer<'_> {
    fn emit(&mut self, path: &str, effect: Effect, reason: String) {
        self.out.push(Change {
            impact: effect.impact(self.direction),
            path: path.to_owned(),
            subject: self.subject.to_owned(),
            reason,
        });
    }

    /// Emits at `path` + `/keyword`.
    fn emit_at(&mut self, path: &str, keyword: &str, effect: Effect, reason: String) {
        let mut at = path.to_owned();
        push_token(&mut at, keyword);
        self.emit(&at, effect, reason);
    }

    fn node(&mut self, old: &Value, new: &Value, path: &mut String, depth: usize) {
        if old == new && (self.definitions_equal || !contains_ref(old)) {
            return;
        }
        if depth > MAX_DEPTH {
            if old != new {
                self.emit(
                    path,
                    Effect::Unknown,
                    format!("the schemas differ deeper than {MAX_DEPTH} levels; not compared"),
                );
            }
            return;
        }
        // Follow `$ref`s one step at a time, so a chain of references is followed too.
        let old_resolved = resolve(self.old_root, old, &self.old_refs);
        let new_resolved = resolve(self.new_root, new, &self.new_refs);
        if old_resolved.cycle || new_resolved.cycle {
            if old != new {
                self.emit(
                    path,
                    Effect::Unknown,
                    "a recursive $ref differs; appdeck does not compare recursive schemas"
                        .to_owned(),
                );
            }
            return;
        }
        if old_resolved.followed.is_some() || new_resolved.followed.is_some() {
            let (old_ref, new_ref) = (old_resolved.followed.clone(), new_resolved.followed.clone());
            if let Some(r) = &old_ref {
                self.old_refs.push(r.clone());
            }
            if let Some(r) = &new_ref {
                self.new_refs.push(r.clone());
            }
            let (o, n) = (old_resolved.schema, new_resolved.schema);
            self.node(&o, &n, path, depth + 1);
            if old_ref.is_some() {
                self.old_refs.pop();
            }
            if new_ref.is_some() {
                self.new_refs.pop();
            }
            return;
        }
        match (old, new) {
            (Value::Bool(a), Value::Bool(b)) if a == b => {}
            (_, Value::Bool(false)) => self.emit(
                path,
                Effect::Narrows,
                "the schema is now `false`: every value is rejected".to_owned(),
            ),
            (Value::Bool(false), _) => self.emit(
                path,
                Effect::Widens,
                "the schema was `false` (nothing accepted) and now accepts values".to_owned(),
            ),
            (Value::Bool(true), Value::Object(n)) => self.keywords(&Map::new(), n, path, depth),
            (Value::Object(o), Value::Bool(true)) => self.keywords(o, &Map::new(), path, depth),
            (Value::Object(o), Value::Object(n)) => self.keywords(o, n, path, depth),
            _ => {
                if old != new {
                    self.emit(
                        path,
                        Effect::Unknown,
                        "not a JSON Schema (neither an object nor a boolean); compared as text"
                            .to_owned(),
                    )
                }
            }
        }
    }

    fn keywords(
        &mut self,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        path: &mut String,
        depth: usize,
    ) {
        self.types(old.get("type"), new.get("type"), path);
        self.allowed_values(old, new, path);
        self.required(old.get("required"), new.get("required"), path);
        self.properties(old, new, path, depth);
        self.subschema(old.get("items"), new.get("items"), "items", path, depth);
        for key in LOWER_BOUNDS {
            self.bound(old.get(*key), new.get(*key), key, true, path);
        }
        for key in UPPER_BOUNDS {
            self.bound(old.get(*key), new.get(*key), key, false, path);
        }
        for key in ["pattern", "format"] {
            self.presence_constraint(old.get(key), new.get(key), key, path);
        }
        self.multiple_of(old.get("multipleOf"), new.get("multipleOf"), path);
        self.unique_items(old.get("uniqueItems"), new.get("uniqueItems"), path);
        for key in ["allOf", "anyOf"] {
            self.pairwise(old.get(key), new.get(key), key, path, depth);
        }
        if old.get("$schema") != new.get("$schema") {
            self.emit_at(
                path,
                "$schema",
                Effect::Unknown,
                format!(
                    "the draft changed from {} to {}; keywords may mean other things",
                    shown(old.get("$schema")),
                    shown(new.get("$schema"))
                ),
            );
        }
        // Everything else: annotations are listed, other keywords are of unknown effect.
        let mut seen = Vec::new();
        for key in old.keys().chain(new.keys()) {
            if HANDLED.contains(&key.as_str())
                || LOWER_BOUNDS.contains(&key.as_str())
                || UPPER_BOUNDS.contains(&key.as_str())
                || seen.contains(&key)
            {
                continue;
            }
            seen.push(key);
            let (o, n) = (old.get(key), new.get(key));
            if o == n {
                continue;
            }
            if ANNOTATIONS.contains(&key.as_str()) || key.starts_with("x-") {
                self.emit_at(
                    path,
                    key,
                    Effect::Neutral,
                    format!("annotation `{key}` {}", presence_change(o, n)),
                );
            } else {
                self.emit_at(
                    path,
                    key,
                    Effect::Unknown,
                    format!(
                        "`{key}` {}; appdeck cannot tell what this keyword's change does",
                        presence_change(o, n)
                    ),
                );
            }
        }
    }

    fn types(&mut self, old: Option<&Value>, new: Option<&Value>, path: &str) {
        if old == new {
            return;
        }
        let (Some(old_types), Some(new_types)) = (type_set(old), type_set(new)) else {
            self.emit_at(
                path,
                "type",
                Effect::Unknown,
                "`type` is not a type name or a list of them".to_owned(),
            );
            return;
        };
        let covered = |t: &str, set: &Option<Vec<&str>>| match set {
            None => true,
            Some(set) => set.contains(&t) || (t == "integer" && set.contains(&"number")),
        };
        let (lost, gained): (Vec<&str>, Vec<&str>) = match (&old_types, &new_types) {
            (None, Some(n)) => (vec![], n.clone()),
            (Some(o), None) => (o.clone(), vec![]),
            (Some(o), Some(n)) => (
                o.iter()
                    .copied()
                    .filter(|t| !covered(t, &new_types))
                    .collect(),
                n.iter()
                    .copied()
                    .filter(|t| !covered(t, &old_types))
                    .collect(),
            ),
            (None, None) => return,
        };
        match (&old_types, &new_types) {
            (None, Some(n)) => self.emit_at(
                path,
                "type",
                Effect::Narrows,
                format!("`type` added: only {} accepted now", n.join(" or ")),
            ),
            (Some(_), None) => self.emit_at(
                path,
                "type",
                Effect::Widens,
                "`type` removed: values of any type are accepted now".to_owned(),
            ),
            _ => {
                if !lost.is_empty() {
                    self.emit_at(
                        path,
                        "type",
                        Effect::Narrows,
                        format!("type narrowed: {} no longer accepted", lost.join(", ")),
                    );
                }
                if !gained.is_empty() {
                    self.emit_at(
                        path,
                        "type",
                        Effect::Widens,
                        format!("type widened: {} now accepted", gained.join(", ")),
                    );
                }
                if lost.is_empty() && gained.is_empty() {
                    self.emit_at(
                        path,
                        "type",
                        Effect::Neutral,
                        "`type` rewritten with the same meaning".to_owned(),
                    );
                }
            }
        }
    }

    /// `enum` and `const` together: both list the values allowed.
    fn allowed_values(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, path: &str) {
        if old.get("enum") == new.get("enum") && old.get("const") == new.get("const") {
            return;
        }
        let keyword = if new.contains_key("enum") || old.contains_key("enum") {
            "enum"
        } else {
            "const"
        };
        let (Some(o), Some(n)) = (allowed(old), allowed(new)) else {
            self.emit_at(
                path,
                keyword,
                Effect::Unknown,
                "`enum` is not an array".to_owned(),
            );
            return;
        };
        match (o, n) {
            (None, None) => {}
            (None, Some(n)) => self.emit_at(
                path,
                keyword,
                Effect::Narrows,
                format!("`{keyword}` added: only {} accepted now", values(&n)),
            ),
            (Some(_), None) => self.emit_at(
                path,
                keyword,
                Effect::Widens,
                format!("`{keyword}` removed: any value accepted now"),
            ),
            (Some(o), Some(n)) => {
                let removed: Vec<&Value> = o.iter().copied().filter(|v| !n.contains(v)).collect();
                let added: Vec<&Value> = n.iter().copied().filter(|v| !o.contains(v)).collect();
                if !removed.is_empty() {
                    self.emit_at(
                        path,
                        keyword,
                        Effect::Narrows,
                        format!("value {} no longer allowed", values(&removed)),
                    );
                }
                if !added.is_empty() {
                    self.emit_at(
                        path,
                        keyword,
                        Effect::Widens,
                        format!("value {} now allowed", values(&added)),
                    );
                }
                if removed.is_empty() && added.is_empty() {
                    self.emit_at(
                        path,
                        keyword,
                        Effect::Neutral,
                        "allowed values reordered".to_owned(),
                    );
                }
            }
        }
    }

    fn required(&mut self, old: Option<&Value>, new: Option<&Value>, path: &str) {
        if old == new {
            return;
        }
        let (Some(o), Some(n)) = (names(old), names(new)) else {
            self.emit_at(
                path,
                "required",
                Effect::Unknown,
                "`required` is not a list of names".to_owned(),
            );
            return;
        };
        for name in n.iter().filter(|k| !o.contains(k)) {
            self.emit_at(
                path,
                "required",
                Effect::Narrows,
                format!("`{name}` is now required"),
            );
        }
        for name in o.iter().filter(|k| !n.contains(k)) {
            self.emit_at(
                path,
                "required",
                Effect::Widens,
                format!("`{name}` is no longer required"),
            );
        }
    }

    /// `properties` and `additionalProperties`: a property present on one side only is compared
    /// with what the other side's `additionalProperties` says about it.
    fn properties(
        &mut self,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        path: &mut String,
        depth: usize,
    ) {
        let empty = Map::new();
        let old_props = old.get("properties").and_then(Value::as_object);
        let new_props = new.get("properties").and_then(Value::as_object);
        for (key, value) in [
            ("properties", old.get("properties")),
            ("properties", new.get("properties")),
        ] {
            if value.is_some_and(|v| !v.is_object()) && old.get(key) != new.get(key) {
                self.emit_at(
                    path,
                    key,
                    Effect::Unknown,
                    "`properties` is not an object".to_owned(),
                );
                return;
            }
        }
        let (old_props, new_props) = (old_props.unwrap_or(&empty), new_props.unwrap_or(&empty));
        let old_extra = old.get("additionalProperties");
        let new_extra = new.get("additionalProperties");
        let base = path.len();
        push_token(path, "properties");
        let properties_len = path.len();
        for (name, new_schema) in new_props {
            push_token(path, name);
            match old_props.get(name) {
                Some(old_schema) => self.node(old_schema, new_schema, path, depth + 1),
                None => match old_extra {
                    None | Some(Value::Bool(true)) => {
                        self.emit(path, Effect::Neutral, format!("property `{name}` added"))
                    }
                    Some(Value::Bool(false)) => self.emit(
                        path,
                        Effect::Widens,
                        format!(
                            "property `{name}` added where additionalProperties was false: \
                             it was rejected before"
                        ),
                    ),
                    Some(extra) => self.node(extra, new_schema, path, depth + 1),
                },
            }
            path.truncate(properties_len);
        }
        for (name, old_schema) in old_props
            .iter()
            .filter(|(k, _)| !new_props.contains_key(*k))
        {
            push_token(path, name);
            match new_extra {
                None | Some(Value::Bool(true)) => {
                    let trivial = matches!(old_schema, Value::Bool(true))
                        || old_schema.as_object().is_some_and(Map::is_empty);
                    self.emit(
                        path,
                        if trivial {
                            Effect::Neutral
                        } else {
                            Effect::Widens
                        },
                        format!("property `{name}` removed: any value is accepted there now"),
                    );
                }
                Some(Value::Bool(false)) => self.emit(
                    path,
                    Effect::Narrows,
                    format!(
                        "property `{name}` removed and additionalProperties is false: \
                         it is rejected now"
                    ),
                ),
                Some(extra) => self.node(old_schema, extra, path, depth + 1),
            }
            path.truncate(properties_len);
        }
        path.truncate(base);

        if old_extra != new_extra {
            let open = Value::Bool(true);
            match (old_extra.unwrap_or(&open), new_extra.unwrap_or(&open)) {
                (Value::Bool(true), Value::Bool(false)) => self.emit_at(
                    path,
                    "additionalProperties",
                    Effect::Narrows,
                    "additionalProperties: false added: properties not listed are rejected now"
                        .to_owned(),
                ),
                (Value::Bool(false), Value::Bool(true)) => self.emit_at(
                    path,
                    "additionalProperties",
                    Effect::Widens,
                    "additionalProperties: false removed: properties not listed are accepted now"
                        .to_owned(),
                ),
                (o, n) => {
                    push_token(path, "additionalProperties");
                    self.node(o, n, path, depth + 1);
                    path.truncate(base);
                }
            }
        }
    }

    /// A keyword holding one subschema (`items`); absent means anything.
    fn subschema(
        &mut self,
        old: Option<&Value>,
        new: Option<&Value>,
        keyword: &str,
        path: &mut String,
        depth: usize,
    ) {
        if old == new && self.definitions_equal {
            return;
        }
        let any = Value::Bool(true);
        let (o, n) = (old.unwrap_or(&any), new.unwrap_or(&any));
        if o.is_array() || n.is_array() {
            // The tuple form of draft 4 to 2019-09.
            if o != n {
                self.emit_at(
                    path,
                    keyword,
                    Effect::Unknown,
                    format!("`{keyword}` as a list of schemas changed; not compared item by item"),
                );
            }
            return;
        }
        let base = path.len();
        push_token(path, keyword);
        self.node(o, n, path, depth + 1);
        path.truncate(base);
    }

    /// `allOf` and `anyOf` of the same length are compared branch by branch: narrowing a branch
    /// narrows the whole either way. Otherwise the effect is unknown.
    fn pairwise(
        &mut self,
        old: Option<&Value>,
        new: Option<&Value>,
        keyword: &str,
        path: &mut String,
        depth: usize,
    ) {
        if old == new && self.definitions_equal {
            return;
        }
        match (old.and_then(Value::as_array), new.and_then(Value::as_array)) {
            (Some(o), Some(n)) if o.len() == n.len() => {
                let base = path.len();
                push_token(path, keyword);
                let list_len = path.len();
                for (i, (a, b)) in o.iter().zip(n).enumerate() {
                    push_token(path, &i.to_string());
                    self.node(a, b, path, depth + 1);
                    path.truncate(list_len);
                }
                path.truncate(base);
            }
            _ if old == new => {}
            _ => self.emit_at(
                path,
                keyword,
                Effect::Unknown,
                format!(
                    "`{keyword}` {}; not compared branch by branch",
                    presence_change(old, new)
                ),
            ),
        }
    }

    fn bound(
        &mut self,
        old: Option<&Value>,
        new: Option<&Value>,
        keyword: &str,
        lower: bool,
        path: &str,
    ) {
        if old == new {
            return;
        }
        let number = |v: Option<&Value>| v.map(|v| v.as_f64().ok_or(()));
        let (effect, reason) = match (number(old), number(new)) {
            (None, Some(Ok(n))) => (Effect::Narrows, format!("`{keyword}` {n} added")),
            (Some(Ok(o)), None) => (Effect::Widens, format!("`{keyword}` {o} removed")),
            (Some(Ok(o)), Some(Ok(n))) => {
                let tighter = if lower { n > o } else { n < o };
                let looser = if lower { n < o } else { n > o };
                let effect = if tighter {
                    Effect::Narrows
                } else if looser {
                    Effect::Widens
                } else {
                    Effect::Neutral
                };
                let verb = match effect {
                    Effect::Narrows => "tightened",
                    Effect::Widens => "loosened",
                    _ => "rewritten",
                };
                (effect, format!("`{keyword}` {verb} from {o} to {n}"))
            }
            _ => (
                Effect::Unknown,
                format!("`{keyword}` {} (not a number)", presence_change(old, new)),
            ),
        };
        self.emit_at(path, keyword, effect, reason);
    }

    /// `pattern` and `format`: adding one narrows, removing one widens, and a rewrite may do
    /// either.
    fn presence_constraint(
        &mut self,
        old: Option<&Value>,
        new: Option<&Value>,
        keyword: &str,
        path: &str,
    ) {
        let (effect, reason) = match (old, new) {
            (o, n) if o == n => return,
            (None, Some(n)) => (Effect::Narrows, format!("`{keyword}` {n} added")),
            (Some(o), None) => (Effect::Widens, format!("`{keyword}` {o} removed")),
            (Some(o), Some(n)) => (
                Effect::Unknown,
                format!(
                    "`{keyword}` changed from {o} to {n}; appdeck cannot tell which values it still accepts"
                ),
            ),
            (None, None) => return,
        };
        self.emit_at(path, keyword, effect, reason);
    }

    fn multiple_of(&mut self, old: Option<&Value>, new: Option<&Value>, path: &str) {
        let (effect, reason) = match (old.and_then(Value::as_f64), new.and_then(Value::as_f64)) {
            _ if old == new => return,
            (None, Some(n)) if old.is_none() => {
                (Effect::Narrows, format!("`multipleOf` {n} added"))
            }
            (Some(o), None) if new.is_none() => {
                (Effect::Widens, format!("`multipleOf` {o} removed"))
            }
            (Some(o), Some(n)) if o > 0.0 && n > 0.0 && (n / o).fract() == 0.0 => (
                Effect::Narrows,
                format!("`multipleOf` changed from {o} to {n}, a multiple of it"),
            ),
            (Some(o), Some(n)) if o > 0.0 && n > 0.0 && (o / n).fract() == 0.0 => (
                Effect::Widens,
                format!("`multipleOf` changed from {o} to {n}, a divisor of it"),
            ),
            _ => (
                Effect::Unknown,
                format!("`multipleOf` {}", presence_change(old, new)),
            ),
        };
        self.emit_at(path, "multipleOf", effect, reason);
    }

    fn unique_items(&mut self, old: Option<&Value>, new: Option<&Value>, path: &str) {
        let flag = |v: Option<&Value>| v.map_or(Some(false), Value::as_bool);
        let (effect, reason) = match (flag(old), flag(new)) {
            (Some(a), Some(b)) if a == b => return,
            (Some(false), Some(true)) => (Effect::Narrows, "`uniqueItems` turned on".to_owned()),
            (Some(true), Some(false)) => (Effect::Widens, "`uniqueItems` turned off".to_owned()),
            _ => (Effect::Unknown, "`uniqueItems` is not a boolean".to_owned()),
        };
        self.emit_at(path, "uniqueItems", effect, reason);
    }
}

/// Whether a schema holds a `$ref` anywhere.
fn contains_ref(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.iter().any(|(k, v)| k == "$ref" || contains_ref(v)),
        Value::Array(items) => items.iter().any(contains_ref),
        _ => false,
    }
}

/// The JSON types a `type` keyword allows: `Some(None)` for no `type` (all of them), `None` when
/// the keyword is malformed.
#[allow(clippy::option_option)]
fn type_set(value: Option<&Value>) -> Option<Option<Vec<&str>>> {
    match value {
        None => Some(None),
        Some(Value::String(t)) => Some(Some(vec![t.as_str()])),
        Some(Value::Array(ts)) => ts
            .iter()
            .map(Value::as_str)
            .collect::<Option<Vec<_>>>()
            .map(Some),
        Some(_) => None,
    }
}

/// The values `enum` or `const` allow: `Some(None)` when neither is there, `None` when malformed.
#[allow(clippy::option_option)]
fn allowed(map: &Map<String, Value>) -> Option<Option<Vec<&Value>>> {
    match (map.get("enum"), map.get("const")) {
        (Some(Value::Array(values)), Some(c)) => {
            Some(Some(values.iter().filter(|v| *v == c).collect()))
        }
        (Some(Value::Array(values)), None) => Some(Some(values.iter().collect())),
        (Some(_), _) => None,
        (None, Some(c)) => Some(Some(vec![c])),
        (None, None) => Some(None),
    }
}

fn names(value: Option<&Value>) -> Option<Vec<&str>> {
    match value {
        None => Some(Vec::new()),
        Some(Value::Array(items)) => items.iter().map(Value::as_str).collect(),
        Some(_) => None,
    }
}

/// Values for a message, as compact JSON, at most a few.
fn values(list: &[&Value]) -> String {
    const SHOWN: usize = 5;
    let mut text: Vec<String> = list.iter().take(SHOWN).map(|v| v.to_string()).collect();
    if list.len() > SHOWN {
        text.push(format!("and {} more", list.len() - SHOWN));
    }
    text.join(", ")
}

fn shown(value: Option<&Value>) -> String {
    value.map_or_else(|| "none".to_owned(), Value::to_string)
}

fn presence_change(old: Option<&Value>, new: Option<&Value>) -> String {
    match (old, new) {
        (None, Some(n)) => format!("added ({})", short(n)),
        (Some(_), None) => "removed".to_owned(),
        (Some(o), Some(n)) => format!("changed from {} to {}", short(o), short(n)),
        (None, None) => "unchanged".to_owned(),
    }
}

/// A value for a message: its JSON, cut at a length that keeps a line readable.
fn short(value: &Value) -> String {
    const MAX: usize = 60;
    let text = value.to_string();
    if text.chars().count() <= MAX {
        text
    } else {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut}…")
    }
}
