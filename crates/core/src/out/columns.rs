//! `--columns id,name,properties.stars`: columns chosen by path into each resource. A path is
//! keys joined by dots; a key that is a number indexes an array (`links.links.0.url`). A path
//! that leads nowhere gives an empty cell, never an error: resources differ in what they hold.

use serde_json::Value;

/// The columns csv and tsv write without `--columns` (`list -o csv`, and the TUI's `:export
/// FILE.csv`): the table's, as paths, the name and the display name each in its own column as
/// the service sent them.
pub const DEFAULT: &str = "type,id,name,display_name,status,external_id,updated_at";

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
    pub fn lookup<'a>(&self, value: &'a Value) -> Option<&'a Value> {
        self.keys.iter().try_fold(value, |at, key| match at {
            Value::Object(map) => map.get(key),
            Value::Array(items) => key.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        })
    }

    /// The cell for `value`: a string as its text, a number as written, an object or array as
    /// compact JSON, and nothing for null or a missing path. Not yet made safe to print.
    pub fn cell(&self, value: &Value) -> String {
        match self.lookup(value) {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(Value::Number(n)) => n.to_string(),
            Some(Value::Bool(b)) => b.to_string(),
            Some(other) => other.to_string(),
        }
    }
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
