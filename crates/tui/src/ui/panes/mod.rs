//! One file per pane, mirroring `app/panes/`.

pub(super) mod browser;
mod browser_title;
pub(super) mod connect;
pub(super) mod detail;
pub(super) mod history;
pub(super) mod overview;
pub(super) mod report;
mod report_marked;
pub(super) mod type_detail;
pub(super) mod types;
