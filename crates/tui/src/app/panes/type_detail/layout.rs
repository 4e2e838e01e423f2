//! Where a type's panes go: a line naming the pages, then the two panes of the focused page
//! (about and instructions; schemas and raw JSON) side by side when wide, stacked when narrow,
//! and only the focused one when the screen is too low for two. Under the schema tree, the
//! selected field in full (its constraints and description).

use ratatui::layout::{Constraint, Layout, Rect};

use super::TypePart;
use crate::app::layout::inset;

/// From this width the two panes of a page sit side by side.
const SIDE_BY_SIDE_MIN_WIDTH: u16 = 100;
/// Fewer content lines than this in a pane and the page shows the focused pane alone.
const MIN_CONTENT_ROWS: u16 = 3;
/// Lines under the schema tree for the selected field, when the pane is tall enough.
const NODE_LINES: u16 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TypeDetailAreas {
    /// The line naming the pages.
    pub tabs: Rect,
    /// Bordered panes in the order of `TypePart::ALL`; a pane not shown is empty.
    pub panes: [Rect; 4],
    /// Inside the schemas pane, below its tree: the selected field in full.
    pub node: Option<Rect>,
}

impl TypeDetailAreas {
    pub(crate) fn pane(&self, pane: TypePart) -> Rect {
        self.panes[pane.index()]
    }

    /// The scrolling lines of a pane (inside its border, less the field details).
    pub(crate) fn rows(&self, pane: TypePart) -> Rect {
        let inner = inset(self.pane(pane));
        match (pane, self.node) {
            (TypePart::Schemas, Some(node)) => Rect {
                height: inner.height.saturating_sub(node.height),
                ..inner
            },
            _ => inner,
        }
    }
}

pub(crate) fn areas(body: Rect, focus: TypePart) -> TypeDetailAreas {
    let [tabs, main] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(body);
    let pair: [Rect; 2] = if main.width >= SIDE_BY_SIDE_MIN_WIDTH {
        Layout::horizontal([Constraint::Percentage(45), Constraint::Percentage(55)]).areas(main)
    } else {
        Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(main)
    };
    let hidden = Rect {
        width: 0,
        height: 0,
        ..main
    };
    let mut panes = [hidden; 4];
    let first = focus.page() * 2;
    if pair.iter().all(|p| inset(*p).height >= MIN_CONTENT_ROWS) {
        panes[first] = pair[0];
        panes[first + 1] = pair[1];
    } else {
        panes[focus.index()] = main;
    }
    let schemas = inset(panes[TypePart::Schemas.index()]);
    let node = (schemas.height >= NODE_LINES * 3).then(|| Rect {
        y: schemas.y + schemas.height - NODE_LINES,
        height: NODE_LINES,
        ..schemas
    });
    TypeDetailAreas { tabs, panes, node }
}

/// The column left of each line of a part with a selected line, where `▶` marks it (so the
/// selection shows without colour, and in a copy of the screen).
pub(crate) const MARKER_WIDTH: usize = 1;

/// The widths the about and instructions texts wrap to, for a body `width` wide (the about
/// text right of the marker column).
pub(crate) fn text_widths(width: u16) -> (usize, usize) {
    let a = areas(Rect::new(0, 0, width, 40), TypePart::About);
    (
        usize::from(inset(a.pane(TypePart::About)).width).saturating_sub(MARKER_WIDTH),
        usize::from(inset(a.pane(TypePart::Instructions)).width),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::layout::screen;

    #[test]
    fn the_focused_pane_is_always_shown_with_rows() {
        for (w, h) in [(24, 7), (80, 24), (120, 40), (60, 10), (200, 8)] {
            for focus in TypePart::ALL {
                let a = areas(screen(Rect::new(0, 0, w, h)).body, focus);
                assert!(!a.pane(focus).is_empty(), "{w}x{h} {focus:?}");
                for pane in TypePart::ALL {
                    if pane.page() != focus.page() {
                        assert!(a.pane(pane).is_empty(), "one page at a time");
                    }
                }
            }
        }
        for (w, h) in [(0, 0), (1, 1), (3, 2)] {
            let a = areas(screen(Rect::new(0, 0, w, h)).body, TypePart::Schemas);
            assert!(a.rows(TypePart::Schemas).height <= h);
        }
    }
}
