//! Following `resources.list` cursors. The rules (DESIGN.md): paging ends when `next` is absent,
//! null or empty; a cursor seen before in the same listing is a server fault, never a loop; so
//! are [`MAX_EMPTY_PAGES`] empty pages in a row (every cursor new, but no row either); rows of
//! another type than the one asked for are dropped, in case the server ignores the filter.

use std::collections::HashSet;
use std::hash::{BuildHasher, RandomState};

use super::client::Client;
use super::error::ApiError;
use super::page::RawPage;
use super::types::{ListRequest, ListResponse};

/// How much of a cursor an error message shows.
const CURSOR_CHARS: usize = 100;

/// Empty pages in a row, each with a new `next`, after which a listing stops: a server that
/// makes no progress would otherwise be followed for ever (1,402 requests a minute, without a
/// word). Far more than a real service sends while skipping filtered-out rows.
pub const MAX_EMPTY_PAGES: usize = 20;

/// The cursors a listing has used so far, and how many empty pages came last. Shared by the
/// CLI's pager, `api --paginate` and the TUI's browser.
///
/// A used cursor is kept as a 128-bit digest, not as its text: a service whose cursors are 6 MiB
/// made `list --all` peak at 560 MB after 80 pages, 81 MB now (max RSS, median of 3, tester's
/// 6 MiB × 80 shape). The digest is two
/// SipHashes under keys drawn at random for each listing, so a service cannot aim a collision.
/// A hit on the last cursor (the usual loop: a page handing out the cursor it was asked with) is
/// checked against its text; a hit on an earlier one is refused unchecked, a false refusal being
/// about 2^-128 likely per pair and never silent (the listing stops with the error and its
/// resume hint).
#[derive(Clone, Debug, Default)]
pub struct CursorTrail {
    used: HashSet<u128>,
    /// The last cursor accepted, and its digest.
    last: Option<(u128, String)>,
    keys: CursorKeys,
    empty_in_a_row: usize,
}

/// The keys of [`CursorTrail`]'s digest; in tests, a digest that collides at will.
#[derive(Clone, Debug, Default)]
struct CursorKeys {
    high: RandomState,
    low: RandomState,
    #[cfg(test)]
    forced: Option<fn(&str) -> u128>,
}

impl CursorKeys {
    fn digest(&self, cursor: &str) -> u128 {
        #[cfg(test)]
        if let Some(forced) = self.forced {
            return forced(cursor);
        }
        (u128::from(self.high.hash_one(cursor)) << 64) | u128::from(self.low.hash_one(cursor))
    }
}

impl CursorTrail {
    /// Records the cursor a page handed out and says whether it may be followed: not when it was
    /// used before, nor when `received` (the page's items, before any filtering) is the
    /// [`MAX_EMPTY_PAGES`]th empty page in a row. After that refusal the count starts again, so
    /// a user who chooses to go on gets as many more.
    pub fn accept(&mut self, next: &str, received: usize) -> Result<(), ApiError> {
        let digest = self.keys.digest(next);
        let repeated = match &self.last {
            // Same digest as the last cursor: its text says whether it is one.
            Some((last_digest, last)) if *last_digest == digest => last == next,
            _ => self.used.contains(&digest),
        };
        if repeated {
            // A cursor can be megabytes long: the message names its start.
            return Err(ApiError::RepeatedCursor(crate::sanitize::excerpt(
                next.as_bytes(),
                CURSOR_CHARS,
            )));
        }
        self.used.insert(digest);
        self.last = Some((digest, next.to_owned()));
        if received > 0 {
            self.empty_in_a_row = 0;
            return Ok(());
        }
        self.empty_in_a_row += 1;
        if self.empty_in_a_row < MAX_EMPTY_PAGES {
            return Ok(());
        }
        self.empty_in_a_row = 0;
        Err(ApiError::EmptyPages(MAX_EMPTY_PAGES))
    }
}

/// Drops the rows whose valid `type` differs from the filter. Rows with no readable type and
/// malformed items stay: they are shown and marked rather than silently lost.
#[cfg(test)]
pub(crate) fn retain_type(page: &mut ListResponse, wanted: Option<&str>) {
    page.resources.retain(|item| {
        let resource_type = item.resource().and_then(|r| r.resource_type.get());
        keeps_type(resource_type.map(String::as_str), wanted)
    });
}

/// Whether an item whose `type` is `resource_type` (`None`: it has none that is a string) stays
/// under the type filter `wanted`: an item with no type of its own stays. [`retain_type`] and
/// the TUI's list go by it.
pub fn keeps_type(resource_type: Option<&str>, wanted: Option<&str>) -> bool {
    wanted.is_none_or(|wanted| resource_type.is_none_or(|t| t == wanted))
}

/// Pulls the pages of one listing in order.
pub struct Pager {
    request: ListRequest,
    trail: CursorTrail,
    finished: bool,
    /// How a failed page is retried; `None`: not at all.
    retry: Option<super::retry::RetryPolicy>,
    /// A server fault found in the last page's cursor: that page is still handed out (its rows
    /// are good), the fault comes with the next call.
    pending_fault: Option<ApiError>,
}

impl Pager {
    pub fn new(resource_type: Option<String>, limit: Option<u32>) -> Self {
        Pager {
            request: ListRequest {
                resource_type,
                next: None,
                limit,
            },
            trail: CursorTrail::default(),
            finished: false,
            pending_fault: None,
            retry: None,
        }
    }

    /// Retries a failed page as `policy` says.
    pub fn retrying(mut self, policy: super::retry::RetryPolicy) -> Self {
        self.retry = Some(policy);
        self
    }

    /// Starts from this cursor instead of the first page (`list --from`).
    pub fn starting_at(mut self, cursor: Option<String>) -> Self {
        self.request.next = cursor.filter(|c| !c.is_empty());
        self
    }

    /// The cursor the next request sends (`None` for the first page): where a listing that
    /// failed can resume without repeating a row it wrote.
    pub fn cursor(&self) -> Option<&str> {
        self.request.next.as_deref()
    }

    /// Whether the next call hands out a fault of the server's cursors (found in the last page),
    /// rather than making a request.
    pub fn fault_pending(&self) -> bool {
        self.pending_fault.is_some()
    }

    /// The next page, or `None` when the listing is over. After an error the listing is over.
    pub async fn next_page(&mut self, client: &Client) -> Option<Result<ListResponse, ApiError>> {
        self.next_raw_page(client)
            .await
            .map(|page| page.map(RawPage::into_response))
    }

    /// [`Pager::next_page`], the items kept as the bytes that came.
    pub async fn next_raw_page(&mut self, client: &Client) -> Option<Result<RawPage, ApiError>> {
        if let Some(fault) = self.pending_fault.take() {
            self.finished = true;
            return Some(Err(fault));
        }
        if self.finished {
            return None;
        }
        let fetched = match &self.retry {
            Some(policy) => client.list_page_retrying(&self.request, policy).await,
            None => client.list_page_raw(&self.request).await,
        };
        let result = fetched.map(|mut page| {
            let received = page.len();
            if let Some(wanted) = self.request.resource_type.as_deref() {
                page.retain_type(wanted);
            }
            match (page.envelope.next_cursor(), page.envelope.next_fault()) {
                (_, Some(fault)) => self.pending_fault = Some(fault),
                (Some(next), None) => match self.trail.accept(next, received) {
                    Ok(()) => self.request.next = Some(next.to_owned()),
                    Err(fault) => self.pending_fault = Some(fault),
                },
                (None, None) => self.finished = true,
            }
            page
        });
        if result.is_err() {
            self.finished = true;
        }
        Some(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_long_repeated_cursor_is_named_by_its_start() {
        let mut trail = CursorTrail::default();
        let cursor = "c".repeat(1_000_000);
        trail.accept(&cursor, 1).unwrap();
        let error = trail.accept(&cursor, 1).unwrap_err().to_string();
        assert!(error.len() < 300, "{} bytes", error.len());
        assert!(
            error.contains(&format!("{}…", "c".repeat(CURSOR_CHARS))),
            "{error}"
        );
    }

    /// A trail whose digest is `digest`, to make collisions.
    fn trail_digesting(digest: fn(&str) -> u128) -> CursorTrail {
        let mut trail = CursorTrail::default();
        trail.keys.forced = Some(digest);
        trail
    }

    #[test]
    fn a_repeat_of_the_last_cursor_is_refused() {
        let mut trail = CursorTrail::default();
        assert!(trail.accept("a", 1).is_ok());
        assert_eq!(
            trail.accept("a", 1),
            Err(ApiError::RepeatedCursor("a".into()))
        );
    }

    /// Every digest the same: a new cursor whose digest is the last one's is told apart by its
    /// text, and that text still catches a real repeat.
    #[test]
    fn a_digest_shared_with_the_last_cursor_is_checked_by_its_text() {
        let mut trail = trail_digesting(|_| 7);
        assert_eq!(trail.accept("a", 1), Ok(()));
        assert_eq!(trail.accept("b", 1), Ok(()), "a collision is no repeat");
        assert_eq!(
            trail.accept("b", 1),
            Err(ApiError::RepeatedCursor("b".into()))
        );
    }

    /// Cursors that differ only far in (state carried in the cursor) are told apart: the digest
    /// reads the whole text, and is wide enough for 100,000 of them.
    #[test]
    fn distinct_cursors_are_never_taken_for_repeats() {
        let mut trail = CursorTrail::default();
        let head = "C".repeat(1_000);
        for page in 0..100_000 {
            assert_eq!(trail.accept(&format!("{head}{page}"), 1), Ok(()), "{page}");
        }
        assert_eq!(trail.used.len(), 100_000);
    }

    #[test]
    fn a_repeated_cursor_is_refused() {
        let mut trail = CursorTrail::default();
        assert!(trail.accept("a", 1).is_ok());
        assert!(trail.accept("b", 1).is_ok());
        assert_eq!(
            trail.accept("a", 1),
            Err(ApiError::RepeatedCursor("a".into()))
        );
    }

    /// Only empty pages in a row count: one row starts the count again, and so does the refusal
    /// (a user who goes on gets as many more).
    #[test]
    fn the_twentieth_empty_page_in_a_row_is_refused() {
        let mut trail = CursorTrail::default();
        let mut cursor = 0;
        let mut accept = |received| {
            cursor += 1;
            trail.accept(&cursor.to_string(), received)
        };
        for _ in 1..MAX_EMPTY_PAGES {
            assert_eq!(accept(0), Ok(()));
        }
        assert_eq!(accept(3), Ok(()), "a page with rows ends the run");
        for _ in 1..MAX_EMPTY_PAGES {
            assert_eq!(accept(0), Ok(()));
        }
        assert_eq!(accept(0), Err(ApiError::EmptyPages(MAX_EMPTY_PAGES)));
        for _ in 1..MAX_EMPTY_PAGES {
            assert_eq!(accept(0), Ok(()), "counted again after the refusal");
        }
        assert_eq!(accept(0), Err(ApiError::EmptyPages(MAX_EMPTY_PAGES)));
    }

    /// Unequal counts of each type, so that an inverted or missing filter keeps a different
    /// set (and a different number) of rows.
    fn mixed_page() -> ListResponse {
        ListResponse::from_value(json!({"resources": [
            {"id": "r1", "type": "repo"},
            {"id": "u1", "type": "user"},
            {"id": "u2", "type": "user"},
            {"id": "u3", "type": "user"},
            {"id": "r2", "type": "repo"},
            {"id": "untyped"},
            {"id": "odd-type", "type": 7},
            5
        ]}))
        .unwrap()
    }

    fn kept(page: &ListResponse) -> Vec<String> {
        page.resources
            .iter()
            .map(|item| match item.resource().and_then(|r| r.id.get()) {
                Some(id) => id.clone(),
                None => item.to_json().to_string(),
            })
            .collect()
    }

    #[test]
    fn rows_of_another_type_are_dropped() {
        let mut page = mixed_page();
        retain_type(&mut page, Some("repo"));
        // The two repos, in order; rows with no readable type and malformed items stay.
        assert_eq!(kept(&page), ["r1", "r2", "untyped", "odd-type", "5"]);

        let mut page = mixed_page();
        retain_type(&mut page, Some("user"));
        assert_eq!(kept(&page), ["u1", "u2", "u3", "untyped", "odd-type", "5"]);
    }

    #[test]
    fn no_type_filter_keeps_every_row() {
        let mut page = mixed_page();
        retain_type(&mut page, None);
        assert_eq!(page, mixed_page());
    }
}
