//! One row of the resource list, kept small (16 bytes, no allocation of its own): where the
//! texts the table shows and a sort compares are (in the listing's [`Texts`]), and where the
//! item's JSON is kept (its text as the service sent it, in the listing's [`Bodies`]). A resource held as a JSON
//! tree costs about ten times its text (100,000 rows took over a gigabyte); the full item is
//! parsed again when its detail opens. A row is read through a [`RowView`], which pairs it with
//! its listing's texts.

use std::ops::Deref;

use super::added::{self, AddedCells};
use super::bodies::{Bodies, BodyError, BodyId};
pub use super::row_texts::Cell;
use super::row_texts::{COUNT, Text};
use super::texts::{Texts, TextsAt};
use crate::api::{ItemFacts, ItemKind, PageItem};

/// 16 bytes rather than 24: at 100,000 rows, 0.8 MB less resident (`benches/memory.sh`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// Where the texts the table shows and the `/` filter reads are, in the listing's
    /// [`Texts`]; the rest of the item, its `external_url` included, is read from its body.
    pub texts: TextsAt,
    /// The size of the item's JSON text (up to [`MAX_JSON_LEN`]) and the two marks, in one
    /// word: see [`MALFORMED`] and [`MARKED`].
    json_len_and_marks: u32,
    /// The item's JSON text as it came, in the listing's bodies.
    pub body: BodyId,
}

/// The bit of [`Row::json_len_and_marks`] set when the item is not a JSON object at all.
const MALFORMED: u32 = 1 << 31;
/// The bit set when the item is not a resource, or has fields of an unexpected type: the `!`.
const MARKED: u32 = 1 << 30;
/// The largest JSON length a row says; a longer item (over a gigabyte) says this much. The
/// length only sizes a detail before it is read: the text itself is kept whole.
const MAX_JSON_LEN: u32 = MARKED - 1;

impl Row {
    /// The row of `item`, its JSON kept in `bodies` as compact text (an item that did not come
    /// as text: tests, benchmarks), its columns' texts in `texts`.
    pub fn from_item(item: &PageItem, bodies: &Bodies, texts: &mut Texts) -> Row {
        let json = serde_json::to_string(item).unwrap_or_default();
        Row::from_text(item, &json, bodies, texts)
    }

    /// The row of `item`, read from `json`, the text it came as, which `bodies` keeps as it is
    /// (`:export` writes it as `list` does); its columns' texts in `texts`.
    pub fn from_text(item: &PageItem, json: &str, bodies: &Bodies, texts: &mut Texts) -> Row {
        Row::from_facts(&ItemFacts::of_item(item), json, bodies, texts)
    }

    /// The row of an item of a page, from what the page's reader found of it (`facts`) in
    /// `json`, the text it came as (see [`Row::from_text`]).
    pub fn from_facts(facts: &ItemFacts, json: &str, bodies: &Bodies, texts: &mut Texts) -> Row {
        let json_len = u32::try_from(json.len()).map_or(MAX_JSON_LEN, |n| n.min(MAX_JSON_LEN));
        let body = bodies.push(json);
        let marks = match facts.kind {
            ItemKind::Sound => 0,
            ItemKind::OddFields => MARKED,
            ItemKind::NotResource => MALFORMED | MARKED,
        };
        Row {
            texts: texts.push(&facts.texts(json)),
            json_len_and_marks: json_len | marks,
            body,
        }
    }

    /// Not a JSON object at all.
    pub fn malformed(&self) -> bool {
        self.json_len_and_marks & MALFORMED != 0
    }

    /// Not a resource, or a resource with fields of an unexpected type: the `!` mark.
    pub fn marked(&self) -> bool {
        self.json_len_and_marks & MARKED != 0
    }

    /// The whole item again, for the detail view, from the bodies of the row's listing.
    pub fn item(&self, bodies: &Bodies) -> Result<PageItem, BodyError> {
        Ok(Row::item_of(&bodies.read(self.body)?))
    }

    /// The item again from its JSON text, read as its page was (one the parser cannot hold is
    /// marked and kept as it came).
    pub fn item_of(json: &str) -> PageItem {
        crate::api::page::read_item_text(json)
    }

    /// This row, its texts and its JSON kept elsewhere (in another listing).
    pub fn moved_to(self, texts: TextsAt, body: BodyId) -> Row {
        Row {
            texts,
            body,
            ..self
        }
    }

    /// Size of the item's JSON text, in bytes (at most a gigabyte: see [`MAX_JSON_LEN`]).
    pub fn json_len(&self) -> usize {
        (self.json_len_and_marks & MAX_JSON_LEN) as usize
    }
}

/// A row with its listing's texts: what the table, the filters and the sort read.
#[derive(Clone, Copy, Debug)]
pub struct RowView<'a> {
    row: &'a Row,
    texts: &'a Texts,
    added: &'a AddedCells,
}

impl<'a> RowView<'a> {
    pub fn new(row: &'a Row, texts: &'a Texts) -> Self {
        RowView {
            row,
            texts,
            added: &added::NONE,
        }
    }

    /// With the values of the columns `:columns` added.
    pub fn with_added(self, added: &'a AddedCells) -> Self {
        RowView { added, ..self }
    }

    /// The value of the `k`th column `:columns` added, as the service sent it.
    pub fn added(self, k: usize) -> Option<&'a str> {
        self.added.get(self.row.body, k)
    }

    /// The values of the columns `:columns` added, of this row's listing.
    pub fn added_cells(self) -> &'a AddedCells {
        self.added
    }

    /// How many columns `:columns` added.
    pub fn added_count(self) -> usize {
        self.added.paths().len()
    }

    /// One of the row's texts, as the service sent it (printed back from its compact form:
    /// see `compact.rs`).
    pub fn text(self, which: Text) -> Option<Cell<'a>> {
        self.texts.get(self.row.texts, which)
    }

    /// A text never kept compact, borrowed.
    fn borrowed(self, which: Text) -> Option<&'a str> {
        self.text(which).and_then(Cell::borrowed)
    }

    pub fn resource_type(self) -> Option<&'a str> {
        self.borrowed(Text::Type)
    }

    /// `display_name`, else `name` (kept by its start: see `title_starts.rs`).
    pub fn title(self) -> Option<Cell<'a>> {
        self.text(Text::Title)
    }

    pub fn status(self) -> Option<&'a str> {
        self.borrowed(Text::Status)
    }

    pub fn external_id(self) -> Option<Cell<'a>> {
        self.text(Text::ExternalId)
    }

    pub fn id(self) -> Option<Cell<'a>> {
        self.text(Text::Id)
    }

    pub fn updated_at(self) -> Option<Cell<'a>> {
        self.text(Text::UpdatedAt)
    }

    /// Every one of its texts, in the order they are packed.
    pub fn all_texts(self) -> [Option<Cell<'a>>; COUNT] {
        self.texts.row(self.row.texts)
    }

    /// The row itself (its body, its marks), apart from its texts.
    pub fn row(self) -> &'a Row {
        self.row
    }
}

impl Deref for RowView<'_> {
    type Target = Row;

    fn deref(&self) -> &Row {
        self.row
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keeps_what_the_table_needs_and_the_item_whole() {
        let value = json!({"id": "r1", "type": "repo", "name": "alpha", "status": 3, "x": {"y": [1]},
            "properties": {"deep": {"list": [1, 2, 3]}}});
        let item = PageItem::from_value(value.clone());
        let (bodies, mut texts) = (Bodies::default(), Texts::new());
        let row = Row::from_item(&item, &bodies, &mut texts);
        let row = RowView::new(&row, &texts);
        assert_eq!(row.id().unwrap(), "r1");
        assert_eq!(row.title().as_deref(), Some("alpha"));
        assert_eq!(
            row.status(),
            None,
            "a wrong-typed status is not shown as text"
        );
        assert!(row.marked() && !row.malformed());
        assert_eq!(row.item(&bodies), Ok(item));
        assert_eq!(row.item(&bodies).unwrap().to_json(), value);
        assert_eq!(row.json_len(), bodies.read(row.body).unwrap().len());
    }

    #[test]
    fn a_malformed_item_stays_what_it_was() {
        let item = PageItem::from_value(json!("oops"));
        let (bodies, mut texts) = (Bodies::default(), Texts::new());
        let row = Row::from_item(&item, &bodies, &mut texts);
        assert!(texts.row(row.texts).iter().all(Option::is_none));
        assert!(row.malformed() && row.marked());
        assert_eq!(row.item(&bodies), Ok(item));
    }

    #[test]
    fn a_row_is_sixteen_bytes_and_keeps_its_marks_apart_from_its_length() {
        assert_eq!(size_of::<Row>(), 16);
        let item = PageItem::from_value(json!({"id": 7, "type": "repo"}));
        let (bodies, mut texts) = (Bodies::default(), Texts::new());
        let json = format!(r#"{{"id":7,"type":"repo","pad":"{}"}}"#, "x".repeat(5000));
        let row = Row::from_text(&item, &json, &bodies, &mut texts);
        assert!(row.marked() && !row.malformed());
        assert_eq!(row.json_len(), json.len());
    }
}
