//! Rows the store kept from the last listing shown, on screen while the service is asked for the
//! live first page: since when they were kept, and where that live page stands. Kept rows never
//! pass as live, so whatever shows or takes them asks here.

use std::time::{Duration, Instant};

use crate::api::ApiError;
use crate::job::{RequestId, RequestIds};
use crate::look::Mark;

/// The rows shown are kept ones: since when, and the live listing that will replace them.
#[derive(Clone, Debug)]
pub struct KeptRows {
    /// When they were kept (the store said how long ago; the pane's `update` reads no clock).
    pub since: Instant,
    pub live: Live,
    /// Rows of the listing the store left out as too large to keep: the title says so.
    pub too_large: usize,
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
    pub fn said(&self) -> &'static str {
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

impl KeptRows {
    /// Rows kept `age` before `now`, with the live listing at `live`.
    pub fn new(now: Instant, age: Duration, live: Live, too_large: usize) -> KeptRows {
        KeptRows {
            since: now.checked_sub(age).unwrap_or(now),
            live,
            too_large,
        }
    }

    /// The same kept rows for another list over them, which asks for no live page of its own.
    pub fn stopped(&self) -> KeptRows {
        KeptRows {
            live: Live::Stopped,
            ..self.clone()
        }
    }

    /// The live first page's request, while it is on its way.
    pub fn asking(&self) -> Option<RequestId> {
        match self.live {
            Live::Asking(id) => Some(id),
            _ => None,
        }
    }

    /// Why the live first page failed, if it did.
    pub fn error(&self) -> Option<&ApiError> {
        match &self.live {
            Live::Failed(error) => Some(error),
            _ => None,
        }
    }

    /// `r`: the live first page asked for again (or at all, offline); `None` when it is on its
    /// way already.
    pub fn ask_again(&mut self, ids: &mut RequestIds) -> Option<RequestId> {
        if self.asking().is_some() {
            return None;
        }
        let id = ids.issue();
        self.live = Live::Asking(id);
        Some(id)
    }

    /// `Esc`: the live first page is not asked for any more. Returns its request to abort.
    pub fn stop(&mut self) -> Option<RequestId> {
        let id = self.asking()?;
        self.live = Live::Stopped;
        Some(id)
    }

    /// How long ago the rows were kept.
    pub fn age(&self, now: Instant) -> Duration {
        now.saturating_duration_since(self.since)
    }
}

/// Why a row taken from the list is not live (a row both kept and gone is said kept: a watch
/// look makes the rows live). The detail opened on it keeps it, so that its
/// title, `y`, `:export` and `R` say what the list says of the row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotLive {
    /// From a listing kept by an earlier run; `since`: the instant its age counts from.
    Kept { since: Instant },
    /// A `:watch` look found it gone from the service (`x`, struck through).
    Gone,
    /// The service accepted a report about it since it was shown: what is shown is the
    /// resource as it was before (the list fetches its rows again, an open detail does not).
    Reported,
}

impl NotLive {
    /// Why a row is not live: shown `kept`, or marked `mark` by a watch look.
    pub fn of(kept: Option<&KeptRows>, mark: Option<Mark>) -> Option<NotLive> {
        let gone = (mark == Some(Mark::Gone)).then_some(NotLive::Gone);
        kept.map(|k| NotLive::Kept { since: k.since }).or(gone)
    }

    /// `kept 5 min ago, not live`: the words the list uses, for a title.
    pub fn words(self, now: Instant) -> String {
        match self {
            NotLive::Kept { since } => format!(
                "kept {} ago, not live",
                age_words(now.saturating_duration_since(since))
            ),
            NotLive::Gone => "gone from the service, not live".to_owned(),
            NotLive::Reported => {
                "as before a report sent since; reopen it from the list for the service's copy"
                    .to_owned()
            }
        }
    }

    /// ` (kept 5 min ago, not live)` after what a row gave, or nothing for a live row.
    pub fn note_of(not_live: Option<NotLive>, now: Instant) -> String {
        not_live.map_or_else(String::new, |n| format!(" ({})", n.words(now)))
    }

    /// What `R` on such a row warns: the report starts from the row as it was.
    pub fn report_warning(self, now: Instant) -> String {
        let whence = match self {
            NotLive::Kept { .. } => format!("from a listing ({})", self.words(now)),
            NotLive::Gone => format!("{} (x)", self.words(now)),
            NotLive::Reported => {
                return "warning: a report about this resource was accepted since it was \
                        shown: this one starts from it as it was before (reopen it from the \
                        list for the service's copy)"
                    .to_owned();
            }
        };
        format!("warning: this resource is {whence}: the report starts from it as it was then")
    }
}

/// How long ago, coarsely, for the list's title: `40 s`, `12 min`, `3 h`, `2 d`.
pub fn age_words(age: Duration) -> String {
    let secs = age.as_secs();
    match secs {
        0..60 => format!("{secs} s"),
        60..3600 => format!("{} min", secs / 60),
        3600..86_400 => format!("{} h", secs / 3600),
        _ => format!("{} d", secs / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `r` asks for the live page once at a time, `Esc` stops only a page on its way, and a
    /// list over the same rows asks for none.
    #[test]
    fn the_live_page_is_asked_once_at_a_time_and_stopped_only_on_its_way() {
        let mut ids = RequestIds::default();
        let now = Instant::now();
        let mut kept = KeptRows::new(
            now,
            Duration::ZERO,
            Live::Failed(ApiError::EmptyPages(1)),
            0,
        );
        assert!(kept.error().is_some() && kept.stop().is_none());
        let id = kept.ask_again(&mut ids).expect("asked again");
        assert_eq!(kept.asking(), Some(id));
        assert_eq!(kept.ask_again(&mut ids), None, "one on its way at a time");
        assert!(kept.stopped().asking().is_none());
        assert_eq!(kept.stop(), Some(id));
        assert!(matches!(kept.live, Live::Stopped) && kept.stop().is_none());
        let later = now + Duration::from_secs(7300);
        assert_eq!(age_words(kept.age(later)), "2 h");
    }

    #[test]
    fn ages_are_said_coarsely() {
        let words = [40, 720, 10_800, 172_800].map(|s| age_words(Duration::from_secs(s)));
        assert_eq!(words, ["40 s", "12 min", "3 h", "2 d"]);
    }
}
