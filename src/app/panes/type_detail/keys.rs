//! A type's own keys; movement and global keys come from `keymap.rs`.

use crossterm::event::KeyCode;

use crate::app::Action;
use crate::app::keymap::{Binding, Key, KeyTable, PANE_SHARED, bind};

use Key::{Char, Code};

static OWN: [Binding; 10] = [
    bind(
        &[Code(KeyCode::Tab)],
        "Tab",
        "next pane: about, instructions, schemas, raw JSON",
        || Action::NextPane,
        "pane",
    ),
    bind(
        &[Code(KeyCode::BackTab)],
        "S-Tab",
        "previous pane",
        || Action::PrevPane,
        "",
    ),
    bind(
        &[Code(KeyCode::Enter)],
        "Enter",
        "expand / collapse a schema field",
        || Action::Open,
        "",
    ),
    bind(
        &[Char('l'), Code(KeyCode::Right)],
        "l/→",
        "expand a schema field",
        || Action::Right,
        "",
    ),
    bind(
        &[Char('h'), Code(KeyCode::Left)],
        "h/←",
        "collapse a schema field / go to its parent",
        || Action::Left,
        "",
    ),
    bind(
        &[Char('o')],
        "o",
        "open the link under the cursor",
        || Action::OpenLink,
        "open link",
    ),
    bind(
        &[Char('y')],
        "y",
        "copy the link or value under the cursor",
        || Action::Copy,
        "",
    ),
    bind(
        &[Char('v')],
        "v",
        "show the type's next known version",
        || Action::NextVersion,
        "",
    ),
    bind(
        &[Char('b')],
        "b",
        "the resources of this type",
        || Action::BrowseType,
        "resources",
    ),
    bind(
        &[Code(KeyCode::Esc)],
        "Esc",
        "back",
        || Action::Back,
        "back",
    ),
];

pub static TYPE_DETAIL_KEYS: KeyTable = KeyTable {
    name: "type detail",
    own: &OWN,
    shared: &PANE_SHARED,
};

#[cfg(test)]
mod tests {
    #[test]
    fn well_formed() {
        crate::app::keymap::assert_well_formed(&super::TYPE_DETAIL_KEYS);
    }
}
