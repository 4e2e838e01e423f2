//! Checks shared by reports and connect payloads: JSON pointers, required strings, fields of the
//! wrong type (from the lenient models), links, and timestamps.

use chrono::{DateTime, NaiveDateTime};
use serde_json::{Map, Value};

use super::Finding;
use crate::api::field::{FieldIssue, json_type_name};
use crate::api::types::Link;
use crate::sanitize;

/// The pointer of `key` inside the value at `pointer`, escaped as RFC 6901 requires.
pub(super) fn child(pointer: &str, key: &str) -> String {
    crate::json_text::child_pointer(pointer, key)
}

/// The pointer of item `index` inside the array at `pointer`.
pub(super) fn item(pointer: &str, index: usize) -> String {
    format!("{pointer}/{index}")
}

/// A payload string for a message: quoted, and cut short so that a huge value cannot flood the
/// output. (Findings are sanitised as a whole when they are made.)
pub(super) fn quote(text: &str) -> String {
    const MAX: usize = 60;
    let mut out: String = text.chars().take(MAX).collect();
    if text.chars().count() > MAX {
        out.push('…');
    }
    format!("\"{}\"", sanitize::line(&out))
}

/// A present, non-null value of `map`; `null` counts as absent, as it does when appdeck reads.
pub(super) fn present<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    map.get(key).filter(|v| !v.is_null())
}

/// A field that must be a non-blank string. Returns it when it is one.
pub(super) fn required_string<'a>(
    map: &'a Map<String, Value>,
    key: &str,
    pointer: &str,
    out: &mut Vec<Finding>,
) -> Option<&'a str> {
    let at = child(pointer, key);
    match map.get(key) {
        None => out.push(Finding::error(&at, format!("`{key}` is required"))),
        Some(Value::String(s)) if s.trim().is_empty() => {
            out.push(Finding::error(&at, format!("`{key}` must not be empty")))
        }
        Some(Value::String(s)) => return Some(s),
        Some(other) => out.push(Finding::error(&at, wrong_type("a string", other))),
    }
    None
}

/// Warns about each top-level field the spec does not name for this payload: most likely a
/// typo (`taskid`), which the service would ignore while the field meant is missing.
pub(super) fn unknown_fields(map: &Map<String, Value>, known: &[&str], out: &mut Vec<Finding>) {
    for key in map.keys().filter(|key| !known.contains(&key.as_str())) {
        out.push(Finding::warning(
            &child("", key),
            format!(
                "unknown field `{key}`: the spec names {} (a typo?)",
                known
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
}

/// A field that may be absent (or null) but otherwise must be a string.
pub(super) fn optional_string<'a>(
    map: &'a Map<String, Value>,
    key: &str,
    pointer: &str,
    out: &mut Vec<Finding>,
) -> Option<&'a str> {
    match present(map, key)? {
        Value::String(s) => Some(s),
        other => {
            out.push(Finding::error(
                &child(pointer, key),
                wrong_type("a string", other),
            ));
            None
        }
    }
}

pub(super) fn wrong_type(expected: &str, found: &Value) -> String {
    format!("expected {expected}, found {}", json_type_name(found))
}

/// Turns the wrong-typed fields the lenient model found into errors, except those under `skip`:
/// fields this module checks itself, with messages that say more (links, actions, resources).
pub(super) fn field_issues(
    issues: Vec<FieldIssue>,
    prefix: &str,
    skip: &[&str],
    out: &mut Vec<Finding>,
) {
    let skipped = |pointer: &str| {
        skip.iter().any(|s| {
            pointer == *s
                || pointer
                    .strip_prefix(s)
                    .is_some_and(|rest| rest.starts_with('/'))
        })
    };
    for issue in issues.into_iter().filter(|i| !skipped(&i.pointer)) {
        out.push(Finding::error(
            &format!("{prefix}{}", issue.pointer),
            format!("expected {}, found {}", issue.expected, issue.found),
        ));
    }
}

/// The `links` field of a resource or a type: an object whose `links` is an array of link
/// objects. A link that cannot be opened (not http or https) is a warning: the service accepts it,
/// but nobody will be able to follow it.
pub(super) fn check_links(value: Option<&Value>, pointer: &str, out: &mut Vec<Finding>) {
    let Some(value) = value.filter(|v| !v.is_null()) else {
        return;
    };
    let Value::Object(wrapper) = value else {
        out.push(Finding::error(
            pointer,
            format!(
                "expected an object holding a `links` array, found {}",
                json_type_name(value)
            ),
        ));
        return;
    };
    let list_pointer = child(pointer, "links");
    let Some(list) = present(wrapper, "links") else {
        return;
    };
    let Value::Array(items) = list else {
        out.push(Finding::error(
            &list_pointer,
            wrong_type("an array of links", list),
        ));
        return;
    };
    for (i, raw) in items.iter().enumerate() {
        let at = item(&list_pointer, i);
        let Value::Object(map) = raw else {
            out.push(Finding::error(&at, wrong_type("a link object", raw)));
            continue;
        };
        field_issues(Link::from_map(map.clone()).field_issues(), &at, &[], out);
        match present(map, "url") {
            None => out.push(Finding::warning(
                &at,
                "the link has no `url`, so it leads nowhere",
            )),
            Some(Value::String(url)) if !is_web_url(url) => out.push(Finding::warning(
                &child(&at, "url"),
                format!(
                    "{} is not an http or https URL with a host; appdeck opens only those",
                    quote(url)
                ),
            )),
            Some(_) => {}
        }
    }
}

/// Whether `url` is an absolute http or https URL with a host.
fn is_web_url(url: &str) -> bool {
    reqwest::Url::parse(url).is_ok_and(|u| {
        matches!(u.scheme(), "http" | "https") && u.host_str().is_some_and(|h| !h.is_empty())
    })
}

/// The resource fields the spec gives as date-times.
pub(super) const TIMESTAMPS: &[&str] = &["created_at", "updated_at", "deleted_at", "synced_at"];

/// Whether `value` is an RFC 3339 date-time: the ISO 8601 profile the spec's examples use, with a
/// `T` between date and time (chrono would also take a space) and `Z` or an offset such as
/// `+02:00`. The sandbox refuses any other form with this same rule.
pub fn is_rfc3339(value: &str) -> bool {
    matches!(value.as_bytes().get(10), Some(b'T' | b't'))
        && DateTime::parse_from_rfc3339(value).is_ok_and(|t| !misplaced_leap_second(&t))
}

/// RFC 3339 (5.6, 5.7) allows second 60 only as a leap second, the last second of a UTC day
/// (`23:59:60Z`, `15:59:60-08:00`); chrono reads one at any minute (`12:00:60Z`).
fn misplaced_leap_second(t: &DateTime<chrono::FixedOffset>) -> bool {
    use chrono::Timelike as _;
    let utc = t.naive_utc();
    utc.nanosecond() >= 1_000_000_000 && (utc.hour(), utc.minute()) != (23, 59)
}

/// A date-time should be RFC 3339. One that is not, including the other ISO 8601 forms (`+0200`,
/// the basic `20240501T120000Z`) and one with no offset (a different instant in every time
/// zone), is a warning: the spec says "ISO 8601" without saying how strictly the service reads
/// it, and the sandbox refuses them.
pub(super) fn check_timestamp(value: &str, pointer: &str, out: &mut Vec<Finding>) {
    const EXAMPLE: &str = "such as \"2024-05-01T12:00:00Z\"";
    if is_rfc3339(value) {
        return;
    }
    let naive = ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f"]
        .iter()
        .any(|f| NaiveDateTime::parse_from_str(value, f).is_ok());
    // Exactly as written, as the sandbox quotes it: a stray space or zero-width character is
    // what is wrong with it.
    let shown = sanitize::quoted_exactly(value, 60);
    let message = if naive {
        format!(
            "{shown} has no UTC offset, so its instant depends on the reader's time zone; add `Z` or an offset, {EXAMPLE}"
        )
    } else {
        format!(
            "{shown} is not an RFC 3339 date-time (the ISO 8601 form of the spec's examples) {EXAMPLE}"
        )
    };
    out.push(Finding::warning(pointer, message));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::Severity;
    use serde_json::json;

    #[test]
    fn a_quoted_value_is_cut_after_60_characters_only() {
        let sixty = "é".repeat(60);
        assert_eq!(
            quote(&sixty),
            format!("\"{sixty}\""),
            "60 characters are kept whole"
        );
        let cut = quote(&"é".repeat(61));
        assert_eq!(cut, format!("\"{sixty}…\""), "the 61st is cut");
    }

    fn links(value: Value) -> Vec<Finding> {
        let mut out = Vec::new();
        check_links(Some(&value), "/links", &mut out);
        out
    }

    #[test]
    fn pointers_escape_slash_and_tilde() {
        assert_eq!(child("/p", "a/b~c"), "/p/a~1b~0c");
        assert_eq!(item("/p", 3), "/p/3");
    }

    #[test]
    fn quoting_cuts_long_values() {
        let long = "x".repeat(100);
        let q = quote(&long);
        assert_eq!(q.chars().count(), 63);
        assert!(q.ends_with("…\""));
    }

    #[test]
    fn required_strings() {
        let map = json!({"a": "", "b": 1, "c": "ok", "d": null});
        let map = map.as_object().unwrap();
        let mut out = Vec::new();
        assert_eq!(required_string(map, "c", "", &mut out), Some("ok"));
        assert!(out.is_empty());
        for key in ["a", "b", "d", "missing"] {
            assert_eq!(required_string(map, key, "", &mut out), None);
        }
        let messages: Vec<_> = out.iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            [
                "error at /a: `a` must not be empty",
                "error at /b: expected a string, found a number",
                "error at /d: expected a string, found null",
                "error at /missing: `missing` is required",
            ]
        );
    }

    #[test]
    fn well_formed_links_pass() {
        assert!(links(json!({"links": [{"title": "Docs", "url": "https://x.example/a", "type": "documentation"}]})).is_empty());
        assert!(links(json!({"links": []})).is_empty());
        assert!(links(json!({})).is_empty());
    }

    #[test]
    fn links_that_are_not_objects_are_errors() {
        let out = links(json!({"links": ["https://x", {"url": "http://y.example"}, 3]}));
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].pointer, "/links/links/0");
        assert_eq!(out[0].message, "expected a link object, found a string");
        assert_eq!(out[1].pointer, "/links/links/2");
        assert!(out.iter().all(|f| f.severity == Severity::Error));
        assert_eq!(links(json!([]))[0].pointer, "/links");
        assert_eq!(links(json!({"links": {}}))[0].pointer, "/links/links");
    }

    #[test]
    fn non_web_urls_are_warnings() {
        let out = links(json!({"links": [
            {"url": "javascript:alert(1)"}, {"url": "ftp://x.example"}, {"url": "https://"}, {"title": "t"}
        ]}));
        let pointers: Vec<_> = out.iter().map(|f| f.pointer.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/links/links/0/url",
                "/links/links/1/url",
                "/links/links/2/url",
                "/links/links/3"
            ]
        );
        assert!(out.iter().all(|f| f.severity == Severity::Warning));
        assert!(out[0].message.contains("\"javascript:alert(1)\""));
    }

    #[test]
    fn wrong_typed_link_fields_are_errors() {
        let out = links(json!({"links": [{"url": 7, "title": ["x"]}]}));
        let shown: Vec<_> = out.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "error at /links/links/0/title: expected a string, found an array",
                "error at /links/links/0/url: expected a string, found a number",
            ]
        );
    }

    #[test]
    fn timestamps() {
        let mut out = Vec::new();
        for ok in ["2024-05-01T12:00:00Z", "2024-05-01T12:00:00.123+02:00"] {
            check_timestamp(ok, "/t", &mut out);
            assert!(out.is_empty(), "{ok}: {out:?}");
        }
        check_timestamp("2024-05-01T12:00:00", "/t", &mut out);
        assert!(out[0].message.contains("no UTC offset"));
        for not_rfc_3339 in [
            "yesterday",
            "2024-02-30T00:00:00Z",
            "",
            "2024-05-01 12:00:00Z",
            "2024-05-01T12:00:00+0200",
            "20240501T120000Z",
        ] {
            check_timestamp(not_rfc_3339, "/t", &mut out);
        }
        assert_eq!(out.len(), 7);
        assert!(
            out[1..]
                .iter()
                .all(|f| f.message.contains("not an RFC 3339 date-time"))
        );
        assert!(out.iter().all(|f| f.severity == Severity::Warning));
        // Quoted as written, never trimmed: the stray character is what is wrong.
        out.clear();
        check_timestamp(" 2024-05-01T12:00:00Z", "/t", &mut out);
        check_timestamp("\u{200b}2024-05-01T12:00:00Z\t", "/t", &mut out);
        assert!(
            out[0]
                .message
                .starts_with(r#"" 2024-05-01T12:00:00Z" is not"#),
            "{}",
            out[0].message
        );
        assert!(
            out[1]
                .message
                .starts_with(r#""\u200b2024-05-01T12:00:00Z\t" is not"#),
            "{}",
            out[1].message
        );
    }

    #[test]
    fn skipped_issues_match_whole_segments() {
        let issue = |p: &str| FieldIssue {
            pointer: p.into(),
            expected: "a string",
            found: "a number",
        };
        let mut out = Vec::new();
        field_issues(
            vec![
                issue("/links"),
                issue("/links/links/0/url"),
                issue("/links_extra"),
            ],
            "/r",
            &["/links"],
            &mut out,
        );
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].pointer, "/r/links_extra");
    }
}
