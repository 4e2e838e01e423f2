//! The service's HTTP API: models, the client, its errors, and paging.

pub mod client;
pub mod curl;
pub mod error;
pub mod field;
pub mod page;
pub mod paging;
pub mod rate;
pub mod retry;
pub mod trace;
pub mod types;

pub use client::{Answer, Client, ClientSettings, Exchange, Operation, RawAnswer, Reply, Token};
pub use error::ApiError;
pub use field::{Field, FieldIssue};
pub use page::RawPage;
pub use paging::{CursorTrail, Pager};
pub use types::*;
