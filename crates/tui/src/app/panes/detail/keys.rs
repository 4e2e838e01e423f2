//! The detail view's own keys; movement and global keys come from `keymap.rs`.

use crate::app::Toward;
use crossterm::event::KeyCode;

use crate::app::Action;
use crate::app::keymap::{Binding, Key, KeyTable, PANE_SHARED, bind};

use Key::{Char, Code};

static OWN: [Binding; 15] = [
    bind(
        "next_pane",
        &[Code(KeyCode::Tab)],
        "next pane",
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
        "expand / collapse a node; on a value, show it in full; on a report sent, show it",
        || Action::Open,
        "",
    ),
    bind(
        "show_value",
        &[Char('v')],
        "the value under the cursor in full (wrapped, scrolls)",
        || Action::ShowValue,
        "value",
    ),
    bind(
        "toggle_wrap",
        &[Char('w')],
        "wrap the raw JSON's long lines (again: cut them with …)",
        || Action::ToggleWrap,
        "",
    ),
    bind(
        "toggle_raw_source",
        &[Char('a')],
        "raw JSON of the whole resource / of its properties",
        || Action::ToggleRawSource,
        "",
    ),
    bind(
        "expand",
        &[Char('l'), Code(KeyCode::Right)],
        "expand a node",
        || Action::Right,
        "",
    ),
    bind(
        "collapse",
        &[Char('h'), Code(KeyCode::Left)],
        "collapse a node / go to its parent",
        || Action::Left,
        "",
    ),
    bind(
        "search",
        &[Char('/')],
        "search this pane",
        || Action::Search,
        "search",
    ),
    bind(
        "next_match",
        &[Char('n')],
        "next match",
        || Action::Match(Toward::Next),
        "",
    ),
    bind(
        "prev_match",
        &[Char('N')],
        "previous match",
        || Action::Match(Toward::Previous),
        "",
    ),
    bind(
        "open_link",
        &[Char('o')],
        "open the link under the cursor",
        || Action::OpenLink,
        "",
    ),
    bind(
        "copy",
        &[Char('y')],
        "copy the link or value under the cursor (in the raw JSON, the value the line is in)",
        || Action::Copy,
        "copy",
    ),
    bind(
        "back",
        &[Code(KeyCode::Esc)],
        "back to the list",
        || Action::Back,
        "back",
    ),
    bind(
        "report",
        &[Char('R')],
        "write a task report about this resource",
        || Action::Report,
        "report",
    ),
];

pub(crate) static DETAIL_KEYS: KeyTable = KeyTable {
    id: "detail",
    name: "resource detail",
    own: &OWN,
    shared: &PANE_SHARED,
};

#[cfg(test)]
mod tests {
    #[test]
    fn well_formed() {
        crate::app::keymap::assert_well_formed(&super::DETAIL_KEYS);
    }
}
