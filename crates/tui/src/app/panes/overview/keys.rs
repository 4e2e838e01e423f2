//! The overview's own keys; movement and the global keys come from `keymap`.

use crate::app::Toward;
use crossterm::event::KeyCode;

use crate::app::Action;
use crate::app::keymap::{Binding, Key, KeyTable, PANE_SHARED, bind};

use Key::{Char, Code};

static OWN: [Binding; 4] = [
    bind(
        "open",
        &[Code(KeyCode::Enter), Char('l'), Code(KeyCode::Right)],
        "list the resources of the type or status under the cursor",
        || Action::Open,
        "list",
    )
    .shown_as("Enter"),
    bind(
        "next_pane",
        &[Code(KeyCode::Tab)],
        "the other chart (types, statuses)",
        || Action::Pane(Toward::Next),
        "chart",
    ),
    bind(
        "refresh",
        &[Char('r')],
        "reload the list from its first page",
        || Action::Refresh,
        "",
    ),
    bind(
        "back",
        &[Code(KeyCode::Esc), Char('h'), Code(KeyCode::Left)],
        "back",
        || Action::Back,
        "back",
    )
    .shown_as("Esc"),
];

pub(crate) static OVERVIEW_KEYS: KeyTable = KeyTable {
    id: "overview",
    name: "overview",
    own: &OWN,
    shared: &PANE_SHARED,
};

#[cfg(test)]
mod tests {
    #[test]
    fn well_formed() {
        crate::app::keymap::assert_well_formed(&super::OVERVIEW_KEYS);
    }
}
