//! Resources written as the service sent them: each item's JSON text as it came, one a line
//! (ndjson) or as the elements of one array (json). `appdeck list -o json|ndjson` and `:export`
//! write through the same [`RawItems`], and both hand it each item's bytes as they came (the TUI's
//! list keeps them: see `crates/listing/src/bodies.rs`), so an export is byte for byte what
//! `list --all` prints, however the service spaces or escapes its JSON.

use std::io::Write;

use crate::sanitize;

/// How items are framed: one a line, or the elements of one JSON array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawItems {
    Ndjson,
    /// `written` says whether the `[` and an item are out, for the separators.
    Json {
        written: bool,
    },
}

impl RawItems {
    pub fn ndjson() -> Self {
        RawItems::Ndjson
    }

    pub fn json() -> Self {
        RawItems::Json { written: false }
    }

    /// Writes one item, its text as it came (see [`write_raw`]).
    pub fn write(&mut self, item: &[u8], out: &mut impl Write) -> std::io::Result<()> {
        match self {
            RawItems::Ndjson => {
                write_raw(item, out)?;
                out.write_all(b"\n")
            }
            RawItems::Json { written } => {
                out.write_all(if *written { b",\n  " } else { b"[\n  " })?;
                *written = true;
                write_raw(item, out)
            }
        }
    }

    /// Closes a JSON array (`[]` when it is empty); nothing for ndjson.
    pub fn finish(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        match self {
            RawItems::Ndjson => Ok(()),
            RawItems::Json { written } => out.write_all(if *written { b"\n]\n" } else { b"[]\n" }),
        }
    }
}

/// Writes one item's JSON text on one line, as it came: its line breaks (which JSON allows only
/// between tokens) dropped, and DEL, C1 controls and bidi marks written as `\u` escapes by
/// [`sanitize::json_for_terminal`] (the output may be a terminal; the data a reader parses is the
/// same either way). Most items are plain ASCII on one line and go through untouched.
pub fn write_raw(item: &[u8], out: &mut impl Write) -> std::io::Result<()> {
    let one_line = memchr::memchr2(b'\n', b'\r', item).is_none();
    if one_line && !sanitize::json_needs_escape(item) {
        return out.write_all(item);
    }
    let joined: Vec<u8> = if one_line {
        item.to_vec()
    } else {
        item.iter()
            .copied()
            .filter(|b| !matches!(b, b'\n' | b'\r'))
            .collect()
    };
    // The page reader hands out UTF-8 text only; lossy if that ever changes.
    let text = String::from_utf8_lossy(&joined);
    out.write_all(sanitize::json_for_terminal(&text).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(mut items: RawItems, texts: &[&str]) -> String {
        let mut out = Vec::new();
        for text in texts {
            items.write(text.as_bytes(), &mut out).unwrap();
        }
        items.finish(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn items_go_out_as_they_came_one_a_line_or_in_one_array() {
        let items = [r#"{"id": "a", "n": 1E400}"#, "{\"id\":\n\"b\"}"];
        assert_eq!(
            written(RawItems::ndjson(), &items),
            "{\"id\": \"a\", \"n\": 1E400}\n{\"id\":\"b\"}\n"
        );
        assert_eq!(
            written(RawItems::json(), &items),
            "[\n  {\"id\": \"a\", \"n\": 1E400},\n  {\"id\":\"b\"}\n]\n"
        );
        assert_eq!(written(RawItems::json(), &[]), "[]\n");
        assert_eq!(written(RawItems::ndjson(), &[]), "");
    }
}
