//! Which loaded rows the list shows: the status filter (instant, from the row), the `/` search
//! over every field and the `:where` expression (each a [`Narrowing`], answered by jobs over the
//! rows' JSON). `visible` is the rows that pass all three, in the order of the rows.

use super::Browser;
use crate::app::action::{Command, RequestId, RequestIds};
use crate::jq::Program;
use crate::sanitize;
use appdeck_listing::Bodies;
use appdeck_listing::JobRows;
use appdeck_listing::Needle;
use appdeck_listing::Rows;
use appdeck_listing::Shown;
use appdeck_listing::{Answered, Narrowing, RowSet, Test, Tested};

/// A `:where` applied to the list: the expression as typed, and its rows.
#[derive(Clone, Debug)]
pub struct Where {
    pub expr: String,
    pub narrowing: Narrowing,
}

/// The query that was in effect when a new one started (`/` text or `:where`), kept until the
/// new one answers so that `Esc` meanwhile goes back to it rather than to no query at all.
#[derive(Clone, Debug, Default)]
pub struct Before {
    /// The `/` text and its answered search; `None`: there was no search.
    pub search: Option<Option<(String, Narrowing)>>,
    /// The `:where` answered; `None`: none was kept (no `:where` is running).
    pub where_: Option<Option<Where>>,
    /// How many rows they had tested: rows that came since are tested when one comes back.
    pub rows: usize,
}

impl Before {
    /// What to keep of the query `current` as a new one replaces it: itself when it had
    /// answered; when it was still running, what was kept before it (`kept`), as that is
    /// what the screen still shows.
    fn keep<T>(current: Option<(&Narrowing, T)>, kept: Option<Option<T>>) -> Option<Option<T>> {
        match current {
            None => Some(None),
            Some((narrowing, query)) if narrowing.complete() => Some(Some(query)),
            Some(_) => kept,
        }
    }
}

impl Browser {
    /// The `/` text changed: a new search over every field (none when the text is empty). While
    /// its job runs, the rows shown before stay ([`Narrowing::start`]): the list is worked out
    /// again when it answers, not on each key (a walk over every row).
    pub(crate) fn search_changed(&mut self, ids: &mut RequestIds, height: usize) -> Vec<Command> {
        let mut commands = Vec::new();
        let needle = match Needle::parse(self.filter.text()) {
            Ok(needle) => needle,
            Err(problem) => {
                // The search before stays until the text is a pattern again.
                self.search_problem = Some(problem);
                return commands;
            }
        };
        self.search_problem = None;
        let current = (self.search.as_ref()).map(|s| (s, (self.searched.clone(), s.clone())));
        self.before.search = Before::keep(current, self.before.search.take());
        self.before.rows = self.rows().len();
        self.searched = self.filter.text().to_owned();
        let before = self.search.take();
        match needle {
            Some(needle) => {
                let test = Test::Search(needle.into());
                let rows = self.all_bodies();
                let search = Narrowing::start(test, before, rows, ids, &mut commands);
                let running = search.working().is_some();
                self.search = Some(search);
                if running {
                    return commands;
                }
            }
            None => commands.extend(before.iter().flat_map(Narrowing::cancel)),
        }
        self.refresh_visible(height);
        commands
    }

    /// `:where EXPR` keeps the rows for which it is true; `:where` alone clears it. A wrong
    /// expression changes nothing: the error says what and where.
    pub(crate) fn set_where(
        &mut self,
        expr: Option<String>,
        ids: &mut RequestIds,
        height: usize,
    ) -> Result<Vec<Command>, String> {
        let mut commands = Vec::new();
        let Some(expr) = expr else {
            let before = self.where_.take();
            commands.extend(before.iter().flat_map(|w| w.narrowing.cancel()));
            self.refresh_visible(height);
            return Ok(commands);
        };
        let program = Program::compile(&expr).map_err(|said| {
            let what = match said.is_empty() {
                true => "it does not compile".to_owned(),
                false => said.join("; "),
            };
            // The expression cut: one pasted in may be thousands of characters long.
            format!(
                "where {}: not a valid jq expression: {what}",
                sanitize::excerpt(expr.as_bytes(), 80)
            )
        })?;
        let current = (self.where_.as_ref()).map(|w| (&w.narrowing, w.clone()));
        self.before.where_ = Before::keep(current, self.before.where_.take());
        self.before.rows = self.rows().len();
        let before = self.where_.take().map(|w| w.narrowing);
        let rows = self.all_bodies();
        let test = Test::Where(program.into());
        let narrowing = Narrowing::start(test, before, rows, ids, &mut commands);
        // As for `/`: the rows shown stay until its job answers.
        let running = narrowing.working().is_some();
        self.where_ = Some(Where { expr, narrowing });
        if !running {
            self.refresh_visible(height);
        }
        Ok(commands)
    }

    /// `Esc` while a `/` or `:where` is running: back to the query in effect before it, with
    /// the rows it let through (rows that came since are tested by it). Returns what to say and
    /// the commands (the running jobs cancelled, the new rows' tests); `None` when nothing runs.
    pub(crate) fn restore_before(
        &mut self,
        ids: &mut RequestIds,
        height: usize,
    ) -> Option<(String, Vec<Command>)> {
        let running = |n: &Narrowing| !n.answered();
        let mut commands = Vec::new();
        let said;
        if self.where_.as_ref().is_some_and(|w| running(&w.narrowing)) {
            let cancelled = self.where_.take()?;
            commands.extend(cancelled.narrowing.cancel());
            let kept = self.before.where_.take().flatten();
            said = match &kept {
                Some(w) => format!(":where cancelled: still where {}", sanitize::line(&w.expr)),
                None => ":where cancelled".to_owned(),
            };
            self.where_ = kept.map(|mut w| {
                w.narrowing.forget_jobs();
                w
            });
        } else if self.search.as_ref().is_some_and(running) {
            let cancelled = self.search.take()?;
            commands.extend(cancelled.cancel());
            let kept = self.before.search.take().flatten();
            said = match &kept {
                Some((text, _)) => format!("search cancelled: still /{}", sanitize::line(text)),
                None => "search cancelled".to_owned(),
            };
            let (text, search) = kept.unzip();
            self.filter.set(text.as_deref().unwrap_or(""));
            self.searched = text.unwrap_or_default();
            self.search = search.map(|mut n| {
                n.forget_jobs();
                n
            });
        } else {
            return None;
        }
        let tested = std::mem::take(&mut self.before.rows);
        commands.extend(self.test_new_rows(tested.min(self.rows().len()), ids));
        self.refresh_visible(height);
        Some((said, commands))
    }

    /// The queries applied, `/` then `:where`.
    fn narrowings_mut(&mut self) -> impl Iterator<Item = &mut Narrowing> {
        let search = self.search.as_mut();
        search
            .into_iter()
            .chain(self.where_.as_mut().map(|w| &mut w.narrowing))
    }

    pub(super) fn narrowings(&self) -> impl Iterator<Item = &Narrowing> {
        let search = self.search.as_ref();
        search
            .into_iter()
            .chain(self.where_.as_ref().map(|w| &w.narrowing))
    }

    /// Whether every query applied has answered over the rows loaded: until then the rows
    /// shown (and their count) are those of the queries before.
    pub(crate) fn queries_answered(&self) -> bool {
        self.narrowings().all(Narrowing::answered)
    }

    /// Whether a query that reads the rows' JSON is applied (then pages are not fetched just to
    /// fill the screen: the whole listing could be dragged in for a few matches).
    pub(crate) fn narrowed(&self) -> bool {
        self.narrowings().next().is_some()
    }

    /// The rows loaded and their bodies, for a job; `None` before the first page.
    fn all_bodies(&self) -> Option<(&Bodies, &Rows)> {
        let listing = self.listing.loaded()?;
        Some((&listing.bodies, &listing.rows))
    }

    /// Rows from `first` on arrived: each query tests them in a job of its own.
    pub(super) fn test_new_rows(&mut self, first: usize, ids: &mut RequestIds) -> Vec<Command> {
        if !self.narrowed() {
            return Vec::new();
        }
        let Some(listing) = self.listing.loaded() else {
            return Vec::new();
        };
        let bodies = listing.bodies.clone();
        let picked = JobRows::pick(&listing.rows, first, None);
        self.narrowings_mut()
            .filter_map(|n| n.test_rows(&bodies, picked.clone(), ids))
            .collect()
    }

    /// The rows were replaced (the gone rows taken out): each query tests them all again.
    pub(super) fn retest_all(&mut self, ids: &mut RequestIds) -> Vec<Command> {
        let mut commands: Vec<Command> = self
            .narrowings_mut()
            .flat_map(|n| n.rows_replaced())
            .collect();
        commands.extend(self.test_new_rows(0, ids));
        commands
    }

    /// The rows were replaced by a reload's, which `tested` (queries started on them, see
    /// `reload.rs`) tested: each query applied takes the answers of the same query over them; a
    /// query changed since tests them all again. Returns the commands (cancels, jobs) and
    /// whether some query tests them again.
    pub(super) fn take_tests(
        &mut self,
        mut tested: Vec<Narrowing>,
        ids: &mut RequestIds,
    ) -> (Vec<Command>, bool) {
        let mut commands = Vec::new();
        let mut again = Vec::new();
        for mine in self.narrowings_mut() {
            commands.extend(mine.rows_replaced());
            match tested.iter().position(|t| t.test.is(&mine.test)) {
                Some(at) => *mine = tested.swap_remove(at),
                None => again.push(mine.test.clone()),
            }
        }
        commands.extend(tested.iter().flat_map(Narrowing::cancel));
        let Some(listing) = self.listing.loaded() else {
            return (commands, !again.is_empty());
        };
        let (bodies, picked) = (
            listing.bodies.clone(),
            JobRows::pick(&listing.rows, 0, None),
        );
        let retesting = !again.is_empty();
        for mine in self.narrowings_mut() {
            if again.iter().any(|test| test.is(&mine.test)) {
                commands.extend(mine.test_rows(&bodies, picked.clone(), ids));
            }
        }
        (commands, retesting)
    }

    /// The listing starts over: the queries' jobs are cancelled and what they found dropped.
    pub(super) fn forget_tested_rows(&mut self) -> Vec<Command> {
        self.narrowings_mut()
            .flat_map(|n| n.rows_replaced())
            .collect()
    }

    /// Whether the row at `index` passes the status filter, `/` and `:where`.
    pub(crate) fn passes(&self, index: usize) -> bool {
        let Some(row) = self.rows().get(index) else {
            return false;
        };
        if let Some(status) = &self.status_filter
            && row.status() != Some(status.as_str())
        {
            return false;
        }
        if let Some(type_) = &self.type_shown
            && row.resource_type() != Some(type_.as_str())
        {
            return false;
        }
        self.narrowings().all(|n| n.passes(index))
    }

    /// The rows that pass the queries and the status filter, in the order of the rows (the
    /// queries' sets first, a word of rows at a time: this runs on the UI thread for every
    /// answer, over as many as a million rows).
    fn passing_rows(&self) -> Shown {
        let sets: Vec<&RowSet> = self.narrowings().filter_map(Narrowing::passing).collect();
        let rows = self.rows();
        let status = self.status_filter.as_deref();
        let type_ = self.type_shown.as_deref();
        RowSet::in_all(&sets, rows.len(), |i| {
            let row = rows.at(i);
            status.is_none_or(|status| row.status() == Some(status))
                && type_.is_none_or(|type_| row.resource_type() == Some(type_))
        })
    }

    /// What to show beside the row at `index`: the field `/` found it by, if no column shows it.
    pub(crate) fn note(&self, index: usize) -> Option<&str> {
        self.search.as_ref()?.note(index)
    }

    /// Recomputes which rows are shown after a query changed or answered; the cursor stays on
    /// its row while that row is shown, or goes to the resource a reload is looking for
    /// ([`Browser::reselect`]) once it shows.
    pub(crate) fn refresh_visible(&mut self, height: usize) {
        let selected_row = self.visible.get(self.cursor.selected);
        self.visible = self.passing_rows();
        let rows = self.rows();
        let wanted = self.reselect.as_deref().and_then(|id| {
            self.visible
                .iter()
                .position(|i| rows.at(i).id().as_deref() == Some(id))
        });
        let index = match wanted {
            Some(at) => {
                self.reselect = None;
                at
            }
            None => selected_row
                .and_then(|row| self.visible.position(row))
                .unwrap_or(0),
        };
        self.cursor.select(index, self.visible.len(), height);
        self.arrange_visible(height);
    }

    /// Whether `id` is a job of the queries applied.
    pub(crate) fn tests(&self, id: RequestId) -> bool {
        self.narrowings().any(|n| n.owns(id))
    }

    pub(crate) fn on_test_progress(&mut self, id: RequestId, done: u64, total: u64) {
        for narrowing in self.narrowings_mut() {
            narrowing.on_progress(id, done, total);
        }
    }

    /// A query's job answered: its rows are shown or hidden, and a search that found them
    /// without naming their fields names them in a job of its own. When some rows could not be
    /// read, or a `:where` failed on some (they are left out): what to say. The answer of a job
    /// no query owns any more (a stale one) changes nothing.
    pub(crate) fn on_tested(
        &mut self,
        id: RequestId,
        mut tested: Tested,
        height: usize,
        ids: &mut RequestIds,
    ) -> (Option<String>, Vec<Command>) {
        let answered = self
            .narrowings_mut()
            .find_map(|n| n.on_tested(id, &mut tested));
        match answered {
            None => return (None, Vec::new()),
            Some(Answered::Rows) => self.refresh_visible(height),
            Some(Answered::Notes) => {}
        }
        let naming = match (self.listing.loaded(), self.search.as_mut()) {
            (Some(listing), Some(search)) => search.name_fields(&listing.bodies, ids),
            _ => None,
        };
        let said = match (&tested.unreadable, &tested.stopped, &tested.first_failure) {
            (Some(error), _, _) => Some(format!(
                "some rows could not be read, they are left out: {}",
                sanitize::line(error)
            )),
            (None, Some(why), _) => Some(format!(
                "where stopped: {}; {} not tested, left out",
                sanitize::line(why),
                crate::text::counted(tested.untested, "row"),
            )),
            (None, None, Some(failure)) => Some(format!(
                "where failed on {}, left out: {}",
                crate::text::counted(tested.failed, "row"),
                sanitize::line(failure)
            )),
            (None, None, None) => None,
        };
        (said, naming.into_iter().collect())
    }

    /// How far the queries' jobs are, for the status bar.
    pub(crate) fn testing(&self) -> Option<String> {
        let (done, total) = self.narrowings().filter_map(Narrowing::working).fold(
            None,
            |sum: Option<(u64, u64)>, (d, t)| {
                let (sd, st) = sum.unwrap_or_default();
                Some((sd + d, st + t))
            },
        )?;
        let what = match (&self.search, &self.where_) {
            (Some(s), _) if s.working().is_some() => "searching every field",
            _ => "testing :where",
        };
        Some(match total {
            0 => format!("{what}…"),
            _ => format!("{what}… {}%", done * 100 / total),
        })
    }
}
