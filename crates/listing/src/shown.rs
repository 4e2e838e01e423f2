//! The rows the list shows, in their order. While nothing filters or sorts them away, they are
//! the listing's first rows in its order, and only their count is kept (at 100,000 rows, 0.5 MB
//! less resident than a list of them: `benches/row_memory.rs`); once the rows shown are any
//! others, each one's index in the listing, in four bytes rather than the eight of a `usize`.
//! A listing never holds 4 billion rows: memory runs out long before.

use std::ops::Range;

use crate::ordering::{SortSpec, merge_sorted};
use crate::rows::Rows;

#[derive(Clone, Debug, Default)]
pub struct Shown {
    /// The rows shown are the listing's first `first` ones, in order (`listed` is empty then).
    first: usize,
    /// Else the rows shown, by their index.
    listed: Vec<u32>,
    /// How many rows the list is made for when they come to be listed (see
    /// [`Shown::with_capacity`]).
    room: usize,
}

impl Shown {
    /// No rows yet, room for `count` once they are listed (while they are counted, none is
    /// taken).
    pub fn with_capacity(count: usize) -> Shown {
        Shown {
            room: count,
            ..Shown::default()
        }
    }

    pub fn len(&self) -> usize {
        self.first + self.listed.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The row (its index in the listing) shown at `at`.
    pub fn get(&self, at: usize) -> Option<usize> {
        match self.listed.is_empty() {
            true => (at < self.first).then_some(at),
            false => self.listed.get(at).map(|&row| row as usize),
        }
    }

    /// The rows shown, in order.
    pub fn iter(&self) -> Iter<'_> {
        self.range(0..self.len())
    }

    /// The rows shown at the places of `range` (cut to those there are).
    pub fn range(&self, range: Range<usize>) -> Iter<'_> {
        let end = range.end.min(self.len());
        let start = range.start.min(end);
        match self.listed.is_empty() {
            true => Iter::First(start..end),
            false => Iter::Listed(self.listed[start..end].iter()),
        }
    }

    /// Where `row` is shown.
    pub fn position(&self, row: usize) -> Option<usize> {
        match self.listed.is_empty() {
            true => (row < self.first).then_some(row),
            false => self.listed.iter().position(|&r| r as usize == row),
        }
    }

    /// No rows shown; the list of them is let go (it would stay resident while they are
    /// counted again).
    pub fn clear(&mut self) {
        *self = Shown::default();
    }

    /// The rows shown from `at` on, taken out.
    pub fn split_off(&mut self, at: usize) -> Vec<usize> {
        if self.listed.is_empty() {
            let tail = (at.min(self.first)..self.first).collect();
            self.first = self.first.min(at);
            return tail;
        }
        let tail = self.listed.split_off(at.min(self.listed.len()));
        tail.into_iter().map(|row| row as usize).collect()
    }

    /// The bytes held, for `benches/row_memory.rs`.
    /// Where the row of resource `id` is among those shown from `from` on.
    pub fn find_id(&self, rows: &Rows, id: &str, from: usize) -> Option<usize> {
        let at =
            (self.range(from..self.len())).position(|i| rows.at(i).id().as_deref() == Some(id));
        at.map(|at| at + from)
    }

    /// The first place after `from` (before it, `backward`), round the end, whose row `wanted`.
    pub fn find_round(
        &self,
        from: usize,
        backward: bool,
        wanted: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        let len = self.len();
        let at = |step| match backward {
            false => (from + step) % len,
            true => (from + len - step % len) % len,
        };
        (1..=len)
            .map(at)
            .find(|&at| self.get(at).is_some_and(&wanted))
    }

    /// These rows (of `count` loaded) in the order of `order` (every loaded row's index, once
    /// each).
    pub fn in_order(&self, order: impl Iterator<Item = usize>, count: usize) -> Shown {
        let mut passes = vec![false; count];
        for i in self.iter() {
            passes[i] = true;
        }
        order.filter(|&i| passes[i]).collect()
    }

    /// The rows from `first` on (a page's, appended) merged where they belong among those
    /// before, which are in `spec`'s order.
    pub fn merge_from(&mut self, first: usize, rows: &Rows, spec: SortSpec) {
        let new = self.split_off(first);
        let mut merged: Vec<usize> = self.iter().collect();
        merge_sorted(&mut merged, new, rows, spec);
        *self = merged.into();
    }

    pub fn capacity_bytes(&self) -> usize {
        self.listed.capacity() * size_of::<u32>()
    }
}

/// The same rows in the same order, however they are kept.
impl PartialEq for Shown {
    fn eq(&self, other: &Shown) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Shown {}

impl Extend<usize> for Shown {
    /// Counted while they go on being the listing's next rows; listed from the first that is
    /// not (those counted before it listed too).
    fn extend<I: IntoIterator<Item = usize>>(&mut self, rows: I) {
        let mut rows = rows.into_iter();
        if self.listed.is_empty() {
            for row in rows.by_ref() {
                if row == self.first {
                    self.first += 1;
                    continue;
                }
                let room = self.room.max(self.first + 1 + rows.size_hint().0);
                self.listed.reserve_exact(room);
                self.listed.extend((0..self.first).chain([row]).map(index));
                self.first = 0;
                break;
            }
        }
        self.listed.extend(rows.map(index));
    }
}

impl FromIterator<usize> for Shown {
    fn from_iter<I: IntoIterator<Item = usize>>(rows: I) -> Shown {
        let mut shown = Shown::default();
        shown.extend(rows);
        shown
    }
}

impl From<Vec<usize>> for Shown {
    fn from(rows: Vec<usize>) -> Shown {
        rows.into_iter().collect()
    }
}

/// A row's index in four bytes (see the module's doc).
fn index(row: usize) -> u32 {
    u32::try_from(row).unwrap_or(u32::MAX)
}

/// The rows shown, as [`Shown::iter`] and [`Shown::range`] give them.
#[derive(Clone)]
pub enum Iter<'a> {
    First(Range<usize>),
    Listed(std::slice::Iter<'a, u32>),
}

impl Iterator for Iter<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        match self {
            Iter::First(rows) => rows.next(),
            Iter::Listed(rows) => rows.next().map(|&row| row as usize),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Iter::First(rows) => rows.size_hint(),
            Iter::Listed(rows) => rows.size_hint(),
        }
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<usize> {
        match self {
            Iter::First(rows) => rows.next_back(),
            Iter::Listed(rows) => rows.next_back().map(|&row| row as usize),
        }
    }
}

impl ExactSizeIterator for Iter<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_go_in_and_come_out_in_order() {
        let mut shown: Shown = [3, 1, 4].into_iter().collect();
        shown.extend([1, 5]);
        assert_eq!(shown.iter().collect::<Vec<_>>(), [3, 1, 4, 1, 5]);
        assert_eq!((shown.get(2), shown.get(5)), (Some(4), None));
        assert_eq!(shown.position(1), Some(1));
        assert_eq!(shown.range(3..9).collect::<Vec<_>>(), [1, 5]);
        assert_eq!(shown.range(7..9).len(), 0);
        assert_eq!(shown.split_off(3), [1, 5]);
        assert_eq!(shown, Shown::from(vec![3, 1, 4]));
        assert_eq!(shown.capacity_bytes() % 4, 0);
    }

    /// The listing's first rows in order are only counted, page after page; the first other
    /// row lists them all, and every way of reading them agrees throughout.
    #[test]
    fn the_first_rows_in_order_are_counted_until_another_comes() {
        let mut shown = Shown::default();
        shown.extend(0..500);
        shown.extend(500..1000);
        assert_eq!(shown.capacity_bytes(), 0, "counted, not listed");
        assert_eq!(shown.len(), 1000);
        assert_eq!((shown.get(999), shown.get(1000)), (Some(999), None));
        assert_eq!((shown.position(7), shown.position(1000)), (Some(7), None));
        assert_eq!(shown.range(998..2000).collect::<Vec<_>>(), [998, 999]);
        assert_eq!(shown.iter().next_back(), Some(999));
        assert_eq!(shown, (0..1000).collect::<Vec<_>>().into());
        shown.extend([1000, 1002, 1003]);
        assert!(shown.capacity_bytes() >= 1003 * 4, "listed from 1002 on");
        let all: Vec<usize> = (0..=1000).chain([1002, 1003]).collect();
        assert_eq!(shown.iter().collect::<Vec<_>>(), all);
        assert_eq!(
            (shown.get(1001), shown.position(1002)),
            (Some(1002), Some(1001))
        );
        assert_eq!(shown.iter().len(), 1003);

        let mut counted: Shown = (0..10).collect();
        assert_eq!(counted.split_off(6), [6, 7, 8, 9]);
        assert_eq!(counted.iter().collect::<Vec<_>>(), [0, 1, 2, 3, 4, 5]);
        counted.extend([6, 9]);
        assert_eq!(counted.iter().collect::<Vec<_>>(), [0, 1, 2, 3, 4, 5, 6, 9]);
        counted.clear();
        assert!(counted.is_empty());
        counted.extend([0, 1]);
        assert_eq!(counted.capacity_bytes(), 0, "counted again once cleared");
        let sorted: Shown = [2, 0, 1].into_iter().collect();
        assert_eq!(sorted.iter().collect::<Vec<_>>(), [2, 0, 1]);

        let mut sized = Shown::with_capacity(100);
        sized.extend(0..10);
        assert_eq!(sized.capacity_bytes(), 0, "nothing taken while counted");
        sized.extend([20, 30]);
        assert_eq!(sized.capacity_bytes(), 100 * 4, "made at its size");
        assert_eq!(sized.iter().collect::<Vec<_>>().len(), 12);
    }

    /// The list's moves over the rows shown: a resource found by id past a place, the next
    /// row wanted round the end either way, a new order kept to the rows shown, and a page's
    /// rows merged into a sorted list.
    #[test]
    fn rows_shown_are_found_reordered_and_merged() {
        use crate::columns::Column;
        use serde_json::json;
        let names = ["d", "b", "e", "a", "c"];
        let rows = Rows::of_values(
            (names.iter().enumerate())
                .map(|(i, name)| json!({"id": format!("r{i}"), "name": name})),
        );
        let mut shown = Shown::from(vec![3, 1, 0]);
        assert_eq!(shown.find_id(&rows, "r0", 0), Some(2));
        assert_eq!(shown.find_id(&rows, "r3", 1), None, "before the place");
        let even = |i: usize| i.is_multiple_of(2);
        assert_eq!(shown.find_round(2, false, even), Some(2), "round to itself");
        assert_eq!(
            shown.find_round(2, true, |i| i != 0),
            Some(1),
            "back, not on"
        );
        assert_eq!(shown.find_round(1, false, even), Some(2));
        assert_eq!(Shown::default().find_round(0, true, even), None);
        assert_eq!(shown.in_order(0..5, 5), Shown::from(vec![0, 1, 3]));
        let spec = SortSpec {
            column: Column::Name,
            descending: false,
        };
        shown.extend([4, 2]);
        shown.merge_from(3, &rows, spec);
        assert_eq!(shown.iter().collect::<Vec<_>>(), [3, 1, 4, 0, 2]);
    }
}
