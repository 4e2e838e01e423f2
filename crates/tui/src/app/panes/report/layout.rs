//! Where the composer's parts go: the fields on top, the resource editor, and the findings (or
//! the answer) at the bottom. The review takes the whole body.

use ratatui::layout::Rect;

use super::{Phase, ReportComposer};

pub struct ComposerAreas {
    /// `task_id`, `status`, `message`, `response_type`, in a bordered block.
    pub fields: Rect,
    pub editor: Rect,
    /// The findings list, or the answer once the report was sent.
    pub bottom: Rect,
}

/// Most findings shown at once; the list scrolls.
const MAX_FINDING_ROWS: u16 = 6;

impl ReportComposer {
    pub fn areas(&self, body: Rect) -> ComposerAreas {
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
        let fields_height = 6.min(body.height);
        let wanted_bottom = match &self.phase {
            // The verdict, four fields and the keys, then what the report changed (a heading
            // and a line a value) as room allows.
            Phase::Answered(result) => {
                let changes = result.changes.as_ref().map_or(0, |c| c.len() + 1);
                8 + u16::try_from(changes)
                    .unwrap_or(u16::MAX)
                    .min(body.height / 3)
            }
            _ => (self.findings.len() as u16).clamp(1, MAX_FINDING_ROWS) + 2,
        };
        let rest = body.height - fields_height;
        // The editor keeps at least three lines where it can.
        let bottom_height = wanted_bottom.min(rest.saturating_sub(3));
        let editor_height = rest - bottom_height;
        let fields = Rect::new(body.x, body.y, body.width, fields_height);
        let editor = Rect::new(body.x, body.y + fields_height, body.width, editor_height);
        let bottom = Rect::new(body.x, editor.y + editor_height, body.width, bottom_height);
        ComposerAreas {
            fields,
            editor,
            bottom,
        }
    }

    /// Rows of the findings list that show at once.
    pub fn findings_height(&self, body: Rect) -> usize {
        usize::from(self.areas(body).bottom.height.saturating_sub(2))
    }
}
