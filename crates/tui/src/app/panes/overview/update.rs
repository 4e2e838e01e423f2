//! Keys on the overview, and the list's news: it follows the rows as pages load.

use super::keys::OVERVIEW_KEYS;
use super::{Overview, OverviewPart};
use crate::app::Toward;
use crate::app::action::Move;
use crate::app::keymap::KeyTable;
use crate::app::pane::{Ctx, News, Outcome, Pane};
use crate::app::{Action, Command};

/// Bars a page key moves by.
const PAGE: usize = 10;

impl Pane for Overview {
    fn keys(&self) -> &'static KeyTable {
        &OVERVIEW_KEYS
    }

    fn update(&mut self, action: Action, cx: &mut Ctx) -> Outcome {
        match action {
            Action::Move(step) => self.step(step),
            Action::Pane(Toward::Next) => {
                self.focus = match self.focus {
                    OverviewPart::Types => OverviewPart::Statuses,
                    OverviewPart::Statuses => OverviewPart::Types,
                }
            }
            Action::Open => {
                let Some(open) = self.selected_open() else {
                    cx.error("no bar under the cursor: no rows are loaded");
                    return Outcome::done();
                };
                return Outcome::Open(open);
            }
            Action::Refresh => {
                cx.info("reloading the list from its first page");
                return Outcome::RefreshList(Vec::new());
            }
            Action::Back => return Outcome::Pop,
            other => return Outcome::NotMine(other),
        }
        Outcome::done()
    }

    fn on_broadcast(&mut self, news: &News, _cx: &mut Ctx) -> Vec<Command> {
        if let News::RowsLoaded(summary) = news {
            self.summary = summary.clone();
        }
        Vec::new()
    }

    /// Nothing depends on the size but the drawing, which lays out every frame.
    fn resized(&mut self, _cx: &mut Ctx) -> Vec<Command> {
        Vec::new()
    }
}

impl Overview {
    pub(super) fn step(&mut self, step: Move) {
        let last = self.bar_count(self.focus).saturating_sub(1);
        let at = self.selected(self.focus);
        let to = match step {
            Move::Up => at.saturating_sub(1),
            Move::Down => (at + 1).min(last),
            Move::PageUp => at.saturating_sub(PAGE),
            Move::PageDown => (at + PAGE).min(last),
            Move::Top => 0,
            Move::Bottom => last,
        };
        match self.focus {
            OverviewPart::Types => self.type_bar = to,
            OverviewPart::Statuses => self.status_bar = to,
        }
    }
}
