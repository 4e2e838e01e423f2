//! End to end, the release binary in tmux against `appdeck sandbox` (its demo data, with its odd
//! numbers and hostile strings, and generated rows over several pages): `:export FILE.ndjson`
//! writes, byte for byte, what `appdeck list --all -o ndjson` prints, and `.json` what `-o json`
//! prints, whether the sandbox sends compact JSON or spaces it out (its `spaced` fault: many
//! lines, `\u` escapes), and `.csv` what `-o csv` prints; a second `:export` to the same file is
//! refused, `:export!` replaces it; `:sort` orders what `:export` writes.

use crate::common;

use common::tmux::{Tmux, binary};

/// Starts the sandbox in the pane's shell with `args` (its URL and token in the shell's
/// environment), lists every row with `list --all` to `cli.ndjson` and `cli.json`, then starts
/// the TUI on it, with every page loaded (`G` until the title says so).
fn tui_with_every_row_loaded(tmux: &Tmux, args: &str) -> String {
    let bin = binary().display().to_string();
    tmux.type_line(&format!(
        "{bin} sandbox --listen 127.0.0.1:0 --generate 700 {args} > sandbox.env 2> sandbox.log &"
    ));
    tmux.type_line(
        "until grep -q TOKEN sandbox.env; do sleep 0.1; done; . ./sandbox.env; echo ready",
    );
    tmux.wait_for("the sandbox", |s| s.lines().any(|l| l == "ready"));
    tmux.type_line(&format!(
        "{bin} list --all -o ndjson > cli.ndjson && {bin} list --all -o json > cli.json && \
         {bin} list --all -o csv > cli.csv && echo listed"
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

/// What `list --all` wrote to `file` in the pane's home, and its count of rows (checked against
/// the TUI's title on `screen`).
fn listed(tmux: &Tmux, screen: &str, file: &str) -> (Vec<u8>, usize) {
    let cli = std::fs::read(tmux.home.path().join(file)).expect("list's output");
    let rows = cli.iter().filter(|&&b| b == b'\n').count();
    assert!(rows > 700, "the demo data and the generated rows: {rows}");
    assert!(
        screen.contains(&format!("{} loaded", appdeck_core::text::count(rows))),
        "{screen}"
    );
    (cli, rows)
}

/// Types `:LINE` (an `export` of a file in the pane's home) and waits for its message; the
/// file's bytes.
fn export(tmux: &Tmux, line: &str, rows: usize) -> Vec<u8> {
    tmux.send(&[":"]);
    tmux.type_line(line);
    let file = line.rsplit(' ').next().expect("a file");
    let path = tmux.home.path().join(file);
    let wrote = format!(
        "wrote {} rows to {}",
        appdeck_core::text::count(rows),
        path.display()
    );
    tmux.wait_for("the export", |s| s.contains(&wrote));
    std::fs::read(&path).expect("the exported file")
}

/// Byte for byte, without printing megabytes when not.
fn assert_same(exported: &[u8], cli: &[u8], what: &str) {
    assert!(
        exported == cli,
        "the export differs from {what} ({} and {} bytes)",
        exported.len(),
        cli.len()
    );
}

#[test]
fn export_ndjson_is_byte_identical_to_list_all_and_refuses_to_overwrite() {
    let tmux = Tmux::start(120, 40);
    let screen = tui_with_every_row_loaded(&tmux, "");
    let (cli, rows) = listed(&tmux, &screen, "cli.ndjson");
    let exported = export(&tmux, "export rows.ndjson", rows);
    assert_same(&exported, &cli, "list --all -o ndjson");
    // `.csv` has the columns and cells `list -o csv` writes, under the same header.
    let exported = export(&tmux, "export rows.csv", rows);
    let csv = std::fs::read(tmux.home.path().join("cli.csv")).expect("list's csv");
    assert_same(&exported, &csv, "list --all -o csv");

    tmux.send(&[":"]);
    tmux.type_line("sort name desc");
    tmux.wait_for("the sort", |s| s.contains("NAME ▼"));
    tmux.send(&[":"]);
    tmux.type_line("export rows.ndjson");
    tmux.wait_for("the refusal", |s| {
        s.contains("exists: :export! rows.ndjson")
    });
    let path = tmux.home.path().join("rows.ndjson");
    assert!(std::fs::read(&path).unwrap() == cli, "the file is kept");
    let sorted = export(&tmux, "export! rows.ndjson", rows);
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
    // In the list's order (numbers and digit runs by value), descending.
    let descending =
        |a: &&String, b: &&String| appdeck_core::order::compare(a, b) != std::cmp::Ordering::Less;
    assert!(named.is_sorted_by(descending), "by name, descending");
    tmux.send(&["q"]);
    tmux.type_line("kill %1");
}

/// A service that spaces its JSON out (over lines, `\u` escapes, `\/`): each row is kept as
/// its bytes came, so `:export` still writes what `list --all` prints, for ndjson and json.
#[test]
fn export_of_json_spaced_out_is_byte_identical_to_list_all() {
    let tmux = Tmux::start(120, 40);
    let screen = tui_with_every_row_loaded(&tmux, "--fault spaced");
    let (ndjson, rows) = listed(&tmux, &screen, "cli.ndjson");
    let json = std::fs::read(tmux.home.path().join("cli.json")).expect("list's json");
    let text = String::from_utf8_lossy(&ndjson);
    assert!(
        text.contains("\": \"") && text.contains("\\/") && text.contains("\\u00"),
        "the sandbox spaced its JSON out: {}",
        &text[..300.min(text.len())]
    );
    let exported = export(&tmux, "export rows.ndjson", rows);
    assert_same(&exported, &ndjson, "list --all -o ndjson");
    let exported = export(&tmux, "export rows.json", rows);
    assert_same(&exported, &json, "list --all -o json");
    tmux.send(&["q"]);
    tmux.type_line("kill %1");
}
