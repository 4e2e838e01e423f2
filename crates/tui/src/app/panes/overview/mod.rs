//! The overview (`4`, `:overview`): the loaded resources counted by type and by status as bar
//! charts, and their `updated_at` over time as a histogram. It holds nothing of its own but the
//! list's [`LoadedSummary`], which it hears of as pages load (`News::RowsLoaded`), and which
//! bar has the cursor. `Enter` on a type lists that type; on a status, the rows of that status.

pub(crate) mod keys;
mod update;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

use appdeck_listing::{LoadedSummary, StatusShown};

use crate::app::pane::Open;

/// The chart that has the cursor; the histogram has none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OverviewPart {
    #[default]
    Types,
    Statuses,
}

#[derive(Clone, Debug, Default)]
pub struct Overview {
    pub summary: Arc<LoadedSummary>,
    pub focus: OverviewPart,
    /// The bar under the cursor in each chart (kept when the other chart has the focus).
    pub type_bar: usize,
    pub status_bar: usize,
    /// The last histogram drawn: a million rows can span 166,000 hours, too many to bucket
    /// again on every frame, and the counts change only when a page loads.
    histogram_drawn: RefCell<Option<DrawnHistogram>>,
}

/// A bar of a chart: a type or status (`None`: the rows without one), and its rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bar<'a> {
    pub name: Option<&'a str>,
    pub rows: usize,
}

impl Bar<'_> {
    /// Its name on screen, as the list it opens names it.
    pub(crate) fn label(&self) -> &str {
        appdeck_listing::status_label(self.name)
    }
}

/// A histogram as [`Overview::histogram`] made it, with what it was made from.
#[derive(Clone, Debug)]
struct DrawnHistogram {
    /// Held, not compared by address: a new summary cannot reuse this one's memory.
    summary: Arc<LoadedSummary>,
    columns: usize,
    histogram: Option<Histogram>,
}

/// The rows per bucket of whole hours, from the first hour to the last (UNIX seconds).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Histogram {
    pub buckets: Vec<u64>,
    pub first: i64,
    pub last: i64,
    /// How many hours a bucket spans: the same for all, so that a bar's height reads as a rate.
    pub hours_per_bucket: i64,
}

impl Histogram {
    /// The most rows in one bucket: the scale of the bars.
    pub(crate) fn most(&self) -> u64 {
        self.buckets.iter().copied().max().unwrap_or(0)
    }
}

impl Overview {
    pub(crate) fn new(summary: Arc<LoadedSummary>) -> Self {
        Overview {
            summary,
            ..Overview::default()
        }
    }

    /// The bars of a chart: the types or statuses of the rows loaded, most rows first (then by
    /// name), and last the rows without one (`(none)`), so that the bars add up to the rows.
    pub(crate) fn bars(&self, part: OverviewPart) -> Vec<Bar<'_>> {
        let (counts, missing) = self.counts(part);
        // A type seen only in a page's rows of another type, or in the listing before, has
        // none here: its bar would open a list no page fills.
        let mut bars: Vec<Bar> = (counts.iter())
            .filter(|(_, rows)| **rows > 0)
            .map(|(name, &rows)| Bar {
                name: Some(name),
                rows,
            })
            .collect();
        bars.sort_by(|a, b| b.rows.cmp(&a.rows).then(a.name.cmp(&b.name)));
        if missing > 0 {
            bars.push(Bar {
                name: None,
                rows: missing,
            });
        }
        bars
    }

    /// The counts a chart shows by name, and its rows without a name.
    fn counts(&self, part: OverviewPart) -> (&BTreeMap<String, usize>, usize) {
        match part {
            OverviewPart::Types => (&self.summary.per_type, self.summary.no_type),
            OverviewPart::Statuses => (&self.summary.per_status, self.summary.no_status),
        }
    }

    /// How many bars `part` has (as [`Overview::bars`] makes them: a handful, so made again).
    pub(crate) fn bar_count(&self, part: OverviewPart) -> usize {
        self.bars(part).len()
    }

    /// The index of the bar under the cursor in `part`, within its bars.
    pub(crate) fn selected(&self, part: OverviewPart) -> usize {
        let index = match part {
            OverviewPart::Types => self.type_bar,
            OverviewPart::Statuses => self.status_bar,
        };
        index.min(self.bar_count(part).saturating_sub(1))
    }

    /// What `Enter` opens on the bar under the cursor in the focused chart.
    pub(crate) fn selected_open(&self) -> Option<Open> {
        let bars = self.bars(self.focus);
        let bar = bars.get(self.selected(self.focus))?;
        let shown = match bar.name {
            Some(name) => StatusShown::Is(name.to_owned()),
            None => StatusShown::Missing,
        };
        Some(match self.focus {
            OverviewPart::Types => Open::LoadedTypeList(shown),
            OverviewPart::Statuses => Open::StatusList(shown),
        })
    }

    /// The rows' `updated_at` in at most `columns` buckets of the same whole number of hours,
    /// from the oldest hour to the newest; `None` when no row has a date. Made again only when
    /// the counts or the width changed since the last call.
    pub(crate) fn histogram(&self, columns: usize) -> Option<Histogram> {
        let mut drawn = self.histogram_drawn.borrow_mut();
        if let Some(drawn) = drawn.as_ref()
            && drawn.columns == columns
            && Arc::ptr_eq(&drawn.summary, &self.summary)
        {
            return drawn.histogram.clone();
        }
        let histogram = self.bucket_hours(columns);
        *drawn = Some(DrawnHistogram {
            summary: self.summary.clone(),
            columns,
            histogram: histogram.clone(),
        });
        histogram
    }

    fn bucket_hours(&self, columns: usize) -> Option<Histogram> {
        let hours = &self.summary.updated_by_hour;
        let (first, _) = hours.first_key_value()?;
        let (last, _) = hours.last_key_value()?;
        let hour = appdeck_listing::HOUR;
        let span_hours = (last - first) / hour + 1;
        // No more columns than hours: the sums below stay far from overflow.
        let columns = i64::try_from(columns.max(1)).map_or(span_hours, |c| c.min(span_hours));
        // Both positive: rounded up without `div_ceil`, which is unstable on signed integers.
        let hours_per_bucket = (span_hours + columns - 1) / columns;
        let len =
            usize::try_from((span_hours + hours_per_bucket - 1) / hours_per_bucket).unwrap_or(1);
        let mut buckets = vec![0u64; len];
        for (at, count) in hours {
            let index = usize::try_from((at - first) / hour / hours_per_bucket).unwrap_or(0);
            buckets[index.min(len - 1)] += *count as u64;
        }
        Some(Histogram {
            buckets,
            first: *first,
            last: *last,
            hours_per_bucket,
        })
    }
}

#[cfg(test)]
mod tests;
