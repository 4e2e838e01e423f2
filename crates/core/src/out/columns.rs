//! `--columns id,name,properties.stars`: columns chosen by path into each resource. A path is
//! keys joined by dots; a key that is a number indexes an array (`links.links.0.url`). A path
//! that leads nowhere gives an empty cell, never an error: resources differ in what they hold.

use std::borrow::Cow;

use serde_json::Value;

use crate::api::page::read_item_bytes;
use crate::json_peek::{self, Node};

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

    /// The cell for `value`: a string as its text, a number as written, an object or array as
    /// compact JSON, and nothing for null or a missing path. Not yet made safe to print.
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

/// [`cell_of`] for a value's JSON text: a string without escapes (most cells), `true`, `false`
/// and `null` borrowed as they are, anything else read by serde_json (a number keeps its text;
/// never through f64). `None` when serde_json does not read it.
fn cell_of_text(text: &str) -> Option<Cow<'_, str>> {
    if let Some(plain) = json_peek::string_text(text) {
        return Some(Cow::Borrowed(plain));
    }
    match text {
        "true" | "false" => Some(Cow::Borrowed(text)),
        "null" => Some(Cow::Borrowed("")),
        _ => Some(Cow::Owned(cell_of(Some(&serde_json::from_str(text).ok()?)))),
    }
}

/// Each column's cell for one listed item's JSON text, as [`ColumnPath::cell`] gives them for
/// the item read as a record (`PageItem::to_json`), but reading only the values on the paths,
/// after one scan of the item ([`json_peek::peek`]), a cell borrowed from the text when it is
/// a string without escapes: an item's `properties` are most of its bytes. `list --all -o csv`
/// over 100,000 resources: 7.6 s reading each whole; reading the paths after one scan, with
/// borrowed cells and [`super::delimited::Records`] writing straight out, 0.50 s to ndjson's
/// 0.39 s, 1.28x (tsv: 1.33x; `BIN=target/release/appdeck ROUNDS=3 benches/list_formats.sh`, a
/// quiet machine). A text that may not read whole (too deep, a surrogate escape) is read
/// whole, which says so.
pub fn cells_of_item<'a>(columns: &[ColumnPath], item: &'a [u8]) -> Vec<Cow<'a, str>> {
    if let Ok(text) = std::str::from_utf8(item)
        && let (facts, Some(top)) = json_peek::peek(text)
        && facts.surely_readable()
    {
        let cells: Option<Vec<Cow<'a, str>>> = columns
            .iter()
            .map(|column| match column.text_in(&top)? {
                None => Some(Cow::Borrowed("")),
                Some(text) => cell_of_text(text),
            })
            .collect();
        if let Some(cells) = cells {
            return cells;
        }
    }
    let value = read_item_bytes(item).to_json();
    columns.iter().map(|c| Cow::Owned(c.cell(&value))).collect()
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
    /// every odd kind (see `api::page`'s tests).
    #[test]
    fn cells_of_an_item_are_those_of_the_item_read_whole() {
        let columns = parse(
            "id,name,status,properties.stars,properties.o.k.1,properties.o,links.links.0.url,\
             0,1.id,properties,properties.a,x,y,ID:id",
        )
        .unwrap();
        for text in crate::api::page::tests::odd_items() {
            let whole = read_item_bytes(text.as_bytes()).to_json();
            let cells: Vec<String> = columns.iter().map(|c| c.cell(&whole)).collect();
            assert_eq!(cells_of_item(&columns, text.as_bytes()), cells, "{text}");
        }
        let first = &crate::api::page::tests::odd_items()[0];
        assert_eq!(
            cells_of_item(&columns[3..5], first.as_bytes()),
            ["1e+400", "2.50"]
        );
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
