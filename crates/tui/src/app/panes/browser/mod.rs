//! The resource list: the rows loaded so far, the paging cursor, the type filter, and the
//! decisions of when to fetch the next page. Always at the bottom of the stack. Its keys are in
//! `keys.rs`, its handling of actions in `update.rs`, which rows it shows (`/`, `:where`, the
//! status filter) in `find.rs`.

pub(crate) mod added;
pub(crate) mod changes;
pub(crate) mod find;
pub(crate) mod kept;
pub(crate) mod keys;
mod picks;
mod reload;
pub(crate) mod sort;
mod update;
pub(crate) mod watch;

pub(crate) use appdeck_listing::{Listing, More};

use std::collections::BTreeSet;
use std::sync::Arc;

use ratatui::layout::Rect;

use crate::api::{ApiError, ListRequest, ReadPage};
use crate::app::action::{ApiCall, Command, RequestId, RequestIds};
use crate::app::loadable::Loadable;
use crate::app::overlay::TypePicker;
use crate::app::widgets::{LineInput, ListCursor};
use appdeck_listing::{
    Bodies, BodyError, LoadedSummary, Query, RowView, Rows, StatusShown, TypeShown,
};

/// Fetch the next page when the cursor is this many rows (or two screens) from the end, so that
/// holding `j` never reaches the last row before the next page is there.
const PREFETCH_ROWS: usize = 40;

#[derive(Clone, Debug, Default)]
pub struct Browser {
    pub type_filter: Option<String>,
    pub listing: Loadable<Listing>,
    /// The `/` text, and whether it has focus.
    pub filter: LineInput,
    pub filtering: bool,
    /// Which rows pass: the status and type picked, `/` and `:where` (see `find.rs`).
    pub query: Query,
    /// Indices into the rows that pass the status filter, `/` and `:where`, in order.
    pub visible: appdeck_listing::Shown,
    pub cursor: ListCursor,
    /// Every type seen in any page, for the picker and completion.
    pub types_seen: BTreeSet<String>,
    pub page_size: Option<u32>,
    /// A large resource whose detail is being prepared in the background.
    pub opening: Option<RequestId>,
    /// After `r`, the id of the resource the cursor was on: the cursor goes back to it when a
    /// page brings it again (until the user moves).
    pub reselect: Option<Box<str>>,
    /// Opened over another screen (`b` on a type) rather than at the bottom of the stack: `Esc`,
    /// with nothing left to cancel or clear, goes back to that screen.
    pub pushed: bool,
    /// The listing fetched again behind the rows on screen, after a report changed a resource
    /// (see `reload.rs`).
    pub reloading: Option<Box<reload::Reload>>,
    /// The sort over the rows that pass the filters (see `sort.rs`).
    pub sorting: sort::Sorting,
    /// `:export` writing the rows shown to a file.
    pub exporting: Option<crate::app::export::Exporting>,
    /// `:watch`: looked at again every few seconds, rows new, changed or gone marked.
    pub watch: Option<watch::Watch>,
    /// `L` / `:load all`: each page is asked for as the one before arrives, to the last; `Esc`
    /// stops (the pages loaded stay), as does a page that fails.
    pub loading_all: bool,
    /// Rows marked with `Space` (see `picks.rs`): `:export`, `y` and `R` act on them when
    /// there are any.
    pub picked: appdeck_listing::Picks,
    /// `:columns`: the columns chosen for this type (see `added.rs`).
    pub columns: appdeck_listing::ColumnChoice,
    /// The job reading the added columns' values of the rows loaded.
    pub filling: Option<RequestId>,
    /// The type whose kept columns the store was asked for, and the question while its answer
    /// is awaited (a `:columns` typed meanwhile wins over the answer).
    columns_asked: Option<(Option<String>, Option<RequestId>)>,
    /// The rows shown are those the store kept from the last listing (see `kept.rs`).
    pub kept: Option<kept::KeptRows>,
    /// The question to the store for the kept listing.
    kept_asked: Option<RequestId>,
    /// `--offline`: the kept listing is shown without asking the service, once it is read.
    offline: bool,
    /// How many rows of this listing were sent to be kept for the next start.
    rows_kept: usize,
    /// Why the rows could not be fetched again (`r`, a look, after a report), said in the
    /// status bar and the title until a reload succeeds: the rows shown may be out of date.
    pub not_refreshed: Option<String>,
    /// What the last look found changed or gone, until the panes are told (a detail follows).
    followed: Option<Arc<appdeck_listing::Followed>>,
}

impl Browser {
    /// The type picker: every type seen, with its count of loaded rows, the current one marked.
    /// Under a type filter only that type's rows are loaded, so the others have no count.
    pub fn type_picker(&self) -> TypePicker {
        let (all, types) = self.summary().type_counts(self.listing.loaded().is_some());
        TypePicker::new(all, types.into_iter(), self.type_filter.as_ref())
    }
    /// The type the listing asks the service for (`None`: every type).
    pub fn type_filter(&self) -> Option<&str> {
        self.type_filter.as_deref()
    }

    /// Every type seen in any page, for the picker and completion.
    pub fn types_seen(&self) -> &BTreeSet<String> {
        &self.types_seen
    }

    /// Lists every type of another service from its first page: the types seen in this one's
    /// pages go, as its marks do (`:type` and the overview would offer types it never lists).
    pub fn list_new_service(&mut self, ids: &mut RequestIds) -> Vec<Command> {
        self.types_seen.clear();
        self.list_type(None, ids)
    }

    /// Lists another type (or every type) from its first page, showing the rows kept from the
    /// last run meanwhile.
    pub fn list_type(&mut self, type_filter: Option<String>, ids: &mut RequestIds) -> Vec<Command> {
        self.type_filter = type_filter;
        let mut commands = self.restart(ids);
        commands.push(self.ask_kept(ids, false));
        commands
    }

    /// A list to open over another screen (`Esc` goes back to it), asked from the service from
    /// its first page: of `type_filter`, its rows narrowed by `narrow` (a status, rows of no type).
    pub fn list_over(
        &self,
        type_filter: Option<String>,
        narrow: impl FnOnce(&mut Query),
        ids: &mut RequestIds,
    ) -> (Browser, Vec<Command>) {
        let mut list = Browser {
            pushed: true,
            type_filter,
            ..Browser::new(self.page_size)
        };
        narrow(&mut list.query);
        let commands = vec![list.start(ids)];
        (list, commands)
    }

    /// The list the overview's status bar opens: this one's loaded rows of `status` (as the
    /// chart counted them), or the service's before the first page.
    pub fn list_of_status(
        &self,
        status: StatusShown,
        body: Rect,
        ids: &mut RequestIds,
    ) -> (Browser, Vec<Command>) {
        let narrow = |q: &mut Query| q.status = Some(status);
        match self.over_loaded_rows() {
            Some(list) => (list.showing(body, narrow), Vec::new()),
            None => self.list_over(self.type_filter.clone(), narrow, ids),
        }
    }

    /// A list opened over this one's rows (an overview's bar) closed: the pages it took past
    /// this one's (`L` there) are this listing's, for the overview to count and the list to
    /// show, and an `L` still running there goes on here. `None` when it took none, or this
    /// listing was fetched again since.
    pub fn back_from(
        &mut self,
        over: Browser,
        ids: &mut RequestIds,
        height: usize,
    ) -> Option<Vec<Command>> {
        let (Loadable::Loaded(theirs), Some(mine)) = (over.listing, self.listing.loaded_mut())
        else {
            return None;
        };
        let in_flight = mine.more.in_flight();
        let first = mine.take_pages_of(theirs)?;
        self.types_seen.extend(over.types_seen);
        // This list's own page in flight is among those taken.
        let mut commands: Vec<Command> = in_flight.map(Command::Cancel).into_iter().collect();
        self.show_new_rows(first, height);
        commands.extend(self.test_new_rows(first, ids));
        if std::mem::take(&mut self.loading_all) || over.loading_all {
            commands.extend(self.load_all(ids).unwrap_or_default());
        }
        Some(commands)
    }

    /// The list the overview's type bar opens, as [`Browser::list_of_status`]'s: the rows of
    /// the listing's own type are all its rows but those without a type, if it has any.
    pub fn list_of_type(
        &self,
        shown: TypeShown,
        body: Rect,
        ids: &mut RequestIds,
    ) -> (Browser, Vec<Command>) {
        let own = self.type_filter.clone().map(TypeShown::Is) == Some(shown.clone());
        let narrow = !own || self.summary().no_type > 0;
        match (self.over_loaded_rows(), shown) {
            (Some(list), shown) => (
                list.showing(body, |q| {
                    if narrow {
                        q.type_shown = Some(shown);
                    }
                }),
                Vec::new(),
            ),
            (None, TypeShown::Is(name)) => self.list_over(Some(name), |_| {}, ids),
            (None, missing) => self.list_over(
                self.type_filter.clone(),
                |q| q.type_shown = Some(missing),
                ids,
            ),
        }
    }

    /// This list narrowed by `narrow`, its rows shown at once in `body`.
    fn showing(mut self, body: Rect, narrow: impl FnOnce(&mut Query)) -> Browser {
        narrow(&mut self.query);
        let height = self.table_height(body);
        self.refresh_visible(height);
        self
    }

    /// A list over this one's loaded rows (shared, not copied) to show some of them (the
    /// overview's bars): the counts agree with the chart, as nothing is asked again. A page this
    /// list has in flight stays its own; the other asks for that page itself when it needs it.
    /// `None` before the first page.
    fn over_loaded_rows(&self) -> Option<Browser> {
        Some(Browser {
            type_filter: self.type_filter.clone(),
            listing: Loadable::Loaded(self.listing.loaded()?.shared()),
            types_seen: self.types_seen.clone(),
            page_size: self.page_size,
            columns: self.columns.clone(),
            columns_asked: self.columns_asked.clone(),
            pushed: true,
            // Kept rows stay marked as such; this list asks for live ones only on `r`.
            kept: self.kept.as_ref().map(kept::KeptRows::stopped),
            ..Browser::default()
        })
    }

    pub fn new(page_size: Option<u32>) -> Self {
        Browser {
            page_size,
            ..Browser::default()
        }
    }

    /// What the loaded rows add up to (an empty listing's, with the types seen at 0, before
    /// the first page).
    pub fn summary(&self) -> Arc<LoadedSummary> {
        match self.listing.loaded() {
            Some(listing) => listing.summary.clone(),
            None => Arc::new(LoadedSummary::new(
                self.type_filter.clone(),
                &self.types_seen,
            )),
        }
    }

    pub fn rows(&self) -> &Rows {
        self.listing
            .loaded()
            .map_or(&appdeck_listing::NO_ROWS, |l| &l.rows)
    }

    /// The row under the cursor.
    pub fn selected(&self) -> Option<RowView<'_>> {
        let index = self.visible.get(self.cursor.selected)?;
        self.rows().get(index)
    }

    /// The resource id of the row under the cursor, to find it again once the rows change.
    fn selected_id(&self) -> Option<Box<str>> {
        self.selected()?.id().map(Box::<str>::from)
    }

    /// The bodies the rows point into (empty before the first page).
    pub fn bodies(&self) -> Bodies {
        self.listing
            .loaded()
            .map(|l| l.bodies.clone())
            .unwrap_or_default()
    }

    /// The command writing the rows' JSON gathered in memory (this listing's, a reload's) to
    /// the spill file, once enough has: `update` itself writes no file.
    fn bodies_due(&self) -> Vec<Command> {
        let fresh = self.reloading.as_ref().and_then(|r| r.listing());
        (self.listing.loaded().into_iter().chain(fresh))
            .filter(|listing| listing.bodies.is_due())
            .map(|listing| Command::WriteBodies(listing.bodies.clone()))
            .collect()
    }

    /// The whole item of one of the listing's rows, read back from its body.
    pub fn item(&self, row: &appdeck_listing::Row) -> Result<crate::api::PageItem, BodyError> {
        row.item(&self.bodies())
    }

    /// The request in flight, whichever page it is for.
    pub fn in_flight(&self) -> Option<RequestId> {
        if let Some(id) = self.kept.as_ref().and_then(kept::KeptRows::asking) {
            return Some(id);
        }
        match &self.listing {
            Loadable::Loading(id) => Some(*id),
            Loadable::Loaded(listing) => listing.more.in_flight(),
            _ => None,
        }
    }

    /// Starts the listing over from its first page (a new filter, a reload). The caller cancels
    /// what was in flight.
    pub fn start(&mut self, ids: &mut RequestIds) -> Command {
        let id = ids.issue();
        self.listing = Loadable::Loading(id);
        self.kept = None;
        self.offline = false;
        self.rows_kept = 0;
        self.not_refreshed = None;
        // Its answer would be about the rows that go (their bodies' places are reused).
        self.filling = None;
        self.visible.clear();
        self.cursor = ListCursor::default();
        self.reselect = None;
        self.sorting.restarted::<Command>();
        self.request(id, None)
    }

    fn request(&self, id: RequestId, next: Option<String>) -> Command {
        Command::Api {
            id,
            call: ApiCall::list_page(&ListRequest {
                resource_type: self.type_filter.clone(),
                next,
                limit: self.page_size,
            }),
        }
    }

    /// Takes a page that arrived. Returns whether it belonged to this listing (a stale one is
    /// dropped) and the follow-up request, if the screen still wants rows.
    pub fn on_page(
        &mut self,
        id: RequestId,
        result: Result<ReadPage, ApiError>,
        ids: &mut RequestIds,
        height: usize,
    ) -> (bool, Vec<Command>) {
        if self.in_flight() != Some(id) {
            return (false, Vec::new());
        }
        match result {
            Ok(page) => {
                let follow_up = self.take_page(page, ids, height);
                (true, self.reading_ahead(follow_up.into_iter().collect()))
            }
            Err(error) => {
                self.page_failed(error);
                (true, Vec::new())
            }
        }
    }

    /// Under `L`, the page request among `commands` reads ahead (`Command::ReadAhead`): the
    /// runtime asks for the page after it as soon as its answer names it, so that the service
    /// works on the next page while this list takes this one.
    fn reading_ahead(&self, mut commands: Vec<Command>) -> Vec<Command> {
        let asked = self.in_flight().filter(|_| self.loading_all);
        if let Some(id) = asked
            && commands
                .iter()
                .any(|c| matches!(c, Command::Api { id: asked, .. } if *asked == id))
        {
            commands.push(Command::ReadAhead(id));
        }
        commands
    }

    /// A page could not be had: the first one fails the listing; a later one keeps the rows
    /// loaded, with `r` to try its cursor again.
    fn page_failed(&mut self, error: ApiError) {
        self.loading_all = false;
        match self.listing.loaded_mut() {
            Some(listing) => listing.more.failed(error),
            None => self.listing = Loadable::Failed(error),
        }
    }

    /// Adds a page's rows (the first one starts the listing), shows those that pass the query
    /// and asks for the next page if the screen still wants rows.
    fn take_page(
        &mut self,
        page: ReadPage,
        ids: &mut RequestIds,
        height: usize,
    ) -> Option<Command> {
        if self.listing.loaded().is_none() {
            let mut listing = Listing::new(self.type_filter.clone(), &self.types_seen);
            listing.rows.added_mut().set_paths(&self.columns.added);
            self.listing = Loadable::Loaded(listing);
        }
        let type_filter = self.type_filter.clone();
        let listing = self.listing.loaded_mut()?;
        let start = listing.take_page(page, type_filter.as_deref(), &mut self.types_seen);
        self.show_new_rows(start, height);
        // Keep filling the screen, but `/` or `:where` never drags in pages by itself.
        let wants_more = self.loading_all
            || (!self.query.shows_some()
                && self.visible.len() < self.cursor.selected + height + PREFETCH_ROWS);
        let follow_up = if wants_more {
            self.fetch_more(ids)
        } else {
            None
        };
        if follow_up.is_none() {
            self.loading_all = false;
        }
        follow_up
    }

    /// The rows from `start` on are new: those that pass the query show, in the sort's order,
    /// the cursor on the row it looks for if among them.
    fn show_new_rows(&mut self, start: usize, height: usize) {
        let end = self.rows().len();
        let new_visible: Vec<usize> = (start..end).filter(|&i| self.passes(i)).collect();
        let first_visible = self.visible.len();
        self.visible.extend(new_visible);
        self.picked
            .see_from(self.listing.loaded(), &self.visible, first_visible);
        let found = (self.reselect.as_deref())
            .and_then(|id| self.visible.find_id(self.rows(), id, first_visible));
        match found {
            Some(index) => {
                self.reselect = None;
                self.cursor.select(index, self.visible.len(), height);
            }
            None => self.cursor.keep_visible(self.visible.len(), height),
        }
        self.sort_new_rows(start, first_visible, height);
    }

    /// Asks for the next page if there is one and nothing is in flight.
    fn fetch_more(&mut self, ids: &mut RequestIds) -> Option<Command> {
        let (id, cursor) = self.listing.loaded_mut()?.more.ask(ids)?;
        Some(self.request(id, Some(cursor)))
    }

    /// Called after every cursor move: near the end of the loaded rows, fetch the next page.
    pub fn prefetch(&mut self, ids: &mut RequestIds, height: usize) -> Option<Command> {
        let margin = PREFETCH_ROWS.max(height * 2);
        if self.cursor.selected + margin >= self.visible.len() {
            self.fetch_more(ids)
        } else {
            None
        }
    }

    /// `Esc` during a load: cancels it. Returns the request to abort.
    pub fn cancel(&mut self) -> Option<RequestId> {
        self.loading_all = false;
        if self.kept.is_some() {
            return self.stop_live();
        }
        match &mut self.listing {
            Loadable::Loading(id) => {
                let id = *id;
                self.listing = Loadable::NotLoaded;
                Some(id)
            }
            Loadable::Loaded(listing) => listing.more.pause(),
            _ => None,
        }
    }

    /// `r`: retries the page that failed or was paused, else fetches the listing again behind
    /// the rows shown (a failure keeps them, said), or from its first page when none are.
    pub fn refresh(&mut self, ids: &mut RequestIds) -> Vec<Command> {
        if let Some(commands) = self.ask_live_again(ids) {
            return commands;
        }
        if let Some(listing) = self.listing.loaded_mut()
            && listing.more.resume()
        {
            return self.fetch_more(ids).into_iter().collect();
        }
        // The rows stay until those fetched again replace them; a broken paging starts over.
        if (self.listing.loaded()).is_some_and(|l| !matches!(l.more, More::Fault(_))) {
            return self.reload_in_place(ids);
        }
        let here = self.selected_id();
        let commands = self.restart(ids);
        self.reselect = here;
        commands
    }

    /// Whether it is loading every page (`L`).
    pub(crate) fn loading_all(&self) -> bool {
        self.loading_all
    }

    /// `L`: every page to the last, one after the other (a paused or failed page first, a
    /// failed first page from the start); the title counts them as they come. Says why not
    /// when there is nothing left to load.
    pub fn load_all(&mut self, ids: &mut RequestIds) -> Result<Vec<Command>, &'static str> {
        // Kept rows have no next page: the live listing loads all once its first page is in.
        let commands = match &self.listing {
            _ if self.kept.is_some() => self.refresh(ids),
            Loadable::Loaded(listing) => match &listing.more {
                More::End => return Err("all loaded already"),
                More::Fault(_) => {
                    return Err("the server broke the paging: r reloads from the first page");
                }
                More::Loading { .. } => Vec::new(),
                More::Available(_) => self.fetch_more(ids).into_iter().collect(),
                More::Paused(_) | More::Failed { .. } => self.refresh(ids),
            },
            Loadable::Loading(_) => Vec::new(),
            Loadable::NotLoaded | Loadable::Failed(_) => self.refresh(ids),
        };
        self.loading_all = true;
        Ok(self.reading_ahead(commands))
    }

    /// Cancels what is in flight and starts over from the first page (`/` and `:where` stay,
    /// and test the new rows as they come).
    pub fn restart(&mut self, ids: &mut RequestIds) -> Vec<Command> {
        // The marks were about the rows on screen, which go.
        if let Some(watch) = &mut self.watch {
            watch.forget_marks();
        }
        self.picked.clear();
        let mut commands = self.cancel_reload();
        commands.extend(self.cancel().map(Command::Cancel));
        commands.extend(self.query.forget_tested_rows());
        commands.extend(self.sorting.restarted());
        commands.push(self.start(ids));
        commands
    }

    /// Where the table and its rows are in `body`.
    pub(crate) fn areas(&self, body: Rect) -> crate::app::layout::TableAreas {
        crate::app::layout::table_areas(body, self.filtering || !self.filter.text().is_empty())
    }

    /// How many rows the table shows in `body`.
    pub fn table_height(&self, body: Rect) -> usize {
        usize::from(self.areas(body).rows.height)
    }

    /// The paging error to show, if the last load failed.
    pub fn error(&self) -> Option<&ApiError> {
        if let Some(error) = self.kept.as_ref().and_then(kept::KeptRows::error) {
            return Some(error);
        }
        match &self.listing {
            Loadable::Failed(e) => Some(e),
            Loadable::Loaded(listing) => listing.more.error(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::paging::MAX_EMPTY_PAGES;
    use serde_json::json;

    fn page(start: usize, count: usize, next: Option<&str>) -> ReadPage {
        let rows: Vec<_> = (start..start + count)
            .map(|i| json!({"id": format!("r{i}"), "type": if i % 2 == 0 { "repo" } else { "user" }, "name": format!("row {i}")}))
            .collect();
        raw(json!({"resources": rows, "next": next}))
    }

    /// A page as the client reads it from a body of this value.
    fn raw(value: serde_json::Value) -> ReadPage {
        read(serde_json::to_vec(&value).unwrap())
    }

    /// A page as the client reads it from `body`.
    fn read(body: Vec<u8>) -> ReadPage {
        crate::api::RawPage::read(body).expect("a page").into()
    }

    /// The one page request among `commands`.
    fn only_request(commands: &[Command]) -> ListRequest {
        match commands {
            [Command::Api { call, .. }] => call.as_list_request().expect("a page request"),
            other => panic!("expected one page request, got {other:?}"),
        }
    }

    fn started() -> (Browser, RequestIds, RequestId) {
        let mut b = Browser::default();
        let mut ids = RequestIds::default();
        let Command::Api { id, .. } = b.start(&mut ids) else {
            panic!("expected a request")
        };
        (b, ids, id)
    }

    #[test]
    fn first_page_then_prefetch_keeps_ahead_of_the_cursor() {
        let (mut b, mut ids, id) = started();
        let (taken, follow) = b.on_page(id, Ok(page(0, 50, Some("c1"))), &mut ids, 10);
        assert!(taken);
        assert!(
            follow.is_empty(),
            "50 rows fill a 10-row screen with margin"
        );
        assert_eq!(b.visible.len(), 50);
        b.cursor.select(5, 50, 10);
        assert!(b.prefetch(&mut ids, 10).is_none());
        b.cursor.select(10, 50, 10);
        let Some(Command::Api { id: id2, call }) = b.prefetch(&mut ids, 10) else {
            panic!("expected the next page")
        };
        assert_eq!(call.as_list_request().unwrap().next.as_deref(), Some("c1"));
        assert!(b.prefetch(&mut ids, 10).is_none(), "one request at a time");
        b.on_page(id2, Ok(page(50, 50, None)), &mut ids, 10);
        assert_eq!(b.rows().len(), 100);
        assert!(matches!(b.listing.loaded().unwrap().more, More::End));
    }

    /// Under `L`, each page request reads ahead (the runtime asks for the page after it as soon
    /// as its answer names it, while the list takes this one); `Esc` stops the load, and a page
    /// that still comes is dropped. Scrolling reads nothing ahead (`a_repeated_cursor...`).
    #[test]
    fn under_load_all_each_page_request_reads_ahead_and_esc_stops_it() {
        let (mut b, mut ids, id) = started();
        let (_, follow) = b.on_page(id, Ok(page(0, 50, Some("c1"))), &mut ids, 10);
        assert!(follow.is_empty());
        let commands = b.load_all(&mut ids).unwrap();
        let [Command::Api { id: id2, .. }, Command::ReadAhead(ahead)] = commands[..] else {
            panic!("{commands:?}")
        };
        assert_eq!(ahead, id2);
        let (_, follow) = b.on_page(id2, Ok(page(50, 50, Some("c2"))), &mut ids, 10);
        let [
            Command::Api { id: id3, ref call },
            Command::ReadAhead(ahead),
        ] = follow[..]
        else {
            panic!("{follow:?}")
        };
        assert_eq!(ahead, id3);
        assert_eq!(call.as_list_request().unwrap().next.as_deref(), Some("c2"));
        // `Esc`: the request in flight is the one the runtime aborts, with what it read ahead.
        assert_eq!(b.cancel(), Some(id3));
        let (taken, follow) = b.on_page(id3, Ok(page(100, 50, Some("c3"))), &mut ids, 10);
        assert!(!taken && follow.is_empty(), "a page after Esc is dropped");
        assert_eq!(b.rows().len(), 100);
        // `L` again goes on from the page it stopped at, reading ahead again.
        let commands = b.load_all(&mut ids).unwrap();
        assert!(matches!(
            commands[..],
            [Command::Api { .. }, Command::ReadAhead(_)]
        ));
        assert_eq!(only_request(&commands[..1]).next.as_deref(), Some("c2"));
    }

    #[test]
    fn stale_results_are_dropped() {
        let (mut b, mut ids, old) = started();
        b.start(&mut ids);
        let (taken, _) = b.on_page(old, Ok(page(0, 5, None)), &mut ids, 20);
        assert!(!taken);
        assert!(b.listing.is_loading());
    }

    #[test]
    fn a_repeated_cursor_stops_paging_and_r_starts_over() {
        let (mut b, mut ids, id) = started();
        let (_, follow) = b.on_page(id, Ok(page(0, 2, Some("same"))), &mut ids, 20);
        let [Command::Api { id: id2, .. }] = follow[..] else {
            panic!()
        };
        let (_, follow) = b.on_page(id2, Ok(page(2, 2, Some("same"))), &mut ids, 20);
        assert!(follow.is_empty());
        assert!(matches!(b.error(), Some(ApiError::RepeatedCursor(_))));
        assert_eq!(b.rows().len(), 4, "the rows of the faulty page are kept");
        // Nothing to resume from: r reloads from the first page rather than re-adding a page.
        let commands = b.refresh(&mut ids);
        let req = only_request(&commands);
        assert_eq!(req.next, None);
        assert!(b.listing.is_loading());
    }

    /// A server sending empty pages, each with a new cursor: the list follows them (the screen
    /// is far from full) until the 20th in a row, then shows the error with `r` to go on, which
    /// asks for the cursor it stopped at.
    #[test]
    fn endless_empty_pages_stop_with_an_error_and_r_goes_on() {
        let (mut b, mut ids, id) = started();
        let (_, mut follow) = b.on_page(id, Ok(page(0, 2, Some("c0"))), &mut ids, 20);
        let mut empty = 0;
        while let [Command::Api { id, .. }] = follow[..] {
            empty += 1;
            assert!(empty <= 2 * MAX_EMPTY_PAGES, "followed for ever");
            let next = format!("c{empty}");
            follow = b.on_page(id, Ok(page(0, 0, Some(&next))), &mut ids, 20).1;
        }
        assert_eq!(empty, MAX_EMPTY_PAGES);
        assert_eq!(b.error(), Some(&ApiError::EmptyPages(MAX_EMPTY_PAGES)));
        assert_eq!(b.rows().len(), 2, "the rows before stay");
        let commands = b.refresh(&mut ids);
        let next = only_request(&commands).next;
        assert_eq!(next, Some(format!("c{MAX_EMPTY_PAGES}")));
        assert_eq!(b.rows().len(), 2, "going on keeps the loaded rows");
    }

    #[test]
    fn a_next_of_the_wrong_type_stops_paging_with_an_error() {
        let (mut b, mut ids, id) = started();
        let page = raw(json!({"resources": [{"id": "a"}], "next": {"x": 1}}));
        b.on_page(id, Ok(page), &mut ids, 20);
        assert!(matches!(b.error(), Some(ApiError::Decode { .. })));
        assert_eq!(b.rows().len(), 1);
    }

    #[test]
    fn cancel_then_retry_resumes_at_the_same_cursor() {
        let (mut b, mut ids, id) = started();
        let (_, follow) = b.on_page(id, Ok(page(0, 2, Some("c1"))), &mut ids, 20);
        let [Command::Api { id: id2, .. }] = follow[..] else {
            panic!()
        };
        assert_eq!(b.cancel(), Some(id2));
        assert!(matches!(b.listing.loaded().unwrap().more, More::Paused(_)));
        let commands = b.refresh(&mut ids);
        let req = only_request(&commands);
        assert_eq!(req.next.as_deref(), Some("c1"));
        assert_eq!(b.rows().len(), 2, "retry keeps the loaded rows");
    }

    /// The `/` text changed: its jobs run here and answer.
    /// The `/` text changed: its jobs (and those they call for) run here and answer.
    fn search(b: &mut Browser, ids: &mut RequestIds) {
        let mut commands = b.search_changed(ids, 10);
        while let Some(command) = commands.pop() {
            if let Command::Run { id, job } = command {
                let tested = job.run().take().expect("rows tested");
                commands.extend(b.on_tested(id, tested, 10, ids).1);
            }
        }
    }

    #[test]
    fn filter_narrows_and_keeps_the_selected_row() {
        let (mut b, mut ids, id) = started();
        b.on_page(id, Ok(page(0, 30, None)), &mut ids, 10);
        b.cursor.select(4, 30, 10); // r4, a repo
        b.filter.set("repo");
        search(&mut b, &mut ids);
        assert_eq!(b.visible.len(), 15);
        assert_eq!(b.selected().unwrap().id().unwrap(), "r4");
        b.filter.set("ROW 2");
        search(&mut b, &mut ids);
        assert_eq!(b.visible.len(), 11, "row 2 and row 20..29");
    }

    /// Over many rows, `/` shows which rows hold the text as soon as that is known, and names
    /// the field each was found by in a second job: the rows stay while their notes come.
    #[test]
    fn a_search_over_many_rows_shows_its_rows_then_names_their_fields() {
        let (mut b, mut ids, id) = started();
        let count = appdeck_listing::NAME_FIELDS_AFTER + 2;
        let rows: Vec<_> = (0..count)
            .map(|i| {
                let owner = if i % 2 == 0 { "Zed" } else { "Amy" };
                json!({"id": format!("r{i}"), "type": "repo", "properties": {"owner": owner}})
            })
            .collect();
        b.on_page(id, Ok(raw(json!({"resources": rows}))), &mut ids, 10);
        b.filter.set("zed");
        let mut first = b.search_changed(&mut ids, 10);
        let Some(Command::Run { id, job }) = first.pop() else {
            panic!("a job")
        };
        let tested = job.run().take().expect("rows tested");
        let (said, mut naming) = b.on_tested(id, tested, 10, &mut ids);
        assert_eq!(said, None);
        assert_eq!(b.visible.len(), count / 2, "the rows show at once");
        assert_eq!(b.note(0), None, "not named yet");
        let Some(Command::Run { id, job }) = naming.pop() else {
            panic!("a job naming the fields")
        };
        let tested = job.run().take().expect("rows named");
        let (_, more) = b.on_tested(id, tested, 10, &mut ids);
        assert!(more.is_empty());
        assert_eq!(b.visible.len(), count / 2);
        assert_eq!(b.note(0), Some("properties.owner: Zed"));
        assert_eq!(b.note(count - 2), Some("properties.owner: Zed"));
        assert_eq!(b.note(1), None, "not found");
        // A longer text narrows from the rows found, named or not.
        b.filter.set("zed!");
        search(&mut b, &mut ids);
        assert!(b.visible.is_empty());
    }

    /// A server that ignores `type`: only the asked type is shown. The counts differ (6 repo,
    /// 4 user), so a filter that kept the wrong rows would be caught.
    #[test]
    fn rows_of_another_type_are_not_shown() {
        let (mut b, mut ids, id) = started();
        b.type_filter = Some("repo".into());
        let rows: Vec<_> = (0..10)
            .map(|i| json!({"id": format!("r{i}"), "type": if i % 3 == 0 { "user" } else { "repo" }}))
            .collect();
        let mixed = raw(json!({"resources": rows}));
        b.on_page(id, Ok(mixed), &mut ids, 10);
        assert_eq!(b.rows().len(), 6);
        assert!(b.rows().iter().all(|r| r.resource_type() == Some("repo")));
        assert_eq!(
            b.types_seen.len(),
            2,
            "types are still learnt from every row"
        );
    }

    /// Each row keeps its item's text as the service sent it (spaces, line breaks, needless
    /// escapes), which `:export` writes as `list` does; the table reads the same values.
    #[test]
    fn rows_keep_each_item_as_its_bytes_came() {
        let (mut b, mut ids, id) = started();
        let items = [
            "{\n  \"id\" : \"r\\u0031\",\n  \"type\": \"repo\",  \"name\":\"Zo\\u00eb\", \"n\": 1.50\n}",
            "[ 1 ]",
        ];
        let body = format!("{{ \"resources\" : [ {} ,\n{} ] }}", items[0], items[1]);
        let page = read(body.into_bytes());
        b.on_page(id, Ok(page), &mut ids, 20);
        let (rows, bodies) = (b.rows(), b.bodies());
        let texts: Vec<String> = rows.iter().map(|r| bodies.read(r.body).unwrap()).collect();
        assert_eq!(texts, items);
        assert_eq!(
            (rows.at(0).id().as_deref(), rows.at(0).title().as_deref()),
            (Some("r1"), Some("Zoë"))
        );
        assert!(rows.at(1).malformed());
        assert_eq!(rows.at(0).json_len(), items[0].len());
    }
}
