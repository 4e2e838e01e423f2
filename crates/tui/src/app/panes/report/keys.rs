//! The composer's keys: one table while writing, one for the review, one while the report is in
//! flight and one for the answer. Movement and global keys come from `keymap.rs`; while a field
//! is being edited the keymap's line or editor input table applies instead.

use crate::app::Toward;
use crossterm::event::KeyCode;

use crate::app::Action;
use crate::app::keymap::{Binding, FORCE_QUIT, GLOBAL, Key, KeyTable, PANE_SHARED, bind};
use crate::app::widgets::send_flow::{self, ANSWERED, SENDING};

use Key::{Char, Code, Ctrl};

static WRITING: [Binding; 12] = [
    bind(
        "open",
        &[Code(KeyCode::Enter)],
        "Enter",
        "edit the field (on a finding: go to it)",
        || Action::Open,
        "edit",
    ),
    bind(
        "edit",
        &[Char('i')],
        "i",
        "edit the field",
        || Action::StartEdit,
        "",
    ),
    bind(
        "toggle_status",
        &[Char(' ')],
        "Space",
        "toggle status ok / error",
        || Action::Toggle,
        "status",
    ),
    bind(
        "undo",
        &[Char('u')],
        "u",
        "undo in the resource",
        || Action::Undo(Toward::Previous),
        "",
    ),
    bind(
        "redo",
        &[Ctrl('r')],
        "^r",
        "redo in the resource",
        || Action::Undo(Toward::Next),
        "",
    ),
    bind(
        "fill",
        &[Char('f')],
        "f",
        "fill the properties the type requires",
        || Action::Fill,
        "fill",
    ),
    bind(
        "review",
        &[Char('s'), Ctrl('s')],
        "s/^s",
        "review the request, then send",
        || Action::Review,
        "send",
    ),
    bind(
        "edit_externally",
        &[Char('e')],
        "e",
        "edit the whole report in $VISUAL / $EDITOR",
        || Action::EditExternally,
        // Not in the footer: at 80 columns it would push `q quit` out.
        "",
    ),
    bind(
        "discard_draft",
        &[Char('D')],
        "D",
        "discard the restored draft, start again from the resource",
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
        "back to where the report was opened",
        || Action::Back,
        "back",
    ),
];

pub static COMPOSER_KEYS: KeyTable = KeyTable {
    id: "composer",
    name: "report composer",
    own: &WRITING,
    shared: &PANE_SHARED,
};

static UNPARSED: [Binding; 3] = [
    bind(
        "edit_externally",
        &[Char('e')],
        "e",
        "edit the text again in $VISUAL / $EDITOR",
        || Action::EditExternally,
        "editor",
    ),
    bind(
        "drop_edited",
        &[Char('X')],
        "X",
        "drop the edited text, back to the report as it was",
        || Action::DropEdited,
        "drop",
    ),
    bind(
        "back",
        &[Code(KeyCode::Esc)],
        "Esc",
        "back to where the report was opened (the text is kept in the draft)",
        || Action::Back,
        "back",
    ),
];

/// While the report the external editor left is not JSON.
pub static UNPARSED_KEYS: KeyTable = KeyTable {
    id: "composer_unparsed",
    name: "edited report (not JSON)",
    own: &UNPARSED,
    shared: &PANE_SHARED,
};

static REVIEWING: [Binding; 3] = send_flow::reviewing("send the report");

pub static REVIEW_KEYS: KeyTable = KeyTable {
    id: "composer_review",
    name: "report review",
    own: &REVIEWING,
    shared: &PANE_SHARED,
};

pub static SENDING_KEYS: KeyTable = KeyTable {
    id: "composer_sending",
    name: "report in flight",
    own: &SENDING,
    shared: &[&GLOBAL, &FORCE_QUIT],
};

pub static ANSWER_KEYS: KeyTable = KeyTable {
    id: "composer_answer",
    name: "report answer",
    own: &ANSWERED,
    shared: &[&GLOBAL, &FORCE_QUIT],
};

#[cfg(test)]
mod tests {
    use crate::app::keymap::assert_well_formed;

    #[test]
    fn well_formed() {
        for table in [
            &super::COMPOSER_KEYS,
            &super::UNPARSED_KEYS,
            &super::REVIEW_KEYS,
            &super::SENDING_KEYS,
            &super::ANSWER_KEYS,
        ] {
            assert_well_formed(table);
        }
    }
}
