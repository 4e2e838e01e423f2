//! Where the detail view's panes go in the body. Side by side when wide, stacked when narrow,
//! and one pane at a time (the focused one; `Tab` shows the next) when the screen is too low to
//! give every pane a few lines.

use ratatui::layout::{Constraint, Layout, Rect};

use super::DetailPane;
use crate::app::layout::{inset, split_last_line};

/// Below this width the panes stack instead of sitting side by side.
const SIDE_BY_SIDE_MIN_WIDTH: u16 = 70;
/// A pane with fewer lines of content than this is useless; below it, one pane at a time.
const MIN_CONTENT_ROWS: u16 = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DetailAreas {
    /// Bordered panes, in the order of `DetailPane::ALL` (fields, tree, raw); a pane that is not
    /// shown has an empty area.
    pub panes: [Rect; 3],
    pub search: Option<Rect>,
    /// Whether only the focused pane is shown.
    pub single: bool,
}

impl DetailAreas {
    pub fn pane(&self, pane: DetailPane) -> Rect {
        self.panes[pane.index()]
    }
}

pub fn areas(body: Rect, search_line: bool, focus: DetailPane) -> DetailAreas {
    let (main, search) = if search_line {
        let (main, search) = split_last_line(body);
        (main, Some(search))
    } else {
        (body, None)
    };
    let panes = if main.width >= SIDE_BY_SIDE_MIN_WIDTH {
        let [left, right] =
            Layout::horizontal([Constraint::Percentage(45), Constraint::Percentage(55)])
                .areas(main);
        let [tree, raw] =
            Layout::vertical([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(right);
        [left, tree, raw]
    } else {
        Layout::vertical([
            Constraint::Ratio(2, 5),
            Constraint::Ratio(2, 5),
            Constraint::Ratio(1, 5),
        ])
        .areas(main)
    };
    if panes.iter().all(|p| inset(*p).height >= MIN_CONTENT_ROWS) {
        return DetailAreas {
            panes,
            search,
            single: false,
        };
    }
    let hidden = Rect {
        width: 0,
        height: 0,
        ..main
    };
    let mut panes = [hidden; 3];
    panes[focus.index()] = main;
    DetailAreas {
        panes,
        search,
        single: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::layout::screen;

    #[test]
    fn every_pane_shown_has_content_rows() {
        for (w, h) in [(24, 7), (60, 12), (80, 10), (80, 24), (120, 40), (200, 8)] {
            for search in [false, true] {
                for focus in DetailPane::ALL {
                    let a = areas(screen(Rect::new(0, 0, w, h)).body, search, focus);
                    let shown: Vec<Rect> =
                        a.panes.iter().copied().filter(|p| !p.is_empty()).collect();
                    assert!(!shown.is_empty());
                    for p in shown {
                        assert!(inset(p).height >= MIN_CONTENT_ROWS, "{w}x{h} {search}");
                    }
                    assert!(
                        !a.pane(focus).is_empty(),
                        "the focused pane is always shown"
                    );
                }
            }
        }
    }

    #[test]
    fn a_low_screen_shows_the_focused_pane_alone() {
        let body = screen(Rect::new(0, 0, 24, 7)).body;
        let a = areas(body, false, DetailPane::Tree);
        assert!(a.single);
        assert_eq!(a.pane(DetailPane::Tree), body);
        assert!(a.pane(DetailPane::Fields).is_empty() && a.pane(DetailPane::Raw).is_empty());
        let tall = areas(screen(Rect::new(0, 0, 80, 24)).body, true, DetailPane::Tree);
        assert!(!tall.single);
    }

    #[test]
    fn tiny_sizes_do_not_underflow() {
        for (w, h) in [(0, 0), (1, 1), (3, 2), (10, 4)] {
            let a = areas(screen(Rect::new(0, 0, w, h)).body, true, DetailPane::Fields);
            assert!(a.panes.iter().all(|p| p.height <= h));
        }
    }
}
