//! `:watch SECS`: the list is looked at again every SECS seconds, as deep as it was loaded, by
//! the reload in place of `reload.rs`; each look is compared with the rows it replaces (in a job:
//! every row's JSON is read) and the rows new, changed or gone are marked for a few looks. The
//! timer is the event loop's one deadline ([`Browser::wake_at`](crate::app::pane::Pane)): with
//! no watch, nothing wakes the loop.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use super::Browser;
use crate::app::action::{Command, RequestId, RequestIds};
use crate::app::job::Work;
use crate::app::loadable::Loadable;

pub(crate) use appdeck_listing::{CompareLook, LookDiff, MAX_EVERY, Mark, Watch};
#[cfg(test)]
pub(crate) use appdeck_listing::{MARK_LOOKS, Side, compare};

impl Browser {
    /// `:watch SECS` (a look at once) or `:watch off` (its marks and gone rows go).
    pub fn set_watch(
        &mut self,
        every: Option<Duration>,
        ids: &mut RequestIds,
        now: Instant,
        height: usize,
    ) -> Vec<Command> {
        match (every, self.watch.as_mut()) {
            (None, _) => {
                let gone = self.watch.take().map(Watch::into_gone);
                self.drop_rows(&gone.unwrap_or_default(), ids, height)
            }
            (Some(every), Some(watch)) => {
                watch.every = every;
                watch.delay = every;
                watch.next_at = now + every;
                Vec::new()
            }
            (Some(every), None) => {
                self.watch = Some(Watch::new(every, now));
                self.look(ids, now)
            }
        }
    }

    /// The watch's deadline has come: a look, unless the listing is still loading its first
    /// page, `L` is loading every page, or a look or reload is under way (then the next look
    /// waits an interval).
    pub fn look(&mut self, ids: &mut RequestIds, now: Instant) -> Vec<Command> {
        let Some(watch) = self.watch.as_mut() else {
            return Vec::new();
        };
        // Should this look be dropped (`r`, another filter), the next still comes.
        watch.next_at = now + watch.delay;
        match &self.listing {
            // A look after a first page that failed is that load again (issue 36 item 4): the
            // title says the list is watched, so the service is asked.
            Loadable::Failed(_) | Loadable::NotLoaded => return self.restart(ids),
            Loadable::Loading(_) => return Vec::new(),
            _ if self.reloading.is_some() || self.loading_all => return Vec::new(),
            Loadable::Loaded(_) => {}
        }
        self.reload_in_place(ids)
    }

    /// A look failed: said in the title, and the next one waits longer.
    pub(super) fn look_failed(&mut self, why: String, now: Instant) {
        if let Some(watch) = self.watch.as_mut() {
            watch.failed(why, now);
        }
    }

    /// The comparison could not read the rows' JSON: the look's rows come in unmarked, and the
    /// gone rows shown so far leave with the rows they were shown among, so their marks go too
    /// (a gone mark stands for a row shown: see [`Browser::gone_shown`]).
    pub(super) fn compare_failed(&mut self, why: &str, now: Instant) {
        if let Some(watch) = self.watch.as_mut() {
            watch.forget_gone();
        }
        self.look_failed(format!("the rows could not be compared: {why}"), now);
    }

    /// The look has caught up with the rows on screen: the comparison, as a job.
    pub(super) fn compare_look(&self, fresh: &Browser, id: RequestId) -> Command {
        let side = |list: &Browser| {
            let listing = list.listing.loaded();
            (listing.map(|l| l.side(list.watch.as_ref()))).unwrap_or_default()
        };
        let job = CompareLook {
            before: side(self),
            after: side(fresh),
        };
        Command::Run {
            id,
            job: Work::new(job),
        }
    }

    /// The comparison came back: the marks, and the gone rows put in among the look's rows
    /// (`fresh`, about to take the place of those on screen).
    pub(super) fn apply_look(&mut self, fresh: &mut Browser, diff: LookDiff, now: Instant) {
        let before = (self.listing.loaded()).map_or(&appdeck_listing::NO_ROWS, |l| &l.rows);
        let (Some(watch), Some(listing)) = (self.watch.as_mut(), fresh.listing.loaded_mut()) else {
            return;
        };
        let found = listing.take_look(watch, diff, before, now);
        fresh.followed = (!found.is_empty()).then(|| std::sync::Arc::new(found));
    }

    /// Whether the rows loaded are, or under `L` will be, the whole listing: a reload goes on.
    pub(super) fn whole(&self) -> bool {
        self.loading_all || self.listing.loaded().is_some_and(super::Listing::whole)
    }

    /// How many rows are shown although gone (they are not loaded resources any more). Each
    /// gone mark stands for one row shown (`apply_look` shows a gone row exactly while its mark
    /// lasts; `compare_failed` and `restart` drop both), so the marks are counted: the title
    /// asks on every frame, and a scan of the rows would cost a lookup per row loaded.
    pub fn gone_shown(&self) -> usize {
        self.watch.as_ref().map_or(0, |w| w.count(Mark::Gone))
    }

    /// Takes the rows of these ids out of the listing (gone rows, once the watch stops).
    /// The rows change places: `visible`, the sort's order and a sort job in flight held their
    /// indices before, so all three start again (the sort first, over no rows shown, then `/`,
    /// `:where` and the status filter put the rows that pass in its order), and the cursor goes
    /// back to its resource by id once that shows.
    fn drop_rows(
        &mut self,
        gone: &HashSet<Box<str>>,
        ids: &mut RequestIds,
        height: usize,
    ) -> Vec<Command> {
        if gone.is_empty() {
            return Vec::new();
        }
        let here = self.selected_id();
        if let Some(listing) = self.listing.loaded_mut() {
            listing.drop_ids(gone);
        }
        self.picked.keep_held(self.listing.loaded());
        self.visible.clear();
        let mut commands: Vec<Command> = self.sorting.restarted().into_iter().collect();
        commands.extend(self.resort(ids, height));
        let rows = self.listing.loaded().map(|l| (&l.bodies, &l.rows));
        commands.extend(self.query.retest_all(rows, ids));
        self.reselect = here;
        self.refresh_visible(height);
        commands
    }
}
