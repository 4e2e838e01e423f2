//! appdeck-core: what appdeck knows of the app-integration service and of what is sent to it,
//! with no terminal in sight. The store, the sandbox, the terminal UI and the CLI build on it.
//!
//! - [`api`]: models, the HTTP client, errors, paging; [`answer_words`]: a send's answer in words;
//! - [`config`]: base URL, token and profiles; [`bounded_read`]: reading the files they name;
//! - [`schema`] and [`validate`]: offline checks of payloads; [`placeholder`]: values that pass them;
//! - [`diff`] and [`infer`]: comparing connect payloads, inferring type definitions;
//! - [`catalog`]: the resource types appdeck knows; [`explain`]: a schema as a tree;
//! - [`jq`]: `:where` and `--jq`; [`sanitize`]: server text made safe for a terminal;
//! - [`json_text`]: JSON text laid out token by token, numbers and strings as they came;
//!   [`report_text`]: a task report read into its typed fields and written back as it came;
//!   [`json_peek`]: JSON text read only as deep as a caller needs;
//! - [`text`]: fitting text to terminal cells; [`out`]: writing resources to files and pipes;
//! - [`order`]: the order listings sort in (numbers by value, digit runs by value);
//! - [`log_file`], [`signals`], [`freed_memory`]: what a long-running process needs.

#![warn(unreachable_pub)]

pub mod answer_words;
pub mod api;
pub mod bounded_read;
pub mod catalog;
pub mod changes;
pub mod config;
pub mod diff;
pub mod explain;
pub mod freed_memory;
pub mod infer;
pub mod job;
pub mod jq;
pub mod json_locate;
pub mod json_peek;
pub mod json_text;
pub mod log_file;
pub mod order;
pub mod out;
pub mod placeholder;
pub mod report_text;
pub mod sanitize;
pub mod schema;
pub mod signals;
pub mod text;
pub mod user_path;
pub mod validate;
