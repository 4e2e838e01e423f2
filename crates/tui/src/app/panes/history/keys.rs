//! The history view's own keys, for the list and for one send shown in full; movement and global
//! keys come from `keymap.rs`.

use crossterm::event::KeyCode;

use crate::app::Action;
use crate::app::keymap::{Binding, Key, KeyTable, PANE_SHARED, bind};

use Key::{Char, Code};

const EDIT: Binding = bind(
    "edit_and_resend",
    &[Char('E')],
    "edit the report or connect in its composer and resend it (a draft: go on with it)",
    || Action::EditAndResend,
    "edit & resend",
);

const CURL: Binding = bind(
    "copy_curl",
    &[Char('c')],
    "copy as a curl command (the token read from $APPDECK_TOKEN)",
    || Action::CopyCurl,
    "curl",
);

static LIST_OWN: [Binding; 6] = [
    bind(
        "open",
        &[Code(KeyCode::Enter), Char('l'), Code(KeyCode::Right)],
        "show the request and the answer in full; on a draft, go on with it",
        || Action::Open,
        "open",
    )
    .shown_as("Enter"),
    bind(
        "search",
        &[Char('/')],
        "filter the sends as you type",
        || Action::Search,
        "filter",
    ),
    EDIT,
    CURL,
    bind(
        "refresh",
        &[Char('r')],
        "reload the history",
        || Action::Refresh,
        "",
    ),
    bind(
        "back",
        &[Code(KeyCode::Esc)],
        "clear the filter / back",
        || Action::Back,
        "back",
    ),
];

pub(crate) static HISTORY_KEYS: KeyTable = KeyTable {
    id: "history",
    name: "history",
    own: &LIST_OWN,
    shared: &PANE_SHARED,
};

static ENTRY_OWN: [Binding; 3] = [
    EDIT,
    CURL,
    bind(
        "back",
        &[Code(KeyCode::Esc), Char('h'), Code(KeyCode::Left)],
        "back to the history",
        || Action::Back,
        "back",
    )
    .shown_as("Esc"),
];

pub(crate) static ENTRY_KEYS: KeyTable = KeyTable {
    id: "history_entry",
    name: "sent request",
    own: &ENTRY_OWN,
    shared: &PANE_SHARED,
};

#[cfg(test)]
mod tests {
    #[test]
    fn well_formed() {
        crate::app::keymap::assert_well_formed(&super::HISTORY_KEYS);
        crate::app::keymap::assert_well_formed(&super::ENTRY_KEYS);
    }
}
