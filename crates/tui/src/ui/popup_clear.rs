//! Clearing the area of a popup drawn over a pane.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::{Clear, Widget};
use unicode_width::UnicodeWidthStr;

/// [`Clear`], and a wide character of the pane below that reaches into the popup from the left
/// made a space: the terminal draws such a character over the popup's left border, and the
/// frame's diff skips the cell a wide character covers, so the border would never be written.
pub(super) struct PopupClear;

impl Widget for PopupClear {
    fn render(self, area: Rect, buf: &mut Buffer) {
        Clear.render(area, buf);
        let Some(left) = area.x.checked_sub(1) else {
            return;
        };
        for y in area.top()..area.bottom() {
            if let Some(cell) = buf.cell_mut((left, y))
                && cell.symbol().width() > 1
            {
                cell.set_symbol(" ");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::widgets::{Block, Paragraph};

    use super::*;

    #[test]
    fn a_wide_character_under_the_left_edge_leaves_the_border_drawn() {
        let mut terminal = Terminal::new(TestBackend::new(12, 3)).unwrap();
        // Each 界 takes two columns: the third starts at column 4, under the popup's edge at 5.
        let popup = Rect::new(5, 0, 6, 3);
        terminal
            .draw(|frame| {
                frame.render_widget(Paragraph::new("界界界界界界\n界界界界界界"), frame.area());
                frame.render_widget(PopupClear, popup);
                frame.render_widget(Block::bordered(), popup);
            })
            .unwrap();
        let screen = terminal.backend().buffer();
        for y in 0..3 {
            assert_eq!(
                screen[(5, y)].symbol(),
                if y == 0 {
                    "┌"
                } else if y == 1 {
                    "│"
                } else {
                    "└"
                }
            );
        }
        assert_eq!(screen[(4, 0)].symbol(), " ", "the cut character is a space");
        assert_eq!(screen[(2, 0)].symbol(), "界", "the one before it stays");
    }
}
