//! `appdeck list --watch [SECS]`: lists every page, says what changed since the last look as one
//! NDJSON event a line (`{"event":"added","resource":{…}}`, `changed`, `removed`, the resource's
//! bytes as the server sent them), waits SECS, and looks again, until a signal (ctrl-c, SIGTERM,
//! SIGHUP) ends it with exit 0, as `kubectl get -w` does; a closed pipe ends it at the next event.
//! The first look says every resource is `added`. A look that fails (after the retries of each
//! page) is said on stderr and tried again with a growing wait; the watch goes on.

use std::io::Write;
use std::time::Duration;

use serde::Serialize;
use serde_json::value::RawValue;

use super::changes::{Change, Identity, Snapshot};
use crate::api::retry::{RetryPolicy, backoff};
use crate::api::{ApiError, Client, Pager};
use crate::cli::Failure;
use crate::cli::args::ListArgs;
use crate::cli::shape::jq::Jq;
use crate::cli::shape::jq_failure;
use crate::out::items::write_raw;
use crate::signals::StopSignals;

/// One event for scripts: the resource spliced in as the service sent it.
#[derive(Serialize)]
struct Event<'a> {
    event: &'static str,
    resource: &'a RawValue,
}

/// The longest wait after failed looks: a service down for an hour is looked at once a minute.
const MAX_FAILED_WAIT: Duration = Duration::from_secs(60);

/// Watches until a stop signal; an output error (a closed pipe) ends it too.
pub async fn run(
    client: &Client,
    args: &ListArgs,
    every: Duration,
    retry: RetryPolicy,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), Failure> {
    args.refuse_output_beside("--watch")
        .map_err(Failure::Usage)?;
    let jq = args
        .jq
        .as_deref()
        .map(|expr| Jq::compile(expr, std::io::IsTerminal::is_terminal(&std::io::stdout())))
        .transpose()
        .map_err(Failure::Usage)?;
    let stop = StopSignals::listen().received();
    let mut watch = Watch {
        args,
        retry,
        jq,
        snapshot: Snapshot::default(),
        repeated_said: 0,
    };
    let outcome = tokio::select! {
        failure = watch.forever(client, every, out, err) => Err(failure),
        // Events are written whole between awaits: what is buffered is whole lines.
        _ = stop => Ok(()),
    };
    out.flush()?;
    outcome
}

/// Whether the service refused the token or the base URL (401, 403, 404).
fn refuses_the_configuration(error: &ApiError) -> bool {
    matches!(
        error,
        ApiError::Http {
            status: 401 | 403 | 404,
            ..
        }
    )
}

/// Waits `wait`, or less when stdout's reader goes away (`| head -1` had its line): `true` then.
/// Between looks nothing is written, so a closed pipe was noticed only when the data changed.
async fn reader_gone_within(wait: Duration) -> bool {
    #[cfg(unix)]
    {
        let ms = i32::try_from(wait.as_millis()).unwrap_or(i32::MAX);
        let gone = tokio::task::spawn_blocking(move || {
            // No event asked for: only an error or a hang-up (the reader closed) ends the wait.
            let mut fd = libc::pollfd {
                fd: libc::STDOUT_FILENO,
                events: 0,
                revents: 0,
            };
            // SAFETY: one valid pollfd, for the length given.
            let ready = unsafe { libc::poll(&mut fd, 1, ms) };
            ready > 0 && fd.revents & (libc::POLLERR | libc::POLLHUP | libc::POLLNVAL) != 0
        });
        let started = tokio::time::Instant::now();
        match gone.await {
            Ok(true) => true,
            // A poll cut short (a signal) or that could not run: the rest of the wait, plainly.
            _ => {
                tokio::time::sleep_until(started + wait).await;
                false
            }
        }
    }
    #[cfg(not(unix))]
    {
        tokio::time::sleep(wait).await;
        false
    }
}

struct Watch<'a> {
    args: &'a ListArgs,
    retry: RetryPolicy,
    jq: Option<Jq>,
    snapshot: Snapshot,
    /// How many resources listed more than once stderr last said (said again when it changes,
    /// not at every look).
    repeated_said: usize,
}

impl Watch<'_> {
    /// Looks, waits, looks again; returns only when the output fails.
    async fn forever(
        &mut self,
        client: &Client,
        every: Duration,
        out: &mut impl Write,
        err: &mut impl Write,
    ) -> Failure {
        let mut failed_in_a_row = 0;
        let mut looked = false;
        loop {
            let wait = match self.look(client, out, err).await {
                Err(failure) => return failure,
                Ok(Ok(())) => {
                    failed_in_a_row = 0;
                    looked = true;
                    every
                }
                // A refusal before any look succeeded is the configuration (token, base URL):
                // it ends the watch as it ends `list`, with its hint, rather than being retried
                // for ever without a line on stdout. Once a look has succeeded, it may pass.
                Ok(Err(error)) if !looked && refuses_the_configuration(&error) => {
                    return Failure::Api(error);
                }
                Ok(Err(error)) => {
                    failed_in_a_row += 1;
                    let wait = backoff(every, failed_in_a_row).min(MAX_FAILED_WAIT);
                    let said = writeln!(
                        err,
                        "appdeck: watch: the look failed: {}; looking again in {:.1}s",
                        crate::sanitize::line(&error.to_string()),
                        wait.as_secs_f64()
                    );
                    if let Err(e) = said {
                        return e.into();
                    }
                    wait
                }
            };
            if reader_gone_within(wait).await {
                return Failure::Output(std::io::ErrorKind::BrokenPipe.into());
            }
        }
    }

    /// One look over every page, writing the changes as they are found. The outer `Err` is the
    /// output's failure; the inner one the service's.
    async fn look(
        &mut self,
        client: &Client,
        out: &mut impl Write,
        err: &mut impl Write,
    ) -> Result<Result<(), ApiError>, Failure> {
        let mut pager = Pager::new(self.args.resource_type.clone(), self.args.limit)
            .retrying(self.retry.clone());
        self.snapshot.begin_look();
        while let Some(page) = pager.next_raw_page(client).await {
            let page = match page {
                Ok(page) => page,
                Err(error) => return Ok(Err(error)),
            };
            for item in page.raw_items() {
                if let Some(change) = self.snapshot.item(item) {
                    self.event(change, item, out)?;
                }
            }
            out.flush()?;
        }
        self.say_repeated(err)?;
        for gone in self.snapshot.end_look() {
            self.event(Change::Removed, &gone, out)?;
        }
        out.flush()?;
        Ok(Ok(()))
    }

    /// Says on stderr that the service listed some resources more than once (each copy is
    /// watched: the n-th compared with the n-th of the next look), when their number changed.
    fn say_repeated(&mut self, err: &mut impl Write) -> Result<(), Failure> {
        let (count, first) = self.snapshot.repeated();
        if count == self.repeated_said {
            return Ok(());
        }
        self.repeated_said = count;
        if let Some(first) = first {
            let first = match first {
                Identity::Named { id, .. } => {
                    format!(" (the first: id {})", crate::sanitize::line(id))
                }
                Identity::Anonymous(_) => String::new(),
            };
            writeln!(
                err,
                "appdeck: watch: the service lists {} more than once{first}: every copy is \
                 watched, each compared with the same copy (first, second…) of the next look",
                crate::text::counted(count, "resource")
            )?;
        }
        Ok(())
    }

    /// One event line, or the `--jq` expression's results for the event.
    fn event(&self, change: Change, item: &[u8], out: &mut impl Write) -> Result<(), Failure> {
        let event = Event {
            event: change.name(),
            // The page reader found the item as such a value: this reads it again as it came.
            resource: serde_json::from_slice(item).map_err(std::io::Error::from)?,
        };
        let event = serde_json::to_vec(&event).map_err(std::io::Error::from)?;
        match &self.jq {
            None => {
                write_raw(&event, out)?;
                out.write_all(b"\n")?;
            }
            Some(jq) => jq.run(&event, out).map_err(jq_failure)?,
        }
        Ok(())
    }
}
