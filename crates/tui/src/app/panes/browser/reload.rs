//! Reloading the list without losing the user's place (after a report changed a resource): the
//! listing is fetched again in the background as far as it was loaded, the rows on screen stay
//! until it has caught up with them and the queries applied (`/`, `:where`) have tested its rows,
//! then the new rows take their place with the cursor on the same resource, at the same height on
//! the screen. Under a sort the new rows are sorted first, behind those on screen (a large list by
//! a job of the reload's own): they never show unsorted, and `Esc` has no sort job of the user's
//! to meet. A reload never goes deeper than the rows loaded: only a page the user's move had in
//! flight when the rows were replaced is asked for again.

use std::time::Instant;

use super::watch::LookDiff;
use super::{Browser, More, PREFETCH_ROWS};
use crate::api::{ApiError, ReadPage};
use crate::app::action::{Command, RequestId, RequestIds};
use appdeck_listing::{Narrowing, Refetch, Tested};

/// A listing being fetched again behind the one on screen, as deep as the list is as its pages
/// arrive, dropped for a new one when out of date as it lands ([`Refetch`]).
#[derive(Clone, Debug)]
pub struct Reload {
    /// The same listing (type filter, page size) from its first page, not shown.
    fresh: Box<Browser>,
    refetch: Refetch,
    /// Under `:watch`, the job comparing the look with the rows on screen, once it has caught
    /// up with them (see `watch.rs`).
    compare: Option<RequestId>,
}

impl Reload {
    /// The rows fetched again so far.
    pub(super) fn listing(&self) -> Option<&super::Listing> {
        self.fresh.listing.loaded()
    }
}

impl Browser {
    /// Fetches the listing again behind the rows on screen. With nothing loaded yet there is no
    /// place to keep: an ordinary reload.
    pub(crate) fn reload_in_place(&mut self, ids: &mut RequestIds) -> Vec<Command> {
        if self.listing.loaded().is_none() {
            return self.restart(ids);
        }
        let mut commands = self.cancel_reload();
        // A listing loaded to its end is fetched again to its end, which may have moved: a look
        // of `:watch` then sees (and marks) every row added since.
        let mut fresh = Box::new(Browser {
            type_filter: self.type_filter.clone(),
            page_size: self.page_size,
            columns: self.columns.clone(),
            ..Browser::default()
        });
        commands.push(fresh.start(ids));
        fresh.loading_all = self.whole();
        self.reloading = Some(Box::new(Reload {
            fresh,
            refetch: Refetch::default(),
            compare: None,
        }));
        commands
    }

    /// Drops the reload in flight, if any: the cancel of its request.
    pub(super) fn cancel_reload(&mut self) -> Vec<Command> {
        let Some(reload) = self.reloading.take() else {
            return Vec::new();
        };
        let request = (reload.compare)
            .or(reload.fresh.sorting.job())
            .or(reload.fresh.in_flight());
        let tests = reload.fresh.query.narrowings().flat_map(Narrowing::cancel);
        request
            .map(Command::Cancel)
            .into_iter()
            .chain(tests)
            .collect()
    }

    /// Whether `id` is the job comparing a look with the rows on screen.
    pub(super) fn compares(&self, id: RequestId) -> bool {
        self.reloading
            .as_ref()
            .is_some_and(|r| r.compare == Some(id))
    }

    /// Whether `id` is the job sorting the reloaded rows before they take the place of those
    /// on screen.
    pub(super) fn sorts_reload(&self, id: RequestId) -> bool {
        self.reloading
            .as_ref()
            .is_some_and(|r| r.fresh.sorting.job() == Some(id))
    }

    /// Whether `id` is the request of the reload in flight.
    pub(super) fn reloads(&self, id: RequestId) -> bool {
        self.reloading
            .as_ref()
            .is_some_and(|r| r.fresh.in_flight() == Some(id))
    }

    /// A page for the reload (see [`Browser::reloads`]). Asks for the next page until
    /// it holds as many rows as were loaded (or the listing ends), then swaps it in. A failure
    /// keeps the rows on screen and says why.
    pub(super) fn on_reload_page(
        &mut self,
        id: RequestId,
        result: Result<ReadPage, ApiError>,
        ids: &mut RequestIds,
        height: usize,
    ) -> Result<Vec<Command>, ApiError> {
        let (held, whole) = (self.rows().len() - self.gone_shown(), self.whole());
        let Some(reload) = self.reloading.as_mut() else {
            return Ok(Vec::new());
        };
        // `on_page` fills a screen of this height with some margin: as many rows as are loaded.
        let wanted = held.saturating_sub(PREFETCH_ROWS).max(1);
        reload.fresh.loading_all |= whole;
        // A look's pages are the listing shown next: kept for the next start as a load's are.
        let keep = match &result {
            Ok(page) if !self.pushed => reload.fresh.texts_to_keep(id, page),
            _ => None,
        };
        let (_, mut follow_up) = reload.fresh.on_page(id, result, ids, wanted);
        if !follow_up.is_empty() {
            follow_up.extend(keep);
            return Ok(follow_up);
        }
        let Some(mut reload) = self.reloading.take() else {
            return Ok(Vec::new());
        };
        if let Some(error) = reload.fresh.error() {
            return Err(error.clone());
        }
        reload.refetch.fetched(self.listing.loaded());
        if self.watch.is_some() {
            let id = ids.issue();
            let compare = self.compare_look(&reload.fresh, id);
            reload.compare = Some(id);
            self.reloading = Some(reload);
            return Ok([compare].into_iter().chain(keep).collect());
        }
        let mut commands: Vec<Command> = keep.into_iter().collect();
        commands.extend(self.test_fresh(reload, ids, height));
        Ok(commands)
    }

    /// The comparison of a look came back (see [`Browser::compares`]): the look's rows take the
    /// place of those on screen, marked.
    /// Should the rows' JSON not be read, the look's rows still come in, unmarked, and the
    /// title says why.
    pub(super) fn on_compared(
        &mut self,
        diff: Result<LookDiff, String>,
        ids: &mut RequestIds,
        height: usize,
        now: Instant,
    ) -> Vec<Command> {
        let Some(mut reload) = self.reloading.take() else {
            return Vec::new();
        };
        if (reload.refetch).outdated(self.listing.loaded(), self.loading_all) {
            return self.reload_in_place(ids);
        }
        reload.compare = None;
        match diff {
            Ok(diff) => self.apply_look(&mut reload.fresh, diff, now),
            Err(why) => self.compare_failed(&why, now),
        }
        self.test_fresh(reload, ids, height)
    }

    /// The reload has all its rows (marked, under `:watch`): the queries applied test them in
    /// jobs of their own, the rows on screen staying meanwhile (a list narrowed to a few rows
    /// would otherwise show none until they answer); with no query, they take their place now.
    fn test_fresh(
        &mut self,
        mut reload: Box<Reload>,
        ids: &mut RequestIds,
        height: usize,
    ) -> Vec<Command> {
        let mut commands = Vec::new();
        let fresh = &mut *reload.fresh;
        let rows = fresh.listing.loaded().map(|l| (&l.bodies, &l.rows));
        fresh.query = self.query.restarted(rows, ids, &mut commands);
        if fresh.query.narrowings().all(Narrowing::complete) {
            commands.extend(self.sort_then_catch_up(reload, ids, height));
            return commands;
        }
        self.reloading = Some(reload);
        commands
    }

    /// Whether `id` is a job of the queries testing the reload's rows.
    pub(super) fn tests_reload(&self, id: RequestId) -> bool {
        self.reloading.as_ref().is_some_and(|r| r.fresh.tests(id))
    }

    /// A query's job over the reload's rows answered: once they are all tested, they take the
    /// place of those on screen. What to say (rows left out), as [`Browser::on_tested`].
    pub(super) fn on_reload_tested(
        &mut self,
        id: RequestId,
        tested: Tested,
        ids: &mut RequestIds,
        height: usize,
    ) -> (Option<String>, Vec<Command>) {
        let Some(reload) = self.reloading.as_mut() else {
            return (None, Vec::new());
        };
        let (said, mut commands) = reload.fresh.on_tested(id, tested, height, ids);
        if reload.fresh.query.narrowings().all(Narrowing::complete)
            && let Some(reload) = self.reloading.take()
        {
            commands.extend(self.sort_then_catch_up(reload, ids, height));
        }
        (said, commands)
    }

    /// The reloaded rows, tested and whole (a look's with its gone rows among them), sorted as
    /// the rows on screen are before they take their place: at once when few, else by a job
    /// (its command) whose answer [`Browser::on_reload_sorted`] takes.
    fn sort_then_catch_up(
        &mut self,
        mut reload: Box<Reload>,
        ids: &mut RequestIds,
        height: usize,
    ) -> Vec<Command> {
        reload.fresh.sorting.spec = self.sorting.spec;
        match reload.fresh.resort(ids, height) {
            Some(job) => {
                self.reloading = Some(reload);
                vec![job]
            }
            None => self.catch_up(*reload, ids, height),
        }
    }

    /// The job sorting the reloaded rows answered (see [`Browser::sorts_reload`]): they take
    /// the place of those on screen.
    pub(super) fn on_reload_sorted(
        &mut self,
        id: RequestId,
        order: Option<Vec<usize>>,
        ids: &mut RequestIds,
        height: usize,
    ) -> Vec<Command> {
        let Some(mut reload) = self.reloading.take() else {
            return Vec::new();
        };
        reload.fresh.sorted(id, order, height);
        self.catch_up(*reload, ids, height)
    }

    /// Puts the reloaded rows in place of those on screen: the same `/`, `:where` and status
    /// filters (the queries' answers over the new rows come with them; a query changed since is
    /// tested again), the cursor on the same resource (by id; else at the same index) and at the
    /// same height on the screen; marks on rows no longer there go. A reload out of date starts
    /// again instead (under `:watch` its look's marks stay, by id: the next look finds them).
    fn catch_up(&mut self, reload: Reload, ids: &mut RequestIds, height: usize) -> Vec<Command> {
        if (reload.refetch).outdated(self.listing.loaded(), self.loading_all) {
            return self.reload_in_place(ids);
        }
        let mut fresh = *reload.fresh;
        let sorted = std::mem::take(&mut fresh.sorting);
        let here = self.selected_id();
        let (index, from_top) = (
            self.cursor.selected,
            self.cursor.selected - self.cursor.offset.min(self.cursor.selected),
        );
        // A page the user asked for, cancelled here: asked for again from the new rows.
        let asked_more = matches!(
            self.listing.loaded().map(|l| &l.more),
            Some(More::Loading { .. })
        );
        let mut commands: Vec<Command> = self.cancel().map(Command::Cancel).into_iter().collect();
        // Kept rows make way for live ones (a look of `:watch` over them): the live first page
        // still asked for is not needed any more.
        if let Some(asked) = self.kept.take().and_then(|kept| kept.asking()) {
            commands.push(Command::Cancel(asked));
        }
        self.rows_kept = fresh.rows_kept;
        self.followed = fresh.followed;
        self.listing = fresh.listing;
        self.picked.keep_held(self.listing.loaded());
        self.not_refreshed = None;
        // The reloaded rows read their added columns as they came.
        self.filling = None;
        self.types_seen.extend(fresh.types_seen);
        self.reselect = None;
        let rows = self.listing.loaded().map(|l| (&l.bodies, &l.rows));
        let (retests, retesting) = self.query.take_tests(fresh.query, rows, ids);
        commands.extend(retests);
        // Its rows show once the queries have tested them again: the cursor goes back to it then.
        if retesting {
            self.reselect = here.clone();
        }
        self.visible = (0..self.rows().len()).filter(|&i| self.passes(i)).collect();
        self.picked
            .see_from(self.listing.loaded(), &self.visible, 0);
        let found = (here.as_deref()).and_then(|id| self.visible.find_id(self.rows(), id, 0));
        let len = self.visible.len();
        self.cursor.selected = found.unwrap_or(index).min(len.saturating_sub(1));
        self.cursor.offset = self.cursor.selected.saturating_sub(from_top);
        self.cursor.keep_visible(len, height);
        // As for a page (`on_page`): a query never drags pages in by itself.
        let more = match asked_more || !self.query.narrowed() {
            true => self.prefetch(ids, height),
            false => None,
        };
        commands.extend(self.take_sorted(sorted, ids, height));
        commands.extend(more);
        commands
    }
}
