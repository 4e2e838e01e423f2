//! The types view's own keys; movement and global keys come from `keymap.rs`.

use crossterm::event::KeyCode;

use crate::app::Action;
use crate::app::keymap::{Binding, Key, KeyTable, PANE_SHARED, bind};

use Key::{Char, Code};

static OWN: [Binding; 6] = [
    bind(
        "open",
        &[Code(KeyCode::Enter), Char('l'), Code(KeyCode::Right)],
        "open the type: description, instructions, schemas",
        || Action::Open,
        "open",
    )
    .shown_as("Enter"),
    bind(
        "search",
        &[Char('/')],
        "filter the types as you type",
        || Action::Search,
        "filter",
    ),
    bind(
        "browse_type",
        &[Char('b')],
        "the resources of this type",
        || Action::BrowseType,
        "resources",
    ),
    bind(
        "refresh",
        &[Char('r')],
        "reload the known types",
        || Action::Refresh,
        "",
    ),
    bind(
        "copy",
        &[Char('y')],
        "copy the type's name",
        || Action::Copy,
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

pub(crate) static TYPES_KEYS: KeyTable = KeyTable {
    id: "types",
    name: "types",
    own: &OWN,
    shared: &PANE_SHARED,
};

#[cfg(test)]
mod tests {
    #[test]
    fn well_formed() {
        crate::app::keymap::assert_well_formed(&super::TYPES_KEYS);
    }
}
