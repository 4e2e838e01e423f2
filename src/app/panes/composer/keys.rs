//! The composer's keys: one table while writing, one for the review, one while the report is in
//! flight and one for the answer. Movement and global keys come from `keymap.rs`; while a field
//! is being edited the keymap's line or editor input table applies instead.

use crossterm::event::KeyCode;

use crate::app::Action;
use crate::app::keymap::{Binding, FORCE_QUIT, GLOBAL, Key, KeyTable, PANE_SHARED, bind};

use Key::{Char, Code, Ctrl};

static WRITING: [Binding; 12] = [
    bind(
        &[Code(KeyCode::Enter)],
        "Enter",
        "edit the field (on a finding: go to it)",
        || Action::Open,
        "edit",
    ),
    bind(
        &[Char('i')],
        "i",
        "edit the field",
        || Action::StartEdit,
        "",
    ),
    bind(
        &[Char(' ')],
        "Space",
        "toggle status ok / error",
        || Action::Toggle,
        "status",
    ),
    bind(
        &[Char('u')],
        "u",
        "undo in the resource",
        || Action::Undo,
        "",
    ),
    bind(
        &[Ctrl('r')],
        "^r",
        "redo in the resource",
        || Action::Redo,
        "",
    ),
    bind(
        &[Char('f')],
        "f",
        "fill the properties the type requires",
        || Action::Fill,
        "fill",
    ),
    bind(
        &[Char('s'), Ctrl('s')],
        "s/^s",
        "review the request, then send",
        || Action::Review,
        "send",
    ),
    bind(
        &[Char('e')],
        "e",
        "edit the whole report in $VISUAL / $EDITOR",
        || Action::EditExternally,
        // Not in the footer: at 80 columns it would push `q quit` out.
        "",
    ),
    bind(
        &[Char('D')],
        "D",
        "discard the restored draft, start again from the resource",
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
        "back to where the report was opened",
        || Action::Back,
        "back",
    ),
];

pub static COMPOSER_KEYS: KeyTable = KeyTable {
    name: "report composer",
    own: &WRITING,
    shared: &PANE_SHARED,
};

static UNPARSED: [Binding; 3] = [
    bind(
        &[Char('e')],
        "e",
        "edit the text again in $VISUAL / $EDITOR",
        || Action::EditExternally,
        "editor",
    ),
    bind(
        &[Char('x')],
        "x",
        "drop the edited text, back to the report as it was",
        || Action::DropEdited,
        "drop",
    ),
    bind(
        &[Code(KeyCode::Esc)],
        "Esc",
        "back to where the report was opened (the text is kept in the draft)",
        || Action::Back,
        "back",
    ),
];

/// While the report the external editor left is not JSON.
pub static UNPARSED_KEYS: KeyTable = KeyTable {
    name: "edited report (not JSON)",
    own: &UNPARSED,
    shared: &PANE_SHARED,
};

static REVIEWING: [Binding; 3] = [
    bind(
        &[Code(KeyCode::Enter)],
        "Enter",
        "send the report",
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
    name: "report review",
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
    name: "report in flight",
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
        "back to the report",
        || Action::Back,
        "back",
    ),
];

pub static ANSWER_KEYS: KeyTable = KeyTable {
    name: "report answer",
    own: &ANSWER,
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
