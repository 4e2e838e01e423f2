//! The baseline of `benches/list_all.sh`: a bare client that follows `resources.list`'s cursors
//! and reads each page's bytes, nothing else (no item parsed, nothing written). `appdeck list
//! --all -o ndjson` is measured against it.
//!
//! Usage: bare_list BASE_URL TOKEN LIMIT   (prints the pages and bytes read to stderr)

use serde::Deserialize;
use serde::de::IgnoredAny;

/// Only `next` is read out of a page; the rest is skipped.
#[derive(Deserialize)]
struct Next {
    next: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    resources: IgnoredAny,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo bench` runs every bench target with `--bench`: nothing to measure then.
    if args.len() != 3 {
        eprintln!("usage: bare_list BASE_URL TOKEN LIMIT");
        return;
    }
    let (url, token, limit) = (
        format!("{}/resources.list", args[0]),
        args[1].clone(),
        args[2].parse::<u32>().expect("LIMIT is a number"),
    );
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let client = reqwest::Client::new();
        let (mut next, mut pages, mut bytes) = (None::<String>, 0u64, 0u64);
        loop {
            let mut body = serde_json::json!({"limit": limit});
            if let Some(cursor) = &next {
                body["next"] = serde_json::Value::String(cursor.clone());
            }
            let page = client
                .post(&url)
                .bearer_auth(&token)
                .json(&body)
                .send()
                .await
                .expect("an answer")
                .bytes()
                .await
                .expect("a body");
            pages += 1;
            bytes += page.len() as u64;
            next = serde_json::from_slice::<Next>(&page)
                .expect("a page")
                .next
                .filter(|n| !n.is_empty());
            if next.is_none() {
                break;
            }
        }
        eprintln!("{pages} pages, {bytes} bytes");
    });
}
