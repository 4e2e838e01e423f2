//! The composer's checks: the rules of `appdeck validate` (syntax with line and column, required
//! fields, `status` values, date-times) and, when the resource's type is known
//! (`validate::type_schema`), its properties against the type's `property_json_schema`. Pure, so
//! it runs on the UI thread for a small report and on a background task for a large one; each
//! finding knows where it belongs on screen.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::Field;
use crate::json_locate::position_of;
use crate::validate::Finding;

use crate::report_text::RESOURCE_POINTER;

/// One finding and where it points: a line of the resource editor, or one of the fields above it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportFinding {
    pub finding: Finding,
    pub place: Place,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A field above the editor (`task_id`, `status`...), or the report as a whole.
    Field(Field),
    /// 0-based line and character column in the resource editor.
    Resource { line: usize, column: usize },
}

impl ReportFinding {
    /// The editor line this finding marks, if it points into the resource.
    pub(crate) fn line(&self) -> Option<usize> {
        match self.place {
            Place::Resource { line, .. } => Some(line),
            Place::Field(_) => None,
        }
    }
}

/// Everything a check needs, owned, so it can move to another thread.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckJob {
    /// The report without its resource (which is `resource_text`, as typed).
    pub header: Map<String, Value>,
    pub resource_text: Arc<str>,
    /// Known types, as a version-connect payload (`resources` lists them).
    pub types: Option<Arc<Value>>,
}

/// Runs the checks; findings in document order.
/// A large report is checked off the UI thread.
impl crate::app::job::Job for CheckJob {
    type Output = Vec<ReportFinding>;

    fn run(&self, _: &crate::app::job::Progress) -> Vec<ReportFinding> {
        run(self)
    }
}

pub fn run(job: &CheckJob) -> Vec<ReportFinding> {
    let text = &job.resource_text;
    match crate::report_text::check(&job.header, text, job.types.as_deref()) {
        Ok(findings) => (findings.into_iter())
            .map(|finding| {
                let place = place_of(&finding.pointer, text);
                ReportFinding { finding, place }
            })
            .collect(),
        Err((finding, Some((line, column)))) => {
            let place = Place::Resource { line, column };
            vec![ReportFinding { finding, place }]
        }
        Err((finding, None)) => vec![whole(finding)],
    }
}

/// What starts a `task_id` the composer made up: the service would file the report under a task
/// that does not exist, so the review warns of it.
pub(crate) const PROVISIONAL_PREFIX: &str = "PROVISIONAL-";

fn whole(finding: Finding) -> ReportFinding {
    let place = Place::Field(Field::TaskId);
    ReportFinding { finding, place }
}

fn place_of(pointer: &str, resource_text: &str) -> Place {
    if let Some(inner) = pointer.strip_prefix(RESOURCE_POINTER)
        && (inner.is_empty() || inner.starts_with('/'))
    {
        let (line, column) = position_of(resource_text, inner);
        return Place::Resource { line, column };
    }
    let field = match pointer {
        "/status" => Field::Status,
        "/message" => Field::Message,
        p if p.starts_with("/response") => Field::ResponseType,
        _ => Field::TaskId,
    };
    Place::Field(field)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn job(resource_text: &str, types: Option<Value>) -> CheckJob {
        let header = json!({"task_id": "t-1", "status": "ok", "message": "",
                            "response": {"response_type": "resource"}});
        CheckJob {
            header: header.as_object().cloned().unwrap_or_default(),
            resource_text: Arc::from(resource_text),
            types: types.map(Arc::new),
        }
    }

    fn demo_types() -> Value {
        serde_json::from_str(crate::catalog::DEMO_CONNECT).expect("demo types")
    }

    #[test]
    fn a_syntax_error_points_at_its_line_and_column() {
        let found = run(&job("{\n  \"type\": \"repository\",\n  oops\n}", None));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].place, Place::Resource { line: 2, column: 2 });
        assert!(found[0].finding.message.contains("line 3, column 3"));
    }

    #[test]
    fn a_valid_demo_report_has_no_findings() {
        let text = include_str!("../../../../../../assets/examples/report.json");
        let report: Value = serde_json::from_str(text).expect("example");
        let resource = serde_json::to_string_pretty(&report["response"]["resource"]).unwrap();
        assert_eq!(run(&job(&resource, Some(demo_types()))), vec![]);
    }

    #[test]
    fn properties_are_checked_against_a_known_type_and_marked_on_their_line() {
        let resource = "{\n  \"type\": \"repository\",\n  \"external_id\": \"x\",\n  \"name\": \"n\",\n  \"properties\": {\n    \"stars\": \"many\"\n  }\n}";
        let found = run(&job(resource, Some(demo_types())));
        let stars = found
            .iter()
            .find(|l| l.finding.pointer.ends_with("/stars"))
            .unwrap_or_else(|| panic!("no finding on stars: {found:?}"));
        assert_eq!(stars.line(), Some(5));
        // Without the types, the properties are not checked.
        assert!(
            run(&job(resource, None))
                .iter()
                .all(|l| !l.finding.pointer.ends_with("/stars"))
        );
    }

    #[test]
    fn an_unknown_type_is_not_an_error() {
        let resource = "{\"type\": \"nobody-knows\", \"external_id\": \"x\", \"name\": \"n\"}";
        assert_eq!(run(&job(resource, Some(demo_types()))), vec![]);
    }

    #[test]
    fn header_findings_point_at_their_field() {
        let mut job = job(
            "{\"type\": \"t\", \"external_id\": \"x\", \"name\": \"n\"}",
            None,
        );
        job.header.insert("status".into(), json!("OK"));
        let found = run(&job);
        assert!(
            found.iter().any(|l| l.place == Place::Field(Field::Status)),
            "{found:?}"
        );
    }
}
