//! What `appdeck api` sends: the body (BODY, `@FILE`, `-` or `--input`, with `-f`/`-F` fields
//! added, as `gh api` builds one) and the extra headers of `-H`.

use std::path::Path;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde_json::Value;

use crate::cli::Failure;
use crate::cli::args::ApiArgs;
use crate::cli::validate::describe;
use crate::json_text;

/// The body to send: its text, and its name for messages.
pub struct Body {
    pub name: String,
    pub text: String,
}

impl Body {
    /// The body `args` give: `{}` when none is, the text of `@FILE`, `--input` or stdin (`-`), or
    /// the argument itself; then the fields set, each spliced into the text (a key there has its
    /// value replaced where it stands, a new one goes last), so every other byte is sent as
    /// written. Not JSON, or fields on a body that is no object: a usage error.
    pub fn from_args(args: &ApiArgs) -> Result<Body, Failure> {
        let file = match (&args.input, args.body.as_deref()) {
            (Some(path), _) => Some(path.as_path()),
            (None, Some("-")) => Some(Path::new("-")),
            (None, Some(text)) => text.strip_prefix('@').map(Path::new),
            (None, None) => None,
        };
        let body = match (file, args.body.as_deref()) {
            (Some(file), _) => {
                let input = crate::cli::input::read(file)?;
                Body {
                    name: input.name,
                    text: input.text,
                }
            }
            (None, Some(text)) => Body {
                name: "the body".to_owned(),
                text: text.to_owned(),
            },
            (None, None) => Body {
                name: "the body".to_owned(),
                text: "{}".to_owned(),
            },
        };
        let value = crate::validate::parse_json(&body.text)
            .map_err(|e| Failure::Invalid(describe(&e, &body.name, "--types")))?;
        if args.raw_fields.is_empty() && args.fields.is_empty() {
            // Sent as written.
            return Ok(body);
        }
        if !value.is_object() {
            return Err(Failure::Usage(format!(
                "-f and -F add fields to an object, and {} is not one",
                body.name
            )));
        }
        let mut text = body.text;
        for field in &args.raw_fields {
            let (key, value) = split_field("-f", field)?;
            text = json_text::set_member(&text, key, &json_text::string(value)).unwrap_or(text);
        }
        for field in &args.fields {
            let (key, value) = split_field("-F", field)?;
            text = json_text::set_member(&text, key, &typed(value)?).unwrap_or(text);
        }
        Ok(Body {
            name: body.name,
            text,
        })
    }
}

/// `KEY=VALUE`, split at the first `=`; the key must not be empty.
fn split_field<'a>(flag: &str, field: &'a str) -> Result<(&'a str, &'a str), Failure> {
    match field.split_once('=') {
        Some((key, value)) if !key.is_empty() => Ok((key, value)),
        _ => Err(Failure::Usage(format!(
            "{flag} {field:?}: expected KEY=VALUE, such as limit=100"
        ))),
    }
}

/// A `-F` value as gh reads it, as JSON text: `true`, `false`, `null` and a JSON number as they
/// are (the number's text as typed), `@FILE` as the file's text in a string, anything else a
/// string.
fn typed(value: &str) -> Result<String, Failure> {
    if matches!(value, "true" | "false" | "null") {
        return Ok(value.to_owned());
    }
    if let Some(path) = value.strip_prefix('@') {
        return Ok(json_text::string(
            &crate::cli::input::read(Path::new(path))?.text,
        ));
    }
    let number = value.starts_with(['-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    if number && let Ok(Value::Number(_)) = serde_json::from_str::<Value>(value) {
        return Ok(value.to_owned());
    }
    Ok(json_text::string(value))
}

/// The headers of `-H 'NAME: VALUE'`. `Authorization` is refused: the token is the only one (a
/// second gets every request refused), and `Host` and `Content-Length` are the client's.
pub fn headers(given: &[String]) -> Result<HeaderMap, Failure> {
    let mut headers = HeaderMap::new();
    for header in given {
        let bad = |why: &str| Failure::Usage(format!("-H {header:?}: {why}"));
        let (name, value) = header
            .split_once(':')
            .ok_or_else(|| bad("expected 'NAME: VALUE', such as 'X-Request-Id: 42'"))?;
        let name =
            HeaderName::from_bytes(name.trim().as_bytes()).map_err(|_| bad("not a header name"))?;
        let why = match name.as_str() {
            "authorization" => "appdeck sets this header itself: the token is the only one",
            "host" => "appdeck sets this header itself, from the base URL",
            "content-length" => "appdeck sets this header itself, from the body",
            _ => "",
        };
        if !why.is_empty() {
            return Err(bad(why));
        }
        let value = HeaderValue::from_str(value.trim()).map_err(|_| bad("not a header value"))?;
        headers.append(name, value);
    }
    Ok(headers)
}

/// The body again, asking for the page after `cursor` (`--paginate`).
pub fn with_next(body: &str, cursor: &str) -> Option<String> {
    json_text::set_member(body, "next", &json_text::string(cursor))
}

/// The answer's `next` cursor, when it is a string that is not empty.
pub fn next_cursor(answer: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Next {
        next: Option<Value>,
    }
    match serde_json::from_slice::<Next>(answer).ok()?.next? {
        Value::String(cursor) if !cursor.is_empty() => Some(cursor),
        _ => None,
    }
}

/// How many items a page of `--paginate` brought, for the empty-pages rule: `resources`'
/// elements, or, for an operation appdeck does not know, those of its top-level arrays (a
/// page with none brought nothing).
pub fn items_received(answer: &[u8]) -> usize {
    let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(answer) else {
        return 0;
    };
    if let Some(Value::Array(items)) = map.get("resources") {
        return items.len();
    }
    map.values().filter_map(Value::as_array).map(Vec::len).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_fields_read_as_gh_reads_them() {
        assert_eq!(typed("true").unwrap(), "true");
        assert_eq!(typed("null").unwrap(), "null");
        assert_eq!(typed("1.50").unwrap(), "1.50");
        assert_eq!(typed("1E400").unwrap(), "1E400");
        assert_eq!(
            typed("123456789012345678901234567890").unwrap(),
            "123456789012345678901234567890"
        );
        assert_eq!(typed("12abc").unwrap(), r#""12abc""#);
        assert_eq!(typed("01").unwrap(), r#""01""#);
        assert_eq!(typed("repository").unwrap(), r#""repository""#);
        assert_eq!(typed("a\u{202e}").unwrap(), r#""a\u202e""#);
    }

    #[test]
    fn headers_are_name_colon_value_and_never_authorization() {
        let map = headers(&[
            "X-Request-Id: 42".to_owned(),
            "accept:text/plain".to_owned(),
        ])
        .unwrap();
        assert_eq!(map["x-request-id"], "42");
        assert_eq!(map["accept"], "text/plain");
        for bad in [
            "Authorization: Bearer x",
            "no colon",
            "bad name: x",
            "X: a\nb",
        ] {
            assert!(headers(&[bad.to_owned()]).is_err(), "{bad}");
        }
        // Each refusal says why that header is appdeck's (Host was told of the token).
        for (given, why) in [
            ("Host: x", "from the base URL"),
            ("Content-Length: 5", "from the body"),
            ("authorization: x", "the token is the only one"),
        ] {
            let Err(Failure::Usage(said)) = headers(&[given.to_owned()]) else {
                panic!("{given} refused");
            };
            assert!(said.ends_with(why), "{said}");
        }
    }

    #[test]
    fn the_next_page_is_asked_with_the_answers_cursor() {
        assert_eq!(
            next_cursor(br#"{"resources":[],"next":"c2"}"#).as_deref(),
            Some("c2")
        );
        assert_eq!(next_cursor(br#"{"next":""}"#), None);
        assert_eq!(next_cursor(br#"{"next":null}"#), None);
        assert_eq!(next_cursor(b"not json"), None);
        assert_eq!(
            with_next(r#"{"limit":2,"next":"c1"}"#, "c2").as_deref(),
            Some(r#"{"limit":2,"next":"c2"}"#)
        );
        assert_eq!(with_next("[1]", "c2"), None);
    }
}
