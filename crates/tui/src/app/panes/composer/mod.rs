//! One composer for every payload appdeck sends, as one editor serves many kinds: a JSON editor
//! (with the kind's own fields or parts around it) checked as it is typed (on a background task
//! when the text is large), `$EDITOR` on it, its draft saved as one types (`widgets::draft`),
//! and the review of the exact request, the send and its answer (`widgets::send_flow`). What
//! differs is the kind's ([`Kind`]: `panes/report`, `panes/connect`): its template, checks,
//! operation, review header and draft subject. Its handling of actions is in `update.rs`.

pub(crate) mod keys;
pub(crate) mod layout;
mod update;

use std::cell::Cell;
use std::fmt;
use std::ops::{Deref, DerefMut};

use ratatui_textarea::TextArea;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::app::job::{Job, Progress, Work};
use crate::app::keymap::{InputMode, KeyTable};
use crate::app::pane::{Ctx, News, Outcome, Screen};
use crate::app::widgets::draft::{DraftState, Restored};
use crate::app::widgets::json_editor;
use crate::app::widgets::send_flow::Phase;
use crate::app::{Action, Command, Delivery, DraftSubject, RequestId, RequestIds};
use crate::store::SendKind;

/// A composer of the kind `K`: what every kind has (the findings, the phase of the send, the
/// draft, `$EDITOR`), the kind's own state reached through `Deref`.
#[derive(Clone, Debug)]
pub struct Composer<K: Kind> {
    pub kind: K,
    /// Whether the editor (or one of the kind's fields) has the keyboard.
    pub editing: bool,
    pub findings: Vec<K::Finding>,
    /// The selected finding.
    pub finding: usize,
    /// The check running on a background task; an older one's result is dropped.
    pub checking: Option<RequestId>,
    /// The text changed while a background check ran: check again when it ends.
    pub recheck: bool,
    pub phase: Phase,
    /// Lines the review is scrolled by.
    pub review_scroll: usize,
    /// The largest scroll that moves the review, as its last drawing found it (the review's
    /// length depends on the screen's size): `End` goes there and no key scrolls past it, so `k`
    /// after `End` moves at once. Unknown before the first drawing.
    pub review_bottom: Cell<Option<usize>>,
    /// The draft in the store: when to save, what was restored (the composer as it was, for `D`).
    pub draft: DraftState<Composer<K>>,
    /// The external editor running on the text.
    pub editing_externally: Option<RequestId>,
    /// The warning said as it opened (`R` on a resource not live): said again with the news
    /// of a draft restored or discarded, which would hide it.
    pub warned: Option<String>,
}

/// What `$EDITOR` left, once in place.
#[derive(Debug, PartialEq)]
pub enum Edited {
    /// The same text as went out: nothing changed.
    Unchanged,
    Applied,
    /// Not JSON (the error says why), kept as typed.
    NotJson(String),
}

/// The key tables of a kind's phases.
pub struct PhaseKeys {
    pub writing: &'static KeyTable,
    pub review: &'static KeyTable,
    pub sending: &'static KeyTable,
    pub answer: &'static KeyTable,
}

/// What a kind of payload brings to the composer. The functions that take the whole composer
/// are the kind's keys and answers; the others read or change the kind's own state.
pub trait Kind: Clone + fmt::Debug + Sized + 'static {
    type Finding: Clone + fmt::Debug;
    /// The checks of the text as typed, owned, to run here or on a background task.
    type Check: Job<Output = Self::Checked>;
    type Checked: Send + 'static;
    /// What a draft holds, kept in the store as JSON text.
    type Draft: Serialize + DeserializeOwned;

    /// The operation, and what the history and the messages call a send ("report").
    const SEND: SendKind;
    /// What the editor holds, in messages ("resource", "payload").
    const TEXT: &'static str;
    /// What `$EDITOR` edits, in messages ("report", "payload").
    const EDITED: &'static str;
    /// What is said when `$EDITOR` left JSON, and after its error when it did not.
    const AFTER_EDIT: [&'static str; 2];
    /// Texts of this size or more are checked on a background task.
    const BACKGROUND_BYTES: usize;
    /// The activity while a check runs.
    const CHECKING: &'static str;
    /// What `D` says once the restored draft is gone.
    const DISCARDED: &'static str;
    /// What `s` says while a check runs, when the review waits for it.
    const REVIEW_WAITS: Option<&'static str>;
    const KEYS: PhaseKeys;

    /// The pane that shows a composer of this kind.
    fn screen(c: Box<Composer<Self>>) -> Screen;
    fn editor(&self) -> &TextArea<'static>;
    fn editor_mut(&mut self) -> &mut TextArea<'static>;
    fn base_url(&self) -> &str;
    /// Waits for something before it has a text to check (a choice, an inference): checked,
    /// and its draft looked up, once it starts.
    fn waits(&self) -> bool {
        false
    }
    /// A report's resource as it was listed when the composer opened on it (`R`).
    fn resource_before(&self) -> Option<&str> {
        None
    }
    /// The size the choice of a background check goes by.
    fn check_size(&self) -> usize {
        json_editor::size_of(self.editor())
    }
    fn check_job(&self) -> Self::Check;
    /// A check started on a background task: results it replaces are stale.
    fn check_started(&mut self) {}
    /// A check's results: the kind keeps its part, the findings come back.
    fn checked(&mut self, checked: Self::Checked) -> Vec<Self::Finding>;
    /// The cursor goes to the editor (after an undo, a jump).
    fn focus_editor(&mut self);
    /// The whole text `$EDITOR` gets.
    fn external_text(&self) -> String {
        json_editor::text_of(self.editor())
    }
    /// The body to review, sent as typed, or why there is none.
    fn body(&self) -> Result<crate::app::Body, String> {
        let text = json_editor::text_of(self.editor());
        let value = crate::validate::parse_json(&text).map_err(|error| error.to_string())?;
        Ok(crate::app::Body::new(&text, value))
    }
    /// Everything typed, JSON or not: what a draft holds.
    fn draft(&self) -> Self::Draft;
    /// Puts a stored draft's fields in place.
    fn restore(&mut self, draft: Self::Draft);
    /// The id the draft is kept under now, when the text says (a connect's `app_id`); `None`
    /// keeps the subject it opened with.
    fn draft_id(&self) -> Option<String> {
        None
    }

    /// The kind's keys while writing (moving between its parts, its own commands).
    fn update_writing(c: &mut Composer<Self>, action: Action, cx: &mut Ctx) -> Outcome;
    /// The kind's own sends in flight (a report over marked rows), cancelled and recorded as
    /// such when the composer closes under them.
    fn abandon_in_flight(_c: &mut Composer<Self>, _cx: &mut Ctx) -> Vec<Command> {
        Vec::new()
    }
    /// Keys the kind takes before anything else (a picker, a text that is not JSON, one of its
    /// own fields being edited), or the action back.
    fn intercept(
        _c: &mut Composer<Self>,
        action: Action,
        _cx: &mut Ctx,
    ) -> Result<Outcome, Action> {
        Err(action)
    }
    /// The input mode while editing.
    fn editing_mode(&self) -> InputMode {
        InputMode::Editor
    }
    /// A key table of the kind's own for now (a picker, a text that is not JSON).
    fn own_keys(_c: &Composer<Self>) -> Option<&'static KeyTable> {
        None
    }
    /// The kind's own activity, before the checks'.
    fn activity(_c: &Composer<Self>) -> Option<String> {
        None
    }
    /// Where finding `i` points: the cursor goes there.
    fn go_to(c: &mut Composer<Self>, i: usize);
    /// Puts what `$EDITOR` left in place (JSON or not: nothing typed is lost).
    fn take_edited(&mut self, text: String) -> Edited;
    /// What holds the send, each said in a few words: the first `Enter` of the review says
    /// them, and a second sends anyway. None: the first sends.
    fn hold(c: &Composer<Self>) -> Vec<String>;
    /// The service accepted the send of `body`; `commands` record it.
    fn accepted(
        c: &mut Composer<Self>,
        body: crate::app::Body,
        commands: Vec<Command>,
        cx: &mut Ctx,
    ) -> Outcome;
    /// An answer to a request of the kind's own.
    fn on_reply(_c: &mut Composer<Self>, _id: RequestId, _d: Delivery, _cx: &mut Ctx) -> Outcome {
        Outcome::done()
    }
    fn on_broadcast(_c: &mut Composer<Self>, _news: &News, _cx: &mut Ctx) -> Vec<Command> {
        Vec::new()
    }
}

impl<K: Kind> Deref for Composer<K> {
    type Target = K;

    fn deref(&self) -> &K {
        &self.kind
    }
}

impl<K: Kind> DerefMut for Composer<K> {
    fn deref_mut(&mut self) -> &mut K {
        &mut self.kind
    }
}

impl<K: Kind> Composer<K> {
    /// A composer of `kind`, its draft kept under `subject`; nothing checked yet.
    pub(crate) fn with(kind: K, subject: DraftSubject) -> Self {
        Composer {
            kind,
            editing: false,
            findings: Vec::new(),
            finding: 0,
            checking: None,
            recheck: false,
            phase: Phase::Editing,
            review_scroll: 0,
            review_bottom: Cell::new(None),
            draft: DraftState::new(subject),
            editing_externally: None,
            warned: None,
        }
    }

    /// The subject a draft of this kind is kept under: the kind's word and `id` (a report's
    /// resource, a connect's `app_id`), or `new` without one; the runtime adds the base URL.
    pub(crate) fn draft_subject(id: Option<&str>) -> DraftSubject {
        DraftSubject {
            kind: K::SEND.as_str().to_owned(),
            subject: id.unwrap_or("new").to_owned(),
        }
    }

    /// Checks the text, here when it is small, else on a background task under the id `issue`
    /// gives (at most one runs; a change meanwhile makes its result stale).
    pub(crate) fn check(&mut self, issue: impl FnOnce() -> RequestId) -> Vec<Command> {
        if self.kind.check_size() < K::BACKGROUND_BYTES {
            self.recheck = false;
            self.checking = None;
            let findings = self.kind.check_job().run(&Progress::detached());
            self.set_findings(findings);
            return Vec::new();
        }
        if self.checking.is_some() {
            self.recheck = true;
            return Vec::new();
        }
        self.recheck = false;
        self.kind.check_started();
        let job = self.kind.check_job();
        let id = issue();
        self.checking = Some(id);
        vec![Command::Run {
            id,
            job: Work::new(job),
        }]
    }

    /// The first check, and (when `draft`) the look-up of the stored draft: once the composer
    /// has its text, as it opens or leaves its picker.
    pub(crate) fn begin(&mut self, ids: &mut RequestIds, draft: bool) -> Vec<Command> {
        let mut commands = self.check(|| ids.issue());
        commands.extend(draft.then(|| self.draft.load(ids.issue())));
        commands
    }

    fn set_findings(&mut self, checked: K::Checked) {
        self.findings = self.kind.checked(checked);
        self.finding = self.finding.min(self.findings.len().saturating_sub(1));
    }

    /// The text changed: its draft is due for a save, and it is checked again.
    pub(crate) fn changed(&mut self, cx: &mut Ctx) -> Vec<Command> {
        self.draft.touch(cx.now);
        self.check(|| cx.ids.issue())
    }

    /// The save of what is unsaved, now; nothing when everything is saved.
    pub(crate) fn save_draft(&mut self, id: RequestId) -> Vec<Command> {
        let body = self.draft_text();
        let subject = self
            .kind
            .draft_id()
            .map(|id| Self::draft_subject(Some(&id)));
        let mut commands: Vec<Command> = subject
            .and_then(|s| self.draft.rekey(s))
            .into_iter()
            .collect();
        commands.extend(self.draft.save(id, || body));
        commands
    }

    /// The draft as the store keeps it.
    pub(crate) fn draft_text(&self) -> String {
        // A draft is strings and JSON values: it always serialises.
        serde_json::to_string(&self.kind.draft()).unwrap_or_default()
    }

    /// Puts a stored draft in place, keeping the composer as it was for `D`. A body this
    /// appdeck cannot read is an error, and the composer stays as it was.
    pub(crate) fn restore_draft(
        &mut self,
        body: &str,
        age: std::time::Duration,
    ) -> Result<(), String> {
        let draft = serde_json::from_str(body).map_err(|e| e.to_string())?;
        let fresh = Box::new(self.clone());
        self.kind.restore(draft);
        self.draft.restored = Some(Restored { age, fresh });
        Ok(())
    }

    /// `D`: back to the composer as it opened, before the draft was restored. Returns whether
    /// there was a restored draft to discard.
    pub(crate) fn discard_draft(&mut self) -> bool {
        let Some((fresh, draft)) = self.draft.discard() else {
            return false;
        };
        *self = fresh;
        self.draft = draft;
        // `fresh` is the composer as it was when the draft came, with the check then in
        // flight, long answered: waiting for it again would leave this one "checking…" for
        // good. A check of the draft's text still running is not this text's; it is dropped.
        self.checking = None;
        self.recheck = false;
        true
    }

    /// Selects the finding `step` away from the current one and moves the cursor where it points.
    pub(crate) fn go_to_finding(&mut self, step: isize) {
        if self.findings.is_empty() {
            return;
        }
        let n = self.findings.len() as isize;
        self.finding = (self.finding as isize + step).rem_euclid(n) as usize;
        K::go_to(self, self.finding);
    }

    /// `e`: asks the runtime for the external editor on the text.
    pub(crate) fn edit_externally(&mut self, id: RequestId) -> Command {
        self.editing_externally = Some(id);
        let text = self.kind.external_text();
        Command::EditExternally { id, text }
    }
}

/// The part after (`forward`) or before `at` in `order`, the order the keys visit a kind's
/// parts in: past either end it stays there, or with `wrap` comes round.
pub(crate) fn step<T: Copy + PartialEq>(order: &[T], at: T, forward: bool, wrap: bool) -> T {
    let n = order.len();
    let i = order.iter().position(|p| *p == at).unwrap_or(0);
    let j = match (forward, wrap) {
        (true, true) => (i + 1) % n,
        (true, false) => (i + 1).min(n - 1),
        (false, true) => (i + n - 1) % n,
        (false, false) => i.saturating_sub(1),
    };
    order[j]
}
