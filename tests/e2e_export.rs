//! End to end, the release binary in tmux against `appdeck sandbox` (its demo data, with its odd
//! numbers and hostile strings, and generated rows over several pages; it sends compact JSON):
//! `:export FILE.ndjson` writes, byte for byte, what `appdeck list --all -o ndjson` prints; a
//! second `:export` to the same file is refused, `:export!` replaces it; `:sort` orders what
//! `:export` writes.

mod common;

use common::tmux::{Tmux, binary};

/// Starts the sandbox in the pane's shell (its URL and token in the shell's environment), then
/// the TUI on it, with every page loaded (`G` until the title says so).
fn tui_with_every_row_loaded(tmux: &Tmux) -> String {
    let bin = binary().display().to_string();
    tmux.type_line(&format!(
        "{bin} sandbox --listen 127.0.0.1:0 --generate 700 > sandbox.env 2> sandbox.log &"
    ));
    tmux.type_line(
        "until grep -q TOKEN sandbox.env; do sleep 0.1; done; . ./sandbox.env; echo ready",
    );
    tmux.wait_for("the sandbox", |s| s.lines().any(|l| l == "ready"));
    tmux.type_line(&format!(
        "{bin} list --all -o ndjson > cli.ndjson && echo listed"
    ));
    tmux.wait_for("the CLI's listing", |s| s.lines().any(|l| l == "listed"));
    tmux.type_line(&format!("{bin} --page-size 100"));
    tmux.wait_for("the TUI", |s| s.contains("loaded"));
    let deadline = std::time::Instant::now() + 4 * common::tmux::WAIT;
    loop {
        assert!(
            std::time::Instant::now() < deadline,
            "the pages never all loaded:\n{}",
            tmux.screen()
        );
        tmux.send(&["G"]);
        let screen = tmux.wait_for("a page more", |s| {
            s.contains("all loaded") || s.contains("more available")
        });
        if screen.contains("all loaded") {
            return screen;
        }
    }
}

#[test]
fn export_ndjson_is_byte_identical_to_list_all_and_refuses_to_overwrite() {
    let tmux = Tmux::start(120, 40);
    let screen = tui_with_every_row_loaded(&tmux);
    let cli = std::fs::read(tmux.home.path().join("cli.ndjson")).expect("list's output");
    let rows = cli.iter().filter(|&&b| b == b'\n').count();
    assert!(rows > 700, "the demo data and the generated rows: {rows}");
    assert!(
        screen.contains(&format!("{} loaded", appdeck::text::count(rows))),
        "{screen}"
    );

    tmux.send(&[":"]);
    tmux.type_line("export rows.ndjson");
    let path = tmux.home.path().join("rows.ndjson");
    let wrote = format!(
        "wrote {} rows to {}",
        appdeck::text::count(rows),
        path.display()
    );
    tmux.wait_for("the export", |s| s.contains(&wrote));
    let exported = std::fs::read(&path).expect("the exported file");
    assert!(
        exported == cli,
        "the export differs from list --all -o ndjson ({} and {} bytes)",
        exported.len(),
        cli.len()
    );

    tmux.send(&[":"]);
    tmux.type_line("sort name desc");
    tmux.wait_for("the sort", |s| s.contains("NAME ▼"));
    tmux.send(&[":"]);
    tmux.type_line("export rows.ndjson");
    tmux.wait_for("the refusal", |s| {
        s.contains("exists: :export! rows.ndjson")
    });
    assert!(std::fs::read(&path).unwrap() == cli, "the file is kept");
    tmux.send(&[":"]);
    tmux.type_line("export! rows.ndjson");
    tmux.wait_for("the export", |s| s.contains(&wrote));
    let sorted = std::fs::read(&path).unwrap();
    assert_eq!(sorted.len(), cli.len(), "the same rows");
    assert!(sorted != cli, "in another order");
    let names: Vec<String> = String::from_utf8(sorted)
        .unwrap()
        .lines()
        .map(|line| {
            let item: serde_json::Value = serde_json::from_str(line).unwrap();
            let name = item.get("display_name").or(item.get("name"));
            name.and_then(|n| n.as_str()).unwrap_or("").to_lowercase()
        })
        .collect();
    let named: Vec<&String> = names.iter().filter(|n| !n.is_empty()).collect();
    assert!(named.is_sorted_by(|a, b| a >= b), "by name, descending");
    tmux.send(&["q"]);
    tmux.type_line("kill %1");
}
