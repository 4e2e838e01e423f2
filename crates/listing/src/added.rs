//! `:columns`: the table's columns of the user's choice, by path into each resource as the
//! CLI's `--columns` reads them (`core::out::columns`, the one parser): `:columns
//! +properties.language -external_id` adds a column and removes one. The choice is kept per
//! type in the store (the runtime reads and writes it; see [`ColumnChoice::spec`]).
//!
//! An added column's values are read from each row's JSON once, when the row arrives (or, for
//! the rows loaded when the choice changes, by a [`FillColumns`] job), and kept by the row's
//! body beside the rows' own texts ([`AddedCells`]): a frame and a sort read them as they read
//! the built-in columns, never the spill.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::Arc;

use super::bodies::{BodyError, BodyId};
use super::columns::Column;
use super::ordering::{SortSpec, column_name, column_named};
use crate::job::{Job, Progress};
use crate::out::columns::{self as paths, ColumnPath};

/// The most columns `:columns` adds (each is a value kept for every row loaded).
pub const MAX_ADDED: usize = 8;

/// The columns chosen for one type: the table's own less those removed, then those added.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ColumnChoice {
    /// Paths added, in the order given; [`Column::Added`] is an index into these.
    pub added: Vec<ColumnPath>,
    /// Columns of the table's own left out (never the name, nor the marker).
    pub removed: Vec<Column>,
}

impl ColumnChoice {
    /// Applies `:columns`'s words: `+PATH` (or `PATH`) adds a column by path, with a header in
    /// front if wanted (`+LANG:properties.language`), `-NAME` removes one (a column of the
    /// table's by its `:sort` name, or a path added), `reset` goes back to the table's own.
    pub fn apply(&self, words: &str) -> Result<ColumnChoice, String> {
        let mut choice = self.clone();
        for word in words.split_whitespace() {
            if word.eq_ignore_ascii_case("reset") {
                choice = ColumnChoice::default();
                continue;
            }
            match word.strip_prefix('-') {
                Some(name) => choice.remove(name)?,
                None => choice.add(word.strip_prefix('+').unwrap_or(word))?,
            }
        }
        Ok(choice)
    }

    fn add(&mut self, spec: &str) -> Result<(), String> {
        if spec.contains(',') {
            return Err("one path a word: :columns +a.b +c.d".to_owned());
        }
        let path = paths::parse(spec)
            .map_err(|e| e.replace("--columns", ":columns"))?
            .pop()
            .ok_or_else(|| format!("{spec:?} is not a path"))?;
        if let Some(own) = column_named(spec) {
            // A column of the table's own, removed before: it comes back.
            self.removed.retain(|c| *c != own);
            return Ok(());
        }
        if !self.added.contains(&path) {
            if self.added.len() == MAX_ADDED {
                return Err(format!("at most {MAX_ADDED} columns are added"));
            }
            self.added.push(path);
        }
        Ok(())
    }

    fn remove(&mut self, name: &str) -> Result<(), String> {
        let before = self.added.len();
        self.added.retain(|p| p.text != name && p.path() != name);
        if self.added.len() < before {
            return Ok(());
        }
        match column_named(name) {
            Some(Column::Name) => Err("the name column stays".to_owned()),
            Some(column) => {
                if !self.removed.contains(&column) {
                    self.removed.push(column);
                }
                Ok(())
            }
            None => Err(format!(
                "no column {:?} to remove; one of {}",
                crate::sanitize::line(name),
                self.names().join(", ")
            )),
        }
    }

    /// The columns `:export` writes to a `.csv`: those `list -o csv` writes, less the table's
    /// own columns removed, then the paths added (as `list -o csv --columns` names them).
    pub fn export_columns(&self) -> Vec<ColumnPath> {
        let mut columns = paths::default_columns();
        columns.retain(|c| !self.removed.iter().any(|&r| column_name(r) == c.path()));
        columns.extend(self.added.iter().cloned());
        columns
    }

    /// The column `name` names: one of the table's, or an added path (by its header or path).
    pub fn column_named(&self, name: &str) -> Option<Column> {
        let added = self
            .added
            .iter()
            .position(|p| p.text == name || p.path() == name);
        match added {
            Some(k) => u8::try_from(k).ok().map(Column::Added),
            None => column_named(name),
        }
    }

    /// What becomes of a sort by `spec` when `next` takes this choice's place: a sort by an
    /// added column follows its path to its new place, or ends with it (`None`).
    pub fn sort_under(&self, spec: SortSpec, next: &ColumnChoice) -> Option<SortSpec> {
        let Column::Added(k) = spec.column else {
            return Some(spec);
        };
        let path = self.added.get(usize::from(k))?;
        let k = next.added.iter().position(|q| q == path)?;
        let column = Column::Added(u8::try_from(k).ok()?);
        Some(SortSpec { column, ..spec })
    }

    /// The header of `column` in the table: an added column's header is its path (or the header
    /// given before its `:`), upper-cased as the table's own are.
    pub fn title(&self, column: Column) -> String {
        match column {
            Column::Added(k) => (self.added.get(usize::from(k)))
                .map(|p| p.text.to_uppercase())
                .unwrap_or_default(),
            own => own.title().to_owned(),
        }
    }

    /// What `:sort` calls `column`.
    pub fn name(&self, column: Column) -> String {
        match column {
            Column::Added(k) => (self.added.get(usize::from(k)))
                .map(|p| p.text.clone())
                .unwrap_or_default(),
            own => column_name(own).to_owned(),
        }
    }

    /// The columns shown, by their `:sort` names, added ones with their `+`.
    pub fn names(&self) -> Vec<String> {
        let own = super::ordering::SORTABLE
            .iter()
            .filter(|c| !self.removed.contains(c))
            .map(|&c| column_name(c).to_owned());
        own.chain(self.added.iter().map(|p| format!("+{}", p.text)))
            .collect()
    }

    /// The choice as `:columns`'s words, as the store keeps it (empty: the table's own).
    pub fn spec(&self) -> String {
        let removed = self.removed.iter().map(|&c| format!("-{}", column_name(c)));
        let added = self.added.iter().map(|p| match p.text == p.path() {
            true => format!("+{}", p.text),
            false => format!("+{}:{}", p.text, p.path()),
        });
        removed.chain(added).collect::<Vec<_>>().join(" ")
    }

    /// The choice the store kept (`spec`); one it cannot read is the table's own.
    pub fn from_spec(spec: &str) -> ColumnChoice {
        ColumnChoice::default().apply(spec).unwrap_or_default()
    }
}

/// The values of the added columns of a listing's rows, by the row's body: a row inserted,
/// moved or dropped keeps its own. Shared with a sort job (a clone is a pointer's).
#[derive(Clone, Debug, Default)]
pub struct AddedCells {
    /// `None`: no column added.
    paths: Option<Arc<[ColumnPath]>>,
    /// The values of a row (one a path, as the service sent them, not yet sanitized); a row
    /// whose values are all empty is left out.
    cells: Option<Arc<CellsByBody>>,
}

/// The added columns' values of each row (by its body) that has any.
type CellsByBody = HashMap<BodyId, Box<[Box<str>]>>;

/// The added cells of no listing.
pub(crate) static NONE: AddedCells = AddedCells::EMPTY;

impl AddedCells {
    pub const EMPTY: AddedCells = AddedCells {
        paths: None,
        cells: None,
    };

    pub fn paths(&self) -> &[ColumnPath] {
        self.paths.as_deref().unwrap_or_default()
    }

    /// Starts over for `paths` (values of other paths go), unless they are those already.
    /// Returns whether they changed.
    pub fn set_paths(&mut self, paths: &[ColumnPath]) -> bool {
        if self.paths() == paths {
            return false;
        }
        self.paths = (!paths.is_empty()).then(|| paths.into());
        self.cells = None;
        true
    }

    /// The value of the `k`th added column of the row whose JSON is at `body`.
    pub fn get(&self, body: BodyId, k: usize) -> Option<&str> {
        let cells = self.cells.as_ref()?.get(&body)?;
        cells.get(k).map(|c| &**c).filter(|c| !c.is_empty())
    }

    fn cells_mut(&mut self) -> &mut CellsByBody {
        Arc::make_mut(self.cells.get_or_insert_default())
    }

    /// Reads the row's values from its JSON text (a row that arrived).
    pub fn take(&mut self, body: BodyId, json: &str) {
        let Some(paths) = &self.paths else {
            return;
        };
        if let Some(cells) = values(paths, json) {
            self.cells_mut().insert(body, cells);
        }
    }

    /// Takes the values of another listing's row (`from`'s `body`), now at `to` here.
    pub fn copy(&mut self, other: &AddedCells, from: BodyId, to: BodyId) {
        if other.paths() != self.paths() {
            return;
        }
        if let Some(cells) = other.cells.as_ref().and_then(|c| c.get(&from)) {
            let cells = cells.clone();
            self.cells_mut().insert(to, cells);
        }
    }

    /// Takes what a [`FillColumns`] job read, if it read the paths these are for.
    pub fn fill(&mut self, filled: Filled) -> bool {
        if *filled.paths != *self.paths() {
            return false;
        }
        self.cells_mut().extend(filled.cells);
        true
    }

    /// The job reading the values of `rows` (bodies in `bodies`), if any column is added.
    pub fn filler(&self, bodies: &super::bodies::Bodies, rows: Vec<BodyId>) -> Option<FillColumns> {
        Some(FillColumns {
            paths: self.paths.clone()?,
            bodies: bodies.clone(),
            rows,
        })
    }
}

/// The values of `paths` in `json`, each as the service wrote it (a number's text kept, read
/// as `list --columns` reads it); `None` when all are empty.
fn values(paths: &[ColumnPath], json: &str) -> Option<Box<[Box<str>]>> {
    let cells: Box<[Box<str>]> = paths::cells_of_item(paths, json.as_bytes())
        .cells
        .into_iter()
        .map(Box::from)
        .collect();
    cells.iter().any(|c| !c.is_empty()).then_some(cells)
}

/// Reads the added columns' values of rows already loaded (the choice changed), off the UI
/// thread: the spill is read for each row.
#[derive(Debug)]
pub struct FillColumns {
    pub paths: Arc<[ColumnPath]>,
    pub bodies: super::bodies::Bodies,
    pub rows: Vec<BodyId>,
}

/// What a [`FillColumns`] job read.
#[derive(Debug)]
pub struct Filled {
    paths: Arc<[ColumnPath]>,
    cells: Vec<(BodyId, Box<[Box<str>]>)>,
}

impl FillColumns {
    /// Reads them here (the job's work).
    pub fn read(&self, progress: &Progress) -> Result<Filled, BodyError> {
        let mut cells = Vec::new();
        let total = self.rows.len() as u64;
        self.bodies.scan(&self.rows, |at, json| {
            if at % 4096 == 0 {
                progress.set(at as u64, total);
                if progress.cancelled() {
                    return ControlFlow::Break(());
                }
            }
            if let Some(values) = values(&self.paths, json) {
                cells.push((self.rows[at], values));
            }
            ControlFlow::Continue(())
        })?;
        Ok(Filled {
            paths: self.paths.clone(),
            cells,
        })
    }
}

impl Job for FillColumns {
    type Output = Result<Filled, String>;

    fn run(&self, progress: &Progress) -> Self::Output {
        self.read(progress).map_err(|e| e.to_string())
    }
}

/// What the store keys a type's choice by: its name, or `*` for the list of every type.
pub fn type_key(type_filter: Option<&str>) -> String {
    type_filter.unwrap_or("*").to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_add_and_remove_columns_and_the_spec_reads_back() {
        let choice = ColumnChoice::default()
            .apply("+properties.language -external_id LANG:properties.lang")
            .unwrap();
        assert_eq!(choice.removed, [Column::ExternalId]);
        let texts: Vec<&str> = choice.added.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(texts, ["properties.language", "LANG"]);
        assert_eq!(
            choice.spec(),
            "-external_id +properties.language +LANG:properties.lang"
        );
        assert_eq!(ColumnChoice::from_spec(&choice.spec()), choice);
        assert_eq!(
            choice.column_named("properties.language"),
            Some(Column::Added(0))
        );
        assert_eq!(choice.column_named("LANG"), Some(Column::Added(1)));
        assert_eq!(choice.title(Column::Added(1)), "LANG");
        let fewer = choice.apply("-properties.language +external_id").unwrap();
        assert_eq!(fewer.spec(), "+LANG:properties.lang");
        assert_eq!(fewer.apply("reset").unwrap(), ColumnChoice::default());
    }

    /// A sort by an added column follows its path to its new place, or ends with it; a sort
    /// by one of the table's own columns stays.
    #[test]
    fn a_sort_by_an_added_column_follows_its_path() {
        let two = ColumnChoice::from_spec("+a.x +b.y");
        let spec = |column| SortSpec {
            column,
            descending: true,
        };
        let by_b = spec(Column::Added(1));
        let moved = ColumnChoice::from_spec("+b.y");
        assert_eq!(two.sort_under(by_b, &moved), Some(spec(Column::Added(0))));
        let gone = ColumnChoice::from_spec("+a.x");
        assert_eq!(two.sort_under(by_b, &gone), None);
        let by_name = spec(Column::Name);
        assert_eq!(two.sort_under(by_name, &gone), Some(by_name));
    }

    /// An added column shows a number as the service wrote it, and an object as its own text:
    /// read through a parsed value, `1.0e2` showed as `1.0e+2` and `1E400` as `1e+400`.
    #[test]
    fn added_cells_are_the_items_own_text() {
        let columns = paths::parse("properties.e,properties.big,properties.o,id").unwrap();
        let json = r#"{"properties":{"e":1.0e2,"big":1E400,"o":{"n":-0.5E-3}},"id":"r1"}"#;
        let cells = values(&columns, json).unwrap();
        let cells: Vec<&str> = cells.iter().map(|c| &**c).collect();
        assert_eq!(cells, ["1.0e2", "1E400", r#"{"n":-0.5E-3}"#, "r1"]);
        assert_eq!(values(&columns, r#"{"x":1}"#), None);
    }

    #[test]
    fn bad_words_say_why() {
        let none = ColumnChoice::default();
        assert!(none.apply("+a..b").unwrap_err().contains(":columns"));
        assert!(none.apply("-name").unwrap_err().contains("stays"));
        assert!(none.apply("-colour").unwrap_err().contains("external_id"));
        assert!(none.apply("+a,b").is_err());
        let many: Vec<String> = (0..=MAX_ADDED).map(|i| format!("+p.k{i}")).collect();
        assert!(none.apply(&many.join(" ")).is_err());
    }
}
