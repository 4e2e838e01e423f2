//! `appdeck list`: pages are written as they arrive and dropped, so memory stays flat however
//! many resources there are. The next page is fetched while the current one is written (one page
//! ahead, no more). What was written before an error stays written.

mod changes;
mod fetch;
mod progress;
mod query;
mod sink;
mod watch;

use std::io::{IsTerminal, Write};
use std::sync::Arc;

use super::Failure;
use super::args::{ListArgs, ListOutput};
use crate::api::retry::{RetryNotice, RetryPolicy};
use crate::api::{ApiError, Client, Pager};
use fetch::Fetched;
use progress::Progress;
use query::Query;
use sink::Sink;

/// Runs the listing (or the watch), retrying a failed page `retries` times, writing results to
/// `out` and the table's footer to `err`.
pub async fn run(
    client: &Client,
    args: &ListArgs,
    retries: u32,
    width: usize,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), Failure> {
    let client = client.clone().with_rate(args.rate);
    // The resume hint repeats a cursor the user may have given: the token never shows.
    let mask = client.mask().clone();
    if let Some(every) = args.watch {
        let retry = RetryPolicy::new(retries, Arc::new(say_retry));
        return watch::run(&client, args, every, retry, out, err).await;
    }
    let stdout_terminal = std::io::stdout().is_terminal();
    let progress = Progress::new(progress::wanted(
        args.all,
        stdout_terminal,
        std::io::stderr().is_terminal(),
    ));
    let line = progress.clone();
    let retry = RetryPolicy::new(
        retries,
        Arc::new(move |notice: &RetryNotice| line.aside(|| say_retry(notice))),
    );
    let max_pages = (!args.all).then(|| args.pages.unwrap_or(1));
    let mut query = Query::new(args.where_.as_deref(), args.sort.as_deref())?;
    let mut sink = Sink::new(args, width, stdout_terminal)?;
    let pager = Pager::new(args.resource_type.clone(), args.limit)
        .starting_at(args.from.clone())
        .retrying(retry);
    let mut pages = fetch::ahead(client, pager, max_pages, args.max_items);
    let mut left = args.max_items;
    let mut fetched = 0u32;
    let mut more = false;
    let mut resume = None;
    let outcome: Result<(), ApiError> = loop {
        match pages.recv().await {
            None => break Ok(()),
            Some(Fetched::Failed { error, resume: at }) => {
                resume = at;
                break Err(error);
            }
            Some(Fetched::Page(mut page)) => {
                fetched += 1;
                query.filter(&mut page);
                let mut has_next = page.envelope.next_cursor().is_some();
                // A `next` that is no cursor is a bad answer, which the fetching hands over
                // next, whatever the caps: the listing does not end here as if complete.
                let next_fault = page.envelope.next_fault().is_some();
                if let Some(left) = &mut left {
                    let keep = usize::try_from(*left).unwrap_or(usize::MAX);
                    has_next |= page.len() > keep;
                    page.truncate(keep);
                    *left -= page.len() as u64;
                }
                let kept = page.len();
                if let Some(page) = query.pass(page) {
                    sink.page(&page, out, err)?;
                }
                progress.page(kept, fetched);
                let capped = left == Some(0) || max_pages.is_some_and(|max| fetched >= max);
                if has_next && capped {
                    more = true;
                    break Ok(());
                }
                if left == Some(0) && !next_fault {
                    break Ok(());
                }
            }
        }
    };
    progress.clear();
    if let Some(sorted) = query.sorted() {
        sink.page(&sorted, out, err)?;
    }
    sink.finish(&outcome, more, args.resource_type.as_deref(), out, err)?;
    if let Err(error) = outcome {
        let Some(cursor) = resume.filter(|_| worth_resuming(&error)) else {
            return Err(Failure::Api(error));
        };
        // The error first, then what to do about it.
        let _ = Failure::Api(error).report();
        // Every row before the failed page is written: resuming there repeats none (nor the
        // header line of a table, csv or tsv, with --no-headers).
        let headers = match args.output() {
            ListOutput::Table | ListOutput::Csv | ListOutput::Tsv
                if !args.no_headers && args.jq.is_none() =>
            {
                " --no-headers"
            }
            _ => "",
        };
        // Under --sort the rows written are sorted among themselves only: a resumed run's follow
        // in an order of their own, which a file of both would not show.
        let sorted_apart = match args.sort {
            Some(_) => " (each run is sorted on its own: sort the rows of both together)",
            None => "",
        };
        let cursor = mask.text(&cursor);
        if cursor.len() > MAX_RESUME_CURSOR {
            writeln!(
                err,
                "appdeck: the cursor to resume from is {} bytes, too long to print or to pass \
                 as --from (a command line takes 128 KiB an argument); it starts {}",
                cursor.len(),
                crate::sanitize::excerpt(cursor.as_bytes(), RESUME_CURSOR_START_CHARS)
            )?;
        } else {
            writeln!(
                err,
                "appdeck: resume with: --from {}{headers}{sorted_apart}",
                crate::sanitize::line(&cursor)
            )?;
        }
        return Err(Failure::Reported(1));
    }
    let where_failed = query.failure_note();
    if let Some(note) = &where_failed {
        writeln!(err, "{note}")?;
    }
    match (sink.jq_failed(), where_failed) {
        (0, None) => Ok(()),
        // As jq over its inputs: the failures are said; the status says there were some.
        _ => Err(Failure::Reported(JQ_FAILED)),
    }
}

/// The longest cursor the resume hint prints: the longest argument Linux takes (128 KiB with its
/// NUL). A 20 MiB one flooded the terminal on one line, and such a `--from` could not be used.
const MAX_RESUME_CURSOR: usize = 128 * 1024 - 1;

/// How much of a cursor too long to print is shown, so the user can tell what the service sent.
const RESUME_CURSOR_START_CHARS: usize = 100;

/// The exit status when `--jq` failed on some item but the listing went on (jq's own for an
/// error while running: 2 is a usage error here).
pub const JQ_FAILED: u8 = 5;

/// Whether the page that failed may be asked for again: not when the service refused the
/// request itself (a 4xx but 408 and 429: the cursor it was given, say), which a resume would
/// only send again.
fn worth_resuming(error: &ApiError) -> bool {
    !matches!(
        error,
        ApiError::Http {
            status: 400..=499,
            ..
        }
    ) || matches!(
        error,
        ApiError::Http {
            status: 408 | 429,
            ..
        }
    )
}

/// Says on stderr what failed and when the retry comes.
fn say_retry(notice: &RetryNotice) {
    let asked = if notice.server_asked {
        " (as the server's Retry-After asks)"
    } else {
        ""
    };
    eprintln!(
        "appdeck: {}; retry {} of {} in {:.1}s{asked}",
        crate::sanitize::line(&notice.error.to_string()),
        notice.retry,
        notice.of,
        notice.wait.as_secs_f64()
    );
}
