//! Fetching a listing's pages one ahead of the writer: a task follows the cursors and hands each
//! page over a channel of one, so the next request is in flight while the current page is
//! written, and at most three pages are held at once (the one written, the one handed over, the
//! one arriving).

use tokio::sync::mpsc;

use crate::api::{ApiError, Client, Pager, RawPage};

/// What the fetching task hands over.
pub enum Fetched {
    Page(RawPage),
    /// The listing stopped here. `resume` is the cursor of the page that failed, when a request
    /// failed (not when the server's cursors were at fault): every page before it was handed over.
    Failed {
        error: ApiError,
        resume: Option<String>,
    },
}

/// Starts fetching `pager`'s pages, at most `max_pages` of them and none after the page that
/// brings `max_items` (`--max-items 800` at 100 a page asked for a 9th); the channel closes at
/// the end. A fault the last page's cursor holds is handed over even then (it needs no
/// request), for `list` to say a `next` that is neither a string nor null as the TUI does:
/// without `--all` it said "no more pages" and exit 0 over `"next": 50`. Dropping the receiver
/// stops the task at its next page.
pub fn ahead(
    client: Client,
    mut pager: Pager,
    max_pages: Option<u32>,
    max_items: Option<u64>,
) -> mpsc::Receiver<Fetched> {
    let (tx, rx) = mpsc::channel(1);
    tokio::spawn(async move {
        let mut fetched = 0u32;
        let mut items = 0u64;
        while pager.fault_pending()
            || max_pages.is_none_or(|max| fetched < max) && max_items.is_none_or(|max| items < max)
        {
            let fault_pending = pager.fault_pending();
            let cursor = pager.cursor().map(str::to_owned);
            let Some(result) = pager.next_raw_page(&client).await else {
                break;
            };
            fetched += 1;
            let message = match result {
                Ok(page) => {
                    items += page.len() as u64;
                    Fetched::Page(page)
                }
                Err(error) => Fetched::Failed {
                    error,
                    resume: if fault_pending { None } else { cursor },
                },
            };
            let failed = matches!(message, Fetched::Failed { .. });
            if tx.send(message).await.is_err() || failed {
                break;
            }
        }
    });
    rx
}
