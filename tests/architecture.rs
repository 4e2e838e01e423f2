//! The rules of ARCHITECTURE.md that can be checked by reading the code: which crate may use
//! which, no fork in the build but the text area, `app/` never reaching `ui/` or `runtime/`, and
//! `app/` touching no file and calling no allocator (`update` is pure).
//! Each fails naming the line that breaks its rule.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The names of a crate's `[dependencies]` (not its dev-dependencies).
fn dependencies(manifest: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).unwrap();
    let mut in_dependencies = false;
    let mut names = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_dependencies = line == "[dependencies]";
            continue;
        }
        if in_dependencies && let Some((name, _)) = line.split_once('=') {
            names.push(name.trim().to_owned());
        }
    }
    names
}

#[test]
fn a_crate_never_names_one_above_it_or_a_terminal_crate_below_the_ui() {
    let rules: [(&str, &[&str]); 4] = [
        (
            "crates/core",
            &[
                "appdeck-store",
                "appdeck-tui",
                "appdeck-sandbox",
                "ratatui",
                "crossterm",
                "rusqlite",
            ],
        ),
        (
            "crates/store",
            &["appdeck-tui", "appdeck-sandbox", "ratatui", "crossterm"],
        ),
        (
            "crates/sandbox",
            &["appdeck-tui", "appdeck-store", "ratatui", "crossterm"],
        ),
        // The list's engine: rows and queries, no terminal, no store, no app.
        (
            "crates/listing",
            &[
                "appdeck-tui",
                "appdeck-store",
                "appdeck-sandbox",
                "ratatui",
                "crossterm",
                "rusqlite",
            ],
        ),
    ];
    for (krate, refused) in rules {
        let used = dependencies(&root().join(krate).join("Cargo.toml"));
        assert!(!used.is_empty(), "{krate}: no [dependencies] read");
        for name in refused {
            assert!(
                !used.iter().any(|u| u == name),
                "{krate} depends on {name}, which ARCHITECTURE.md says it may not"
            );
        }
    }
    let tui = dependencies(&root().join("crates/tui/Cargo.toml"));
    assert!(
        !tui.iter().any(|u| u == "appdeck-sandbox" || u == "axum"),
        "the TUI does not carry the sandbox's server"
    );
}

#[test]
fn no_fork_is_built_but_the_text_area() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let patched: Vec<&str> = manifest
        .split("[patch.crates-io]")
        .nth(1)
        .unwrap_or_default()
        .lines()
        .take_while(|l| !l.trim_start().starts_with('['))
        .filter(|l| l.contains('='))
        .collect();
    assert!(
        patched
            .iter()
            .all(|l| l.trim_start().starts_with("ratatui-textarea")),
        "{patched:?}"
    );
    let vendored: Vec<String> = std::fs::read_dir(root().join("vendor"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(vendored, ["ratatui-textarea"]);
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// Calls `check` with each line of code of `crates/tui/src/app/` (its file and line number),
/// leaving out comments, tests and the harness (which draw whole screens and write files).
fn app_code_lines(mut check: impl FnMut(&Path, usize, &str)) {
    let app = root().join("crates/tui/src/app");
    let mut files = Vec::new();
    sources(&app, &mut files);
    assert!(files.len() > 50, "read {} files", files.len());
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy();
        if name == "tests.rs" || name.ends_with("_tests.rs") || name == "harness.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        // A file's own `mod tests` sits at its end.
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (n, line) in code.lines().enumerate() {
            let line = line.trim_start();
            if !line.starts_with("//") {
                check(&file, n + 1, line);
            }
        }
    }
}

#[test]
fn the_app_state_never_reaches_the_drawing_or_the_runtime() {
    app_code_lines(|file, n, line| {
        assert!(
            !line.contains("crate::ui") && !line.contains("crate::runtime"),
            "{}:{n}: `app/` names `ui/` or `runtime/`: {line}",
            file.display(),
        );
    });
}

/// `update` is pure: the files (the spill, an export, the store) are the runtime's, written by
/// the commands it runs or by jobs that live in the engine; so is giving memory back.
#[test]
fn the_app_state_touches_no_file_and_calls_no_allocator() {
    let forbidden = [
        "std::fs",
        "File::",
        "OpenOptions",
        "tempfile",
        "std::io::Write",
        ".exists()",
        "std::env::",
        "std::thread::spawn",
        "malloc_trim",
        "freed_memory",
        "write_due",
    ];
    app_code_lines(|file, n, line| {
        if let Some(word) = forbidden.iter().find(|word| line.contains(*word)) {
            panic!(
                "{}:{n}: `app/` names `{word}` (file I/O or an allocator call): {line}",
                file.display()
            );
        }
    });
}

/// `App` only routes to the list: outside the list's own folder, `app/` reaches the list pane
/// (`self.browser`) through its methods, never its fields.
#[test]
fn the_app_reaches_the_list_only_through_its_methods() {
    app_code_lines(|file, n, line| {
        if file.components().any(|c| c.as_os_str() == "browser") {
            return;
        }
        for (at, _) in line.match_indices("browser.") {
            let rest = &line[at + "browser.".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            assert!(
                rest[name.len()..].starts_with('('),
                "{}:{n}: `app/` names the list's field `{name}`: {line}",
                file.display()
            );
        }
    });
}

/// The `pub mod` lines of a crate root that are built outside tests: a `pub mod` behind a
/// `#[cfg(...)]` naming `test` (the store's `test_support`) is a test helper, not the surface.
fn public_modules(lib_rs: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut behind_test_cfg = false;
    for (n, line) in lib_rs.lines().enumerate() {
        let line = line.trim();
        if line.starts_with("#[cfg(") {
            behind_test_cfg = line.contains("test");
            continue;
        }
        if line.starts_with("pub mod ") && !behind_test_cfg {
            found.push((n + 1, line.to_owned()));
        }
        if !line.starts_with("#[") && !line.starts_with("//") && !line.is_empty() {
            behind_test_cfg = false;
        }
    }
    found
}

/// Private insides: a library crate's modules are private and its root says with `pub use` what
/// the others may use, so an item nothing uses is dead code the compiler reports. The core keeps
/// its modules as the namespaces the other crates write (`sanitize::line`).
#[test]
fn a_library_crate_exposes_no_module_only_what_it_re_exports() {
    assert_eq!(
        public_modules("pub mod a;\n#[cfg(test)]\npub mod b;\n#[cfg(feature = \"x\")]\npub mod c;"),
        [(1, "pub mod a;".to_owned()), (5, "pub mod c;".to_owned())],
        "the reading of a crate root"
    );
    for krate in ["listing", "store", "sandbox", "tui"] {
        let lib_rs = root().join("crates").join(krate).join("src/lib.rs");
        let found = public_modules(&std::fs::read_to_string(&lib_rs).unwrap());
        assert!(
            found.is_empty(),
            "{}: a public module, where a `pub use` of what other crates use belongs: {found:?}",
            lib_rs.display()
        );
    }
}

/// The files of the module whose root is `root_file` (a test binary's `main.rs`, or a `mod.rs`)
/// that its root does not name with `mod`, looking into the folders of the modules it names.
fn unnamed_modules(root_file: &Path, unnamed: &mut Vec<PathBuf>) {
    let text = std::fs::read_to_string(root_file).unwrap();
    let named = |name: &str| {
        text.lines()
            .any(|line| line.trim() == format!("mod {name};"))
    };
    let dir = root_file.parent().unwrap();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() && path.join("mod.rs").is_file() {
            if named(&name) {
                unnamed_modules(&path.join("mod.rs"), unnamed);
            } else {
                unnamed.push(path);
            }
        } else if path.extension().is_some_and(|e| e == "rs") && path != root_file && !named(&name)
        {
            unnamed.push(path);
        }
    }
}

/// The integration tests are a few binaries of many modules (`tests/<binary>/main.rs`), so that
/// the release build links a few test binaries, not one per file. A file in such a folder runs
/// only if its `main.rs` names it: forgotten there, it would never compile nor run, silently.
#[test]
fn every_file_of_a_test_binary_is_one_of_its_modules() {
    let mut binaries = 0;
    let mut unnamed = Vec::new();
    for entry in std::fs::read_dir(root().join("tests")).unwrap() {
        let main = entry.unwrap().path().join("main.rs");
        if main.is_file() {
            binaries += 1;
            unnamed_modules(&main, &mut unnamed);
        }
    }
    assert!(binaries >= 4, "tests/<binary>/main.rs: {binaries} found");
    assert!(
        unnamed.is_empty(),
        "test files no `mod` names, which never run: {unnamed:?}"
    );
}

/// Lines of code a file holds before its tests: every line up to the `#[cfg(test)]` that opens a
/// `mod … {` block (a `#[cfg(test)]` on a one-line `mod x;` is skipped with its line).
fn lines_before_tests(text: &str) -> usize {
    let mut lines = text.lines();
    let mut count = 0;
    while let Some(line) = lines.next() {
        if line.starts_with("#[cfg(test)]") {
            match lines.next() {
                Some(next) if next.trim_end().ends_with(';') => continue,
                _ => break,
            }
        }
        count += 1;
    }
    count
}

/// Issue 33: the list pane is a view over the engine (`crates/listing`), at most 2,500 lines of
/// code; what grows past that is engine work to move there.
#[test]
fn the_list_pane_stays_a_view_of_at_most_2500_lines() {
    assert_eq!(
        lines_before_tests("a\n#[cfg(test)]\nmod t;\nb\n#[cfg(test)]\nmod tests {\nc\n}"),
        2,
        "the count"
    );
    let mut files = Vec::new();
    sources(&root().join("crates/tui/src/app/panes/browser"), &mut files);
    let lines: usize = (files.iter())
        .filter(|f| !f.file_name().unwrap().to_string_lossy().contains("tests"))
        .map(|f| lines_before_tests(&std::fs::read_to_string(f).unwrap()))
        .sum();
    assert!(lines > 1000, "read {} files", files.len());
    assert!(
        lines <= 2500,
        "the list pane has {lines} lines of code: move engine work to crates/listing"
    );
}
