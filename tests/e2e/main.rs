//! End to end: the release binary in a real terminal (tmux), each test on a tmux server of its
//! own.

#[path = "../common/mod.rs"]
mod common;

mod e2e_export;
mod e2e_list_progress;
mod e2e_settings;
mod e2e_tmux;
