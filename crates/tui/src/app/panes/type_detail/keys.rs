//! A type's own keys; movement and global keys come from `keymap.rs`.

use crate::app::Toward;
use crossterm::event::KeyCode;

use crate::app::Action;
use crate::app::keymap::{Binding, Key, KeyTable, PANE_SHARED, bind};

use Key::{Char, Code};

static OWN: [Binding; 10] = [
    bind(
        "next_pane",
        &[Code(KeyCode::Tab)],
        "next pane: about, instructions, schemas, raw JSON",
        || Action::Pane(Toward::Next),
        "pane",
    ),
    bind(
        "prev_pane",
        &[Code(KeyCode::BackTab)],
        "previous pane",
        || Action::Pane(Toward::Previous),
        "",
    ),
    bind(
        "toggle_node",
        &[Code(KeyCode::Enter)],
        "expand / collapse a schema field",
        || Action::Open,
        "",
    ),
    bind(
        "expand",
        &[Char('l'), Code(KeyCode::Right)],
        "expand a schema field",
        || Action::Right,
        "",
    ),
    bind(
        "collapse",
        &[Char('h'), Code(KeyCode::Left)],
        "collapse a schema field / go to its parent",
        || Action::Left,
        "",
    ),
    bind(
        "open_link",
        &[Char('o')],
        "open the link under the cursor",
        || Action::OpenLink,
        "open link",
    ),
    bind(
        "copy",
        &[Char('y')],
        "copy the link or value under the cursor",
        || Action::Copy,
        "",
    ),
    bind(
        "next_version",
        &[Char('v')],
        "show the type's next known version",
        || Action::NextVersion,
        "",
    ),
    bind(
        "browse_type",
        &[Char('b')],
        "the resources of this type",
        || Action::BrowseType,
        "resources",
    ),
    bind(
        "back",
        &[Code(KeyCode::Esc)],
        "back",
        || Action::Back,
        "back",
    ),
];

pub(crate) static TYPE_DETAIL_KEYS: KeyTable = KeyTable {
    id: "type_detail",
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
