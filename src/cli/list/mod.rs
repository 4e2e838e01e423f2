//! `appdeck list`: pages are written as they arrive and dropped, so memory stays flat however
//! many resources there are. The next page is fetched while the current one is written (one page
//! ahead, no more). What was written before an error stays written.

mod changes;
mod fetch;
mod progress;
mod sink;
mod watch;

use std::io::{IsTerminal, Write};
use std::sync::Arc;

use super::Failure;
use super::args::ListArgs;
use crate::api::retry::{RetryNotice, RetryPolicy};
use crate::api::{ApiError, Client, Pager};
use fetch::Fetched;
use progress::Progress;
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
    let mut sink = Sink::new(args, width, stdout_terminal)?;
    let pager = Pager::new(args.resource_type.clone(), args.limit)
        .starting_at(args.from.clone())
        .retrying(retry);
    let mut pages = fetch::ahead(client, pager, max_pages);
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
                let mut has_next = page.envelope.next_cursor().is_some();
                if let Some(left) = &mut left {
                    let keep = usize::try_from(*left).unwrap_or(usize::MAX);
                    has_next |= page.len() > keep;
                    page.truncate(keep);
                    *left -= page.len() as u64;
                }
                sink.page(&page, out)?;
                progress.page(page.len(), fetched);
                let capped = left == Some(0) || max_pages.is_some_and(|max| fetched >= max);
                if has_next && capped {
                    more = true;
                    break Ok(());
                }
                if left == Some(0) {
                    break Ok(());
                }
            }
        }
    };
    progress.clear();
    sink.finish(&outcome, more, args.resource_type.as_deref(), out, err)?;
    if let (Err(_), Some(cursor)) = (&outcome, resume) {
        // Every row before the failed page is written: resuming there repeats none.
        writeln!(
            err,
            "appdeck: resume with: --from {}",
            crate::sanitize::line(&mask.text(&cursor))
        )?;
    }
    outcome.map_err(Failure::Api)
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
