//! The `appdeck` binary's commands, run as the real binary over loopback against the sandbox
//! (and small faulty servers), the local store across processes, and the example payloads.
//!
//! One test binary of many modules rather than a binary per file: each test binary compiles
//! its share of every dependency's generic code and links them all again. With 31 of them, a
//! one-line change in a pane rebuilt (`cargo test --release --no-run`, 2 busy cores) in 363 s of
//! CPU, half of it in the test binaries; with the 7 of today, 292 s.

#[path = "../common/mod.rs"]
mod common;

mod cli;
mod cli_bulk;
mod cli_cells;
mod cli_connect_guard;
mod cli_diff;
mod cli_edges;
mod cli_history;
mod cli_keys;
mod cli_messages;
mod cli_papercuts;
mod cli_read_only;
mod cli_round4;
mod cli_scripts;
mod cli_types;
mod cli_wire;
mod exact;
mod jq_worker;
mod store;
mod validate;
