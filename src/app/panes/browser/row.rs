//! One row of the resource list, kept small (24 bytes, no allocation of its own): where the
//! texts the table shows and a sort compares are (in the listing's [`Texts`]), and where the
//! item's JSON is kept (its text as the service sent it, in the listing's [`Bodies`]). A resource held as a JSON
//! tree costs about ten times its text (100,000 rows took over a gigabyte); the full item is
//! parsed again when its detail opens. A row is read through a [`RowView`], which pairs it with
//! its listing's texts.

use std::ops::Deref;

use super::bodies::{Bodies, BodyError, BodyId};
use super::row_texts::{COUNT, Text};
use super::texts::{Texts, TextsAt};
use crate::api::{Field, PageItem};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// Where the texts the table shows and the `/` filter reads are, in the listing's
    /// [`Texts`]; the rest of the item, its `external_url` included, is read from its body.
    pub texts: TextsAt,
    /// Not a JSON object at all.
    pub malformed: bool,
    /// Not a resource, or a resource with fields of an unexpected type: the `!` mark.
    pub marked: bool,
    /// The item's JSON text as it came, in the listing's bodies.
    pub body: BodyId,
    /// The size of that JSON text, in bytes.
    json_len: u32,
}

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
        fn text(f: &Field<String>) -> Option<&str> {
            f.get().map(String::as_str)
        }
        let json_len = u32::try_from(json.len()).unwrap_or(u32::MAX);
        let body = bodies.push(json);
        match item.resource() {
            Some(r) => Row {
                texts: texts.push(&[
                    text(&r.resource_type),
                    r.title(),
                    text(&r.status),
                    text(&r.external_id),
                    text(&r.id),
                    text(&r.updated_at),
                ]),
                malformed: false,
                marked: !r.field_issues().is_empty(),
                body,
                json_len,
            },
            None => Row {
                texts: texts.push(&[None; 6]),
                malformed: true,
                marked: true,
                body,
                json_len,
            },
        }
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

    /// Size of the item's JSON text, in bytes.
    pub fn json_len(&self) -> usize {
        self.json_len as usize
    }
}

/// A row with its listing's texts: what the table, the filters and the sort read.
#[derive(Clone, Copy, Debug)]
pub struct RowView<'a> {
    row: &'a Row,
    texts: &'a Texts,
}

impl<'a> RowView<'a> {
    pub fn new(row: &'a Row, texts: &'a Texts) -> Self {
        RowView { row, texts }
    }

    /// One of the row's texts, as the service sent it.
    pub fn text(self, which: Text) -> Option<&'a str> {
        self.texts.get(self.row.texts, which)
    }

    pub fn resource_type(self) -> Option<&'a str> {
        self.text(Text::Type)
    }

    /// `display_name`, else `name`.
    pub fn title(self) -> Option<&'a str> {
        self.text(Text::Title)
    }

    pub fn status(self) -> Option<&'a str> {
        self.text(Text::Status)
    }

    pub fn external_id(self) -> Option<&'a str> {
        self.text(Text::ExternalId)
    }

    pub fn id(self) -> Option<&'a str> {
        self.text(Text::Id)
    }

    pub fn updated_at(self) -> Option<&'a str> {
        self.text(Text::UpdatedAt)
    }

    /// Every one of its texts, in the order they are packed.
    pub fn all_texts(self) -> [Option<&'a str>; COUNT] {
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
        assert_eq!(row.id(), Some("r1"));
        assert_eq!(row.title(), Some("alpha"));
        assert_eq!(
            row.status(),
            None,
            "a wrong-typed status is not shown as text"
        );
        assert!(row.marked && !row.malformed);
        assert_eq!(row.item(&bodies), Ok(item));
        assert_eq!(row.item(&bodies).unwrap().to_json(), value);
        assert_eq!(row.json_len(), bodies.read(row.body).unwrap().len());
    }

    #[test]
    fn a_malformed_item_stays_what_it_was() {
        let item = PageItem::from_value(json!("oops"));
        let (bodies, mut texts) = (Bodies::default(), Texts::new());
        let row = Row::from_item(&item, &bodies, &mut texts);
        assert_eq!(texts.row(row.texts), [None; 6]);
        assert!(row.malformed && row.marked);
        assert_eq!(row.item(&bodies), Ok(item));
    }
}
