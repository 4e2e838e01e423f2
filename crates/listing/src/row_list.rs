//! A listing's rows in chunks of [`CHUNK_ROWS`], the full ones shared: a job over every row (the
//! first pass of `/` or `:where`, a sort) takes a clone of the chunk list and a copy of the chunk
//! being filled ([`SharedRows`]), where it took a copy of a million rows' bodies or texts, made on
//! the UI thread: 8 MB of fresh memory, up to 30 ms of page faults at the first key of `/`.

use std::ops::Range;
use std::sync::Arc;

use super::row::Row;

/// The rows in a full chunk: 64 KB of them.
pub(crate) const CHUNK_ROWS: usize = 4096;

/// The rows, in order; rows added go to the chunk being filled.
#[derive(Clone, Debug, Default)]
pub(crate) struct RowList {
    /// The full chunks, [`CHUNK_ROWS`] rows each, shared with the jobs that read them.
    full: Vec<Arc<[Row]>>,
    /// The rows after them (fewer than [`CHUNK_ROWS`]).
    filling: Vec<Row>,
}

impl RowList {
    pub(crate) const fn new() -> RowList {
        RowList {
            full: Vec::new(),
            filling: Vec::new(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.full.len() * CHUNK_ROWS + self.filling.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub(crate) fn get(&self, index: usize) -> Option<&Row> {
        let (chunk, at) = (index / CHUNK_ROWS, index % CHUNK_ROWS);
        match self.full.get(chunk) {
            Some(full) => full.get(at),
            None if chunk == self.full.len() => self.filling.get(at),
            None => None,
        }
    }

    pub(crate) fn push(&mut self, row: Row) {
        self.filling.push(row);
        if self.filling.len() == CHUNK_ROWS {
            self.full.push(Arc::from(self.filling.as_slice()));
            self.filling.clear();
        }
    }

    /// Every row, in order, a chunk at a time.
    pub(crate) fn chunks(&self) -> impl Iterator<Item = &[Row]> {
        (self.full.iter().map(|c| &c[..])).chain(std::iter::once(&self.filling[..]))
    }

    /// The rows `rows`, chunked again (after rows were put in or taken out between others).
    pub(crate) fn rebuilt(rows: impl IntoIterator<Item = Row>) -> RowList {
        let mut list = RowList::new();
        rows.into_iter().for_each(|row| list.push(row));
        list
    }

    /// The first `count` rows as they are now, for a job on another thread: the full chunks
    /// shared, the rows of the one being filled copied.
    pub(crate) fn share(&self, count: usize) -> SharedRows {
        let len = count.min(self.len());
        let whole = len.div_ceil(CHUNK_ROWS).min(self.full.len());
        let mut chunks: Vec<Arc<[Row]>> = self.full[..whole].to_vec();
        let in_filling = len.saturating_sub(self.full.len() * CHUNK_ROWS);
        if in_filling > 0 {
            chunks.push(Arc::from(&self.filling[..in_filling]));
        }
        SharedRows { chunks, len }
    }

    /// The bytes the rows hold, for `benches/row_memory.rs`.
    pub(crate) fn capacity_bytes(&self) -> usize {
        (self.full.len() * CHUNK_ROWS + self.filling.capacity()) * size_of::<Row>()
    }
}

/// A listing's first rows at one moment, read by a job while the listing goes on growing.
#[derive(Clone, Debug, Default)]
pub struct SharedRows {
    /// [`CHUNK_ROWS`] rows each, the last one perhaps fewer.
    chunks: Vec<Arc<[Row]>>,
    len: usize,
}

impl SharedRows {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The row at `index`, which must be under [`SharedRows::len`].
    pub fn at(&self, index: usize) -> &Row {
        &self.chunks[index / CHUNK_ROWS][index % CHUNK_ROWS]
    }

    /// The rows at `range`, a chunk's part at a time, each with the index of its first row.
    pub fn slices(&self, range: Range<usize>) -> impl Iterator<Item = (usize, &[Row])> {
        let end = range.end.min(self.len);
        let mut start = range.start;
        std::iter::from_fn(move || {
            if start >= end {
                return None;
            }
            let chunk = &self.chunks[start / CHUNK_ROWS];
            let at = start % CHUNK_ROWS;
            let slice = &chunk[at..chunk.len().min(at + (end - start))];
            let first = start;
            start += slice.len();
            Some((first, slice))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::PageItem;
    use crate::bodies::Bodies;
    use crate::texts::Texts;

    /// `n` rows whose bodies say their number.
    fn rows(n: usize, bodies: &Bodies) -> Vec<Row> {
        let mut texts = Texts::new();
        (0..n)
            .map(|i| Row::from_item(&PageItem::from_value(i.into()), bodies, &mut texts))
            .collect()
    }

    fn number(row: &Row, bodies: &Bodies) -> usize {
        bodies.read(row.body).unwrap().parse().unwrap()
    }

    /// Every row reads back at its index, across chunks, from the list and from shares of
    /// every size taken as it grows; a share does not see the rows added after it.
    #[test]
    fn rows_read_back_across_chunks_and_from_shares() {
        let bodies = Bodies::default();
        let all = rows(3 * CHUNK_ROWS + 17, &bodies);
        let mut list = RowList::new();
        let mut shares = Vec::new();
        for (i, row) in all.iter().enumerate() {
            list.push(*row);
            if [0, 1, CHUNK_ROWS - 1, CHUNK_ROWS, 2 * CHUNK_ROWS + 5].contains(&i) {
                shares.push((i + 1, list.share(usize::MAX)));
            }
        }
        assert_eq!(list.len(), all.len());
        assert_eq!(list.get(all.len()), None);
        for (i, row) in all.iter().enumerate() {
            assert_eq!(list.get(i), Some(row), "row {i}");
        }
        let chunked: Vec<Row> = list.chunks().flatten().copied().collect();
        assert_eq!(chunked, all);
        for (len, share) in &shares {
            assert_eq!(share.len(), *len);
            for i in 0..*len {
                assert_eq!(number(share.at(i), &bodies), i);
            }
        }
        let part = list.share(CHUNK_ROWS + 3);
        assert_eq!(part.len(), CHUNK_ROWS + 3);
        assert_eq!(number(part.at(CHUNK_ROWS + 2), &bodies), CHUNK_ROWS + 2);
    }

    /// The slices of a range hold its rows once each, in order, split where the chunks are.
    #[test]
    fn slices_cover_a_range_chunk_by_chunk() {
        let bodies = Bodies::default();
        let list = RowList::rebuilt(rows(2 * CHUNK_ROWS + 10, &bodies));
        let share = list.share(usize::MAX);
        for range in [
            0..0,
            0..share.len(),
            5..CHUNK_ROWS,
            CHUNK_ROWS - 1..CHUNK_ROWS + 1,
            CHUNK_ROWS + 3..share.len() + 100,
        ] {
            let slices: Vec<(usize, &[Row])> = share.slices(range.clone()).collect();
            let mut seen = Vec::new();
            for (first, slice) in &slices {
                assert_eq!(*first, range.start + seen.len());
                seen.extend(slice.iter().map(|row| number(row, &bodies)));
            }
            let end = range.end.min(share.len());
            assert_eq!(seen, (range.start..end).collect::<Vec<_>>(), "{range:?}");
            assert!(slices.len() <= 3, "{range:?}: {}", slices.len());
        }
    }
}
