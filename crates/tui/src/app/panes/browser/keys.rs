//! The resource list's own keys; movement and global keys come from `keymap.rs`.

use crossterm::event::KeyCode;

use crate::app::keymap::{Binding, Key, KeyTable, PANE_SHARED, bind};
use crate::app::{Action, Toward};

use Key::{Char, Code};

static OWN: [Binding; 15] = [
    bind(
        "open",
        &[Code(KeyCode::Enter), Char('l'), Code(KeyCode::Right)],
        "open the resource",
        || Action::Open,
        "open",
    )
    .shown_as("Enter"),
    bind(
        "search",
        &[Char('/')],
        "search every field of the loaded rows",
        || Action::Search,
        "filter",
    ),
    bind(
        "type_picker",
        &[Char('t')],
        "pick a type filter",
        || Action::TypePicker,
        "type",
    ),
    bind(
        "refresh",
        &[Char('r')],
        "retry a failed load, else reload",
        || Action::Refresh,
        "reload",
    ),
    bind(
        "back",
        &[Code(KeyCode::Esc)],
        "cancel a load or an opening / clear the filter",
        || Action::Back,
        "",
    ),
    bind(
        "open_link",
        &[Char('o')],
        "open external_url in the browser",
        || Action::OpenLink,
        "",
    ),
    bind(
        "copy",
        &[Char('y')],
        "copy the resource id (the marked rows' ids)",
        || Action::Copy,
        "",
    ),
    bind(
        "mark",
        &[Char(' ')],
        "mark the row (export, y and R act on the marked rows)",
        || Action::Toggle,
        "",
    ),
    bind(
        "load_all",
        &[Char('L')],
        "load every page (Esc stops)",
        || Action::LoadAll,
        "",
    ),
    bind(
        "sort",
        &[Char('s')],
        "sort by the next column, then unsorted",
        || Action::SortNext,
        "sort",
    ),
    bind(
        "sort_reverse",
        &[Char('S')],
        "reverse the sort",
        || Action::SortReverse,
        "",
    ),
    bind(
        "show_changes",
        &[Char('d')],
        "what changed in a row :watch marked ~ (field by field)",
        || Action::ShowChanges,
        "",
    ),
    bind(
        "next_marked",
        &[Char('n')],
        "next row :watch marked new or changed",
        || Action::Match(Toward::Next),
        "",
    ),
    bind(
        "prev_marked",
        &[Char('N')],
        "previous row :watch marked new or changed",
        || Action::Match(Toward::Previous),
        "",
    ),
    bind(
        "report",
        &[Char('R')],
        "task report about this resource (marked rows: sent to each)",
        || Action::Report,
        "report",
    ),
];

pub(crate) static BROWSER_KEYS: KeyTable = KeyTable {
    id: "browser",
    name: "resource list",
    own: &OWN,
    shared: &PANE_SHARED,
};

#[cfg(test)]
mod tests {
    #[test]
    fn well_formed() {
        crate::app::keymap::assert_well_formed(&super::BROWSER_KEYS);
    }
}
