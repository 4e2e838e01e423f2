//! The rows the list shows, in their order: each one's index in the listing, in four bytes
//! rather than the eight of a `usize` (at 100,000 rows, 0.4 MB less resident:
//! `benches/memory.sh`). A listing never holds 4 billion rows: memory runs out long before.

use std::ops::Range;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shown(Vec<u32>);

impl Shown {
    /// No rows yet, room for `count`.
    pub fn with_capacity(count: usize) -> Shown {
        Shown(Vec::with_capacity(count))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The row (its index in the listing) shown at `at`.
    pub fn get(&self, at: usize) -> Option<usize> {
        self.0.get(at).map(|&row| row as usize)
    }

    /// The rows shown, in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = usize> + ExactSizeIterator + Clone + '_ {
        self.0.iter().map(|&row| row as usize)
    }

    /// The rows shown at the places of `range` (cut to those there are).
    pub fn range(&self, range: Range<usize>) -> impl ExactSizeIterator<Item = usize> + '_ {
        let end = range.end.min(self.0.len());
        self.0[range.start.min(end)..end]
            .iter()
            .map(|&row| row as usize)
    }

    /// Where `row` is shown.
    pub fn position(&self, row: usize) -> Option<usize> {
        self.0.iter().position(|&r| r as usize == row)
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// The rows shown from `at` on, taken out.
    pub fn split_off(&mut self, at: usize) -> Vec<usize> {
        let tail = self.0.split_off(at.min(self.0.len()));
        tail.into_iter().map(|row| row as usize).collect()
    }

    /// The bytes held, for `benches/row_memory.rs`.
    pub fn capacity_bytes(&self) -> usize {
        self.0.capacity() * size_of::<u32>()
    }
}

impl Extend<usize> for Shown {
    fn extend<I: IntoIterator<Item = usize>>(&mut self, rows: I) {
        self.0.extend(rows.into_iter().map(index));
    }
}

impl FromIterator<usize> for Shown {
    fn from_iter<I: IntoIterator<Item = usize>>(rows: I) -> Shown {
        Shown(rows.into_iter().map(index).collect())
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
}
