//! The list's sort as state: the spec, every loaded row's place in its order (so a new filter
//! is reordered in one pass and rows that arrive later are merged in), the job sorting a large
//! list off the UI thread, and the sort a job is to replace (for `Esc`). Which rows show and
//! where the cursor goes are the pane's.

use crate::JobCommand;
use crate::job::{RequestId, RequestIds, Work};
use crate::ordering::{IN_PLACE_ROWS, SortJob, SortKeys, SortSpec, merge_sorted, sort_by_keys};
use crate::rows::Rows;

/// How the list is sorted, and every loaded row's index in that order.
#[derive(Clone, Debug, Default)]
pub struct Sorting {
    pub spec: Option<SortSpec>,
    /// The indices of the first rows loaded, sorted under `spec`; `None` while a job sorts them.
    /// Rows loaded since are merged in as they come.
    order: Option<Vec<usize>>,
    /// The job sorting them.
    job: Option<RequestId>,
    /// How far it got (of units of its own) and how many rows it sorts.
    pub progress: Option<(usize, usize)>,
    pub rows: usize,
    /// While a job sorts under a new spec, the sort it replaces (no job of its own): `Esc`
    /// puts it back.
    before: Option<Box<Sorting>>,
    /// Whether the user asked for the job's sort (a key, `:sort`), so that its answer says
    /// "sorted by": a reload or a `:watch` look sorting its rows again says nothing.
    pub asked: bool,
}

/// Where the rows' order stands after a change of the sort.
#[derive(Debug)]
pub enum Resorted<C> {
    /// No sort: the server's order, the rows' own.
    ServerOrder,
    /// Sorted at once: the rows shown are to be put in [`Sorting::order`].
    Now,
    /// A job sorts them (its command); the rows shown stay as they are until it answers.
    Job(C),
}

impl Sorting {
    /// Drops the job sorting the rows, if any: its cancel.
    pub fn drop_job<C: From<JobCommand>>(&mut self) -> Option<C> {
        self.job.take().map(|id| JobCommand::Cancel(id).into())
    }

    /// What the status bar says while a job sorts the rows (`sorting 120,000 rows by name…
    /// 40% · Esc cancels`); `words` says the sort.
    pub fn activity(&self, words: impl FnOnce(SortSpec) -> String) -> Option<String> {
        let (spec, (done, total)) = (self.spec?, self.progress?);
        let percent = done * 100 / total.max(1);
        let rows = crate::text::counted(self.rows, "row");
        Some(format!(
            "sorting {rows} by {}… {percent}% · Esc cancels",
            words(spec)
        ))
    }

    /// Whether a job is sorting the rows now.
    pub fn pending(&self) -> bool {
        self.job.is_some()
    }

    pub fn job(&self) -> Option<RequestId> {
        self.job
    }

    /// Every loaded row's index in the sort's order, when sorted and known.
    pub fn order(&self) -> Option<&[usize]> {
        self.spec.and(self.order.as_deref())
    }

    /// Sorts by `spec` (`None`: back to the server's order), the job it replaces cancelled into
    /// `commands`. A sort by a job keeps the one it replaces for [`Sorting::cancel`].
    pub fn set<C: From<JobCommand>>(
        &mut self,
        spec: Option<SortSpec>,
        rows: &Rows,
        ids: &mut RequestIds,
        commands: &mut Vec<C>,
    ) -> Resorted<C> {
        // The sort to go back to: the one shown, or, while a job replaced it, the one before.
        let before = match self.job {
            Some(_) => self.before.take(),
            None => Some(Box::new(std::mem::take(self))),
        };
        commands.extend(self.drop_job());
        *self = Sorting {
            spec,
            ..Sorting::default()
        };
        let resorted = self.resort(rows, ids);
        if let Resorted::Job(_) = resorted {
            self.before = before;
            self.asked = true;
        }
        resorted
    }

    /// Sorts every loaded row again under the current spec (it changed, or the rows were
    /// replaced): at once when they are few, else by a job.
    pub fn resort<C: From<JobCommand>>(
        &mut self,
        rows: &Rows,
        ids: &mut RequestIds,
    ) -> Resorted<C> {
        let Some(spec) = self.spec else {
            return Resorted::ServerOrder;
        };
        let keys = SortKeys::of(rows, spec.column);
        if keys.len() <= IN_PLACE_ROWS {
            self.order = sort_by_keys(&keys, spec.descending, |_, _| true);
            return Resorted::Now;
        }
        let id = ids.issue();
        self.order = None;
        self.job = Some(id);
        self.asked = false;
        self.progress = Some((0, keys.len()));
        self.rows = keys.len();
        let job = Work::new(SortJob {
            keys,
            descending: spec.descending,
        });
        Resorted::Job(JobCommand::Run { id, job }.into())
    }

    /// `Esc` on a sort job: it is cancelled (into `commands`) and the sort it was to replace
    /// comes back, with the rows loaded since merged in (then `Now`); the server's order when
    /// there is none. `None`: no sort was replaced (the caller goes to the server's order).
    pub fn cancel<C: From<JobCommand>>(
        &mut self,
        rows: &Rows,
        commands: &mut Vec<C>,
    ) -> Option<Resorted<C>> {
        let before = self.before.take()?;
        commands.extend(self.drop_job());
        *self = *before;
        Some(match (self.spec, self.order.take()) {
            (Some(spec), Some(mut order)) => {
                merge_later_rows(&mut order, rows, spec);
                self.order = Some(order);
                Resorted::Now
            }
            _ => Resorted::ServerOrder,
        })
    }

    /// The rows were replaced by a reload's, sorted by `theirs` (their spec and order, if
    /// sorted) before they came. A job sorting the rows replaced is dropped (into `commands`):
    /// - under the spec sorted now, their order is taken as it is: no job, nothing for `Esc`;
    /// - under the spec a job of the user's was to replace (asked for while they were being
    ///   sorted), that sort is sorted again over them, and `Esc` still goes back to theirs;
    /// - else they are sorted again (at once, or by a job).
    pub fn take_sorted<C: From<JobCommand>>(
        &mut self,
        theirs: Sorting,
        rows: &Rows,
        ids: &mut RequestIds,
        commands: &mut Vec<C>,
    ) -> Resorted<C> {
        commands.extend(self.drop_job());
        let before = self.before.take();
        self.progress = None;
        let Sorting { spec, order, .. } = theirs;
        match (spec, order) {
            (Some(spec), Some(order)) if self.spec == Some(spec) => {
                self.order = Some(order);
                Resorted::Now
            }
            (Some(spec), Some(order)) if before.as_ref().is_some_and(|b| b.spec == Some(spec)) => {
                let resorted = self.resort(rows, ids);
                if self.pending() {
                    self.before = Some(Box::new(Sorting {
                        spec: Some(spec),
                        order: Some(order),
                        ..Sorting::default()
                    }));
                }
                resorted
            }
            _ => self.resort(rows, ids),
        }
    }

    /// How far the sort job `id` got, if it is the one in flight.
    pub fn on_progress(&mut self, id: RequestId, done: u64, total: u64) -> bool {
        if self.job != Some(id) {
            return false;
        }
        if let (Ok(done), Ok(total)) = (usize::try_from(done), usize::try_from(total)) {
            self.progress = Some((done, total));
        }
        true
    }

    /// The listing starts over (another type, a reload): nothing loaded is in the order, and a
    /// job sorting the old rows is dropped (its cancel).
    pub fn restarted<C: From<JobCommand>>(&mut self) -> Option<C> {
        let job = self.drop_job();
        self.progress = None;
        self.before = None;
        self.order = self.spec.map(|_| Vec::new());
        job
    }

    /// A sort job answered: its order (of the rows loaded when it began) takes in the rows
    /// loaded since. `None`: not the job in flight; `Some(true)`: the rows shown are to be put
    /// in the order; `Some(false)`: it was cancelled.
    pub fn sorted(
        &mut self,
        id: RequestId,
        order: Option<Vec<usize>>,
        rows: &Rows,
    ) -> Option<bool> {
        if self.job != Some(id) {
            return None;
        }
        self.job = None;
        self.progress = None;
        self.before = None;
        let (Some(spec), Some(mut order)) = (self.spec, order) else {
            return Some(false);
        };
        merge_later_rows(&mut order, rows, spec);
        self.order = Some(order);
        Some(true)
    }

    /// A page arrived: its rows (from `first_row` on) go into the order. Returns the spec to
    /// put the rows shown of them in, when sorted.
    pub fn merge_new_rows(&mut self, first_row: usize, rows: &Rows) -> Option<SortSpec> {
        let (Some(spec), Some(order)) = (self.spec, self.order.as_mut()) else {
            return None;
        };
        merge_sorted(order, (first_row..rows.len()).collect(), rows, spec);
        Some(spec)
    }
}

/// The rows loaded after those `order` holds go into it, where `spec` puts them.
fn merge_later_rows(order: &mut Vec<usize>, rows: &Rows, spec: SortSpec) {
    merge_sorted(order, (order.len()..rows.len()).collect(), rows, spec);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::added::ColumnChoice;
    use serde_json::json;

    fn by_name() -> Option<SortSpec> {
        SortSpec::parse("name", &ColumnChoice::default()).unwrap()
    }

    /// A large list is sorted by a job; `Esc` on it puts back the sort it was to replace, with
    /// the rows loaded since merged in; a page's rows go into the order as they come.
    #[test]
    fn esc_on_a_sort_job_puts_back_the_sort_before_with_the_new_rows_in_it() {
        let name = |i: usize| json!({"id": format!("r{i}"), "name": format!("n{:06}", (i * 7919) % 30_000)});
        let mut rows = Rows::of_values((0..3).map(name));
        let (mut sorting, mut ids) = (Sorting::default(), RequestIds::default());
        let mut commands: Vec<JobCommand> = Vec::new();
        assert!(matches!(
            sorting.set(by_name(), &rows, &mut ids, &mut commands),
            Resorted::Now
        ));
        let names = |rows: &Rows, order: &[usize]| -> Vec<String> {
            order
                .iter()
                .map(|&i| rows.at(i).title().unwrap().to_string())
                .collect()
        };
        let sorted = names(&rows, sorting.order().unwrap());
        assert!(sorted.is_sorted(), "{sorted:?}");

        rows = Rows::of_values((0..IN_PLACE_ROWS + 3).map(name));
        let descending = by_name().map(|s| SortSpec {
            descending: true,
            ..s
        });
        let Resorted::Job(JobCommand::Run { id, .. }) =
            sorting.set(descending, &rows, &mut ids, &mut commands)
        else {
            panic!("a job for so many rows")
        };
        assert!(sorting.pending() && sorting.asked && sorting.order().is_none());
        assert!(matches!(
            sorting.cancel(&rows, &mut commands),
            Some(Resorted::Now)
        ));
        assert!(matches!(commands.last(), Some(JobCommand::Cancel(c)) if *c == id));
        assert_eq!(sorting.spec, by_name());
        let order = sorting.order().unwrap();
        assert_eq!(order.len(), rows.len(), "the rows loaded since merged in");
        assert!(names(&rows, order).is_sorted());
        assert!(
            sorting.cancel::<JobCommand>(&rows, &mut commands).is_none(),
            "once"
        );
        assert_eq!(
            sorting.sorted(id, Some(vec![]), &rows),
            None,
            "a stale answer"
        );
    }
}
