//! Where a listing's items go, per output format. json and ndjson write each item's bytes as
//! they came (one scan to keep a line a line and a terminal safe); the table, csv and tsv read
//! the items as records; `--jq` feeds each item's bytes to the expression.

use std::io::Write;

use crate::api::{ApiError, PageItem, RawPage};
use crate::cli::Failure;
use crate::cli::args::{ListArgs, ListOutput};
use crate::cli::shape::columns::{self, ColumnPath};
use crate::cli::shape::delimited::{Delimiter, Records};
use crate::cli::shape::jq::Jq;
use crate::cli::shape::jq_failure;
use crate::cli::table::{Layout, Row, fit_widths, join_cells};
use crate::out::items::RawItems;
use crate::sanitize;

/// Notes about marked rows kept for the footer; beyond this only a count is kept.
const MAX_NOTES: usize = 20;

/// Where the items go, per output format.
pub enum Sink {
    /// json and ndjson: each item's bytes as they came.
    Raw(RawItems),
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

pub struct TableState {
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

impl Sink {
    pub fn new(args: &ListArgs, width: usize, terminal: bool) -> Result<Sink, Failure> {
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
            ListOutput::Ndjson => Sink::Raw(RawItems::ndjson()),
            ListOutput::Json => Sink::Raw(RawItems::json()),
            ListOutput::Csv | ListOutput::Tsv => {
                let delimiter = if args.output == ListOutput::Csv {
                    Delimiter::Comma
                } else {
                    Delimiter::Tab
                };
                let columns = match chosen {
                    Some(columns) => columns,
                    None => columns::default_columns(),
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
    pub fn page(&mut self, page: &RawPage, out: &mut impl Write) -> Result<(), Failure> {
        match self {
            Sink::Raw(items) => {
                for item in page.raw_items() {
                    items.write(item, out)?;
                }
            }
            Sink::Table(table) => table.page(&page.items(), out)?,
            Sink::Jq(jq) => {
                for item in page.raw_items() {
                    jq.run(item, out).map_err(jq_failure)?;
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
                for item in page.items() {
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
    pub fn finish(
        &mut self,
        outcome: &Result<(), ApiError>,
        more: bool,
        resource_type: Option<&str>,
        out: &mut impl Write,
        err: &mut impl Write,
    ) -> std::io::Result<()> {
        match self {
            Sink::Jq(_) | Sink::Delimited { .. } => {}
            Sink::Raw(items) => {
                if outcome.is_ok() {
                    items.finish(out)?;
                }
            }
            Sink::Table(table) => table.footer(outcome.is_ok(), more, resource_type, err)?,
        }
        out.flush()
    }
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
