//! Where everything goes on screen. Pure functions of the terminal size, shared by the renderer
//! and by `update` (which needs viewport heights to scroll and screen positions to map clicks).

use ratatui::layout::{Constraint, Layout, Rect};

/// Below this width the detail panes stack instead of sitting side by side.
const SIDE_BY_SIDE_MIN_WIDTH: u16 = 70;

/// The three bands of every screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Screen {
    pub status: Rect,
    pub body: Rect,
    pub footer: Rect,
}

pub fn screen(area: Rect) -> Screen {
    let [status, body, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    Screen {
        status,
        body,
        footer,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrowserAreas {
    /// The bordered table.
    pub table: Rect,
    /// The data rows inside it (below the header).
    pub rows: Rect,
    /// The `/` filter line, when a filter is being typed or is set.
    pub filter: Option<Rect>,
}

pub fn browser(body: Rect, filter_line: bool) -> BrowserAreas {
    let (table, filter) = if filter_line {
        let [table, filter] =
            Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(body);
        (table, Some(filter))
    } else {
        (body, None)
    };
    let inner = inset(table);
    let rows = Rect {
        y: inner.y.saturating_add(1),
        height: inner.height.saturating_sub(1),
        ..inner
    };
    BrowserAreas {
        table,
        rows,
        filter,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DetailAreas {
    /// Bordered panes, in the order of `DetailPane::ALL` (fields, tree, raw).
    pub panes: [Rect; 3],
    pub search: Option<Rect>,
}

pub fn detail(body: Rect, search_line: bool) -> DetailAreas {
    let (main, search) = if search_line {
        let [main, search] =
            Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(body);
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
    DetailAreas { panes, search }
}

/// The inside of a bordered block.
pub fn inset(area: Rect) -> Rect {
    Rect {
        x: area.x.saturating_add(1),
        y: area.y.saturating_add(1),
        width: area.width.saturating_sub(2),
        height: area.height.saturating_sub(2),
    }
}

/// A popup of at most `width` x `height`, centred, never larger than `area`.
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    }
}

/// Whether a screen position falls inside `area`.
pub fn contains(area: Rect, column: u16, row: u16) -> bool {
    column >= area.x
        && column < area.x.saturating_add(area.width)
        && row >= area.y
        && row < area.y.saturating_add(area.height)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiny_sizes_do_not_underflow() {
        for (w, h) in [(0, 0), (1, 1), (3, 2), (10, 4)] {
            let s = screen(Rect::new(0, 0, w, h));
            let b = browser(s.body, true);
            let d = detail(s.body, true);
            assert!(b.rows.height <= h);
            assert!(d.panes.iter().all(|p| p.height <= h));
        }
    }

    #[test]
    fn browser_rows_sit_under_the_header() {
        let s = screen(Rect::new(0, 0, 80, 24));
        let b = browser(s.body, false);
        assert_eq!(b.rows, Rect::new(1, 3, 78, 19));
    }
}
