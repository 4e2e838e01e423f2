//! Running the user's editor (`$VISUAL`, else `$EDITOR`, else `vi`) on a text: the text goes to a
//! private temp file ending in `.json` (so the editor highlights it), the editor runs with the
//! terminal (the caller has handed it over, see `suspend.rs`), and the file is read back and
//! removed. Blocking: run it on a blocking task.

use std::io::Write;
use std::path::Path;
use std::process::Command;

use editor_command::{Editor, EditorBuilder};

use crate::bounded_read::{self, MAX_PAYLOAD_BYTES};

/// The editor `$VISUAL` / `$EDITOR` name (empty values count as unset), else `vi`.
pub(crate) fn configured() -> Result<Editor, String> {
    let from_env = ["VISUAL", "EDITOR"]
        .into_iter()
        .find_map(|name| std::env::var(name).ok().filter(|v| !v.trim().is_empty()));
    EditorBuilder::new()
        .string(from_env)
        .string(Some("vi"))
        .build()
        .map_err(|e| format!("the editor command in $VISUAL / $EDITOR cannot be used: {e}"))
}

/// Edits `text` with the configured editor; see [`edit_with`].
pub(crate) fn edit(text: &str) -> Result<String, String> {
    edit_with(&configured()?, text)
}

/// Writes `text` to a new temp file (mode 0600, `.json`), runs `editor` on it and returns what
/// the file holds when the editor exits with success. An editor that cannot start, or exits with
/// a failure (vi's `:cq`), gives an error and nothing is read back. The file is removed in every
/// case.
pub(crate) fn edit_with(editor: &Editor, text: &str) -> Result<String, String> {
    fn io(doing: &'static str) -> impl Fn(std::io::Error) -> String {
        move |e| format!("{doing}: {e}")
    }
    let mut builder = tempfile::Builder::new();
    builder.prefix("appdeck-edit-").suffix(".json");
    #[cfg(unix)]
    builder
        .permissions(<std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o600));
    let mut file = builder
        .tempfile()
        .map_err(io("cannot create a temp file for the editor"))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.flush())
        .map_err(io("cannot write the temp file for the editor"))?;
    // Closed before the editor runs; removed when `path` is dropped, whatever happens below.
    let path = file.into_temp_path();
    run(editor.open(&path), &path)?;
    read_back(&path)
}

/// What the editor left at `path`, read as a payload file is: a regular file of at most
/// [`MAX_PAYLOAD_BYTES`], in UTF-8. An editor that put a FIFO there hung the TUI until
/// something wrote to it (`q` and signals unheard), and one that wrote 70 MB had it kept whole
/// as a draft.
fn read_back(path: &Path) -> Result<String, String> {
    let cannot = |why: String| format!("cannot read back what the editor saved: {why}");
    let (bytes, _) =
        bounded_read::file(path, MAX_PAYLOAD_BYTES).map_err(|e| cannot(e.to_string()))?;
    String::from_utf8(bytes).map_err(|_| cannot("it is not UTF-8 text".to_owned()))
}

fn run(mut command: Command, path: &Path) -> Result<(), String> {
    let program = command.get_program().to_string_lossy().into_owned();
    let program = crate::sanitize::line(&program).into_owned();
    tracing::info!("running the editor {program} on {}", path.display());
    let status = command.status().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => {
            format!("the editor `{program}` was not found: set $VISUAL or $EDITOR")
        }
        _ => format!("the editor `{program}` could not start: {e}"),
    })?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "the editor `{program}` exited with {status}: nothing was read back"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(dir: &Path, body: &str) -> Editor {
        let path = dir.join("editor.sh");
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        let command = format!("sh {}", path.display());
        EditorBuilder::new().string(Some(command)).build().unwrap()
    }

    #[test]
    fn the_file_is_private_json_and_removed_and_its_new_text_comes_back() {
        let dir = tempfile::tempdir().unwrap();
        let seen = dir.path().join("seen");
        let editor = script(
            dir.path(),
            &format!(
                "stat -c '%a' \"$1\" > {seen}; echo \"$1\" >> {seen}; \
                 cat \"$1\" >> {seen}; printf 'edited' > \"$1\"",
                seen = seen.display()
            ),
        );
        assert_eq!(edit_with(&editor, "{\"a\": 1}").unwrap(), "edited");
        let seen = std::fs::read_to_string(&seen).unwrap();
        let mut lines = seen.lines();
        assert_eq!(lines.next(), Some("600"), "{seen}");
        let path = lines.next().unwrap();
        assert!(path.ends_with(".json"), "{path}");
        assert_eq!(lines.next(), Some("{\"a\": 1}"), "the editor got the text");
        assert!(!Path::new(path).exists(), "the temp file was removed");
    }

    #[test]
    fn an_editor_that_fails_or_is_missing_is_an_error_and_the_file_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let seen = dir.path().join("seen");
        let failing = script(
            dir.path(),
            &format!(
                "echo \"$1\" > {}; printf 'half' > \"$1\"; exit 3",
                seen.display()
            ),
        );
        let error = edit_with(&failing, "text").unwrap_err();
        assert!(error.contains("exited with"), "{error}");
        let path = std::fs::read_to_string(&seen).unwrap();
        assert!(!Path::new(path.trim()).exists(), "removed after a failure");
        let missing = EditorBuilder::new()
            .string(Some("/nonexistent/appdeck-editor --wait"))
            .build()
            .unwrap();
        let error = edit_with(&missing, "text").unwrap_err();
        assert!(error.contains("was not found"), "{error}");
    }

    /// Tester 2026-12-03d LOW 9: a FIFO left in the file's place is refused unread (reading it
    /// waited for a writer, with the TUI frozen), and so is a file past the payload cap.
    #[test]
    fn what_the_editor_leaves_is_read_back_only_as_a_bounded_regular_file() {
        let dir = tempfile::tempdir().unwrap();
        // A writer that gives up after a while: read as before, the FIFO gave its `x`.
        let fifo = script(
            dir.path(),
            "rm -f \"$1\"; mkfifo \"$1\"; (timeout 5 sh -c 'printf x > \"$0\"' \"$1\" &)",
        );
        let error = edit_with(&fifo, "text").unwrap_err();
        assert!(error.contains("not a regular file"), "{error}");
        let large = MAX_PAYLOAD_BYTES + 1;
        let huge = script(dir.path(), &format!("truncate -s {large} \"$1\""));
        let error = edit_with(&huge, "text").unwrap_err();
        assert!(
            error.starts_with("cannot read back what the editor saved"),
            "{error}"
        );
        let binary = script(dir.path(), "printf '\\377' > \"$1\"");
        let error = edit_with(&binary, "text").unwrap_err();
        assert!(error.contains("not UTF-8"), "{error}");
    }
}
