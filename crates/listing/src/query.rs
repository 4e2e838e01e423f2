//! Which loaded rows a list shows: the status and type picked in the overview (instant, from the
//! row), the `/` search over every field and the `:where` expression (each a [`Narrowing`],
//! answered by jobs over the rows' JSON), and the queries in effect before the ones running, for
//! `Esc`. The pane keeps the cursor and the `/` input; the query is the engine's.

use crate::JobCommand;
use crate::bodies::Bodies;
use crate::field_search::Needle;
use crate::job::{RequestId, RequestIds};
use crate::job_rows::JobRows;
use crate::jq::Program;
use crate::narrowing::{Answered, Narrowing, RowSet, Test, Tested};
use crate::rows::Rows;
use crate::sanitize;
use crate::shown::Shown;

/// The rows loaded and their bodies, for a job; `None` before the first page.
pub type LoadedRows<'a> = Option<(&'a Bodies, &'a Rows)>;

/// A `:where` applied to the list: the expression as typed, and its rows.
#[derive(Clone, Debug)]
pub struct Where {
    pub expr: String,
    pub narrowing: Narrowing,
}

/// The query that was in effect when a new one started (`/` text or `:where`), kept until the
/// new one answers so that `Esc` meanwhile goes back to it rather than to no query at all.
#[derive(Clone, Debug, Default)]
struct Before {
    /// The `/` text and its answered search; `None`: there was no search.
    search: Option<Option<(String, Narrowing)>>,
    /// The `:where` answered; `None`: none was kept (no `:where` is running).
    where_: Option<Option<Where>>,
    /// How many rows they had tested: rows that came since are tested when one comes back.
    rows: usize,
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

/// What `Esc` on a running query went back to ([`Query::restore_before`]).
#[derive(Debug)]
pub struct Restored {
    /// What to tell the user.
    pub said: String,
    /// The `/` search went back (the `/` input then shows [`Query::searched`]).
    pub search: bool,
    /// How many rows the queries gone back to had tested.
    pub tested: usize,
}

/// The rows a list opened from one of the overview's charts shows: of a status, or of a type
/// ([`TypeShown`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StatusShown {
    /// Rows of this status (type).
    Is(String),
    /// Rows without a status (type): none, or one that is not a string, which the chart counts
    /// too ([`crate::LoadedSummary::no_status`], `no_type`): its bars add up to the rows loaded.
    Missing,
}

/// The rows of a type a list opened from the overview's type chart shows: the same choice as a
/// status's, and named the same way.
pub type TypeShown = StatusShown;

impl StatusShown {
    /// Whether a row of `status` is shown.
    pub fn passes(&self, status: Option<&str>) -> bool {
        match self {
            StatusShown::Is(shown) => status == Some(shown.as_str()),
            StatusShown::Missing => status.is_none(),
        }
    }

    /// How the chart, the list's title and its notice name it ([`status_label`]).
    pub fn label(&self) -> &str {
        status_label(match self {
            StatusShown::Is(status) => Some(status),
            StatusShown::Missing => None,
        })
    }
}

/// How a status is named on screen: an empty one as `""`, where it was a blank, and the rows
/// without one as `(none)`.
pub fn status_label(status: Option<&str>) -> &str {
    match status {
        Some("") => "\"\"",
        Some(status) => status,
        None => "(none)",
    }
}

/// The query over a listing's rows, beyond the type the service was asked for.
#[derive(Clone, Debug, Default)]
pub struct Query {
    /// Only rows of this status pass (a list opened from the overview's status chart): the
    /// service lists by type only, so this is a filter over the loaded rows, like `/`.
    pub status: Option<StatusShown>,
    /// Only rows of this type pass: a list opened from the overview's type chart, filtering the
    /// rows loaded rather than asking the service again.
    pub type_shown: Option<TypeShown>,
    /// The `/` search over every field of the loaded rows, while there is a text.
    pub search: Option<Narrowing>,
    /// The `/` text the search applied was started with (the input may be ahead of it).
    pub searched: String,
    /// Why the `/` text is not applied (a `/pattern/` that is not a regular expression).
    pub search_problem: Option<String>,
    /// `:where EXPR`, while one is applied.
    pub where_: Option<Where>,
    /// The queries before the ones running, for `Esc`.
    before: Before,
}

impl Query {
    /// The same `/` and `:where` as `self`, started over `rows` (a reload's, behind the rows on
    /// screen): their jobs go to `commands`.
    pub fn restarted<C: From<JobCommand>>(
        &self,
        rows: LoadedRows<'_>,
        ids: &mut RequestIds,
        commands: &mut Vec<C>,
    ) -> Query {
        let mut start = |n: &Narrowing| {
            n.failures_said_to(Narrowing::start(n.test.clone(), None, rows, ids, commands))
        };
        Query {
            search: self.search.as_ref().map(&mut start),
            where_: (self.where_.as_ref()).map(|w| Where {
                expr: w.expr.clone(),
                narrowing: start(&w.narrowing),
            }),
            ..Query::default()
        }
    }

    /// The `/` text is now `text`: a new search over every field (none when it is empty). While
    /// its job runs, the rows shown before stay ([`Narrowing::start`]). Returns whether the rows
    /// shown are to be worked out now (no job to wait for). A text that is no pattern hides no
    /// row ([`Query::search_problem`] says why): the search before it was the text typed on the
    /// way to it (`/res_(1` before `/res_(1/`), which would hide rows for a pattern never meant.
    pub fn search_for<C: From<JobCommand>>(
        &mut self,
        text: &str,
        rows: LoadedRows<'_>,
        ids: &mut RequestIds,
        commands: &mut Vec<C>,
    ) -> bool {
        let (needle, problem) = match Needle::parse(text) {
            Ok(needle) => (needle, None),
            Err(problem) => (None, Some(problem)),
        };
        self.search_problem = problem;
        let current = (self.search.as_ref()).map(|s| (s, (self.searched.clone(), s.clone())));
        self.before.search = Before::keep(current, self.before.search.take());
        self.before.rows = rows.map_or(0, |(_, rows)| rows.len());
        self.searched = text.to_owned();
        let before = self.search.take();
        match needle {
            Some(needle) => {
                let test = Test::Search(needle.into());
                let search = Narrowing::start(test, before, rows, ids, commands);
                let running = search.working().is_some();
                self.search = Some(search);
                !running
            }
            None => {
                commands.extend(before.iter().flat_map(Narrowing::cancel));
                true
            }
        }
    }

    /// `:where EXPR` keeps the rows for which it is true; `:where` alone clears it. A wrong
    /// expression changes nothing: the error says what and where. Returns whether the rows
    /// shown are to be worked out now (as [`Query::search_for`]).
    pub fn set_where<C: From<JobCommand>>(
        &mut self,
        expr: Option<String>,
        rows: LoadedRows<'_>,
        ids: &mut RequestIds,
        commands: &mut Vec<C>,
    ) -> Result<bool, String> {
        let Some(expr) = expr else {
            let before = self.where_.take();
            commands.extend(before.iter().flat_map(|w| w.narrowing.cancel()));
            return Ok(true);
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
        self.before.rows = rows.map_or(0, |(_, rows)| rows.len());
        let before = self.where_.take().map(|w| w.narrowing);
        let test = Test::Where(program.into());
        let narrowing = Narrowing::start(test, before, rows, ids, commands);
        let running = narrowing.working().is_some();
        self.where_ = Some(Where { expr, narrowing });
        Ok(!running)
    }

    /// `Esc` while a `/` or `:where` is running: back to the query in effect before it (the
    /// running jobs cancelled into `commands`); `None` when nothing runs.
    pub fn restore_before<C: From<JobCommand>>(
        &mut self,
        commands: &mut Vec<C>,
    ) -> Option<Restored> {
        let running = |n: &Narrowing| !n.answered();
        let (said, search);
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
            search = false;
        } else if self.search.as_ref().is_some_and(running) {
            let cancelled = self.search.take()?;
            commands.extend(cancelled.cancel());
            let kept = self.before.search.take().flatten();
            said = match &kept {
                Some((text, _)) => format!("search cancelled: still /{}", sanitize::line(text)),
                None => "search cancelled".to_owned(),
            };
            let (text, kept) = kept.unzip();
            self.searched = text.unwrap_or_default();
            self.search = kept.map(|mut n| {
                n.forget_jobs();
                n
            });
            search = true;
        } else {
            return None;
        }
        let tested = std::mem::take(&mut self.before.rows);
        Some(Restored {
            said,
            search,
            tested,
        })
    }

    /// The queries applied, `/` then `:where`.
    fn narrowings_mut(&mut self) -> impl Iterator<Item = &mut Narrowing> {
        let search = self.search.as_mut();
        search
            .into_iter()
            .chain(self.where_.as_mut().map(|w| &mut w.narrowing))
    }

    /// The queries applied, `/` then `:where`.
    pub fn narrowings(&self) -> impl Iterator<Item = &Narrowing> {
        let search = self.search.as_ref();
        search
            .into_iter()
            .chain(self.where_.as_ref().map(|w| &w.narrowing))
    }

    /// Whether every query applied has tested every row loaded: an export asked meanwhile
    /// waits for it, to write the rows it shows.
    pub fn complete(&self) -> bool {
        self.narrowings().all(Narrowing::complete)
    }

    /// Whether every query applied has answered over the rows loaded: until then the rows
    /// shown (and their count) are those of the queries before.
    pub fn answered(&self) -> bool {
        self.narrowings().all(Narrowing::answered)
    }

    /// Whether a query that reads the rows' JSON is applied (then pages are not fetched just to
    /// fill the screen: the whole listing could be dragged in for a few matches).
    pub fn narrowed(&self) -> bool {
        self.narrowings().next().is_some()
    }

    /// Whether only some of the rows are meant to show (a status or type picked, `/`, `:where`):
    /// a page that arrives then is not a reason to ask for the next one, or filling the screen
    /// could load thousands of rows unasked.
    pub fn shows_some(&self) -> bool {
        self.narrowed() || self.status.is_some() || self.type_shown.is_some()
    }

    /// Rows from `first` on arrived: each query tests them in a job of its own.
    pub fn test_new_rows<C: From<JobCommand>>(
        &mut self,
        rows: LoadedRows<'_>,
        first: usize,
        ids: &mut RequestIds,
    ) -> Vec<C> {
        let Some((bodies, rows)) = rows.filter(|_| self.narrowed()) else {
            return Vec::new();
        };
        let picked = JobRows::pick(rows, first, None);
        self.narrowings_mut()
            .filter_map(|n| n.test_rows(bodies, picked.clone(), ids))
            .collect()
    }

    /// The rows were replaced (the gone rows taken out): each query tests them all again.
    pub fn retest_all<C: From<JobCommand>>(
        &mut self,
        rows: LoadedRows<'_>,
        ids: &mut RequestIds,
    ) -> Vec<C> {
        let mut commands: Vec<C> = self.forget_tested_rows();
        commands.extend(self.test_new_rows(rows, 0, ids));
        commands
    }

    /// The rows were replaced by a reload's, which `tested` (queries started on them, see
    /// [`Query::restarted`]) tested: each query applied takes the answers of the same query over
    /// them; a query changed since tests them all again. Returns the commands (cancels, jobs)
    /// and whether some query tests them again.
    pub fn take_tests<C: From<JobCommand>>(
        &mut self,
        tested: Query,
        rows: LoadedRows<'_>,
        ids: &mut RequestIds,
    ) -> (Vec<C>, bool) {
        let mut tested: Vec<Narrowing> = (tested.search.into_iter())
            .chain(tested.where_.map(|w| w.narrowing))
            .collect();
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
        let retesting = !again.is_empty();
        let Some((bodies, rows)) = rows else {
            return (commands, retesting);
        };
        let picked = JobRows::pick(rows, 0, None);
        for mine in self.narrowings_mut() {
            if again.iter().any(|test| test.is(&mine.test)) {
                commands.extend(mine.test_rows(bodies, picked.clone(), ids));
            }
        }
        (commands, retesting)
    }

    /// The listing starts over: the queries' jobs are cancelled and what they found dropped.
    pub fn forget_tested_rows<C: From<JobCommand>>(&mut self) -> Vec<C> {
        self.narrowings_mut()
            .flat_map(|n| n.rows_replaced())
            .collect()
    }

    /// Whether the row at `index` of `rows` passes the status and type shown, `/` and `:where`.
    pub fn passes(&self, rows: &Rows, index: usize) -> bool {
        let Some(row) = rows.get(index) else {
            return false;
        };
        let status = self.status.as_ref();
        let type_ = self.type_shown.as_ref();
        status.is_none_or(|status| status.passes(row.status()))
            && type_.is_none_or(|type_| type_.passes(row.resource_type()))
            && self.narrowings().all(|n| n.passes(index))
    }

    /// The rows that pass, in the order of the rows (the queries' sets first, a word of rows at
    /// a time: this runs on the UI thread for every answer, over as many as a million rows).
    pub fn passing(&self, rows: &Rows) -> Shown {
        let sets: Vec<&RowSet> = self.narrowings().filter_map(Narrowing::passing).collect();
        let status = self.status.as_ref();
        let type_ = self.type_shown.as_ref();
        RowSet::in_all(&sets, rows.len(), |i| {
            let row = rows.at(i);
            status.is_none_or(|status| status.passes(row.status()))
                && type_.is_none_or(|type_| type_.passes(row.resource_type()))
        })
    }

    /// What to show beside the row at `index`: the field `/` found it by, if no column shows it.
    pub fn note(&self, index: usize) -> Option<&str> {
        self.search.as_ref()?.note(index)
    }

    /// Whether `id` is a job of the queries applied.
    pub fn owns(&self, id: RequestId) -> bool {
        self.narrowings().any(|n| n.owns(id))
    }

    pub fn on_progress(&mut self, id: RequestId, done: u64, total: u64) {
        for narrowing in self.narrowings_mut() {
            narrowing.on_progress(id, done, total);
        }
    }

    /// A query's job answered: what it changed (`None`: a job no query owns any more, a stale
    /// one), and the job a search that found rows without naming their fields names them by.
    pub fn on_tested<C: From<JobCommand>>(
        &mut self,
        id: RequestId,
        tested: &mut Tested,
        bodies: Option<&Bodies>,
        ids: &mut RequestIds,
    ) -> Option<(Answered, Option<C>)> {
        let answered = self
            .narrowings_mut()
            .find_map(|n| n.on_tested(id, tested))?;
        let naming = match (bodies, self.search.as_mut()) {
            (Some(bodies), Some(search)) => search.name_fields(bodies, ids),
            _ => None,
        };
        Some((answered, naming))
    }

    /// How far the queries' jobs are, for the status bar.
    pub fn testing(&self) -> Option<String> {
        let (done, total) = self.narrowings().filter_map(Narrowing::working).fold(
            None,
            |sum: Option<(u64, u64)>, (d, t)| {
                let (sd, st) = sum.unwrap_or_default();
                Some((sd + d, st + t))
            },
        )?;
        let what = match &self.search {
            Some(s) if s.working().is_some() => "searching every field",
            _ => "testing :where",
        };
        Some(match total {
            0 => format!("{what}…"),
            _ => format!("{what}… {}%", done * 100 / total),
        })
    }
}

impl Tested {
    /// What to tell the user of rows a query's job left out (unreadable, untested, failed).
    pub fn said(&self) -> Option<String> {
        match (&self.unreadable, &self.stopped, &self.first_failure) {
            (Some(error), _, _) => Some(format!(
                "some rows could not be read, they are left out: {}",
                sanitize::line(error)
            )),
            (None, Some(why), _) => Some(format!(
                "where stopped: {}; {} not tested, left out",
                sanitize::line(why),
                crate::text::counted(self.untested, "row"),
            )),
            (None, None, Some(failure)) => Some(format!(
                "where failed on {}, left out: {}",
                crate::text::counted(self.failed, "row"),
                sanitize::line(failure)
            )),
            (None, None, None) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Runs the jobs among `commands`, as the runtime would, and hands each answer to `query`.
    fn answer(query: &mut Query, commands: Vec<JobCommand>, bodies: &Bodies, ids: &mut RequestIds) {
        for command in commands {
            if let JobCommand::Run { id, job } = command {
                let mut tested = job.run().take::<Tested>().expect("a test's answer");
                let naming = query.on_tested::<JobCommand>(id, &mut tested, Some(bodies), ids);
                answer(
                    query,
                    naming.into_iter().flat_map(|(_, n)| n).collect(),
                    bodies,
                    ids,
                );
            }
        }
    }

    fn rows() -> (Rows, Bodies) {
        Rows::with_bodies((0..6).map(|i| {
            json!({"id": format!("r{i}"), "type": if i % 2 == 0 { "repo" } else { "user" },
                   "status": if i < 3 { "ok" } else { "pending" }})
        }))
    }

    fn shown(query: &Query, rows: &Rows) -> Vec<usize> {
        query.passing(rows).iter().collect()
    }

    /// `Esc` on a search still running goes back to the one before it, answered, rather than to
    /// no search; with nothing running there is nothing to go back to.
    #[test]
    fn esc_on_a_running_search_goes_back_to_the_answered_one_before_it() {
        let (rows, bodies) = rows();
        let (mut query, mut ids, mut commands) = (Query::default(), RequestIds::default(), vec![]);
        let loaded = Some((&bodies, &rows));
        assert!(!query.search_for("repo", loaded, &mut ids, &mut commands));
        answer(&mut query, std::mem::take(&mut commands), &bodies, &mut ids);
        assert!(query.answered());
        assert_eq!(shown(&query, &rows), [0, 2, 4]);

        query.search_for("pending", loaded, &mut ids, &mut commands);
        assert!(!query.answered(), "its job is still out");
        let restored = query.restore_before(&mut commands).expect("a search runs");
        assert_eq!(restored.said, "search cancelled: still /repo");
        assert!(restored.search && query.searched == "repo");
        assert!(matches!(commands.last(), Some(JobCommand::Cancel(_))));
        assert_eq!(shown(&query, &rows), [0, 2, 4]);
        assert!(query.restore_before::<JobCommand>(&mut vec![]).is_none());
    }

    #[test]
    fn the_status_and_type_picked_narrow_the_rows_without_a_job() {
        let (rows, _) = rows();
        let query = Query {
            status: Some(StatusShown::Is("pending".into())),
            type_shown: Some(TypeShown::Is("user".into())),
            ..Query::default()
        };
        assert!(query.shows_some() && !query.narrowed());
        assert_eq!(shown(&query, &rows), [3, 5]);
        assert!(query.passes(&rows, 5) && !query.passes(&rows, 4) && !query.passes(&rows, 99));
    }

    #[test]
    fn a_wrong_where_changes_nothing_and_says_where() {
        let (rows, bodies) = rows();
        let (mut query, mut ids) = (Query::default(), RequestIds::default());
        let mut commands: Vec<JobCommand> = vec![];
        let wrong = query.set_where(
            Some(".a ==".into()),
            Some((&bodies, &rows)),
            &mut ids,
            &mut commands,
        );
        assert!(
            wrong
                .unwrap_err()
                .starts_with("where .a ==: not a valid jq expression")
        );
        assert!(query.where_.is_none() && commands.is_empty());
    }

    /// Runs the jobs among `commands` as [`answer`] does, and returns what each answer says.
    fn answer_saying(
        query: &mut Query,
        commands: Vec<JobCommand>,
        bodies: &Bodies,
        ids: &mut RequestIds,
    ) -> Vec<String> {
        let mut said = Vec::new();
        for command in commands {
            if let JobCommand::Run { id, job } = command {
                let mut tested = job.run().take::<Tested>().expect("a test's answer");
                query.on_tested::<JobCommand>(id, &mut tested, Some(bodies), ids);
                said.extend(tested.said());
            }
        }
        said
    }

    /// Tester's LOW 6: under `:watch 2`, a `:where` failing on some rows said so on every look,
    /// over any other message. It is said when the query is new and when the count of rows it
    /// fails on changes; a look that finds the same failures says nothing, and the query keeps
    /// the count (the title says it).
    #[test]
    fn a_where_failing_on_the_same_rows_is_said_once_across_looks() {
        let rows_failing = |failing: usize| {
            Rows::with_bodies((0..5).map(|i| {
                let n = if i < failing { json!("x") } else { json!(i) };
                json!({"id": format!("r{i}"), "n": n})
            }))
        };
        let (mut query, mut ids) = (Query::default(), RequestIds::default());
        let (rows, bodies) = rows_failing(2);
        let mut commands: Vec<JobCommand> = vec![];
        let expr = Some(".n + 1 > 0".to_owned());
        let loaded = Some((&bodies, &rows));
        query
            .set_where(expr.clone(), loaded, &mut ids, &mut commands)
            .unwrap();
        let said = answer_saying(&mut query, commands, &bodies, &mut ids);
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0].starts_with("where failed on 2 rows, left out: "),
            "{said:?}"
        );
        // Each look: the rows fetched again, tested by a query of their own, which then takes
        // the place of the one applied.
        let mut look = |query: &mut Query, failing: usize| {
            let (rows, bodies) = rows_failing(failing);
            let mut commands: Vec<JobCommand> = vec![];
            let mut fresh = query.restarted(Some((&bodies, &rows)), &mut ids, &mut commands);
            let said = answer_saying(&mut fresh, commands, &bodies, &mut ids);
            let (more, _) = query.take_tests::<JobCommand>(fresh, Some((&bodies, &rows)), &mut ids);
            assert!(more.iter().all(|c| !matches!(c, JobCommand::Run { .. })));
            said
        };
        let failed = |query: &Query| query.where_.as_ref().unwrap().narrowing.failed_rows();
        for _ in 0..3 {
            assert_eq!(
                look(&mut query, 2),
                Vec::<String>::new(),
                "the same two rows"
            );
            assert_eq!(failed(&query), 2);
        }
        let said = look(&mut query, 3);
        assert!(
            said.len() == 1 && said[0].starts_with("where failed on 3 rows"),
            "{said:?}"
        );
        assert_eq!(look(&mut query, 3), Vec::<String>::new());
        assert_eq!(failed(&query), 3);
        assert_eq!(
            look(&mut query, 0),
            Vec::<String>::new(),
            "none fails: nothing to say"
        );
        assert_eq!(failed(&query), 0);
        let said = look(&mut query, 3);
        assert!(
            said.len() == 1 && said[0].starts_with("where failed on 3 rows"),
            "{said:?}"
        );
        // The same expression applied anew is a new query: said again.
        let (rows, bodies) = rows_failing(3);
        let mut commands: Vec<JobCommand> = vec![];
        query
            .set_where(expr, Some((&bodies, &rows)), &mut ids, &mut commands)
            .unwrap();
        let said = answer_saying(&mut query, commands, &bodies, &mut ids);
        assert!(
            said.len() == 1 && said[0].starts_with("where failed on 3 rows"),
            "{said:?}"
        );
    }
}
