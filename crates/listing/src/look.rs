//! What a `:watch` look found: the rows on screen compared with those the look brought, by id
//! and by their JSON (read from the spill off the UI thread), and the marks it leaves.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::Arc;

use crate::bodies::{Bodies, BodyError, BodyId};
use crate::job::{Job, Progress};

/// What a look found about a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Not there at the look before.
    New,
    /// There before, with other JSON (any field).
    Changed,
    /// There before, not now: the row stays shown, struck through, until its mark ends.
    Gone,
}

impl Mark {
    /// What the row's name starts with, so that marks read without colour.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::New => "+",
            Mark::Changed => "~",
            Mark::Gone => "x",
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Mark::New => "new",
            Mark::Changed => "changed",
            Mark::Gone => "gone",
        }
    }
}

/// One listing as the comparison sees it: its rows' resource ids and bodies, where their JSON
/// is read (off the UI thread).
#[derive(Clone, Debug, Default)]
pub struct Side {
    pub bodies: Bodies,
    pub ids: Vec<Option<Box<str>>>,
    pub body: Vec<BodyId>,
    /// Rows shown although a look before found them gone.
    pub gone: Vec<bool>,
    /// Whether the rows are the whole listing.
    pub whole: bool,
}

/// Compares the rows on screen with those a look brought, off the UI thread (it reads every
/// row's JSON).
#[derive(Debug)]
pub struct CompareLook {
    /// The rows on screen, gone rows still shown included.
    pub before: Side,
    pub after: Side,
}

/// What a look found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct LookDiff {
    /// Ids of the rows that were not there before.
    pub new: Vec<Box<str>>,
    /// Ids of the rows whose JSON differs, each with its JSON text before (for `d`, shared
    /// with what a detail open on the row follows: [`Followed`]) and its index among the look's
    /// rows, whose body holds the text now: not a copy of each text now, held at once.
    pub changed: Vec<(Box<str>, Arc<str>, usize)>,
    /// Rows on screen the look did not bring, to show among its rows: (index among the rows
    /// before, index among the look's rows to show it at, its JSON), in order.
    pub absent: Vec<(usize, usize, String)>,
}

impl Job for CompareLook {
    /// Why the rows' JSON could not be read, if it could not.
    type Output = Result<LookDiff, String>;

    /// A cancelled look stops early; its answer is dropped anyway.
    fn run(&self, progress: &Progress) -> Self::Output {
        compare(self, progress).map_err(|e| e.to_string())
    }
}

/// How many rows' texts a comparison holds at once.
const CHUNK: usize = 1024;

/// Rows are matched by id; rows without one are never marked. A service that lists an id more
/// than once has its n-th row of that id matched with the n-th of the other side (so that copies
/// that differ are not compared with each other at every look); a copy the look no longer brings
/// is not shown gone while the id is still listed (marks go by id). A look goes as deep as the
/// rows on screen, not always to the same row: a row beyond the last row both have in common is
/// judged only if the side it is missing from was the whole listing (a row pushed past the
/// look's depth is not gone; a row the screen had not loaded yet is not new).
pub fn compare(look: &CompareLook, progress: &Progress) -> Result<LookDiff, BodyError> {
    let (before, after) = (&look.before, &look.after);
    let live = |i: usize| !before.gone[i];
    let before_key = Copies::of(&before.ids, live);
    let after_key = Copies::of(&after.ids, |_| true);
    let before_at: HashMap<(&str, u32), usize> = (0..before.ids.len())
        .filter_map(|i| Some((before_key.at(i)?, i)))
        .collect();
    let after_at: HashMap<(&str, u32), usize> = (0..after.ids.len())
        .filter_map(|i| Some((after_key.at(i)?, i)))
        .collect();
    let last_common_after = (0..after.ids.len()).rev().find(|&i| {
        after_key
            .at(i)
            .is_some_and(|key| before_at.contains_key(&key))
    });
    let last_common_before = (0..before.ids.len()).rev().find(|&i| {
        before_key
            .at(i)
            .is_some_and(|key| after_at.contains_key(&key))
    });
    let mut diff = LookDiff::default();
    // Rows in both: (index after, index before), their texts compared a chunk at a time.
    let mut both = Vec::new();
    for i in 0..after.ids.len() {
        let Some(key @ (id, _)) = after_key.at(i) else {
            continue;
        };
        match before_at.get(&key) {
            Some(&j) => both.push((i, j)),
            None if before.whole || last_common_after.is_some_and(|last| i < last) => {
                diff.new.push(id.into())
            }
            None => {}
        }
    }
    // No progress is reported: the comparison takes tens of milliseconds for 100,000 rows.
    for chunk in both.chunks(CHUNK) {
        if progress.cancelled() {
            break;
        }
        let was = texts(before, chunk.iter().map(|&(_, j)| j))?;
        let ids: Vec<BodyId> = chunk.iter().map(|&(i, _)| after.body[i]).collect();
        after.bodies.scan(&ids, |k, text| {
            if !same_json(&was[k], text)
                && let Some(id) = after.ids[chunk[k].0].as_deref()
            {
                diff.changed
                    .push((id.into(), was[k].as_str().into(), chunk[k].0));
            }
            ControlFlow::Continue(())
        })?;
    }
    // Where each absent row goes: after the row it followed, where that row is now.
    let mut absent = Vec::new();
    let mut at = 0;
    for (i, id) in before.ids.iter().enumerate() {
        let Some(id) = id.as_deref() else {
            continue;
        };
        // A copy of an id still listed (not the same copy) is not shown gone: the marks of
        // its id are the listed rows'.
        let still = (before_key.at(i).and_then(|key| after_at.get(&key)))
            .or_else(|| after_at.get(&(id, 0)));
        if let Some(&now) = still {
            at = at.max(now + 1);
            continue;
        }
        let judged = after.whole || last_common_before.is_some_and(|last| i < last);
        if judged || before.gone[i] {
            absent.push((i, at));
        }
    }
    let json = texts(before, absent.iter().map(|&(i, _)| i))?;
    diff.absent = (absent.into_iter().zip(json))
        .map(|((i, at), json)| (i, at, json))
        .collect();
    Ok(diff)
}

/// Which copy of its id each row of a side is: how many rows of the same id come before it
/// among those counted.
struct Copies<'a> {
    ids: &'a [Option<Box<str>>],
    nth: Vec<u32>,
}

impl<'a> Copies<'a> {
    /// Not counted: [`Copies::at`] gives `None` for them.
    const NOT: u32 = u32::MAX;

    fn of(ids: &'a [Option<Box<str>>], counted: impl Fn(usize) -> bool) -> Self {
        let mut seen: HashMap<&str, u32> = HashMap::with_capacity(ids.len());
        let nth = (ids.iter().enumerate())
            .map(|(i, id)| match id.as_deref().filter(|_| counted(i)) {
                Some(id) => {
                    let copies = seen.entry(id).or_insert(0);
                    *copies += 1;
                    *copies - 1
                }
                None => Self::NOT,
            })
            .collect();
        Copies { ids, nth }
    }

    /// Row `i`'s id and which copy of it it is; `None` without an id or not counted.
    fn at(&self, i: usize) -> Option<(&'a str, u32)> {
        let nth = self.nth[i];
        let id = self.ids[i].as_deref()?;
        (nth != Self::NOT).then_some((id, nth))
    }
}

/// Whether two texts of a row are the same JSON: the same bytes, or the same values laid out
/// otherwise (a service may space its JSON, or escape what needs no escape, differently from one
/// look to the next). Numbers are compared as they were sent (`1.0` is not `1`), objects by their
/// members whatever their order.
fn same_json(was: &str, now: &str) -> bool {
    if was == now {
        return true;
    }
    match (
        serde_json::from_str::<serde_json::Value>(was),
        serde_json::from_str::<serde_json::Value>(now),
    ) {
        (Ok(was), Ok(now)) => was == now,
        _ => false,
    }
}

/// The JSON texts of some of a side's rows, by index, in that order.
fn texts(side: &Side, rows: impl Iterator<Item = usize>) -> Result<Vec<String>, BodyError> {
    let ids: Vec<BodyId> = rows.map(|i| side.body[i]).collect();
    let mut out = Vec::with_capacity(ids.len());
    side.bodies.scan(&ids, |_, text| {
        out.push(text.to_owned());
        ControlFlow::Continue(())
    })?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rows::Rows;
    use serde_json::json;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    /// A whole listing of rows `(id, name)`, as a look's comparison sees it.
    fn side(rows: &[(&str, &str)]) -> Side {
        let values = rows
            .iter()
            .map(|(id, name)| json!({"id": id, "name": name}));
        let (rows, bodies) = Rows::with_bodies(values);
        Side {
            bodies,
            ids: rows.iter().map(|r| r.id().map(Box::<str>::from)).collect(),
            body: rows.iter().map(|r| r.body).collect(),
            gone: vec![false; rows.len()],
            whole: true,
        }
    }

    fn diff(before: &[(&str, &str)], after: &[(&str, &str)]) -> LookDiff {
        let look = CompareLook {
            before: side(before),
            after: side(after),
        };
        let progress = Progress::new(|_, _| {}, Arc::new(AtomicBool::new(false)));
        compare(&look, &progress).unwrap()
    }

    /// A tester's finding: a service that lists ids twice had every such row marked changed at
    /// every look, each copy compared with the other. The n-th copy is compared with the n-th.
    #[test]
    fn copies_of_an_id_are_compared_copy_by_copy() {
        let rows = [("d0", "n0"), ("d1", "n1"), ("d0", "n4"), ("d1", "n5")];
        assert_eq!(diff(&rows, &rows), LookDiff::default(), "nothing flaps");
        let renamed = [("d0", "n0"), ("d1", "n1"), ("d0", "n4"), ("d1", "n9")];
        let found = diff(&rows, &renamed);
        assert_eq!(found.changed.len(), 1, "{found:?}");
        assert_eq!(&*found.changed[0].0, "d1");
        assert_eq!(&*found.changed[0].1, r#"{"id":"d1","name":"n5"}"#);
        assert_eq!(
            found.changed[0].2, 3,
            "the copy renamed, among the look's rows"
        );
        assert_eq!((found.new.len(), found.absent.len()), (0, 0));
        // A copy dropped while the id is still listed is not shown gone (marks go by id).
        let fewer = [("d0", "n0"), ("d1", "n1"), ("d1", "n5")];
        let found = diff(&rows, &fewer);
        assert!(found.absent.is_empty(), "{found:?}");
        let found = diff(&rows, &[("d1", "n1"), ("d1", "n5")]);
        assert_eq!(found.absent.iter().map(|a| a.0).collect::<Vec<_>>(), [0, 2]);
    }
}
