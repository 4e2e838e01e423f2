//! Where a listing's items go, per output format. json and ndjson write each item's bytes as
//! they came (one scan to keep a line a line and a terminal safe); the table, csv and tsv read
//! the items as records; `--jq` feeds each item's bytes to the expression.

use std::borrow::Cow;
use std::io::Write;

use super::changes::Identity;
use crate::api::page::read_item_bytes;
use crate::api::{ApiError, RawPage};
use crate::cli::Failure;
use crate::cli::args::{ListArgs, ListOutput};
use crate::cli::shape::columns::{self, ColumnPath};
use crate::cli::shape::delimited::{Delimiter, Records};
use crate::cli::shape::jq::{Jq, JqError};
use crate::cli::table::{self, Row, join_cells, join_cells_into};
use crate::out::items::RawItems;
use crate::sanitize;
use unicode_width::UnicodeWidthStr;

/// `n noun` or `n nouns`.
fn counted(n: u64, noun: &str) -> String {
    crate::text::counted(usize::try_from(n).unwrap_or(usize::MAX), noun)
}

/// Notes about marked rows kept for the footer; beyond this only a count is kept.
const MAX_NOTES: usize = 20;

/// Where the items go, per output format.
pub enum Sink {
    /// json and ndjson: each item's bytes as they came.
    Raw(RawItems),
    Table(TableState),
    /// `--jq`: the expression's results for each item.
    Jq(JqState),
    /// csv or tsv: the header once (unless `--no-headers`), then a record per item.
    Delimited {
        records: Records,
        columns: Vec<ColumnPath>,
        header_due: bool,
        rows: u64,
        /// Rows of items the table marks malformed: only what a scan of their text finds.
        malformed: u64,
    },
}

/// `--jq` over each item, as jq runs over its inputs: an item the expression fails on is said
/// on stderr (its line and id) and the listing goes on; the exit status says it at the end.
pub struct JqState {
    jq: Box<Jq>,
    /// `--slurp`: the items so far, as the text of one JSON array not yet closed.
    slurped: Option<Vec<u8>>,
    /// Items given to the expression so far (an item's line in `-o ndjson`).
    items: u64,
    /// Items the expression failed on.
    pub failed: u64,
}

impl JqState {
    /// `--slurp` at the end: the expression over the array of every item.
    fn slurp(
        &mut self,
        mut array: Vec<u8>,
        out: &mut impl Write,
        err: &mut impl Write,
    ) -> std::io::Result<()> {
        if array.is_empty() {
            array.push(b'[');
        }
        array.push(b']');
        match self.jq.run(&array, out) {
            Ok(()) => Ok(()),
            Err(JqError::Output(e)) => Err(e),
            Err(error) => {
                self.failed += 1;
                out.flush()?;
                writeln!(err, "appdeck: {}", sanitize::line(&error.to_string()))
            }
        }
    }

    fn item(
        &mut self,
        item: &[u8],
        out: &mut impl Write,
        err: &mut impl Write,
    ) -> Result<(), Failure> {
        self.items += 1;
        if let Some(array) = &mut self.slurped {
            array.push(if self.items == 1 { b'[' } else { b',' });
            array.extend_from_slice(item);
            return Ok(());
        }
        match self.jq.run(item, out) {
            Ok(()) => Ok(()),
            Err(JqError::Output(e)) => Err(Failure::Output(e)),
            Err(error) => {
                self.failed += 1;
                let id = match Identity::of(item) {
                    Identity::Named { id, .. } => format!(" (id {})", sanitize::line(&id)),
                    Identity::Anonymous(_) => String::new(),
                };
                // What came before the failure is on stdout: it goes out first.
                out.flush()?;
                writeln!(
                    err,
                    "appdeck: line {}{id}: {}",
                    self.items,
                    sanitize::line(&error.to_string())
                )?;
                Ok(())
            }
        }
    }
}

pub struct TableState {
    width: usize,
    /// The columns of `--columns`, instead of the fixed ones.
    columns: Option<Vec<ColumnPath>>,
    headers: bool,
    /// Each column's widest cell so far, its header's included.
    natural: Vec<usize>,
    /// The widths the rows are written at: fitted on the first page, fitted again when a later
    /// page has a wider cell (an id from `res_100` on is never cut while there is room).
    widths: Option<Vec<usize>>,
    rows: usize,
    marked: usize,
    notes: Vec<String>,
    /// Every row is joined into this one buffer.
    line: String,
}

impl Sink {
    pub fn new(args: &ListArgs, width: usize, terminal: bool) -> Result<Sink, Failure> {
        let chosen = args
            .columns
            .as_deref()
            .map(crate::cli::shape::chosen_columns)
            .transpose()
            .map_err(Failure::Usage)?;
        if args.jq.is_some() {
            args.refuse_output_beside("--jq").map_err(Failure::Usage)?;
        }
        if args.no_headers && matches!(args.output(), ListOutput::Json | ListOutput::Ndjson) {
            return Err(Failure::Usage(
                "--no-headers leaves out the header line of table, csv and tsv; json and ndjson \
                 have none"
                    .to_owned(),
            ));
        }
        if let Some(expr) = &args.jq {
            return Ok(Sink::Jq(JqState {
                jq: Box::new(Jq::compile(expr, terminal).map_err(Failure::Usage)?),
                slurped: args.slurp.then(Vec::new),
                items: 0,
                failed: 0,
            }));
        }
        if chosen.is_some() && matches!(args.output(), ListOutput::Json | ListOutput::Ndjson) {
            return Err(Failure::Usage(
                "--columns chooses the columns of table, csv and tsv; json and ndjson give each \
                 resource whole (use --jq to pick fields)"
                    .to_owned(),
            ));
        }
        Ok(match args.output() {
            ListOutput::Ndjson => Sink::Raw(RawItems::ndjson()),
            ListOutput::Json => Sink::Raw(RawItems::json()),
            ListOutput::Csv | ListOutput::Tsv => {
                let delimiter = if args.output() == ListOutput::Csv {
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
                    rows: 0,
                    malformed: 0,
                }
            }
            ListOutput::Table => Sink::Table(TableState {
                width,
                columns: chosen,
                headers: !args.no_headers,
                natural: Vec::new(),
                widths: None,
                rows: 0,
                marked: 0,
                notes: Vec::new(),
                line: String::new(),
            }),
        })
    }

    /// Writes one page and flushes, so a reader downstream sees it at once. `err` hears of an
    /// item `--jq` fails on.
    pub fn page(
        &mut self,
        page: &RawPage,
        out: &mut impl Write,
        err: &mut impl Write,
    ) -> Result<(), Failure> {
        match self {
            Sink::Raw(items) => {
                for item in page.raw_items() {
                    items.write(item, out)?;
                }
            }
            Sink::Table(table) => table.page(page, out)?,
            Sink::Jq(jq) => {
                for item in page.raw_items() {
                    jq.item(item, out, err)?;
                }
            }
            Sink::Delimited {
                records,
                columns,
                header_due,
                rows,
                malformed,
            } => {
                if std::mem::take(header_due) {
                    let headers: Vec<&str> = columns.iter().map(|c| c.text.as_str()).collect();
                    records.write(&headers, out)?;
                }
                for item in page.raw_items() {
                    let cells = columns::cells_of_item(columns, item);
                    *rows += 1;
                    *malformed += u64::from(cells.malformed);
                    records.write(&cells.cells, out)?;
                }
            }
        }
        Ok(out.flush()?)
    }

    /// How many items `--jq` failed on.
    pub fn jq_failed(&self) -> u64 {
        match self {
            Sink::Jq(jq) => jq.failed,
            _ => 0,
        }
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
            Sink::Delimited {
                records,
                rows,
                malformed,
                ..
            } => {
                out.flush()?;
                if *malformed > 0 {
                    // As the table's footer counts its `!` rows.
                    writeln!(
                        err,
                        "appdeck: {malformed} of {} malformed (marked ! in the table): written \
                         with what a scan of their text finds, such as the id, the rest left \
                         empty; -o ndjson has them as they came",
                        counted(*rows, "row")
                    )?;
                }
                if records.replaced() > 0 {
                    writeln!(
                        err,
                        "appdeck: {} held control characters or bidirectional marks, written as \
                         U+FFFD (csv has no escape for them); -o ndjson keeps the exact text",
                        counted(records.replaced(), "cell")
                    )?;
                }
            }
            Sink::Jq(jq) => {
                // A listing cut short is not the whole listing: nothing is said about it.
                let slurped = jq.slurped.take();
                let slurp = slurped.is_some();
                if let Some(array) = slurped
                    && outcome.is_ok()
                {
                    jq.slurp(array, out, err)?;
                }
                if jq.failed > 0 && !slurp {
                    out.flush()?;
                    writeln!(
                        err,
                        "appdeck: --jq failed on {} of {} resources (each said above)",
                        jq.failed, jq.items
                    )?;
                }
            }
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
    /// The header texts and each column's minimum width.
    fn heads(&self) -> (Vec<String>, Vec<usize>) {
        match &self.columns {
            None => (
                table::HEADERS.map(str::to_owned).to_vec(),
                table::MIN_WIDTHS.to_vec(),
            ),
            Some(columns) => (
                columns
                    .iter()
                    .map(|c| sanitize::line(&c.text.to_uppercase()).into_owned())
                    .collect(),
                vec![4; columns.len()],
            ),
        }
    }

    fn page(&mut self, page: &RawPage, out: &mut impl Write) -> std::io::Result<()> {
        if page.is_empty() {
            return Ok(());
        }
        let rows: Vec<Row> = page.raw_items().map(Row::from_text).collect();
        // The chosen columns' cells, safe to print.
        let chosen: Vec<Vec<Cow<str>>> = match &self.columns {
            Some(columns) => page
                .raw_items()
                .map(|item| {
                    columns::cells_of_item(columns, item)
                        .cells
                        .iter()
                        .map(|cell| Cow::Owned(sanitize::line(cell).into_owned()))
                        .collect()
                })
                .collect(),
            None => Vec::new(),
        };
        let cells = |i: usize| -> &[Cow<str>] {
            match self.columns {
                None => &rows[i].cells,
                Some(_) => &chosen[i],
            }
        };
        let (headers, mins) = self.heads();
        let first = self.widths.is_none();
        if first {
            self.natural = headers.iter().map(|h| h.width()).collect();
        }
        let mut grew = false;
        for i in 0..rows.len() {
            grew |= table::widen(&mut self.natural, cells(i));
        }
        if first || grew {
            self.widths = Some(table::fit_natural(&self.natural, &mins, self.width));
        }
        let widths = self.widths.as_deref().unwrap_or_default();
        if first && self.headers {
            writeln!(out, "{}", join_cells(widths, &headers))?;
        }
        for (i, (item, row)) in page.raw_items().zip(&rows).enumerate() {
            self.rows += 1;
            join_cells_into(widths, cells(i), &mut self.line);
            self.line.push('\n');
            out.write_all(self.line.as_bytes())?;
            if !row.problems.is_empty() {
                self.marked += 1;
                if self.notes.len() < MAX_NOTES {
                    let label = Row::label(&read_item_bytes(item), self.rows);
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
