//! The terminal UI in this process: whole-screen snapshots (in `snapshots/`, named after the
//! module: `tui__ui_snapshots__...`), the themes, the whole loop against the sandbox, and the
//! token masked on screen.

#[path = "../common/mod.rs"]
mod common;

mod token_mask;
mod tui_loop;
mod ui_snapshots;
mod ui_themes;
