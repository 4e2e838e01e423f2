//! Drawing the parts both composers share, mirroring `app/widgets/`: the JSON editor with its
//! finding marks and the findings list, and the review, the answer of a send.

pub mod json_editor;
pub mod send;
