//! `appdeck list`: pages are written as they arrive and dropped, so memory stays flat however
//! many resources there are. What was written before an error stays written.

use std::io::{IsTerminal, Write};

use super::Failure;
use super::args::{ListArgs, ListOutput};
use super::shape::columns::{self, ColumnPath};
use super::shape::delimited::{Delimiter, Records};
use super::shape::jq::Jq;
use super::shape::jq_failure;
use super::table::{Layout, Row, fit_widths, join_cells};
use crate::api::{ApiError, Client, PageItem, Pager};
use crate::sanitize;

/// Notes about marked rows kept for the footer; beyond this only a count is kept.
const MAX_NOTES: usize = 20;

/// Runs the listing, writing results to `out` and the table's footer to `err`.
pub async fn run(
    client: &Client,
    args: &ListArgs,
    width: usize,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), Failure> {
    let max_pages = (!args.all).then(|| args.pages.unwrap_or(1));
    let mut pager = Pager::new(args.resource_type.clone(), args.limit);
    let mut sink = Sink::new(args, width, std::io::stdout().is_terminal())?;
    let mut fetched = 0u32;
    let mut more = false;
    let outcome: Result<(), ApiError> = loop {
        match pager.next_page(client).await {
            None => break Ok(()),
            Some(Err(e)) => break Err(e),
            Some(Ok(page)) => {
                fetched += 1;
                let has_next = page.next_cursor().is_some();
                sink.page(&page.resources, out)?;
                if has_next && max_pages.is_some_and(|max| fetched >= max) {
                    more = true;
                    break Ok(());
                }
            }
        }
    };
    sink.finish(&outcome, more, args.resource_type.as_deref(), out, err)?;
    outcome.map_err(Failure::Api)
}

/// Where the items go, per output format.
enum Sink {
    Ndjson,
    /// `written` says whether the `[` and an item are out, for the separators.
    Json {
        written: bool,
    },
    Table(TableState),
    /// `--jq`: the expression's results for each item.
    Jq(Box<Jq>),
    /// csv or tsv: the header once (unless `--no-headers`), then a record per item.
    Delimited {
        records: Records,
        columns: Vec<ColumnPath>,
        header_due: bool,
    },
}

struct TableState {
    width: usize,
    /// The columns of `--columns`, instead of the fixed ones.
    columns: Option<Vec<ColumnPath>>,
    headers: bool,
    layout: Option<TableLayout>,
    rows: usize,
    marked: usize,
    notes: Vec<String>,
}

/// Column widths, fitted on the first page.
enum TableLayout {
    Fixed(Layout),
    Chosen(Vec<usize>),
}

/// The columns csv and tsv print without `--columns`: the table's, as paths.
const DEFAULT_COLUMNS: &str = "type,id,name,display_name,status,external_id,updated_at";

impl Sink {
    fn new(args: &ListArgs, width: usize, terminal: bool) -> Result<Sink, Failure> {
        let chosen = args
            .columns
            .as_deref()
            .map(columns::parse)
            .transpose()
            .map_err(Failure::Usage)?;
        if let Some(expr) = &args.jq {
            return Ok(Sink::Jq(Box::new(
                Jq::compile(expr, terminal).map_err(Failure::Usage)?,
            )));
        }
        if chosen.is_some() && matches!(args.output, ListOutput::Json | ListOutput::Ndjson) {
            return Err(Failure::Usage(
                "--columns chooses the columns of table, csv and tsv; json and ndjson give each \
                 resource whole (use --jq to pick fields)"
                    .to_owned(),
            ));
        }
        Ok(match args.output {
            ListOutput::Ndjson => Sink::Ndjson,
            ListOutput::Json => Sink::Json { written: false },
            ListOutput::Csv | ListOutput::Tsv => {
                let delimiter = if args.output == ListOutput::Csv {
                    Delimiter::Comma
                } else {
                    Delimiter::Tab
                };
                let columns = match chosen {
                    Some(columns) => columns,
                    None => columns::parse(DEFAULT_COLUMNS).map_err(Failure::Usage)?,
                };
                Sink::Delimited {
                    records: Records::new(delimiter, terminal),
                    columns,
                    header_due: !args.no_headers,
                }
            }
            ListOutput::Table => Sink::Table(TableState {
                width,
                columns: chosen,
                headers: !args.no_headers,
                layout: None,
                rows: 0,
                marked: 0,
                notes: Vec::new(),
            }),
        })
    }

    /// Writes one page and flushes, so a reader downstream sees it at once.
    fn page(&mut self, items: &[PageItem], out: &mut impl Write) -> Result<(), Failure> {
        match self {
            Sink::Ndjson => {
                for item in items {
                    write_json(item, out)?;
                    out.write_all(b"\n")?;
                }
            }
            Sink::Json { written } => {
                for item in items {
                    out.write_all(if *written { b",\n  " } else { b"[\n  " })?;
                    write_json(item, out)?;
                    *written = true;
                }
            }
            Sink::Table(table) => table.page(items, out)?,
            Sink::Jq(jq) => {
                for item in items {
                    let json = serde_json::to_vec(item).map_err(std::io::Error::from)?;
                    jq.run(&json, out).map_err(jq_failure)?;
                }
            }
            Sink::Delimited {
                records,
                columns,
                header_due,
            } => {
                if std::mem::take(header_due) {
                    let headers: Vec<&str> = columns.iter().map(|c| c.text.as_str()).collect();
                    records.write(&headers, out)?;
                }
                for item in items {
                    let value = item.to_json();
                    let cells: Vec<String> = columns.iter().map(|c| c.cell(&value)).collect();
                    records.write(&cells, out)?;
                }
            }
        }
        Ok(out.flush()?)
    }

    /// Closes the output. After an error a JSON array is left open on purpose: a truncated listing
    /// must not parse as a complete one.
    fn finish(
        &mut self,
        outcome: &Result<(), ApiError>,
        more: bool,
        resource_type: Option<&str>,
        out: &mut impl Write,
        err: &mut impl Write,
    ) -> std::io::Result<()> {
        match self {
            Sink::Ndjson | Sink::Jq(_) | Sink::Delimited { .. } => {}
            Sink::Json { written } => {
                if outcome.is_ok() {
                    out.write_all(if *written { b"\n]\n" } else { b"[]\n" })?;
                }
            }
            Sink::Table(table) => table.footer(outcome.is_ok(), more, resource_type, err)?,
        }
        out.flush()
    }
}

/// Writes one item as compact JSON, escaped by [`sanitize::json_for_terminal`]: the output may be
/// a terminal, and serde_json leaves C1 controls and bidi marks raw. Always escaped, not only on a
/// terminal, since the data a reader parses is the same either way.
fn write_json(item: &PageItem, out: &mut impl Write) -> std::io::Result<()> {
    let json = serde_json::to_string(item).map_err(std::io::Error::from)?;
    out.write_all(sanitize::json_for_terminal(&json).as_bytes())
}

impl TableState {
    fn page(&mut self, items: &[PageItem], out: &mut impl Write) -> std::io::Result<()> {
        if items.is_empty() {
            return Ok(());
        }
        let rows: Vec<Row> = items.iter().map(Row::from_item).collect();
        // The chosen columns' cells, safe to print.
        let chosen: Vec<Vec<String>> = match &self.columns {
            Some(columns) => items
                .iter()
                .map(|item| {
                    let value = item.to_json();
                    columns
                        .iter()
                        .map(|c| sanitize::line(&c.cell(&value)).into_owned())
                        .collect()
                })
                .collect(),
            None => Vec::new(),
        };
        let layout = match &self.layout {
            Some(layout) => layout,
            None => {
                let (layout, header) = match &self.columns {
                    None => {
                        let layout = Layout::fit(&rows, self.width);
                        let header = layout.header();
                        (TableLayout::Fixed(layout), header)
                    }
                    Some(columns) => {
                        let headers: Vec<String> = columns
                            .iter()
                            .map(|c| sanitize::line(&c.text.to_uppercase()).into_owned())
                            .collect();
                        let header_refs: Vec<&str> = headers.iter().map(String::as_str).collect();
                        let mins = vec![4; headers.len()];
                        let cells: Vec<&[String]> = chosen.iter().map(Vec::as_slice).collect();
                        let widths = fit_widths(&header_refs, &mins, &cells, self.width);
                        let header = join_cells(&widths, &headers);
                        (TableLayout::Chosen(widths), header)
                    }
                };
                if self.headers {
                    writeln!(out, "{header}")?;
                }
                self.layout.insert(layout)
            }
        };
        for (i, (item, row)) in items.iter().zip(&rows).enumerate() {
            self.rows += 1;
            match layout {
                TableLayout::Fixed(layout) => writeln!(out, "{}", layout.row(row))?,
                TableLayout::Chosen(widths) => writeln!(out, "{}", join_cells(widths, &chosen[i]))?,
            }
            if !row.problems.is_empty() {
                self.marked += 1;
                if self.notes.len() < MAX_NOTES {
                    let label = Row::label(item, self.rows);
                    self.notes
                        .push(format!("! {label}: {}", row.problems.join("; ")));
                }
            }
        }
        Ok(())
    }

    fn footer(
        &self,
        complete: bool,
        more: bool,
        resource_type: Option<&str>,
        err: &mut impl Write,
    ) -> std::io::Result<()> {
        for note in &self.notes {
            writeln!(err, "{note}")?;
        }
        if self.marked > self.notes.len() {
            writeln!(
                err,
                "! … and {} more marked rows",
                self.marked - self.notes.len()
            )?;
        }
        let of_type = resource_type
            .map(|t| format!(" of type {}", sanitize::line(t)))
            .unwrap_or_default();
        let rows = match self.rows {
            1 => "1 resource".to_owned(),
            n => format!("{n} resources"),
        };
        if !complete && self.rows == 0 {
            // The error says it all; "0 resources shown" would only be noise above it.
            return err.flush();
        }
        let mut footer = if !complete {
            format!("{rows}{of_type} shown before the error")
        } else if more {
            format!("{rows}{of_type} shown; more pages exist: use --all to list them all")
        } else if self.rows == 0 {
            format!("no resources{of_type}")
        } else {
            format!("{rows}{of_type}; no more pages")
        };
        if self.marked > 0 {
            footer.push_str(&format!(
                " ({} marked !: malformed or with fields of an unexpected type)",
                self.marked
            ));
        }
        writeln!(err, "{footer}")?;
        err.flush()
    }
}
