//! Rows the store kept from the last listing shown, on screen at once (start, `:type`,
//! `:profile`) while the service is asked for the live first page, which replaces them without
//! moving the cursor. Kept rows never pass as live: the title says `kept 3 h ago` and how the
//! live page is doing, and what takes a row from the list (export, copy, a report) says so too.

use std::time::{Duration, Instant};

use super::Browser;
use crate::api::{ApiError, ReadPage};
use crate::app::action::{Command, KeptListing, RequestId, RequestIds};
use crate::app::loadable::Loadable;

/// The rows shown are kept ones: since when, and the live listing that will replace them.
#[derive(Clone, Debug)]
pub struct KeptRows {
    /// When they were kept (the store said how long ago; `update` reads no clock).
    pub since: Instant,
    pub live: Live,
}

/// Where the live listing stands while kept rows are shown.
#[derive(Clone, Debug)]
pub enum Live {
    /// Its first page is on its way.
    Asking(RequestId),
    /// The service did not answer it; `r` asks again.
    Failed(ApiError),
    /// `Esc` stopped it; `r` asks again.
    Stopped,
    /// `--offline`: not asked; `r` asks.
    Offline,
}

impl Live {
    /// What the title says of it, after the kept rows' count.
    pub(crate) fn said(&self) -> &'static str {
        match self {
            Live::Asking(_) => "asking the service…",
            Live::Failed(ApiError::Network(_) | ApiError::Timeout(_)) => {
                "service not answering: r retries"
            }
            Live::Failed(ApiError::Http {
                status: 401 | 403, ..
            }) => "the service refused the token: r retries",
            Live::Failed(_) => "the live page failed: r retries",
            Live::Stopped => "stopped: r asks the service",
            Live::Offline => "offline: r asks the service",
        }
    }
}

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
        (self.kept.as_ref()).map(|kept| now.saturating_duration_since(kept.since))
    }

    /// ` (kept 3 h ago, not live)` after what a row gave when the rows are kept ones, else
    /// nothing: whatever takes a kept row away from the list says so.
    pub(crate) fn kept_note(&self, now: Instant) -> String {
        match self.kept_age(now) {
            Some(age) => format!(" (kept {} ago, not live)", age_words(age)),
            None => String::new(),
        }
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
        let (age, page) = match kept {
            KeptListing::Rest(rest) => {
                self.kept_asked = None;
                self.take_kept_rest(*rest, ids, height);
                return None;
            }
            // The rest answers the same ask.
            KeptListing::First { age, page } => (age, page),
            kept => {
                self.kept_asked = None;
                match kept {
                    KeptListing::Rows { age, page } => (age, page),
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
        self.kept = Some(KeptRows {
            since: now.checked_sub(age).unwrap_or(now),
            live,
        });
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
        matches!(&self.kept, Some(KeptRows { live: Live::Asking(asked), .. }) if *asked == id)
    }

    /// The live first page arrived: the kept rows go, the listing starts over with it, and the
    /// cursor stays on its row (found by id as pages come) or else at its place. Returns that
    /// place, to put the cursor back once the page is in, and what to cancel.
    pub(crate) fn drop_kept(&mut self, id: RequestId) -> (usize, Vec<Command>) {
        let at = self.cursor.selected;
        self.reselect = self
            .selected()
            .and_then(|row| row.id().map(Box::<str>::from));
        let mut commands = self.query.forget_tested_rows();
        commands.extend(self.sort_restarted());
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
        let kept = self.kept.as_mut()?;
        if matches!(kept.live, Live::Asking(_)) {
            return Some(Vec::new());
        }
        let id = ids.issue();
        kept.live = Live::Asking(id);
        Some(vec![self.request(id, None)])
    }

    /// `Esc` over kept rows: stops asking for the live page. Returns the request to abort.
    pub(super) fn stop_live(&mut self) -> Option<RequestId> {
        let kept = self.kept.as_mut()?;
        let Live::Asking(id) = kept.live else {
            return None;
        };
        kept.live = Live::Stopped;
        Some(id)
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

/// How long ago, coarsely, for the list's title: `40 s`, `12 min`, `3 h`, `2 d`.
pub(crate) fn age_words(age: Duration) -> String {
    let secs = age.as_secs();
    match secs {
        0..60 => format!("{secs} s"),
        60..3600 => format!("{} min", secs / 60),
        3600..86_400 => format!("{} h", secs / 3600),
        _ => format!("{} d", secs / 86_400),
    }
}
