//! The service's HTTP API: models, the client, its errors, and paging.

pub mod client;
pub mod curl;
pub mod error;
pub mod field;
pub mod item_facts;
pub mod mask;
pub mod page;
pub mod paging;
pub mod rate;
pub mod retry;
pub mod trace;
pub mod types;

pub use client::{Answer, Client, ClientSettings, Exchange, Operation, RawAnswer, Reply, Token};
pub use error::ApiError;
pub use field::{Field, FieldIssue};
pub use item_facts::{ItemFacts, ItemKind};
pub use mask::TokenMask;
pub use page::{RawPage, ReadPage};
pub use paging::{CursorTrail, Pager};
pub use types::*;

/// `host:port` of the base URL, for the status bar and the history's destination (never the path or credentials).
pub fn host_of(base_url: &str) -> String {
    reqwest::Url::parse(base_url)
        .ok()
        .and_then(|url| {
            let host = url.host_str()?.to_owned();
            Some(match url.port() {
                Some(port) => format!("{host}:{port}"),
                None => host,
            })
        })
        .unwrap_or_else(|| "(invalid base URL)".to_owned())
}
