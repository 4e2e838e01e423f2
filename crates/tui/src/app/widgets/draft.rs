//! When a composer's draft is saved, and what happens to a stored one, for both composers: a
//! save a quiet half second after the last change (at the latest a second after the first
//! unsaved one), never while nothing changes; a stored draft restored when the composer opens on
//! the same subject unless typing started first; the composer as it opened kept for `D`. A
//! composer's draft is its own (another window's about the same subject is never written over
//! nor removed by it). What a draft holds is each composer's own; the store is the runtime's
//! (this only asks, with commands).

use std::time::{Duration, Instant};

use crate::app::pane::{Ctx, Outcome};
use crate::app::{Command, DraftSlot, DraftSubject, RequestId, StoredDraft};
use crate::sanitize;
use crate::store::DraftRevision;

/// A save is due this long after the last change: a burst of typing is one write.
pub(crate) const QUIET: Duration = Duration::from_millis(500);

/// ... but never later than this after the first unsaved change, so that typing without a
/// pause still reaches the store: a crash loses at most the last second of typing.
pub(crate) const LONGEST_UNSAVED: Duration = Duration::from_secs(1);

/// Where a composer's draft stands; `F` is the composer, kept as it opened for `D`.
#[derive(Clone, Debug)]
pub struct DraftState<F> {
    pub subject: DraftSubject,
    /// This composer's name for its own draft: the id of its first save (unique in this window;
    /// the runtime adds the window's). `None` until it saves.
    pub owner: Option<u64>,
    /// The stored draft this composer went on from (restored, or opened from the history): its
    /// first save takes it over unless another window changed it since; else it saves beside.
    pub from: Option<DraftRevision>,
    /// Changes not yet handed to the store: since when, and the last one.
    pub unsaved: Option<Unsaved>,
    /// The last save asked for, while it runs.
    pub saving: Option<RequestId>,
    /// What the last save said, for the title (`None` before any).
    pub saved: Option<Result<(), String>>,
    /// The restored draft's age, and the composer as it was before, for `D`.
    pub restored: Option<Restored<F>>,
    /// How long before it was restored the restored draft was sent (the store could not
    /// remove it then), for the title: it is not an unsent draft.
    pub sent_before: Option<Duration>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unsaved {
    pub since: Instant,
    pub last: Instant,
}

#[derive(Clone, Debug)]
pub struct Restored<F> {
    pub age: Duration,
    pub fresh: Box<F>,
}

impl<F> DraftState<F> {
    pub(crate) fn new(subject: DraftSubject) -> Self {
        DraftState {
            subject,
            owner: None,
            from: None,
            unsaved: None,
            saving: None,
            saved: None,
            restored: None,
            sent_before: None,
        }
    }

    /// Something changed at `now`. A save that failed is still said (in the title, and by `q`)
    /// until one succeeds: what was typed since is not saved either.
    pub(crate) fn touch(&mut self, now: Instant) {
        let since = self.unsaved.map_or(now, |u| u.since);
        self.unsaved = Some(Unsaved { since, last: now });
        if matches!(self.saved, Some(Ok(()))) {
            self.saved = None;
        }
    }

    /// The composer is about `subject` now (a connect's `app_id` edited): what it saves goes
    /// there, as a draft of its own, and the one it saved or went on from under the subject
    /// before is removed (the history would list it as a draft of the other app).
    pub(crate) fn rekey(&mut self, subject: DraftSubject) -> Option<Command> {
        if subject == self.subject || self.unsaved.is_none() {
            return None;
        }
        let before = (self.owner.is_some() || self.from.is_some()).then(|| self.slot());
        self.subject = subject;
        self.owner = None;
        self.from = None;
        before.map(Command::RemoveDraft)
    }

    /// Which draft in the store is this composer's.
    pub(crate) fn slot(&self) -> DraftSlot {
        DraftSlot {
            subject: self.subject.clone(),
            owner: self.owner,
            from: self.from,
        }
    }

    /// When the next save is due: [`QUIET`] after the last change, at the latest
    /// [`LONGEST_UNSAVED`] after the first; `None` while nothing is unsaved.
    pub(crate) fn due(&self) -> Option<Instant> {
        self.unsaved
            .map(|u| (u.last + QUIET).min(u.since + LONGEST_UNSAVED))
    }

    /// Whether a save is due at `now` (the pane's `tick`).
    pub(crate) fn is_due(&self, now: Instant) -> bool {
        self.due().is_some_and(|due| due <= now)
    }

    /// Asks for the stored draft of this subject, to restore it when it comes (once per
    /// composer: its answer is taken without checking the id).
    pub(crate) fn load(&self, id: RequestId) -> Command {
        Command::LoadDraft {
            id,
            subject: self.subject.clone(),
        }
    }

    /// The save of what is unsaved, now (`body` is the composer's draft text); nothing when
    /// everything is saved.
    pub(crate) fn save(&mut self, id: RequestId, body: impl FnOnce() -> String) -> Vec<Command> {
        if self.unsaved.take().is_none() {
            return Vec::new();
        }
        self.saving = Some(id);
        self.owner.get_or_insert(id.0);
        vec![Command::SaveDraft {
            id,
            slot: self.slot(),
            body: body(),
        }]
    }

    /// The answer to the save `id`; returns whether it was this draft's.
    pub(crate) fn save_answered(&mut self, id: RequestId, result: Result<(), String>) -> bool {
        if self.saving != Some(id) {
            return false;
        }
        self.saving = None;
        self.saved = match result {
            Err(error) => Some(Err(error)),
            Ok(()) if self.unsaved.is_none() => Some(Ok(())),
            // A change since this save was asked for is not in it: no "saved" cue yet, but the
            // store works again.
            Ok(()) => None,
        };
        true
    }

    /// The stored draft arrived: the one to restore, if any, which this composer goes on from. A
    /// store that could not be read, or typing that started meanwhile (the stored draft stays,
    /// and the next save goes beside it), is said here.
    pub(crate) fn take_loaded(
        &mut self,
        result: Result<Option<StoredDraft>, String>,
        cx: &mut Ctx,
    ) -> Option<StoredDraft> {
        let stored = match result {
            Ok(stored) => stored?,
            Err(error) => {
                cx.error(format!(
                    "the store could not be read for a draft: {}",
                    sanitize::line(&error)
                ));
                return None;
            }
        };
        if self.unsaved.is_some() {
            cx.info(format!(
                "a draft from {} ago was not restored: typing had started (3 lists it)",
                age_words(stored.age)
            ));
            return None;
        }
        self.from = Some(stored.revision);
        self.sent_before = stored.sent;
        Some(stored)
    }

    /// The composer's send goes out next (`id` is its request): its text (`body`) is saved
    /// marked as being sent, so that it never comes back as unsent should this window end
    /// before the answer is recorded. A send that fails is saved again ([`Self::not_sent`]).
    pub(crate) fn sending(&mut self, id: RequestId, body: String) -> Command {
        self.unsaved = None;
        self.owner.get_or_insert(id.0);
        Command::DraftSending {
            slot: self.slot(),
            body,
        }
    }

    /// Puts, before the send `outcome` asks for (if it asks for one), the save of `text` marked
    /// as being sent.
    pub(crate) fn before_send(&mut self, outcome: Outcome, text: String) -> Outcome {
        let Outcome::Handled(mut commands) = outcome else {
            return outcome;
        };
        let send = commands.iter().find_map(|command| match command {
            Command::Api { id, .. } => Some(*id),
            _ => None,
        });
        if let Some(id) = send {
            commands.insert(0, self.sending(id, text));
        }
        Outcome::Handled(commands)
    }

    /// The send failed: the draft is unsent again, and its next save says so.
    pub(crate) fn not_sent(&mut self, now: Instant) {
        self.touch(now);
    }

    /// The composer was sent and accepted: its draft has done its job.
    pub(crate) fn sent(&mut self) -> Command {
        self.unsaved = None;
        self.restored = None;
        self.saved = None;
        self.sent_before = None;
        let slot = self.slot();
        self.from = None;
        Command::DraftSent(slot)
    }

    /// `D`: removes this composer's draft from the store, its own and the one it went on from,
    /// which is gone from now on.
    pub(crate) fn removal(&mut self) -> Command {
        self.sent_before = None;
        let slot = self.slot();
        self.from = None;
        Command::RemoveDraft(slot)
    }

    /// For the title: saved, not saved, restored (and how old, and when it was sent if it
    /// was), or nothing yet.
    pub(crate) fn cue(&self) -> String {
        match (&self.saved, &self.restored, self.unsaved, self.sent_before) {
            (Some(Ok(())), _, None, _) => " · draft saved".to_owned(),
            (Some(Err(_)), _, _, _) => " · draft not saved".to_owned(),
            // Sent and accepted, though the store could not remove it then: never "unsent".
            (_, Some(restored), _, Some(sent)) => format!(
                " · sent {} ago (draft from {} ago; D discards it)",
                age_words(sent),
                age_words(restored.age)
            ),
            (_, Some(restored), _, None) => format!(
                " · draft from {} ago (D discards it)",
                age_words(restored.age)
            ),
            _ => String::new(),
        }
    }

    /// Why the last save failed, if it did (sanitised).
    pub(crate) fn save_error(&self) -> Option<String> {
        match &self.saved {
            Some(Err(error)) => Some(sanitize::line(error).into_owned()),
            _ => None,
        }
    }

    /// For the status bar, when the last save failed.
    pub(crate) fn problem(&self) -> Option<String> {
        match &self.saved {
            Some(Err(error)) => Some(format!("draft not saved: {}", sanitize::line(error))),
            _ => None,
        }
    }
}

impl<F: Clone> DraftState<F> {
    /// `D`: the composer as it opened, before the draft was restored, with this draft state
    /// (nothing unsaved); `None` when no draft was restored.
    pub(crate) fn discard(&mut self) -> Option<(F, DraftState<F>)> {
        let restored = self.restored.take()?;
        let mut draft = self.clone();
        draft.unsaved = None;
        draft.saved = None;
        Some((*restored.fresh, draft))
    }
}

/// "12 s", "3 min", "2 h", "4 days": how old a draft is, in the notice that restores it.
pub(crate) fn age_words(age: Duration) -> String {
    let s = age.as_secs();
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min", s / 60),
        3600..86400 => format!("{} h", s / 3600),
        _ => match s / 86400 {
            1 => "1 day".to_owned(),
            d => format!("{d} days"),
        },
    }
}
