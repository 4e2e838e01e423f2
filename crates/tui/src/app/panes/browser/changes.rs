//! What a `:watch` look found changed in a row (`d` on a row marked `~`): field by field, each
//! with its JSON pointer (RFC 6901), the value before and the value now. Objects are compared key
//! by key and arrays item by item, so a change deep in `properties` names its own field.

use std::sync::Arc;

use serde_json::Value;

use super::Browser;
use super::watch::Mark;
use crate::app::Toward;
use crate::app::panes::detail::Detail;
use appdeck_listing::Row;

/// The most changes listed; past it, the detail says how many more there are.
pub const MAX_CHANGES: usize = 500;

/// One field that changed: `was` is `None` when the field is new, `now` when it went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldChange {
    pub pointer: String,
    pub was: Option<Value>,
    pub now: Option<Value>,
}

/// The fields that differ between `was` and `now`, in the order of `now` (fields that went
/// after those still there); at most [`MAX_CHANGES`], with the count of all.
pub fn field_changes(was: &Value, now: &Value) -> (Vec<FieldChange>, usize) {
    let mut changes = Vec::new();
    let mut count = 0;
    walk(
        String::new(),
        Some(was),
        Some(now),
        &mut changes,
        &mut count,
    );
    (changes, count)
}

fn walk(
    pointer: String,
    was: Option<&Value>,
    now: Option<&Value>,
    out: &mut Vec<FieldChange>,
    count: &mut usize,
) {
    match (was, now) {
        (Some(a), Some(b)) if a == b => {}
        (Some(Value::Object(a)), Some(Value::Object(b))) => {
            for (key, value) in b {
                walk(child(&pointer, key), a.get(key), Some(value), out, count);
            }
            for (key, value) in a.iter().filter(|(k, _)| !b.contains_key(*k)) {
                walk(child(&pointer, key), Some(value), None, out, count);
            }
        }
        (Some(Value::Array(a)), Some(Value::Array(b))) => {
            for i in 0..a.len().max(b.len()) {
                walk(
                    child(&pointer, &i.to_string()),
                    a.get(i),
                    b.get(i),
                    out,
                    count,
                );
            }
        }
        (None, None) => {}
        (was, now) => {
            *count += 1;
            if out.len() < MAX_CHANGES {
                out.push(FieldChange {
                    pointer,
                    was: was.cloned(),
                    now: now.cloned(),
                });
            }
        }
    }
}

/// `pointer` one step further, the key escaped as RFC 6901 says (`~` as `~0`, `/` as `~1`).
fn child(pointer: &str, key: &str) -> String {
    format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"))
}

impl Browser {
    /// `d`: the detail of the row under the cursor with what the last look found changed in it,
    /// or why there is nothing to show.
    pub fn changes_of_selected(&self) -> Result<Detail, &'static str> {
        let row = self.selected().ok_or("no row here")?;
        let watch = self.watch.as_ref().ok_or(NOT_MARKED)?;
        if watch.mark(row) != Some(Mark::Changed) {
            return Err(NOT_MARKED);
        }
        let id = row.id().ok_or(NOT_MARKED)?;
        let was = watch.was.get(&*id).ok_or(NOT_MARKED)?;
        let now = (self.bodies().read(row.body)).map_err(|_| "the row's JSON could not be read")?;
        let parse = |text: &str| serde_json::from_str::<Value>(text).ok();
        let (changes, count) = match (parse(was), parse(&now)) {
            (Some(was), Some(now)) => field_changes(&was, &now),
            // Not JSON on either side: the whole text changed.
            _ => {
                let text = |t: &str| Some(Value::String(t.to_owned()));
                let whole = FieldChange {
                    pointer: String::new(),
                    was: text(was),
                    now: text(&now),
                };
                (vec![whole], 1)
            }
        };
        let detail = Detail::open_sent(Arc::new(Row::item_of(&now)), &now);
        Ok(detail.with_changes(&changes, count))
    }

    /// `n` / `N`: the cursor to the next (previous) row shown that a look marked new or
    /// changed, round the end.
    pub fn jump_to_marked(&mut self, toward: Toward, height: usize) -> Result<(), &'static str> {
        let watch = self
            .watch
            .as_ref()
            .ok_or("no row is marked: :watch SECS marks them")?;
        let rows = self.rows();
        let marked = |i: usize| matches!(watch.mark(rows.at(i)), Some(Mark::New | Mark::Changed));
        let len = self.visible.len();
        let here = self.cursor.selected;
        let found = (1..=len)
            .map(|step| match toward {
                Toward::Next => (here + step) % len,
                Toward::Previous => (here + len - step % len) % len,
            })
            .find(|&at| self.visible.get(at).is_some_and(marked))
            .ok_or("no row shown is marked new or changed")?;
        self.reselect = None;
        self.cursor.select(found, len, height);
        Ok(())
    }
}

/// Why `d` shows nothing.
const NOT_MARKED: &str = "d shows what changed in a row :watch marked ~ (changed)";

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn changes_are_listed_field_by_field_with_their_pointers() {
        let was = parse(
            r#"{"id":"r1","status":"active","properties":{"stars":10,"a/b":1,"tags":["x","y"],"gone":true}}"#,
        );
        let now = parse(
            r#"{"id":"r1","status":"failed","properties":{"stars":10.0,"a/b":2,"tags":["x"],"new":null}}"#,
        );
        let (changes, count) = field_changes(&was, &now);
        let said: Vec<(&str, Option<Value>, Option<Value>)> = changes
            .iter()
            .map(|c| (c.pointer.as_str(), c.was.clone(), c.now.clone()))
            .collect();
        assert_eq!(
            said,
            [
                ("/status", Some(json!("active")), Some(json!("failed"))),
                ("/properties/stars", Some(parse("10")), Some(parse("10.0"))),
                ("/properties/a~1b", Some(json!(1)), Some(json!(2))),
                ("/properties/tags/1", Some(json!("y")), None),
                ("/properties/new", None, Some(Value::Null)),
                ("/properties/gone", Some(json!(true)), None),
            ]
        );
        assert_eq!(count, 6);
        assert_eq!(field_changes(&was, &was).1, 0);
    }

    #[test]
    fn a_long_list_of_changes_is_cut_and_counted() {
        let was = Value::Array((0..MAX_CHANGES + 7).map(|i| json!(i)).collect());
        let now = Value::Array((0..MAX_CHANGES + 7).map(|i| json!(i + 1)).collect());
        let (changes, count) = field_changes(&was, &now);
        assert_eq!((changes.len(), count), (MAX_CHANGES, MAX_CHANGES + 7));
        assert_eq!(changes[0].pointer, "/0");
    }
}
