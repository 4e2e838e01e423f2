//! Issue 20's CLI and sandbox items, end to end over real HTTP on loopback: what a new user and a
//! script writer tripped over. Each test names its item.

mod common;

use common::{TestSandbox, run};

/// Item 9: the table has the id column, in the terminal UI's order (type, name, status, id,
/// external id, update), and a default-width table shows every demo id whole.
#[test]
fn list_shows_the_id_column_in_the_terminal_uis_order() {
    let sandbox = TestSandbox::demo();
    let out = run(sandbox.appdeck().args(["list", "--limit", "20"]));
    assert_eq!(out.code, 0, "{out:?}");
    let lines = out.lines();
    let header: Vec<&str> = lines[0]
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(
        header,
        [
            "!",
            "TYPE",
            "NAME",
            "STATUS",
            "ID",
            "EXTERNAL ID",
            "UPDATED"
        ],
        "{}",
        lines[0]
    );
    let ids = sandbox.store();
    for line in &lines[1..] {
        let id = line
            .split_whitespace()
            .find(|word| word.starts_with("res_"))
            .unwrap_or_else(|| panic!("no id on {line:?}"));
        assert!(
            ids.get(id).is_some(),
            "{id} on {line:?} is a stored id, uncut"
        );
    }
}
