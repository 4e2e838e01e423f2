//! Where the composer's parts go: the fields on top, the resource editor, and the findings (or
//! the answer) at the bottom. The review takes the whole body.

use ratatui::layout::{Constraint, Layout, Rect};

use super::{Phase, ReportComposer};
use crate::app::panes::composer::layout::under_editor;

pub(crate) struct ComposerAreas {
    /// `task_id`, `status`, `message`, `response_type`, in a bordered block.
    pub fields: Rect,
    pub editor: Rect,
    /// The findings list, or the answer once the report was sent.
    pub bottom: Rect,
}

/// Most findings shown at once; the list scrolls.
const MAX_FINDING_ROWS: u16 = 6;

impl ReportComposer {
    pub(crate) fn areas(&self, body: Rect) -> ComposerAreas {
        // On a low screen the answer is what matters: it takes the whole body.
        let answered = matches!(self.phase, Phase::Answered(_));
        if answered && body.height < 16 {
            let none = Rect::new(body.x, body.y, body.width, 0);
            return ComposerAreas {
                fields: none,
                editor: none,
                bottom: body,
            };
        }
        let [fields, rest] =
            Layout::vertical([Constraint::Length(6), Constraint::Min(0)]).areas(body);
        let (editor, bottom) = under_editor(rest, self.bottom_rows(MAX_FINDING_ROWS, body.height));
        ComposerAreas {
            fields,
            editor,
            bottom,
        }
    }
}
