//! How the app opens the connect composer (`C`, `:connect`, `:connect new`, `:connect PATH`, `E`
//! on a sent connect, a connect draft from the history): from which app version, and with what
//! work started.

use std::sync::Arc;

use super::new_app::{InferJob, Inferring};
use super::{ConnectComposer, Start};
use crate::app::job::Work;
use crate::app::pane::Screen;
use crate::app::{App, Command, Notice, UnsentDraft};
use crate::catalog::Baseline;
use crate::sanitize;

impl App {
    /// The newest known version of every app (none until the known types have loaded).
    pub(in crate::app) fn known_apps(&self) -> Arc<Vec<Baseline>> {
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
    pub(in crate::app) fn open_connect(&mut self) -> Vec<Command> {
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
    pub(in crate::app) fn open_connect_new(&mut self) -> Vec<Command> {
        let (inferring, infer) = self.infer_new_app();
        let known = self.known_apps();
        let composer =
            ConnectComposer::waiting(&self.report.base_url, known, None, Some(inferring));
        self.push_composer(composer, false, vec![infer])
    }

    /// `E` on a sent connect: the payload as it was sent (its JSON text, laid out token by
    /// token: numbers and escapes as sent), to edit and send again.
    pub(in crate::app) fn open_connect_from(&mut self, payload: &str) -> Vec<Command> {
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
    pub(in crate::app) fn open_connect_draft(&mut self, draft: &UnsentDraft) -> Vec<Command> {
        let composer = ConnectComposer::new(&self.report.base_url, self.known_apps(), "");
        self.resume_draft(composer, draft)
    }

    /// A connect file was read for `:connect PATH`: its text goes in the editor as it is (not
    /// JSON: the findings say where), or the notice says why it could not be read.
    pub(in crate::app) fn open_connect_file(
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
}
