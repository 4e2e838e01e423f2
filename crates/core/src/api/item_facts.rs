//! What the list keeps of a page's item: the texts of its columns and whether it is marked,
//! found in the item's text on the executor's task. A resource of sound fields (every field the
//! spec names of its type, as most are) is read only for its shown fields after one scan
//! ([`json_peek::peek`]): its `properties` are most of its bytes, and reading each item whole as
//! a tree, then dropping the trees on the UI thread, was most of what a page cost: `L` over
//! 100,000 rows (`benches/tui_load_all.sh`, a busy machine) took 5.3-5.6 s; with these facts and
//! the next page read ahead (`runtime/executor.rs`), 0.8-1.1 s. Any other item is read whole, as
//! before, which says what is wrong with it: the texts and the marks are the same either way
//! (`tests::facts_agree_with_reading_the_item_whole`).

use std::borrow::Cow;

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};

use super::field::Field;
use super::page::read_item_text;
use super::types::{PageItem, Resource};
use crate::json_peek::{self, Node};

/// How many texts an item gives the list: `type`, the title (`display_name`, else `name`),
/// `status`, `external_id`, `id` and `updated_at`, in that order (see [`ItemFacts::texts`]).
pub const SHOWN_TEXTS: usize = 6;

/// What the list shows of one item, and how it is marked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ItemFacts {
    texts: [Shown; SHOWN_TEXTS],
    pub kind: ItemKind,
}

/// One shown text: where it lies in the item's text (a string with no escape, the common case,
/// costs no allocation), or decoded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
enum Shown {
    #[default]
    Absent,
    At(u32, u32),
    Decoded(Box<str>),
}

/// Whether an item is a resource, and a sound one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ItemKind {
    /// A resource whose every field the spec names is of its type.
    #[default]
    Sound,
    /// A resource with a field of an unexpected type (the `!` mark).
    OddFields,
    /// Not a JSON object, or one the parser cannot hold: no texts.
    NotResource,
}

impl ItemFacts {
    /// The facts of an item from its text as the page brought it (valid JSON).
    pub fn read(json: &str) -> ItemFacts {
        ItemFacts::of_sound(json).unwrap_or_else(|| ItemFacts::of_item(&read_item_text(json)))
    }

    /// The facts of a resource of sound fields from its text, read only for its shown fields;
    /// `None` for any other item, or when unsure (the caller reads it whole, which says what is
    /// wrong): the list's rows and `list -o table|csv|tsv` go by it. One scan finds the members,
    /// one pass over them checks every known field's type and keeps the shown ones.
    pub fn of_sound(json: &str) -> Option<ItemFacts> {
        let (facts, Some(Node::Object(members))) = json_peek::peek(json) else {
            return None;
        };
        if !facts.surely_readable() {
            return None;
        }
        let mut fields = SoundFields::default();
        for (key, value) in &members {
            fields.push(key, value);
        }
        fields.checked()?.facts(json)
    }

    /// The facts of an item read whole.
    pub fn of_item(item: &PageItem) -> ItemFacts {
        fn text(field: &Field<String>) -> Shown {
            field
                .get()
                .map_or(Shown::Absent, |t| Shown::Decoded(t.as_str().into()))
        }
        match item.resource() {
            Some(r) => ItemFacts {
                texts: [
                    text(&r.resource_type),
                    r.title()
                        .map_or(Shown::Absent, |t| Shown::Decoded(t.into())),
                    text(&r.status),
                    text(&r.external_id),
                    text(&r.id),
                    text(&r.updated_at),
                ],
                kind: if r.field_issues().is_empty() {
                    ItemKind::Sound
                } else {
                    ItemKind::OddFields
                },
            },
            None => ItemFacts {
                kind: ItemKind::NotResource,
                ..ItemFacts::default()
            },
        }
    }

    /// The shown texts, in the order of [`SHOWN_TEXTS`], from `json`, the text the facts were
    /// read from.
    pub fn texts<'a>(&'a self, json: &'a str) -> [Option<&'a str>; SHOWN_TEXTS] {
        self.texts.each_ref().map(|shown| match shown {
            Shown::Absent => None,
            Shown::At(start, end) => json.get(*start as usize..*end as usize),
            Shown::Decoded(text) => Some(&**text),
        })
    }

    /// [`Self::texts`], each borrowed from `json` unless it had to be decoded.
    pub fn into_texts(self, json: &str) -> [Option<Cow<'_, str>>; SHOWN_TEXTS] {
        self.texts.map(|shown| match shown {
            Shown::Absent => None,
            Shown::At(start, end) => json.get(start as usize..end as usize).map(Cow::Borrowed),
            Shown::Decoded(text) => Some(Cow::Owned(text.into())),
        })
    }

    /// The item's `type`, when it is a string.
    pub fn resource_type<'a>(&'a self, json: &'a str) -> Option<&'a str> {
        self.texts(json)[0]
    }
}

/// The keys [`ItemFacts::of_sound`] keeps the values of: the shown ones, the title being
/// `display_name`, else `name`.
const SHOWN: [&str; 7] = [
    "type",
    "display_name",
    "name",
    "status",
    "external_id",
    "id",
    "updated_at",
];

/// An object's members as [`ItemFacts::of_sound`] needs them, pushed in order: the last of a key
/// that comes twice is the one a parsed object keeps.
pub(crate) struct SoundFields<'a> {
    shown: [Option<&'a str>; SHOWN.len()],
    known: [Option<&'a str>; MAX_KNOWN_FIELDS],
}

impl Default for SoundFields<'_> {
    fn default() -> Self {
        SoundFields {
            shown: [None; SHOWN.len()],
            known: [None; MAX_KNOWN_FIELDS],
        }
    }
}

impl<'a> SoundFields<'a> {
    /// A member: its key read, its value as text (valid JSON).
    pub(crate) fn push(&mut self, key: &str, value: &'a str) {
        if let Some(slot) = SHOWN.iter().position(|k| *k == key) {
            self.shown[slot] = Some(value);
        }
        if let Some(known) = Resource::KNOWN_FIELDS.iter().position(|k| *k == key) {
            self.known[known] = Some(value);
        }
    }

    /// The shown fields' values, when every known field is of its type.
    pub(crate) fn checked(self) -> Option<ShownValues<'a>> {
        let mut fields = Resource::KNOWN_FIELDS.iter().zip(self.known);
        let all_sound = fields.all(|(key, value)| match (*key, value) {
            (_, None | Some("null")) => true,
            ("properties", Some(value)) => value.starts_with('{'),
            ("links", Some(value)) => links_sound(value),
            (_, Some(value)) => value.starts_with('"'),
        });
        all_sound.then_some(ShownValues(self.shown))
    }
}

/// The values of a sound resource's shown fields, as text.
pub(crate) struct ShownValues<'a>([Option<&'a str>; SHOWN.len()]);

impl ShownValues<'_> {
    /// The facts of the item whose text is `json`, which holds the values, and which serde_json
    /// reads whole for sure ([`json_peek::Facts::surely_readable`]).
    pub(crate) fn facts(self, json: &str) -> Option<ItemFacts> {
        u32::try_from(json.len()).ok()?;
        let at = |value: &str| {
            let start = (value.as_ptr() as usize).checked_sub(json.as_ptr() as usize)?;
            let end = start + value.len();
            // Within the item's text, whose length fits a u32 (checked above).
            (end <= json.len()).then_some(Shown::At(start as u32, end as u32))
        };
        let texts = self.0.map(|value| match value.filter(|v| *v != "null") {
            None => Some(Shown::Absent),
            Some(quoted) => match json_peek::string_text(quoted) {
                Some(plain) => at(plain),
                None => serde_json::from_str::<String>(quoted)
                    .ok()
                    .map(|s| Shown::Decoded(s.into())),
            },
        });
        let [
            kind,
            display_name,
            name,
            status,
            external_id,
            id,
            updated_at,
        ] = texts;
        let title = match display_name? {
            Shown::Absent => name?,
            shown => shown,
        };
        Some(ItemFacts {
            texts: [kind?, title, status?, external_id?, id?, updated_at?],
            kind: ItemKind::Sound,
        })
    }
}

/// Room for [`Resource::KNOWN_FIELDS`] in [`ItemFacts::of_sound`]'s record of the keys it has seen.
const MAX_KNOWN_FIELDS: usize = 32;
const _: () = assert!(Resource::KNOWN_FIELDS.len() <= MAX_KNOWN_FIELDS);

/// Whether a resource's `links` hold no field of an unexpected type: an object whose `links`
/// are absent, null, or objects whose `title`, `url` and `type` are strings, null or absent.
/// Read by serde_json in one pass that fails on anything else (or when unsure: an escaped key,
/// a key that comes twice with an odd value), where peeking each level went over the links
/// three times, 4.3% of `L`'s samples (perf): `L` over 100,000 rows took 418 ms instead of 443
/// (`benches/tui_load_all.sh`, medians of 11 runs alternating with the peeks, a quiet machine).
fn links_sound(links: &str) -> bool {
    serde_json::from_str::<SoundLinks>(links).is_ok()
}

/// `links` that [`links_sound`] finds sound; reading fails on any other value.
struct SoundLinks;

/// A link whose `title`, `url` and `type` are strings, null or absent.
struct SoundLink;

/// A JSON string, unread.
struct AnyString;

impl<'de> Deserialize<'de> for SoundLinks {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct Members;
        impl<'de> Visitor<'de> for Members {
            type Value = SoundLinks;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("sound links")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                // A key with an escape is no borrowed text: unsure, the item is read whole.
                while let Some(key) = map.next_key::<&'de str>()? {
                    if key == "links" {
                        map.next_value::<Option<Vec<SoundLink>>>()?;
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(SoundLinks)
            }
        }
        de.deserialize_map(Members)
    }
}

impl<'de> Deserialize<'de> for SoundLink {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct Members;
        impl<'de> Visitor<'de> for Members {
            type Value = SoundLink;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a sound link")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while let Some(key) = map.next_key::<&'de str>()? {
                    if matches!(key, "title" | "url" | "type") {
                        map.next_value::<Option<AnyString>>()?;
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(SoundLink)
            }
        }
        de.deserialize_map(Members)
    }
}

impl<'de> Deserialize<'de> for AnyString {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct Text;
        impl Visitor<'_> for Text {
            type Value = AnyString;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
                Ok(AnyString)
            }
        }
        de.deserialize_str(Text)
    }
}

/// The text of an item's shown field as the whole read gives it, for the tests.
#[cfg(test)]
fn whole(json: &str) -> (Vec<Option<String>>, ItemKind) {
    let facts = ItemFacts::of_item(&read_item_text(json));
    let texts = facts.texts(json).map(|t| t.map(str::to_owned)).to_vec();
    (texts, facts.kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::page::tests::odd_items;

    /// Read for its shown fields or whole, an item gives the list the same texts and marks:
    /// escapes decoded, the last of a key that comes twice, a wrong-typed field marking it.
    #[test]
    fn facts_agree_with_reading_the_item_whole() {
        let mut items = odd_items();
        items.extend(
            [
                r#"{"id":"e1","display_name":"caf\u00e9 \"x\"","name":"n","type":"t"}"#,
                r#"{"id":"e2","display_name":null,"name":"the name","status":"ok"}"#,
                r#"{"id":"e3","type":"a","type":"b","updated_at":"2024-01-01T00:00:00Z"}"#,
                r#"{"id":"e4","links":{"links":[{"url":"u","type":"documentation"}]}}"#,
                r#"{"id":"e5","links":{"links":null},"external_id":"x1"}"#,
                r#"{"id":"e6","links":[],"status":"open"}"#,
                r#"{"id":"e7","status":"s","status":5}"#,
                r#"{"id":"e8","status":5,"status":"s"}"#,
                r#"{"id":"e9","display_name":3,"name":"shown?"}"#,
                r#"{"id":"e10","created_at":false}"#,
                r#"{"id":"e11","properties":{"a":"\ud83d\ude00"}}"#,
                r#"{"type":"repo","display_name":"Zoë ünïcødé","id":"é"}"#,
                r#"{"id":"e12","links":{"links":[{"url":"u"},{"url":3}]}}"#,
                r#"{"id":"e13","links":{"links":[{"title":"t"},"oops"]}}"#,
                r#"{"id":"e14","links":{"x":[1],"links":[{"title":null,"type":"t","more":{}}]}}"#,
            ]
            .map(str::to_owned),
        );
        let mut sound = 0;
        for json in &items {
            let facts = ItemFacts::read(json);
            let texts = facts.texts(json).map(|t| t.map(str::to_owned)).to_vec();
            assert_eq!((texts, facts.kind), whole(json), "{json}");
            sound += usize::from(ItemFacts::of_sound(json).is_some());
        }
        assert!(
            sound >= 10,
            "most items read by their shown fields: {sound}"
        );
    }

    /// A plain string is kept as where it lies in the item's text, not copied.
    #[test]
    fn a_plain_text_is_not_copied() {
        let json = r#"{"id":"r1","type":"repo","name":"with \"quote\""}"#;
        let facts = ItemFacts::read(json);
        assert!(matches!(facts.texts[4], Shown::At(..)));
        assert!(matches!(facts.texts[1], Shown::Decoded(_)));
        assert_eq!(
            facts.texts(json),
            [
                Some("repo"),
                Some("with \"quote\""),
                None,
                None,
                Some("r1"),
                None
            ]
        );
        assert_eq!(facts.resource_type(json), Some("repo"));
    }
}
