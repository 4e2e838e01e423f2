//! The profile's token, masked in what the service sends back. A server may repeat the token (a
//! `401 bad token <token>`, a message, a URL, a header): [`super::Client`] masks every answer and
//! every error where it enters, before anything shows, prints, stores or logs it, and the `-v`
//! trace masks what goes out with the same [`TokenMask`].

use std::borrow::Cow;

use memchr::memmem;
use reqwest::header::{HeaderMap, HeaderValue};

use super::client::Token;
use super::error::ApiError;

/// What stands for the token (and the trace's other secrets).
pub const MASK: &str = "••••";

/// A token shorter than this is not searched for: it would mask ordinary words. The trace masks
/// the `Authorization` header by name whatever the token.
pub(crate) const MIN_MASKED_TOKEN: usize = 8;

/// The token's texts to hide: as it is, and as a JSON string writes it when that differs (a token
/// holding `"`, `\`, or a control character).
#[derive(Clone, Debug)]
pub struct TokenMask {
    /// Empty when the token is too short to search for.
    needles: Vec<String>,
}

impl TokenMask {
    pub fn new(token: &Token) -> Self {
        let token = token.expose();
        let mut needles = Vec::new();
        if token.chars().count() >= MIN_MASKED_TOKEN {
            needles.push(token.to_owned());
            // `"…"`, never shorter than its two quotes.
            let quoted = serde_json::Value::from(token).to_string();
            let escaped = &quoted[1..quoted.len() - 1];
            if escaped != token {
                needles.push(escaped.to_owned());
            }
        }
        TokenMask { needles }
    }

    /// `text` with the token masked wherever it appears.
    pub fn text<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut text = Cow::Borrowed(text);
        for needle in &self.needles {
            if text.contains(needle.as_str()) {
                text = Cow::Owned(text.replace(needle.as_str(), MASK));
            }
        }
        text
    }

    /// `bytes` with the token masked wherever it appears (a body need not be UTF-8 around it).
    pub fn bytes(&self, bytes: Vec<u8>) -> Vec<u8> {
        let mut bytes = bytes;
        for needle in &self.needles {
            let finder = memmem::Finder::new(needle.as_bytes());
            let mut found = finder.find_iter(&bytes).peekable();
            if found.peek().is_none() {
                continue;
            }
            let mut masked = Vec::with_capacity(bytes.len());
            let mut from = 0;
            for at in found {
                masked.extend_from_slice(&bytes[from..at]);
                masked.extend_from_slice(MASK.as_bytes());
                from = at + needle.len();
            }
            masked.extend_from_slice(&bytes[from..]);
            bytes = masked;
        }
        bytes
    }

    /// `headers` with the token masked in every value.
    pub(crate) fn headers(&self, mut headers: HeaderMap) -> HeaderMap {
        if self.needles.is_empty() {
            return headers;
        }
        for value in headers.values_mut() {
            let masked = self.bytes(value.as_bytes().to_vec());
            if masked != value.as_bytes() {
                // The mask's bytes (UTF-8, each >= 0x80) are allowed in a header value.
                if let Ok(new) = HeaderValue::from_bytes(&masked) {
                    *value = new;
                }
            }
        }
        headers
    }

    /// `error` with the token masked in every text it carries.
    pub(crate) fn error(&self, error: ApiError) -> ApiError {
        if self.needles.is_empty() {
            return error;
        }
        let text = |s: String| match self.text(&s) {
            Cow::Borrowed(_) => s,
            Cow::Owned(masked) => masked,
        };
        match error {
            ApiError::Network(s) => ApiError::Network(text(s)),
            ApiError::Http {
                status,
                reason,
                message,
                mut request,
            } => {
                request.url = text(std::mem::take(&mut request.url));
                request.body_start = text(std::mem::take(&mut request.body_start));
                ApiError::Http {
                    status,
                    reason,
                    message: text(message),
                    request,
                }
            }
            ApiError::Rejected(s) => ApiError::Rejected(text(s)),
            ApiError::Decode { problem, excerpt } => ApiError::Decode {
                problem: text(problem),
                excerpt: text(excerpt),
            },
            ApiError::RepeatedCursor(s) => ApiError::RepeatedCursor(text(s)),
            ApiError::Invalid(s) => ApiError::Invalid(text(s)),
            ApiError::NotSent(s) => ApiError::NotSent(text(s)),
            ApiError::WriteFailed {
                url,
                size,
                limit,
                cause,
            } => ApiError::WriteFailed {
                url: text(url),
                size,
                limit,
                cause: text(cause),
            },
            other @ (ApiError::Timeout(_)
            | ApiError::EmptyPages(_)
            | ApiError::TooLarge(_)
            | ApiError::RequestTooLarge { .. }
            | ApiError::CutOff(_)) => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::error::FailedRequest;

    const TOKEN: &str = "S3cret-Tok/en\"x";

    fn mask() -> TokenMask {
        TokenMask::new(&Token::new(TOKEN))
    }

    #[test]
    fn the_token_is_masked_as_text_as_bytes_and_as_json_writes_it() {
        assert_eq!(
            mask().text("bad token S3cret-Tok/en\"x, again S3cret-Tok/en\"x"),
            "bad token ••••, again ••••"
        );
        // Around it, a byte that is not UTF-8: the body is masked as bytes.
        let mut body = br#"{"error": "bad token S3cret-Tok/en\"x", "t": ""#.to_vec();
        body.extend_from_slice(b"\xff\"}");
        let mut want = "{\"error\": \"bad token ••••\", \"t\": \""
            .as_bytes()
            .to_vec();
        want.extend_from_slice(b"\xff\"}");
        assert_eq!(mask().bytes(body), want);
        assert!(matches!(mask().text("nothing here"), Cow::Borrowed(_)));
        let short = TokenMask::new(&Token::new("tok"));
        assert_eq!(short.text("a tok b"), "a tok b", "too short to search for");
    }

    #[test]
    fn headers_and_every_text_of_an_error_are_masked() {
        let mut headers = HeaderMap::new();
        headers.insert(
            "www-authenticate",
            HeaderValue::from_static("Bearer realm=\"S3cret-Tok/en\\\"x\""),
        );
        headers.insert("x-seen", HeaderValue::from_str(TOKEN).unwrap());
        let headers = mask().headers(headers);
        assert_eq!(headers["x-seen"].as_bytes(), MASK.as_bytes());
        assert_eq!(
            headers["www-authenticate"].as_bytes(),
            "Bearer realm=\"••••\"".as_bytes()
        );
        let error = ApiError::Http {
            status: 401,
            reason: "Unauthorized".to_owned(),
            message: format!("bad token {TOKEN}"),
            request: Box::new(FailedRequest {
                method: "POST".to_owned(),
                url: format!("http://h/api/v1/{TOKEN}"),
                body_start: format!("bad token {TOKEN}"),
            }),
        };
        let masked = mask().error(error);
        let ApiError::Http {
            message, request, ..
        } = &masked
        else {
            panic!("still an HTTP error");
        };
        assert_eq!(message, "bad token ••••");
        assert_eq!(request.url, "http://h/api/v1/••••");
        assert_eq!(request.body_start, "bad token ••••");
        for error in [
            ApiError::Network(TOKEN.to_owned()),
            ApiError::Rejected(TOKEN.to_owned()),
            ApiError::RepeatedCursor(TOKEN.to_owned()),
            ApiError::Invalid(TOKEN.to_owned()),
            ApiError::Decode {
                problem: TOKEN.to_owned(),
                excerpt: TOKEN.to_owned(),
            },
        ] {
            let shown = format!("{:?}", mask().error(error));
            assert!(!shown.contains("S3cret"), "{shown}");
        }
    }
}
