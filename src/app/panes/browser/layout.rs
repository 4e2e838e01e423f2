//! Where the resource list goes in the body: the bordered table, its rows, the `/` filter line.

use ratatui::layout::Rect;

use crate::app::layout::{inset, split_last_line};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrowserAreas {
    /// The bordered table.
    pub table: Rect,
    /// The data rows inside it (below the header).
    pub rows: Rect,
    /// The `/` filter line, when a filter is being typed or is set.
    pub filter: Option<Rect>,
}

pub fn areas(body: Rect, filter_line: bool) -> BrowserAreas {
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
    BrowserAreas {
        table,
        rows,
        filter,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::layout::screen;

    #[test]
    fn rows_sit_under_the_header() {
        let s = screen(Rect::new(0, 0, 80, 24));
        assert_eq!(areas(s.body, false).rows, Rect::new(1, 3, 78, 19));
    }

    #[test]
    fn tiny_sizes_do_not_underflow() {
        for (w, h) in [(0, 0), (1, 1), (3, 2), (10, 4)] {
            let s = screen(Rect::new(0, 0, w, h));
            assert!(areas(s.body, true).rows.height <= h);
        }
    }
}
