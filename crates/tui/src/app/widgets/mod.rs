//! Reusable state machines that panes and popups are built from: a cursor over a list in a
//! viewport, a one-line text input, a table with a `/` filter, a collapsible JSON tree, and the
//! parts both composers share (the JSON editor, where a JSON pointer sits in its text, the draft timing, the review-send-answer flow).

pub mod cursor;
pub mod draft;
pub mod filtered_list;
pub mod json_editor;
pub mod json_tree;
pub mod line_input;
pub mod locate;
pub mod send_flow;

pub use cursor::{ListCursor, is_movement};
pub use filtered_list::{FilteredList, ListEvent};
pub use line_input::{LineEvent, LineInput};
