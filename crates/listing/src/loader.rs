//! A listing's pages as they arrive: the rows they bring (each row's JSON to the bodies, in
//! memory until the runtime writes it to the spill; its texts to the rows), what they add up to, and where the paging stands (the next cursor, a
//! fault of the server's paging). When to ask for a page is the pane's to decide.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::added::{FillColumns, Filled};
use crate::api::paging::keeps_type;
use crate::api::{ApiError, CursorTrail, ReadPage};
use crate::bodies::Bodies;
use crate::columns::ColumnWidths;
use crate::job::{RequestId, RequestIds};
use crate::out::columns::ColumnPath;
use crate::rows::Rows;
use crate::summary::LoadedSummary;

/// The rows of one listing (one type filter) and where its paging stands.
#[derive(Clone, Debug, Default)]
pub struct Listing {
    /// The rows and their columns' texts.
    pub rows: Rows,
    pub more: More,
    trail: CursorTrail,
    /// How many pages arrived, for the status line.
    pub pages: usize,
    /// The widest value of each column, for sizing the table's columns.
    pub widths: ColumnWidths,
    /// What the rows add up to, shared with the panes that count them.
    pub summary: Arc<LoadedSummary>,
    /// The items' JSON texts, which the rows point into.
    pub bodies: Bodies,
}

/// Whether the listing has more pages, and what became of the last attempt to get one.
#[derive(Clone, Debug, Default)]
pub enum More {
    #[default]
    End,
    Available(String),
    Loading {
        id: RequestId,
        cursor: String,
    },
    /// The user pressed `Esc` during the load; `r` resumes.
    Paused(String),
    Failed {
        cursor: String,
        error: ApiError,
    },
    /// The server broke the paging itself (a repeated or unreadable cursor): there is nothing to
    /// resume from, so `r` reloads from the first page.
    Fault(ApiError),
}

impl More {
    /// The page request in flight, if one is.
    pub fn in_flight(&self) -> Option<RequestId> {
        match self {
            More::Loading { id, .. } => Some(*id),
            _ => None,
        }
    }

    /// Why the paging stopped, if a page failed or the server broke it.
    pub fn error(&self) -> Option<&ApiError> {
        match self {
            More::Failed { error, .. } | More::Fault(error) => Some(error),
            _ => None,
        }
    }

    /// Asks for the next page, when there is one and none is in flight: its id and cursor.
    pub fn ask(&mut self, ids: &mut RequestIds) -> Option<(RequestId, String)> {
        let More::Available(cursor) = self else {
            return None;
        };
        let (id, cursor) = (ids.issue(), cursor.clone());
        *self = More::Loading {
            id,
            cursor: cursor.clone(),
        };
        Some((id, cursor))
    }

    /// The page in flight failed: `r` asks for its cursor again.
    pub fn failed(&mut self, error: ApiError) {
        let cursor = match self {
            More::Loading { cursor, .. } => std::mem::take(cursor),
            _ => String::new(),
        };
        *self = More::Failed { cursor, error };
    }

    /// `Esc` on the page in flight: the request to abort; `r` resumes at its cursor.
    pub fn pause(&mut self) -> Option<RequestId> {
        let More::Loading { id, cursor } = self else {
            return None;
        };
        let id = *id;
        *self = More::Paused(std::mem::take(cursor));
        Some(id)
    }

    /// A paused or failed page can be asked for again (then [`More::ask`]); `false` otherwise.
    pub fn resume(&mut self) -> bool {
        let (More::Failed { cursor, .. } | More::Paused(cursor)) = self else {
            return false;
        };
        *self = More::Available(std::mem::take(cursor));
        true
    }
}

impl Listing {
    /// A listing before its first page: no rows, the types seen so far counted at 0.
    pub fn new(type_filter: Option<String>, types_seen: &BTreeSet<String>) -> Listing {
        Listing {
            summary: Arc::new(LoadedSummary::new(type_filter, types_seen)),
            ..Listing::default()
        }
    }

    /// Takes a page that arrived for this listing: its rows of `type_filter` (every type when
    /// `None`) are added, each type seen goes into `types_seen`, and the paging moves on.
    /// Returns the index of the first row it added.
    /// This listing for another list over the same rows (shared, not copied): a page in
    /// flight stays this one's, the other asks for that page itself when it needs it.
    pub fn shared(&self) -> Listing {
        let mut listing = self.clone();
        if let More::Loading { cursor, .. } = &listing.more {
            listing.more = More::Available(cursor.clone());
        }
        listing
    }

    /// The pages `over`, made by [`Listing::shared`] from this listing, took since (`L` in a
    /// list over the same rows) are this listing's too: `over` takes its place, a page it had
    /// in flight to be asked again (its request went with its list), and the index of its first
    /// row this listing had not comes back. `None`, this listing left as it is, when `over`
    /// took no page past this one's, or is not over this listing (fetched again since).
    pub fn take_pages_of(&mut self, mut over: Listing) -> Option<usize> {
        if over.bodies != self.bodies || over.pages <= self.pages {
            return None;
        }
        if let More::Loading { cursor, .. } = &mut over.more {
            over.more = More::Available(std::mem::take(cursor));
        }
        let first = self.rows.len();
        *self = over;
        Some(first)
    }

    /// What the status bar says while a page is on its way (`loading_all`: under `L`).
    pub fn activity(&self, loading_all: bool) -> Option<String> {
        let page = self.pages + 1;
        match (&self.more, loading_all) {
            (More::Loading { .. }, true) => {
                Some(format!("loading every page: page {page}… · Esc stops"))
            }
            (More::Loading { .. }, false) => Some(format!("loading page {page}…")),
            _ => None,
        }
    }

    /// The columns `:columns` added become `paths`: the job reading their values for the rows
    /// loaded, if they changed and there are rows (rows arriving read theirs as they come).
    pub fn set_added_paths(&mut self, paths: &[ColumnPath]) -> Option<FillColumns> {
        if !self.rows.added_mut().set_paths(paths) {
            return None;
        }
        self.widths.forget_added();
        let bodies = self.rows.iter().map(|r| r.body).collect();
        self.rows.added().filler(&self.bodies, bodies)
    }

    /// The added columns' values that job read: taken, unless the columns changed since.
    pub fn fill_added(&mut self, filled: Filled) -> bool {
        if !self.rows.added_mut().fill(filled) {
            return false;
        }
        self.widths.forget_added();
        self.widths.extend_added(self.rows.iter());
        true
    }

    pub fn take_page(
        &mut self,
        page: ReadPage,
        type_filter: Option<&str>,
        types_seen: &mut BTreeSet<String>,
    ) -> usize {
        let summary = Arc::make_mut(&mut self.summary);
        let received = page.len();
        let start = self.rows.len();
        let bodies = &self.bodies;
        for (item, json) in page.items_and_texts() {
            let resource_type = item.resource_type(&json);
            if let Some(t) = resource_type {
                if !types_seen.contains(t) {
                    types_seen.insert(t.to_owned());
                }
                summary.saw_type(t);
            }
            if keeps_type(resource_type, type_filter) {
                self.rows.push_facts(item, &json, bodies);
            }
        }
        let envelope = page.envelope();
        self.pages += 1;
        self.more = match (envelope.next_cursor(), envelope.next_fault()) {
            (_, Some(fault)) => More::Fault(fault),
            (None, None) => More::End,
            (Some(next), None) => match self.trail.accept(next, received) {
                Ok(()) => More::Available(next.to_owned()),
                // The cursor is good, the pages before it were only empty: `r` goes on from it.
                Err(error @ ApiError::EmptyPages(_)) => More::Failed {
                    cursor: next.to_owned(),
                    error,
                },
                Err(fault) => More::Fault(fault),
            },
        };
        // The page is done with (the runtime then gives what it took back to the system).
        drop(page);
        self.widths.extend(self.rows.from(start));
        summary.add(self.rows.from(start));
        summary.more = !matches!(self.more, More::End | More::Fault(_));
        start
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One page asked at a time; `Esc` or a failure keeps its cursor for `r` to ask again.
    /// Columns added to a listing loaded are read by a job; what it read shows unless the
    /// columns changed meanwhile, and the same columns again ask for nothing.
    #[test]
    fn added_columns_are_read_by_a_job_and_taken_while_still_wanted() {
        use crate::added::ColumnChoice;
        use crate::job::Progress;
        use serde_json::json;
        let mut listing = Listing::default();
        let values = [json!({"id": "a", "p": {"x": 1}}), json!({"id": "b"})];
        (listing.rows, listing.bodies) = Rows::with_bodies(values);
        let (x, y) = (
            ColumnChoice::from_spec("+p.x"),
            ColumnChoice::from_spec("+p.y"),
        );
        let job = listing.set_added_paths(&x.added).expect("a job");
        assert!(listing.set_added_paths(&x.added).is_none(), "the same");
        let filled = job.read(&Progress::detached()).unwrap();
        assert!(listing.fill_added(filled));
        let first = listing.rows.at(0).body;
        assert_eq!(listing.rows.added().get(first, 0), Some("1"));
        let stale = job.read(&Progress::detached()).unwrap();
        assert!(listing.set_added_paths(&y.added).is_some());
        assert!(!listing.fill_added(stale), "read for columns gone");
    }

    /// A list over the same rows does not share the page in flight: it asks for it itself.
    #[test]
    fn a_shared_listing_asks_for_the_page_in_flight_itself() {
        let mut ids = RequestIds::default();
        let mut listing = Listing {
            more: More::Available("c1".into()),
            ..Listing::default()
        };
        listing.more.ask(&mut ids);
        assert!(matches!(listing.shared().more, More::Available(c) if c == "c1"));
        assert!(listing.more.in_flight().is_some());
    }

    /// The pages a list over the same rows took come back to the listing it was made from,
    /// never to one fetched again since, and not when it took none past the listing's.
    #[test]
    fn the_pages_a_shared_listing_took_come_back_to_its_own() {
        use serde_json::json;
        let mut ids = RequestIds::default();
        let mut listing = Listing::default();
        (listing.rows, listing.bodies) = Rows::with_bodies([json!({"id": "a"})]);
        listing.pages = 1;
        let mut over = listing.shared();
        assert!(
            listing.take_pages_of(over.clone()).is_none(),
            "no page past"
        );
        let b = json!({"id": "b"});
        let item = crate::api::PageItem::from_value(b.clone());
        over.rows.push_text(&item, &b.to_string(), &over.bodies);
        over.pages = 2;
        over.more = More::Available("c3".into());
        over.more.ask(&mut ids);
        let fetched_again = Listing {
            pages: 1,
            ..Listing::default()
        };
        let mut other = fetched_again.clone();
        assert!(
            other.take_pages_of(over.clone()).is_none(),
            "another listing"
        );
        assert_eq!(other.pages, 1);
        assert_eq!(listing.take_pages_of(over), Some(1));
        assert_eq!((listing.rows.len(), listing.pages), (2, 2));
        assert!(
            matches!(&listing.more, More::Available(c) if c == "c3"),
            "the page its list had in flight is asked again: {:?}",
            listing.more
        );
    }

    #[test]
    fn a_paused_or_failed_page_is_asked_again_at_its_cursor() {
        let mut ids = RequestIds::default();
        let mut more = More::Available("c2".into());
        let (id, cursor) = more.ask(&mut ids).expect("a page to ask for");
        assert_eq!((more.in_flight(), cursor.as_str()), (Some(id), "c2"));
        assert!(more.ask(&mut ids).is_none(), "one in flight at a time");
        assert_eq!(more.pause(), Some(id));
        assert!(more.in_flight().is_none() && more.pause().is_none());
        assert!(more.resume());
        let (again, cursor) = more.ask(&mut ids).unwrap();
        assert_ne!(again, id);
        assert_eq!(cursor, "c2");
        more.failed(ApiError::EmptyPages(3));
        assert!(more.error().is_some());
        assert!(more.resume() && matches!(&more, More::Available(c) if c == "c2"));
        assert!(!More::End.resume() && More::End.ask(&mut ids).is_none());
    }
}
