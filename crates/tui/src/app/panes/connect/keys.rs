//! The connect composer's keys: choosing where to start, writing (the editor, the outline, the
//! findings, the diff), the review, the send in flight and the answer. Movement and global keys
//! come from `keymap.rs`; while the editor has the keyboard the keymap's editor table applies.

use crate::app::Toward;
use crossterm::event::KeyCode;

use crate::app::Action;
use crate::app::keymap::{Binding, FORCE_QUIT, GLOBAL, Key, KeyTable, PANE_SHARED, bind};
use crate::app::widgets::send_flow::{self, ANSWERED, SENDING};

use Key::{Char, Code, Ctrl};

static PICKING: [Binding; 2] = [
    bind(
        "open",
        &[Code(KeyCode::Enter)],
        "Enter",
        "start from this version",
        || Action::Open,
        "start",
    ),
    bind(
        "back",
        &[Code(KeyCode::Esc)],
        "Esc",
        "back",
        || Action::Back,
        "back",
    ),
];

pub static PICKER_KEYS: KeyTable = KeyTable {
    id: "connect_picker",
    name: "connect: where to start",
    own: &PICKING,
    shared: &PANE_SHARED,
};

static WRITING: [Binding; 12] = [
    bind(
        "open",
        &[Code(KeyCode::Enter)],
        "Enter",
        "edit the payload; on a type, finding or change: go to it",
        || Action::Open,
        "edit/go",
    ),
    bind(
        "edit",
        &[Char('i')],
        "i",
        "edit the payload",
        || Action::StartEdit,
        "",
    ),
    bind(
        "next_pane",
        &[Code(KeyCode::Tab)],
        "Tab",
        "next part: payload, outline, findings, diff",
        || Action::Pane(Toward::Next),
        "part",
    ),
    bind(
        "prev_pane",
        &[Code(KeyCode::BackTab)],
        "S-Tab",
        "previous part",
        || Action::Pane(Toward::Previous),
        "",
    ),
    bind(
        "undo",
        &[Char('u')],
        "u",
        "undo in the payload",
        || Action::Undo(Toward::Previous),
        "",
    ),
    bind(
        "redo",
        &[Ctrl('r')],
        "^r",
        "redo in the payload",
        || Action::Undo(Toward::Next),
        "",
    ),
    bind(
        "review",
        &[Char('s'), Ctrl('s')],
        "s/^s",
        "review the request and the changes, then send",
        || Action::Review,
        "send",
    ),
    bind(
        "edit_externally",
        &[Char('e')],
        "e",
        "edit the payload in $VISUAL / $EDITOR",
        || Action::EditExternally,
        "",
    ),
    bind(
        "discard_draft",
        &[Char('D')],
        "D",
        "discard the restored draft, start again",
        || Action::DiscardDraft,
        "",
    ),
    bind(
        "next_match",
        &[Char('n')],
        "n",
        "go to the next finding",
        || Action::Match(Toward::Next),
        "",
    ),
    bind(
        "prev_match",
        &[Char('N')],
        "N",
        "go to the previous finding",
        || Action::Match(Toward::Previous),
        "",
    ),
    bind(
        "back",
        &[Code(KeyCode::Esc)],
        "Esc",
        "back to where the connect was opened",
        || Action::Back,
        "back",
    ),
];

pub static CONNECT_KEYS: KeyTable = KeyTable {
    id: "connect",
    name: "connect composer",
    own: &WRITING,
    shared: &PANE_SHARED,
};

static WAITING: [Binding; 1] = [bind(
    "back",
    &[Code(KeyCode::Esc)],
    "Esc",
    "back (the types being inferred are dropped)",
    || Action::Back,
    "back",
)];

/// While a new app's types are inferred there is nothing to edit or move through yet: only
/// `Esc` and the global keys, so that the footer and `?` do not offer keys that do nothing.
pub static WAITING_KEYS: KeyTable = KeyTable {
    id: "connect_waiting",
    name: "connect: waiting for the inferred types",
    own: &WAITING,
    shared: &[&GLOBAL, &FORCE_QUIT],
};

static REVIEWING: [Binding; 3] =
    send_flow::reviewing("send the connect (twice when something breaks)");

pub static REVIEW_KEYS: KeyTable = KeyTable {
    id: "connect_review",
    name: "connect review",
    own: &REVIEWING,
    shared: &PANE_SHARED,
};

pub static SENDING_KEYS: KeyTable = KeyTable {
    id: "connect_sending",
    name: "connect in flight",
    own: &SENDING,
    shared: &[&GLOBAL, &FORCE_QUIT],
};

pub static ANSWER_KEYS: KeyTable = KeyTable {
    id: "connect_answer",
    name: "connect answer",
    own: &ANSWERED,
    shared: &[&GLOBAL, &FORCE_QUIT],
};

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
