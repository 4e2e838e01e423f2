//! How the app opens a composer: the report's ways (`R`, `:report`, `:report PATH`, `E` on a
//! sent report) and the connect's (`C`, `:connect`, `:connect new`, `:connect PATH`, `E` on a
//! sent connect: from which app version, and with what work started), a draft from the history,
//! and the push of any kind with its first check and the look-up of its draft. App code (the
//! stack, the list's rows, the notice), as `global.rs` is; the kinds' own parts are in
//! `panes/report/`, `panes/connect/` and `panes/composer/`.

use std::sync::Arc;

use super::job::Work;
use super::pane::Screen;
use super::panes::composer::{Composer, Kind};
use super::panes::connect::new_app::{InferJob, Inferring};
use super::panes::connect::{ConnectComposer, Start};
use super::panes::report::ReportComposer;
use super::{App, Command, Notice, UnsentDraft};
use crate::catalog::Baseline;
use crate::sanitize;

impl App {
    /// `R` on a pane that shows a resource (the detail view, the list's row): a report about it,
    /// warning first when the resource is `not_live` (a draft's news is said with the warning).
    pub(super) fn open_report_on(
        &mut self,
        resource: &str,
        not_live: Option<String>,
    ) -> Vec<Command> {
        let seed = self.ids.issue().0;
        let mut composer = ReportComposer::for_resource(self.report.clone(), resource, seed);
        if let Some(warning) = &not_live {
            self.notice = Some(Notice::Error(warning.clone()));
        }
        composer.warned = not_live;
        // A draft about the same resource, kept from an earlier session, is restored when found.
        self.push_composer(composer, true, Vec::new())
    }

    /// A report file was read for `:report PATH`: open it, or say why not.
    pub(super) fn open_report_file(
        &mut self,
        path: &str,
        text: Result<String, String>,
    ) -> Vec<Command> {
        let shown = sanitize::line(path).into_owned();
        let report = text.and_then(|text| {
            let report = crate::validate::parse_json(&text).map_err(|e| e.to_string())?;
            Ok((report, text))
        });
        match report {
            // Opened as a report it would be all findings about fields it never had.
            Ok((payload, _))
                if crate::validate::detect_kind(&payload)
                    == Ok(crate::validate::PayloadKind::Connect) =>
            {
                self.notice = Some(Notice::Error(format!(
                    "{shown} is a version-connect payload, not a report: use `:connect {shown}`"
                )));
            }
            Ok((report, text)) => {
                let composer = ReportComposer::from_report(self.report.clone(), &report, &text);
                self.notice = Some(Notice::Info(format!("opened {shown}")));
                return self.push_composer(composer, false, Vec::new());
            }
            Err(error) => {
                let message = format!("cannot open {shown}: {}", sanitize::line(&error));
                self.notice = Some(Notice::Error(message));
            }
        }
        Vec::new()
    }

    /// The composer on a report (a sent one, from the history's `E`), to edit and send again.
    pub(super) fn open_report_from(&mut self, text: &str) -> Vec<Command> {
        let Ok(report) = crate::validate::parse_json(text) else {
            self.notice = Some(Notice::Error("the recorded report is not JSON".into()));
            return Vec::new();
        };
        let composer = ReportComposer::from_report(self.report.clone(), &report, text);
        self.notice = Some(Notice::Info(
            "the report as it was sent: edit it, then s to review and send".into(),
        ));
        self.push_composer(composer, false, Vec::new())
    }

    /// A draft from the history view, to go on with: its composer, its fields as saved, still
    /// saved under the same subject (so sending it removes it).
    pub(super) fn open_draft(&mut self, draft: &UnsentDraft) -> Vec<Command> {
        match draft.subject.kind.as_str() {
            "report" => {}
            "connect" => return self.open_connect_draft(draft),
            other => {
                self.notice = Some(Notice::Error(format!(
                    "a {} draft is not opened here",
                    sanitize::line(other)
                )));
                return Vec::new();
            }
        }
        let seed = self.ids.issue().0;
        let saved: Option<serde_json::Value> = serde_json::from_str(&draft.body).ok();
        let resource = saved
            .as_ref()
            .and_then(|body| body.get("resource")?.as_str())
            .filter(|text| {
                serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| v.is_object())
            });
        let composer = match &resource {
            Some(resource) => ReportComposer::for_resource(self.report.clone(), resource, seed),
            None => ReportComposer::blank(self.report.clone(), None, seed),
        };
        self.resume_draft(composer, draft)
    }

    /// The newest known version of every app (none until the known types have loaded).
    pub(super) fn known_apps(&self) -> Arc<Vec<Baseline>> {
        let known = self
            .known_types
            .as_ref()
            .map(|k| k.catalog.newest_versions());
        Arc::new(known.unwrap_or_default())
    }

    /// A new app whose types are inferred from the rows loaded in the list: on a background
    /// task, which reads the rows' JSON (not copied, not parsed here).
    fn infer_new_app(&mut self) -> (Inferring, Command) {
        let rows: Vec<_> = self.browser.rows().iter().map(|row| row.body).collect();
        let inferring = Inferring {
            id: self.ids.issue(),
            rows: rows.len(),
        };
        let job = Work::new(InferJob {
            bodies: self.browser.bodies(),
            rows,
        });
        (
            inferring,
            Command::Run {
                id: inferring.id,
                job,
            },
        )
    }

    /// `C` / `:connect`: from the newest version of the one known app, a picker when several
    /// are known, a new app when none is.
    pub(super) fn open_connect(&mut self) -> Vec<Command> {
        if matches!(self.stack.top(), Some(Screen::Connect(_))) {
            self.notice = Some(Notice::Info("already composing a connect".into()));
            return Vec::new();
        }
        let known = self.known_apps();
        let base_url = self.report.base_url.clone();
        match known.as_slice() {
            [] => self.open_connect_new(),
            [only] => {
                let start = Start::Known(only.clone());
                let composer = ConnectComposer::from_start(&base_url, known.clone(), &start);
                self.push_composer(composer, true, Vec::new())
            }
            several => {
                let mut starts: Vec<Start> = several.iter().cloned().map(Start::Known).collect();
                let (inferring, infer) = self.infer_new_app();
                starts.push(Start::Inferring {
                    rows: inferring.rows,
                });
                let picker = ConnectComposer::waiting(
                    &base_url,
                    known.clone(),
                    Some(starts),
                    Some(inferring),
                );
                self.push_composer(picker, false, vec![infer])
            }
        }
    }

    /// `:connect new`: a new app, its types inferred from the loaded rows. The composer opens at
    /// once and says so; the payload fills in when the inference is done.
    pub(super) fn open_connect_new(&mut self) -> Vec<Command> {
        let (inferring, infer) = self.infer_new_app();
        let known = self.known_apps();
        let composer =
            ConnectComposer::waiting(&self.report.base_url, known, None, Some(inferring));
        self.push_composer(composer, false, vec![infer])
    }

    /// `E` on a sent connect: the payload as it was sent (its JSON text, laid out token by
    /// token: numbers and escapes as sent), to edit and send again.
    pub(super) fn open_connect_from(&mut self, payload: &str) -> Vec<Command> {
        let text =
            crate::sanitize::json_for_terminal(&crate::json_text::pretty(payload)).into_owned();
        let said = "the connect as it was sent: edit it, then s to review and send";
        self.open_connect_text(&text, said.into())
    }

    /// A composer on `text` as it is, opened saying `said`.
    fn open_connect_text(&mut self, text: &str, said: String) -> Vec<Command> {
        let composer = ConnectComposer::new(&self.report.base_url, self.known_apps(), text);
        self.notice = Some(Notice::Info(said));
        self.push_composer(composer, false, Vec::new())
    }

    /// A connect draft from the history view, to go on with, still saved under its app.
    pub(super) fn open_connect_draft(&mut self, draft: &UnsentDraft) -> Vec<Command> {
        let composer = ConnectComposer::new(&self.report.base_url, self.known_apps(), "");
        self.resume_draft(composer, draft)
    }

    /// A connect file was read for `:connect PATH`: its text goes in the editor as it is (not
    /// JSON: the findings say where), or the notice says why it could not be read.
    pub(super) fn open_connect_file(
        &mut self,
        path: &str,
        text: Result<String, String>,
    ) -> Vec<Command> {
        let shown = sanitize::line(path).into_owned();
        match text {
            Ok(text) => self.open_connect_text(&text, format!("opened {shown}")),
            Err(error) => {
                let message = format!("cannot open {shown}: {}", sanitize::line(&error));
                self.notice = Some(Notice::Error(message));
                Vec::new()
            }
        }
    }

    /// Pushes `composer` with the work it asked for (`commands`) and, unless it waits
    /// ([`Kind::waits`]), its first check and (when `draft`) the look-up of its stored draft.
    /// Checked once whatever opened it (a key, a file, a draft, a resend) has put everything in
    /// place: earlier would show findings of fields replaced since, and let a text the checks
    /// reject through with one `Enter`.
    pub(super) fn push_composer<K: Kind>(
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
    pub(super) fn resume_draft<K: Kind>(
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
