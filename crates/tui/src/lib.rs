//! appdeck's terminal UI, in three parts (The Elm Architecture, one owner of state):
//!
//! - [`app`]: the state and its one mutator, `App::update`: pure, no I/O, never draws;
//! - [`ui`]: rendering, from `&App` alone;
//! - [`runtime`]: the terminal, the event loop, and the commands `update` returns, run off the
//!   UI thread (HTTP, the store, jobs, `$EDITOR`).

#![warn(unreachable_pub)]

pub mod app;
pub mod runtime;
pub mod ui;

// The core's modules and the store under the names this crate's files use (`crate::api`...).
use appdeck_core::{
    answer_words, api, bounded_read, catalog, changes, config, diff, explain, freed_memory, infer,
    job, json_text, log_file, placeholder, sanitize, signals, text, validate,
};
use appdeck_store as store;
