//! Writing what appdeck read to files and pipes, shared by the CLI (`list -o json|ndjson|csv`)
//! and the TUI's `:export`, so that both write the same bytes for the same rows.

pub mod columns;
pub mod delimited;
pub mod items;
