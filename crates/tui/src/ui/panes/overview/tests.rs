//! The overview drawn: every bar as long as its count on one scale, at least a cell, and the
//! count beside it rather than over it.

use std::collections::BTreeMap;
use std::sync::Arc;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;

use crate::app::panes::overview::Overview;
use crate::text::count;
use crate::ui::theme::Theme;
use appdeck_listing::LoadedSummary;

/// The types and statuses of 200,000 generated rows (the audit of issue 22), and the demo's
/// `failed 7`, `pending 6`.
const TYPES: [(&str, usize); 5] = [
    ("deployment", 53_514),
    ("repository", 53_511),
    ("dashboard", 33_445),
    ("incident", 33_444),
    ("service_account", 26_086),
];
const STATUSES: [(&str, usize); 8] = [
    ("active", 90_969),
    ("succeeded", 28_765),
    ("closed", 20_735),
    ("open", 12_709),
    ("draft", 11_372),
    ("pending_review", 4_012),
    ("failed", 7),
    ("pending", 6),
];

fn counts(of: &[(&str, usize)]) -> BTreeMap<String, usize> {
    of.iter().map(|(k, n)| ((*k).to_owned(), *n)).collect()
}

/// The rows of each chart as drawn at `width` x 22 (80x24 less the status and footer lines):
/// the text between each chart's side borders.
fn charts(width: u16) -> Vec<[String; 2]> {
    let overview = Overview::new(Arc::new(LoadedSummary {
        rows: 200_000,
        per_type: counts(&TYPES),
        per_status: counts(&STATUSES),
        ..LoadedSummary::default()
    }));
    let mut terminal = Terminal::new(TestBackend::new(width, 22)).unwrap();
    terminal
        .draw(|f| {
            super::render(
                f,
                &overview,
                &Theme::MONOCHROME,
                Rect::new(0, 0, width, 22),
                None,
            )
        })
        .unwrap();
    let buffer = terminal.backend().buffer();
    (0..22)
        .map(|y| {
            let line: String = (0..width).map(|x| buffer[(x, y)].symbol()).collect();
            let sides: Vec<&str> = line.split(['│', '┃']).collect();
            [
                sides.get(1).copied().unwrap_or("").to_owned(),
                sides.get(3).copied().unwrap_or("").to_owned(),
            ]
        })
        .collect()
}

/// Whether a chart's row is the bar of `name`, whole or cut short with `…`.
fn shows_name(row: &str, name: &str) -> bool {
    let shown: String = row.chars().skip(2).take_while(|c| *c != ' ').collect();
    match shown.strip_suffix('…') {
        Some(start) => !start.is_empty() && name.starts_with(start),
        None => shown == name,
    }
}

/// Each bar of `bars` in `chart`: found by its name, its count whole and then its bar, whose
/// cells are its count's share of the largest bar (rounded, at least one).
fn assert_proportional(rows: &[[String; 2]], chart: usize, bars: &[(&str, usize)]) {
    let row = |name: &str| {
        rows.iter()
            .map(|r| r[chart].clone())
            .find(|r| shows_name(r, name))
            .unwrap_or_else(|| panic!("no bar of {name} in {rows:#?}"))
    };
    let cells = |row: &str| row.matches('█').count();
    let most = bars[0].1;
    let longest = cells(&row(bars[0].0));
    assert!(
        longest >= 15,
        "the largest bar fills the room left: {longest}"
    );
    for (name, n) in bars {
        let row = row(name);
        let drawn = cells(&row);
        let exact = *n as f64 * longest as f64 / most as f64;
        assert!(
            drawn >= 1 && (drawn as f64 - exact).abs() <= 0.5_f64.max(1.0 - exact),
            "{name} {n}: {drawn} cells where {exact:.2} of {longest} are due: {row:?}"
        );
        let bar = format!(" {} {}", count(*n), "█".repeat(drawn));
        assert!(
            row.trim_end().ends_with(&bar),
            "{name}: the count whole and the bar after it, in {row:?}"
        );
    }
}

#[test]
fn the_bars_are_proportional_and_the_counts_beside_them() {
    for width in [80, 120] {
        let rows = charts(width);
        assert_proportional(&rows, 0, &TYPES);
        assert_proportional(&rows, 1, &STATUSES);
    }
}
