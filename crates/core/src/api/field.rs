//! Lenient fields: the service's spec leaves every field optional and says little about types, so a
//! record must survive a field of an unexpected JSON type without losing it or failing the page.

use serde::ser::SerializeMap;
use serde_json::{Map, Value};

/// One field of a record as it arrived: absent, `null`, of the expected type, or of another type
/// (kept verbatim so that it is shown to the user and written back unchanged).
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Field<T> {
    #[default]
    Absent,
    Null,
    Valid(T),
    Invalid(Value),
}

/// A Rust type that a JSON value can be checked against and converted into without cloning.
pub trait FromJson: Sized {
    /// The JSON type the spec names, for messages such as "expected a string".
    const EXPECTED: &'static str;
    /// Whether `value` converts: checked first so a mismatch keeps the value intact.
    fn fits(value: &Value) -> bool;
    /// Converts a value for which `fits` is true.
    fn from_json(value: Value) -> Self;
    /// The value as JSON again.
    fn to_json(&self) -> Value;
    /// Reports why `value` does not fit. An array says which of its items are wrong rather than
    /// "expected an array, found an array".
    fn mismatches(value: &Value, pointer: &str, out: &mut Vec<FieldIssue>) {
        out.push(FieldIssue {
            pointer: pointer.to_owned(),
            expected: Self::EXPECTED,
            found: json_type_name(value),
        });
    }
}

impl FromJson for String {
    const EXPECTED: &'static str = "a string";
    fn fits(value: &Value) -> bool {
        value.is_string()
    }
    fn from_json(value: Value) -> Self {
        match value {
            Value::String(s) => s,
            _ => unreachable!("checked by fits"),
        }
    }
    fn to_json(&self) -> Value {
        Value::String(self.clone())
    }
}

impl FromJson for bool {
    const EXPECTED: &'static str = "a boolean";
    fn fits(value: &Value) -> bool {
        value.is_boolean()
    }
    fn from_json(value: Value) -> Self {
        value.as_bool().unwrap_or_default()
    }
    fn to_json(&self) -> Value {
        Value::Bool(*self)
    }
}

impl FromJson for Map<String, Value> {
    const EXPECTED: &'static str = "an object";
    fn fits(value: &Value) -> bool {
        value.is_object()
    }
    fn from_json(value: Value) -> Self {
        match value {
            Value::Object(map) => map,
            _ => unreachable!("checked by fits"),
        }
    }
    fn to_json(&self) -> Value {
        Value::Object(self.clone())
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    const EXPECTED: &'static str = "an array";
    fn fits(value: &Value) -> bool {
        value
            .as_array()
            .is_some_and(|items| items.iter().all(T::fits))
    }
    fn from_json(value: Value) -> Self {
        match value {
            Value::Array(items) => items.into_iter().map(T::from_json).collect(),
            _ => unreachable!("checked by fits"),
        }
    }
    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(T::to_json).collect())
    }
    fn mismatches(value: &Value, pointer: &str, out: &mut Vec<FieldIssue>) {
        match value.as_array() {
            Some(items) => {
                for (i, item) in items.iter().enumerate().filter(|(_, item)| !T::fits(item)) {
                    T::mismatches(item, &format!("{pointer}/{i}"), out);
                }
            }
            None => out.push(FieldIssue {
                pointer: pointer.to_owned(),
                expected: Self::EXPECTED,
                found: json_type_name(value),
            }),
        }
    }
}

impl<T: FromJson> Field<T> {
    /// Takes `key` out of `map`, keeping the order of the remaining (unknown) fields.
    pub(crate) fn take(map: &mut Map<String, Value>, key: &str) -> Self {
        match map.shift_remove(key) {
            None => Field::Absent,
            Some(Value::Null) => Field::Null,
            Some(value) if T::fits(&value) => Field::Valid(T::from_json(value)),
            Some(value) => Field::Invalid(value),
        }
    }

    /// Writes the field back as it came (nothing when it was absent).
    pub fn to_json(&self) -> Option<Value> {
        match self {
            Field::Absent => None,
            Field::Null => Some(Value::Null),
            Field::Valid(v) => Some(v.to_json()),
            Field::Invalid(v) => Some(v.clone()),
        }
    }

    pub(crate) fn serialize_entry<M: SerializeMap>(
        &self,
        key: &str,
        map: &mut M,
    ) -> Result<(), M::Error>
    where
        T: serde::Serialize,
    {
        match self {
            Field::Absent => Ok(()),
            Field::Null => map.serialize_entry(key, &Value::Null),
            Field::Valid(v) => map.serialize_entry(key, v),
            Field::Invalid(v) => map.serialize_entry(key, v),
        }
    }
}

impl<T> Field<T> {
    /// The value when it is present and of the expected type.
    pub fn get(&self) -> Option<&T> {
        match self {
            Field::Valid(v) => Some(v),
            _ => None,
        }
    }

    /// Whether the field was present at all (`null` counts as present).
    pub(crate) fn is_present(&self) -> bool {
        !matches!(self, Field::Absent)
    }
}

impl<T> From<T> for Field<T> {
    fn from(value: T) -> Self {
        Field::Valid(value)
    }
}

/// A field whose JSON type is not the one the spec gives, found while reading a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldIssue {
    /// JSON pointer of the field inside the record, such as `/links/links/0/url`.
    pub pointer: String,
    pub expected: &'static str,
    /// The JSON type that came instead.
    pub found: &'static str,
}

impl std::fmt::Display for FieldIssue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: expected {}, found {}",
            self.pointer, self.expected, self.found
        )
    }
}

/// Name of a JSON value's type, for messages.
pub fn json_type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Records whose nested fields can themselves carry issues (links inside a resource, actions
/// inside a type definition).
pub trait CollectIssues {
    fn collect_issues(&self, prefix: &str, out: &mut Vec<FieldIssue>);
}

impl CollectIssues for String {
    fn collect_issues(&self, _: &str, _: &mut Vec<FieldIssue>) {}
}
impl CollectIssues for bool {
    fn collect_issues(&self, _: &str, _: &mut Vec<FieldIssue>) {}
}
impl CollectIssues for Map<String, Value> {
    fn collect_issues(&self, _: &str, _: &mut Vec<FieldIssue>) {}
}
impl<T: CollectIssues> CollectIssues for Vec<T> {
    fn collect_issues(&self, prefix: &str, out: &mut Vec<FieldIssue>) {
        for (i, item) in self.iter().enumerate() {
            item.collect_issues(&format!("{prefix}/{i}"), out);
        }
    }
}

impl<T: FromJson + CollectIssues> Field<T> {
    pub(crate) fn collect_issues(&self, pointer: String, out: &mut Vec<FieldIssue>) {
        match self {
            Field::Invalid(value) => T::mismatches(value, &pointer, out),
            Field::Valid(inner) => inner.collect_issues(&pointer, out),
            Field::Absent | Field::Null => {}
        }
    }
}

/// The order in which a record's keys arrived, so that it is written back in that order: what the
/// service sent is what appdeck shows and sends, key order included. Each entry is the index of a
/// known field in `KNOWN_FIELDS`, or [`KeyOrder::EXTRA`] for the next unknown field (those keep
/// their own order in `extra`). Empty when the keys came in the spec's order, the common case,
/// so that a page of well-ordered records pays nothing.
#[derive(Clone, Debug, Default)]
pub struct KeyOrder(Box<[u8]>);

/// Key order is presentation, not content: two records with the same fields are equal, as two
/// JSON objects are (and as `serde_json::Map` compares them).
impl PartialEq for KeyOrder {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl KeyOrder {
    /// Marks an unknown field's place.
    const EXTRA: u8 = u8::MAX;

    /// Records the order of `keys` against the record's `known` field names.
    pub(crate) fn of<'a>(keys: impl Iterator<Item = &'a String>, known: &[&str]) -> Self {
        let order: Vec<u8> = keys
            .map(|key| {
                known
                    .iter()
                    .position(|k| k == key)
                    .and_then(|i| u8::try_from(i).ok())
                    .unwrap_or(Self::EXTRA)
            })
            .collect();
        // The order `serialize` falls back to: the known fields in the spec's order, then the rest.
        let canonical =
            order.is_sorted_by(|a, b| a < b || (*a == Self::EXTRA && *b == Self::EXTRA));
        KeyOrder(if canonical {
            Box::default()
        } else {
            order.into()
        })
    }

    /// Writes a record's fields: first in the order they arrived, then any field set since (known
    /// ones in the spec's order, then unknown ones). `known_entry` writes one known field by name
    /// (nothing when it is absent).
    pub(crate) fn write<M: SerializeMap>(
        &self,
        known: &[&str],
        extra: &Map<String, Value>,
        map: &mut M,
        mut known_entry: impl FnMut(&str, &mut M) -> Result<(), M::Error>,
    ) -> Result<(), M::Error> {
        let mut written = 0u64;
        let mut extras = extra.iter();
        for &entry in self.0.iter() {
            if entry == Self::EXTRA {
                if let Some((key, value)) = extras.next() {
                    map.serialize_entry(key, value)?;
                }
            } else if let Some(key) = known.get(usize::from(entry))
                && written & (1 << entry) == 0
            {
                known_entry(key, map)?;
                written |= 1 << entry;
            }
        }
        for (i, key) in known.iter().enumerate() {
            if written & (1 << i) == 0 {
                known_entry(key, map)?;
            }
        }
        for (key, value) in extras {
            map.serialize_entry(key, value)?;
        }
        Ok(())
    }
}

/// Declares a record of the spec: every field a lenient [`Field`], unknown fields kept in `extra`
/// in their original order, and serde impls that write the record back as it came.
macro_rules! lenient_record {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ty => $key:literal ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $crate::api::field::Field<$ty>, )*
            /// Fields the spec does not name, kept so that they are shown and survive a round trip.
            pub extra: serde_json::Map<String, serde_json::Value>,
            /// The order the keys came in, so that the record is written back in it.
            pub key_order: $crate::api::field::KeyOrder,
        }

        impl $name {
            /// The JSON names of the fields the spec gives, in the spec's order.
            pub const KNOWN_FIELDS: &'static [&'static str] = &[$($key),*];

            /// Reads a record from a JSON object; never fails, whatever the fields hold.
            pub fn from_map(mut map: serde_json::Map<String, serde_json::Value>) -> Self {
                let key_order = $crate::api::field::KeyOrder::of(map.keys(), Self::KNOWN_FIELDS);
                Self {
                    $( $field: $crate::api::field::Field::take(&mut map, $key), )*
                    extra: map,
                    key_order,
                }
            }

            /// Fields (nested ones too) whose JSON type is not the spec's.
            pub fn field_issues(&self) -> Vec<$crate::api::field::FieldIssue> {
                let mut out = Vec::new();
                $crate::api::field::CollectIssues::collect_issues(self, "", &mut out);
                out
            }
        }

        impl $crate::api::field::CollectIssues for $name {
            fn collect_issues(&self, prefix: &str, out: &mut Vec<$crate::api::field::FieldIssue>) {
                $( self.$field.collect_issues(format!("{prefix}/{}", $key), out); )*
            }
        }

        impl $crate::api::field::FromJson for $name {
            const EXPECTED: &'static str = "an object";
            fn fits(value: &serde_json::Value) -> bool {
                value.is_object()
            }
            fn from_json(value: serde_json::Value) -> Self {
                match value {
                    serde_json::Value::Object(map) => Self::from_map(map),
                    _ => unreachable!("checked by fits"),
                }
            }
            fn to_json(&self) -> serde_json::Value {
                serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
                let map = serde_json::Map::<String, serde_json::Value>::deserialize(de)?;
                Ok(Self::from_map(map))
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeMap;
                let mut map = ser.serialize_map(None)?;
                self.key_order.write(Self::KNOWN_FIELDS, &self.extra, &mut map, |key, map| {
                    match key {
                        $( $key => self.$field.serialize_entry($key, map), )*
                        _ => Ok(()),
                    }
                })?;
                map.end()
            }
        }
    };
}
pub(crate) use lenient_record;
