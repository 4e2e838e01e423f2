//! `:where` over a run of rows in a worker process (src/jq/worker): jaq cannot be stopped or
//! bounded in place, a worker can be killed. One thread sends the rows' JSON in, this one reads
//! the answers, in the same order, and kills the worker once the job is cancelled.

use std::ops::ControlFlow;
use std::path::Path;

use super::narrowing::{CHECK_EVERY, Part, TestRows, Tested};
use crate::jq::Program;
use crate::jq::worker::{Answer, Stopped, Worker};

impl TestRows {
    /// Tests the rows of `part` with `program` in a worker started from `worker`. Rows after
    /// a worker that ended early (out of memory, killed) are counted untested, with why.
    pub(super) fn run_part_in_worker(
        &self,
        worker: &Path,
        program: &Program,
        part: Part,
    ) -> Tested {
        let mut tested = Tested::default();
        let Part {
            rows,
            range,
            progress,
            ..
        } = &part;
        let size = range.len();
        if size == 0 {
            return tested;
        }
        let mut worker = match Worker::start(worker, program.source(), &|| progress.cancelled()) {
            Ok(worker) => worker,
            Err(Stopped::Cancelled) => return tested,
            Err(Stopped::Ended(why)) => {
                tested.stopped = Some(why);
                tested.untested = size;
                return tested;
            }
        };
        let Some(mut sender) = worker.take_rows() else {
            tested.untested = size;
            return tested;
        };
        // The rows the answers are for, in the order sent; the rows that passed, by position.
        let (indices, scanned, passed) = std::thread::scope(|scope| {
            let sending = scope.spawn(move || {
                let mut indices = Vec::with_capacity(size);
                let scanned = rows.scan(&self.bodies, range.clone(), |_, index, _, json| {
                    // Fails once the worker is gone: nothing more to send.
                    if sender.send(json.as_bytes()).is_err() {
                        return ControlFlow::Break(());
                    }
                    indices.push(index);
                    ControlFlow::Continue(())
                });
                let _ = sender.finish();
                (indices, scanned)
            });
            let mut passed = Vec::new();
            let mut answered = 0;
            loop {
                match worker.next(|| progress.cancelled()) {
                    Ok(Some(Answer::True)) => passed.push(answered),
                    Ok(Some(Answer::False)) => {}
                    Ok(Some(Answer::Failed(error))) => {
                        tested.failed += 1;
                        tested.first_failure.get_or_insert(error);
                    }
                    Ok(None) | Err(Stopped::Cancelled) => break,
                    Err(Stopped::Ended(why)) => {
                        tested.stopped = Some(why);
                        break;
                    }
                }
                answered += 1;
                if answered % CHECK_EVERY == 0 {
                    part.tested_more();
                }
            }
            // The sender may be waiting on a full pipe: it fails and ends once this is gone.
            worker.kill();
            tested.untested = size - answered;
            let (indices, scanned) = sending.join().unwrap_or_else(|_| (Vec::new(), Ok(())));
            (indices, scanned, passed)
        });
        tested.passed = passed
            .into_iter()
            .filter_map(|at| indices.get(at).copied())
            .collect();
        if let Err(error) = scanned {
            tested.unreadable = Some(error.to_string());
        }
        tested
    }
}
