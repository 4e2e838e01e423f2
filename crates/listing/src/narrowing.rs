//! Which loaded rows pass a test that reads their JSON: the `/` search over every field, or a
//! `:where` jq expression. The JSON is read only off the UI thread ([`TestRows`], a job over the
//! rows' bodies); this keeps the answers, by row index, in the order of the rows (the order
//! they are shown in is not decided here).
//!
//! A new query wins: its jobs replace those in flight (cancelled; a late answer is dropped by
//! its id), and until its first pass over the loaded rows answers, the rows the previous query
//! let through stay on screen (all of them, for a first query). A page that arrives later is
//! tested by a job of its own; its rows show once it answers.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::bodies::{Bodies, BodyId};
use super::field_search::{self, Found, Needle, Note};
use super::job_rows::JobRows;
use super::rows::Rows;
use super::shown::Shown;
use crate::JobCommand;
use crate::job::{Job, Progress, Work};
use crate::job::{RequestId, RequestIds};
use crate::jq::Program;

/// Rows between two looks at whether the job was cancelled and two progress reports.
pub(super) const CHECK_EVERY: usize = 1024;

/// A job shares its rows out between the cores by at least this many rows each (fewer are
/// done sooner on one thread than threads are started).
const ROWS_PER_THREAD: usize = 10_000;

/// A search's first pass over more rows than this answers which rows hold the text first, and
/// a second job then names the field that let each through: nearly every row found by a field
/// the table does not show is walked to name it, five times the work of finding it (`/al` over
/// 100,000 rows: 14 ms to answer, 70 ms to name).
pub const NAME_FIELDS_AFTER: usize = 20_000;

/// What a row's JSON is tested with.
#[derive(Clone, Debug)]
pub enum Test {
    /// `/`: some value holds the needle.
    Search(Arc<Needle>),
    /// `:where`: the expression is true of the resource.
    Where(Arc<Program>),
}

impl Test {
    /// Whether `other` is this very query (the one applied, not the same text applied again).
    pub fn is(&self, other: &Test) -> bool {
        match (self, other) {
            (Test::Search(a), Test::Search(b)) => Arc::ptr_eq(a, b),
            (Test::Where(a), Test::Where(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// Whether every row `next` passes is among those `self` passes: a search for a text that
    /// holds this one.
    fn narrows_to(&self, next: &Test) -> bool {
        match (self, next) {
            (Test::Search(before), Test::Search(next)) => before.narrows_to(next),
            _ => false,
        }
    }
}

/// Tests rows (their bodies, in row order); answers with [`Tested`].
#[derive(Debug)]
pub struct TestRows {
    pub bodies: Bodies,
    pub rows: JobRows,
    pub test: Test,
    /// For a search: whether to name the field each row was found by (else only which pass).
    pub names_fields: bool,
}

/// What a [`TestRows`] found.
#[derive(Debug, Default)]
pub struct Tested {
    /// The rows that pass, by index in the listing, in order.
    pub passed: Vec<usize>,
    /// For a search that did not name fields: the bodies of the rows that pass, in the same
    /// order, for the job that names them (not looked up again on the UI thread).
    pub passed_bodies: Vec<BodyId>,
    /// Beside a row found by a field the table does not show: that field and its value.
    pub notes: NoteList,
    /// Rows the test failed on (a `:where` that cannot be applied to them), and the first
    /// failure.
    pub failed: usize,
    pub first_failure: Option<String>,
    /// The bodies could not be read (the job stopped there).
    pub unreadable: Option<String>,
    /// A `:where` worker ended before testing every row: why, and how many rows it left
    /// untested (they are left out).
    pub stopped: Option<String>,
    pub untested: usize,
}

impl Job for TestRows {
    type Output = Tested;

    /// Large jobs are shared out between the cores, each taking a run of rows in turn.
    fn run(&self, progress: &Progress) -> Tested {
        let rows = &*self.rows.listed();
        let total = rows.len();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = threads.min(total / ROWS_PER_THREAD).max(1);
        let done = AtomicUsize::new(0);
        let share = total.div_ceil(threads).max(1);
        let mut parts: Vec<Tested> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|t| {
                    let part = Part {
                        rows,
                        range: (t * share).min(total)..((t + 1) * share).min(total),
                        progress,
                        done: &done,
                        total,
                    };
                    scope.spawn(move || self.run_part(part))
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().unwrap_or_default())
                .collect()
        });
        let mut tested = parts.remove(0);
        for part in parts {
            tested.passed.extend(part.passed);
            tested.passed_bodies.extend(part.passed_bodies);
            tested.notes.append(part.notes);
            tested.failed += part.failed;
            if tested.first_failure.is_none() {
                tested.first_failure = part.first_failure;
            }
            if tested.unreadable.is_none() {
                tested.unreadable = part.unreadable;
            }
            if tested.stopped.is_none() {
                tested.stopped = part.stopped;
            }
            tested.untested += part.untested;
        }
        progress.set(total as u64, total as u64);
        tested
    }
}

/// One thread's share of a job: the rows at `range` of `rows`; `done` counts the rows all
/// parts tested, of `total`.
pub(super) struct Part<'a> {
    pub rows: &'a JobRows,
    pub range: std::ops::Range<usize>,
    pub progress: &'a Progress,
    pub done: &'a AtomicUsize,
    pub total: usize,
}

impl Part<'_> {
    /// Another [`CHECK_EVERY`] rows were tested: passed on as progress.
    pub(crate) fn tested_more(&self) {
        let all = self.done.fetch_add(CHECK_EVERY, Ordering::Relaxed) + CHECK_EVERY;
        self.progress.set(all as u64, self.total as u64);
    }
}

impl TestRows {
    /// Tests the rows of `part`.
    fn run_part(&self, part: Part) -> Tested {
        // A comparison along a path cannot loop or grow: it runs here, where sending each row
        // to a worker and reading its answer back cost more than the comparison itself.
        if let (Test::Where(program), Some(worker)) = (&self.test, crate::jq::worker::command())
            && !program.is_a_comparison()
        {
            return self.run_part_in_worker(worker, program, part);
        }
        let mut tested = Tested::default();
        let mut note = Note::default();
        let scanned = part.rows.scan(
            &self.bodies,
            part.range.clone(),
            |position, index, body, json| {
                if position % CHECK_EVERY == CHECK_EVERY - 1 {
                    if part.progress.cancelled() {
                        return ControlFlow::Break(());
                    }
                    part.tested_more();
                }
                match &self.test {
                    Test::Search(needle) if needle.inverse() => {
                        if !field_search::holds(json, needle) {
                            tested.passed.push(index);
                        }
                    }
                    Test::Search(needle) if !self.names_fields => {
                        if field_search::holds(json, needle) {
                            tested.passed.push(index);
                            tested.passed_bodies.push(body);
                        }
                    }
                    Test::Search(needle) => {
                        if let Some(found) = field_search::find(json, needle, &mut note) {
                            tested.passed.push(index);
                            if found == Found::Field {
                                tested.notes.push(index, [&note.path, ": ", &note.value]);
                            }
                        }
                    }
                    // In place for a comparison, or where no worker can be started (see
                    // `run_part_in_worker`).
                    Test::Where(program) => match program.is_true(json.as_bytes()) {
                        Ok(true) => tested.passed.push(index),
                        Ok(false) => {}
                        Err(error) => {
                            tested.failed += 1;
                            tested.first_failure.get_or_insert(error);
                        }
                    },
                }
                ControlFlow::Continue(())
            },
        );
        if let Err(error) = scanned {
            tested.unreadable = Some(error.to_string());
        }
        tested
    }
}

/// A set of row indices, one bit a row.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RowSet {
    words: Vec<u64>,
}

impl RowSet {
    pub fn insert(&mut self, index: usize) {
        let word = index / 64;
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        self.words[word] |= 1 << (index % 64);
    }

    /// How many indices it holds.
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The rows in the set, in order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (self.words.iter().enumerate()).flat_map(|(at, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                let bit = bits.trailing_zeros() as usize;
                (bits != 0).then(|| {
                    bits &= bits - 1;
                    at * 64 + bit
                })
            })
        })
    }

    pub fn contains(&self, index: usize) -> bool {
        self.words
            .get(index / 64)
            .is_some_and(|w| w & (1 << (index % 64)) != 0)
    }

    /// The indices below `len` that every one of `sets` holds and `keep` lets through, in order
    /// (with no set, every index `keep` lets through). Taken 64 at a time, into a list made at
    /// its size: a million rows in a few milliseconds, on the UI thread.
    pub fn in_all(sets: &[&RowSet], len: usize, mut keep: impl FnMut(usize) -> bool) -> Shown {
        let words = len.div_ceil(64);
        let in_every = |word: usize| {
            let all = sets.iter().fold(u64::MAX, |bits, set| {
                bits & set.words.get(word).copied().unwrap_or(0)
            });
            // The bits past `len` of the last word.
            match (word + 1) * 64 > len {
                true => all & (u64::MAX >> ((word + 1) * 64 - len)),
                false => all,
            }
        };
        let count = (0..words).map(|w| in_every(w).count_ones() as usize).sum();
        let mut found = Shown::with_capacity(count);
        for word in 0..words {
            let mut bits = in_every(word);
            found.extend(
                std::iter::from_fn(|| {
                    let index = word * 64 + bits.trailing_zeros() as usize;
                    (bits != 0).then(|| bits &= bits - 1).map(|()| index)
                })
                .filter(|&index| keep(index)),
            );
        }
        found
    }
}

/// The rows a query lets through, as far as they are known.
#[derive(Clone, Debug, Default)]
struct Results {
    passes: RowSet,
    notes: Notes,
    /// Rows a `:where` failed on (left out), and the first failure.
    failed: usize,
    first_failure: Option<String>,
}

/// Notes beside rows, in row order, their texts end to end in one string: a search that finds
/// a million rows by a field makes (and, when the next key replaces it, frees) one text, not a
/// million, on the job's thread and then on the UI thread.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NoteList {
    rows: Vec<usize>,
    /// Where each row's note ends in `text`.
    ends: Vec<usize>,
    text: String,
}

impl NoteList {
    /// The note of `row`, made of `parts`; rows come in order.
    pub fn push<const N: usize>(&mut self, row: usize, parts: [&str; N]) {
        for part in parts {
            self.text.push_str(part);
        }
        self.rows.push(row);
        self.ends.push(self.text.len());
    }

    /// Adds the notes of rows that come after these.
    fn append(&mut self, mut other: NoteList) {
        let shift = self.text.len();
        self.rows.append(&mut other.rows);
        self.ends.extend(other.ends.iter().map(|end| end + shift));
        self.text.push_str(&other.text);
    }

    fn first_row(&self) -> Option<usize> {
        self.rows.first().copied()
    }

    fn get(&self, row: usize) -> Option<&str> {
        let at = self.rows.binary_search(&row).ok()?;
        let start = at.checked_sub(1).map_or(0, |before| self.ends[before]);
        self.text.get(start..self.ends[at])
    }
}

/// The notes of the rows found by a field the table does not show, as the jobs gave them: one
/// list a job, the lists in the order of their first row. Taking a job's answer moves its list
/// (a million notes are never inserted one by one on the UI thread); finding a row's note is
/// two binary searches.
#[derive(Clone, Debug, Default)]
struct Notes {
    lists: Vec<NoteList>,
}

impl Notes {
    fn add(&mut self, list: NoteList) {
        let Some(first) = list.first_row() else {
            return;
        };
        let at = self
            .lists
            .partition_point(|l| l.first_row().is_some_and(|row| row < first));
        self.lists.insert(at, list);
    }

    fn get(&self, index: usize) -> Option<&str> {
        let after = self
            .lists
            .partition_point(|l| l.first_row().is_some_and(|row| row <= index));
        self.lists[after.checked_sub(1)?].get(index)
    }
}

/// What a job of a query is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pass {
    /// The first test of the rows loaded when the query began; `named` if it names fields.
    First { named: bool },
    /// The rows of a page that arrived since.
    NewRows,
    /// Naming the fields of the rows a first pass let through without naming them.
    Naming,
}

/// What a query's job answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answered {
    /// Which rows pass: the rows shown are worked out again.
    Rows,
    /// Only the fields the rows passing were found by: the rows shown stay as they are (a
    /// million of them are not worked out again on the UI thread for notes).
    Notes,
}

impl Pass {
    /// Whether its job names the field each row was found by (every job but a first pass told
    /// not to).
    fn names_fields(self) -> bool {
        self != Pass::First { named: false }
    }
}

/// One query (`/` or `:where`) applied to the listing, and its jobs.
#[derive(Clone, Debug)]
pub struct Narrowing {
    pub test: Test,
    results: Results,
    /// Until the first pass of `test` answers: what was shown before (`None`: every row).
    meanwhile: Option<Option<Results>>,
    /// Jobs in flight.
    jobs: Vec<(RequestId, Pass)>,
    /// Rows a first pass let through without naming their fields, and their bodies, for
    /// [`Narrowing::name_fields`].
    unnamed: JobRows,
    /// How far the jobs in flight are, for the status bar: (rows done, rows in all).
    progress: HashMap<RequestId, (u64, u64)>,
    /// How many failed rows the user was last told of: each look of `:watch` tests the rows
    /// anew, and the same failures said on every look wrote over any other message (tester's
    /// LOW 6); said again only when their count changes ([`Narrowing::on_tested`]).
    failures_said: Option<usize>,
}

impl Narrowing {
    /// A new query over the rows loaded (their bodies; `None` before the first page). `before`
    /// is the query it replaces (its jobs are cancelled; its rows stay on screen until the first
    /// answer).
    pub fn start(
        test: Test,
        before: Option<Narrowing>,
        rows: Option<(&Bodies, &Rows)>,
        ids: &mut RequestIds,
        commands: &mut Vec<impl From<JobCommand>>,
    ) -> Narrowing {
        let narrowed_from = before
            .as_ref()
            .filter(|b| b.complete() && b.test.narrows_to(&test))
            .map(|b| b.results.passes.clone());
        let meanwhile = match before {
            Some(before) => {
                commands.extend(before.cancel::<JobCommand>().into_iter().map(Into::into));
                Some(before.meanwhile.unwrap_or(Some(before.results)))
            }
            None => Some(None),
        };
        let meanwhile = rows.as_ref().and(meanwhile);
        let mut narrowing = Narrowing {
            test,
            results: Results::default(),
            meanwhile,
            jobs: Vec::new(),
            unnamed: JobRows::default(),
            progress: HashMap::new(),
            failures_said: None,
        };
        if let Some((bodies, rows)) = rows {
            // Typing on: only the rows the shorter text found can hold the longer one.
            let count = narrowed_from.as_ref().map_or(rows.len(), RowSet::count);
            let picked = JobRows::pick(rows, 0, narrowed_from.as_ref());
            // Rows `!text` keeps hold no field to name.
            let named = !matches!(&narrowing.test, Test::Search(n) if !n.inverse())
                || count <= NAME_FIELDS_AFTER;
            let pass = Pass::First { named };
            commands.extend(narrowing.run(bodies, picked, pass, ids).map(Into::into));
        }
        narrowing
    }

    /// Whether every loaded row has been tested (the fields that let rows through may still be
    /// being named).
    pub fn complete(&self) -> bool {
        self.jobs.iter().all(|(_, pass)| *pass == Pass::Naming) && self.meanwhile.is_none()
    }

    /// Tests the rows `picked` of a page that arrived.
    pub fn test_rows<C: From<JobCommand>>(
        &mut self,
        bodies: &Bodies,
        picked: JobRows,
        ids: &mut RequestIds,
    ) -> Option<C> {
        self.run(bodies, picked, Pass::NewRows, ids).map(C::from)
    }

    /// After a first pass that did not name fields: a job naming the fields of the rows it let
    /// through.
    pub fn name_fields<C: From<JobCommand>>(
        &mut self,
        bodies: &Bodies,
        ids: &mut RequestIds,
    ) -> Option<C> {
        let unnamed = std::mem::take(&mut self.unnamed);
        self.run(bodies, unnamed, Pass::Naming, ids).map(C::from)
    }

    fn run(
        &mut self,
        bodies: &Bodies,
        rows: JobRows,
        pass: Pass,
        ids: &mut RequestIds,
    ) -> Option<JobCommand> {
        if rows.is_empty() {
            if matches!(pass, Pass::First { .. }) {
                self.meanwhile = None;
            }
            return None;
        }
        let id = ids.issue();
        self.jobs.push((id, pass));
        let job = Work::new(TestRows {
            bodies: bodies.clone(),
            rows,
            test: self.test.clone(),
            names_fields: pass.names_fields(),
        });
        Some(JobCommand::Run { id, job })
    }

    /// The listing started over: what was found is for rows that are gone. Its jobs are
    /// cancelled; the query stays, to be tested on the new rows as they come.
    pub fn rows_replaced<C: From<JobCommand>>(&mut self) -> Vec<C> {
        let cancels = self.cancel();
        self.results = Results::default();
        self.meanwhile = None;
        self.unnamed = JobRows::default();
        cancels
    }

    /// Its jobs were cancelled while it was kept aside (see `find::Before`): it waits for none.
    pub fn forget_jobs(&mut self) {
        self.jobs.clear();
        self.progress.clear();
    }

    /// The cancels of the jobs in flight.
    pub fn cancel<C: From<JobCommand>>(&self) -> Vec<C> {
        self.jobs
            .iter()
            .map(|(id, _)| JobCommand::Cancel(*id).into())
            .collect()
    }

    /// Whether `id` is one of this query's jobs.
    pub fn owns(&self, id: RequestId) -> bool {
        self.jobs.iter().any(|(job, _)| *job == id)
    }

    /// A job reported how far it is.
    pub fn on_progress(&mut self, id: RequestId, done: u64, total: u64) {
        if self.owns(id) {
            self.progress.insert(id, (done, total));
        }
    }

    /// A job answered: its rows are known. Returns false for a job that is not this query's.
    /// The rows it failed on are counted with those of the jobs before; `tested` says the
    /// failures ([`Tested::said`]) only once the rows are all tested and their count is not
    /// the one said last, as the rows failing in all (not this job's alone).
    pub fn on_tested(&mut self, id: RequestId, tested: &mut Tested) -> Option<Answered> {
        let at = self.jobs.iter().position(|(job, _)| *job == id)?;
        let (_, pass) = self.jobs.remove(at);
        self.progress.remove(&id);
        self.results.notes.add(std::mem::take(&mut tested.notes));
        if pass == Pass::Naming {
            // The rows it named pass already.
            return Some(Answered::Notes);
        }
        for &index in &tested.passed {
            self.results.passes.insert(index);
        }
        if let Pass::First { named } = pass {
            self.meanwhile = None;
            if !named {
                self.unnamed = JobRows::Listed {
                    rows: std::mem::take(&mut tested.passed),
                    bodies: std::mem::take(&mut tested.passed_bodies),
                };
            }
        }
        self.results.failed += tested.failed;
        if self.results.first_failure.is_none() {
            self.results.first_failure = tested.first_failure.take();
        }
        let failed = self.results.failed;
        let news = self.complete() && self.failures_said != Some(failed);
        (tested.failed, tested.first_failure) = match news {
            true => (failed, self.results.first_failure.clone()),
            false => (0, None),
        };
        if news {
            self.failures_said = Some(failed);
        }
        Some(Answered::Rows)
    }

    /// How many rows of those tested it failed on (a `:where` that cannot be applied to them:
    /// left out), for the title to keep saying once the message has been said.
    pub fn failed_rows(&self) -> usize {
        match &self.meanwhile {
            Some(_) => 0,
            None => self.results.failed,
        }
    }

    /// `fresh` tests the rows anew (a look, a reload): the failures said of this one are said of it.
    pub(crate) fn failures_said_to(&self, mut fresh: Narrowing) -> Narrowing {
        fresh.failures_said = self.failures_said;
        fresh
    }

    /// Whether the first pass over the rows loaded has answered: until then the rows shown are
    /// those the query before let through, not this one's.
    pub fn answered(&self) -> bool {
        self.meanwhile.is_none()
    }

    /// Whether the row at `index` passes (or, while the first pass runs, passed before).
    pub fn passes(&self, index: usize) -> bool {
        self.passing().is_none_or(|set| set.contains(index))
    }

    /// The rows that pass (or, while the first pass runs, passed before); `None`: every row.
    pub fn passing(&self) -> Option<&RowSet> {
        match &self.meanwhile {
            Some(None) => None,
            Some(Some(before)) => Some(&before.passes),
            None => Some(&self.results.passes),
        }
    }

    /// What to show beside the row at `index`: the field that let it through, if no column did.
    pub fn note(&self, index: usize) -> Option<&str> {
        let results = match &self.meanwhile {
            Some(Some(before)) => before,
            _ => &self.results,
        };
        results.notes.get(index)
    }

    /// Whether jobs are in flight, and how far they are (rows done, rows in all).
    pub fn working(&self) -> Option<(u64, u64)> {
        if self.jobs.is_empty() {
            return None;
        }
        Some(
            self.progress
                .values()
                .fold((0, 0), |(d, t), (done, total)| (d + done, t + total)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_are_found_across_the_lists_of_several_jobs() {
        let mut notes = Notes::default();
        let list = |rows: &[usize]| {
            let mut list = NoteList::default();
            for &i in rows {
                list.push(i, ["n", &i.to_string()]);
            }
            list
        };
        // A page's job answered before the first pass over the rows before it.
        notes.add(list(&[500, 730]));
        notes.add(list(&[]));
        notes.add(list(&[3, 40, 499]));
        for (index, note) in [(3, Some("n3")), (40, Some("n40")), (499, Some("n499"))] {
            assert_eq!(notes.get(index), note);
        }
        assert_eq!(notes.get(730), Some("n730"));
        // A later page's job answered last: its list goes after the others.
        notes.add(list(&[1_000]));
        assert_eq!(notes.get(1_000), Some("n1000"));
        assert_eq!(notes.get(3), Some("n3"));
        for index in [0, 4, 500 - 2, 501, 10_000] {
            assert_eq!(notes.get(index), None, "{index}");
        }
    }

    #[test]
    fn a_job_s_parts_join_into_one_list() {
        let (mut first, mut second) = (NoteList::default(), NoteList::default());
        first.push(2, ["a.b", ": ", "x"]);
        first.push(7, ["", ": ", ""]);
        second.push(9, ["c[0]: ", "yz"]);
        first.append(second);
        assert_eq!(first.get(2), Some("a.b: x"));
        assert_eq!(first.get(7), Some(": "));
        assert_eq!(first.get(9), Some("c[0]: yz"));
        assert_eq!(first.get(3), None);
        assert_eq!(first.get(10), None);
    }

    #[test]
    fn a_row_set_holds_what_was_put_in() {
        let mut set = RowSet::default();
        for i in [0, 63, 64, 1_000_001] {
            set.insert(i);
        }
        assert!([0, 63, 64, 1_000_001].iter().all(|&i| set.contains(i)));
        assert!(
            ![1, 62, 65, 1_000_000, 5_000_000]
                .iter()
                .any(|&i| set.contains(i))
        );
        assert_eq!(set.iter().collect::<Vec<_>>(), [0, 63, 64, 1_000_001]);
        assert_eq!(set.count(), 4);
    }

    #[test]
    fn the_rows_in_every_set_are_found_word_by_word() {
        let set = |rows: &[usize]| {
            let mut set = RowSet::default();
            rows.iter().for_each(|&i| set.insert(i));
            set
        };
        let (a, b) = (set(&[0, 5, 63, 64, 130, 200]), set(&[5, 63, 64, 65, 200]));
        let in_all = |sets: &[&RowSet], len| -> Vec<usize> {
            RowSet::in_all(sets, len, |_| true).iter().collect()
        };
        assert_eq!(in_all(&[&a, &b], 201), [5, 63, 64, 200]);
        assert_eq!(in_all(&[&a, &b], 200), [5, 63, 64], "below len only");
        assert_eq!(in_all(&[&a], 131), [0, 5, 63, 64, 130]);
        assert_eq!(in_all(&[&a], 64), [0, 5, 63]);
        assert_eq!(in_all(&[], 3), [0, 1, 2]);
        assert_eq!((a.count(), b.count(), RowSet::default().count()), (6, 5, 0));
        assert_eq!(in_all(&[&a, &set(&[])], 300), Vec::<usize>::new());
        let even: Vec<usize> = RowSet::in_all(&[&a], 300, |i| i % 2 == 0).iter().collect();
        assert_eq!(even, [0, 64, 130, 200]);
    }
}
