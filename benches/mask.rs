//! What masking the token costs a page as it arrives: `TokenMask::bytes` runs over every answer's
//! body before anything reads it, so a body without the token must cost little more than a scan.
//! Two ~5 MB pages without the token: as serde_json writes one (escapes only `\"` and `\n`), and
//! as a server writing ASCII only does (every non-ASCII character `\uXXXX`), with URLs holding
//! `%2F`, the percent-encoded `/` the token holds.
//! Run with `cargo bench --bench mask`.

mod common;
use common::measure;

use appdeck_core::api::{Token, TokenMask};
use serde_json::{Value, json};

/// A token as services hand them out: base64 with a `/`.
const TOKEN: &str = "aB3/xY9kQ2mN7pR4sT6uV8wZ0cD1eF5gH";

const MB: usize = 1024 * 1024;

fn resource(i: usize) -> Value {
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
fn page(size: usize) -> Vec<u8> {
    let one = serde_json::to_vec(&resource(0)).unwrap().len();
    let count = size / one;
    serde_json::to_vec(
        &json!({"resources": (0..count).map(resource).collect::<Vec<_>>(), "next": "c"}),
    )
    .unwrap()
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
    let plain = page(5 * MB);
    let escaped = ascii_only(&plain);
    for (body, how) in [(plain, "as serde_json writes it"), (escaped, "ASCII only")] {
        let size = body.len() as f64 / MB as f64;
        // No token in it: the body comes back as it went, and is masked again.
        let mut body = Some(body);
        measure(&format!("mask a {size:.1} MB page, {how}"), 5, 50, || {
            let masked = mask.bytes(body.take().unwrap());
            body = Some(std::hint::black_box(masked));
        });
    }
}
