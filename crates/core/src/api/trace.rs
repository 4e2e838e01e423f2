//! `-v` / `--trace`: each request and its answer on stderr, as `curl -v` shows them: method, URL,
//! headers and body going out (`>`), status, time, size, headers and body coming back (`<`), or
//! why no answer came (`*`). Requests are numbered, since concurrent ones interleave.
//!
//! The token never shows: the `Authorization` header reads `Bearer ••••` (and cookies `••••`),
//! credentials in the URL are masked, and the token's text is masked wherever else it appears (a
//! server that echoes the request). Bodies are neutralised for the terminal and cut to
//! [`BODY_CHARS`] at `-v`; `-vv` shows them whole.

use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use reqwest::header::HeaderMap;

use super::client::{Token, redact_url};
use super::error::status_line;
use super::mask::{MASK, TokenMask};
use crate::sanitize;

/// How much of a body `-v` shows.
pub(crate) const BODY_CHARS: usize = 2000;

#[derive(Debug)]
pub(crate) struct Trace {
    /// `-vv`: bodies whole.
    whole_bodies: bool,
    /// The client's mask: answers come masked already; what goes out is masked here.
    mask: TokenMask,
    requests: AtomicU64,
}

impl Trace {
    /// `None` at level 0 (no `-v`).
    pub(crate) fn new(level: u8, token: Token) -> Option<Trace> {
        (level > 0).then(|| Trace {
            whole_bodies: level > 1,
            mask: TokenMask::new(&token),
            requests: AtomicU64::new(0),
        })
    }

    /// Says a request is going out; returns its number.
    pub(crate) fn request(&self, method: &str, url: &str, headers: &HeaderMap, body: &[u8]) -> u64 {
        let id = self.requests.fetch_add(1, Ordering::Relaxed) + 1;
        let mut text = format!(
            "> #{id} {method} {} ({})\n",
            sanitize::line(&redact_url(url)),
            size(body.len())
        );
        write_headers(&mut text, ">", headers);
        self.write_body(&mut text, ">", body);
        self.emit(&text);
        id
    }

    /// Says what came back for request `id`.
    pub(crate) fn answer(
        &self,
        id: u64,
        status: reqwest::StatusCode,
        headers: &HeaderMap,
        body: &[u8],
        elapsed: Duration,
    ) {
        let mut text = format!(
            "< #{id} {} ({}, {})\n",
            status_line(status),
            millis(elapsed),
            size(body.len())
        );
        write_headers(&mut text, "<", headers);
        self.write_body(&mut text, "<", body);
        self.emit(&text);
    }

    /// Says that no (readable) answer came for request `id`, and why.
    pub(crate) fn failure(&self, id: u64, error: &str, elapsed: Duration) {
        self.emit(&format!(
            "* #{id} no answer ({}): {}\n",
            millis(elapsed),
            sanitize::line(error)
        ));
    }

    /// The body as lines after `prefix`, neutralised, cut at `-v`.
    fn write_body(&self, text: &mut String, prefix: &str, body: &[u8]) {
        if body.is_empty() {
            return;
        }
        let whole = String::from_utf8_lossy(body);
        let chars = whole.chars().count();
        let shown: String = if self.whole_bodies || chars <= BODY_CHARS {
            whole.into_owned()
        } else {
            whole.chars().take(BODY_CHARS).collect()
        };
        text.push_str(prefix);
        text.push('\n');
        for line in sanitize::multiline(&shown).lines() {
            let _ = writeln!(text, "{prefix} {line}");
        }
        if !self.whole_bodies && chars > BODY_CHARS {
            let _ = writeln!(
                text,
                "{prefix} … ({BODY_CHARS} of {chars} characters shown; -vv shows all)"
            );
        }
    }

    /// Writes a block to stderr at once.
    fn emit(&self, text: &str) {
        let _ = std::io::stderr()
            .lock()
            .write_all(self.scrub(text).as_bytes());
    }

    /// `text` with the token masked wherever it appears.
    fn scrub<'a>(&self, text: &'a str) -> std::borrow::Cow<'a, str> {
        self.mask.text(text)
    }
}

/// Each header on its own line, secrets masked by name, values neutralised.
fn write_headers(text: &mut String, prefix: &str, headers: &HeaderMap) {
    for (name, value) in headers {
        let shown = match name.as_str() {
            "authorization" | "proxy-authorization" => {
                let scheme = value
                    .to_str()
                    .ok()
                    .and_then(|v| v.split_once(' '))
                    .map(|(scheme, _)| scheme);
                match scheme {
                    Some(scheme) => format!("{} {MASK}", sanitize::line(scheme)),
                    None => MASK.to_owned(),
                }
            }
            "cookie" | "set-cookie" => MASK.to_owned(),
            _ => sanitize::line(&String::from_utf8_lossy(value.as_bytes())).into_owned(),
        };
        let _ = writeln!(text, "{prefix} {}: {shown}", name.as_str());
    }
}

fn millis(elapsed: Duration) -> String {
    format!("{:.1} ms", elapsed.as_secs_f64() * 1000.0)
}

fn size(bytes: usize) -> String {
    match bytes {
        1 => "1 byte".to_owned(),
        n => format!("{n} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::{AUTHORIZATION, COOKIE, HeaderValue};

    fn trace(level: u8) -> Trace {
        Trace::new(level, Token::new("s3cret-token-value")).unwrap()
    }

    #[test]
    fn secrets_are_masked_by_name_and_values_neutralised() {
        let mut headers = HeaderMap::new();
        headers.insert(
            AUTHORIZATION,
            HeaderValue::from_static("Bearer s3cret-token-value"),
        );
        headers.insert(COOKIE, HeaderValue::from_static("session=abc"));
        // A tab and a C1 control (CSI, as UTF-8): what a header value may carry.
        headers.insert("x-note", HeaderValue::from_bytes(b"a\t\xc2\x9bb").unwrap());
        let mut text = String::new();
        write_headers(&mut text, ">", &headers);
        assert_eq!(
            text,
            "> authorization: Bearer ••••\n> cookie: ••••\n> x-note: a␉\u{fffd}b\n"
        );
    }

    #[test]
    fn a_body_is_cut_at_v_and_whole_at_vv_and_never_drives_the_terminal() {
        let body = format!("{{\"a\": \"\u{1b}[2J\"}}\n{}", "x".repeat(3000));
        let mut cut = String::new();
        trace(1).write_body(&mut cut, "<", body.as_bytes());
        assert!(cut.starts_with("<\n< {\"a\": \"␛[2J\"}\n< xxx"), "{cut}");
        assert!(!cut.contains('\u{1b}'));
        assert!(
            cut.ends_with(&format!(
                "< … (2000 of {} characters shown; -vv shows all)\n",
                body.chars().count()
            )),
            "{cut}"
        );
        let mut whole = String::new();
        trace(2).write_body(&mut whole, "<", body.as_bytes());
        assert_eq!(whole.matches('x').count(), 3000);
        assert!(Trace::new(0, Token::new("t")).is_none());
    }

    #[test]
    fn the_token_is_masked_wherever_a_server_echoes_it() {
        assert_eq!(
            trace(1).scrub("< {\"seen\": \"Bearer s3cret-token-value\"}"),
            "< {\"seen\": \"Bearer ••••\"}"
        );
        let short = Trace::new(1, Token::new("t")).unwrap();
        assert_eq!(
            short.scrub("the text"),
            "the text",
            "too short to search for"
        );
    }
}
