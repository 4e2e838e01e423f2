//! What masking the token costs a page as it arrives: `TokenMask::bytes` runs over every answer's
//! body before anything reads it, so a body without the token must cost little more than a scan.
//! Three ~5 MB pages without the token: one with no `\` or `%` at all, one with a URL holding
//! `%2F` (the percent-encoded `/` the token holds), `%20`, `\n` and `\"` in every row, and that
//! one written ASCII only (every non-ASCII character `\uXXXX`, as some servers do).
//! Run with `cargo bench --bench mask`.

mod common;
use common::measure;

use appdeck_core::api::{Token, TokenMask};
use serde_json::{Value, json};

/// A token as services hand them out: base64 with a `/`.
const TOKEN: &str = "aB3/xY9kQ2mN7pR4sT6uV8wZ0cD1eF5gH";

const MB: usize = 1024 * 1024;

fn resource(i: usize, escapes: bool) -> Value {
    if !escapes {
        return json!({
            "id": format!("res_{i:07}"),
            "type": "repository",
            "display_name": format!("Resource {i} — ünïcødé"),
            "status": "active",
            "url": format!("https://h.example/r/{i}?q=a+b"),
            "description": "line one, line two",
            "updated_at": "2026-01-01T12:30:00Z",
            "properties": {"stars": i, "tags": ["a", "b"], "owner": {"name": "Zoë", "team": "platform"}},
        });
    }
    json!({
        "id": format!("res_{i:07}"),
        "type": "repository",
        "display_name": format!("Resource {i} — ünïcødé"),
        "status": "active",
        "url": format!("https://h.example/r%2F{i}?q=a%20b"),
        "description": "line one\nline \"two\"",
        "updated_at": "2026-01-01T12:30:00Z",
        "properties": {"stars": i, "tags": ["a", "b"], "owner": {"name": "Zoë", "team": "platform"}},
    })
}

/// A page of resources of about `size` bytes.
fn page(size: usize, escapes: bool) -> Vec<u8> {
    let one = serde_json::to_vec(&resource(0, escapes)).unwrap().len();
    let resources: Vec<Value> = (0..size / one).map(|i| resource(i, escapes)).collect();
    serde_json::to_vec(&json!({"resources": resources, "next": "c"})).unwrap()
}

/// `body` with every non-ASCII character written `\uXXXX`.
fn ascii_only(body: &[u8]) -> Vec<u8> {
    let mut out = String::new();
    for c in std::str::from_utf8(body).unwrap().chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out.into_bytes()
}

fn main() {
    let mask = TokenMask::new(&Token::new(TOKEN));
    let plain = page(5 * MB, false);
    let escaped = page(5 * MB, true);
    let ascii = ascii_only(&escaped);
    for (body, how) in [
        (plain, "no \\ or %"),
        (escaped, "escapes in every row"),
        (ascii, "and ASCII only"),
    ] {
        let size = body.len() as f64 / MB as f64;
        // What masking cost while only the raw token was looked for: one `memmem` pass.
        let raw = memchr::memmem::Finder::new(TOKEN.as_bytes());
        measure(&format!("  the raw token alone, {how}"), 5, 50, || {
            std::hint::black_box(raw.find_iter(&body).next());
        });
        // No token in it: the body comes back as it went, and is masked again.
        let mut body = Some(body);
        measure(&format!("mask a {size:.1} MB page, {how}"), 5, 50, || {
            let masked = mask.bytes(body.take().unwrap());
            body = Some(std::hint::black_box(masked));
        });
    }
}
