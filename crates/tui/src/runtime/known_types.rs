//! Loading the known resource types for the TUI, off the UI thread: the connects recorded in the
//! store for the service's base URL, the `--types` files and a profile's `types`, and under
//! `--demo` the demo's payload. A store that cannot be used, or a file that cannot be read, is
//! reported in the types view; the rest still loads.

use std::path::PathBuf;

use crate::app::KnownTypes;
use crate::catalog::{self, SourceProblem};
use crate::sanitize;
use crate::store::Store;

/// Where the TUI looks for connect payloads.
#[derive(Clone, Debug, Default)]
pub struct TypeSources {
    /// `--types` files, then the profile's `types`.
    pub files: Vec<PathBuf>,
    /// The store's file and the base URL whose recorded connects to read; `None` under `--demo`
    /// or when there is no data directory.
    pub store: Option<(PathBuf, String)>,
    /// The demo's payload (`--demo`).
    pub demo: bool,
}

/// Reads every source; blocking (SQLite, files): run it on a blocking task.
pub fn load(sources: &TypeSources) -> KnownTypes {
    let mut problems = Vec::new();
    let mut wanted = catalog::Sources {
        files: sources.files.clone(),
        recorded: Vec::new(),
        demo: sources.demo,
    };
    if let Some((path, base_url)) = &sources.store {
        match Store::open(path).and_then(|store| store.app_versions(base_url)) {
            Ok(recorded) => wanted.recorded = recorded,
            Err(e) => problems.push(format!(
                "{}; the connects sent earlier are not listed",
                sanitize::line(&e.to_string())
            )),
        }
    }
    let loaded = catalog::load(&wanted);
    problems.extend(loaded.problems.iter().map(describe));
    KnownTypes {
        catalog: loaded.catalog,
        problems,
    }
}

/// One line for a source that gave no types; `appdeck validate` tells more about a bad file.
fn describe(problem: &SourceProblem) -> String {
    let line = sanitize::line(&problem.to_string()).into_owned();
    match problem {
        SourceProblem::Invalid { path, .. } => format!(
            "{line}; `appdeck validate {}` lists the errors",
            sanitize::line(&path.display().to_string())
        ),
        _ => line,
    }
}
