//! Work a pane hands the runtime to do off the UI thread: laying out megabytes of JSON, checking
//! or comparing a large payload. The pane defines the job in its own folder ([`Job`]) and returns
//! it as [`Command::Run`](super::Command::Run); the runtime runs every job the same way, on a
//! blocking task, and the answer comes back by request id ([`Delivery::Job`](super::Delivery::Job))
//! to the pane that asked, which alone knows its type ([`JobOutput::take`]).

use std::any::Any;
use std::fmt;
use std::sync::Arc;

/// Pure work over data the pane copied into it: no I/O, no app state.
pub trait Job: Any + Send + Sync + fmt::Debug {
    /// What the pane gets back.
    type Output: Send + 'static;

    fn run(&self) -> Self::Output;
}

/// Any [`Job`], as the runtime sees it: something to run that answers with a [`JobOutput`].
trait AnyJob: Any + Send + Sync + fmt::Debug {
    fn run_any(&self) -> JobOutput;
}

impl<J: Job> AnyJob for J {
    fn run_any(&self) -> JobOutput {
        JobOutput::new(self.run())
    }
}

/// A job on its way to the runtime. Two are equal only when they are the same job.
#[derive(Clone, Debug)]
pub struct Work(Arc<dyn AnyJob>);

impl Work {
    pub fn new(job: impl Job) -> Self {
        Work(Arc::new(job))
    }

    /// Runs it (the runtime does, on a blocking task; tests do, in place).
    pub fn run(&self) -> JobOutput {
        self.0.run_any()
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
        fn run(&self) -> u32 {
            self.0 * 2
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
}
