//! One file per pane, mirroring `app/panes/`.

pub mod browser;
mod browser_title;
pub mod connect;
pub mod detail;
pub mod history;
pub mod overview;
pub mod report;
pub mod type_detail;
pub mod types;
