//! Rows marked with `Space` (as k9s marks them), for `:export`, `y` and `R` to act on several
//! rows at once. Kept by resource id, so that a mark stays on its resource when the rows are
//! fetched again (`r`, a `:watch` look, a reload after a report), and is not undone by a filter.
//! Marks belong to the rows of one listing: a mark is on a row the list holds (a new listing
//! forgets them all, rows fetched again keep those still there: [`Picks::keep_held`]), so that
//! the title, `y`, `:export` and `R` count and take the same rows.

use std::collections::{BTreeSet, HashSet};

use crate::bodies::BodyId;
use crate::loader::Listing;
use crate::look::Mark;
use crate::row::RowView;
use crate::rows::Rows;
use crate::shown::Shown;
use crate::watch::Watch;

/// Of the marked rows `y`, `:export` and `R` take, those said apart: `gone`, left out as a
/// `:watch` look found them gone; `hidden` by the filters (`/`, `:where`...), taken all the same,
/// so that a message that counts them says how many the screen does not show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MarkedApart {
    pub gone: usize,
    pub hidden: usize,
}

/// The ids of the rows marked.
#[derive(Clone, Debug, Default)]
pub struct Picks {
    ids: BTreeSet<Box<str>>,
    /// Of `ids`, those with a row shown, kept as the rows shown change ([`Picks::see_from`]):
    /// the title says how many marked rows the filters hide ([`Picks::apart`]) on every frame,
    /// and reading it off the rows cost a scan of them all (`benches/tui_frame.rs`, a key and
    /// its frame over 100,000 rows with 3 marked: median 20.1 ms, 0.29 ms
    /// with this, as with none marked).
    shown: BTreeSet<Box<str>>,
}

impl Picks {
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The ids marked, in their order.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.ids.iter().map(|id| &**id)
    }

    pub fn clear(&mut self) {
        self.ids.clear();
        self.shown.clear();
    }

    /// Marks the row of resource `id`, a row shown (`Space` marks the cursor's), or unmarks it;
    /// or says why it cannot be.
    pub fn toggle(&mut self, id: Option<Box<str>>) -> Result<(), &'static str> {
        let id = id.ok_or("this row has no id to mark it by")?;
        if self.ids.remove(&id) {
            self.shown.remove(&id);
        } else {
            self.shown.insert(id.clone());
            self.ids.insert(id);
        }
        Ok(())
    }

    pub fn contains(&self, row: RowView<'_>) -> bool {
        !self.ids.is_empty() && row.id().is_some_and(|id| self.ids.contains(&*id))
    }

    /// The rows `shown` (of `listing`) changed from place `from` on, the places before it kept
    /// (`0`: the rows shown are new): which marked ones have a row shown, for [`Picks::apart`].
    /// A scan of those rows, only while rows are marked.
    pub fn see_from(&mut self, listing: Option<&Listing>, shown: &Shown, from: usize) {
        if from == 0 {
            self.shown.clear();
        }
        let Some(listing) = listing.filter(|_| !self.ids.is_empty()) else {
            return;
        };
        for i in shown.range(from..shown.len()) {
            let id = listing.rows.at(i).id();
            if let Some(id) =
                id.filter(|id| self.ids.contains(&**id) && !self.shown.contains(&**id))
            {
                self.shown.insert(Box::from(&*id));
            }
        }
    }

    /// With rows marked, those [`Listing::marked`] says apart (how many a `watch` found gone,
    /// how many the filters hide), as the rows shown were last seen ([`Picks::see_from`]):
    /// over the marks, not the rows, for the title on every frame.
    pub fn apart(&self, watch: Option<&Watch>) -> MarkedApart {
        let is_gone =
            |id: &str| watch.and_then(|w| w.marks.get(id)).map(|m| m.0) == Some(Mark::Gone);
        let mut apart = MarkedApart::default();
        for id in &self.ids {
            if is_gone(id) {
                apart.gone += 1;
            } else {
                apart.hidden += usize::from(!self.shown.contains(id));
            }
        }
        apart
    }

    /// The marked rows loaded (by index): those `shown`, in their order, then those the
    /// filters hide, in the listing's order. A mark is on a resource: of rows that share an id
    /// (a service that lists one twice), the first is taken, so that the title's count of marks
    /// is what `y`, `:export` and `R` take.
    pub fn rows(&self, shown: &Shown, rows: &Rows) -> Vec<usize> {
        self.rows_and_shown(shown, rows).0
    }

    /// [`Picks::rows`], and how many of them (the first) are shown.
    fn rows_and_shown(&self, shown: &Shown, rows: &Rows) -> (Vec<usize>, usize) {
        if self.ids.is_empty() {
            return (Vec::new(), 0);
        }
        let mut taken: HashSet<Box<str>> = HashSet::with_capacity(self.ids.len());
        let mut take = |i: usize| {
            let id = rows.at(i).id().filter(|id| self.ids.contains(&**id));
            id.is_some_and(|id| taken.insert(Box::from(&*id)))
        };
        let marked: Vec<usize> = shown.iter().filter(|&i| take(i)).collect();
        // A row shown was taken above: its id is in `taken`, so `take` passes over it here.
        let hidden: Vec<usize> = (0..rows.len()).filter(|&i| take(i)).collect();
        let count = marked.len();
        (marked.into_iter().chain(hidden).collect(), count)
    }

    /// The service accepted the reports about `ids`: they are no longer marked.
    pub fn remove_all(&mut self, ids: &[Box<str>]) {
        for id in ids {
            self.ids.remove(id);
            self.shown.remove(id);
        }
    }

    /// The rows were replaced (fetched again, or gone rows taken out): only the marks on rows
    /// the list still holds stay, so none counts or is taken for a row no longer there.
    pub fn keep_held(&mut self, listing: Option<&Listing>) {
        let Some(listing) = listing.filter(|_| !self.ids.is_empty()) else {
            self.clear();
            return;
        };
        let held: BTreeSet<Box<str>> = (listing.rows.iter())
            .filter_map(|r| r.id().filter(|id| self.ids.contains(&**id)))
            .map(|id| Box::from(&*id))
            .collect();
        self.ids = held;
        let ids = &self.ids;
        self.shown.retain(|id| ids.contains(id));
    }
}

impl Listing {
    /// The rows `:export` writes, by body: the marked ones when there are any (as
    /// [`Listing::marked`] takes them: none when every one is gone) with those said apart,
    /// else those `shown` less the rows a `watch` still shows as gone, as the service no longer
    /// has them.
    pub fn to_export(
        &self,
        shown: &Shown,
        picks: &Picks,
        watch: Option<&Watch>,
    ) -> (Vec<BodyId>, Option<MarkedApart>) {
        let body = |i: usize| self.rows.at(i).body;
        if picks.is_empty() {
            let live = (shown.iter()).filter(|&i| !is_gone(self.rows.at(i), watch));
            return (live.map(body).collect(), None);
        }
        let (rows, apart) = self.marked(shown, picks, watch);
        (rows.into_iter().map(body).collect(), Some(apart))
    }

    /// The marked rows `y`, `:export` and `R` take (by index, as [`Picks::rows`] orders them:
    /// the list's order) less those a `watch` shows as gone (no resources of the service any
    /// more), and how many those were and how many of those taken the filters hide.
    pub fn marked(
        &self,
        shown: &Shown,
        picks: &Picks,
        watch: Option<&Watch>,
    ) -> (Vec<usize>, MarkedApart) {
        let (rows, shown) = picks.rows_and_shown(shown, &self.rows);
        let mut apart = MarkedApart::default();
        let mut live = Vec::with_capacity(rows.len());
        for (at, i) in rows.into_iter().enumerate() {
            if is_gone(self.rows.at(i), watch) {
                apart.gone += 1;
            } else {
                apart.hidden += usize::from(at >= shown);
                live.push(i);
            }
        }
        (live, apart)
    }

    /// The marked rows `R` reports on, as [`Listing::marked`] takes them: each resource's id and
    /// JSON text, and how many gone rows were left out; or why a row's JSON could not be read.
    #[allow(clippy::type_complexity)]
    pub fn marked_texts(
        &self,
        shown: &Shown,
        picks: &Picks,
        watch: Option<&Watch>,
    ) -> Result<(Vec<(Box<str>, String)>, MarkedApart), String> {
        let (rows, gone) = self.marked(shown, picks, watch);
        let mut texts = Vec::with_capacity(rows.len());
        for row in rows.into_iter().map(|i| self.rows.at(i)) {
            let Some(id) = row.id() else { continue };
            match self.bodies.read(row.body) {
                Ok(text) => texts.push((Box::from(&*id), text)),
                Err(error) => {
                    let id = crate::sanitize::line(&id).into_owned();
                    return Err(format!("cannot read the resource {id}: {error}"));
                }
            }
        }
        Ok((texts, gone))
    }

    /// The ids of the marked rows `y` copies, as [`Listing::marked`] takes them, and those said
    /// apart.
    pub fn marked_ids(
        &self,
        shown: &Shown,
        picks: &Picks,
        watch: Option<&Watch>,
    ) -> (Vec<String>, MarkedApart) {
        let (rows, gone) = self.marked(shown, picks, watch);
        let ids = rows
            .into_iter()
            .filter_map(|i| self.rows.at(i).id().map(|id| id.to_string()));
        (ids.collect(), gone)
    }
}

fn is_gone(row: RowView<'_>, watch: Option<&Watch>) -> bool {
    watch.and_then(|w| w.mark(row)) == Some(Mark::Gone)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Marks go by id: the marked rows come shown first, in the order shown, then the hidden
    /// ones; a row without an id cannot be marked, and a report accepted unmarks its row.
    #[test]
    fn marked_rows_come_shown_first_then_hidden_by_id() {
        let rows = Rows::of_values([
            json!({"id": "a"}),
            json!({"id": "b"}),
            json!({"name": "no id"}),
            json!({"id": "c"}),
        ]);
        let mut picks = Picks::default();
        let id = |i: usize| rows.at(i).id().map(Box::<str>::from);
        for i in [0, 1, 3] {
            picks.toggle(id(i)).unwrap();
        }
        assert!(picks.toggle(id(2)).is_err());
        assert_eq!(picks.len(), 3);
        let shown = Shown::from(vec![3, 2, 1]);
        assert_eq!(picks.rows(&shown, &rows), [3, 1, 0]);
        picks.toggle(id(1)).unwrap();
        assert!(!picks.contains(rows.at(1)) && picks.contains(rows.at(3)));
        picks.remove_all(&["a".into()]);
        assert_eq!(picks.rows(&shown, &rows), [3]);
        picks.clear();
        assert!(picks.is_empty() && picks.rows(&shown, &rows).is_empty());
    }

    /// A tester's finding: one `Space` on an id the service listed twice said `1 marked`, and
    /// `:export` wrote `2 marked rows`. A mark is on a resource, taken once.
    #[test]
    fn rows_that_share_a_marked_id_are_taken_once() {
        let mut listing = Listing::default();
        let values = ["d0", "d1", "d0"].map(|id| json!({"id": id}));
        (listing.rows, listing.bodies) = Rows::with_bodies(values);
        let mut picks = Picks::default();
        picks.toggle(Some("d0".into())).unwrap();
        let shown = Shown::from(vec![2, 1, 0]);
        assert_eq!(picks.rows(&shown, &listing.rows), [2], "the first shown");
        let (ids, _) = listing.marked_ids(&shown, &picks, None);
        assert_eq!(ids.len(), picks.len(), "y copies what the title counts");
        let hidden = Shown::from(vec![1]);
        assert_eq!(picks.rows(&hidden, &listing.rows), [0], "the first hidden");
    }

    /// A watch whose last look found the first of `rows` gone from the service.
    fn first_row_gone(rows: &Rows) -> Watch {
        use crate::look::LookDiff;
        use std::time::{Duration, Instant};
        let now = Instant::now();
        let mut watch = Watch::new(Duration::from_secs(5), now);
        let diff = LookDiff {
            absent: vec![(0, 0, "{}".into())],
            ..LookDiff::default()
        };
        watch.take_look(diff, rows, now);
        watch
    }

    /// `:export` writes the marked rows when there are any, else those shown, never a row a
    /// watch shows as gone.
    #[test]
    fn export_takes_the_marked_rows_else_those_shown_and_never_gone_ones() {
        let mut listing = Listing::default();
        let values = (0..4).map(|i| json!({"id": format!("r{i}")}));
        (listing.rows, listing.bodies) = Rows::with_bodies(values);
        let body = |i: usize| listing.rows.at(i).body;
        let shown = Shown::from(vec![2, 0, 3]);
        let mut picks = Picks::default();
        assert_eq!(
            listing.to_export(&shown, &picks, None).0,
            [2, 0, 3].map(body)
        );
        let watch = first_row_gone(&listing.rows);
        assert_eq!(
            listing.to_export(&shown, &picks, Some(&watch)).0,
            [2, 3].map(body)
        );
        picks.toggle(Some("r1".into())).unwrap();
        picks.toggle(Some("r3".into())).unwrap();
        assert_eq!(listing.to_export(&shown, &picks, None).0, [3, 1].map(body));
        // Every marked row gone: nothing, never the rows shown instead.
        picks.clear();
        picks.toggle(Some("r0".into())).unwrap();
        assert_eq!(listing.to_export(&shown, &picks, Some(&watch)).0, []);
        assert_eq!(picks.apart(Some(&watch)).gone, 1);
    }

    /// Marks are on rows held: rows fetched again without a marked resource take its mark away,
    /// no listing takes them all; `y` and `R` take the marked rows in the same order, less
    /// those gone, and say how many were.
    #[test]
    fn marks_stay_on_rows_held_and_y_and_r_take_them_alike() {
        let mut listing = Listing::default();
        let values = ["a", "b", "c"].map(|id| json!({"id": id}));
        (listing.rows, listing.bodies) = Rows::with_bodies(values);
        let mut picks = Picks::default();
        for id in ["c", "a", "x"] {
            picks.toggle(Some(id.into())).unwrap();
        }
        picks.keep_held(Some(&listing));
        assert_eq!(
            picks.iter().collect::<Vec<_>>(),
            ["a", "c"],
            "x is not held"
        );
        let shown = Shown::from(vec![2, 1, 0]);
        let watch = first_row_gone(&listing.rows);
        assert_eq!(picks.apart(Some(&watch)).gone, 1, "a is gone");
        assert_eq!(picks.apart(None).gone, 0);
        let (ids, gone) = listing.marked_ids(&shown, &picks, None);
        let none_apart = MarkedApart::default();
        assert_eq!(
            (ids, gone),
            (vec!["c".to_owned(), "a".to_owned()], none_apart)
        );
        let (texts, gone) = listing.marked_texts(&shown, &picks, Some(&watch)).unwrap();
        assert_eq!(texts, [("c".into(), r#"{"id":"c"}"#.to_owned())]);
        assert_eq!(gone, MarkedApart { gone: 1, hidden: 0 });
        // A filter that shows only c: a is taken all the same, and counted as hidden.
        let only_c = Shown::from(vec![2]);
        let (ids, apart) = listing.marked_ids(&only_c, &picks, None);
        assert_eq!(ids, ["c", "a"]);
        assert_eq!(apart, MarkedApart { gone: 0, hidden: 1 });
        let (_, apart) = listing.marked(&only_c, &picks, Some(&watch));
        assert_eq!(
            apart,
            MarkedApart { gone: 1, hidden: 0 },
            "a gone, not hidden"
        );
        picks.keep_held(None);
        assert!(picks.is_empty(), "no listing, no marks");
    }

    /// The title's count of marked rows apart, kept as the rows shown change
    /// ([`Picks::see_from`]), is the one `y`, `:export` and `R` work out from the rows, after
    /// each change: a filter, rows shown added, a mark, a look finding one gone, rows replaced.
    #[test]
    fn marks_said_apart_are_kept_as_the_rows_shown_change() {
        let mut listing = Listing::default();
        let values = ["a", "b", "c", "d", "a"].map(|id| json!({"id": id}));
        (listing.rows, listing.bodies) = Rows::with_bodies(values);
        let mut picks = Picks::default();
        let agree = |listing: &Listing,
                     picks: &Picks,
                     shown: &Shown,
                     watch: Option<&Watch>,
                     hidden: usize| {
            let apart = picks.apart(watch);
            assert_eq!(apart, listing.marked(shown, picks, watch).1);
            assert_eq!(apart.hidden, hidden);
        };
        let all = Shown::from(vec![0, 1, 2, 3, 4]);
        picks.see_from(Some(&listing), &all, 0);
        for id in ["a", "c", "d"] {
            picks.toggle(Some(id.into())).unwrap();
        }
        agree(&listing, &picks, &all, None, 0);
        // A filter shows b and the second a: c and d hidden.
        let mut shown = Shown::from(vec![1, 4]);
        picks.see_from(Some(&listing), &shown, 0);
        agree(&listing, &picks, &shown, None, 2);
        // Rows shown added (a page, or sorted in): d shows.
        shown.extend([3]);
        picks.see_from(Some(&listing), &shown, 2);
        agree(&listing, &picks, &shown, None, 1);
        picks.toggle(Some("c".into())).unwrap();
        agree(&listing, &picks, &shown, None, 0);
        picks.toggle(Some("b".into())).unwrap();
        agree(&listing, &picks, &shown, None, 0);
        // A look found a gone: counted gone, not shown nor hidden.
        let watch = first_row_gone(&listing.rows);
        let none = Shown::default();
        picks.see_from(Some(&listing), &none, 0);
        agree(&listing, &picks, &none, Some(&watch), 2);
        // Rows replaced without d: its mark goes, and with it its count.
        (listing.rows, listing.bodies) = Rows::with_bodies(["a", "b"].map(|id| json!({"id": id})));
        picks.keep_held(Some(&listing));
        let shown = Shown::from(vec![1]);
        picks.see_from(Some(&listing), &shown, 0);
        agree(&listing, &picks, &shown, None, 1);
        picks.remove_all(&["a".into()]);
        agree(&listing, &picks, &shown, None, 0);
    }
}
