//! The order of a sorted list, pure: which column and direction ([`SortSpec`]), how two values
//! compare (numbers by value, texts case-insensitively with digit runs by value: see
//! `appdeck_core::order`; missing values last, ties in the server's order), sorting every
//! loaded row at once ([`sort`], over keys copied out of the rows, so that it can run off the UI
//! thread, from the listing's texts shared with it) and merging rows that arrive later into an
//! order ([`merge`]).

use std::cmp::Ordering;

use super::added::{AddedCells, ColumnChoice};
use super::columns::Column;
use super::row::{Cell, RowView};
use super::row_list::SharedRows;
use super::row_texts::Text;
use super::rows::Rows;
use super::texts::SharedTexts;
use crate::job::{Job, Progress};

/// A column to sort by and the direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SortSpec {
    pub column: Column,
    pub descending: bool,
}

/// The columns a list sorts by, in the order `s` goes through them: the table's, past the
/// selection marker.
pub const SORTABLE: &[Column] = Column::ALL.split_at(1).1;

impl SortSpec {
    /// Reads `:sort COLUMN [asc|desc]`'s words (after `sort`); `Ok(None)` for `off` or nothing.
    /// A column is one of the table's or one `:columns` added (`choice`).
    pub fn parse(words: &str, choice: &ColumnChoice) -> Result<Option<SortSpec>, String> {
        let mut words = words.split_whitespace();
        let Some(name) = words.next() else {
            return Ok(None);
        };
        if name.eq_ignore_ascii_case("off") && words.next().is_none() {
            return Ok(None);
        }
        let column = choice.column_named(name).ok_or_else(|| {
            let mut names = column_names();
            for path in &choice.added {
                names.push_str(", ");
                names.push_str(&path.text);
            }
            let name = crate::sanitize::line(name);
            let added = match name.contains('.') {
                // A path not shown yet: it sorts once it is a column.
                true => format!(" (:columns +{name} adds it)"),
                false => String::new(),
            };
            format!("no column {name:?} to sort by{added}; one of {names}, or off")
        })?;
        let descending = match words.next().map(str::to_ascii_lowercase).as_deref() {
            None | Some("asc") => false,
            Some("desc") => true,
            Some(other) => {
                return Err(format!(
                    "sort {} asc or desc, not {:?}",
                    crate::sanitize::line(name),
                    crate::sanitize::line(other)
                ));
            }
        };
        if let Some(extra) = words.next() {
            return Err(format!(
                "unexpected {:?}: :sort COLUMN [desc]",
                crate::sanitize::line(extra)
            ));
        }
        Ok(Some(SortSpec { column, descending }))
    }

    /// The spec after `s`: the next column (ascending), and after the last, none.
    pub fn next(current: Option<SortSpec>) -> Option<SortSpec> {
        let at = current.and_then(|s| SORTABLE.iter().position(|c| *c == s.column));
        let column = match at {
            None => SORTABLE[0],
            Some(i) => *SORTABLE.get(i + 1)?,
        };
        Some(SortSpec {
            column,
            descending: false,
        })
    }

    /// The spec after `S`: the same column the other way; unsorted, the first one descending.
    pub fn reversed(current: Option<SortSpec>) -> SortSpec {
        match current {
            Some(spec) => SortSpec {
                descending: !spec.descending,
                ..spec
            },
            None => SortSpec {
                column: SORTABLE[0],
                descending: true,
            },
        }
    }

    /// The arrow the header puts after the column's title.
    pub fn arrow(self) -> &'static str {
        if self.descending { "▼" } else { "▲" }
    }

    /// How the title and the status bar say it: `name ▲ ascending`.
    pub fn words(self) -> String {
        self.words_naming(column_name(self.column))
    }

    /// As [`SortSpec::words`], the column called `name` (an added column's path).
    pub fn words_naming(self, name: &str) -> String {
        let direction = if self.descending {
            "descending"
        } else {
            "ascending"
        };
        format!("{name} {} {direction}", self.arrow())
    }
}

/// What `:sort` calls a column.
pub(crate) fn column_name(column: Column) -> &'static str {
    match column {
        Column::Marker => "",
        Column::Type => "type",
        Column::Name => "name",
        Column::Status => "status",
        Column::Id => "id",
        Column::ExternalId => "external_id",
        Column::Updated => "updated_at",
        // Named by its path: `ColumnChoice::name`.
        Column::Added(_) => "added column",
    }
}

fn column_names() -> String {
    let names: Vec<&str> = SORTABLE.iter().map(|&c| column_name(c)).collect();
    names.join(", ")
}

/// A column by its `:sort` name, its title, or a short form (`updated`, `external-id`).
pub(crate) fn column_named(name: &str) -> Option<Column> {
    let name = name.to_ascii_lowercase().replace(['-', ' '], "_");
    SORTABLE.iter().copied().find(|&c| {
        name == column_name(c)
            || name == c.title().to_ascii_lowercase().replace(' ', "_")
            || (c == Column::ExternalId && name == "externalid")
    })
}

/// The value a row is sorted by in `column`: the text the service sent (the full `updated_at`,
/// which sorts by time when it is ISO 8601); `None` when missing or empty, sorted last.
pub(crate) fn key(row: RowView<'_>, column: Column) -> Option<Cell<'_>> {
    column.value(row).filter(|s| !s.is_empty())
}

/// Two texts in sort order ([`crate::order`]: numbers by value, case-insensitively, digit runs
/// by value), as [`sort`] orders their keys.
pub(crate) fn compare_text(a: &str, b: &str) -> Ordering {
    crate::order::compare(a, b)
}

/// Two keys under `spec`: missing ones last in either direction.
fn compare_keys(a: Option<&str>, b: Option<&str>, descending: bool) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Greater,
        (Some(_), None) => Ordering::Less,
        (Some(a), Some(b)) => {
            let order = compare_text(a, b);
            if descending { order.reverse() } else { order }
        }
    }
}

/// Two rows (by their index in the listing) under `spec`; equal keys keep the server's order.
pub(crate) fn compare_rows(rows: &Rows, a: usize, b: usize, spec: SortSpec) -> Ordering {
    compare_keys(
        key(rows.at(a), spec.column).as_deref(),
        key(rows.at(b), spec.column).as_deref(),
        spec.descending,
    )
    .then(a.cmp(&b))
}

/// A text's sort key (the order [`compare_text`] reads it in).
fn fold(text: &str, out: &mut Vec<u8>) {
    crate::order::sort_key(text, out);
}

/// One column's keys of the first rows, for a job: the rows and the listing's texts shared (no
/// copy of a row's on the UI thread but the chunk being filled); the job reads the keys.
#[derive(Clone, Debug, Default)]
pub struct SortKeys {
    texts: SharedTexts,
    rows: SharedRows,
    /// The texts of `column`; none for the marker, by which nothing sorts.
    field: Option<Text>,
    /// For a column `:columns` added, its values and which it is.
    added: Option<(AddedCells, usize)>,
}

impl SortKeys {
    /// The keys of every row.
    pub fn of(rows: &Rows, column: Column) -> SortKeys {
        SortKeys::of_first(rows, rows.len(), column)
    }

    /// The keys of the first `count` rows.
    pub fn of_first(rows: &Rows, count: usize, column: Column) -> SortKeys {
        SortKeys {
            texts: rows.share_texts(),
            rows: rows.share(count),
            field: column.field(),
            added: match column {
                Column::Added(k) => Some((rows.added().clone(), usize::from(k))),
                _ => None,
            },
        }
    }

    /// The key of the row at `index`, as [`key`] reads it.
    fn key(&self, index: usize) -> Option<Cell<'_>> {
        if let Some((added, k)) = &self.added {
            return added.get(self.rows.at(index).body, *k).map(Cell::Text);
        }
        let text = self.texts.get(self.rows.at(index).texts, self.field?);
        text.filter(|s| !s.is_empty())
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

/// How often (in rows) a sort says how far it got and looks whether it was cancelled.
pub(crate) const STEP: usize = 1 << 16;

/// Sorts the rows whose keys are `keys` under `spec`: their indices in order, ties and missing
/// values in the server's order. `tick(done, total)` is told of the progress and answers
/// whether to go on; `None` when it said stop.
pub fn sort_by_keys(
    keys: &SortKeys,
    descending: bool,
    mut tick: impl FnMut(usize, usize) -> bool,
) -> Option<Vec<usize>> {
    let total = keys.len();
    // Each present key lowercased once, then compared as bytes: 16 bytes inline first (past the
    // start all keys share, such as `resource `: most comparisons end there without touching
    // the text), the whole key on a tie, the row's index last.
    // Sized from the first keys, so that the text is not copied again as it grows.
    let sample = total.clamp(1, 256);
    let sampled: usize = (0..total.min(256))
        .filter_map(|i| keys.key(i))
        .map(|key| key.len())
        .sum();
    let estimate = sampled * total / sample;
    let mut folded = Vec::with_capacity(estimate + estimate / 8);
    let mut spans: Vec<(u32, u32, u32)> = Vec::with_capacity(total);
    let mut missing = Vec::new();
    for index in 0..total {
        if index % STEP == 0 && !tick(index / 3, total) {
            return None;
        }
        let Some(key) = keys.key(index) else {
            missing.push(index);
            continue;
        };
        let from = folded.len();
        fold(&key, &mut folded);
        let len = folded.len() - from;
        spans.push((
            u32::try_from(from).ok()?,
            u32::try_from(len).ok()?,
            u32::try_from(index).ok()?,
        ));
    }
    let text = |from: u32, len: u32| &folded[from as usize..(from + len) as usize];
    let shared = match spans.first() {
        Some(&(from, len, _)) => {
            let first = text(from, len);
            spans.iter().fold(first.len(), |shared, &(from, len, _)| {
                let other = text(from, len);
                (first[..shared].iter().zip(other))
                    .take_while(|(a, b)| a == b)
                    .count()
            })
        }
        None => 0,
    };
    let mut present: Vec<(u128, u32, u32, u32)> = spans
        .into_iter()
        .map(|(from, len, index)| {
            let key = &text(from, len)[shared..];
            let mut prefix = [0u8; 16];
            let n = key.len().min(16);
            prefix[..n].copy_from_slice(&key[..n]);
            (u128::from_be_bytes(prefix), from, len, index)
        })
        .collect();
    if !tick(total / 3, total) {
        return None;
    }
    let compare = |a: &(u128, u32, u32, u32), b: &(u128, u32, u32, u32)| {
        let by_key =
            a.0.cmp(&b.0)
                .then_with(|| text(a.1, a.2).cmp(text(b.1, b.2)));
        let by_key = if descending { by_key.reverse() } else { by_key };
        by_key.then(a.3.cmp(&b.3))
    };
    // Two halves on two threads, then one merge: the machine this runs on has two cores.
    let half = present.len() / 2;
    let (low, high) = present.split_at_mut(half);
    std::thread::scope(|scope| {
        if half >= 50_000 {
            scope.spawn(|| low.sort_unstable_by(compare));
        } else {
            low.sort_unstable_by(compare);
        }
        high.sort_unstable_by(compare);
    });
    if !tick(total * 2 / 3, total) {
        return None;
    }
    let (low, high) = present.split_at(half);
    let mut order: Vec<usize> = Vec::with_capacity(total);
    let (mut i, mut j) = (0, 0);
    while i < low.len() && j < high.len() {
        if compare(&low[i], &high[j]) == Ordering::Greater {
            order.push(high[j].3 as usize);
            j += 1;
        } else {
            order.push(low[i].3 as usize);
            i += 1;
        }
    }
    order.extend(low[i..].iter().chain(&high[j..]).map(|p| p.3 as usize));
    order.extend(missing);
    tick(total, total).then_some(order)
}

/// Merges `new` (indices of rows not in `order`) into `order`, which is sorted under `spec`:
/// the new ones are sorted, then each goes where it belongs, so that `order` stays sorted.
pub fn merge_sorted(order: &mut Vec<usize>, mut new: Vec<usize>, rows: &Rows, spec: SortSpec) {
    if new.is_empty() {
        return;
    }
    new.sort_by(|&a, &b| compare_rows(rows, a, b, spec));
    let mut merged = Vec::with_capacity(order.len() + new.len());
    let mut from = 0;
    for index in new {
        let at = from
            + order[from..]
                .partition_point(|&o| compare_rows(rows, o, index, spec) == Ordering::Less);
        merged.extend_from_slice(&order[from..at]);
        merged.push(index);
        from = at;
    }
    merged.extend_from_slice(&order[from..]);
    *order = merged;
}

/// Lists up to this many rows are sorted at once, on the keypress (a few milliseconds); larger
/// ones by a [`SortJob`].
pub const IN_PLACE_ROWS: usize = 20_000;

/// Sorts one column's keys of every loaded row, off the UI thread; answers with their indices
/// in order, or `None` when cancelled.
#[derive(Debug)]
pub struct SortJob {
    pub keys: SortKeys,
    pub descending: bool,
}

impl Job for SortJob {
    type Output = Option<Vec<usize>>;

    fn run(&self, progress: &Progress) -> Option<Vec<usize>> {
        sort_by_keys(&self.keys, self.descending, |done, total| {
            progress.set(done as u64, total as u64);
            !progress.cancelled()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rows(names: &[Option<&str>]) -> Rows {
        Rows::of_values(names.iter().enumerate().map(|(i, name)| {
            let mut value = json!({"id": format!("r{i}"), "type": "repo"});
            if let Some(name) = name {
                value["name"] = json!(name);
            }
            value
        }))
    }

    fn sorted(rows: &Rows, spec: SortSpec) -> Vec<usize> {
        sort_by_keys(&SortKeys::of(rows, spec.column), spec.descending, |_, _| {
            true
        })
        .unwrap()
    }

    const NAME: SortSpec = SortSpec {
        column: Column::Name,
        descending: false,
    };
    const NAME_DESC: SortSpec = SortSpec {
        column: Column::Name,
        descending: true,
    };

    #[test]
    fn sorts_case_insensitively_ties_in_server_order_missing_last() {
        let rows = rows(&[
            Some("beta"),
            None,
            Some("Alpha"),
            Some("alpha"),
            Some(""),
            Some("Ärger"),
            Some("zeta"),
            Some("ALPHA"),
        ]);
        assert_eq!(sorted(&rows, NAME), [2, 3, 7, 0, 6, 5, 1, 4]);
        assert_eq!(sorted(&rows, NAME_DESC), [5, 6, 0, 2, 3, 7, 1, 4]);
    }

    /// Every way of sorting agrees: the job's (keys copied out, folded once), the comparator the
    /// merge uses, and merging rows page by page.
    #[test]
    fn the_sort_the_comparator_and_the_merge_agree() {
        let names: Vec<String> = (0..300)
            .map(|i: u32| match i % 7 {
                0 => format!("Name {}", (i * 37) % 101),
                1 => format!("name {}", (i * 37) % 101),
                2 => String::new(),
                3 => format!("Ünïcødé {}", i % 13),
                4 => "same".into(),
                5 => format!("longer than eight bytes {}", i % 5),
                _ => format!("{}", i % 10),
            })
            .collect();
        let named: Vec<Option<&str>> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (i % 11 != 0).then_some(n.as_str()))
            .collect();
        let rows = rows(&named);
        for spec in [NAME, NAME_DESC] {
            let expected = {
                let mut all: Vec<usize> = (0..rows.len()).collect();
                all.sort_by(|&a, &b| compare_rows(&rows, a, b, spec));
                all
            };
            assert_eq!(sorted(&rows, spec), expected, "{spec:?}");
            let mut merged = Vec::new();
            for page in (0..rows.len()).collect::<Vec<_>>().chunks(37) {
                merge_sorted(&mut merged, page.to_vec(), &rows, spec);
            }
            assert_eq!(merged, expected, "{spec:?} merged page by page");
        }
    }

    #[test]
    fn a_sort_told_to_stop_stops() {
        let rows = rows(&[Some("a"), Some("b")]);
        assert_eq!(
            sort_by_keys(&SortKeys::of(&rows, Column::Name), false, |_, _| false),
            None
        );
    }

    fn parse(words: &str) -> Result<Option<SortSpec>, String> {
        SortSpec::parse(words, &ColumnChoice::default())
    }

    /// `:sort` names a column `:columns` added by its path (or header).
    #[test]
    fn sorts_by_an_added_column() {
        let choice = ColumnChoice::default()
            .apply("+properties.language")
            .unwrap();
        let spec = SortSpec::parse("properties.language desc", &choice);
        assert_eq!(
            spec,
            Ok(Some(SortSpec {
                column: Column::Added(0),
                descending: true
            }))
        );
        // A path not yet a column: the refusal says how to make it one.
        let refused = parse("properties.language").unwrap_err();
        assert!(refused.contains("updated_at"), "{refused}");
        assert!(
            refused.contains("(:columns +properties.language adds it)"),
            "{refused}"
        );
        assert!(!parse("colour").unwrap_err().contains(":columns"));
    }

    #[test]
    fn parses_columns_and_directions() {
        let spec = |column, descending| Ok(Some(SortSpec { column, descending }));
        assert_eq!(parse("name"), spec(Column::Name, false));
        assert_eq!(parse(" NAME  desc "), spec(Column::Name, true));
        assert_eq!(parse("updated"), spec(Column::Updated, false));
        assert_eq!(parse("external-id asc"), spec(Column::ExternalId, false));
        assert_eq!(parse("external_id desc"), spec(Column::ExternalId, true));
        assert_eq!(parse("off"), Ok(None));
        assert_eq!(parse(""), Ok(None));
        assert!(parse("colour").unwrap_err().contains("type, name"));
        assert!(parse("name up").unwrap_err().contains("asc or desc"));
        assert!(parse("name desc x").is_err());
    }

    #[test]
    fn s_goes_through_the_columns_then_off() {
        let mut spec = None;
        let mut seen = Vec::new();
        for _ in 0..SORTABLE.len() {
            spec = SortSpec::next(spec);
            seen.push(spec.unwrap().column);
        }
        assert_eq!(seen, SORTABLE);
        assert_eq!(SortSpec::next(spec), None);
    }

    #[test]
    fn s_upper_turns_the_sort_round_and_starts_with_the_first_column_descending() {
        let first = SortSpec::reversed(None);
        assert_eq!((first.column, first.descending), (SORTABLE[0], true));
        let name = SortSpec {
            column: Column::Name,
            descending: true,
        };
        assert!(!SortSpec::reversed(Some(name)).descending);
        assert_eq!(SortSpec::reversed(Some(name)).column, Column::Name);
    }
}
