//! How much of one send in full fits in the body (the table itself is `app::layout::table_areas`).

use ratatui::layout::Rect;

use crate::app::layout::inset;

/// Lines of a send in full that fit in the body at once.
pub(crate) fn detail_height(body: Rect) -> usize {
    usize::from(inset(body).height)
}

/// Columns a line of a send in full has before it wraps.
pub(crate) fn detail_width(body: Rect) -> usize {
    usize::from(inset(body).width)
}
