//! `appdeck history` and `appdeck history show ID`: the reports and connects sent (from the TUI
//! or the CLI) as recorded in the local store. Everything recorded came from a payload or a
//! server, so every text is neutralised before it is printed.

use std::io::Write;

use serde::Serialize;
use serde_json::value::RawValue;

use super::Failure;
use super::args::{EntryOutput, HistoryArgs, HistoryCommand, HistoryKind, HistoryOutput};
use super::report_diff::ChangeJson;
use super::table::{fit_widths, join_cells};
use crate::changes::Change;
use crate::config;
use crate::json_text;
use crate::sanitize;
use crate::store::{HistoryEntry, HistoryQuery, SendKind, Store};

const HEADERS: [&str; 7] = ["ID", "TIME (UTC)", "KIND", "TO", "SENT", "HTTP", "ANSWER"];
const MIN_WIDTHS: [usize; 7] = [2, 16, 4, 6, 12, 4, 8];

pub fn run(args: &HistoryArgs, width: usize, out: &mut impl Write) -> Result<(), Failure> {
    let store = open()?;
    let jq = super::shape::compile_jq(args.jq.as_deref())?;
    match &args.command {
        Some(HistoryCommand::Show(show)) => {
            let entry = store.history_entry(show.id)?.ok_or_else(|| {
                Failure::Usage(format!(
                    "no send with id {} in the history; `appdeck history` lists them",
                    show.id
                ))
            })?;
            if let Some(jq) = &jq {
                return write_jq(jq, &entry_text(&entry)?, out);
            }
            match show.output {
                EntryOutput::Text => write_entry(&entry, out)?,
                EntryOutput::Json => write_json(&entry_text(&entry)?, true, out)?,
            }
        }
        None => {
            let kind = args.kind.map(|k| match k {
                HistoryKind::Report => SendKind::Report,
                HistoryKind::Connect => SendKind::Connect,
            });
            let query = HistoryQuery {
                kind,
                limit: args.limit as usize,
            };
            let entries = store.history(&query)?;
            if let Some(jq) = &jq {
                return write_jq(jq, &entries_text(&entries)?, out);
            }
            list(&entries, kind, args.output, width, out)?;
        }
    }
    out.flush()?;
    Ok(())
}

/// Unlike a send, a listing has nothing to show without the store: it cannot be used is a
/// failure here.
fn open() -> Result<Store, Failure> {
    let env = config::Env::from_process()?;
    let path = config::store_path(&env).ok_or_else(|| {
        Failure::Usage(
            "no data directory to find the local store in; set APPDECK_DATA_DIR".to_owned(),
        )
    })?;
    Ok(Store::open(&path.value)?)
}

fn list(
    entries: &[HistoryEntry],
    kind: Option<SendKind>,
    output: HistoryOutput,
    width: usize,
    out: &mut impl Write,
) -> Result<(), Failure> {
    match output {
        HistoryOutput::Json => write_json(&entries_text(entries)?, true, out)?,
        HistoryOutput::Ndjson => {
            for entry in entries {
                write_json(&entry_text(entry)?, false, out)?;
            }
        }
        HistoryOutput::Table => {
            let what = kind.map_or("send", |k| match k {
                SendKind::Report => "report",
                SendKind::Connect => "connect",
            });
            if entries.is_empty() {
                eprintln!("no {what}s recorded yet");
                return Ok(());
            }
            let rows: Vec<Vec<String>> = entries.iter().map(table_row).collect();
            let cells: Vec<&[String]> = rows.iter().map(Vec::as_slice).collect();
            let widths = fit_widths(&HEADERS, &MIN_WIDTHS, &cells, width);
            writeln!(out, "{}", join_cells(&widths, &HEADERS.map(str::to_owned)))?;
            for row in &rows {
                writeln!(out, "{}", join_cells(&widths, row))?;
            }
            eprintln!(
                "{}, newest first; `appdeck history show ID` shows one in full",
                crate::text::counted(entries.len(), what)
            );
        }
    }
    Ok(())
}

fn table_row(entry: &HistoryEntry) -> Vec<String> {
    let summary = entry.sent.summary();
    let safe = |text: &str| sanitize::line(text).into_owned();
    vec![
        entry.id.to_string(),
        entry.sent.sent_at.format("%Y-%m-%d %H:%M:%S").to_string(),
        entry.sent.kind.to_string(),
        safe(&entry.sent.destination()),
        safe(&summary.request),
        entry
            .sent
            .http_status
            .map_or_else(|| "-".to_owned(), |s| s.to_string()),
        safe(&summary.answer),
    ]
}

/// A send for scripts (`history -o json`, `history show -o json`, `--jq`): appdeck's own
/// fields written by serde_json, the body and the answer spliced in as they were sent and came
/// (a parsed value would write `1E400` back as `1e+400` and `\u202E` as the raw mark).
#[derive(Serialize)]
struct EntryJson<'a> {
    id: i64,
    sent_at: String,
    base_url: &'a str,
    kind: &'a str,
    http_status: Option<u16>,
    duration_ms: Option<u64>,
    error: Option<&'a str>,
    body: Recorded<'a>,
    answer: Option<Recorded<'a>>,
    changes: Option<Vec<ChangeJson<'a>>>,
}

/// A text the history recorded: its JSON text as it is (compact), or, when it is not JSON, a
/// string holding it.
#[derive(Serialize)]
#[serde(untagged)]
enum Recorded<'a> {
    Json(Box<RawValue>),
    NotJson(&'a str),
}

impl<'a> Recorded<'a> {
    fn of(text: &'a str) -> Self {
        // Checked as it is: compact, `1 2` would read as `12`.
        match serde_json::from_str::<&RawValue>(text) {
            Ok(_) => json_text::body(text).map_or(Recorded::NotJson(text), Recorded::Json),
            Err(_) => Recorded::NotJson(text),
        }
    }
}

/// A send as compact JSON text (see [`EntryJson`]).
fn entry_text(entry: &HistoryEntry) -> std::io::Result<String> {
    let changes = entry.sent.changes();
    Ok(serde_json::to_string(&entry_json(
        entry,
        changes.as_deref(),
    ))?)
}

/// The sends as one compact JSON array (see [`EntryJson`]).
fn entries_text(entries: &[HistoryEntry]) -> std::io::Result<String> {
    let changes: Vec<_> = entries.iter().map(|e| e.sent.changes()).collect();
    let items: Vec<EntryJson> = (entries.iter().zip(&changes))
        .map(|(entry, changes)| entry_json(entry, changes.as_deref()))
        .collect();
    Ok(serde_json::to_string(&items)?)
}

/// `entry` for scripts, with what its report changed (`changes`, from [`crate::store::Sent::changes`]).
fn entry_json<'a>(entry: &'a HistoryEntry, changes: Option<&'a [Change]>) -> EntryJson<'a> {
    let sent = &entry.sent;
    EntryJson {
        id: entry.id,
        sent_at: (sent.sent_at).to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        base_url: &sent.base_url,
        kind: sent.kind.as_str(),
        http_status: sent.http_status,
        duration_ms: sent.duration.map(|d| d.as_millis() as u64),
        error: sent.error.as_deref(),
        body: Recorded::of(&sent.body),
        answer: sent.answer.as_deref().map(Recorded::of),
        changes: changes.map(|changes| changes.iter().map(ChangeJson::from).collect()),
    }
}

fn write_jq(jq: &super::shape::jq::Jq, text: &str, out: &mut impl Write) -> Result<(), Failure> {
    jq.run(text.as_bytes(), out)
        .map_err(super::shape::jq_failure)?;
    Ok(out.flush()?)
}

/// Compact JSON text written as it is or laid out as serde_json lays out a value (every token
/// as written), escaped by [`sanitize::json_for_terminal`]: the same data, nothing a terminal
/// acts on.
fn write_json(text: &str, pretty: bool, out: &mut impl Write) -> std::io::Result<()> {
    let text = if pretty {
        json_text::pretty(text)
    } else {
        text.to_owned()
    };
    writeln!(out, "{}", sanitize::json_for_terminal(&text))
}

/// The request and the answer in full, as `history show` prints them.
fn write_entry(entry: &HistoryEntry, out: &mut impl Write) -> std::io::Result<()> {
    for line in entry_lines(entry) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// The lines of `history show`, each safe to print.
fn entry_lines(entry: &HistoryEntry) -> Vec<String> {
    let sent = &entry.sent;
    let summary = sent.summary();
    let url = format!(
        "{}/{}",
        sent.base_url.trim_end_matches('/'),
        sent.kind.operation().path()
    );
    let took = sent
        .duration
        .map_or_else(String::new, |d| format!(" · {} ms", d.as_millis()));
    let mut lines = vec![
        format!("id:      {}", entry.id),
        format!(
            "sent:    {}",
            sent.sent_at.format("%Y-%m-%d %H:%M:%S%.3f UTC")
        ),
        format!("kind:    {}", sent.kind),
        format!("request: POST {}", sanitize::line(&url)),
        match &sent.answer {
            Some(_) => format!(
                "answer:  {}{took} · {}",
                summary.http,
                sanitize::line(&summary.answer)
            ),
            None => format!("answer:  {}{took}", summary.http),
        },
    ];
    if let Some(error) = &sent.error {
        lines.push(format!("error:   {}", sanitize::line(error)));
    }
    lines.push(String::new());
    lines.push("body (as sent; the token is never recorded):".to_owned());
    lines.extend(pretty(&sent.body));
    lines.push(String::new());
    match &sent.answer {
        Some(answer) => {
            lines.push("answer body:".to_owned());
            lines.extend(pretty(answer));
        }
        None => lines.push("answer body: none came".to_owned()),
    }
    if let Some(changes) = sent.changes() {
        lines.push(String::new());
        let count = crate::changes::counted(changes.len(), sent.after());
        lines.push(format!("what it changed: {count}"));
        lines.extend(
            changes
                .iter()
                .map(|c| sanitize::line(&c.to_string()).into_owned()),
        );
    }
    lines
}

/// Pretty JSON with what could drive a terminal escaped; text that is not JSON, neutralised.
fn pretty(text: &str) -> Vec<String> {
    // Laid out from the text, so numbers show as they were sent.
    let shown = match serde_json::from_str::<serde::de::IgnoredAny>(text) {
        Ok(_) => sanitize::json_for_terminal(&json_text::pretty(text)).into_owned(),
        Err(_) => sanitize::multiline(text).into_owned(),
    };
    shown.lines().map(str::to_owned).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Sent;

    fn sent(body: &str, answer: Option<&str>, error: Option<&str>) -> Sent {
        Sent {
            sent_at: chrono::DateTime::from_timestamp_millis(1_700_000_000_123).unwrap(),
            base_url: "http://x/api/v1".to_owned(),
            kind: SendKind::Report,
            body: body.to_owned(),
            answer: answer.map(str::to_owned),
            http_status: Some(400),
            duration: Some(std::time::Duration::from_millis(7)),
            error: error.map(str::to_owned),
            resource_before: None,
            resource_after: None,
        }
    }

    /// Every byte of a send for scripts: the body and the answer as they were sent and came
    /// (`1E2`, `-0`, `1e400`, key order, unknown fields, spaces taken out), a text that is not
    /// JSON as a string, and the service's error escaped (a quote, a backslash, a control
    /// character).
    #[test]
    fn a_send_for_scripts_keeps_the_services_text_and_escapes_the_rest() {
        let refused = HistoryEntry {
            id: 3,
            sent: sent(
                r#"{"task_id": "t\"\\", "n": 1E2, "z": -0}"#,
                Some(r#"{"status": "error", "error": "no \"a\"", "n": 1e400, "zz": {}}"#),
                Some("no resource \"a\\b\u{1}\""),
            ),
        };
        let mut odd = sent("not json \" \\ \u{7}", None, None);
        odd.resource_before = Some(r#"{"id":"r","name":"a"}"#.to_owned());
        odd.resource_after = Some(r#"{"id":"r","name":"b"}"#.to_owned());
        let odd = HistoryEntry { id: 4, sent: odd };
        let head = r#"{"id":3,"sent_at":"2023-11-14T22:13:20.123Z","base_url":"http://x/api/v1","kind":"report","http_status":400,"duration_ms":7,"#;
        let first = format!(
            "{head}{}",
            r#""error":"no resource \"a\\b\u0001\"","body":{"task_id":"t\"\\","n":1E2,"z":-0},"answer":{"status":"error","error":"no \"a\"","n":1e400,"zz":{}},"changes":null}"#
        );
        assert_eq!(entry_text(&refused).unwrap(), first);
        let second = head.replace(r#""id":3"#, r#""id":4"#)
            + r#""error":null,"body":"not json \" \\ \u0007","answer":null,"changes":[{"change":"changed","pointer":"/name","before":"\"a\"","after":"\"b\""}]}"#;
        assert_eq!(entry_text(&odd).unwrap(), second);
        assert_eq!(
            entries_text(&[refused, odd]).unwrap(),
            format!("[{first},{second}]")
        );
    }
}
