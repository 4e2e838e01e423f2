//! Where the connect composer's parts go: the payload editor with the findings (or the answer)
//! under it on the left, the outline with the diff under it on the right. On a narrow screen the
//! side column goes and the outline or the diff takes the body while it has the cursor. The
//! picker and the review take the whole body.

use ratatui::layout::{Constraint, Layout, Rect};

use super::{ConnectComposer, ConnectPart};
use crate::app::panes::composer::layout::under_editor;
use crate::app::widgets::send_flow::Phase;

/// Parts not shown get an empty area.
pub(crate) struct ConnectAreas {
    pub editor: Rect,
    /// The findings list, or the answer once the payload was sent.
    pub bottom: Rect,
    pub outline: Rect,
    pub diff: Rect,
}

/// Narrower than this, there is no side column.
const SIDE_FROM_WIDTH: u16 = 70;
/// Lower than this, the findings list shows only while it has the cursor.
const MIN_HEIGHT_FOR_FINDINGS: u16 = 10;
/// Most findings shown at once; the list scrolls.
const MAX_FINDING_ROWS: u16 = 5;

impl ConnectComposer {
    pub(crate) fn areas(&self, body: Rect) -> ConnectAreas {
        let none = Rect::new(body.x, body.y, 0, 0);
        let mut areas = ConnectAreas {
            editor: none,
            bottom: none,
            outline: none,
            diff: none,
        };
        let (left, side) = if body.width >= SIDE_FROM_WIDTH {
            let side_width = (body.width * 2 / 5).clamp(28, 56);
            let [left, side] =
                Layout::horizontal([Constraint::Min(0), Constraint::Length(side_width)])
                    .areas(body);
            (left, Some(side))
        } else {
            (body, None)
        };
        match side {
            Some(side) => {
                let outline_height = (side.height * 2 / 5).max(3.min(side.height));
                let split = [Constraint::Length(outline_height), Constraint::Min(0)];
                [areas.outline, areas.diff] = Layout::vertical(split).areas(side);
            }
            None if self.focus == ConnectPart::Outline => {
                areas.outline = left;
                return areas;
            }
            None if self.focus == ConnectPart::Diff => {
                areas.diff = left;
                return areas;
            }
            None => {}
        }
        // On a tiny screen the editor is all there is, unless the findings have the cursor or
        // the answer came.
        let tiny = left.height < MIN_HEIGHT_FOR_FINDINGS
            && self.focus != ConnectPart::Findings
            && !matches!(self.phase, Phase::Answered(_));
        let rows = match tiny {
            true => 0,
            false => self.bottom_rows(MAX_FINDING_ROWS, body.height),
        };
        (areas.editor, areas.bottom) = under_editor(left, rows);
        areas
    }
}
