//! `:export PATH` as a pane sees it: the job (in the list's engine, `appdeck_listing`: the
//! file is written off the UI thread, where `update` never goes) and how far it got.

use crate::app::action::{Command, RequestId, RequestIds};
use crate::app::job::Work;
use crate::app::pane::{Ctx, Outcome};
use crate::sanitize;
use crate::text::count;
pub(crate) use appdeck_listing::{ExportItems as Items, ExportJob, Exported, Format};
use std::path::Path;

/// An export in flight, for the pane that started it: its job and how far it got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exporting {
    pub id: RequestId,
    /// As the user typed it, for the status bar.
    pub path: String,
    pub done: usize,
    pub total: usize,
    /// The detail's resource, not rows of a list: said as "the resource", not "1 row".
    pub one: bool,
    /// The list's marked rows: said as "3 marked rows", with how many marked rows were left
    /// out as gone from the service, and how many the filters hide.
    pub marked: Option<appdeck_listing::MarkedApart>,
    /// Exports asked for while this one ran, refused: named again when it ends, or the refusal
    /// would be lost behind its "wrote" (two `:export!` in one burst of keys).
    pub refused: Vec<String>,
    /// Asked while `L` loaded the list: the rows are those loaded by then, neither the rows
    /// shown once it ends nor the whole list, and "wrote" says so.
    pub while_loading_all: bool,
    /// Asked while `/` or `:where` still tested the rows: no job yet; it starts once they have
    /// all answered, and writes the rows they show then (`Some(overwrite)`).
    pub waiting: Option<bool>,
}

impl Exporting {
    /// Starts writing `items` to `path` (`overwrite`: `:export!`): the job's command, or why not
    /// (a format the path does not name).
    pub fn start(
        path: String,
        overwrite: bool,
        items: Items,
        ids: &mut RequestIds,
    ) -> Result<(Exporting, Command), String> {
        let format = Format::of(&path)?;
        let id = ids.issue();
        let (total, one, marked) = (items.count(), items.is_one(), items.marked());
        let job = Work::new(ExportJob {
            path: path.clone(),
            format,
            overwrite,
            items,
        });
        let exporting = Exporting {
            id,
            path,
            done: 0,
            total,
            one,
            marked,
            refused: Vec::new(),
            while_loading_all: false,
            waiting: None,
        };
        Ok((exporting, Command::Run { id, job }))
    }

    /// `:export PATH` while `/` or `:where` still tests the rows (`slot`: the pane's export in
    /// flight, empty): it waits for them, so that it writes the rows they show rather than
    /// those shown before (tester's MED 5), and says so; `Esc` cancels it.
    pub fn wait_in(slot: &mut Option<Exporting>, path: String, overwrite: bool, cx: &mut Ctx) {
        cx.info(format!(
            "export to {} waits for the query to finish; Esc cancels",
            sanitize::line(&path)
        ));
        *slot = Some(Exporting {
            id: cx.ids.issue(),
            path,
            done: 0,
            total: 0,
            one: false,
            marked: None,
            refused: Vec::new(),
            while_loading_all: false,
            waiting: Some(overwrite),
        });
    }

    /// The export waiting in `slot` for `query` (see [`Exporting::wait_in`]), taken once the
    /// query is complete: its path and whether to overwrite it, to start now.
    pub fn due(
        slot: &mut Option<Exporting>,
        query: &appdeck_listing::Query,
    ) -> Option<(String, bool)> {
        let asked = slot.take_if(|e| e.waits() && query.complete())?;
        Some((asked.path, asked.waiting == Some(true)))
    }

    /// Whether it waits for the query to finish (see [`Exporting::wait_in`]).
    pub fn waits(&self) -> bool {
        self.waiting.is_some()
    }

    /// [`Exporting::start`] for a pane whose export in flight is `slot`: the job's command, or
    /// the error said. The status bar says how far it is (its activity); a notice would keep
    /// the count at the start beside it.
    /// `asked`: the path, whether to overwrite it, and whether `L` still loads the rows.
    pub fn start_in(
        slot: &mut Option<Exporting>,
        asked: (String, bool, bool),
        items: Items,
        cx: &mut Ctx,
    ) -> Outcome {
        let (path, overwrite, while_loading_all) = asked;
        match Exporting::start(path, overwrite, items, cx.ids) {
            Ok((exporting, command)) => {
                *slot = Some(Exporting {
                    while_loading_all,
                    ..exporting
                });
                vec![command].into()
            }
            Err(problem) => {
                cx.error(problem);
                Outcome::done()
            }
        }
    }

    /// `:export PATH` while this export runs: refused, and named again when this one ends.
    pub(crate) fn refuse(&mut self, path: String, cx: &mut Ctx) {
        cx.error(format!(
            "already exporting to {}: Esc cancels it; {} not written",
            sanitize::line(&self.path),
            sanitize::line(&path)
        ));
        self.refused.push(path);
    }

    /// What the status bar says meanwhile.
    pub fn activity(&self) -> String {
        if self.waits() {
            let path = sanitize::line(&self.path);
            return format!("export to {path} waits for the query to finish… Esc cancels");
        }
        let what = match self.one {
            true => "the resource".to_owned(),
            false => format!("{}/{}", count(self.done), count(self.total)),
        };
        format!(
            "exporting {what} to {}… Esc cancels",
            sanitize::line(&self.path)
        )
    }

    /// The notice for how it ended: `Ok` news, `Err` an error; with the exports refused
    /// meanwhile named.
    pub fn outcome(&self, exported: Exported) -> Result<String, String> {
        let refused = match self.refused.as_slice() {
            [] => String::new(),
            paths => {
                let paths: Vec<_> = paths.iter().map(|p| sanitize::line(p)).collect();
                format!("; not written (asked while it ran): {}", paths.join(", "))
            }
        };
        match self.ended(exported) {
            Ok(said) => Ok(said + &refused),
            Err(said) => Err(said + &refused),
        }
    }

    fn ended(&self, exported: Exported) -> Result<String, String> {
        let shown = |path: &Path| sanitize::line(&path.display().to_string()).into_owned();
        match exported {
            Exported::Written {
                rows,
                path,
                replaced,
            } => {
                let what = match (self.one, self.marked) {
                    (true, _) => "the resource".to_owned(),
                    (false, Some(_)) => crate::text::counted(rows, "marked row"),
                    (false, None) => crate::text::counted(rows, "row"),
                };
                let gone = left_out(self.marked.unwrap_or_default());
                let partial = match self.while_loading_all {
                    true => " (the rows loaded when asked: L was still loading)",
                    false => "",
                };
                // As `list -o csv` says it on stderr.
                let replaced = match replaced {
                    0 => String::new(),
                    n => format!(
                        "; {} with control characters or bidi marks written as \u{fffd} \
                         (.ndjson keeps the exact text)",
                        crate::text::counted(n as usize, "cell")
                    ),
                };
                Ok(format!(
                    "wrote {what} to {}{partial}{gone}{replaced}",
                    shown(&path)
                ))
            }
            Exported::Exists(path) => Err(format!(
                "{} exists: :export! {} replaces it",
                shown(&path),
                sanitize::line(&self.path)
            )),
            Exported::Cancelled => Ok(format!(
                "export cancelled: {} not written",
                sanitize::line(&self.path)
            )),
            Exported::Failed(why) => Err(format!(
                "cannot export to {}: {}",
                sanitize::line(&self.path),
                sanitize::line(&why)
            )),
        }
    }
}

/// What `y`, `:export` and `R` add when they left marked rows out as gone from the service
/// (` (1 gone from the service, left out)`), and when the filters hide some of those they took
/// (` (2 hidden by the filter)`), else nothing.
pub(crate) fn left_out(apart: appdeck_listing::MarkedApart) -> String {
    let gone = match apart.gone {
        0 => String::new(),
        gone => format!(" ({gone} gone from the service, left out)"),
    };
    match apart.hidden {
        0 => gone,
        hidden => format!("{gone} ({} hidden by the filter)", count(hidden)),
    }
}

/// What `y`, `:export` and `R` say when every marked row is one a look found gone.
pub(crate) fn all_gone(apart: appdeck_listing::MarkedApart, so: &str) -> String {
    let marked = crate::text::counted(apart.gone, "marked resource");
    format!("{marked} gone from the service (marked x): {so}")
}
