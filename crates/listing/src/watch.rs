//! `:watch`'s state: when the next look is due (backing off after failures), and the marks the
//! looks left on rows (new, changed, gone), each for a few looks. The pane asks for the looks;
//! what they found and how long it shows is decided here.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::bodies::Bodies;
use crate::loader::{Listing, More};
use crate::look::{LookDiff, Mark, Side};
use crate::row::{Row, RowView};
use crate::rows::Rows;

/// A failed look doubles the time to the next one, up to this (or the interval, if longer).
pub const MAX_BACKOFF: Duration = Duration::from_secs(300);

/// A mark stays until this many looks after the one that found it.
pub const MARK_LOOKS: u8 = 3;

/// The longest interval `:watch` takes, a day.
pub const MAX_EVERY: Duration = Duration::from_secs(24 * 3600);

/// The watch on a list.
#[derive(Clone, Debug)]
pub struct Watch {
    /// The interval asked for.
    pub every: Duration,
    /// The time to the next look now: `every`, doubled after each failed look (up to
    /// [`MAX_BACKOFF`]).
    pub delay: Duration,
    /// When the next look is due.
    pub next_at: Instant,
    /// When the last look came back whole.
    pub looked: Option<Instant>,
    /// Why the last look failed, while it is the last.
    pub failure: Option<String>,
    /// The marks by resource id, each with the looks it still stays for.
    pub marks: HashMap<Box<str>, (Mark, u8)>,
    /// The JSON text before the change of each row marked changed, for `d` (what changed):
    /// kept only while the mark lasts, so it is bounded by the rows that changed. Shared with
    /// what the look tells the panes ([`Followed`]), not copied for them.
    pub was: HashMap<Box<str>, Arc<str>>,
}

impl Watch {
    pub fn new(every: Duration, now: Instant) -> Self {
        Watch {
            every,
            delay: every,
            next_at: now,
            looked: None,
            failure: None,
            marks: HashMap::new(),
            was: HashMap::new(),
        }
    }

    /// The mark on `row`, if any.
    pub fn mark(&self, row: RowView<'_>) -> Option<Mark> {
        let id = row.id()?;
        self.marks.get(&*id).map(|(mark, _)| *mark)
    }

    /// How many rows carry each mark (new, changed, gone), for the title.
    pub fn counts(&self) -> [(Mark, usize); 3] {
        [Mark::New, Mark::Changed, Mark::Gone].map(|m| (m, self.count(m)))
    }

    pub fn count(&self, mark: Mark) -> usize {
        self.marks.values().filter(|(m, _)| *m == mark).count()
    }

    /// A look failed: the next waits twice as long, up to the cap.
    pub fn failed(&mut self, why: String, now: Instant) {
        self.delay = (self.delay * 2).min(MAX_BACKOFF.max(self.every));
        self.failure = Some(why);
        self.next_at = now + self.delay;
    }

    /// A look came back whole: marks age by one look, and the interval is the one asked for.
    fn succeeded(&mut self, now: Instant) {
        self.delay = self.every;
        self.failure = None;
        self.looked = Some(now);
        self.next_at = now + self.every;
        self.marks.retain(|_, (_, left)| {
            *left = left.saturating_sub(1);
            *left > 0
        });
        self.forget_unchanged();
    }

    /// The texts before of rows no longer marked changed go.
    fn forget_unchanged(&mut self) {
        let marks = &self.marks;
        self.was
            .retain(|id, _| matches!(marks.get(id), Some((Mark::Changed, _))));
    }
}

impl Watch {
    /// A look came back whole, compared (`diff`) with the rows on screen (`before`): the marks
    /// age by a look, the new and changed rows are marked, and so are the rows gone (the first
    /// look that misses them). Returns the gone rows to show among the look's rows while their
    /// mark lasts: (index among `before`, index among the look's rows, JSON), in order.
    pub fn take_look(
        &mut self,
        diff: LookDiff,
        before: &Rows,
        now: Instant,
    ) -> Vec<(usize, usize, String)> {
        let previously_gone: HashSet<Box<str>> = (self.marks.iter())
            .filter(|(_, (mark, _))| *mark == Mark::Gone)
            .map(|(id, _)| id.clone())
            .collect();
        self.succeeded(now);
        for id in diff.new {
            self.marks.insert(id, (Mark::New, MARK_LOOKS));
        }
        for (id, was, _) in diff.changed {
            self.marks.insert(id.clone(), (Mark::Changed, MARK_LOOKS));
            self.was.insert(id, was);
        }
        let mut shown = diff.absent;
        shown.retain(|(index, _, _)| {
            let Some(id) = before
                .get(*index)
                .and_then(|r| r.id().map(Box::<str>::from))
            else {
                return false;
            };
            if previously_gone.contains(&id) {
                // Shown while its mark lasts its looks, then it goes.
                return self.marks.contains_key(&id);
            }
            self.marks.insert(id, (Mark::Gone, MARK_LOOKS));
            true
        });
        shown
    }
}

impl Watch {
    /// `:watch off`: the ids of the rows still shown as gone, which leave with the watch.
    pub fn into_gone(self) -> HashSet<Box<str>> {
        (self.marks.into_iter())
            .filter(|(_, (mark, _))| *mark == Mark::Gone)
            .map(|(id, _)| id)
            .collect()
    }

    /// The gone rows shown left with the rows they were shown among (a look's rows came in
    /// unmarked): their marks go too, as a gone mark stands for a row shown.
    pub fn forget_gone(&mut self) {
        self.marks.retain(|_, (mark, _)| *mark != Mark::Gone);
    }

    /// The rows marked were replaced (the listing starts over): every mark goes.
    pub fn forget_marks(&mut self) {
        self.marks.clear();
        self.was.clear();
    }

    /// `d`: the text of `row` at the look before, while a look marks it changed.
    pub fn text_before(&self, row: RowView<'_>) -> Option<&str> {
        if self.mark(row)? != Mark::Changed {
            return None;
        }
        self.was.get(&*row.id()?).map(|was| &**was)
    }

    /// How many of the rows `shown` are gone ones: the title counts them apart, as the count of
    /// rows loaded leaves them out. A scan of the rows shown, asked only while some are gone.
    pub fn gone_among(&self, rows: &Rows, shown: &crate::Shown) -> usize {
        (shown.iter())
            .filter(|&i| self.mark(rows.at(i)) == Some(Mark::Gone))
            .count()
    }

    /// Whether a look marked `row` new or changed (`n` and `N` go from one to the next).
    pub fn is_news(&self, row: RowView<'_>) -> bool {
        matches!(self.mark(row), Some(Mark::New | Mark::Changed))
    }
}

/// What a look found of the rows it changed or found gone, told to the panes: a detail open on
/// one of them follows it (shows its text now) or says it is gone, rather than show (and `R`
/// send) a copy the service no longer holds. It copies no row's text: the texts before are the
/// watch's (for `d`), those now are read from the look's bodies by the one detail that follows
/// a row, and the gone rows' are moved from the comparison. A look changing 20,000 rows of
/// 1.1 KB: `take_look` 38 ms → 15 ms, 29.3 MB asked of the allocator → 5.8 MB; this 44.4 MB
/// held → 1.1 MB; the comparison job's peak 48.2 MB → 26.9 MB (`cargo bench -p appdeck-listing
/// --bench look`, medians of 3 side-by-side runs of 7, load 8 on 2 cores).
#[derive(Debug, Default, PartialEq)]
pub struct Followed {
    /// The look's rows' bodies, where each changed row's text now is.
    pub bodies: Bodies,
    /// Each row changed: its id, its JSON text before and its row now (its body in `bodies`).
    pub changed: Vec<(Box<str>, Arc<str>, Row)>,
    /// Each row a look found gone and still shown: its id and its JSON text.
    pub gone: Vec<(Box<str>, Box<str>)>,
}

impl Followed {
    /// What became of the row of `id` that was `was` (its JSON text): `Some(Some(row))` changed,
    /// its text now in [`Followed::bodies`], `Some(None)` gone, `None` nothing. A copy matches
    /// only if its text was `was`, so that of an id listed twice, only the copy held follows.
    pub fn of(&self, id: &str, was: &str) -> Option<Option<Row>> {
        let changed = (self.changed.iter()).find(|(i, before, _)| **i == *id && **before == *was);
        if let Some((_, _, now)) = changed {
            return Some(Some(*now));
        }
        let gone = (self.gone.iter()).any(|(i, text)| **i == *id && **text == *was);
        gone.then_some(None)
    }

    pub fn is_empty(&self) -> bool {
        self.changed.is_empty() && self.gone.is_empty()
    }
}

impl Listing {
    /// Whether the rows loaded are the whole listing.
    pub fn whole(&self) -> bool {
        matches!(self.more, More::End)
    }

    /// This listing as a look's comparison sees it; `watch` says which rows are shown as gone.
    pub fn side(&self, watch: Option<&Watch>) -> Side {
        let rows = self.rows.iter();
        Side {
            bodies: self.bodies.clone(),
            ids: rows.clone().map(|r| r.id().map(Box::<str>::from)).collect(),
            body: rows.clone().map(|r| r.body).collect(),
            gone: rows
                .map(|r| watch.and_then(|w| w.mark(r)) == Some(Mark::Gone))
                .collect(),
            whole: self.whole(),
        }
    }

    /// A look's rows (this listing) compared with the rows shown (`before`): the watch's marks
    /// (see [`Watch::take_look`]), and the gone rows put in among this listing's rows, their
    /// JSON and texts moved over.
    /// Returns what the look found of each row changed or gone, for a detail open on one.
    pub fn take_look(
        &mut self,
        watch: &mut Watch,
        diff: LookDiff,
        before: &Rows,
        now: Instant,
    ) -> Followed {
        let mut found = Followed {
            bodies: self.bodies.clone(),
            changed: Vec::with_capacity(diff.changed.len()),
            gone: Vec::new(),
        };
        for (id, was, at) in &diff.changed {
            let row = *self.rows.at(*at).row();
            found.changed.push((id.clone(), Arc::clone(was), row));
        }
        let mut shown = Vec::new();
        for (index, at, json) in watch.take_look(diff, before, now) {
            let row = before.at(index);
            self.widths.extend([row]);
            let body = self.bodies.push(&json);
            shown.push((at, self.rows.adopt(row, body)));
            if let Some(id) = row.id() {
                found.gone.push((id.into(), json.into_boxed_str()));
            }
        }
        self.rows.insert(shown);
        found
    }

    /// Takes the rows of these ids out (the gone rows shown, once the watch stops).
    pub fn drop_ids(&mut self, ids: &HashSet<Box<str>>) {
        (self.rows).retain(|r| r.id().is_none_or(|id| !ids.contains(&*id)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A row a look misses is marked gone and shown among the look's rows while its mark lasts
    /// (`MARK_LOOKS` looks), then it goes; new and changed rows are marked for as long, and a
    /// failed look waits twice as long before the next one.
    #[test]
    fn a_gone_row_shows_while_its_mark_lasts_and_marks_age_by_look() {
        let start = Instant::now();
        let mut watch = Watch::new(Duration::from_secs(5), start);
        let before = Rows::of_values([json!({"id": "a"}), json!({"id": "b"})]);
        let first = LookDiff {
            new: vec!["c".into()],
            changed: vec![("a".into(), "{}".into(), 0)],
            absent: vec![(1, 1, r#"{"id":"b"}"#.to_owned())],
        };
        assert_eq!(
            watch.take_look(first, &before, start),
            [(1, 1, r#"{"id":"b"}"#.into())]
        );
        assert_eq!(
            watch.counts(),
            [(Mark::New, 1), (Mark::Changed, 1), (Mark::Gone, 1)]
        );
        assert_eq!(watch.was.get("a").map(|w| &**w), Some("{}"));
        let again = || LookDiff {
            absent: vec![(1, 1, r#"{"id":"b"}"#.to_owned())],
            ..LookDiff::default()
        };
        for look in 1..MARK_LOOKS {
            let shown = watch.take_look(again(), &before, start);
            assert_eq!(shown.len(), 1, "still shown at look {look}");
        }
        assert_eq!(watch.take_look(again(), &before, start), []);
        assert_eq!(watch.counts().map(|(_, n)| n), [0, 0, 0]);
        assert!(watch.was.is_empty(), "the text before goes with its mark");

        watch.failed("down".into(), start);
        assert_eq!(watch.next_at, start + Duration::from_secs(10));
    }

    fn ids(listing: &Listing) -> Vec<String> {
        (listing.rows.iter())
            .map(|r| r.id().unwrap().to_string())
            .collect()
    }

    /// A look's rows take in the gone rows at their places, with their JSON and texts; the
    /// look's side then shows them as gone, `d` reads the changed row's text before, and
    /// `:watch off` takes the gone rows out.
    #[test]
    fn a_look_puts_its_gone_rows_in_and_watch_off_takes_them_out() {
        let now = Instant::now();
        let mut watch = Watch::new(Duration::from_secs(5), now);
        let gone = r#"{"id":"b","name":"bee"}"#;
        let shown = [json!({"id": "a"}), serde_json::from_str(gone).unwrap()];
        let before = Rows::of_values(shown.into_iter().chain([json!({"id": "c"})]));
        let (rows, bodies) = Rows::with_bodies([
            json!({"id": "a", "n": 1}),
            json!({"id": "c"}),
            json!({"id": "d"}),
        ]);
        let mut look = Listing::default();
        (look.rows, look.bodies) = (rows, bodies);
        let diff = LookDiff {
            new: vec!["d".into()],
            changed: vec![("a".into(), r#"{"id":"a"}"#.into(), 0)],
            absent: vec![(1, 1, gone.to_owned())],
        };
        let found = look.take_look(&mut watch, diff, &before, now);
        let now_of = |row: Row| found.bodies.read(row.body).unwrap();
        assert_eq!(
            found.of("a", r#"{"id":"a"}"#).map(|a| a.map(now_of)),
            Some(Some(r#"{"id":"a","n":1}"#.to_owned())),
            "a detail holding a's text before follows it"
        );
        assert_eq!(
            found.of("a", r#"{"id":"a","n":1}"#),
            None,
            "not the text before"
        );
        assert_eq!(found.of("b", gone), Some(None), "gone");
        assert_eq!(found.of("c", r#"{"id":"c"}"#), None, "unchanged");
        assert_eq!(ids(&look), ["a", "b", "c", "d"]);
        let row = look.rows.at(1);
        assert_eq!(row.title().as_deref(), Some("bee"));
        assert_eq!(look.bodies.read(row.body).unwrap(), gone);
        let side = look.side(Some(&watch));
        assert_eq!(side.gone, [false, true, false, false]);
        assert!(side.whole && side.ids[3].as_deref() == Some("d"));
        assert_eq!(watch.text_before(look.rows.at(0)), Some(r#"{"id":"a"}"#));
        assert_eq!(watch.text_before(look.rows.at(3)), None, "new, not changed");
        let news: Vec<bool> = look.rows.iter().map(|r| watch.is_news(r)).collect();
        assert_eq!(news, [true, false, false, true]);

        let mut failed = watch.clone();
        failed.forget_gone();
        assert_eq!(failed.counts().map(|(_, n)| n), [1, 1, 0]);
        failed.forget_marks();
        assert!(failed.marks.is_empty() && failed.was.is_empty());
        look.drop_ids(&watch.into_gone());
        assert_eq!(ids(&look), ["a", "c", "d"]);
    }
}
