//! Where the detail view's panes go in the body. Side by side when wide, stacked when narrow,
//! and one pane at a time (the focused one; `Tab` shows the next) when the screen is too low to
//! give every pane a few lines.

use ratatui::layout::{Constraint, Layout, Rect};

use super::DetailPart;
use crate::app::layout::{inset, split_last_line};

/// Below this width the panes stack instead of sitting side by side.
const SIDE_BY_SIDE_MIN_WIDTH: u16 = 70;
/// A pane with fewer lines of content than this is useless; below it, one pane at a time.
const MIN_CONTENT_ROWS: u16 = 2;
/// Side by side, the fields pane takes what its lines need when the tree's fit beside them,
/// else a share of the width in proportion to what each needs; but at least this share, and it
/// leaves the tree and the raw JSON at least `RIGHT_MIN_PERCENT` and `RIGHT_MIN_WIDTH` columns.
const FIELDS_MIN_PERCENT: u16 = 35;
const RIGHT_MIN_PERCENT: u16 = 35;
const RIGHT_MIN_WIDTH: u16 = 40;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DetailAreas {
    /// Bordered panes, in the order of `DetailPart::ALL` (fields, tree, raw); a pane that is not
    /// shown has an empty area.
    pub panes: [Rect; 3],
    pub search: Option<Rect>,
    /// Whether only the focused pane is shown.
    pub single: bool,
}

impl DetailAreas {
    pub(crate) fn pane(&self, pane: DetailPart) -> Rect {
        self.panes[pane.index()]
    }
}

/// `fields_width` and `tree_width` are what the fields pane's and the tree's lines need (without
/// their borders).
pub(crate) fn areas(
    body: Rect,
    search_line: bool,
    focus: DetailPart,
    (fields_width, tree_width): (usize, usize),
) -> DetailAreas {
    let (main, search) = if search_line {
        let (main, search) = split_last_line(body);
        (main, Some(search))
    } else {
        (body, None)
    };
    let panes = if main.width >= SIDE_BY_SIDE_MIN_WIDTH {
        let left = fields_pane_width(main.width, fields_width, tree_width);
        let [left, right] =
            Layout::horizontal([Constraint::Length(left), Constraint::Min(0)]).areas(main);
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

/// The fields pane's width side by side: its content's when the tree's fits beside it; else
/// the one that needs less than half has what it needs, and the other the rest; else half
/// each. Within bounds.
fn fields_pane_width(width: u16, fields_width: usize, tree_width: usize) -> u16 {
    let min = percent(width, FIELDS_MIN_PERCENT);
    let right = percent(width, RIGHT_MIN_PERCENT).max(RIGHT_MIN_WIDTH);
    let max = width.saturating_sub(right).max(min);
    let (fields, tree) = (fields_width.saturating_add(2), tree_width.saturating_add(2));
    let (all, half) = (usize::from(width), usize::from(width / 2));
    let wanted = match () {
        () if fields.saturating_add(tree) <= all || fields <= half => fields,
        () if tree <= half => all - tree,
        () => half,
    };
    u16::try_from(wanted).unwrap_or(u16::MAX).clamp(min, max)
}

fn percent(width: u16, percent: u16) -> u16 {
    (u32::from(width) * u32::from(percent) / 100) as u16
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::layout::screen;

    #[test]
    fn every_pane_shown_has_content_rows() {
        for (w, h) in [(24, 7), (60, 12), (80, 10), (80, 24), (120, 40), (200, 8)] {
            for search in [false, true] {
                for focus in DetailPart::ALL {
                    let a = areas(screen(Rect::new(0, 0, w, h)).body, search, focus, (60, 60));
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
        let a = areas(body, false, DetailPart::Tree, (60, 60));
        assert!(a.single);
        assert_eq!(a.pane(DetailPart::Tree), body);
        assert!(a.pane(DetailPart::Fields).is_empty() && a.pane(DetailPart::Raw).is_empty());
        let tall = areas(
            screen(Rect::new(0, 0, 80, 24)).body,
            true,
            DetailPart::Tree,
            (60, 60),
        );
        assert!(!tall.single);
    }

    #[test]
    fn tiny_sizes_do_not_underflow() {
        for (w, h) in [(0, 0), (1, 1), (3, 2), (10, 4)] {
            let a = areas(
                screen(Rect::new(0, 0, w, h)).body,
                true,
                DetailPart::Fields,
                (60, 60),
            );
            assert!(a.panes.iter().all(|p| p.height <= h));
        }
    }

    #[test]
    fn the_fields_pane_is_as_wide_as_its_lines_within_bounds() {
        let body = Rect::new(0, 1, 120, 38);
        let fields =
            |need: usize| areas(body, false, DetailPart::Fields, (need, 30)).panes[0].width;
        // What the lines need, plus the borders.
        assert_eq!(fields(70), 72);
        // Narrow content: still a third of the screen; wide content: the tree keeps its room.
        assert_eq!(fields(10), 42);
        assert_eq!(fields(500), 78);
        let tree = areas(body, false, DetailPart::Fields, (500, 30)).panes[1];
        assert_eq!((tree.x, tree.width), (78, 42));
        assert_eq!(fields_pane_width(70, 500, 30), 30);
        assert_eq!(fields_pane_width(0, 500, 30), 0);
    }

    /// Issue 35 item 14: the tree had 40 columns beside 78 of fields (one long field). When
    /// both cannot have what they need, the width is shared by what each needs.
    #[test]
    fn the_fields_and_the_tree_share_the_width_by_what_they_need() {
        let body = Rect::new(0, 1, 120, 38);
        let split = |need: (usize, usize)| {
            let a = areas(body, false, DetailPart::Fields, need);
            (a.panes[0].width, a.panes[1].width)
        };
        assert_eq!(
            split((76, 60)),
            (60, 60),
            "both need more than half: half each"
        );
        assert_eq!(
            split((76, 50)),
            (68, 52),
            "the tree needs less: it has that"
        );
        assert_eq!(
            split((76, 30)),
            (78, 42),
            "both fit: the fields have their need"
        );
        assert_eq!(split((30, 200)), (42, 78), "the fields keep their least");
    }
}
