//! `list --where EXPR` and `--sort COLUMN`: the TUI's `:where` and `:sort` for scripts, with the
//! same expression language (jaq, true as `select` has it) and the same order
//! ([`crate::order`]: numbers by value, digit runs by value, missing values last, ties in the
//! service's order), so that a listing sorted in one is the same listing in the other.
//! `--where` keeps the pages streaming; `--sort` holds every page until the last, as kubectl's
//! `--sort-by` does.

use serde_json::Value;

use crate::api::RawPage;
use crate::cli::Failure;
use crate::jq::Program;
use crate::out::columns::{self, ColumnPath};
use crate::sanitize;

/// What `--where` and `--sort` ask of a listing.
pub struct Query {
    where_: Option<Program>,
    sort: Option<SortBy>,
    /// Under `--sort`: every page so far, as one.
    held: Option<RawPage>,
    /// Resources `--where` failed on (left out), and the first failure.
    failed: usize,
    first_failure: Option<String>,
}

/// `--sort PATH[:desc]`.
struct SortBy {
    column: ColumnPath,
    descending: bool,
}

impl Query {
    pub fn new(where_: Option<&str>, sort: Option<&str>) -> Result<Query, Failure> {
        let where_ = where_
            .map(|expr| {
                Program::compile(expr).map_err(|said| {
                    Failure::Usage(format!(
                        "--where {}: not a valid jq expression: {}",
                        sanitize::excerpt(expr.as_bytes(), 80),
                        said.join("; ")
                    ))
                })
            })
            .transpose()?;
        let sort = sort.map(SortBy::parse).transpose()?;
        Ok(Query {
            where_,
            sort,
            held: None,
            failed: 0,
            first_failure: None,
        })
    }

    /// Leaves out the resources `--where` is not true of (or fails on).
    pub fn filter(&mut self, page: &mut RawPage) {
        let Some(program) = &self.where_ else {
            return;
        };
        page.retain_raw(|json| match program.is_true(json) {
            Ok(keep) => keep,
            Err(error) => {
                self.failed += 1;
                self.first_failure.get_or_insert(error);
                false
            }
        });
    }

    /// The page to write now: under `--sort`, none (it is held until the last).
    pub fn pass(&mut self, page: RawPage) -> Option<RawPage> {
        if self.sort.is_none() {
            return Some(page);
        }
        match &mut self.held {
            Some(held) => held.append(page),
            None => self.held = Some(page),
        }
        None
    }

    /// Under `--sort`: the pages held, sorted, to write once the listing ended (or failed:
    /// what was listed before is written, as without `--sort`).
    pub fn sorted(&mut self) -> Option<RawPage> {
        let sort = self.sort.as_ref()?;
        let mut page = self.held.take()?;
        let keys: Vec<Option<Vec<u8>>> = page.raw_items().map(|json| sort.key(json)).collect();
        let mut order: Vec<usize> = (0..keys.len()).collect();
        // Stable: equal keys keep the service's order; missing ones go last either way.
        order.sort_by(|&a, &b| match (&keys[a], &keys[b]) {
            (Some(x), Some(y)) if sort.descending => y.cmp(x),
            (Some(x), Some(y)) => x.cmp(y),
            (x, y) => y.is_some().cmp(&x.is_some()),
        });
        page.reorder(&order);
        Some(page)
    }

    /// What to say on stderr when `--where` failed on some resources.
    pub fn failure_note(&self) -> Option<String> {
        let first = self.first_failure.as_deref()?;
        let resources = match self.failed {
            1 => "1 resource".to_owned(),
            n => format!("{n} resources"),
        };
        Some(format!(
            "appdeck: --where failed on {resources}, left out: {}",
            sanitize::line(first)
        ))
    }
}

impl SortBy {
    fn parse(spec: &str) -> Result<SortBy, Failure> {
        // A colon is always the direction's: a mistyped one (`id:dsc`) must not sort quietly in
        // the service's order as a column titled `id` at the path `dsc`.
        let (path, descending) = match spec.rsplit_once(':') {
            Some((path, direction)) if direction.eq_ignore_ascii_case("desc") => (path, true),
            Some((path, direction)) if direction.eq_ignore_ascii_case("asc") => (path, false),
            // `STARS:properties.stars`: a title, as `--columns` takes, which a sort has no use for.
            Some((_, path)) if path.contains('.') => {
                return Err(Failure::Usage(format!(
                    "--sort {}: a column path alone (no TITLE: as --columns takes), then :asc or :desc",
                    sanitize::line(spec)
                )));
            }
            Some((_, direction)) => {
                return Err(Failure::Usage(format!(
                    "--sort {}: :asc or :desc after the column, not {:?}",
                    sanitize::line(spec),
                    sanitize::line(direction)
                )));
            }
            None => (spec, false),
        };
        // `id:desc:desc` read `id:desc` as a TITLE:PATH column and sorted quietly by the path
        // `desc`, which no resource has: the service's order (a tester's finding).
        if path.contains(':') {
            return Err(Failure::Usage(format!(
                "--sort {}: a column path, then one :asc or :desc",
                sanitize::line(spec)
            )));
        }
        let mut paths =
            columns::parse(path).map_err(|e| Failure::Usage(e.replace("--columns", "--sort")))?;
        if paths.len() != 1 {
            return Err(Failure::Usage(format!(
                "--sort {}: one column (a path such as name or properties.stars, :desc to reverse)",
                sanitize::line(spec)
            )));
        }
        Ok(SortBy {
            column: paths.remove(0),
            descending,
        })
    }

    /// The sort key of one resource's JSON text; `None` when the column is empty or missing.
    /// `name` is the TUI's NAME column: the `display_name`, else the `name`.
    fn key(&self, json: &[u8]) -> Option<Vec<u8>> {
        let value: Value = serde_json::from_slice(json).ok()?;
        let text = match self.column.text.as_str() {
            "name" => ["display_name", "name"]
                .iter()
                .filter_map(|k| value.get(k)?.as_str())
                .find(|s| !s.is_empty())
                .map(str::to_owned)
                .unwrap_or_default(),
            _ => self.column.cell(&value),
        };
        if text.is_empty() {
            return None;
        }
        let mut key = Vec::with_capacity(text.len() + 4);
        crate::order::sort_key(&text, &mut key);
        Some(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(items: &[&str]) -> RawPage {
        let body = format!(r#"{{"resources":[{}],"next":null}}"#, items.join(","));
        RawPage::read(body.into_bytes()).unwrap()
    }

    fn ids(page: &RawPage) -> Vec<String> {
        (page.raw_items())
            .map(|j| serde_json::from_slice::<Value>(j).unwrap()["id"].to_string())
            .collect()
    }

    #[test]
    fn sorts_every_page_held_naturally_with_missing_values_last() {
        let mut query = Query::new(None, Some("name")).unwrap();
        let first = page(&[r#"{"id":1,"name":"res_10"}"#, r#"{"id":2}"#]);
        let second = page(&[
            r#"{"id":3,"name":"res_2"}"#,
            r#"{"id":4,"display_name":"RES_1"}"#,
        ]);
        assert!(query.pass(first).is_none());
        assert!(query.pass(second).is_none());
        assert_eq!(ids(&query.sorted().unwrap()), ["4", "3", "1", "2"]);
        let mut query = Query::new(None, Some("properties.n:desc")).unwrap();
        let held = page(&[
            r#"{"id":1,"properties":{"n":9}}"#,
            r#"{"id":2,"properties":{"n":10}}"#,
            r#"{"id":3}"#,
            r#"{"id":4,"properties":{"n":9.5}}"#,
        ]);
        query.pass(held);
        assert_eq!(ids(&query.sorted().unwrap()), ["2", "4", "1", "3"]);
    }

    #[test]
    fn a_direction_is_asc_or_desc_in_any_case_and_nothing_else() {
        for (spec, descending) in [("id", false), ("id:asc", false), ("id:DESC", true)] {
            let sort = SortBy::parse(spec).unwrap();
            assert_eq!(
                (sort.column.text.as_str(), sort.descending),
                ("id", descending)
            );
        }
        for typo in ["id:dsc", "name:up"] {
            let Err(Failure::Usage(said)) = SortBy::parse(typo) else {
                panic!("{typo} is refused");
            };
            assert!(said.contains(":asc or :desc after the column"), "{said}");
        }
        let Err(Failure::Usage(said)) = SortBy::parse("STARS:properties.stars") else {
            panic!("a title is refused");
        };
        assert!(said.contains("a column path alone (no TITLE:"), "{said}");
        for twice in ["id:desc:desc", "id:asc:desc", "name:x:asc"] {
            let Err(Failure::Usage(said)) = SortBy::parse(twice) else {
                panic!("{twice} is refused");
            };
            assert!(said.contains("then one :asc or :desc"), "{said}");
        }
    }

    #[test]
    fn where_keeps_what_it_is_true_of_and_counts_its_failures() {
        let mut query = Query::new(Some("(.n + 0) > 1"), None).unwrap();
        let mut held = page(&[
            r#"{"id":1,"n":1}"#,
            r#"{"id":2,"n":2}"#,
            r#"{"id":3,"n":{}}"#,
        ]);
        query.filter(&mut held);
        assert_eq!(ids(&held), ["2"]);
        let note = query.failure_note().unwrap();
        assert!(
            note.starts_with("appdeck: --where failed on 1 resource"),
            "{note}"
        );
        assert!(Query::new(Some(".n >"), None).is_err());
        assert!(Query::new(None, Some("a,b")).is_err());
    }
}
