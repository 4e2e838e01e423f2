//! Rows the store kept from the last listing shown, on screen at once (start, `:type`,
//! `:profile`) while the service is asked for the live first page, which replaces them without
//! moving the cursor. Kept rows never pass as live: the title says `kept 3 h ago` and how the
//! live page is doing, and what takes a row from the list (export, copy, a report) says so too.

use std::time::{Duration, Instant};

use super::Browser;
use crate::api::{ApiError, ReadPage};
use crate::app::action::{Command, KeptListing, RequestId, RequestIds};
use crate::app::loadable::Loadable;
pub(crate) use appdeck_listing::{KeptRows, Live, NotLive, age_words};

impl Browser {
    /// Asks the store for the listing kept for this type filter, to show until the live page
    /// comes. `offline`: the live page is not asked for at all.
    pub(crate) fn ask_kept(&mut self, ids: &mut RequestIds, offline: bool) -> Command {
        let id = ids.issue();
        self.kept_asked = Some(id);
        if offline {
            self.listing = Loadable::NotLoaded;
            self.offline = true;
        }
        Command::LoadKeptListing {
            id,
            type_filter: self.type_filter.clone(),
        }
    }

    pub(crate) fn asks_kept(&self, id: RequestId) -> bool {
        self.kept_asked == Some(id)
    }

    /// How long ago the rows shown were kept, when they are kept ones.
    pub(crate) fn kept_age(&self, now: Instant) -> Option<Duration> {
        self.kept.as_ref().map(|kept| kept.age(now))
    }

    /// ` (kept 3 h ago, not live)` after what a row gave when the rows are kept ones, else
    /// nothing: whatever takes a kept row away from the list says so.
    pub(crate) fn kept_note(&self, now: Instant) -> String {
        NotLive::note_of(NotLive::of(self.kept.as_ref(), None), now)
    }

    /// Why the row under the cursor is not live (kept, or found gone by `:watch`), if it is not.
    pub(crate) fn selected_not_live(&self) -> Option<NotLive> {
        let mark = (self.selected()).and_then(|r| self.watch.as_ref()?.mark(r));
        NotLive::of(self.kept.as_ref(), mark)
    }

    /// The kept listing arrived: shown if no live page came first (a live page that failed is
    /// said beside them). Returns what to tell the user, if anything.
    pub(crate) fn on_kept(
        &mut self,
        kept: KeptListing,
        now: Instant,
        ids: &mut RequestIds,
        height: usize,
    ) -> Option<String> {
        let (age, page, too_large) = match kept {
            KeptListing::Rest(rest) => {
                self.kept_asked = None;
                self.take_kept_rest(*rest, ids, height);
                return None;
            }
            // The rest answers the same ask.
            KeptListing::First {
                age,
                page,
                too_large,
            } => (age, page, too_large),
            kept => {
                self.kept_asked = None;
                match kept {
                    KeptListing::Rows {
                        age,
                        page,
                        too_large,
                    } => (age, page, too_large),
                    other => return self.nothing_kept(other),
                }
            }
        };
        let offline = std::mem::take(&mut self.offline);
        let live = match &self.listing {
            Loadable::Loading(id) => Live::Asking(*id),
            Loadable::Failed(error) => Live::Failed(error.clone()),
            Loadable::NotLoaded if offline => Live::Offline,
            // Live rows came first, or the user stopped the load: they stay.
            _ => return None,
        };
        // Kept rows have no next page: nothing is asked for after them.
        self.listing = Loadable::NotLoaded;
        self.take_page(*page, ids, height);
        self.kept = Some(KeptRows::new(now, age, live, too_large));
        None
    }

    /// The rows after the first kept ones, taken as the next page of the kept listing while
    /// it is shown (a live page that came first replaced it: they are dropped).
    fn take_kept_rest(&mut self, rest: ReadPage, ids: &mut RequestIds, height: usize) {
        if self.kept.is_some() && self.listing.loaded().is_some() {
            // The kept listing has no next page: taking the rest asks for nothing.
            let _ = self.take_page(rest, ids, height);
        }
    }

    /// No kept rows to show (`SetAside`, `None`): what to tell the user, if anything.
    fn nothing_kept(&mut self, kept: KeptListing) -> Option<String> {
        let offline = std::mem::take(&mut self.offline);
        match kept {
            KeptListing::SetAside(why) => {
                Some(format!("the kept listing was set aside, not shown: {why}"))
            }
            KeptListing::None if offline => {
                Some("offline: nothing kept for this listing; r asks the service".into())
            }
            _ => None,
        }
    }

    /// Whether `id` is the live first page that replaces the kept rows.
    pub(crate) fn replaces_kept(&self, id: RequestId) -> bool {
        self.kept.as_ref().and_then(KeptRows::asking) == Some(id)
    }

    /// The live first page arrived: the kept rows go, the listing starts over with it, and the
    /// cursor stays on its row (found by id as pages come) or else at its place. Returns that
    /// place, to put the cursor back once the page is in, and what to cancel.
    pub(crate) fn drop_kept(&mut self, id: RequestId) -> (usize, Vec<Command>) {
        let at = self.cursor.selected;
        self.reselect = self.selected_id();
        let mut commands = self.query.forget_tested_rows();
        commands.extend(self.sorting.restarted());
        self.kept = None;
        self.filling = None;
        self.visible.clear();
        self.listing = Loadable::Loading(id);
        (at, commands)
    }

    /// The live first page failed: the kept rows stay, with the error.
    pub(crate) fn kept_live_failed(&mut self, error: ApiError) {
        if let Some(kept) = &mut self.kept {
            kept.live = Live::Failed(error);
        }
    }

    /// `r` over kept rows: asks for the live first page again (or at all, offline).
    pub(super) fn ask_live_again(&mut self, ids: &mut RequestIds) -> Option<Vec<Command>> {
        let id = self.kept.as_mut()?.ask_again(ids);
        Some(id.map(|id| self.request(id, None)).into_iter().collect())
    }

    /// `Esc` over kept rows: stops asking for the live page. Returns the request to abort.
    pub(super) fn stop_live(&mut self) -> Option<RequestId> {
        self.kept.as_mut()?.stop()
    }

    /// A live page of the bottom list, as texts to keep for the next start (`None`: nothing to
    /// keep: a list opened over another screen, or the rows kept are at their bound).
    pub(crate) fn texts_to_keep(&mut self, id: RequestId, page: &ReadPage) -> Option<Command> {
        let first = self.listing.is_loading() || self.replaces_kept(id);
        if self.pushed || self.in_flight() != Some(id) || (!first && self.rows_kept >= MAX_KEPT) {
            return None;
        }
        let rows: Vec<String> = page
            .items_and_texts()
            .map(|(_, text)| text.to_string())
            .collect();
        self.rows_kept = if first {
            rows.len()
        } else {
            self.rows_kept + rows.len()
        };
        Some(Command::KeepListing {
            type_filter: self.type_filter.clone(),
            rows,
            from_start: first,
        })
    }
}

/// Rows past this are not sent to be kept: the store keeps no more.
const MAX_KEPT: usize = crate::store::KEPT_MAX_ROWS;
