//! Reading a page of `resources.list` item by item. The spec leaves `properties` free-form, so one
//! item may hold what the parser cannot (nesting past its depth, a lone surrogate): that item is
//! marked with the reason and kept as the text it came as, and the rest of the page still loads.

use std::borrow::Cow;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::item_facts::{ItemFacts, ShownValues, SoundFields};
use super::types::{ListResponse, MalformedItem, PageItem};
use crate::json_peek::{self, Node};

/// Why an answer without `resources` is no page. Taken for an empty last page, a wrong base URL
/// (whose service answers `{"status": "ok"}`) would look like a service with no resources.
pub(crate) const NO_RESOURCES: &str = "the answer has no `resources`, which every page of \
     resources.list has (`[]` when empty): is the base URL that of the service?";

/// Whether a body that is a JSON object can be read as a page: only with `resources`
/// ([`NO_RESOURCES`] says why not), unless it is a refusal (`status` of `error`), which the
/// caller finds in `envelope` and says instead. The one rule of every reader of a page.
pub(crate) fn page_needs_resources(
    has_resources: bool,
    envelope: &Map<String, Value>,
) -> Result<(), String> {
    let refusal = envelope.get("status").and_then(Value::as_str) == Some("error");
    match has_resources || refusal {
        true => Ok(()),
        false => Err(NO_RESOURCES.to_owned()),
    }
}

/// How deep serde_json nests before it gives up (its recursion limit).
pub(crate) const MAX_DEPTH: usize = 128;

/// Names what makes valid JSON text unreadable to the parser, or `None` when `error` is a plain
/// syntax error. Said instead of "syntax error", which would be false.
pub fn beyond_parser(error: &serde_json::Error) -> Option<String> {
    let message = error.to_string();
    if message.starts_with("recursion limit exceeded") {
        Some(format!(
            "nested deeper than {MAX_DEPTH} levels, more than appdeck reads"
        ))
    } else if message.starts_with("lone leading surrogate")
        || message.starts_with("unexpected end of hex escape")
    {
        Some(
            "a string holds a lone surrogate escape (such as \\ud800), which is no Unicode \
             character"
                .to_owned(),
        )
    } else {
        None
    }
}

/// Reads a page from its body. The envelope (`next`, `response_type`, a `status` of `error`) is
/// read whole; each element of `resources` is read on its own, so that one the parser cannot
/// hold becomes a marked item instead of failing the page. `None` when the body is not a JSON
/// object: the caller words that error from the whole value (or the syntax error).
pub(crate) fn read_page(bytes: &[u8]) -> Option<Result<ListResponse, String>> {
    let Some(Node::Object(entries)) = json_peek::node(std::str::from_utf8(bytes).ok()?) else {
        return None;
    };
    let mut map = Map::new();
    let mut resources = None;
    for (key, raw) in entries {
        if key == "resources" {
            resources = Some(raw);
            continue;
        }
        match serde_json::from_str::<Value>(raw) {
            Ok(value) => {
                map.insert(key.into_owned(), value);
            }
            Err(e) => {
                let why = beyond_parser(&e).unwrap_or_else(|| e.to_string());
                return Some(Err(format!("`{key}` cannot be read: {why}")));
            }
        }
    }
    if let Err(no_page) = page_needs_resources(resources.is_some(), &map) {
        return Some(Err(no_page));
    }
    let items = match resources.map(serde_json::from_str::<Vec<&RawValue>>) {
        None => Vec::new(),
        Some(Ok(items)) => items.into_iter().map(read_item).collect(),
        Some(Err(_)) => {
            // Not an array: null reads as no items; anything else is named by its type.
            let raw = resources.unwrap_or("");
            if raw.trim() == "null" {
                Vec::new()
            } else {
                return Some(Err(format!(
                    "`resources` should be an array, found {}",
                    type_of_text(raw)
                )));
            }
        }
    };
    Some(Ok(ListResponse::from_map(map, items)))
}

/// Where an item's text lies in a page's body.
type Span = std::ops::Range<usize>;

/// A page of `resources.list` kept as the bytes that came: the envelope read, and where each
/// item's text lies in the body. Items are read only when a caller needs them as records (a
/// table); `list -o ndjson` writes their bytes as they are, which keeps every number, key order
/// and unknown field by construction and costs one scan of the body.
#[derive(Clone, Debug, PartialEq)]
pub struct RawPage {
    /// Checked as UTF-8 once: the items' texts are then slices of it, never checked again (on
    /// the UI thread, the check of each item's text took 5% of `L`'s samples).
    body: String,
    items: Vec<Span>,
    /// `next`, `response_type` and the rest of the envelope; its `resources` are empty.
    pub envelope: ListResponse,
}

impl RawPage {
    /// Reads the envelope and finds the items. `Err` hands the body back when it is not a JSON
    /// object whose `resources` is an array or null, or when part of the envelope cannot be
    /// read: the caller words that error from the whole body. A refusal without `resources` is
    /// a page of no items, whose envelope the caller finds the refusal in.
    pub fn read(body: Vec<u8>) -> Result<RawPage, Vec<u8>> {
        RawPage::of_text(String::from_utf8(body).map_err(std::string::FromUtf8Error::into_bytes)?)
    }

    /// [`Self::read`] of a body already known to be UTF-8.
    fn of_text(body: String) -> Result<RawPage, Vec<u8>> {
        match envelope_and_spans(&body) {
            Some((map, items)) => Ok(RawPage {
                body,
                items,
                envelope: ListResponse::from_map(map, Vec::new()),
            }),
            None => Err(body.into_bytes()),
        }
    }

    /// A page already read item by item, kept as each item's JSON text.
    pub(crate) fn from_response(mut page: ListResponse) -> RawPage {
        let mut body = String::new();
        let mut items = Vec::new();
        for item in std::mem::take(&mut page.resources) {
            let start = body.len();
            // A page item always serialises: it is JSON text or a JSON value.
            body.push_str(&serde_json::to_string(&item).unwrap_or_default());
            items.push(start..body.len());
        }
        RawPage {
            body,
            items,
            envelope: page,
        }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Keeps the first `len` items (`list --max-items`).
    pub fn truncate(&mut self, len: usize) {
        self.items.truncate(len);
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Each item's JSON text, as it came.
    pub fn raw_items(&self) -> impl Iterator<Item = &[u8]> {
        self.texts().map(str::as_bytes)
    }

    /// Each item's JSON text, as it came.
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        // Spans the reader found, at a value's first and past its last byte.
        (self.items.iter()).map(|span| self.body.get(span.clone()).unwrap_or_default())
    }

    /// The items read as records (marked when odd), as a table needs them.
    pub(crate) fn items(&self) -> Vec<PageItem> {
        self.raw_items().map(read_item_bytes).collect()
    }

    /// The page with its items read, as [`ListResponse`].
    pub(crate) fn into_response(self) -> ListResponse {
        let items = self.items();
        ListResponse {
            resources: items,
            ..self.envelope
        }
    }

    /// Keeps the items whose text `keep` says yes to, in order.
    pub fn retain_raw(&mut self, mut keep: impl FnMut(&[u8]) -> bool) {
        let body = self.body.as_bytes();
        self.items.retain(|span| keep(&body[span.clone()]));
    }

    /// Puts the items of `next` after these (its envelope is dropped): the pages of a listing
    /// held as one, to be sorted.
    pub fn append(&mut self, next: RawPage) {
        let shift = self.body.len();
        self.body.push_str(&next.body);
        (self.items).extend(
            next.items
                .into_iter()
                .map(|s| s.start + shift..s.end + shift),
        );
    }

    /// Puts the items in the order of `order` (each index once).
    pub fn reorder(&mut self, order: &[usize]) {
        self.items = order.iter().map(|&i| self.items[i].clone()).collect();
    }

    /// Drops the items that [`super::paging::keeps_type`] drops under `wanted`: an item whose
    /// `type` is not a string it can read has none.
    pub(crate) fn retain_type(&mut self, wanted: &str) {
        #[derive(serde::Deserialize)]
        struct TypeOnly {
            #[serde(rename = "type", default)]
            resource_type: Option<Value>,
        }
        let body = self.body.as_bytes();
        self.items.retain(|span| {
            let resource_type = match serde_json::from_slice::<TypeOnly>(&body[span.clone()]) {
                Ok(TypeOnly {
                    resource_type: Some(Value::String(t)),
                }) => Some(t),
                _ => None,
            };
            super::paging::keeps_type(resource_type.as_deref(), Some(wanted))
        });
    }
}

/// A page as the TUI's list takes it: what the list shows of each item ([`ItemFacts`]), read
/// where the answer is read (off the UI thread), beside its text as it came, which the list
/// keeps and `:export` writes.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadPage {
    pub raw: RawPage,
    items: Vec<ItemFacts>,
}

impl From<RawPage> for ReadPage {
    fn from(raw: RawPage) -> ReadPage {
        ReadPage {
            items: raw.texts().map(ItemFacts::read).collect(),
            raw,
        }
    }
}

impl ReadPage {
    /// [`RawPage::read`] and each item's [`ItemFacts`] from one scan of the body, which finds
    /// each item's members as it finds the item, where reading the facts from each item's text
    /// went over all of its bytes a second time: `L` over 100,000 rows
    /// (`benches/tui_load_all.sh`, a quiet machine, 5 runs alternating with the two scans) took
    /// 462 ms (1.97x the CLI) instead of 526 ms (2.14x), medians. A page with an item that is not
    /// an object with members is read as before.
    pub fn read(body: Vec<u8>) -> Result<ReadPage, Vec<u8>> {
        let body = String::from_utf8(body).map_err(std::string::FromUtf8Error::into_bytes)?;
        let Some((map, scanned)) = envelope_and_items::<ScannedItem>(&body) else {
            return RawPage::of_text(body).map(ReadPage::from);
        };
        let mut spans = Vec::with_capacity(scanned.len());
        let mut items = Vec::with_capacity(scanned.len());
        for item in scanned {
            let Some(span) = item.span_in(&body) else {
                return RawPage::of_text(body).map(ReadPage::from);
            };
            let json = &body[span.clone()];
            let facts = (item.shown)
                .filter(|_| surely_readable(json))
                .and_then(|shown| shown.facts(json));
            items.push(facts.unwrap_or_else(|| ItemFacts::read(json)));
            spans.push(span);
        }
        Ok(ReadPage {
            raw: RawPage {
                body,
                items: spans,
                envelope: ListResponse::from_map(map, Vec::new()),
            },
            items,
        })
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// `next`, `response_type` and the rest of the envelope.
    pub fn envelope(&self) -> &ListResponse {
        &self.raw.envelope
    }

    /// What the list shows of each item, beside its JSON text as it came (which the facts'
    /// texts are read from).
    pub fn items_and_texts(&self) -> impl Iterator<Item = (&ItemFacts, Cow<'_, str>)> {
        (self.items.iter()).zip(self.raw.texts().map(Cow::Borrowed))
    }
}

/// A page read in one pass: the envelope's values as their text, `resources` as its elements
/// read as `I`. Fails when `resources` is neither an array nor null.
struct RawEnvelope<'a, I> {
    entries: Vec<(String, &'a RawValue)>,
    items: Vec<I>,
    /// Whether the body has `resources` at all (a body without is no page).
    has_resources: bool,
}

impl<'de: 'a, 'a, I: Deserialize<'de>> Deserialize<'de> for RawEnvelope<'a, I> {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct Entries<I>(std::marker::PhantomData<I>);
        impl<'de, I: Deserialize<'de>> Visitor<'de> for Entries<I> {
            type Value = RawEnvelope<'de, I>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut envelope = RawEnvelope {
                    entries: Vec::new(),
                    items: Vec::new(),
                    has_resources: false,
                };
                while let Some(key) = map.next_key::<String>()? {
                    if key == "resources" {
                        let items: Option<Vec<I>> = map.next_value()?;
                        envelope.items = items.unwrap_or_default();
                        envelope.has_resources = true;
                    } else {
                        envelope.entries.push((key, map.next_value()?));
                    }
                }
                Ok(envelope)
            }
        }
        de.deserialize_map(Entries(std::marker::PhantomData))
    }
}

/// A page's envelope (without `resources`) and where each item lies in `body`.
fn envelope_and_spans(body: &str) -> Option<(Map<String, Value>, Vec<Span>)> {
    let (map, items) = envelope_and_items::<&RawValue>(body)?;
    let spans = items.iter().map(|item| span_in(body, item.get())).collect();
    Some((map, spans))
}

/// A page's envelope (without `resources`) and its items read as `I`.
fn envelope_and_items<'a, I: Deserialize<'a>>(
    body: &'a str,
) -> Option<(Map<String, Value>, Vec<I>)> {
    let envelope = serde_json::from_str::<RawEnvelope<I>>(body).ok()?;
    let mut map = Map::new();
    for (key, raw) in envelope.entries {
        map.insert(key, serde_json::from_str::<Value>(raw.get()).ok()?);
    }
    // Not a page: the whole reading says why.
    page_needs_resources(envelope.has_resources, &map).ok()?;
    Some((map, envelope.items))
}

/// An item of a page as [`ReadPage::read`] scans it: an object with members, its first key and
/// last value as text (which say where it lies), and, when its keys read plainly and its fields
/// are of their types, its shown fields' values. Fails on any other value.
struct ScannedItem<'a> {
    first_key: &'a str,
    last_value: &'a str,
    shown: Option<ShownValues<'a>>,
}

impl<'de: 'a, 'a> Deserialize<'de> for ScannedItem<'a> {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct Members;
        impl<'de> Visitor<'de> for Members {
            type Value = ScannedItem<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object with members")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut fields = SoundFields::default();
                let mut plain_keys = true;
                let mut first_key = None;
                let mut last_value = "";
                while let Some((key, value)) = map.next_entry::<&'de RawValue, &'de RawValue>()? {
                    let (key, value) = (key.get(), value.get());
                    first_key.get_or_insert(key);
                    last_value = value;
                    match json_peek::string_text(key) {
                        Some(key) => fields.push(key, value),
                        // An escaped key: the item is read whole.
                        None => plain_keys = false,
                    }
                }
                let first_key = first_key
                    .ok_or_else(|| serde::de::Error::custom("an object with no member"))?;
                Ok(ScannedItem {
                    first_key,
                    last_value,
                    shown: fields.checked().filter(|_| plain_keys),
                })
            }
        }
        de.deserialize_map(Members)
    }
}

impl ScannedItem<'_> {
    /// Where the item lies in `body`, the text it was read from: from the `{` before its first
    /// key to the `}` after its last value.
    fn span_in(&self, body: &str) -> Option<Span> {
        let bytes = body.as_bytes();
        let key = span_in(body, self.first_key);
        let value = span_in(body, self.last_value);
        let open = bytes[..key.start].trim_ascii_end().len().checked_sub(1)?;
        let after = bytes.get(value.end..)?;
        let close = value.end + (after.len() - after.trim_ascii_start().len());
        let braced = bytes.get(open) == Some(&b'{') && bytes.get(close) == Some(&b'}');
        braced.then_some(open..close + 1)
    }
}

/// Whether serde_json reads an item's text whole for sure ([`json_peek::Facts::surely_readable`]):
/// no `\u` escape (so no surrogate) and few enough brackets that they cannot nest too deep are
/// found without a scan that tells strings apart; any other item is scanned. Counted byte by
/// byte, the brackets took 7% of `L`'s samples (perf); found by memchr, 2.5%.
fn surely_readable(json: &str) -> bool {
    let bytes = json.as_bytes();
    let few_brackets = memchr::memchr2_iter(b'{', b'[', bytes)
        .nth(json_peek::SURELY_READABLE_DEPTH)
        .is_none();
    // A `\` escape followed by `u` counts too: a needless scan only.
    let no_u_escape = memchr::memchr_iter(b'\\', bytes).all(|at| bytes.get(at + 1) != Some(&b'u'));
    (few_brackets && no_u_escape) || json_peek::facts(bytes).surely_readable()
}

/// Where `part`, a slice of `body`'s text, lies in `body`.
fn span_in(body: &str, part: &str) -> Span {
    let start = (part.as_ptr() as usize).saturating_sub(body.as_ptr() as usize);
    start..start + part.len()
}

/// One item from its bytes (valid UTF-8 JSON text, as the page reader found it).
pub fn read_item_bytes(bytes: &[u8]) -> PageItem {
    match std::str::from_utf8(bytes) {
        Ok(text) => read_item_text(text),
        Err(e) => PageItem::Malformed(MalformedItem {
            reason: e.to_string(),
            raw: Value::String(String::from_utf8_lossy(bytes).into_owned()),
            source: None,
        }),
    }
}

/// One element of `resources`.
fn read_item(raw: &RawValue) -> PageItem {
    read_item_text(raw.get())
}

/// One element of `resources` from its text: a record, or marked and kept as the text it came as.
pub fn read_item_text(text: &str) -> PageItem {
    match serde_json::from_str::<Value>(text) {
        Ok(value) => PageItem::from_value(value),
        Err(e) => PageItem::Malformed(MalformedItem {
            reason: beyond_parser(&e).unwrap_or_else(|| e.to_string()),
            raw: Value::String(text.to_owned()),
            source: RawValue::from_string(text.to_owned()).ok(),
        }),
    }
}

/// The JSON type of a value's text, by its first character.
fn type_of_text(raw: &str) -> &'static str {
    match raw.trim_start().bytes().next() {
        Some(b'{') => "an object",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        Some(b'[') => "an array",
        _ => "a number",
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn page(text: &str) -> ListResponse {
        match read_page(text.as_bytes()) {
            Some(Ok(page)) => page,
            Some(Err(e)) => panic!("not a page: {e}"),
            None => panic!("not an object"),
        }
    }

    fn deep(levels: usize) -> String {
        format!("{}1{}", "[".repeat(levels), "]".repeat(levels))
    }

    #[test]
    fn an_item_nested_too_deep_marks_only_itself() {
        let text = format!(
            r#"{{"resources": [{{"id": "a"}}, {{"id": "deep", "properties": {{"x": {}}}}}, {{"id": "c"}}], "next": "n2"}}"#,
            deep(1000)
        );
        let page = page(&text);
        assert_eq!(page.resources.len(), 3);
        assert!(page.resources[0].problems().is_empty());
        assert_eq!(
            page.resources[1].problems(),
            [format!(
                "nested deeper than {MAX_DEPTH} levels, more than appdeck reads"
            )]
        );
        assert!(page.resources[2].problems().is_empty());
        assert_eq!(page.next_cursor(), Some("n2"));
        // Written back as it came, byte for byte.
        let written = serde_json::to_string(&page.resources[1]).unwrap();
        assert!(
            written.starts_with(r#"{"id": "deep""#),
            "{}",
            &written[..40]
        );
        assert!(written.ends_with(&format!("{}}}}}", "]".repeat(1000))));
    }

    #[test]
    fn a_lone_surrogate_marks_only_its_item() {
        let page = page(r#"{"resources": [{"id": "a", "name": "\ud800"}, {"id": "b"}]}"#);
        assert_eq!(page.resources.len(), 2);
        assert!(page.resources[0].problems()[0].contains("lone surrogate"));
        assert!(page.resources[1].problems().is_empty());
        assert_eq!(
            serde_json::to_string(&page.resources[0]).unwrap(),
            r#"{"id": "a", "name": "\ud800"}"#
        );
    }

    /// Items of every odd kind, for the readers that read part of an item to agree with reading
    /// it whole.
    pub(crate) fn odd_items() -> Vec<String> {
        let mut items: Vec<String> = [
            r#"{"id":"r1","type":"repo","display_name":"A","status":"active","updated_at":"2024-01-02T03:04:00Z","properties":{"stars":1E400,"o":{"k":[1,2.50]},"s":"x"},"links":{"links":[{"url":"u"}]}}"#,
            r#"{"id":"r2","properties":null}"#,
            r#"{"id":"r3","properties":5,"status":7}"#,
            r#"{"id":"r4","properties":[1,{"a":2}]}"#,
            r#"{"id":"r5"}"#,
            r#"{"id":"r6","properties":{"a":1},"properties":"now a string"}"#,
            r#"{"id":"r7","properties":"first","properties":{"a":1}}"#,
            r#"{"id":"r8","links":{"links":[5,{"url":3}]},"name":{"x":1}}"#,
            r#"{"\u0069d":"r9","x":-0,"y":[],"id":"r9 again"}"#,
            r#"{"id":"r10","name":"\ud800"}"#,
            r#"{"id":"r11","name":"\ud83d\ude00"}"#,
            r#""a string""#,
            "[1,{\"id\":2}]",
            "null",
            r#" {"id" : "r12" , "properties" : { "k" : 1 } } "#,
        ]
        .map(str::to_owned)
        .to_vec();
        for levels in [60, 100, 130] {
            let deep = format!("{}1{}", "[".repeat(levels), "]".repeat(levels));
            items.push(format!(
                r#"{{"id":"d{levels}","properties":{{"x":{deep}}}}}"#
            ));
        }
        items
    }

    /// Read in one scan, a page gives the texts, spans and facts that reading it and then each
    /// item's text give: whatever its items hold, spaced or not, alone or together.
    #[test]
    fn one_scan_reads_a_page_as_two_do() {
        let mut items = odd_items();
        items.extend(
            [
                r#"{"id":"s1","type":"t","display_name":"caf\u00e9","status":"ok","properties":{"a":[1,{"b":"}"}]}}"#,
                r#"{"id":"s2","n\u0061me":"escaped key","type":"t"}"#,
                r#"{"id":"s3","properties":{"s":"\ud83d\ude00"}}"#,
                r#"{"id":"s4","properties":{"s":"\\u not an escape"}}"#,
                r#"{"id":"s5","status":5}"#,
                r#"{"id":"s6","links":{"links":[{"url":3}]}}"#,
                "{}",
                " { \"id\" : \"s7\" , \"type\" :\"t\"\n} ",
            ]
            .map(str::to_owned),
        );
        let deep_but_plain = format!(
            r#"{{"id":"s8","properties":{{"a":{}}}}}"#,
            "[1],".repeat(80) + "2"
        );
        items.push(
            deep_but_plain
                .replace(r#""a":"#, r#""a":["#)
                .replace("2}}", "2]}}"),
        );
        let pages = (items.iter().map(|item| vec![item.clone()])).chain([
            items.clone(),
            items
                .iter()
                .filter(|i| i.trim().starts_with("{\""))
                .cloned()
                .collect(),
        ]);
        for page_items in pages {
            for spaced in [false, true] {
                let sep = if spaced { " ,\n " } else { "," };
                let body = format!(
                    r#"{{"next":"n","resources":{}[{}]{},"x":1E400}}"#,
                    if spaced { " " } else { "" },
                    page_items.join(sep),
                    if spaced { "\n" } else { "" },
                );
                let two = RawPage::read(body.clone().into_bytes()).map(ReadPage::from);
                assert_eq!(ReadPage::read(body.clone().into_bytes()), two, "{body}");
            }
        }
        // The one scan itself gives the facts of plain resources, not only its fallback (which
        // would pass the comparisons above on its own).
        let plain = r#"{"resources":[{"id":"a","type":"t","name":"n","status":"ok"},{"id":"b"}]}"#;
        let (_, scanned) = envelope_and_items::<ScannedItem>(plain).expect("read in one scan");
        for item in scanned {
            let span = item.span_in(plain).expect("its span");
            let facts = item.shown.and_then(|shown| shown.facts(&plain[span]));
            assert!(facts.is_some(), "the scan's own facts");
        }
    }

    #[test]
    fn the_envelope_is_read_as_before() {
        let page = page(r#"{"response_type": "list", "resources": null, "next": 5, "x": 1}"#);
        assert!(page.resources.is_empty());
        assert!(page.next_fault().is_some());
        assert_eq!(page.extra.get("x"), Some(&serde_json::json!(1)));
        assert!(matches!(
            read_page(br#"{"resources": {"a": 1}}"#),
            Some(Err(e)) if e == "`resources` should be an array, found an object"
        ));
        assert!(read_page(b"[1]").is_none());
        assert!(read_page(b"{").is_none());
    }

    #[test]
    fn a_body_without_resources_is_no_page_unless_it_is_a_refusal() {
        let body = br#"{"status": "ok"}"#;
        assert!(matches!(read_page(body), Some(Err(e)) if e == NO_RESOURCES));
        assert!(RawPage::read(body.to_vec()).is_err());
        assert!(ReadPage::read(body.to_vec()).is_err());
        // The caller finds the refusal in the envelope and says it instead.
        assert!(matches!(read_page(br#"{"status": "error"}"#), Some(Ok(_))));
        let refusal = RawPage::read(br#"{"status": "error"}"#.to_vec()).expect("a page");
        assert!(refusal.is_empty() && refusal.envelope.extra.contains_key("status"));
    }
}
