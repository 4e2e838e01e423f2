//! `appdeck list`: pages are written as they arrive and dropped, so memory stays flat however
//! many resources there are. The next page is fetched while the current one is written (one page
//! ahead, no more). What was written before an error stays written.

mod fetch;
mod sink;

use std::io::{IsTerminal, Write};

use super::Failure;
use super::args::ListArgs;
use crate::api::{ApiError, Client, Pager};
use fetch::Fetched;
use sink::Sink;

/// Runs the listing, writing results to `out` and the table's footer to `err`.
pub async fn run(
    client: &Client,
    args: &ListArgs,
    width: usize,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), Failure> {
    let max_pages = (!args.all).then(|| args.pages.unwrap_or(1));
    let mut sink = Sink::new(args, width, std::io::stdout().is_terminal())?;
    let pager = Pager::new(args.resource_type.clone(), args.limit).starting_at(args.from.clone());
    let mut pages = fetch::ahead(client.clone(), pager, max_pages);
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
            Some(Fetched::Page(page)) => {
                fetched += 1;
                let has_next = page.envelope.next_cursor().is_some();
                sink.page(&page, out)?;
                if has_next && max_pages.is_some_and(|max| fetched >= max) {
                    more = true;
                    break Ok(());
                }
            }
        }
    };
    sink.finish(&outcome, more, args.resource_type.as_deref(), out, err)?;
    if let (Err(_), Some(cursor)) = (&outcome, resume) {
        // Every row before the failed page is written: resuming there repeats none.
        writeln!(
            err,
            "appdeck: resume with: --from {}",
            crate::sanitize::line(&cursor)
        )?;
    }
    outcome.map_err(Failure::Api)
}
