//! A listing's rows and the texts of their columns, kept together: a [`Row`] only says where its
//! texts are, so it is read through these ([`RowView`]), and a row of another listing comes in
//! with its texts copied over ([`Rows::adopt`]).

use super::added::AddedCells;
use super::bodies::{Bodies, BodyId};
use super::row::{Row, RowView};
use super::row_list::{RowList, SharedRows};
use super::texts::{SharedTexts, Texts};
use crate::api::{ItemFacts, PageItem};

#[derive(Clone, Debug, Default)]
pub struct Rows {
    list: RowList,
    texts: Texts,
    /// The values of the columns `:columns` added, by row.
    added: AddedCells,
}

/// The rows of no listing (before the first page).
pub static NONE: Rows = Rows {
    list: RowList::new(),
    texts: Texts::new(),
    added: AddedCells::EMPTY,
};

impl Rows {
    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn get(&self, index: usize) -> Option<RowView<'_>> {
        Some(RowView::new(self.list.get(index)?, &self.texts).with_added(&self.added))
    }

    /// The row at `index`, which must be one of them (an index from `visible` or the sort).
    pub fn at(&self, index: usize) -> RowView<'_> {
        match self.list.get(index) {
            Some(row) => RowView::new(row, &self.texts).with_added(&self.added),
            None => panic!("row {index} of {}", self.len()),
        }
    }

    pub fn iter(
        &self,
    ) -> impl DoubleEndedIterator<Item = RowView<'_>> + ExactSizeIterator + Clone + '_ {
        self.from(0)
    }

    /// The rows from `first` on.
    pub fn from(
        &self,
        first: usize,
    ) -> impl DoubleEndedIterator<Item = RowView<'_>> + ExactSizeIterator + Clone + '_ {
        (first.min(self.len())..self.len()).map(|index| self.at(index))
    }

    /// Adds the row of `item`, which came as the text `json` (kept as it is in `bodies`).
    pub fn push_text(&mut self, item: &PageItem, json: &str, bodies: &Bodies) {
        self.push_facts(&ItemFacts::of_item(item), json, bodies);
    }

    /// Adds the row of a page's item, from what the page's reader found of it in `json`.
    pub fn push_facts(&mut self, facts: &ItemFacts, json: &str, bodies: &Bodies) {
        let row = Row::from_facts(facts, json, bodies, &mut self.texts);
        self.added.take(row.body, json);
        self.list.push(row);
    }

    /// The values of the columns `:columns` added.
    pub fn added(&self) -> &AddedCells {
        &self.added
    }

    pub fn added_mut(&mut self) -> &mut AddedCells {
        &mut self.added
    }

    /// A row of another listing (`row`, its JSON now at `body` in this one's bodies), its texts
    /// copied into these: to be put among them with [`Rows::insert`].
    pub fn adopt(&mut self, row: RowView<'_>, body: BodyId) -> Row {
        let cells = row.all_texts();
        self.added.copy(row.added_cells(), row.row().body, body);
        row.moved_to(
            self.texts.push(&cells.each_ref().map(|c| c.as_deref())),
            body,
        )
    }

    /// Puts `extra` in, each before the row at its index (in order of index).
    pub fn insert(&mut self, extra: Vec<(usize, Row)>) {
        let mut out = Vec::with_capacity(self.len() + extra.len());
        let mut extra = extra.into_iter().peekable();
        for (i, &row) in self.list.chunks().flatten().enumerate() {
            while let Some((_, gone)) = extra.next_if(|(at, _)| *at <= i) {
                out.push(gone);
            }
            out.push(row);
        }
        out.extend(extra.map(|(_, row)| row));
        self.list = RowList::rebuilt(out);
    }

    /// Keeps only the rows `keep` is true of.
    pub fn retain(&mut self, mut keep: impl FnMut(RowView<'_>) -> bool) {
        let texts = &self.texts;
        let kept = (self.list.chunks().flatten()).filter(|row| keep(RowView::new(row, texts)));
        self.list = RowList::rebuilt(kept.copied().collect::<Vec<_>>());
    }

    /// The first `count` rows as they are now, for a job (where their texts and bodies are).
    /// The full chunks are shared: a copy of at most a chunk of rows.
    pub fn share(&self, count: usize) -> SharedRows {
        self.list.share(count)
    }

    /// The texts as they are now, for a job (see [`Texts::share`]).
    pub fn share_texts(&self) -> SharedTexts {
        self.texts.share()
    }

    /// The bytes the rows hold (their list, not their texts), for `benches/row_memory.rs`.
    pub fn capacity_bytes(&self) -> usize {
        self.list.capacity_bytes()
    }

    /// The bytes their texts hold.
    pub fn text_bytes(&self) -> usize {
        self.texts.bytes()
    }

    /// Rows of these items, for tests (their JSON in bodies of their own).
    #[cfg(test)]
    pub fn of_values(values: impl IntoIterator<Item = serde_json::Value>) -> Rows {
        Rows::with_bodies(values).0
    }

    /// Rows of these items, and the bodies their JSON is in, for tests.
    #[cfg(test)]
    pub fn with_bodies(values: impl IntoIterator<Item = serde_json::Value>) -> (Rows, Bodies) {
        let (mut rows, bodies) = (Rows::default(), Bodies::default());
        for value in values {
            let json = value.to_string();
            rows.push_text(&PageItem::from_value(value), &json, &bodies);
        }
        (rows, bodies)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ids(rows: &Rows) -> Vec<Option<String>> {
        rows.iter()
            .map(|r| r.id().map(|id| id.to_string()))
            .collect()
    }

    fn some(ids: &[&str]) -> Vec<Option<String>> {
        ids.iter().map(|id| Some(id.to_string())).collect()
    }

    /// A row taken in from another listing (a gone row a `:watch` keeps showing) reads its own
    /// texts from this listing's, after the other is gone, at the place it was put.
    #[test]
    fn an_adopted_row_keeps_its_texts_after_its_listing_goes() {
        let mut rows = Rows::of_values((0..3).map(|i| json!({"id": format!("r{i}"), "type": "t"})));
        let bodies = Bodies::default();
        let adopted = {
            let before = Rows::of_values([
                json!({"id": "old", "type": "repo", "name": "was here", "status": "gone"}),
            ]);
            rows.adopt(before.at(0), bodies.push("{}"))
        };
        rows.insert(vec![(1, adopted)]);
        assert_eq!(ids(&rows), some(&["r0", "old", "r1", "r2"]));
        let row = rows.at(1);
        assert_eq!(
            row.all_texts().map(|c| c.map(|c| c.to_string())),
            [
                Some("repo"),
                Some("was here"),
                Some("gone"),
                None,
                Some("old"),
                None
            ]
            .map(|t| t.map(str::to_owned))
        );
        assert_eq!(rows.at(2).title(), None, "the rows after it read their own");
    }

    #[test]
    fn retain_keeps_each_row_with_its_texts() {
        let mut rows = Rows::of_values((0..5).map(|i| json!({"id": format!("r{i}")})));
        rows.retain(|r| r.id().is_none_or(|id| id != "r1" && id != "r3"));
        assert_eq!(ids(&rows), some(&["r0", "r2", "r4"]));
        assert_eq!(ids(&Rows::default()), some(&[]));
    }
}
