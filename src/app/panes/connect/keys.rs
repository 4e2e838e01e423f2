//! The connect composer's keys: choosing where to start, writing (the editor, the outline, the
//! findings, the diff), the review, the send in flight and the answer. Movement and global keys
//! come from `keymap.rs`; while the editor has the keyboard the keymap's editor table applies.

use crossterm::event::KeyCode;

use crate::app::Action;
use crate::app::keymap::{Binding, FORCE_QUIT, GLOBAL, Key, KeyTable, PANE_SHARED, bind};

use Key::{Char, Code, Ctrl};

static PICKING: [Binding; 2] = [
    bind(
        &[Code(KeyCode::Enter)],
        "Enter",
        "start from this version",
        || Action::Open,
        "start",
    ),
    bind(
        &[Code(KeyCode::Esc)],
        "Esc",
        "back",
        || Action::Back,
        "back",
    ),
];

pub static PICKER_KEYS: KeyTable = KeyTable {
    name: "connect: where to start",
    own: &PICKING,
    shared: &PANE_SHARED,
};

static WRITING: [Binding; 12] = [
    bind(
        &[Code(KeyCode::Enter)],
        "Enter",
        "edit the payload; on a type, finding or change: go to it",
        || Action::Open,
        "edit/go",
    ),
    bind(
        &[Char('i')],
        "i",
        "edit the payload",
        || Action::StartEdit,
        "",
    ),
    bind(
        &[Code(KeyCode::Tab)],
        "Tab",
        "next part: payload, outline, findings, diff",
        || Action::NextPane,
        "part",
    ),
    bind(
        &[Code(KeyCode::BackTab)],
        "S-Tab",
        "previous part",
        || Action::PrevPane,
        "",
    ),
    bind(
        &[Char('u')],
        "u",
        "undo in the payload",
        || Action::Undo,
        "",
    ),
    bind(
        &[Ctrl('r')],
        "^r",
        "redo in the payload",
        || Action::Redo,
        "",
    ),
    bind(
        &[Char('s'), Ctrl('s')],
        "s/^s",
        "review the request and the changes, then send",
        || Action::Review,
        "send",
    ),
    bind(
        &[Char('e')],
        "e",
        "edit the payload in $VISUAL / $EDITOR",
        || Action::EditExternally,
        "",
    ),
    bind(
        &[Char('D')],
        "D",
        "discard the restored draft, start again",
        || Action::DiscardDraft,
        "",
    ),
    bind(
        &[Char('n')],
        "n",
        "go to the next finding",
        || Action::NextMatch,
        "",
    ),
    bind(
        &[Char('N')],
        "N",
        "go to the previous finding",
        || Action::PrevMatch,
        "",
    ),
    bind(
        &[Code(KeyCode::Esc)],
        "Esc",
        "back to where the connect was opened",
        || Action::Back,
        "back",
    ),
];

pub static CONNECT_KEYS: KeyTable = KeyTable {
    name: "connect composer",
    own: &WRITING,
    shared: &PANE_SHARED,
};

static REVIEWING: [Binding; 3] = [
    bind(
        &[Code(KeyCode::Enter)],
        "Enter",
        "send the connect (twice when something breaks)",
        || Action::Open,
        "send",
    ),
    bind(
        &[Char('c')],
        "c",
        "copy as curl (token from $APPDECK_TOKEN)",
        || Action::CopyCurl,
        "curl",
    ),
    bind(
        &[Code(KeyCode::Esc)],
        "Esc",
        "back to editing",
        || Action::Back,
        "edit",
    ),
];

pub static REVIEW_KEYS: KeyTable = KeyTable {
    name: "connect review",
    own: &REVIEWING,
    shared: &PANE_SHARED,
};

static IN_FLIGHT: [Binding; 1] = [bind(
    &[Code(KeyCode::Esc)],
    "Esc",
    "cancel the send",
    || Action::Back,
    "cancel",
)];

pub static SENDING_KEYS: KeyTable = KeyTable {
    name: "connect in flight",
    own: &IN_FLIGHT,
    shared: &[&GLOBAL, &FORCE_QUIT],
};

static ANSWER: [Binding; 3] = [
    bind(
        &[Char('o')],
        "o",
        "open platform_app_url",
        || Action::OpenLink,
        "open",
    ),
    bind(
        &[Char('y')],
        "y",
        "copy platform_app_url",
        || Action::Copy,
        "copy",
    ),
    bind(
        &[Code(KeyCode::Esc), Code(KeyCode::Enter)],
        "Esc/Enter",
        "back to the payload",
        || Action::Back,
        "back",
    ),
];

pub static ANSWER_KEYS: KeyTable = KeyTable {
    name: "connect answer",
    own: &ANSWER,
    shared: &[&GLOBAL, &FORCE_QUIT],
};

#[cfg(test)]
mod tests {
    use crate::app::keymap::assert_well_formed;

    #[test]
    fn well_formed() {
        for table in [
            &super::PICKER_KEYS,
            &super::CONNECT_KEYS,
            &super::REVIEW_KEYS,
            &super::SENDING_KEYS,
            &super::ANSWER_KEYS,
        ] {
            assert_well_formed(table);
        }
    }
}
