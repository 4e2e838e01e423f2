//! `resources.list`: reads `type`, `next` and `limit`, and answers one page in insertion order with
//! a cursor to the following one. The body is assembled from the rows' stored JSON text.

use serde_json::{Map, Value};

use super::cursor::Cursor;
use super::error::OpError;
use super::rows::RowPage;
use super::store::SandboxStore;
use crate::api::field::json_type_name;

pub(crate) const DEFAULT_LIMIT: usize = 50;
pub(crate) const MAX_LIMIT: usize = 500;

/// A checked `resources.list` request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ListQuery {
    pub resource_type: Option<String>,
    /// The cursor the request came with, verbatim (the repeat-cursor fault echoes it back).
    pub cursor_text: Option<String>,
    pub after: u64,
    pub limit: usize,
}

impl ListQuery {
    pub(crate) fn parse(body: &Map<String, Value>) -> Result<ListQuery, OpError> {
        refuse_nulls(body)?;
        let resource_type = match body.get("type") {
            None => None,
            Some(Value::String(t)) if t.is_empty() => {
                return Err(OpError::bad_request(
                    "type must not be empty; leave it out to list every type",
                ));
            }
            Some(Value::String(t)) => Some(t.clone()),
            Some(other) => {
                return Err(OpError::bad_request(format!(
                    "type: expected a string, found {}",
                    json_type_name(other)
                )));
            }
        };
        let (cursor_text, after) = match body.get("next") {
            None => (None, 0),
            Some(Value::String(text)) if text.is_empty() => (None, 0),
            Some(Value::String(text)) => {
                let cursor = Cursor::decode(text)
                    .map_err(|why| OpError::bad_request(format!("next: {why}")))?;
                if cursor.resource_type != resource_type {
                    return Err(OpError::bad_request(format!(
                        "next: this cursor belongs to a listing of {}, not of {}",
                        describe_filter(cursor.resource_type.as_deref()),
                        describe_filter(resource_type.as_deref()),
                    )));
                }
                (Some(text.clone()), cursor.after)
            }
            Some(other) => {
                return Err(OpError::bad_request(format!(
                    "next: expected a string, found {}",
                    json_type_name(other)
                )));
            }
        };
        let limit = match body.get("limit") {
            None => DEFAULT_LIMIT,
            Some(Value::Number(n)) => parse_limit(n)?,
            Some(other) => {
                return Err(OpError::bad_request(format!(
                    "{LIMIT_WANTED}, found {}",
                    json_type_name(other)
                )));
            }
        };
        Ok(ListQuery {
            resource_type,
            cursor_text,
            after,
            limit,
        })
    }

    /// The rows of the page this query asks for.
    pub(crate) fn fetch(&self, store: &SandboxStore) -> RowPage {
        store
            .read()
            .rows
            .page(self.resource_type.as_deref(), self.after, self.limit)
    }

    /// The cursor for the page after `page`, if rows follow it.
    pub(crate) fn next_cursor(&self, page: &RowPage) -> Option<String> {
        let last = page.last.filter(|_| page.more)?;
        Some(self.cursor_after(last))
    }

    /// The cursor of this listing for the rows after sequence number `after`.
    pub(crate) fn cursor_after(&self, after: u64) -> String {
        Cursor {
            after,
            resource_type: self.resource_type.clone(),
        }
        .encode()
    }
}

/// Refuses `null` for `next` (a string in the spec), `type` and `limit` (a string and an integer
/// here), naming each, as a report's nulls are refused: leaving the field out is how a first page
/// or a listing of every type is asked for.
fn refuse_nulls(body: &Map<String, Value>) -> Result<(), OpError> {
    let nulls: Vec<String> = ["next", "type", "limit"]
        .into_iter()
        .filter(|key| body.get(*key).is_some_and(Value::is_null))
        .map(|key| format!("/{key}"))
        .collect();
    if nulls.is_empty() {
        return Ok(());
    }
    Err(OpError::bad_request(format!(
        "{}: null where a string (`next`, `type`) or an integer (`limit`) is expected; \
         leave the field out instead",
        nulls.join(", ")
    )))
}

fn describe_filter(resource_type: Option<&str>) -> String {
    match resource_type {
        Some(t) => format!("type {t:?}"),
        None => "every type".to_owned(),
    }
}

/// What a refused `limit` is told: more than the most is not refused but served the most, so the
/// message must not say "from 1 to 500" (a client sending 501 would expect a 400).
const LIMIT_WANTED: &str =
    "limit: expected a whole number of at least 1 (more than 500 is served as 500)";

/// 1 to 500; more is clamped to 500 (a client asking for much is served the most allowed), past
/// 64 bits too. Only an integer written as one counts: `1e2` and `1e30` are refused alike.
fn parse_limit(n: &serde_json::Number) -> Result<usize, OpError> {
    // With arbitrary_precision a number keeps its text: digits alone are a positive integer.
    let past_64_bits = || n.to_string().bytes().all(|b| b.is_ascii_digit());
    match n.as_u64() {
        Some(limit) if limit > 0 => Ok(usize::try_from(limit).unwrap_or(MAX_LIMIT).min(MAX_LIMIT)),
        None if past_64_bits() => Ok(MAX_LIMIT),
        _ => Err(OpError::bad_request(format!("{LIMIT_WANTED}, found {n}"))),
    }
}

/// The JSON body of a page. `extra_item` (the malformed-item fault) is put in the middle.
pub(crate) fn page_body(page: &RowPage, next: Option<&str>, extra_item: Option<&str>) -> String {
    let size: usize = page.items.iter().map(|item| item.len() + 1).sum();
    let mut out = String::with_capacity(size + 128);
    out.push_str(r#"{"response_type":"resources","resources":["#);
    let middle = page.items.len() / 2;
    let mut first = true;
    let mut separate = |out: &mut String| {
        if !first {
            out.push(',');
        }
        first = false;
    };
    for (i, item) in page.items.iter().enumerate() {
        if i == middle
            && let Some(extra) = extra_item
        {
            separate(&mut out);
            out.push_str(extra);
        }
        separate(&mut out);
        item.write_to(&mut out);
    }
    if page.items.is_empty()
        && let Some(extra) = extra_item
    {
        out.push_str(extra);
    }
    out.push(']');
    // The last page leaves `next` out: the spec types it a string, and null is none.
    if let Some(cursor) = next {
        out.push_str(r#","next":"#);
        out.push_str(&Value::String(cursor.to_owned()).to_string());
    }
    out.push('}');
    out
}

/// The page as the nulls fault serves it: every spec field a resource leaves out as `null`, and
/// `"next": null` on the last page. Slow (each item is parsed), as befits a fault.
pub(crate) fn page_body_with_nulls(page: &RowPage, next: Option<&str>) -> String {
    let items: Vec<Value> = page
        .items
        .iter()
        .map(
            |item| match serde_json::from_str::<Value>(&item.to_text()) {
                Ok(Value::Object(mut map)) => {
                    for field in crate::api::Resource::KNOWN_FIELDS {
                        map.entry(*field).or_insert(Value::Null);
                    }
                    Value::Object(map)
                }
                Ok(other) => other,
                Err(_) => Value::Null,
            },
        )
        .collect();
    serde_json::json!({
        "response_type": "resources",
        "resources": items,
        "next": next,
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(body: Value) -> Result<ListQuery, OpError> {
        match body {
            Value::Object(map) => ListQuery::parse(&map),
            _ => unreachable!("tests pass objects"),
        }
    }

    #[test]
    fn limit_defaults_clamps_and_refuses() {
        assert_eq!(parse(json!({})).unwrap().limit, DEFAULT_LIMIT);
        assert_eq!(parse(json!({"limit": 7})).unwrap().limit, 7);
        assert_eq!(parse(json!({"limit": 501})).unwrap().limit, MAX_LIMIT);
        assert_eq!(parse(json!({"limit": u64::MAX})).unwrap().limit, MAX_LIMIT);
        let past_64_bits: Value =
            serde_json::from_str(r#"{"limit": 12345678901234567890123}"#).unwrap();
        assert_eq!(parse(past_64_bits).unwrap().limit, MAX_LIMIT);
        for bad in [
            json!(0),
            json!(-3),
            json!(2.5),
            json!(1e2),
            json!(1e30),
            json!("10"),
            json!(true),
        ] {
            let error = parse(json!({ "limit": bad })).unwrap_err();
            assert!(error.message.starts_with(LIMIT_WANTED), "{}", error.message);
        }
    }

    #[test]
    fn a_cursor_only_serves_its_own_filter() {
        let cursor = Cursor {
            after: 4,
            resource_type: Some("repo".into()),
        }
        .encode();
        assert_eq!(
            parse(json!({"type": "repo", "next": cursor}))
                .unwrap()
                .after,
            4
        );
        let error = parse(json!({"next": cursor})).unwrap_err();
        assert!(error.message.contains("type \"repo\""), "{}", error.message);
        assert!(parse(json!({"next": "garbage"})).is_err());
        assert!(parse(json!({"type": 3})).is_err());
    }

    #[test]
    fn the_body_is_valid_json_with_or_without_an_extra_item() {
        use super::super::rows::RowJson;
        let items = vec![
            RowJson::Whole("{\"id\":\"a\"}".into()),
            RowJson::Spliced {
                head: "{\"id\":\"b\"".into(),
                tail: ",\"type\":\"t\"}".into(),
            },
        ];
        let page = RowPage {
            items,
            last: Some(2),
            more: true,
        };
        let body: Value = serde_json::from_str(&page_body(&page, Some("c"), Some("7"))).unwrap();
        assert_eq!(
            body,
            json!({"response_type": "resources", "resources": [{"id": "a"}, 7, {"id": "b", "type": "t"}], "next": "c"})
        );
        let empty: Value =
            serde_json::from_str(&page_body(&RowPage::default(), None, Some("7"))).unwrap();
        assert_eq!(empty["resources"], json!([7]));
        assert!(
            empty.get("next").is_none(),
            "the last page leaves next out: {empty}"
        );
    }
}
