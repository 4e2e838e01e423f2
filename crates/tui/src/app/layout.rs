//! Where things go on screen: pure functions of the terminal size, shared by the renderer and by
//! `update` (which needs viewport heights to scroll and screen positions to map clicks). Each
//! pane lays its own body out in its `layout.rs`.

use ratatui::layout::{Constraint, Layout, Rect};

/// The three bands of every screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bands {
    pub status: Rect,
    pub body: Rect,
    pub footer: Rect,
}

pub(crate) fn screen(area: Rect) -> Bands {
    let [status, body, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    Bands {
        status,
        body,
        footer,
    }
}

/// `area` less its last line, and that line (for a filter or search line under a pane).
pub(crate) fn split_last_line(area: Rect) -> (Rect, Rect) {
    let [main, line] = Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(area);
    (main, line)
}

/// The inside of a bordered block.
/// Where a filterable table goes in the body (the list, the types, the history): the bordered
/// table, its data rows, and the `/` filter line below it when one is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TableAreas {
    /// The bordered table.
    pub table: Rect,
    /// The data rows inside it (below the header).
    pub rows: Rect,
    /// The `/` filter line, when a filter is being typed or is set.
    pub filter: Option<Rect>,
}

pub(crate) fn table_areas(body: Rect, filter_line: bool) -> TableAreas {
    let (table, filter) = if filter_line {
        let (table, filter) = split_last_line(body);
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
    TableAreas {
        table,
        rows,
        filter,
    }
}

pub(crate) fn inset(area: Rect) -> Rect {
    Rect {
        x: area.x.saturating_add(1),
        y: area.y.saturating_add(1),
        width: area.width.saturating_sub(2),
        height: area.height.saturating_sub(2),
    }
}

/// A popup of at most `width` x `height`, centred, never larger than `area`.
pub(crate) fn centered(area: Rect, width: u16, height: u16) -> Rect {
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
pub(crate) fn contains(area: Rect, column: u16, row: u16) -> bool {
    column >= area.x
        && column < area.x.saturating_add(area.width)
        && row >= area.y
        && row < area.y.saturating_add(area.height)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows_sit_under_the_header() {
        let s = screen(Rect::new(0, 0, 80, 24));
        assert_eq!(table_areas(s.body, false).rows, Rect::new(1, 3, 78, 19));
    }

    #[test]
    fn tiny_tables_do_not_underflow() {
        for (w, h) in [(0, 0), (1, 1), (3, 2), (10, 4)] {
            let s = screen(Rect::new(0, 0, w, h));
            assert!(table_areas(s.body, true).rows.height <= h);
        }
    }

    #[test]
    fn popups_never_outgrow_the_screen() {
        let area = Rect::new(0, 0, 24, 5);
        assert_eq!(centered(area, 72, 12), area);
        assert_eq!(
            centered(Rect::new(0, 1, 80, 22), 40, 10),
            Rect::new(20, 7, 40, 10)
        );
    }
}
