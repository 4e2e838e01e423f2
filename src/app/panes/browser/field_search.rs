//! What `/` finds in a row's JSON: a case-insensitive substring of the text of some value (a
//! string's characters once unescaped, a number as it was sent, `true`, `false`, `null`), at any
//! depth. Key names and JSON escapes are not values: `/prop` does not find every row through the
//! key `properties`, nor `/u00e9` an escaped `é`.
//!
//! A row is found either by a column (a value the table shows: type, name, status, id, external
//! id) or by another field, which is then named beside the row (`properties.owner.name: Zoë`).
//! Most rows are settled without parsing: a text that holds no backslash and not the needle (in
//! any case) cannot hold it in a value. The rest are walked, without building a tree.

use std::ops::ControlFlow;

use aho_corasick::AhoCorasick;

/// The top-level fields the table shows as they are (when they are strings). `name` is shown
/// only when there is no `display_name`: see [`find`].
const COLUMN_KEYS: [&str; 5] = ["type", "display_name", "status", "external_id", "id"];

/// What a malformed row shows in the name column, which `/` matches as the table shows it.
const MALFORMED: &str = "malformed";

/// A value's text is cut around the match to about this many characters.
const SHOWN_CHARS: usize = 60;

/// What the user typed, ready to look for.
#[derive(Clone, Debug)]
pub struct Needle {
    /// Lowercased.
    text: String,
    /// For an ASCII needle: finds it in either case, fast (SIMD where the CPU has it).
    ascii: Option<AhoCorasick>,
}

impl Needle {
    /// `None` for an empty text (everything matches).
    pub fn new(text: &str) -> Option<Needle> {
        if text.is_empty() {
            return None;
        }
        let text = text.to_lowercase();
        let ascii = text.is_ascii().then(|| {
            AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build([&text])
                .expect("one short literal always builds")
        });
        Some(Needle { text, ascii })
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether `haystack` holds the needle, ignoring case.
    pub fn is_in(&self, haystack: &str) -> bool {
        match &self.ascii {
            Some(finder) => finder.is_match(haystack),
            None => haystack.to_lowercase().contains(&self.text),
        }
    }

    /// Whether, in a JSON text without escapes, the needle is in a value: inside a string that is
    /// not a key, or inside a number or literal. `true` when the text is not JSON enough to tell
    /// (the walk then decides). Only the text is read; most rows need no more.
    fn in_a_value(&self, json: &str) -> bool {
        let Some(finder) = &self.ascii else {
            return true;
        };
        // A value holds a quote only escaped.
        if self.text.contains('"') {
            return false;
        }
        let bytes = json.as_bytes();
        let (mut quotes, mut counted) = (0usize, 0usize);
        // Non-overlapping matches are enough: the needle holds no quote, so an occurrence
        // overlapping one that was turned down is in the same key, or the same run of text
        // outside strings, and is turned down too.
        for found in finder.find_iter(json) {
            let (start, end) = (found.start(), found.end());
            quotes += memchr::memchr_iter(b'"', &bytes[counted..start]).count();
            counted = start;
            if quotes % 2 == 1 {
                // In a string: a value's, unless it is followed by `:`, and not past its end.
                let Some(close) = memchr::memchr(b'"', &bytes[start..]).map(|n| start + n) else {
                    return true;
                };
                if end <= close && bytes.get(skip_space(bytes, close + 1)) != Some(&b':') {
                    return true;
                }
            } else if bytes[start..end]
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'+'))
            {
                return true;
            }
        }
        false
    }

    /// Where in `haystack` (a byte offset) the needle is, ignoring case.
    fn position_in(&self, haystack: &str) -> Option<usize> {
        match &self.ascii {
            Some(finder) => finder.find(haystack).map(|m| m.start()),
            // Lowercasing may change lengths: count in characters, then map back.
            None => {
                let lower = haystack.to_lowercase();
                let at = lower[..lower.find(&self.text)?].chars().count();
                haystack.char_indices().nth(at).map(|(i, _)| i)
            }
        }
    }
}

/// How a row was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// By a value the table shows.
    Column,
    /// By another field: its path (`properties.tags[2]`) and its value, cut around the match
    /// (not sanitised: the caller does, where it draws).
    Field { path: String, value: String },
}

impl Found {
    /// `path: value`, for beside the row; `None` when a column shows the match.
    pub fn note(&self) -> Option<String> {
        match self {
            Found::Column => None,
            Found::Field { path, value } => Some(format!("{path}: {value}")),
        }
    }
}

/// How `needle` is in the row whose JSON is `json`; `None` when no value holds it.
pub fn find(json: &str, needle: &Needle) -> Option<Found> {
    let malformed = !json.trim_start().starts_with('{');
    if malformed && needle.is_in(MALFORMED) {
        return Some(Found::Column);
    }
    // Without an escape, every value's text is in the JSON as it is: most rows are settled
    // by where the needle is in the text.
    if !json.contains('\\') && !needle.in_a_value(json) {
        return None;
    }
    find_by_walking(json, needle)
}

/// [`find`], from the walk of every value.
fn find_by_walking(json: &str, needle: &Needle) -> Option<Found> {
    let mut search = Search::default();
    let walked = walk(json, |path, value| search.visit(path, value, needle));
    if walked.is_err() {
        // Not JSON (never from the list, which keeps what it parsed): matched as the text.
        return needle.is_in(json).then(|| Found::Field {
            path: ".".to_owned(),
            value: cut_around(json, needle),
        });
    }
    if search.column || (search.name.is_some() && !search.display_name) {
        return Some(Found::Column);
    }
    let first = match (search.name, search.other) {
        (Some(a), Some(b)) => Some(if a.0 < b.0 { a } else { b }),
        (a, b) => a.or(b),
    };
    first.map(|(_, path, value)| Found::Field { path, value })
}

/// What the walk of one row found so far.
#[derive(Default)]
struct Search {
    /// A column matched: the row is found, nothing to say beside it.
    column: bool,
    /// The row has a `display_name` string (then `name` is not shown).
    display_name: bool,
    /// The first match in `name`, and the first in a field that is no column, each with where it
    /// is in the text (to say the earlier).
    name: Option<(usize, String, String)>,
    other: Option<(usize, String, String)>,
}

impl Search {
    fn visit(&mut self, path: &[Step<'_>], value: Value<'_>, needle: &Needle) -> ControlFlow<()> {
        let top_key = match path {
            [Step::Key(key)] => Some(key.raw),
            _ => None,
        };
        if top_key == Some("display_name") && value.string {
            self.display_name = true;
        }
        let text = value.text();
        if !needle.is_in(&text) {
            return ControlFlow::Continue(());
        }
        match top_key {
            Some(key) if value.string && COLUMN_KEYS.contains(&key) => {
                self.column = true;
                return ControlFlow::Break(());
            }
            Some("name") if value.string => {
                if self.name.is_none() {
                    self.name = Some((value.at, show_path(path), cut_around(&text, needle)));
                }
            }
            _ => {
                if self.other.is_none() {
                    self.other = Some((value.at, show_path(path), cut_around(&text, needle)));
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// `properties.owner.name`, `links.links[0].url`; a key that is not a plain word is quoted as jq
/// does (`."a key"`). The root alone is `.`.
fn show_path(path: &[Step<'_>]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Index(i) => out.push_str(&format!("[{i}]")),
            Step::Key(key) => {
                let name = key.text();
                let plain = !name.is_empty()
                    && !name.starts_with(|c: char| c.is_ascii_digit())
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if !out.is_empty() || !plain {
                    out.push('.');
                }
                if plain {
                    out.push_str(&name);
                } else {
                    out.push_str(&serde_json::to_string(name.as_ref()).unwrap_or_default());
                }
            }
        }
    }
    if out.is_empty() {
        out.push('.');
    }
    out
}

/// `text`, or when long, about [`SHOWN_CHARS`] of it from a little before the match, with `…`
/// where it was cut.
fn cut_around(text: &str, needle: &Needle) -> String {
    if text.chars().count() <= SHOWN_CHARS {
        return text.to_owned();
    }
    let at = needle.position_in(text).unwrap_or(0);
    let before = text[..at].chars().count();
    let start = before.saturating_sub(SHOWN_CHARS / 4);
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    let mut rest = text.chars().skip(start);
    out.extend(rest.by_ref().take(SHOWN_CHARS));
    if rest.next().is_some() {
        out.push('…');
    }
    out
}

/// One step of a path into the JSON.
#[derive(Clone, Copy, Debug)]
enum Step<'a> {
    Key(Text<'a>),
    Index(usize),
}

/// A string as it is between its quotes, and whether it has escapes to undo.
#[derive(Clone, Copy, Debug)]
struct Text<'a> {
    raw: &'a str,
    escaped: bool,
}

impl Text<'_> {
    fn text(&self) -> std::borrow::Cow<'_, str> {
        if !self.escaped {
            return self.raw.into();
        }
        let quoted = format!("\"{}\"", self.raw);
        serde_json::from_str::<String>(&quoted)
            .map(Into::into)
            .unwrap_or_else(|_| self.raw.into())
    }
}

/// A scalar value: its text in the JSON, where it starts, and whether it is a string.
#[derive(Clone, Copy, Debug)]
struct Value<'a> {
    raw: Text<'a>,
    string: bool,
    at: usize,
}

impl Value<'_> {
    fn text(&self) -> std::borrow::Cow<'_, str> {
        self.raw.text()
    }
}

/// The JSON is not well-formed.
#[derive(Debug)]
struct Malformed;

/// An open array or object.
enum Open {
    Array(usize),
    Object,
}

/// Calls `visit` with each scalar value of `json` and its path, in the order of the text, until
/// it says stop. Never recurses (any depth is safe) and allocates only the path.
fn walk<'a>(
    json: &'a str,
    mut visit: impl FnMut(&[Step<'a>], Value<'a>) -> ControlFlow<()>,
) -> Result<(), Malformed> {
    let bytes = json.as_bytes();
    let mut at = 0;
    let mut open: Vec<Open> = Vec::new();
    let mut path: Vec<Step<'a>> = Vec::new();
    loop {
        // A value.
        at = skip_space(bytes, at);
        match bytes.get(at) {
            Some(b'{') => {
                at = skip_space(bytes, at + 1);
                if bytes.get(at) == Some(&b'}') {
                    at += 1;
                } else {
                    let (key, next) = object_key(json, at)?;
                    path.push(Step::Key(key));
                    open.push(Open::Object);
                    at = next;
                    continue;
                }
            }
            Some(b'[') => {
                at = skip_space(bytes, at + 1);
                if bytes.get(at) == Some(&b']') {
                    at += 1;
                } else {
                    path.push(Step::Index(0));
                    open.push(Open::Array(0));
                    continue;
                }
            }
            Some(&first) => {
                let is_string = first == b'"';
                let (raw, end) = match is_string {
                    true => string(json, at)?,
                    false => scalar(json, at)?,
                };
                let value = Value {
                    raw,
                    string: is_string,
                    at,
                };
                if visit(&path, value).is_break() {
                    return Ok(());
                }
                at = end;
            }
            None => return Err(Malformed),
        }
        // After a value: the next one in the array or object, or its end.
        loop {
            at = skip_space(bytes, at);
            let Some(last) = open.last_mut() else {
                return Ok(());
            };
            match (bytes.get(at), last) {
                (Some(b','), Open::Array(index)) => {
                    *index += 1;
                    let index = *index;
                    path.pop();
                    path.push(Step::Index(index));
                    at += 1;
                    break;
                }
                (Some(b','), Open::Object) => {
                    let (key, next) = object_key(json, skip_space(bytes, at + 1))?;
                    path.pop();
                    path.push(Step::Key(key));
                    at = next;
                    break;
                }
                (Some(b']'), Open::Array(_)) | (Some(b'}'), Open::Object) => {
                    open.pop();
                    path.pop();
                    at += 1;
                }
                _ => return Err(Malformed),
            }
        }
    }
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while matches!(bytes.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

/// `"key":` at `at`: the key and where its value starts.
fn object_key(json: &str, at: usize) -> Result<(Text<'_>, usize), Malformed> {
    if json.as_bytes().get(at) != Some(&b'"') {
        return Err(Malformed);
    }
    let (key, end) = string(json, at)?;
    let colon = skip_space(json.as_bytes(), end);
    if json.as_bytes().get(colon) != Some(&b':') {
        return Err(Malformed);
    }
    Ok((key, colon + 1))
}

/// The number or literal (`true`, `false`, `null`) at `at`: its text, and where it ends.
fn scalar(json: &str, at: usize) -> Result<(Text<'_>, usize), Malformed> {
    let end = json.as_bytes()[at..]
        .iter()
        .position(|b| matches!(b, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r'))
        .map_or(json.len(), |n| at + n);
    if end == at {
        return Err(Malformed);
    }
    let raw = Text {
        raw: &json[at..end],
        escaped: false,
    };
    Ok((raw, end))
}

/// The string whose opening quote is at `at`: its text between the quotes, and where it ends.
fn string(json: &str, at: usize) -> Result<(Text<'_>, usize), Malformed> {
    let bytes = json.as_bytes();
    let start = at + 1;
    let mut i = start;
    let mut escaped = false;
    loop {
        let n = memchr::memchr2(b'"', b'\\', &bytes[i..]).ok_or(Malformed)?;
        i += n;
        if bytes[i] == b'\\' {
            escaped = true;
            i += 2;
            if i > bytes.len() {
                return Err(Malformed);
            }
        } else {
            let raw = &json[start..i];
            return Ok((Text { raw, escaped }, i + 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(json: &str, needle: &str) -> Option<Found> {
        find(json, &Needle::new(needle).unwrap())
    }

    fn field(path: &str, value: &str) -> Option<Found> {
        Some(Found::Field {
            path: path.into(),
            value: value.into(),
        })
    }

    const ROW: &str = r#"{"id":"r1","type":"repo","name":"alpha-copy-3","display_name":"Alpha","status":"active","properties":{"owner":{"name":"Zoë"},"tags":["x","Blue Sky"],"stars":1.50,"odd key":true,"esc":"a\"b\u00e9"}}"#;

    #[test]
    fn a_column_match_says_nothing_beside_the_row() {
        assert_eq!(found(ROW, "REPO"), Some(Found::Column));
        assert_eq!(found(ROW, "alp"), Some(Found::Column), "display_name");
        assert_eq!(found(ROW, "activ"), Some(Found::Column));
    }

    #[test]
    fn another_field_is_named_with_its_value() {
        assert_eq!(found(ROW, "zo"), field("properties.owner.name", "Zoë"));
        assert_eq!(found(ROW, "ZOË"), field("properties.owner.name", "Zoë"));
        assert_eq!(found(ROW, "sky"), field("properties.tags[1]", "Blue Sky"));
        assert_eq!(found(ROW, "1.5"), field("properties.stars", "1.50"));
        assert_eq!(found(ROW, "tru"), field(r#"properties."odd key""#, "true"));
        // `name` is not shown when there is a display name.
        assert_eq!(found(ROW, "copy-3"), field("name", "alpha-copy-3"));
        let no_display = r#"{"id":"r2","name":"alpha-copy-3"}"#;
        assert_eq!(found(no_display, "copy-3"), Some(Found::Column));
    }

    #[test]
    fn keys_and_escapes_are_not_values() {
        assert_eq!(found(ROW, "propert"), None);
        assert_eq!(found(ROW, "odd"), None);
        assert_eq!(found(ROW, "u00e9"), None);
        assert_eq!(found(ROW, "\\\""), None);
        // What the escapes stand for is found.
        assert_eq!(found(ROW, "a\"bé"), field("properties.esc", "a\"bé"));
    }

    /// Without escapes, the text alone settles most rows: it must agree with the walk of every
    /// value, whatever the needle hits (a key, a value, both, a quote, across tokens).
    #[test]
    fn the_text_alone_agrees_with_the_walk() {
        let json = r#"{"id":"r1","type":"repo","properties":{"owner":{"login":"alice"},"stars":1.50,"ok":true,"n":null,"tags":["key:","x"],"key":"value"}}"#;
        assert!(!json.contains('\\'));
        for needle in [
            "alice",
            "ALI",
            "owner",
            "propert",
            "1.5",
            "1.50,",
            "true",
            "rue",
            "null",
            "key",
            "key:",
            "\"",
            "e\"",
            ":",
            "x",
            "value",
            "valu",
            "r1",
            "}",
            "login\":\"al",
        ] {
            let needle = Needle::new(needle).unwrap();
            assert_eq!(
                find(json, &needle).is_some(),
                find_by_walking(json, &needle).is_some(),
                "{:?}",
                needle.text()
            );
        }
        assert_eq!(find(json, &Needle::new("propert").unwrap()), None);
        assert_eq!(
            find(json, &Needle::new("key:").unwrap()),
            field("properties.tags[0]", "key:")
        );
    }

    #[test]
    fn a_long_value_is_cut_around_the_match() {
        let long = format!("{}needle{}", "x".repeat(200), "y".repeat(200));
        let json = format!(r#"{{"id":"a","p":{{"d":"{long}"}}}}"#);
        let Some(Found::Field { path, value }) = found(&json, "NEEDLE") else {
            panic!("not found")
        };
        assert_eq!(path, "p.d");
        assert!(value.starts_with('…') && value.ends_with('…'), "{value}");
        assert_eq!(value.chars().count(), SHOWN_CHARS + 2);
        assert!(value.contains("needle"), "{value}");
    }

    #[test]
    fn malformed_rows_and_odd_json_never_panic() {
        assert_eq!(found(r#""oops""#, "malf"), Some(Found::Column));
        assert_eq!(found(r#""oops""#, "oop"), field(".", "oops"));
        assert_eq!(found("[1,[2,[]],{}]", "2"), field("[1][0]", "2"));
        for bad in [
            "{",
            "{\"a\"",
            "{\"a\":}",
            "[1,",
            "\"ab",
            "{\"a\":1,}",
            "{\"\\",
            "nul l",
        ] {
            let _ = found(bad, "a");
            let _ = found(bad, "l");
        }
        let deep = format!("{}\"x\"{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(
            found(&deep, "x").map(|f| matches!(f, Found::Field { .. })),
            Some(true)
        );
    }
}
