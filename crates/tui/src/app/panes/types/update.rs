//! Keys, clicks and replies on the types view, and its `/` filter while it is being typed.

use super::keys::TYPES_KEYS;
use super::{TypeRow, TypesView};
use crate::app::job::Work;
use crate::app::keymap::{InputMode, KeyTable};
use crate::app::pane::{Ctx, News, Open, Outcome, Pane, Screen, Topic};
use crate::app::panes::type_detail::{OpenType, TypeDetail};
use crate::app::widgets::ListEvent;
use crate::app::{Action, Command, Delivery, Notice, RequestId};
use crate::catalog::NO_DEFINITION_HINT;

impl Pane for TypesView {
    fn keys(&self) -> &'static KeyTable {
        &TYPES_KEYS
    }

    fn input_mode(&self) -> InputMode {
        self.list.input_mode()
    }

    fn activity(&self) -> Option<String> {
        if self.opening.is_some() {
            Some("opening the type…".to_owned())
        } else if self.loading.is_some() {
            Some("loading the known types…".to_owned())
        } else {
            None
        }
    }

    /// The row under the cursor has no definition (what to do about it), or the known types
    /// could not all be read (each file that failed): in the status bar, and whole under `!`.
    fn problem(&self) -> Option<String> {
        if let Some(row) = self.selected().filter(|row| row.known.is_none()) {
            return Some(no_definition(row));
        }
        let problems = &self.known.as_ref()?.problems;
        (!problems.is_empty()).then(|| problems.join("; "))
    }

    fn update(&mut self, action: Action, cx: &mut Ctx) -> Outcome {
        // `Esc` cancels a type being opened before it clears the filter or closes the view.
        if matches!(action, Action::Back) && self.opening.take().is_some() {
            cx.info("opening cancelled");
            return Outcome::done();
        }
        let height = self.table_height(cx.body);
        match self.list.update(action, cx.body) {
            ListEvent::Done => {}
            ListEvent::Refilter => self.refilter(height),
            ListEvent::Open => return self.open_selected(cx),
            ListEvent::Other(Action::Refresh) => {
                cx.info("reloading the known types");
                return vec![self.load(cx.ids)].into();
            }
            ListEvent::Other(Action::Copy) => {
                let name = self.selected().map(|r| r.name.clone());
                return cx.copy(name, "type name").into();
            }
            ListEvent::Other(Action::BrowseType) => match self.selected() {
                Some(row) => return Outcome::Open(Open::TypeList(row.name.clone())),
                None => cx.error("no type under the cursor"),
            },
            ListEvent::Other(Action::Back) => return Outcome::Pop,
            ListEvent::Other(other) => return Outcome::NotMine(other),
        }
        Outcome::done()
    }

    fn on_reply(&mut self, id: RequestId, delivery: Delivery, cx: &mut Ctx) -> Outcome {
        match delivery {
            Delivery::Types(known) if self.loading == Some(id) => {
                self.loading = None;
                let height = self.table_height(cx.body);
                self.set_known(known, height);
            }
            Delivery::Job(detail) if self.opening == Some(id) => {
                self.opening = None;
                cx.take_back(Topic::Opening);
                if let Some(detail) = detail.take::<TypeDetail>() {
                    return Outcome::Push(Screen::TypeDetail(Box::new(detail)), Vec::new());
                }
            }
            _ => {}
        }
        Outcome::done()
    }

    fn on_broadcast(&mut self, news: &News, cx: &mut Ctx) -> Vec<Command> {
        match news {
            News::KnownTypes(known) => {
                let height = self.table_height(cx.body);
                self.set_known(known.clone(), height);
            }
            News::RowsLoaded(summary) => self.set_counts(summary.per_type.clone(), cx.body),
            News::SendRecorded
            | News::ResourceReported(_)
            | News::MarksReported(_)
            | News::Looked(_) => {}
        }
        Vec::new()
    }

    fn resized(&mut self, cx: &mut Ctx) -> Vec<Command> {
        let height = self.table_height(cx.body);
        self.list
            .cursor
            .keep_visible(self.list.visible.len(), height);
        Vec::new()
    }
}

impl TypesView {
    /// `Enter`: the type's detail, laid out here when it is small, in the background when its
    /// definition is large (megabytes of schemas take tens of milliseconds to lay out).
    fn open_selected(&mut self, cx: &mut Ctx) -> Outcome {
        let (Some(row), Some(known)) = (self.selected(), &self.known) else {
            return Outcome::done();
        };
        let Some(index) = row.known else {
            cx.error(no_definition(row));
            return Outcome::done();
        };
        let request = OpenType {
            known: known.clone(),
            type_index: index,
            version: 0,
            width: cx.body.width,
        };
        if !request.is_large() {
            let detail = TypeDetail::open(&request);
            return Outcome::Push(Screen::TypeDetail(Box::new(detail)), Vec::new());
        }
        let id = cx.ids.issue();
        self.opening = Some(id);
        let said = "opening a large type…; Esc cancels".to_owned();
        cx.say_about(Topic::Opening, Notice::Info(said));
        vec![Command::Run {
            id,
            job: Work::new(request),
        }]
        .into()
    }
}

/// What a row without a definition lacks, and what to do about it.
fn no_definition(row: &TypeRow) -> String {
    format!(
        "{}: {}; {NO_DEFINITION_HINT}",
        row.shown_name,
        crate::catalog::NO_DEFINITION
    )
}
