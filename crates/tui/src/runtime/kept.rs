//! A text the store did not take as a draft, kept in a file as appdeck quits (`q` said it
//! would be), and the line that names that file once the terminal is handed back.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::app::pane::UnsavedWork;

/// Writes `work`'s text to a new file in the first of `dirs` that takes it (the data
/// directory, then the temporary one), readable by its owner only; returns what to tell the
/// user on exit: where it is and how to open it again, or why it could not be kept.
pub(crate) fn keep(work: &UnsavedWork, dirs: &[PathBuf]) -> String {
    let what = work.what;
    let mut failures = Vec::new();
    for dir in dirs {
        match write_in(dir, work) {
            Ok(path) => {
                let path = path.display();
                return format!(
                    "the {what} the store did not take as a draft is kept in {path} \
                     (`:{what} {path}` opens it again)"
                );
            }
            Err(e) => failures.push(format!("{}: {e}", dir.display())),
        }
    }
    format!(
        "the {what} the store did not take as a draft could not be kept in a file either ({})",
        failures.join("; ")
    )
}

fn write_in(dir: &Path, work: &UnsavedWork) -> std::io::Result<PathBuf> {
    let mut file = tempfile::Builder::new()
        .prefix(&format!("appdeck-{}-", work.what))
        .suffix(".json")
        .tempfile_in(dir)?;
    file.write_all(work.text.as_bytes())?;
    file.flush()?;
    let (_, path) = file.keep().map_err(|e| e.error)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn work() -> UnsavedWork {
        UnsavedWork {
            why: "draft not saved: disk full".to_owned(),
            what: "report",
            text: "{\"task_id\": \"t-1\", \"message\": \"precious\"}".to_owned(),
        }
    }

    #[test]
    fn the_text_goes_to_the_first_directory_that_takes_it_and_the_line_names_it() {
        let good = tempfile::tempdir().unwrap();
        let missing = good.path().join("no such dir");
        let said = keep(&work(), &[missing, good.path().to_owned()]);
        let path = said
            .split(" is kept in ")
            .nth(1)
            .and_then(|rest| rest.split(" (`").next())
            .expect(&said);
        assert!(path.starts_with(good.path().to_str().unwrap()), "{said}");
        assert_eq!(std::fs::read_to_string(path).unwrap(), work().text);
        assert!(
            said.contains(&format!("`:report {path}` opens it again")),
            "{said}"
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(path).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "the owner's only");
        }
        let nowhere = keep(&work(), &[good.path().join("gone")]);
        assert!(nowhere.contains("could not be kept"), "{nowhere}");
    }
}
