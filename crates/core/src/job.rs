//! Work handed to a runtime to do off the UI thread: laying out megabytes of JSON, checking or
//! comparing a large payload, going through every loaded row. Whoever needs it defines the job
//! ([`Job`]: the TUI's panes, the list engine) and hands it over as a [`Work`] under a
//! [`RequestId`]; the TUI's runtime runs every job the same way, on a blocking task, and the
//! answer comes back by that id to whoever asked, which alone knows its type
//! ([`JobOutput::take`]). A long job says how far it is ([`Progress::set`]) and stops early once
//! cancelled ([`Progress::cancelled`]).

use std::any::Any;
use std::fmt;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Identifies one background request, so a result that arrives after the user moved on (a
/// refresh, a new type filter, a cancel, a closed pane) is recognised as stale and dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RequestId(pub u64);

/// Hands out request ids; owned by the app so ids never repeat across panes.
#[derive(Clone, Debug, Default)]
pub struct RequestIds(u64);

impl RequestIds {
    pub fn issue(&mut self) -> RequestId {
        self.0 += 1;
        RequestId(self.0)
    }
}

/// Work over data the pane handed it (and what that data leads to: the rows' bodies, a file the
/// user named), never the app's state.
pub trait Job: Any + Send + Sync + fmt::Debug {
    /// What the pane gets back.
    type Output: Send + 'static;

    fn run(&self, progress: &Progress) -> Self::Output;
}

/// How often, at most, a job's progress reaches the screen: every report would flood the loop
/// with redraws no one can read.
const PROGRESS_EVERY: Duration = Duration::from_millis(50);

/// A running job's line back to the pane that asked: how far it is, and whether it should stop.
pub struct Progress {
    report: Box<dyn Fn(u64, u64) + Send + Sync>,
    cancel: Arc<AtomicBool>,
    /// When progress was last passed on.
    last: Mutex<Option<Instant>>,
}

impl Progress {
    /// Passes progress to `report` (at most every [`PROGRESS_EVERY`]); `cancel` turns true when
    /// the job should stop.
    pub fn new(report: impl Fn(u64, u64) + Send + Sync + 'static, cancel: Arc<AtomicBool>) -> Self {
        Progress {
            report: Box::new(report),
            cancel,
            last: Mutex::new(None),
        }
    }

    /// Progress that goes nowhere, of a job no one cancels (tests, benches, a job run in place).
    pub fn detached() -> Self {
        Progress::new(|_, _| {}, Arc::default())
    }

    /// `done` of `total` units are done. Cheap enough to call for every unit.
    pub fn set(&self, done: u64, total: u64) {
        let now = Instant::now();
        let Ok(mut last) = self.last.lock() else {
            return;
        };
        if last.is_some_and(|at| now.duration_since(at) < PROGRESS_EVERY) {
            return;
        }
        *last = Some(now);
        (self.report)(done, total);
    }

    /// Whether the job should stop now and answer with what it has (the pane no longer wants
    /// the answer, or wants a newer one).
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

impl fmt::Debug for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Progress")
            .field("cancelled", &self.cancelled())
            .finish_non_exhaustive()
    }
}

/// Any [`Job`], as the runtime sees it: something to run that answers with a [`JobOutput`].
trait AnyJob: Any + Send + Sync + fmt::Debug {
    fn run_any(&self, progress: &Progress) -> JobOutput;
}

impl<J: Job> AnyJob for J {
    fn run_any(&self, progress: &Progress) -> JobOutput {
        JobOutput::new(self.run(progress))
    }
}

/// A job on its way to the runtime. Two are equal only when they are the same job.
#[derive(Clone, Debug)]
pub struct Work(Arc<dyn AnyJob>);

impl Work {
    pub fn new(job: impl Job) -> Self {
        Work(Arc::new(job))
    }

    /// Runs it, reporting to `progress` (the runtime does, on a blocking task).
    pub fn run_with(&self, progress: &Progress) -> JobOutput {
        self.0.run_any(progress)
    }

    /// Runs it in place, with no one watching (tests and benches).
    pub fn run(&self) -> JobOutput {
        self.run_with(&Progress::detached())
    }

    /// The job itself, when it is a `J` (for tests and benches that look into it).
    pub fn get<J: Job>(&self) -> Option<&J> {
        let job: &dyn Any = self.0.as_ref();
        job.downcast_ref()
    }
}

impl PartialEq for Work {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// What a job answered; only the pane that asked knows its type.
pub struct JobOutput(Box<dyn Any + Send>);

impl JobOutput {
    /// An answer of type `T` (the runtime makes them; tests stand in for a job with one).
    pub fn new<T: Any + Send>(answer: T) -> Self {
        JobOutput(Box::new(answer))
    }

    /// The answer, when it is a `T`; a job's answer of another type is a bug, and is dropped.
    pub fn take<T: Any>(self) -> Option<T> {
        match self.0.downcast() {
            Ok(answer) => Some(*answer),
            Err(_) => {
                tracing::error!("a job answered with a type its pane does not take");
                None
            }
        }
    }
}

impl fmt::Debug for JobOutput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JobOutput(..)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Double(u32);

    impl Job for Double {
        type Output = u32;
        fn run(&self, _: &Progress) -> u32 {
            self.0 * 2
        }
    }

    /// Counts to its number, reporting each step, unless cancelled first.
    #[derive(Debug)]
    struct Count(u64);

    impl Job for Count {
        type Output = u64;
        fn run(&self, progress: &Progress) -> u64 {
            for done in 0..self.0 {
                if progress.cancelled() {
                    return done;
                }
                progress.set(done, self.0);
            }
            self.0
        }
    }

    #[test]
    fn a_job_answers_with_its_own_type_only() {
        let work = Work::new(Double(21));
        assert_eq!(work.get::<Double>().map(|d| d.0), Some(21));
        assert_eq!(work.run().take::<u32>(), Some(42));
        assert_eq!(work.run().take::<String>(), None);
        assert_eq!(work, work.clone());
        assert_ne!(work, Work::new(Double(21)));
    }

    #[test]
    fn progress_is_passed_on_at_most_every_interval_and_cancel_stops_the_job() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let cancel = Arc::new(AtomicBool::new(false));
        let sink = seen.clone();
        let progress = Progress::new(
            move |d, t| sink.lock().unwrap().push((d, t)),
            cancel.clone(),
        );
        assert_eq!(
            Work::new(Count(1000)).run_with(&progress).take::<u64>(),
            Some(1000)
        );
        assert_eq!(
            *seen.lock().unwrap(),
            [(0, 1000)],
            "a fast job reports once, not a thousand times"
        );
        std::thread::sleep(PROGRESS_EVERY);
        progress.set(5, 10);
        assert_eq!(seen.lock().unwrap().last(), Some(&(5, 10)));
        cancel.store(true, Ordering::Relaxed);
        assert_eq!(
            Work::new(Count(1000)).run_with(&progress).take::<u64>(),
            Some(0)
        );
    }
}
