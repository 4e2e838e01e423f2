//! `--columns id,name,properties.stars`: columns chosen by path into each resource. A path is
//! keys joined by dots; a key that is a number indexes an array (`links.links.0.url`). A path
//! that leads nowhere gives an empty cell, never an error: resources differ in what they hold.

use std::borrow::Cow;

use serde_json::Value;

use crate::api::PageItem;
use crate::api::page::read_item_bytes;
use crate::json_peek::{self, Node};
use crate::json_text;

/// The columns csv and tsv write without `--columns` (`list -o csv`, and the TUI's `:export
/// FILE.csv`): the table's, as paths, the name and the display name each in its own column as
/// the service sent them.
pub(crate) const DEFAULT: &str = "type,id,name,display_name,status,external_id,updated_at";

/// [`DEFAULT`], parsed.
pub fn default_columns() -> Vec<ColumnPath> {
    parse(DEFAULT).expect("the default columns are paths")
}

/// One chosen column: its header (the path as given, or the name before its `:`) and the keys
/// along its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnPath {
    pub text: String,
    keys: Vec<String>,
}

/// Reads `--columns`: comma-separated paths, none empty, each with its header in front if wanted
/// (`STARS:properties.stars`, as kubectl's `custom-columns`; `ID:id` gave a blank column).
pub fn parse(spec: &str) -> Result<Vec<ColumnPath>, String> {
    let columns: Vec<ColumnPath> = spec
        .split(',')
        .map(str::trim)
        .map(|column| {
            let (header, path) = match column.split_once(':') {
                Some((header, path)) => (header.trim(), path.trim()),
                None => (column, column),
            };
            let keys: Vec<String> = path.split('.').map(str::to_owned).collect();
            if path.is_empty() || keys.iter().any(String::is_empty) {
                Err(format!(
                    "--columns {spec:?}: {path:?} is not a path (keys joined by dots, such as \
                     properties.stars, with a header in front if wanted: STARS:properties.stars)"
                ))
            } else if header.is_empty() {
                Err(format!(
                    "--columns {spec:?}: {column:?} has an empty header before its `:`"
                ))
            } else {
                Ok(ColumnPath {
                    text: header.to_owned(),
                    keys,
                })
            }
        })
        .collect::<Result<_, _>>()?;
    Ok(columns)
}

impl ColumnPath {
    /// The path alone (its keys joined by dots), without the header.
    pub fn path(&self) -> String {
        self.keys.join(".")
    }

    /// The value at this path, if there is one.
    pub(crate) fn lookup<'a>(&self, value: &'a Value) -> Option<&'a Value> {
        self.keys.iter().try_fold(value, |at, key| match at {
            Value::Object(map) => map.get(key),
            Value::Array(items) => key.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        })
    }

    /// The cell for `value`: a string as its text, a number and an object or array as
    /// serde_json writes them (an exponent as `e+`: a cell shown or written is read from the
    /// item's text, [`cells_of_item`]), and nothing for null or a missing path. For a sort's
    /// key. Not yet made safe to print.
    pub fn cell(&self, value: &Value) -> String {
        cell_of(self.lookup(value))
    }

    /// The text of the value at this path in `node` (a missing path: `Some(None)`); `None`
    /// when a value on the way is not JSON read here.
    fn text_in<'a>(&self, node: &Node<'a>) -> Option<Option<&'a str>> {
        let mut node = Cow::Borrowed(node);
        for (i, key) in self.keys.iter().enumerate() {
            let found = match &*node {
                Node::Array(items) => key
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| items.get(i).copied()),
                object => object.member(key),
            };
            let Some(text) = found else {
                return Some(None);
            };
            if i + 1 == self.keys.len() {
                return Some(Some(text));
            }
            // The whole item's facts hold for each part of it: an object is peeked (one
            // scan), an array read by serde_json.
            node = Cow::Owned(match json_peek::peek(text).1 {
                Some(node) => node,
                None => json_peek::node(text)?,
            });
        }
        Some(None)
    }
}

fn cell_of(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(other) => other.to_string(),
    }
}

/// The cell of a value's JSON text, taken from the text: a string's text (borrowed unless it
/// holds an escape), `true` and `false` and a number as written, an object or an array as its
/// own text made compact, nothing for null. serde_json writes a number's exponent anew (`1.0e2`
/// comes back `1.0e+2`, `1E400` `1e+400`): a cell shows what the service sent. `None` for a
/// string serde_json cannot read (a lone surrogate escape).
fn cell_of_text(text: &str) -> Option<Cow<'_, str>> {
    let text = text.trim();
    match text.as_bytes().first() {
        None => Some(Cow::Borrowed("")),
        Some(b'"') => match json_peek::string_text(text) {
            Some(plain) => Some(Cow::Borrowed(plain)),
            None => serde_json::from_str::<String>(text).ok().map(Cow::Owned),
        },
        Some(b'{' | b'[') => Some(Cow::Owned(json_text::compact(text))),
        _ if text == "null" => Some(Cow::Borrowed("")),
        _ => Some(Cow::Borrowed(text)),
    }
}

/// The cells of one listed item, and whether it is malformed (not an object a parser reads
/// whole: the table marks it `!`), when only what a scan finds is in its cells.
#[derive(Debug, PartialEq, Eq)]
pub struct ItemCells<'a> {
    pub cells: Vec<Cow<'a, str>>,
    pub malformed: bool,
}

/// Each column's cell for one listed item's JSON text, as [`ColumnPath::cell`] reads it but from
/// the item's own text (see [`cell_of_text`]): only the values on the paths are read, after one
/// scan of the item ([`json_peek::peek`]), a cell borrowed from the text when it is a string
/// without escapes: an item's `properties` are most of its bytes. `list --all -o csv` over
/// 100,000 resources: 7.6 s reading each whole; reading the paths after one scan, with borrowed
/// cells and [`super::delimited::Records`] writing straight out, 0.50 s to ndjson's 0.39 s,
/// 1.28x (tsv: 1.33x; `BIN=target/release/appdeck ROUNDS=3 benches/list_formats.sh`, a quiet
/// machine). A malformed item (nesting past the parser's depth, a lone surrogate, not an object)
/// gets what the scan finds along the paths (its id, say), a value it cannot read an empty cell.
pub fn cells_of_item<'a>(columns: &[ColumnPath], item: &'a [u8]) -> ItemCells<'a> {
    let empty = || ItemCells {
        cells: vec![Cow::Borrowed(""); columns.len()],
        malformed: true,
    };
    let Ok(text) = std::str::from_utf8(item) else {
        return empty();
    };
    let (facts, Some(top)) = json_peek::peek(text) else {
        return empty();
    };
    let malformed = match top {
        Node::Object(_) if facts.surely_readable() => false,
        Node::Object(_) => matches!(read_item_bytes(item), PageItem::Malformed(_)),
        _ => true,
    };
    let cells = columns
        .iter()
        .map(|column| {
            let text = column.text_in(&top).flatten();
            text.and_then(cell_of_text).unwrap_or(Cow::Borrowed(""))
        })
        .collect();
    ItemCells { cells, malformed }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_reach_into_objects_and_arrays() {
        let columns =
            parse("id, properties.stars,links.links.1.url,properties.none,properties").unwrap();
        let value: Value = serde_json::from_str(
            r#"{"id":"r1","properties":{"stars":12345678901234567890123,"x":1.50},
                "links":{"links":[{"url":"a"},{"url":"b"}]}}"#,
        )
        .unwrap();
        let cells: Vec<String> = columns.iter().map(|c| c.cell(&value)).collect();
        assert_eq!(
            cells,
            [
                "r1",
                "12345678901234567890123",
                "b",
                "",
                r#"{"stars":12345678901234567890123,"x":1.50}"#
            ]
        );
        assert_eq!(columns[1].text, "properties.stars");
        assert_eq!(parse("id").unwrap()[0].cell(&json!(5)), "");
    }

    /// Reading only the paths gives the cells reading each item whole gives, for items of
    /// every odd kind (see `api::page`'s tests), but that a number keeps its text and a
    /// malformed item its id: reading whole, serde_json wrote `1E400` as `1e+400`, and an item
    /// too deep or with a lone surrogate lost every cell.
    #[test]
    fn cells_of_an_item_are_its_own_text() {
        let columns = parse(
            "id,name,status,properties.stars,properties.o.k.1,properties.o,links.links.0.url,\
             0,1.id,properties,properties.a,x,y,ID:id",
        )
        .unwrap();
        let items = crate::api::page::tests::odd_items();
        for text in &items {
            let read = cells_of_item(&columns, text.as_bytes());
            let whole = read_item_bytes(text.as_bytes());
            assert_eq!(
                read.malformed,
                matches!(whole, PageItem::Malformed(_)),
                "{text}"
            );
            let cells: Vec<String> = columns.iter().map(|c| c.cell(&whole.to_json())).collect();
            if !text.contains("1E400") && !text.contains("\\ud800") && !text.contains("d130") {
                assert_eq!(read.cells, cells, "{text}");
            }
        }
        let cells_of = |id: &str| {
            let item = items.iter().find(|t| t.contains(id)).unwrap();
            cells_of_item(&columns, item.as_bytes()).cells
        };
        let first = cells_of("\"r1\"");
        assert_eq!(first[3..6], ["1E400", "2.50", r#"{"k":[1,2.50]}"#]);
        assert_eq!(first[9], r#"{"stars":1E400,"o":{"k":[1,2.50]},"s":"x"}"#);
        let surrogate = cells_of("\"r10\"");
        assert_eq!(
            surrogate[..2],
            ["r10", ""],
            "the name cannot be read; the id can"
        );
        let deep = cells_of("\"d130\"");
        assert_eq!(deep[0], "d130");
        assert!(
            deep[9].starts_with(r#"{"x":[[[["#),
            "its own text: {}",
            deep[9]
        );
        let written = cells_of_item(
            &columns[3..6],
            br#"{"properties":{"stars":-1.0e2,"o":{ "k" : [ 0E-7 , "\u00e9" ] }}}"#,
        );
        assert_eq!(written.cells, ["-1.0e2", "é", r#"{"k":[0E-7,"\u00e9"]}"#]);
    }

    /// Issue 35 item 9: kubectl's `NAME:path` gives the header and the path.
    #[test]
    fn a_header_may_come_before_the_path() {
        let columns = parse("ID:id, Stars : properties.stars,name").unwrap();
        let texts: Vec<&str> = columns.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["ID", "Stars", "name"]);
        let value = json!({"id": "r1", "name": "n", "properties": {"stars": 3}});
        let cells: Vec<String> = columns.iter().map(|c| c.cell(&value)).collect();
        assert_eq!(cells, ["r1", "3", "n"]);
    }

    #[test]
    fn empty_paths_are_refused() {
        for bad in ["", "id,,name", "a..b", "id,", "ID:", ":id"] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
