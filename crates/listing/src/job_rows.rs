//! Which rows of a listing a job of `/` or `:where` tests, and where their bodies are: the
//! listing's rows shared ([`SharedRows`]) for a pass over every row from one on or over a set's
//! rows, which the job lists on its own thread; listed with their bodies for the rows to name
//! fields of. Nothing a row is listed on the UI thread: a million rows' bodies took 8 to 16 MB
//! and 10 to 30 ms there.

use std::borrow::Cow;
use std::ops::ControlFlow;

use super::bodies::{Bodies, BodyError, BodyId};
use super::narrowing::RowSet;
use super::row_list::SharedRows;
use super::rows::Rows;

/// Which rows of the listing a job tests, in order, and where their bodies are.
#[derive(Clone, Debug)]
pub enum JobRows {
    /// Every row from `first` on, of the rows shared (a first pass, a page).
    From { first: usize, rows: SharedRows },
    /// The rows of `keep` (the rows a shorter text found), listed by the job on its thread.
    Kept { rows: SharedRows, keep: RowSet },
    /// These rows (the rows to name fields of), with their bodies in the same order.
    Listed {
        rows: Vec<usize>,
        bodies: Vec<BodyId>,
    },
}

impl Default for JobRows {
    fn default() -> Self {
        JobRows::Listed {
            rows: Vec::new(),
            bodies: Vec::new(),
        }
    }
}

impl JobRows {
    /// The rows of `rows` from `first` on, or those of `keep`: shared, not listed one by one on
    /// the UI thread, where a million rows' bodies took 8 to 16 MB and 10 to 30 ms.
    pub fn pick(rows: &Rows, first: usize, keep: Option<&RowSet>) -> JobRows {
        let rows = rows.share(usize::MAX);
        match keep {
            None => JobRows::From { first, rows },
            Some(keep) => JobRows::Kept {
                rows,
                keep: keep.clone(),
            },
        }
    }

    /// The rows of a [`JobRows::Kept`] listed with their bodies (on the job's thread), each list
    /// made once at its size; the others as they are.
    pub(super) fn listed(&self) -> Cow<'_, JobRows> {
        let JobRows::Kept { rows, keep } = self else {
            return Cow::Borrowed(self);
        };
        let count = keep.count();
        let (mut indices, mut bodies) = (Vec::with_capacity(count), Vec::with_capacity(count));
        for index in keep.iter().take_while(|&i| i < rows.len()) {
            indices.push(index);
            bodies.push(rows.at(index).body);
        }
        Cow::Owned(JobRows::Listed {
            rows: indices,
            bodies,
        })
    }

    /// How many rows are tested.
    pub fn len(&self) -> usize {
        match self {
            JobRows::From { first, rows } => rows.len().saturating_sub(*first),
            // A set is of rows loaded when it was made, which the rows shared since hold.
            JobRows::Kept { keep, .. } => keep.count(),
            JobRows::Listed { rows, .. } => rows.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls `f` with the position in `range` (of the rows tested), the index in the listing,
    /// the body and its JSON text of each row of `range`, in order, until `f` breaks.
    pub(super) fn scan(
        &self,
        bodies: &Bodies,
        range: std::ops::Range<usize>,
        mut f: impl FnMut(usize, usize, BodyId, &str) -> ControlFlow<()>,
    ) -> Result<(), BodyError> {
        match self {
            JobRows::From { first, rows } => {
                let start = first + range.start;
                for (at, slice) in rows.slices(start..first + range.end) {
                    let mut stopped = false;
                    bodies.scan_by(
                        slice,
                        |row| row.body,
                        |k, json| {
                            let flow = f(at + k - start, at + k, slice[k].body, json);
                            stopped = flow.is_break();
                            flow
                        },
                    )?;
                    if stopped {
                        break;
                    }
                }
                Ok(())
            }
            JobRows::Listed { rows, bodies: ids } => {
                let (ids, indices) = (&ids[range.clone()], &rows[range]);
                bodies.scan(ids, |k, json| f(k, indices[k], ids[k], json))
            }
            JobRows::Kept { .. } => self.listed().scan(bodies, range, f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::row_list::CHUNK_ROWS;

    /// What a scan of `range` of `job` sees: (position, index, the body's text), up to `stop`.
    fn scanned(
        job: &JobRows,
        bodies: &Bodies,
        range: std::ops::Range<usize>,
        stop: usize,
    ) -> Vec<(usize, usize, String)> {
        let mut seen = Vec::new();
        job.scan(bodies, range, |position, index, body, json| {
            assert_eq!(bodies.read(body).unwrap(), json);
            seen.push((position, index, json.to_owned()));
            match seen.len() == stop {
                true => ControlFlow::Break(()),
                false => ControlFlow::Continue(()),
            }
        })
        .unwrap();
        seen
    }

    /// A job over every row from one on reads the listing's shared rows: each part of it (as
    /// the threads share it out) sees its rows' positions, indices and bodies, across chunks,
    /// and stops when told; a listed job sees the rows listed.
    #[test]
    fn a_job_reads_the_rows_it_tests_across_chunks() {
        let count = 2 * CHUNK_ROWS + 50;
        let (rows, bodies) = Rows::with_bodies((0..count).map(|i| serde_json::json!({ "n": i })));
        let text = |i: usize| format!(r#"{{"n":{i}}}"#);
        let first = 7;
        let job = JobRows::pick(&rows, first, None);
        assert!(matches!(job, JobRows::From { .. }), "shared, not listed");
        assert_eq!(job.len(), count - first);
        for range in [0..job.len(), CHUNK_ROWS - 10..CHUNK_ROWS + 10, 5..6] {
            let seen = scanned(&job, &bodies, range.clone(), usize::MAX);
            let want: Vec<_> = (range.clone().enumerate())
                .map(|(position, at)| (position, first + at, text(first + at)))
                .collect();
            assert_eq!(seen, want, "{range:?}");
        }
        let stopped = scanned(&job, &bodies, CHUNK_ROWS - 10..job.len(), 30);
        assert_eq!(stopped.len(), 30, "stops across a chunk's end");
        let mut keep = RowSet::default();
        for i in [3, CHUNK_ROWS + 1, count - 1] {
            keep.insert(i);
        }
        let kept = JobRows::pick(&rows, 0, Some(&keep));
        assert!(matches!(kept, JobRows::Kept { .. }), "shared, not listed");
        assert_eq!(kept.len(), 3);
        let seen = scanned(&kept, &bodies, 1..3, usize::MAX);
        assert_eq!(
            seen,
            [
                (0, CHUNK_ROWS + 1, text(CHUNK_ROWS + 1)),
                (1, count - 1, text(count - 1))
            ]
        );
    }
}
