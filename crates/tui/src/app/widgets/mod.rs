//! Reusable state machines that panes and popups are built from: a cursor over a list in a
//! viewport, a one-line text input, a table with a `/` filter, a collapsible JSON tree, and the
//! parts both composers share (the JSON editor, where a JSON pointer sits in its text, the draft timing, the review-send-answer flow, sending to many).

pub(crate) mod cursor;
pub(crate) mod draft;
pub(crate) mod filtered_list;
pub(crate) mod json_editor;
pub(crate) mod json_tree;
pub(crate) mod line_input;
pub(crate) mod send_flow;
pub(crate) mod send_many;

pub(crate) use cursor::{ListCursor, is_movement};
pub(crate) use filtered_list::{FilteredList, ListEvent};
pub(crate) use line_input::{LineEvent, LineInput};
