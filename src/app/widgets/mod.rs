//! Reusable state machines that panes and popups are built from: a cursor over a list in a
//! viewport, a one-line text input, a collapsible JSON tree.

pub mod cursor;
pub mod json_tree;
pub mod line_input;

pub use cursor::{ListCursor, is_movement};
pub use line_input::{LineEvent, LineInput};
