//! One folder per pane: its state (`mod.rs`), its handling of actions (`update.rs`, the
//! `impl Pane`), its keys (`keys.rs`) and where its parts go on screen (`layout.rs`).

pub(crate) mod browser;
pub(crate) mod composer;
pub(crate) mod connect;
pub(crate) mod detail;
pub(crate) mod history;
pub(crate) mod overview;
pub(crate) mod report;
pub(crate) mod type_detail;
pub(crate) mod types;
