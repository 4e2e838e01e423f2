//! Where every composer puts the editor and, under it, the findings or the answer; a kind's
//! layout (`panes/*/layout.rs`) places its own parts around them.

use ratatui::layout::Rect;

use super::{Composer, Kind};
use crate::app::widgets::send_flow::Phase;

impl<K: Kind> Composer<K> {
    /// The rows wanted under the editor: the findings list (at most `max_findings`, framed),
    /// or the answer: its verdict, four fields and the keys, then what the send changed (a
    /// heading and a line a value) in at most a third of `height`.
    pub(crate) fn bottom_rows(&self, max_findings: u16, height: u16) -> u16 {
        match &self.phase {
            Phase::Answered(result) => {
                let changes = result.changes.as_ref().map_or(0, |c| c.len() + 1);
                8 + u16::try_from(changes).unwrap_or(u16::MAX).min(height / 3)
            }
            _ => (self.findings.len() as u16).clamp(1, max_findings) + 2,
        }
    }
}

/// `area` split into the editor and `rows` under it: the editor keeps at least three lines
/// where it can.
pub(crate) fn under_editor(area: Rect, rows: u16) -> (Rect, Rect) {
    let bottom = rows.min(area.height.saturating_sub(3));
    let editor = Rect {
        height: area.height - bottom,
        ..area
    };
    (
        editor,
        Rect::new(area.x, editor.bottom(), area.width, bottom),
    )
}
