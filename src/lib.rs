//! appdeck: a terminal UI explorer and scriptable CLI for the app-integration service's HTTP API.
//! The binary (`main.rs`) is thin; everything lives here so the tests can drive it.
//!
//! - [`api`]: models, the HTTP client, errors, paging;
//! - [`config`]: base URL, token and profiles; [`bounded_read`]: reading the files they name;
//! - [`schema`] and [`validate`]: offline checks of payloads; [`placeholder`]: values that pass them;
//! - [`diff`] and [`infer`]: comparing connect payloads, inferring type definitions;
//! - [`sandbox`]: the local stand-in for the service;
//! - [`text`]: fitting text to terminal cells, for the CLI's tables and the TUI;
//! - [`out`]: writing resources and records to files and pipes, for `list -o` and `:export`;
//! - [`cli`]: the non-interactive commands;
//! - [`app`] (state and `update`), [`ui`] (rendering) and [`tui`] (the event loop): the terminal UI.

pub mod api;
pub mod app;
pub mod bounded_read;
pub mod catalog;
pub mod cli;
pub mod config;
pub mod diff;
pub mod explain;
pub mod freed_memory;
pub mod infer;
pub mod jq;
pub mod log_file;
pub mod out;
pub mod placeholder;
pub mod sandbox;
pub mod sanitize;
pub mod schema;
pub mod signals;
pub mod store;
pub mod text;
pub mod tui;
pub mod ui;
pub mod validate;
