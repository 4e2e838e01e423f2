//! `appdeck history` and `appdeck history show ID`: the reports and connects sent (from the TUI
//! or the CLI) as recorded in the local store. Everything recorded came from a payload or a
//! server, so every text is neutralised before it is printed.

use std::io::Write;

use serde_json::json;

use super::Failure;
use super::args::{EntryOutput, HistoryArgs, HistoryCommand, HistoryKind, HistoryOutput};
use super::table::{fit_widths, join_cells};
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
                return write_jq(jq, &entry_text(&entry), out);
            }
            match show.output {
                EntryOutput::Text => write_entry(&entry, out)?,
                EntryOutput::Json => write_json(&entry_text(&entry), true, out)?,
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
                return write_jq(jq, &entries_text(&entries), out);
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
        HistoryOutput::Json => write_json(&entries_text(entries), true, out)?,
        HistoryOutput::Ndjson => {
            for entry in entries {
                write_json(&entry_text(entry), false, out)?;
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

/// A send for scripts, as compact JSON text: appdeck's own fields written by serde_json, the body
/// and the answer spliced in as they were sent and came (a parsed value would write `1E400` back
/// as `1e+400` and `\u202E` as the raw mark); one that is not JSON is kept as a string.
fn entry_text(entry: &HistoryEntry) -> String {
    let sent = &entry.sent;
    let as_json = |text: &str| match serde_json::from_str::<serde::de::IgnoredAny>(text) {
        Ok(_) => json_text::compact(text),
        Err(_) => json_text::string(text),
    };
    // Each value as its JSON text, as written (`null` for a side it is missing from).
    let changes = sent.changes().map(|changes| {
        changes
            .iter()
            .map(|c| {
                json!({
                    "change": c.kind(),
                    "pointer": c.pointer,
                    "before": c.before,
                    "after": c.after,
                })
            })
            .collect::<Vec<_>>()
    });
    let members = [
        ("id", json!(entry.id).to_string()),
        (
            "sent_at",
            json!(
                sent.sent_at
                    .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
            )
            .to_string(),
        ),
        ("base_url", json!(sent.base_url).to_string()),
        ("kind", json!(sent.kind.as_str()).to_string()),
        ("http_status", json!(sent.http_status).to_string()),
        (
            "duration_ms",
            json!(sent.duration.map(|d| d.as_millis() as u64)).to_string(),
        ),
        ("error", json!(sent.error).to_string()),
        ("body", as_json(&sent.body)),
        (
            "answer",
            sent.answer
                .as_deref()
                .map_or_else(|| "null".to_owned(), as_json),
        ),
        ("changes", json!(changes).to_string()),
    ];
    let members: Vec<String> = members
        .iter()
        .map(|(key, value)| format!("\"{key}\":{value}"))
        .collect();
    format!("{{{}}}", members.join(","))
}

/// The sends as one compact JSON array (see [`entry_text`]).
fn entries_text(entries: &[HistoryEntry]) -> String {
    let items: Vec<String> = entries.iter().map(entry_text).collect();
    format!("[{}]", items.join(","))
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
