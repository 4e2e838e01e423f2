//! What the loaded rows add up to, kept up to date as each page arrives (never a pass over
//! every row): how many of each type and of each status, and when they were last updated, by
//! hour. Panes that count rows (the types view, the overview) hear of it through
//! `News::RowsLoaded`; it is shared behind an `Arc`, so telling them costs nothing.

use std::collections::{BTreeMap, BTreeSet};

use chrono::DateTime;

use super::row::RowView;

/// Seconds in the buckets of [`LoadedSummary::updated_by_hour`].
pub const HOUR: i64 = 3600;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadedSummary {
    /// Rows loaded.
    pub rows: usize,
    /// Rows of each type; every type seen in a page (even filtered out) is here, at 0 if none
    /// of its rows are loaded.
    pub per_type: BTreeMap<String, usize>,
    /// Rows without a readable type (an item that is not an object, a type that is not a
    /// string): counted, so that the type chart's bars add up to the rows loaded.
    pub no_type: usize,
    /// Rows of each status (rows without one are counted in [`Self::no_status`]).
    pub per_status: BTreeMap<String, usize>,
    /// Rows without a status, or with one that is not a string.
    pub no_status: usize,
    /// Rows by the hour their `updated_at` falls in (UNIX seconds at the hour's start).
    pub updated_by_hour: BTreeMap<i64, usize>,
    /// Rows whose `updated_at` is missing or not an RFC 3339 date-time.
    pub undated: usize,
    /// Whether the service has more pages than are loaded.
    pub more: bool,
    /// The type the listing asks for, if one.
    pub type_filter: Option<String>,
}

impl LoadedSummary {
    /// What a type picker counts: the rows of every type (`None` under a type filter, or with
    /// nothing `loaded`), and each type seen with its rows, `None` for those whose rows are not
    /// loaded (under a type filter only that type's are).
    pub fn type_counts(&self, loaded: bool) -> (Option<usize>, Vec<(String, Option<usize>)>) {
        let filter = self.type_filter.as_ref();
        let types = (self.per_type.iter()).map(|(name, n)| {
            let known = loaded && filter.is_none_or(|f| f == name);
            (name.clone(), known.then_some(*n))
        });
        let all = (loaded && filter.is_none()).then_some(self.rows);
        (all, types.collect())
    }

    /// An empty summary of a listing of `type_filter`, the types seen so far at 0.
    pub fn new(type_filter: Option<String>, types_seen: &BTreeSet<String>) -> Self {
        LoadedSummary {
            per_type: types_seen.iter().map(|t| (t.clone(), 0)).collect(),
            type_filter,
            ..LoadedSummary::default()
        }
    }

    /// A type appeared in a page.
    pub fn saw_type(&mut self, name: &str) {
        entry(&mut self.per_type, name);
    }

    /// Counts rows that were appended to the listing.
    pub fn add<'a>(&mut self, rows: impl IntoIterator<Item = RowView<'a>>) {
        for row in rows {
            self.rows += 1;
            match row.resource_type() {
                Some(t) => *entry(&mut self.per_type, t) += 1,
                None => self.no_type += 1,
            }
            match row.status() {
                Some(s) => *entry(&mut self.per_status, s) += 1,
                None => self.no_status += 1,
            }
            match row.updated_at().and_then(|time| hour_of(&time)) {
                Some(hour) => *self.updated_by_hour.entry(hour).or_insert(0) += 1,
                None => self.undated += 1,
            }
        }
    }
}

/// The count of `key`, inserted at 0 without allocating a key that is already there.
fn entry<'a>(counts: &'a mut BTreeMap<String, usize>, key: &str) -> &'a mut usize {
    if !counts.contains_key(key) {
        counts.insert(key.to_owned(), 0);
    }
    counts.get_mut(key).expect("inserted above")
}

/// The start of the hour (UNIX seconds) of an RFC 3339 date-time.
fn hour_of(text: &str) -> Option<i64> {
    let seconds = DateTime::parse_from_rfc3339(text).ok()?.timestamp();
    Some(seconds.div_euclid(HOUR) * HOUR)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rows::Rows;
    use serde_json::json;

    #[test]
    fn rows_are_counted_by_type_status_and_hour() {
        let seen = BTreeSet::from(["incident".to_owned()]);
        let mut summary = LoadedSummary::new(None, &seen);
        summary.saw_type("dashboard");
        let rows = Rows::of_values([
            json!({"id": "a", "type": "repository", "status": "active",
                "updated_at": "2026-11-20T14:03:00Z"}),
            json!({"id": "b", "type": "repository", "status": "failed",
                "updated_at": "2026-11-20T14:59:59+00:00"}),
            json!({"id": "c", "type": "deployment", "status": "active",
                "updated_at": "2026-11-20 15:00:00"}),
            json!({"id": "d", "type": "deployment"}),
            json!({"id": "e", "type": "deployment", "status": 3}),
            json!({"id": "f", "type": ["deployment"], "status": "active"}),
        ]);
        summary.add(rows.iter());
        assert_eq!(summary.rows, 6);
        fn counts(m: &BTreeMap<String, usize>) -> Vec<(&str, usize)> {
            m.iter().map(|(k, v)| (k.as_str(), *v)).collect()
        }
        assert_eq!(
            counts(&summary.per_type),
            [
                ("dashboard", 0),
                ("deployment", 3),
                ("incident", 0),
                ("repository", 2)
            ]
        );
        assert_eq!(counts(&summary.per_status), [("active", 3), ("failed", 1)]);
        // The rest are counted too: each chart's bars add up to the rows.
        assert_eq!(summary.no_status, 2, "none, and a number");
        assert_eq!(summary.no_type, 1, "a type that is not a string");
        let hour = DateTime::parse_from_rfc3339("2026-11-20T14:00:00Z")
            .unwrap()
            .timestamp();
        assert_eq!(
            summary.updated_by_hour.into_iter().collect::<Vec<_>>(),
            [(hour, 2)]
        );
        assert_eq!(summary.undated, 4, "a space for the T and no date at all");
    }
}
