//! The `list` table: one row per page item, columns fitted to the terminal by display width, every
//! cell neutralised by the sanitiser so nothing from the server can drive the terminal. The
//! fitting itself ([`fit_widths`], [`join_cells`]) serves any table (`appdeck history`'s too).

use std::borrow::Cow;
use std::io::IsTerminal;

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use crate::api::page::read_item_bytes;
use crate::api::{ItemFacts, PageItem};
use crate::sanitize;
use crate::text::{fit, short_time};

/// The width when stdout is neither a terminal nor given `COLUMNS`: a pipe or a file, where a
/// cut value is a lost one (`appdeck list | grep …`), so every value is written whole, as `gh`
/// does.
pub const UNBOUNDED: usize = usize::MAX;

/// The terminal UI's list columns, in its order: the id is what every next step needs.
pub const HEADERS: [&str; COLUMNS] = [
    "!",
    "TYPE",
    "NAME",
    "STATUS",
    "ID",
    "EXTERNAL ID",
    "UPDATED",
];
/// Below these a column stops shrinking: a row that still does not fit wraps, which beats
/// columns too narrow to tell rows apart.
pub const MIN_WIDTHS: [usize; COLUMNS] = [1, 4, 8, 4, 6, 6, 10];
const COLUMNS: usize = 7;
const GAP: &str = "  ";
/// A malformed item is shown by an excerpt of its JSON in the name column.
const RAW_EXCERPT_CHARS: usize = 60;

/// The width to fit: the terminal's when stdout is one, else `COLUMNS`, else [`UNBOUNDED`].
pub fn width_from(tty_columns: Option<u16>, columns_env: Option<&str>) -> usize {
    tty_columns
        .map(usize::from)
        .filter(|w| *w > 0)
        .or_else(|| {
            columns_env
                .and_then(|c| c.trim().parse::<usize>().ok())
                .filter(|w| *w > 0)
        })
        .unwrap_or(UNBOUNDED)
}

/// [`width_from`] for this process's stdout.
pub fn output_width() -> usize {
    let tty = std::io::stdout()
        .is_terminal()
        .then(|| crossterm::terminal::size().ok().map(|(w, _)| w))
        .flatten();
    width_from(tty, std::env::var("COLUMNS").ok().as_deref())
}

/// One table row, its cells already safe to print: borrowed from the item's text where they
/// can be (a row of [`Row::from_text`] costs no allocation a cell).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row<'a> {
    pub cells: [Cow<'a, str>; COLUMNS],
    /// Why the row is marked `!`; empty when the item is sound.
    pub problems: Vec<String>,
}

impl Row<'_> {
    pub fn from_item(item: &PageItem) -> Row<'static> {
        let problems: Vec<String> = item
            .problems()
            .iter()
            .map(|p| sanitize::line(p).into_owned())
            .collect();
        let marker = if problems.is_empty() { "" } else { "!" };
        let cells = match item {
            PageItem::Resource(r) => {
                let text = |v: Option<&String>| v.map_or_else(String::new, |s| safe(s));
                [
                    marker.to_owned(),
                    text(r.resource_type.get()),
                    r.title().map_or_else(String::new, safe),
                    text(r.status.get()),
                    text(r.id.get()),
                    text(r.external_id.get()),
                    // As the terminal UI shows it.
                    r.updated_at
                        .get()
                        .map_or_else(String::new, |t| safe(&short_time(t))),
                ]
            }
            PageItem::Malformed(m) => [
                marker.to_owned(),
                String::new(),
                sanitize::excerpt(m.text().as_bytes(), RAW_EXCERPT_CHARS),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
            ],
        };
        Row {
            cells: cells.map(Cow::Owned),
            problems,
        }
    }

    /// The row of one listed item's JSON text, as [`Row::from_item`] gives it for the item read
    /// as a record. A sound item (every field of the spec's type, as most are) is read only for
    /// the fields a row shows: its `properties` are most of its bytes. `list --all -o table` over
    /// 100,000 resources: 6.8 s reading each whole; reading the fields after one scan
    /// (`json_peek::peek`), the cells borrowed, 0.63 s to ndjson's 0.39 s, 1.62x
    /// (`BIN=target/release/appdeck ROUNDS=3 benches/list_formats.sh`, a quiet machine). What
    /// each step buys is said as its share of perf samples where it is done. Any other item is
    /// read whole, which says what is wrong with it.
    pub fn from_text(item: &[u8]) -> Row<'_> {
        sound_row(item).unwrap_or_else(|| Row::from_item(&read_item_bytes(item)))
    }

    /// Names the row in a note: its id when it has one.
    pub fn label(item: &PageItem, number: usize) -> String {
        match item.resource().and_then(|r| r.id.get()) {
            Some(id) => format!("row {number} (id {})", safe(id)),
            None => format!("row {number}"),
        }
    }
}

/// The row of a sound resource (see [`Row::from_text`]); `None` for any other item, or when
/// unsure. Read as the TUI's list reads it ([`ItemFacts::of_sound`]: one scan finds the
/// members, one pass checks every known field's type and keeps the shown ones), a shown string
/// without escapes borrowed from the text.
fn sound_row<'a>(item: &'a [u8]) -> Option<Row<'a>> {
    let text = std::str::from_utf8(item).ok()?;
    let [kind, title, status, external_id, id, updated_at] =
        ItemFacts::of_sound(text)?.into_texts(text);
    let cell = |value: Option<Cow<'a, str>>| value.map_or(Cow::Borrowed(""), safe_cow);
    Some(Row {
        cells: [
            Cow::Borrowed(""),
            cell(kind),
            cell(title),
            cell(status),
            cell(id),
            cell(external_id),
            // As the terminal UI shows it.
            updated_at.map_or(Cow::Borrowed(""), |t| Cow::Owned(safe(&short_time(&t)))),
        ],
        problems: Vec::new(),
    })
}

fn safe(text: &str) -> String {
    sanitize::line(text).into_owned()
}

/// [`safe`] keeping a borrowed text borrowed when it is safe as it is.
fn safe_cow(text: Cow<'_, str>) -> Cow<'_, str> {
    match text {
        Cow::Borrowed(text) => sanitize::line(text),
        Cow::Owned(text) => {
            let neutralised = match sanitize::line(&text) {
                Cow::Owned(neutralised) => Some(neutralised),
                Cow::Borrowed(_) => None,
            };
            Cow::Owned(neutralised.unwrap_or(text))
        }
    }
}

/// Fits columns to `width`, for any table of text cells (the list's, the history's): each as
/// wide as its widest cell or header, then the widest columns give way first until the row fits
/// or every column is at its minimum. `headers`, `min_widths` and every row have one entry per
/// column; cells must be sanitised already.
pub fn fit_widths<S: AsRef<str>>(
    headers: &[&str],
    min_widths: &[usize],
    rows: &[&[S]],
    width: usize,
) -> Vec<usize> {
    let mut natural: Vec<usize> = headers.iter().map(|h| h.width()).collect();
    for row in rows {
        widen(&mut natural, row);
    }
    fit_natural(&natural, min_widths, width)
}

/// Widens `natural` (each column's widest cell so far) to hold `row`'s cells; whether it grew.
pub fn widen<S: AsRef<str>>(natural: &mut [usize], row: &[S]) -> bool {
    let mut grew = false;
    for (widest, cell) in natural.iter_mut().zip(row) {
        let cell = cell.as_ref();
        // Most cells are ASCII: their width is their length, and no wider than it.
        if cell.len() <= *widest {
            continue;
        }
        let width = cell.width();
        if width > *widest {
            *widest = width;
            grew = true;
        }
    }
    grew
}

/// [`fit_widths`] from each column's widest cell (headers included).
pub fn fit_natural(natural: &[usize], min_widths: &[usize], width: usize) -> Vec<usize> {
    let columns = natural.len();
    let room = width.saturating_sub(GAP.len() * columns.saturating_sub(1));
    // A column narrower than its minimum keeps its own width.
    let min: Vec<usize> = natural
        .iter()
        .zip(min_widths)
        .map(|(n, m)| *n.min(m))
        .collect();
    crate::text::fit_columns(natural, &min, room)
}

/// The display width of a cell [`fit`] keeps whole when it fits: one with no character of zero
/// width (whose runs `fit` may cut). `None` for any other cell.
fn whole_width(cell: &str) -> Option<usize> {
    cell.chars()
        .all(|c| c.width().unwrap_or(0) > 0)
        .then(|| cell.width())
}

/// One line of a table: each cell cut to its column's width (with `…`) and padded, columns
/// separated by two spaces, no trailing blanks.
pub fn join_cells<S: AsRef<str>>(widths: &[usize], cells: &[S]) -> String {
    let mut out = String::new();
    join_cells_into(widths, cells, &mut out);
    out
}

/// [`join_cells`] into `out`, emptied first: `list` writes every row through one buffer. A cell
/// that fits whole goes in as it is (most do), without [`fit`]'s copy. `list --all
/// -o table` over 100,000 rows: `fit`'s copies took 4% of its samples (perf).
pub fn join_cells_into<S: AsRef<str>>(widths: &[usize], cells: &[S], out: &mut String) {
    out.clear();
    for (i, cell) in cells.iter().enumerate() {
        let cell = cell.as_ref();
        if i > 0 {
            out.push_str(GAP);
        }
        let used = if cell.len() <= widths[i] && cell.bytes().all(|b| (b' '..=b'~').contains(&b)) {
            out.push_str(cell);
            cell.len()
        } else if let Some(width) = whole_width(cell).filter(|w| *w <= widths[i]) {
            out.push_str(cell);
            width
        } else {
            // The terminal UI's cut, so that a cell reads the same in the table and on screen.
            let fitted = fit(cell, widths[i]);
            out.push_str(&fitted);
            fitted.width()
        };
        if i + 1 < cells.len() {
            out.extend(std::iter::repeat_n(' ', widths[i].saturating_sub(used)));
        }
    }
    out.truncate(out.trim_end().len());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::types::Resource;
    use serde_json::json;

    fn item(value: serde_json::Value) -> PageItem {
        PageItem::from_value(value)
    }

    /// The list's columns fitted to rows, as `list` fits them.
    struct Layout {
        widths: Vec<usize>,
    }

    impl Layout {
        fn fit(rows: &[Row<'_>], width: usize) -> Layout {
            let cells: Vec<&[Cow<str>]> = rows.iter().map(|r| r.cells.as_slice()).collect();
            Layout {
                widths: fit_widths(&HEADERS, &MIN_WIDTHS, &cells, width),
            }
        }

        fn header(&self) -> String {
            join_cells(&self.widths, &HEADERS.map(str::to_owned))
        }

        fn row(&self, row: &Row) -> String {
            join_cells(&self.widths, &row.cells)
        }
    }

    #[test]
    fn width_prefers_the_terminal_then_columns_then_a_default() {
        assert_eq!(width_from(Some(120), Some("80")), 120);
        assert_eq!(width_from(None, Some(" 80 ")), 80);
        assert_eq!(width_from(None, Some("wide")), UNBOUNDED);
        assert_eq!(width_from(Some(0), None), UNBOUNDED);
    }

    #[test]
    fn cells_are_cut_by_display_width_with_an_ellipsis() {
        let rows = vec![Row::from_item(&item(json!({
            "type": "t", "display_name": "日本語テキストの長い名前です", "status": "s"
        })))];
        // Every other column at its minimum (the empty id at its header's) leaves the name 8 columns: 3 wide characters and `…`.
        let layout = Layout::fit(&rows, 8 + 1 + 4 + 4 + 2 + 6 + 10 + 2 * 6);
        let line = layout.row(&rows[0]);
        assert!(line.contains("日本語… "), "{line}");
        assert!(!line.contains("テ"), "{line}");
    }

    #[test]
    fn hostile_text_is_neutralised_and_marked_items_flagged() {
        let row = Row::from_item(&item(json!({
            "type": "repo", "display_name": "\u{1b}]0;pwned\u{7}\u{1b}[2Jevil\u{202e}", "status": 5
        })));
        assert!(!row.cells.concat().contains('\u{1b}'));
        assert_eq!(row.cells[0], "!");
        assert_eq!(
            row.problems,
            vec!["/status: expected a string, found a number"]
        );

        let row = Row::from_item(&item(json!("oops\u{1b}[31m")));
        assert_eq!(row.cells[0], "!");
        assert!(row.cells[2].contains("oops") && !row.cells[2].contains('\u{1b}'));
    }

    /// A row read from the text is the row of the item read whole, for sound items (read for
    /// the fields shown only) and every kind of unsound one (read whole).
    #[test]
    fn a_row_from_the_text_is_the_row_of_the_item_read_whole() {
        let sound = [
            r#"{"id":"r1","type":"repo","display_name":"A","name":"a","status":"active","external_id":"e","updated_at":"2024-05-01T12:00:00+02:00","created_by":"x","properties":{"stars":1E400,"o":[{"k":5}]},"links":{"links":[{"title":"t","url":"u","type":"x","extra":5},{}],"more":1}}"#,
            r#"{"display_name":null,"name":"n","properties":null,"links":null,"extra":[1]}"#,
            r#"{"display_name":"","name":"n","links":{"links":null}}"#,
            r#"{"id":5,"id":"last","display_name":"\u001b]0;x\u0007\u001b[2Jevil\u202e","updated_at":"not a time"}"#,
            r#" { "id" : "spaced" , "links" : { } } "#,
            r#"{}"#,
        ];
        let mut unsound: Vec<String> = [
            r#"{"id":"a","id":5}"#,
            r#"{"properties":5}"#,
            r#"{"properties":[]}"#,
            r#"{"links":5}"#,
            r#"{"links":{"links":5}}"#,
            r#"{"links":{"links":[5]}}"#,
            r#"{"links":{"links":[{"url":3}]}}"#,
            r#"{"id":"r","name":"\ud800"}"#,
            r#""a string""#,
            "[1]",
            "null",
        ]
        .map(str::to_owned)
        .to_vec();
        for key in Resource::KNOWN_FIELDS {
            unsound.push(format!(r#"{{"id":"r","{key}":true}}"#));
        }
        let deep = format!("{}1{}", "[".repeat(130), "]".repeat(130));
        unsound.push(format!(r#"{{"id":"d","properties":{{"x":{deep}}}}}"#));
        for text in sound
            .iter()
            .copied()
            .chain(unsound.iter().map(String::as_str))
        {
            let whole = Row::from_item(&read_item_bytes(text.as_bytes()));
            assert_eq!(Row::from_text(text.as_bytes()), whole, "{text}");
        }
        for text in sound {
            assert!(
                sound_row(text.as_bytes()).is_some(),
                "read as sound: {text}"
            );
        }
        for text in &unsound {
            assert!(sound_row(text.as_bytes()).is_none(), "read whole: {text}");
        }
    }

    #[test]
    fn the_name_falls_back_from_display_name_to_name() {
        let row = Row::from_item(&item(json!({"name": "n", "display_name": null})));
        assert_eq!(row.cells[2], "n");
        assert!(row.problems.is_empty());
    }

    #[test]
    fn the_layout_fits_the_width() {
        let rows: Vec<Row> = (0..3)
            .map(|i| {
                Row::from_item(&item(json!({
                    "type": "repository", "display_name": "x".repeat(80 + i), "status": "active",
                    "external_id": "ext-1234567890", "updated_at": "2024-05-01T12:00:00Z"
                })))
            })
            .collect();
        for width in [60, 80, 100, 200] {
            let layout = Layout::fit(&rows, width);
            for line in rows.iter().map(|r| layout.row(r)).chain([layout.header()]) {
                assert!(line.width() <= width, "{width}: {line}");
            }
        }
        let wide = Layout::fit(&rows, 300);
        assert!(wide.row(&rows[2]).contains(&"x".repeat(82)));
        // Columns line up: the status starts at the same place on every line.
        let layout = Layout::fit(&rows, 80);
        let at = |line: String| {
            let byte = line.find("active").or_else(|| line.find("STATUS"))?;
            Some(line[..byte].width())
        };
        assert_eq!(at(layout.header()), at(layout.row(&rows[0])));
    }

    /// Issue 9 item 3: the table and the terminal UI show a timestamp the same way.
    #[test]
    fn timestamps_read_as_in_the_terminal_ui() {
        let row = Row::from_item(&item(json!({"updated_at": "2024-05-01T12:00:00Z"})));
        assert_eq!(row.cells[6], "2024-05-01 12:00");
        let row = Row::from_item(&item(json!({"updated_at": "not a time"})));
        assert_eq!(row.cells[6], "not a time");
    }

    #[test]
    fn a_tiny_width_keeps_minimum_columns() {
        let rows = vec![Row::from_item(&item(json!({"type": "t", "name": "n"})))];
        let layout = Layout::fit(&rows, 10);
        assert!(layout.header().starts_with("!  TYPE"));
    }
}
