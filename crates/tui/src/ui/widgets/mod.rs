//! Drawing the widgets of `app/widgets/`: the parts both composers share (the JSON editor with
//! its finding marks and the findings list; the review, the answer of a send) and the table with
//! a `/` filter of the history and types views.

pub(crate) mod filtered_table;
pub(crate) mod json_editor;
pub(crate) mod send;
