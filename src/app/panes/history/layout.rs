//! Where the history goes in the body: the bordered table, its rows, the `/` filter line; or,
//! for one send in full, the bordered detail.

use ratatui::layout::Rect;

use crate::app::layout::{inset, split_last_line};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryAreas {
    pub table: Rect,
    /// The data rows, below the header.
    pub rows: Rect,
    pub filter: Option<Rect>,
}

pub fn areas(body: Rect, filter_line: bool) -> HistoryAreas {
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
    HistoryAreas {
        table,
        rows,
        filter,
    }
}

/// Lines of a send in full that fit in the body at once.
pub fn detail_height(body: Rect) -> usize {
    usize::from(inset(body).height)
}
