//! The geometry of a bar chart's rows: the columns they share and the length of each bar.
//! Drawn by hand, not with ratatui's `BarChart`: its horizontal bars draw the count over their
//! first cells and are cut down to whole cells, so a bar no longer than its count, or shorter
//! than one cell, showed nothing at all.

use unicode_width::UnicodeWidthStr;

use crate::app::panes::overview::Bar;
use crate::sanitize;
use crate::text::count;

/// How a chart's rows share its width: the marker, the name, the count right-aligned in its own
/// column (so it never covers the bar), and the bar. The same for every row of the chart, the
/// ones scrolled out of view included, so the columns stay put as the cursor moves.
pub(super) struct BarColumns {
    pub name: usize,
    pub count: usize,
    pub bar: usize,
    /// The largest count: its bar fills `bar` cells, the scale of every bar.
    pub most: usize,
}

impl BarColumns {
    pub(super) fn of(bars: &[Bar], width: usize) -> Self {
        let count_width = |n: usize| count(n).chars().count();
        let counts = bars.iter().map(|b| count_width(b.rows)).max().unwrap_or(1);
        let most = bars.iter().map(|b| b.rows).max().unwrap_or(0);
        // The marker and three spaces: after the marker, the name and the count.
        let fixed = 2 + 1 + counts + 1;
        let natural = bars
            .iter()
            .map(|b| sanitize::line(b.label()).width())
            .max()
            .unwrap_or(0);
        // Names take at most 40% of the width with their marker, and leave the bars a cell.
        let name = natural
            .min((width * 2 / 5).saturating_sub(2))
            .min(width.saturating_sub(fixed + 1))
            .max(1);
        BarColumns {
            name,
            count: counts,
            bar: width.saturating_sub(fixed + name),
            most,
        }
    }
}

/// The cells of the bar of `n` when `most` fills `room`: the nearest whole cell, and at least
/// one for any row counted, so that a type or status of a few rows among a million still shows.
pub(super) fn bar_cells(n: usize, most: usize, room: usize) -> usize {
    if n == 0 || most == 0 || room == 0 {
        return 0;
    }
    // u128: twice any count times a terminal's width stays far from overflow.
    let (n, most, room) = (n as u128, most as u128, room as u128);
    let rounded = (2 * n * room + most) / (2 * most);
    // At most `room`, which came from a usize.
    (rounded.min(room) as usize).max(1)
}

#[cfg(test)]
mod tests {
    use super::{Bar, BarColumns, bar_cells};

    /// The statuses of 200,000 generated rows, and the demo's smallest two.
    const COUNTS: [usize; 6] = [90_969, 28_765, 12_709, 11_372, 7, 6];

    #[test]
    fn each_bar_is_its_count_on_one_scale_rounded_to_the_nearest_cell() {
        for room in [1, 2, 5, 17, 19, 38, 100, 1000] {
            let most = COUNTS[0];
            for n in COUNTS {
                let cells = bar_cells(n, most, room);
                let exact = n as f64 * room as f64 / most as f64;
                assert!(cells <= room, "{n} in {room}: {cells} cells overflow");
                if exact >= 0.5 {
                    assert!(
                        (cells as f64 - exact).abs() <= 0.5,
                        "{n} in {room}: {cells} cells, {exact:.2} exact"
                    );
                }
            }
            assert_eq!(
                bar_cells(most, most, room),
                room,
                "the largest fills {room}"
            );
        }
        // The type chart of the audit: 33,445 is 62% of 53,514.
        assert_eq!(bar_cells(33_445, 53_514, 34), 21);
        assert_eq!(bar_cells(28_765, 90_969, 38), 12);
    }

    #[test]
    fn every_count_shows_at_least_one_cell_and_none_shows_none() {
        for room in [1, 19, 38] {
            for n in COUNTS {
                assert!(bar_cells(n, COUNTS[0], room) >= 1, "{n} in {room}");
            }
        }
        assert_eq!(bar_cells(0, 10, 38), 0);
        assert_eq!(bar_cells(1, 1_000_000_000, 38), 1);
        // Counts near the limit do not overflow the scale.
        assert_eq!(bar_cells(usize::MAX, usize::MAX, 1000), 1000);
        assert_eq!(bar_cells(usize::MAX / 2, usize::MAX, 1000), 500);
    }

    #[test]
    fn names_give_way_to_the_counts_and_a_bar() {
        let bar = |name, rows| Bar {
            name: Some(name),
            rows,
        };
        let bars = [bar("service_account", 26_086), bar("incident", 7)];
        // Wide: names whole, the bar the rest.
        let wide = BarColumns::of(&bars, 60);
        assert_eq!((wide.name, wide.count), (15, 6));
        assert_eq!(wide.bar, 60 - 2 - 15 - 1 - 6 - 1);
        // 80x24: names at most 40% of the width with their marker.
        let half = BarColumns::of(&bars, 38);
        assert_eq!((half.name, half.bar), (13, 38 - 2 - 13 - 1 - 6 - 1));
        // Too narrow for all: a name of one cell, a bar of at least one.
        let narrow = BarColumns::of(&bars, 12);
        assert_eq!((narrow.name, narrow.bar), (1, 1));
    }
}
