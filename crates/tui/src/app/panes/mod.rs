//! One folder per pane: its state (`mod.rs`), its handling of actions (`update.rs`, the
//! `impl Pane`), its keys (`keys.rs`) and where its parts go on screen (`layout.rs`).

pub mod browser;
pub mod composer;
pub mod connect;
pub mod detail;
pub mod history;
pub mod overview;
pub mod report;
pub mod type_detail;
pub mod types;
