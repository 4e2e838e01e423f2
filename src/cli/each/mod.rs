//! `appdeck report --each FILE`: many reports, one a line of NDJSON, each checked as `appdeck
//! report FILE` checks its file and sent `-j N` at a time (under `--rate`), one result a line on
//! stdout in the order of the lines, every send recorded in the history.
//!
//! A line that fails is reported and the run goes on; ctrl-c stops taking new lines, lets the
//! sends under way finish and be recorded, then exits 130 (a second ctrl-c ends at once).

mod lines;
mod outcome;
mod progress;
mod recorder;
mod results;

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use futures_util::StreamExt;

use super::Failure;
use super::args::{GlobalArgs, ReportArgs};
use lines::Next;
use outcome::{Outcome, Verdict};
use progress::Progress;
use recorder::Recorder;
use results::Results;

/// Sends at once when `-j` is not given.
const DEFAULT_JOBS: u16 = 4;

/// Counts of the results so far.
#[derive(Debug, Default)]
struct Counts {
    accepted: u64,
    failed: u64,
    skipped: u64,
}

impl Counts {
    /// Hands the outcome's send to the history and counts it: every outcome, printed or not.
    fn take(&mut self, outcome: &mut Outcome, recorder: &Recorder) {
        if let Some(sent) = outcome.sent.take() {
            recorder.record(sent);
        }
        match outcome.verdict {
            Verdict::Accepted => self.accepted += 1,
            Verdict::Failed => self.failed += 1,
            Verdict::Skipped => self.skipped += 1,
        }
    }
}

pub async fn run(global: &GlobalArgs, args: &ReportArgs, path: &Path) -> Result<(), Failure> {
    let jq = super::shape::compile_jq(args.send.jq.as_deref())?;
    let source = lines::open(path)?;
    let configured = super::configured(global)?;
    if let Some(read_only) = &configured.read_only {
        return Err(Failure::Usage(format!(
            "{read_only}: nothing sent (apps.operations.report is a write; a read-only profile \
             or --read-only refuses every write)"
        )));
    }
    let client = super::client(&configured.settings, global)?.with_rate(args.rate);
    let recorder = Recorder::start(super::open_store());
    // The trace writes to stderr as it goes: a bar would be drawn over it.
    let bar = std::io::stderr().is_terminal() && global.trace == 0;
    let mut progress = Progress::new(bar, source.size);
    let jobs = usize::from(args.jobs.unwrap_or(DEFAULT_JOBS));
    let name = source.name.clone();
    let mut received = lines::spawn(source, jobs * 2);

    // Set on ctrl-c: no line is taken after it; the sends under way finish.
    let stop = Arc::new(AtomicBool::new(false));
    let taking = stop.clone();
    let read_failure: Arc<std::sync::Mutex<Option<String>>> = Arc::default();
    let failure = read_failure.clone();
    let lines = futures_util::stream::poll_fn(move |cx| {
        if taking.load(Ordering::Relaxed) {
            return std::task::Poll::Ready(None);
        }
        received.poll_recv(cx).map(|next| match next? {
            Next::Line(line) => Some(line),
            Next::Failed(why) => {
                *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(why);
                None
            }
        })
    });
    let force = args.force;
    let mut outcomes = lines
        .map(|line| outcome::check_and_send(client.clone(), line, force))
        .buffered(jobs);

    let mut out = Results::new(args.send.output, jq, crate::cli::stdout::out());
    let mut counts = Counts::default();
    let started = Instant::now();
    let signals = crate::signals::StopSignals::listen().received();
    tokio::pin!(signals);
    let mut stopped_by = None;
    let written: Result<(), Failure> = loop {
        let outcome = tokio::select! {
            outcome = outcomes.next() => outcome,
            signal = &mut signals, if stopped_by.is_none() => {
                stopped_by = Some(signal);
                stop.store(true, Ordering::Relaxed);
                // The bar goes: the few results left come at once.
                progress.finish_with_warning(
                    "stopping: the sends under way finish and are recorded (ctrl-c again to \
                     end now)",
                );
                // A second signal ends the process at once.
                tokio::spawn(async move {
                    let again = crate::signals::StopSignals::listen().received().await;
                    std::process::exit(128 + again);
                });
                continue;
            }
        };
        let Some(mut outcome) = outcome else {
            break Ok(());
        };
        counts.take(&mut outcome, &recorder);
        if let Err(e) = progress.print(|| say(&outcome, &mut out)) {
            // Only the output failed (a closed pipe): no line is taken after it, and the sends
            // under way are recorded and counted, so the summary says every send that went out.
            stop.store(true, Ordering::Relaxed);
            while let Some(mut rest) = outcomes.next().await {
                counts.take(&mut rest, &recorder);
            }
            break Err(e);
        }
        let sent = counts.accepted + counts.failed;
        let rate = sent as f64 / started.elapsed().as_secs_f64().max(1e-3);
        progress.update(outcome.end, sent, counts.failed, counts.skipped, rate);
    };
    progress.finish();
    let finished = written.and_then(|()| out.finish());
    let tally = recorder.finish();
    let read_failure = read_failure
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    summarise(
        &name,
        &counts,
        tally.as_ref(),
        read_failure.as_deref(),
        started,
    );
    // A closed pipe is a quiet end (`| head -1`), but not one that hides a failed send.
    let closed_pipe =
        matches!(&finished, Err(Failure::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe);
    if !closed_pipe {
        finished?;
    }
    if let Some(signal) = stopped_by {
        return Err(Failure::Reported(u8::try_from(128 + signal).unwrap_or(130)));
    }
    let lost = tally.is_some_and(|t| t.lost > 0);
    if counts.failed + counts.skipped > 0 || read_failure.is_some() || lost {
        return Err(Failure::Reported(1));
    }
    Ok(())
}

/// Writes a result on stdout, and its notes on stderr.
fn say(outcome: &Outcome, out: &mut Results<impl Write>) -> Result<(), Failure> {
    if !outcome.notes.is_empty() {
        let notes: Vec<String> = outcome
            .notes
            .iter()
            .map(|note| format!("line {}: {note}", outcome.line))
            .collect();
        super::warn(&notes);
    }
    out.write(outcome)
}

/// The summary on stderr: how many lines were sent, refused or skipped, and recorded.
fn summarise(
    name: &str,
    counts: &Counts,
    tally: Option<&recorder::Tally>,
    read_failure: Option<&str>,
    started: Instant,
) {
    let sent = counts.accepted + counts.failed;
    let seconds = started.elapsed().as_secs_f64();
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "appdeck: {name}: {sent} sent ({} accepted, {} refused or not answered), {} skipped, \
         in {seconds:.1}s",
        counts.accepted, counts.failed, counts.skipped
    );
    if let Some(why) = read_failure {
        let _ = writeln!(err, "appdeck: {}", crate::sanitize::line(why));
    }
    if let Some(tally) = tally
        && tally.lost > 0
    {
        let _ = writeln!(
            err,
            "appdeck: {} of the sends were not recorded in the history: {}",
            tally.lost,
            crate::sanitize::line(tally.first_error.as_deref().unwrap_or("unknown error"))
        );
    }
}
