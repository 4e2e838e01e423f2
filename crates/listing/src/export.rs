//! `:export PATH`: what a pane shows written to a file, off the UI thread. `.ndjson` and `.json`
//! hold each resource as the list keeps it (its JSON text as the service sent it), through the
//! writer `appdeck list -o` uses: the same bytes as `list`, however the service lays its JSON
//! out (in the detail, `.json` is the resource itself, not an array of one); `.csv` the columns
//! and cells `appdeck list -o csv` writes (the list's, with the id, the name and the display
//! name apart), less those `:columns` removed and with those it added. The file is written under a temporary name beside it
//! and renamed at the end: a cancelled or failed export leaves nothing, and an existing file is
//! replaced only under `:export!`.

use crate::bodies::{Bodies, BodyId};
use crate::job::{Job, Progress};
use crate::out::columns;
use crate::out::delimited::{Delimiter, Records};
use crate::out::items::RawItems;
use crate::sanitize;
use appdeck_core::user_path::expand_home;
use std::io::{BufWriter, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// The file formats, by the path's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Csv,
    Json,
    Ndjson,
}

impl Format {
    /// The format `path` names by its extension (`.jsonl` is ndjson too).
    pub fn of(path: &str) -> Result<Format, String> {
        let extension = Path::new(path)
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("csv") => Ok(Format::Csv),
            Some("json") => Ok(Format::Json),
            Some("ndjson" | "jsonl") => Ok(Format::Ndjson),
            _ => Err(format!(
                "cannot tell the format of {}: name a .csv, .json or .ndjson file",
                sanitize::line(path)
            )),
        }
    }
}

/// The items to write, in the order shown, as JSON text (as the service sent it).
#[derive(Debug)]
pub enum ExportItems {
    /// The rows of a list: their bodies, read off the UI thread, and the columns a `.csv` has
    /// ([`crate::ColumnChoice::export_columns`]).
    Rows {
        bodies: Bodies,
        ids: Vec<BodyId>,
        columns: Vec<columns::ColumnPath>,
        /// They are the list's marked rows, less those a `:watch` look found gone, some maybe
        /// hidden by the filters.
        marked: Option<crate::MarkedApart>,
    },
    /// One resource (the detail view).
    One(String),
}

impl ExportItems {
    /// Whether this is one resource (the detail's), said as such rather than counted in rows.
    pub fn is_one(&self) -> bool {
        matches!(self, ExportItems::One(_))
    }

    /// When the rows are the list's marked ones, those said apart: gone, hidden.
    pub fn marked(&self) -> Option<crate::MarkedApart> {
        match self {
            ExportItems::Rows { marked, .. } => *marked,
            ExportItems::One(_) => None,
        }
    }

    /// How many items there are to write.
    pub fn count(&self) -> usize {
        match self {
            ExportItems::Rows { ids, .. } => ids.len(),
            ExportItems::One(_) => 1,
        }
    }

    /// Calls `each` with every item's JSON in order, until it says stop.
    fn each(&self, mut each: impl FnMut(usize, &str) -> ControlFlow<()>) -> std::io::Result<()> {
        match self {
            ExportItems::Rows { bodies, ids, .. } => bodies
                .scan(ids, each)
                .map_err(|e| std::io::Error::other(e.to_string())),
            ExportItems::One(json) => {
                let _ = each(0, json);
                Ok(())
            }
        }
    }
}

/// Writes [`ExportItems`] to a file.
#[derive(Debug)]
pub struct ExportJob {
    /// As the user typed it (`~` not yet expanded).
    pub path: String,
    pub format: Format,
    /// `:export!`: replace a file that is there.
    pub overwrite: bool,
    pub items: ExportItems,
}

/// How an export ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Exported {
    /// `rows` written to `path` (absolute); `replaced`: csv cells whose control characters or
    /// bidi marks were written as U+FFFD (as `list -o csv` writes them).
    Written {
        rows: usize,
        path: PathBuf,
        replaced: u64,
    },
    /// `path` is there and `:export!` was not used.
    Exists(PathBuf),
    /// Esc: nothing was written.
    Cancelled,
    /// The file could not be written (why, in words).
    Failed(String),
}

impl Job for ExportJob {
    type Output = Exported;

    fn run(&self, progress: &Progress) -> Exported {
        let path = match expand_home(&self.path) {
            Ok(path) => path,
            Err(why) => return Exported::Failed(why),
        };
        let path = std::path::absolute(&path).unwrap_or(path);
        if !self.overwrite && path.exists() {
            return Exported::Exists(path);
        }
        match self.write(&path, progress) {
            Ok(Some((rows, replaced))) => Exported::Written {
                rows,
                path,
                replaced,
            },
            Ok(None) => Exported::Cancelled,
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
                Exported::Exists(path)
            }
            Err(error) => Exported::Failed(error.to_string()),
        }
    }
}

impl ExportJob {
    /// Writes to a temporary file beside `path`, renamed to it once whole; `None` when
    /// cancelled (the temporary file is removed when dropped).
    fn write(&self, path: &Path, progress: &Progress) -> std::io::Result<Option<(usize, u64)>> {
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let mut builder = tempfile::Builder::new();
        builder.prefix(".appdeck-export-");
        #[cfg(unix)]
        {
            // As any new file: the umask decides, not the temporary file's 0600.
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let temp = builder.tempfile_in(dir)?;
        let _unfinished = UNFINISHED.register(temp.path())?;
        let mut out = BufWriter::with_capacity(1 << 20, temp.as_file());
        let mut replaced = 0;
        let whole = match self.format {
            Format::Ndjson | Format::Json => {
                let mut items = match (self.format, &self.items) {
                    // One resource (the detail's) is the object itself, not an array of one:
                    // the line `.ndjson` writes.
                    (Format::Json, ExportItems::Rows { .. }) => RawItems::json(),
                    _ => RawItems::ndjson(),
                };
                let whole =
                    self.write_each(progress, |json| items.write(json.as_bytes(), &mut out))?;
                items.finish(&mut out)?;
                whole
            }
            Format::Csv => {
                // The columns `list -o csv` writes (as `--columns` would have them, after
                // `:columns`), each cell as it does: the same file.
                let columns = match &self.items {
                    ExportItems::Rows { columns, .. } => columns.clone(),
                    ExportItems::One(_) => columns::default_columns(),
                };
                let mut records = Records::new(Delimiter::Comma, false);
                let header: Vec<&str> = columns.iter().map(|c| c.text.as_str()).collect();
                records.write(&header, &mut out)?;
                let whole = self.write_each(progress, |json| {
                    let cells = columns::cells_of_item(&columns, json.as_bytes()).cells;
                    records.write(&cells, &mut out)
                })?;
                replaced = records.replaced();
                whole
            }
        };
        if !whole {
            return Ok(None);
        }
        out.flush()?;
        drop(out);
        temp.as_file().sync_all()?;
        if progress.cancelled() {
            return Ok(None);
        }
        if self.overwrite {
            temp.persist(path).map_err(|e| e.error)?;
        } else {
            temp.persist_noclobber(path).map_err(|e| e.error)?;
        }
        let total = self.items.count();
        progress.set(total as u64, total as u64);
        Ok(Some((total, replaced)))
    }

    /// Writes each item with `write_one`, saying how far it got; `Ok(false)` when cancelled.
    fn write_each(
        &self,
        progress: &Progress,
        mut write_one: impl FnMut(&str) -> std::io::Result<()>,
    ) -> std::io::Result<bool> {
        let total = self.items.count() as u64;
        let (mut failed, mut cancelled) = (None, false);
        self.items.each(|position, json| {
            if position % 1024 == 0 {
                progress.set(position as u64, total);
                if progress.cancelled() {
                    cancelled = true;
                    return ControlFlow::Break(());
                }
            }
            match write_one(json) {
                Ok(()) => ControlFlow::Continue(()),
                Err(error) => {
                    failed = Some(error);
                    ControlFlow::Break(())
                }
            }
        })?;
        match failed {
            Some(error) => Err(error),
            None => Ok(!cancelled),
        }
    }
}

/// The temporary files of the exports under way. A job removes its own when it ends (the
/// file renamed, or dropped); but `q` or a signal ends the process without waiting for a job on
/// its thread, so the runtime removes what is left here as it closes ([`remove_unfinished`]).
static UNFINISHED: ExportFiles = ExportFiles::new();

/// Removes the temporary files of the exports still under way, and lets no other start: the TUI
/// is closing (`q`, a signal), and their jobs will not finish. Returns how many were removed.
pub fn remove_unfinished() -> usize {
    UNFINISHED.remove_all()
}

/// Temporary files of exports, each listed for as long as its [`Unfinished`] lives.
struct ExportFiles {
    files: std::sync::Mutex<Vec<PathBuf>>,
    /// Set by [`ExportFiles::remove_all`]: an export that would start after it starts no file.
    closing: std::sync::atomic::AtomicBool,
}

impl ExportFiles {
    const fn new() -> Self {
        ExportFiles {
            files: std::sync::Mutex::new(Vec::new()),
            closing: std::sync::atomic::AtomicBool::new(false),
        }
    }

    fn files(&self) -> std::sync::MutexGuard<'_, Vec<PathBuf>> {
        self.files
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn register(&self, path: &Path) -> std::io::Result<Unfinished<'_>> {
        let mut files = self.files();
        if self.closing.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(std::io::Error::other("appdeck is closing"));
        }
        files.push(path.to_owned());
        Ok(Unfinished {
            list: self,
            path: path.to_owned(),
        })
    }

    fn remove_all(&self) -> usize {
        let mut files = self.files();
        self.closing
            .store(true, std::sync::atomic::Ordering::SeqCst);
        files
            .drain(..)
            .filter(|path| std::fs::remove_file(path).is_ok())
            .count()
    }
}

/// One export's temporary file, listed while this lives.
struct Unfinished<'a> {
    list: &'a ExportFiles,
    path: PathBuf,
}

impl Drop for Unfinished<'_> {
    fn drop(&mut self) {
        self.list.files().retain(|p| p != &self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    fn job(path: &Path, overwrite: bool, items: &[&str]) -> ExportJob {
        let path = path.display().to_string();
        let bodies = Bodies::default();
        let ids = items.iter().map(|s| bodies.push(s)).collect();
        ExportJob {
            format: Format::of(&path).unwrap(),
            path,
            overwrite,
            items: ExportItems::Rows {
                bodies,
                ids,
                columns: columns::default_columns(),
                marked: None,
            },
        }
    }

    const ITEMS: [&str; 3] = [
        r#"{"id":"a","type":"repo","name":"x, \"quoted\"","n":1E400}"#,
        r#"{"id":"b","name":"bee","display_name":"Bee","updated_at":"2026-11-20T10:00:00Z"}"#,
        r#""not a resource""#,
    ];

    /// `.csv` has the columns and cells of `list -o csv`: the name and the display name apart
    /// (an audit found the display name headed `name`, and the name itself left out).
    #[test]
    fn writes_ndjson_json_and_csv() {
        let dir = tempfile::tempdir().unwrap();
        let out = |name: &str| {
            let path = dir.path().join(name);
            let done = job(&path, false, &ITEMS).run(&Progress::detached());
            assert_eq!(
                done,
                Exported::Written {
                    rows: 3,
                    path: path.clone(),
                    replaced: 0,
                }
            );
            std::fs::read_to_string(&path).unwrap()
        };
        assert_eq!(out("a.ndjson"), format!("{}\n", ITEMS.join("\n")));
        assert_eq!(out("a.json"), format!("[\n  {}\n]\n", ITEMS.join(",\n  ")));
        assert_eq!(
            out("a.CSV"),
            "type,id,name,display_name,status,external_id,updated_at\n\
             repo,a,\"x, \"\"quoted\"\"\",,,,\n\
             ,b,bee,Bee,,,2026-11-20T10:00:00Z\n\
             ,,,,,,\n"
        );
        let leftovers = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(leftovers, 3, "no temporary file is left");
    }

    /// `.csv` writes a cell as `list -o csv` does: a number as the service wrote it (not
    /// `1.0e+2`), a control character or bidi mark as U+FFFD (counted, for the status bar to
    /// say), and of a malformed item what a scan finds: its id.
    #[test]
    fn csv_cells_are_the_items_own_text_made_safe() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("odd.csv");
        let deep = format!(
            r#"{{"id":"deep","x":{}1{}}}"#,
            "[".repeat(130),
            "]".repeat(130)
        );
        let items = [
            r#"{"id":"e","name":"a\u001b]52;c;aGk=\u0007b","n":1.0e2}"#,
            "{\"id\":\"c1\",\"name\":\"x\u{9b}31m\u{202e}y\",\"n\":1E400}",
            r#"{"id":"s","name":"\ud800","n":-0}"#,
            &deep,
        ];
        let mut export = job(&path, false, &items);
        if let ExportItems::Rows { columns, .. } = &mut export.items {
            *columns = columns::parse("id,name,n").unwrap();
        }
        assert_eq!(
            export.run(&Progress::detached()),
            Exported::Written {
                rows: 4,
                path: path.clone(),
                replaced: 2,
            }
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "id,name,n\n\
             e,a\u{fffd}]52;c;aGk=\u{fffd}b,1.0e2\n\
             c1,x\u{fffd}31m\u{fffd}y,1E400\n\
             s,,-0\n\
             deep,,\n"
        );
    }

    #[test]
    fn an_existing_file_is_kept_unless_overwrite() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.ndjson");
        std::fs::write(&path, "mine").unwrap();
        let refused = job(&path, false, &ITEMS).run(&Progress::detached());
        assert_eq!(refused, Exported::Exists(path.clone()));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine");
        let replaced = job(&path, true, &ITEMS[..1]).run(&Progress::detached());
        assert_eq!(
            replaced,
            Exported::Written {
                rows: 1,
                path: path.clone(),
                replaced: 0,
            }
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{}\n", ITEMS[0])
        );
    }

    #[test]
    fn a_cancelled_export_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.ndjson");
        let cancel = Arc::new(AtomicBool::new(true));
        let progress = Progress::new(|_, _| {}, cancel);
        assert_eq!(
            job(&path, false, &ITEMS).run(&progress),
            Exported::Cancelled
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    /// `q` or a signal ends the process while an export's job still writes: what the runtime
    /// does as it closes removes the hidden file, and no export starts one after that.
    #[test]
    fn closing_removes_the_files_of_exports_still_under_way() {
        let dir = tempfile::tempdir().unwrap();
        let files = ExportFiles::new();
        let temp = tempfile::Builder::new()
            .prefix(".appdeck-export-")
            .tempfile_in(dir.path())
            .unwrap();
        let done = files.register(temp.path()).unwrap();
        drop(done);
        // Still being written: its job holds it.
        let writing = files.register(temp.path()).unwrap();
        assert!(temp.path().exists());
        assert_eq!(files.remove_all(), 1);
        assert!(!temp.path().exists(), "removed as the TUI closes");
        let refused = files.register(&dir.path().join(".appdeck-export-later"));
        assert!(refused.is_err(), "no export starts a file once closing");
        drop(writing);
        drop(temp);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_missing_directory_is_said() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no/such/x.csv");
        let Exported::Failed(why) = job(&path, false, &ITEMS).run(&Progress::detached()) else {
            panic!("a failure")
        };
        assert!(why.contains("No such file"), "{why}");
    }

    #[test]
    fn the_format_is_the_extension() {
        assert_eq!(Format::of("a/b.JSONL"), Ok(Format::Ndjson));
        assert!(
            Format::of("rows.txt")
                .unwrap_err()
                .contains(".csv, .json or .ndjson")
        );
        assert!(Format::of("rows").is_err());
    }
}
