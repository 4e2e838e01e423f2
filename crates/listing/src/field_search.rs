//! What `/` finds in a row's JSON: a case-insensitive substring of the text of some value (a
//! string's characters once unescaped, a number as it was sent, `true`, `false`, `null`), at any
//! depth. Key names and JSON escapes are not values: `/prop` does not find every row through the
//! key `properties`, nor `/u00e9` an escaped `é`.
//!
//! A row is found either by a column (a value the table shows: type, name, status, id, external
//! id) or by another field, which is then named beside the row (`properties.owner.name: Zoë`).
//! Most rows are settled without parsing: a text that holds no backslash and not the needle (in
//! any case) cannot hold it in a value. The rest are walked, without building a tree.

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt::Write as _;
use std::ops::ControlFlow;

use aho_corasick::AhoCorasick;
use memchr::memmem;

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
    /// For an ASCII needle (any other is looked for in lowercased copies, slowly).
    ascii: Option<AsciiFinders>,
    /// `/re/`: a regular expression (case-insensitive) rather than a text; then `ascii` is
    /// `None`, and each value is tested on the walk.
    regex: Option<regex::Regex>,
    /// `!text`: the rows where no value holds it.
    inverse: bool,
}

/// The largest compiled regular expression `/` builds: a pasted pattern cannot take the
/// memory of the search's threads.
const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// Two ways to find an ASCII needle, fast (SIMD where the CPU has it).
#[derive(Clone, Debug)]
struct AsciiFinders {
    /// In a text as it is, in either case: one value.
    any_case: AhoCorasick,
    /// In a text made ASCII lowercase, faster still where the needle's bytes are frequent: a
    /// whole row, in a copy.
    lowercase: memmem::Finder<'static>,
}

impl Needle {
    /// `None` for an empty text (everything matches).
    pub fn new(text: &str) -> Option<Needle> {
        if text.is_empty() {
            return None;
        }
        let text = text.to_lowercase();
        let ascii = text.is_ascii().then(|| AsciiFinders {
            any_case: AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build([&text])
                .expect("one short literal always builds"),
            lowercase: memmem::Finder::new(text.as_bytes()).into_owned(),
        });
        Some(Needle {
            text,
            ascii,
            regex: None,
            inverse: false,
        })
    }

    /// What the user typed after `/`: a text to look for in any case; `!text`, the rows
    /// without it; `/pattern/` (`!/pattern/`), a regular expression. `None` for an empty text
    /// (everything matches), an error for a pattern that is not one.
    pub fn parse(typed: &str) -> Result<Option<Needle>, String> {
        let (inverse, rest) = match typed.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, typed),
        };
        let pattern = (rest.len() >= 3)
            .then(|| rest.strip_prefix('/')?.strip_suffix('/'))
            .flatten();
        let needle = match pattern {
            Some(pattern) => {
                let regex = regex::RegexBuilder::new(pattern)
                    .case_insensitive(true)
                    .size_limit(REGEX_SIZE_LIMIT)
                    .build()
                    .map_err(|e| {
                        let said = e.to_string();
                        let last = said.lines().last().unwrap_or_default().to_owned();
                        format!(
                            "/{}/ is not a regular expression: {last}",
                            crate::sanitize::line(pattern)
                        )
                    })?;
                Some(Needle {
                    text: rest.to_owned(),
                    ascii: None,
                    regex: Some(regex),
                    inverse,
                })
            }
            None => Needle::new(rest),
        };
        Ok(needle.map(|n| Needle { inverse, ..n }))
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether the rows it keeps are those without it (`!text`).
    pub fn inverse(&self) -> bool {
        self.inverse
    }

    /// Whether every row `next` keeps is among those this keeps: a longer plain text, typed on.
    pub fn narrows_to(&self, next: &Needle) -> bool {
        let plain = |n: &Needle| n.regex.is_none() && !n.inverse;
        plain(self) && plain(next) && next.text.contains(&self.text)
    }

    /// Whether `haystack` holds the needle, ignoring case.
    pub fn is_in(&self, haystack: &str) -> bool {
        if let Some(regex) = &self.regex {
            return regex.is_match(haystack);
        }
        match &self.ascii {
            Some(finders) => finders.any_case.is_match(haystack),
            None => haystack.to_lowercase().contains(&self.text),
        }
    }

    /// The needle's occurrences in the values of `json`, a JSON text without escapes, found
    /// from the text alone as they are asked for (`lowercase` is `json` made ASCII lowercase:
    /// same length, same offsets). `None` for a needle that is not ASCII (the walk then looks
    /// at every value).
    fn in_values<'a>(&'a self, json: &'a str, lowercase: &'a [u8]) -> Option<InValues<'a>> {
        let finders = self.ascii.as_ref()?;
        Some(InValues {
            found: finders.lowercase.find_iter(lowercase),
            len: self.text.len(),
            bytes: json.as_bytes(),
            // A value holds a quote only escaped.
            none: self.text.contains('"'),
            quotes: 0,
            counted: 0,
        })
    }

    /// Where in `haystack` (a byte offset) the needle is, ignoring case.
    fn position_in(&self, haystack: &str) -> Option<usize> {
        if let Some(regex) = &self.regex {
            return regex.find(haystack).map(|m| m.start());
        }
        match &self.ascii {
            Some(finders) => finders.any_case.find(haystack).map(|m| m.start()),
            // Lowercasing may change lengths: count in characters, then map back.
            None => {
                let lower = haystack.to_lowercase();
                let at = lower[..lower.find(&self.text)?].chars().count();
                haystack.char_indices().nth(at).map(|(i, _)| i)
            }
        }
    }
}

/// Where the needle is in a value (inside a string that is not a key, or inside a number or
/// literal) of a JSON text without escapes, occurrence by occurrence, in the order of the text.
struct InValues<'a> {
    /// Where the needle starts in the text, in order, not overlapping.
    found: memmem::FindIter<'a, 'a>,
    /// The needle's length, in bytes.
    len: usize,
    bytes: &'a [u8],
    /// The needle holds a quote: no value can hold it.
    none: bool,
    /// Quotes before `counted`: an odd count is inside a string.
    quotes: usize,
    counted: usize,
}

/// The text is not JSON enough to tell where the needle is (a string that never ends).
struct Unsure;

impl InValues<'_> {
    /// Where the next occurrence in a value starts, if there is one.
    fn next_start(&mut self) -> Result<Option<usize>, Unsure> {
        if self.none {
            return Ok(None);
        }
        let bytes = self.bytes;
        // Non-overlapping matches are enough: the needle holds no quote, so an occurrence
        // overlapping one that was turned down is in the same key, or the same run of text
        // outside strings, and is turned down too.
        for start in self.found.by_ref() {
            let end = start + self.len;
            self.quotes += memchr::memchr_iter(b'"', &bytes[self.counted..start]).count();
            self.counted = start;
            let in_a_value = if self.quotes % 2 == 1 {
                // In a string: a value's, unless it is followed by `:`, and not past its end.
                let close = memchr::memchr(b'"', &bytes[start..]).ok_or(Unsure)? + start;
                end <= close && bytes.get(skip_space(bytes, close + 1)) != Some(&b':')
            } else {
                bytes[start..end]
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'+'))
            };
            if in_a_value {
                return Ok(Some(start));
            }
        }
        Ok(None)
    }
}

/// How a row was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// By a value the table shows.
    Column,
    /// By another field, written in the [`Note`].
    Field,
}

/// The field a row was found by, when no column holds the needle: its path
/// (`properties.tags[2]`) and its value, cut around the match (not sanitised: the caller does,
/// where it draws). Shown beside the row as `path: value`. A search writes a note for nearly
/// every row it finds, so one is kept and written over from row to row, never allocated each.
#[derive(Clone, Debug, Default)]
pub(crate) struct Note {
    pub path: String,
    pub value: String,
}

/// How `needle` is in the row whose JSON is `json`; `None` when no value holds it. With
/// [`Found::Field`], `note` says which field.
pub(crate) fn find(json: &str, needle: &Needle, note: &mut Note) -> Option<Found> {
    search(json, needle, Some(note)).map(|found| found.unwrap_or(Found::Field))
}

/// Whether some value of `json` holds `needle`, as [`find`] says, without working out which
/// field: most rows are answered from the text alone, where naming the field walks the row. A
/// search over many rows answers with this first, and names the fields after.
pub(crate) fn holds(json: &str, needle: &Needle) -> bool {
    search(json, needle, None).is_some()
}

/// [`find`], or with no `note` to write, [`holds`]: `Some(None)` when the row holds the needle
/// and the walk that would say how was not made.
fn search(json: &str, needle: &Needle, note: Option<&mut Note>) -> Option<Option<Found>> {
    let name_field = note.is_some();
    let mut unused = Note::default();
    let note = note.unwrap_or(&mut unused);
    let malformed = !json.trim_start().starts_with('{');
    if malformed && needle.is_in(MALFORMED) {
        return Some(Some(Found::Column));
    }
    if needle.ascii.is_none() || memchr::memchr(b'\\', json.as_bytes()).is_some() {
        return find_by_walking(json, needle, None, note).map(Some);
    }
    // Without an escape, every value's text is in the JSON as it is: where the needle is in
    // the text settles most rows, and tells the walk which values to look at.
    thread_local! {
        /// The row made lowercase, in a buffer kept from one row to the next.
        static LOWERCASE: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    }
    LOWERCASE.with_borrow_mut(|lowercase| {
        lowercase.clear();
        lowercase.extend_from_slice(json.as_bytes());
        lowercase.make_ascii_lowercase();
        let mut hits = needle.in_values(json, lowercase)?;
        match hits.next_start() {
            Ok(None) => None,
            Ok(Some(_)) if !name_field => Some(None),
            Ok(Some(at)) => find_by_walking(
                json,
                needle,
                Some(Hits {
                    rest: hits,
                    next: Some(at),
                }),
                note,
            )
            .map(Some),
            Err(Unsure) => find_by_walking(json, needle, None, note).map(Some),
        }
    })
}

/// [`find`], from the walk of the values: each is tested, or with `hits` (where the needle is
/// in values), only told whether it holds one, and the walk stops after the last.
fn find_by_walking(
    json: &str,
    needle: &Needle,
    mut hits: Option<Hits<'_>>,
    note: &mut Note,
) -> Option<Found> {
    let mut search = Search::default();
    let walked = walk(json, |path, value| {
        search.note_display_name(path, value);
        let start = offset_in(json, value.raw.raw);
        let end = start + value.raw.raw.len();
        let known = hits.as_mut().map(|hits| hits.holds(start, end));
        let holds = match known {
            Some(Ok(holds)) => holds,
            Some(Err(Unsure)) | None => {
                hits = None;
                needle.is_in(&value.text())
            }
        };
        if holds && search.visit(path, value).is_break() {
            return Walk::Stop;
        }
        // Past the last hit, only a `display_name` still to come could change the answer (a
        // match in `name` is a column only without one).
        let waits_for_title = search.name.is_some() && !search.display_name;
        if !waits_for_title
            && hits
                .as_mut()
                .is_some_and(|h| !h.any_from(end).unwrap_or(true))
        {
            return Walk::Stop;
        }
        // Once a field is found, a later match can only be a column's, at the top level.
        match search.name.is_some() || search.other.is_some() {
            true => Walk::TopLevelOnly,
            false => Walk::Continue,
        }
    });
    if walked.is_err() {
        // Not JSON (never from the list, which keeps what it parsed): matched as the text.
        if !needle.is_in(json) {
            return None;
        }
        note.path.clear();
        note.path.push('.');
        note.value.clear();
        cut_around(json, needle, &mut note.value);
        return Some(Found::Field);
    }
    if search.column || (search.name.is_some() && !search.display_name) {
        return Some(Found::Column);
    }
    let first = match (search.name, search.other) {
        (Some(a), Some(b)) => Some(if a.value.at < b.value.at { a } else { b }),
        (a, b) => a.or(b),
    }?;
    note.path.clear();
    show_path(&first.path, &mut note.path);
    note.value.clear();
    cut_around(&first.value.text(), needle, &mut note.value);
    Some(Found::Field)
}

/// The needle's occurrences in values, as the walk goes by them.
struct Hits<'a> {
    rest: InValues<'a>,
    /// The first occurrence not yet gone by.
    next: Option<usize>,
}

impl Hits<'_> {
    /// Whether an occurrence is at `from` or after.
    fn any_from(&mut self, from: usize) -> Result<bool, Unsure> {
        while self.next.is_some_and(|at| at < from) {
            self.next = self.rest.next_start()?;
        }
        Ok(self.next.is_some())
    }

    /// Whether the value at `start..end` holds an occurrence.
    fn holds(&mut self, start: usize, end: usize) -> Result<bool, Unsure> {
        Ok(self.any_from(start)? && self.next.is_some_and(|at| at < end))
    }
}

/// Where `part`, a slice of `whole`, starts in it.
fn offset_in(whole: &str, part: &str) -> usize {
    part.as_ptr() as usize - whole.as_ptr() as usize
}

/// A value that holds the needle, and where it is.
struct Match<'a> {
    path: Vec<Step<'a>>,
    value: Value<'a>,
}

/// What the walk of one row found so far.
#[derive(Default)]
struct Search<'a> {
    /// A column matched: the row is found, nothing to say beside it.
    column: bool,
    /// The row has a `display_name` string (then `name` is not shown).
    display_name: bool,
    /// The first match in `name`, and the first in a field that is no column (the earlier is
    /// said; its note written only once the walk is over).
    name: Option<Match<'a>>,
    other: Option<Match<'a>>,
}

impl<'a> Search<'a> {
    /// Every value passes here, whether or not it may hold the needle.
    fn note_display_name(&mut self, path: &[Step<'_>], value: Value<'_>) {
        if value.string && matches!(path, [Step::Key(key)] if key.text() == "display_name") {
            self.display_name = true;
        }
    }

    /// A value that holds the needle.
    fn visit(&mut self, path: &[Step<'a>], value: Value<'a>) -> ControlFlow<()> {
        // A key may come escaped (`"\u0069d"` is `id`).
        let top_key = match path {
            [Step::Key(key)] => Some(key.text()),
            _ => None,
        };
        let first = match top_key.as_deref() {
            Some(key) if value.string && COLUMN_KEYS.contains(&key) => {
                self.column = true;
                return ControlFlow::Break(());
            }
            Some("name") if value.string => &mut self.name,
            _ => &mut self.other,
        };
        if first.is_none() {
            *first = Some(Match {
                path: path.to_vec(),
                value,
            });
        }
        ControlFlow::Continue(())
    }
}

/// `properties.owner.name`, `links.links[0].url`; a key that is not a plain word is quoted as jq
/// does (`."a key"`). The root alone is `.`.
fn show_path(path: &[Step<'_>], out: &mut String) {
    for step in path {
        match step {
            Step::Index(i) => {
                let _ = write!(out, "[{i}]");
            }
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
}

/// Writes `text`, or when long, about [`SHOWN_CHARS`] of it from a little before the match,
/// with `…` where it was cut.
fn cut_around(text: &str, needle: &Needle, out: &mut String) {
    if text.len() <= SHOWN_CHARS || text.chars().count() <= SHOWN_CHARS {
        out.push_str(text);
        return;
    }
    let at = needle.position_in(text).unwrap_or(0);
    let before = text[..at].chars().count();
    let start = before.saturating_sub(SHOWN_CHARS / 4);
    if start > 0 {
        out.push('…');
    }
    let mut rest = text.chars().skip(start);
    out.extend(rest.by_ref().take(SHOWN_CHARS));
    if rest.next().is_some() {
        out.push('…');
    }
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
    fn text(&self) -> Cow<'_, str> {
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
    fn text(&self) -> Cow<'_, str> {
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

/// What the walk does after a value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Walk {
    Continue,
    Stop,
    /// Goes on with the values at the top level only (the fields of the row): the arrays and
    /// objects below are skipped, unread.
    TopLevelOnly,
}

/// Calls `visit` with each scalar value of `json` and its path, in the order of the text, until
/// it says stop. Never recurses (any depth is safe) and allocates only the path.
fn walk<'a>(
    json: &'a str,
    mut visit: impl FnMut(&[Step<'a>], Value<'a>) -> Walk,
) -> Result<(), Malformed> {
    let bytes = json.as_bytes();
    let mut at = 0;
    let mut open: Vec<Open> = Vec::new();
    let mut path: Vec<Step<'a>> = Vec::new();
    let mut top_level_only = false;
    loop {
        // A value.
        at = skip_space(bytes, at);
        match bytes.get(at) {
            Some(b'{' | b'[') if top_level_only && !open.is_empty() => {
                at = close(json, at + 1, 1)?;
            }
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
                at = end;
                match visit(&path, value) {
                    Walk::Continue => {}
                    Walk::Stop => return Ok(()),
                    Walk::TopLevelOnly => {
                        top_level_only = true;
                        if open.len() > 1 {
                            at = close(json, at, open.len() - 1)?;
                            open.truncate(1);
                            path.truncate(1);
                        }
                    }
                }
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

/// Where the text is once `levels` arrays or objects open at `at` have closed: just after the
/// last one's end. What lies between is only skipped over (its strings whole).
fn close(json: &str, mut at: usize, mut levels: usize) -> Result<usize, Malformed> {
    let bytes = json.as_bytes();
    while levels > 0 {
        match bytes.get(at) {
            Some(b'"') => {
                at = string(json, at)?.1;
                continue;
            }
            Some(b'{' | b'[') => levels += 1,
            Some(b'}' | b']') => levels -= 1,
            Some(_) => {}
            None => return Err(Malformed),
        }
        at += 1;
    }
    Ok(at)
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

    /// What [`find`] says, with the note of a field.
    #[derive(Debug, PartialEq, Eq)]
    enum Seen {
        Column,
        Field { path: String, value: String },
    }

    fn seen_as(found: Option<Found>, note: Note) -> Option<Seen> {
        found.map(|found| match found {
            Found::Column => Seen::Column,
            Found::Field => Seen::Field {
                path: note.path,
                value: note.value,
            },
        })
    }

    fn seen(json: &str, needle: &Needle) -> Option<Seen> {
        // A note left by an earlier row must not show through.
        let mut note = Note {
            path: "stale".into(),
            value: "stale".into(),
        };
        seen_as(find(json, needle, &mut note), note)
    }

    fn walked(json: &str, needle: &Needle) -> Option<Seen> {
        let mut note = Note::default();
        seen_as(find_by_walking(json, needle, None, &mut note), note)
    }

    fn found(json: &str, needle: &str) -> Option<Seen> {
        seen(json, &Needle::new(needle).unwrap())
    }

    fn field(path: &str, value: &str) -> Option<Seen> {
        Some(Seen::Field {
            path: path.into(),
            value: value.into(),
        })
    }

    const ROW: &str = r#"{"id":"r1","type":"repo","name":"alpha-copy-3","display_name":"Alpha","status":"active","properties":{"owner":{"name":"Zoë"},"tags":["x","Blue Sky"],"stars":1.50,"odd key":true,"esc":"a\"b\u00e9"}}"#;

    /// What [`holds`] answers without naming a field is what [`find`] answers naming it.
    #[test]
    fn holds_agrees_with_find() {
        let rows = [
            ROW,
            r#"{"id":"r1","name":"x","properties":{"k":"Zoë zed","n":12.5,"key zed":1}}"#,
            r#"{"id":"r1","properties":{"a":"un\"zed\"","b":[true,null,"ZED"]}}"#,
            r#"{"id":"r1","properties":{"zed":1,"s":"a string that never ends}}"#,
            r#""a zed string, an item that is no object""#,
            r#"["malformed", 12.5]"#,
        ];
        for needle in [
            "zed", "ZED", "zoë", "12.5", "key", "blue", "alpha", "1.50", "mal", "\"", "e",
        ] {
            let needle = Needle::new(needle).unwrap();
            for row in rows {
                let found = find(row, &needle, &mut Note::default());
                assert_eq!(
                    holds(row, &needle),
                    found.is_some(),
                    "{row} {}",
                    needle.text()
                );
            }
        }
    }

    #[test]
    fn a_column_match_says_nothing_beside_the_row() {
        assert_eq!(found(ROW, "REPO"), Some(Seen::Column));
        assert_eq!(found(ROW, "alp"), Some(Seen::Column), "display_name");
        assert_eq!(found(ROW, "activ"), Some(Seen::Column));
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
        assert_eq!(found(no_display, "copy-3"), Some(Seen::Column));
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
                seen(json, &needle).is_some(),
                walked(json, &needle).is_some(),
                "{:?}",
                needle.text()
            );
        }
        assert_eq!(seen(json, &Needle::new("propert").unwrap()), None);
        // The walk stops after the last value that holds the needle, except to learn whether a
        // `display_name` follows a `name` that holds it.
        let late_title = r#"{"name":"alpha","p":{"n":"alpine"},"id":"r9","display_name":"Beta"}"#;
        for needle in ["alp", "alpha", "alpi", "r9", "beta", "9"] {
            let needle = Needle::new(needle).unwrap();
            assert_eq!(
                seen(late_title, &needle),
                walked(late_title, &needle),
                "{:?}",
                needle.text()
            );
        }
        assert_eq!(
            seen(late_title, &Needle::new("alp").unwrap()),
            field("name", "alpha")
        );
        assert_eq!(
            seen(json, &Needle::new("key:").unwrap()),
            field("properties.tags[0]", "key:")
        );
    }

    /// Once a field holds the needle, the walk skips what lies below the top level; a column
    /// further on still makes it a column match, with or without escapes in the row.
    #[test]
    fn after_a_field_a_later_column_still_wins() {
        for escape in ["", r#","e":"\u00e9""#] {
            let nested =
                r#"{"id":"r1","p":{"a":"blue one","deep":{"b":["blue two"]}},"l":[{"u":"blue"}]"#;
            let with_status = format!(r#"{nested}{escape},"status":"Blue"}}"#);
            assert_eq!(
                found(&with_status, "blue"),
                Some(Seen::Column),
                "{with_status}"
            );
            let without = format!(r#"{nested}{escape},"status":"ok"}}"#);
            assert_eq!(
                found(&without, "blue"),
                field("p.a", "blue one"),
                "{without}"
            );
            let titled = format!(r#"{nested}{escape},"name":"blue-3","display_name":"B"}}"#);
            assert_eq!(found(&titled, "blue"), field("p.a", "blue one"), "{titled}");
            let named = format!(r#"{nested}{escape},"name":"blue-3"}}"#);
            assert_eq!(found(&named, "blue"), Some(Seen::Column), "{named}");
        }
    }

    /// The list keeps each row as the service sent it: spaced out over lines, keys and values
    /// escaped where nothing needs it, `/` finds what it finds in the compact row, and says it
    /// the same way (by the text alone without escapes, by the walk with them).
    #[test]
    fn a_row_laid_out_otherwise_is_found_the_same() {
        let spaced = r#"{
  "id" : "r1",   "type": "repo",
  "name"	:	"alpha-copy-3",
  "display_name" : "Alpha",
  "status": "active",
  "properties" : {
    "owner" : { "name" : "Zoë" },
    "tags" : [ "x" , "Blue Sky" ],
    "stars" : 1.50 ,
    "odd key" : true,
    "esc" : "a\"b\u00e9"
  }
}"#;
        let escaped = spaced
            .replace(r#""id""#, r#""\u0069d""#)
            .replace(r#""display_name""#, r#""display\u005fname""#)
            .replace("active", r"\u0061ctive")
            .replace("Zoë", r"Zo\u00eb");
        // Without a backslash: settled by the text alone, spaces and line breaks and all.
        let plain = spaced.replace(",\n    \"esc\" : \"a\\\"b\\u00e9\"", "");
        assert!(!plain.contains('\\'), "{plain}");
        for row in [spaced, &escaped, &plain] {
            let value: serde_json::Value = serde_json::from_str(row).unwrap();
            let compact = serde_json::to_string(&value).unwrap();
            for needle in [
                "REPO", "alp", "activ", "zo", "ZOË", "sky", "1.5", "tru", "copy-3", "propert",
                "odd", "u00e9", "a\"bé", "r1", " ", ":", "\"", "e\"",
            ] {
                assert_eq!(
                    found(row, needle),
                    found(&compact, needle),
                    "{needle:?} in {row}"
                );
            }
        }
        assert_eq!(found(&escaped, "activ"), Some(Seen::Column));
        assert_eq!(found(&plain, "zo"), field("properties.owner.name", "Zoë"));
    }

    #[test]
    fn a_long_value_is_cut_around_the_match() {
        let long = format!("{}needle{}", "x".repeat(200), "y".repeat(200));
        let json = format!(r#"{{"id":"a","p":{{"d":"{long}"}}}}"#);
        let Some(Seen::Field { path, value }) = found(&json, "NEEDLE") else {
            panic!("not found")
        };
        assert_eq!(path, "p.d");
        assert!(value.starts_with('…') && value.ends_with('…'), "{value}");
        assert_eq!(value.chars().count(), SHOWN_CHARS + 2);
        assert!(value.contains("needle"), "{value}");
    }

    #[test]
    fn malformed_rows_and_odd_json_never_panic() {
        assert_eq!(found(r#""oops""#, "malf"), Some(Seen::Column));
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
            found(&deep, "x").map(|f| matches!(f, Seen::Field { .. })),
            Some(true)
        );
    }
}
