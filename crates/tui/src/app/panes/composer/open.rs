//! How the app puts any composer on the stack: the draft looked up as it opens, or a draft from
//! the history put in place; the kinds' own ways of opening (`global.rs` for the report,
//! `connect/open.rs`) end here.

use super::{Composer, Kind};
use crate::app::{App, Command, Notice, UnsentDraft};
use crate::sanitize;

impl App {
    /// Pushes `composer` with the work it asked for (`commands`) and, unless it waits
    /// ([`Kind::waits`]), its first check and (when `draft`) the look-up of its stored draft.
    /// Checked once whatever opened it (a key, a file, a draft, a resend) has put everything in
    /// place: earlier would show findings of fields replaced since, and let a text the checks
    /// reject through with one `Enter`.
    pub(in crate::app) fn push_composer<K: Kind>(
        &mut self,
        mut composer: Composer<K>,
        draft: bool,
        mut commands: Vec<Command>,
    ) -> Vec<Command> {
        if !composer.waits() {
            commands.extend(composer.begin(&mut self.ids, draft));
        }
        let screen = self.stack.push(K::screen(Box::new(composer)));
        self.stack.claim(screen, &commands);
        commands
    }

    /// A draft from the history view put in `composer` and pushed, to go on with, still saved
    /// under its subject: its first save takes that draft over, unless another window's did.
    /// Nothing is pushed (and the notice says why) when the draft cannot be read.
    pub(in crate::app) fn resume_draft<K: Kind>(
        &mut self,
        mut composer: Composer<K>,
        draft: &UnsentDraft,
    ) -> Vec<Command> {
        composer.draft.subject = draft.subject.clone();
        composer.draft.from = Some(draft.revision);
        if let Err(error) = composer.restore_draft(&draft.body, draft.age) {
            self.notice = Some(Notice::Error(format!(
                "the draft cannot be read: {}",
                sanitize::line(&error)
            )));
            return Vec::new();
        }
        self.notice = Some(Notice::Info(format!(
            "draft from {} ago: edit it, then s to review and send",
            crate::app::widgets::draft::age_words(draft.age)
        )));
        self.push_composer(composer, false, Vec::new())
    }
}
