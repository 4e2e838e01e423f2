//! The connect composer's keys: choosing where to start, writing (the composer's keys of
//! `panes/composer/keys.rs` worded for a payload, with `Tab` between the editor, the outline,
//! the findings and the diff), the review, the send in flight and the answer. Movement and
//! global keys come from `keymap.rs`; while the editor has the keyboard the keymap's editor
//! table applies.

use crate::app::Toward;
use crossterm::event::KeyCode;

use crate::app::Action;
use crate::app::keymap::{ANYWHERE, Binding, GLOBAL, Key, KeyTable, bind};
use crate::app::panes::composer::keys::{WritingHelp, back, phase_tables, table, writing};

use Key::Code;

static PICKING: [Binding; 2] = [
    bind(
        "open",
        &[Code(KeyCode::Enter)],
        "start from this version",
        || Action::Open,
        "start",
    ),
    back("back", "back"),
];

pub(crate) static PICKER_KEYS: KeyTable =
    table("connect_picker", "connect: where to start", &PICKING);

const HELP: WritingHelp = WritingHelp {
    open: "edit the payload; on a type, finding or change: go to it",
    open_footer: "edit/go",
    edit: "edit the payload",
    undo: "undo in the payload",
    redo: "redo in the payload",
    review: "review the request and the changes, then send",
    edit_externally: "edit the payload in $VISUAL / $EDITOR",
    discard_draft: "discard the restored draft, start again",
    back: "back to where the connect was opened",
};

static WRITING: [Binding; 12] = {
    let w = writing(HELP);
    let part = bind(
        "next_pane",
        &[Code(KeyCode::Tab)],
        "next part: payload, outline, findings, diff",
        || Action::Pane(Toward::Next),
        "part",
    );
    let prev_part = bind(
        "prev_pane",
        &[Code(KeyCode::BackTab)],
        "previous part",
        || Action::Pane(Toward::Previous),
        "",
    );
    [
        w.open, w.edit, part, prev_part, w.undo, w.redo, w.review, w.ext, w.discard, w.next,
        w.prev, w.back,
    ]
};

pub(crate) static CONNECT_KEYS: KeyTable = table("connect", "connect composer", &WRITING);

static WAITING: [Binding; 1] = [back("back (the types being inferred are dropped)", "back")];

/// While a new app's types are inferred there is nothing to edit or move through yet: only
/// `Esc` and the global keys, so that the footer and `?` do not offer keys that do nothing.
pub(crate) static WAITING_KEYS: KeyTable = KeyTable {
    id: "connect_waiting",
    name: "connect: waiting for the inferred types",
    own: &WAITING,
    shared: &[&GLOBAL, &ANYWHERE],
};

phase_tables!(
    "connect",
    "connect",
    "send the connect (twice when something breaks)",
    CONNECT_KEYS
);

#[cfg(test)]
mod tests {
    use crate::app::keymap::assert_well_formed;

    #[test]
    fn well_formed() {
        for table in [
            &super::PICKER_KEYS,
            &super::WAITING_KEYS,
            &super::CONNECT_KEYS,
            &super::REVIEW_KEYS,
            &super::SENDING_KEYS,
            &super::ANSWER_KEYS,
        ] {
            assert_well_formed(table);
        }
    }
}
