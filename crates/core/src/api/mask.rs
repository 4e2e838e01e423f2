//! The profile's token, masked in what the service sends back. A server may repeat the token (a
//! `401 bad token <token>`, a message, a URL, a header), in any JSON or URL spelling:
//! [`super::Client`] masks every answer and every error where it enters, before anything decodes,
//! shows, prints, stores or logs it, and the `-v` trace masks what goes out with the same
//! [`TokenMask`].

mod spelling;

use std::borrow::Cow;
use std::ops::Range;

use reqwest::header::{HeaderMap, HeaderValue};

use super::client::Token;
use super::error::ApiError;
use spelling::Spellings;

/// What stands for the token (and the trace's other secrets).
pub const MASK: &str = "••••";

/// A token shorter than this (`dev`) is masked only as an `Authorization` header's echo writes
/// it (`Bearer dev`): anywhere else it would change the service's own words (`"env": "dev"`, a
/// type `t`). The trace masks the `Authorization` header by name whatever the token.
pub(crate) const SHORT_TOKEN: usize = 8;

/// The token to hide, in any spelling a server may give it (see [`spelling`]).
#[derive(Clone)]
pub struct TokenMask {
    /// None when there is no token.
    spellings: Option<Spellings>,
    /// A short token: only after `Bearer ` (see [`SHORT_TOKEN`]).
    after_bearer_only: bool,
}

/// Never the token itself.
impl std::fmt::Debug for TokenMask {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenMask(****)")
    }
}

impl TokenMask {
    pub fn new(token: &Token) -> Self {
        let token = token.expose();
        let spellings = (!token.is_empty()).then(|| Spellings::new(token));
        let after_bearer_only = token.chars().count() < SHORT_TOKEN;
        TokenMask {
            spellings,
            after_bearer_only,
        }
    }

    /// `text` with the token masked wherever it appears.
    pub fn text<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let found = self.find(text.as_bytes());
        if found.is_empty() {
            return Cow::Borrowed(text);
        }
        // Each stretch masked starts and ends on a character's boundary: its ends are ASCII or
        // the token's own whole characters.
        match String::from_utf8(masked(text.as_bytes(), &found)) {
            Ok(masked) => Cow::Owned(masked),
            Err(e) => Cow::Owned(String::from_utf8_lossy(e.as_bytes()).into_owned()),
        }
    }

    /// `bytes` with the token masked wherever it appears (a body need not be UTF-8 around it).
    pub fn bytes(&self, bytes: Vec<u8>) -> Vec<u8> {
        let found = self.find(&bytes);
        if found.is_empty() {
            return bytes;
        }
        masked(&bytes, &found)
    }

    /// Whether `text` holds the token where [`TokenMask::text`] would mask it.
    pub fn is_in(&self, text: &str) -> bool {
        !self.find(text.as_bytes()).is_empty()
    }

    fn find(&self, text: &[u8]) -> Vec<Range<usize>> {
        let Some(spellings) = &self.spellings else {
            return Vec::new();
        };
        let mut found = spellings.find(text);
        if self.after_bearer_only {
            found.retain(|r| after_bearer(&text[..r.start]) && !in_word(text.get(r.end)));
        }
        found
    }

    /// `headers` with the token masked in every value.
    pub(crate) fn headers(&self, mut headers: HeaderMap) -> HeaderMap {
        if self.spellings.is_none() {
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
        if self.spellings.is_none() {
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

/// Whether `before` ends with `Bearer` and a space or a tab (any case), as a header's echo does.
fn after_bearer(before: &[u8]) -> bool {
    let word = before.trim_ascii_end();
    word.len() < before.len()
        && word.len() >= 6
        && word[word.len() - 6..].eq_ignore_ascii_case(b"bearer")
}

/// Whether `at` is part of a word: a letter, a digit (or any byte of a non-ASCII one), `_`, `-`.
fn in_word(at: Option<&u8>) -> bool {
    at.is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b >= 0x80)
}

/// `text` with each of the stretches `found` (in order, none overlapping) replaced by the mask.
fn masked(text: &[u8], found: &[Range<usize>]) -> Vec<u8> {
    let mut masked = Vec::with_capacity(text.len());
    let mut from = 0;
    for range in found {
        masked.extend_from_slice(&text[from..range.start]);
        masked.extend_from_slice(MASK.as_bytes());
        from = range.end;
    }
    masked.extend_from_slice(&text[from..]);
    masked
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
        assert_eq!(
            short.text("a tok b"),
            "a tok b",
            "a short token only after Bearer"
        );
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

    /// A token with a `/`, a character that needs two UTF-8 bytes and one beyond the BMP.
    const SPELLED: &str = "S3cret/Tok-é😀x";

    fn spelled() -> TokenMask {
        TokenMask::new(&Token::new(SPELLED))
    }

    /// `spelling` inside a JSON body, masked: the body is still JSON and its string shows the
    /// mask, not the token.
    fn masked_in_json(mask: &TokenMask, spelling: &str) -> String {
        let body = format!(r#"{{"error": "bad token {spelling}, again"}}"#);
        serde_json::from_str::<serde_json::Value>(&body).expect("the spelling is JSON");
        let masked = mask.bytes(body.into_bytes());
        let value: serde_json::Value =
            serde_json::from_slice(&masked).expect("still JSON once masked");
        value["error"].as_str().expect("a string").to_owned()
    }

    #[test]
    fn the_token_is_masked_in_every_json_and_url_spelling() {
        for spelling in [
            r"S3cret\/Tok-é😀x",
            r"\u00533cret/Tok-é😀x",
            r"S3cret\u002FTok-\u00E9😀x",
            r"S3cret\u002fTok-\u00e9😀x",
            r"S3cret/Tok-é\uD83D\uDE00x",
            r"S3cret/Tok-é\ud83d\ude00x",
            "S3cret%2FTok-é😀x",
            "S3cret%2fTok-é😀x",
            "S3cret/Tok-%C3%A9%F0%9F%98%80x",
            "%53%33cret/Tok%2d%c3%a9%f0%9f%98%80%78",
            r"\u0053%33cret\/Tok%2d\u00E9😀x",
            r"\u0053%33cret\/Tok%2d\u00E9%f0%9f%98%80\u0078",
        ] {
            assert_eq!(
                masked_in_json(&spelled(), spelling),
                "bad token ••••, again",
                "{spelling}"
            );
        }
    }

    #[test]
    fn a_near_miss_or_a_short_token_inside_a_word_is_not_masked() {
        for near in [
            r"S3cret\/Tok-é\uD83D\uDE00",
            r"S3cret\/Tok-é\uD83D\uDE00y",
            "S3cret%2FTok-é😀y",
            r"S3cret\/Tok-é\uD83Dx",
        ] {
            let body = format!(r#"{{"e": "{near}"}}"#);
            assert_eq!(spelled().bytes(body.clone().into_bytes()), body.as_bytes());
        }
        // A short token is masked after `Bearer `, as a header's echo writes it, in any spelling
        // (the README's own `--token dev` was shown in clear in a service's `Bearer dev`);
        // nowhere else, where it would change the service's own words.
        let short = TokenMask::new(&Token::new("dev"));
        assert_eq!(
            short.text(r#"{"e": "authorization: Bearer dev", "f": "BEARER  d\u0065v."}"#),
            r#"{"e": "authorization: Bearer ••••", "f": "BEARER  ••••."}"#
        );
        let words = r#"{"env": "dev", "x": "Bearer device", "y": "Bearerdev", "z": "dev-ops"}"#;
        assert_eq!(short.text(words), words);
    }

    #[test]
    fn masking_a_spelling_keeps_the_json_valid_and_decodes_to_no_token() {
        // A `\` the JSON escapes, then the token: the escape stays whole.
        assert_eq!(
            masked_in_json(&spelled(), r"\\\u00533cret/Tok-é😀x"),
            r"bad token \••••, again"
        );
        // `\\u0053…` decodes to `\u0053…`, a spelling of the token: masked with its `\\`.
        assert_eq!(
            masked_in_json(&spelled(), r"\\u00533cret/Tok-é😀x"),
            "bad token ••••, again"
        );
        // A token ending in `\`, or holding `%`: the escaped `\\` and `%25` are masked whole.
        let backslash = TokenMask::new(&Token::new(r"abcdefg\"));
        assert_eq!(
            masked_in_json(&backslash, r"abcdefg\\"),
            "bad token ••••, again"
        );
        assert_eq!(
            masked_in_json(&backslash, r"abcdefg\u005C"),
            "bad token ••••, again"
        );
        // Its raw bytes before a `\"`: the quote's escape is masked whole, not cut.
        assert_eq!(
            masked_in_json(&backslash, r#"abcdefg\"x"#),
            "bad token ••••x, again"
        );
        let percent = TokenMask::new(&Token::new("abc%2Fdefgh"));
        assert_eq!(
            masked_in_json(&percent, "abc%252Fdefgh"),
            "bad token ••••, again"
        );
        assert_eq!(
            masked_in_json(&percent, "abc%2Fdefgh"),
            "bad token ••••, again"
        );
        assert_eq!(
            masked_in_json(&percent, r"abc%2\u0046defgh"),
            "bad token ••••, again"
        );
        // The raw token and a spelling next to each other make one mask.
        assert_eq!(
            masked_in_json(&spelled(), r"S3cret/Tok-é😀xS3cret\/Tok-é😀x"),
            "bad token ••••, again"
        );
    }

    #[test]
    fn decoded_texts_and_errors_are_masked_in_every_spelling() {
        assert_eq!(
            spelled().text(r"see https://h/S3cret%2FTok-%C3%A9%F0%9F%98%80x?t=\u0053"),
            r"see https://h/••••?t=\u0053"
        );
        let error = spelled().error(ApiError::Rejected(
            r"bad token \u00533cret\/Tok-é😀x".to_owned(),
        ));
        assert_eq!(error.to_string().matches("••••").count(), 1, "{error}");
        assert!(
            !format!("{:?}", spelled()).contains("S3cret"),
            "Debug never shows it"
        );
    }
}
