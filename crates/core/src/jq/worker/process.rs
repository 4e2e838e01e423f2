//! appdeck's side of a worker: starts it, sends it rows, reads its answers, and kills it when
//! the answers are no longer wanted.

use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, Stdio};

use super::slots::Slot;
use super::{ARG, ERROR, FALSE, MAX_ERROR_BYTES, MEMORY_LIMIT, TRUE, read_frame, write_frame};
use crate::sanitize;

/// How often a wait for the worker's next answer looks whether it was cancelled: only while a
/// job runs, never when appdeck is idle.
const LOOK_EVERY_MS: i32 = 100;

/// A running worker and its answers. Dropped, it is killed (and reaped).
pub struct Worker {
    child: Child,
    /// Its turn among the workers of every job, given back when it is dropped (after the kill).
    _slot: Slot,
    rows: Option<RowSender>,
    answers: BufReader<ChildStdout>,
    stderr: Option<ChildStderr>,
}

/// What the worker said of one row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    True,
    False,
    /// The expression failed on the row (or the row is not JSON it takes): why.
    Failed(String),
}

/// Why no more answers come.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stopped {
    /// The job was cancelled: the worker was killed.
    Cancelled,
    /// The worker ended before answering every row: why, in the user's words.
    Ended(String),
}

/// The pipe into the worker, for the thread that reads the rows.
pub struct RowSender {
    pipe: BufWriter<ChildStdin>,
}

impl RowSender {
    /// Sends one row's JSON. Fails once the worker is gone (killed, or ended).
    pub fn send(&mut self, json: &[u8]) -> io::Result<()> {
        write_frame(&mut self.pipe, json)
    }

    /// No more rows: the worker answers those it has and ends.
    pub fn finish(mut self) -> io::Result<()> {
        self.pipe.flush()
    }
}

impl Worker {
    /// Starts `program` as a worker for `expr` (which compiles: appdeck compiled it first) once
    /// its turn comes ([`Slot`]): `Stopped::Cancelled` when `cancelled` says stop first.
    pub fn start(
        program: &Path,
        expr: &str,
        cancelled: &dyn Fn() -> bool,
    ) -> Result<Worker, Stopped> {
        let slot = Slot::take(cancelled).ok_or(Stopped::Cancelled)?;
        Worker::start_in(program, expr, slot)
            .map_err(|e| Stopped::Ended(format!("the worker could not be started: {e}")))
    }

    fn start_in(program: &Path, expr: &str, slot: Slot) -> io::Result<Worker> {
        let mut command = Command::new(program);
        command
            .arg(ARG)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        confine(&mut command);
        let mut child = command.spawn()?;
        let (Some(stdin), Some(stdout), stderr) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other("the worker's pipes were not made"));
        };
        let rows = RowSender {
            pipe: BufWriter::with_capacity(1 << 16, stdin),
        };
        // Made first, so that a failure below kills it.
        let mut worker = Worker {
            child,
            _slot: slot,
            rows: Some(rows),
            answers: BufReader::with_capacity(1 << 16, stdout),
            stderr,
        };
        if let Some(rows) = worker.rows.as_mut() {
            write_frame(&mut rows.pipe, expr.as_bytes())?;
        }
        Ok(worker)
    }

    /// The worker's process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// The pipe to send rows into (the first call takes it).
    pub fn take_rows(&mut self) -> Option<RowSender> {
        self.rows.take()
    }

    /// The next row's answer, waiting for it; `None` once the worker answered every row sent
    /// and ended. Stops waiting soon after `cancelled` turns true, and kills the worker.
    pub fn next(&mut self, cancelled: impl Fn() -> bool) -> Result<Option<Answer>, Stopped> {
        if self.answers.buffer().is_empty() {
            self.wait_for_answer(&cancelled)?;
        }
        let mut kind = [0u8];
        match self.answers.read(&mut kind) {
            Ok(1) => {}
            Ok(_) => return self.ended(),
            Err(e) => {
                return Err(Stopped::Ended(format!(
                    "its answers could not be read: {e}"
                )));
            }
        }
        match kind[0] {
            TRUE => Ok(Some(Answer::True)),
            FALSE => Ok(Some(Answer::False)),
            ERROR => {
                let mut text = Vec::new();
                match read_frame(
                    &mut (&mut self.answers).take(4 + MAX_ERROR_BYTES as u64),
                    &mut text,
                ) {
                    Ok(true) => Ok(Some(Answer::Failed(
                        sanitize::line(&String::from_utf8_lossy(&text)).into_owned(),
                    ))),
                    _ => self.ended(),
                }
            }
            _ => {
                self.kill();
                Err(Stopped::Ended(
                    "it answered what appdeck cannot read".into(),
                ))
            }
        }
    }

    /// Kills the worker (a cancelled job): the row sender fails from now on.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Waits until an answer can be read (or the worker ended), looking at `cancelled` meanwhile.
    fn wait_for_answer(&mut self, cancelled: &dyn Fn() -> bool) -> Result<(), Stopped> {
        loop {
            if cancelled() {
                self.kill();
                return Err(Stopped::Cancelled);
            }
            if readable(&self.answers, LOOK_EVERY_MS) {
                return Ok(());
            }
        }
    }

    /// The answers ended: after the last row (the worker ended well), or before (why not).
    fn ended(&mut self) -> Result<Option<Answer>, Stopped> {
        let mut said = Vec::new();
        if let Some(stderr) = self.stderr.take() {
            let _ = stderr.take(MAX_ERROR_BYTES as u64).read_to_end(&mut said);
        }
        let status = match self.child.wait() {
            Ok(status) if status.success() => return Ok(None),
            Ok(status) => status,
            Err(e) => return Err(Stopped::Ended(format!("it could not be waited for: {e}"))),
        };
        let said = String::from_utf8_lossy(&said);
        let why = if said.contains("memory allocation of") {
            format!(
                "the expression needed more than {} GiB of memory",
                MEMORY_LIMIT >> 30
            )
        } else if said.contains("overflowed its stack") {
            "the expression nested calls too deep".to_owned()
        } else {
            let first = said.lines().next().unwrap_or_default();
            let first = sanitize::line(first);
            match (signal_of(&status), first.is_empty()) {
                (Some(signal), _) => format!("the worker was killed (signal {signal})"),
                (None, true) => format!("the worker ended ({status})"),
                (None, false) => format!("the worker ended ({status}): {first}"),
            }
        };
        Err(Stopped::Ended(why))
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The signal that ended a process, if one did.
fn signal_of(status: &std::process::ExitStatus) -> Option<i32> {
    #[cfg(unix)]
    {
        std::os::unix::process::ExitStatusExt::signal(status)
    }
    #[cfg(not(unix))]
    {
        let _ = status;
        None
    }
}

/// Caps the worker's address space at [`MEMORY_LIMIT`] and, on Linux, has it killed when the
/// thread that started it ends (appdeck killed, crashed or quit mid-job): it must not run on,
/// computing for no one.
#[cfg(unix)]
fn confine(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: getpid only reads the process's id.
    let parent = unsafe { libc::getpid() };
    let limit = libc::rlimit {
        rlim_cur: MEMORY_LIMIT as libc::rlim_t,
        rlim_max: MEMORY_LIMIT as libc::rlim_t,
    };
    // SAFETY: between fork and exec the closure only makes system calls (setrlimit, prctl,
    // getppid) and builds errors that do not allocate, as `pre_exec` requires.
    unsafe {
        command.pre_exec(move || {
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(io::Error::last_os_error());
            }
            #[cfg(target_os = "linux")]
            {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(io::Error::last_os_error());
                }
                // appdeck ended before the line above: nobody would kill the worker.
                if libc::getppid() != parent {
                    return Err(io::Error::from_raw_os_error(libc::ESRCH));
                }
            }
            #[cfg(not(target_os = "linux"))]
            let _ = parent;
            Ok(())
        });
    }
}

#[cfg(not(unix))]
fn confine(_: &mut Command) {}

/// Whether `answers` can be read without waiting (or hit its end) within `millis`.
#[cfg(unix)]
fn readable(answers: &BufReader<ChildStdout>, millis: i32) -> bool {
    use std::os::fd::AsRawFd;
    let mut poll = libc::pollfd {
        fd: answers.get_ref().as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one pollfd, valid for the call.
    let ready = unsafe { libc::poll(&mut poll, 1, millis) };
    // An error other than an interruption is for the read that follows to report.
    ready != 0 && !(ready < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted)
}

#[cfg(not(unix))]
fn readable(_: &BufReader<ChildStdout>, _: i32) -> bool {
    true
}
