//! A connect payload's text as the connect composer shows it while it is typed: the rules of
//! `appdeck validate` for a connect payload (schemas compile under their draft, unique type
//! names, unique action names within a type, the required fields), a warning when `version` is
//! not greater than the newest known version of the same app, the payload's outline, and its
//! changes against that version (`crate::diff`). Pure; each finding knows the line it marks.

use serde_json::Value;

use crate::catalog::Baseline;
use crate::diff::NotAfter;
use crate::json_locate::position_of;
use crate::validate::{self, Finding, PayloadKind};

/// One finding and the 0-based line and column of the editor it points at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PayloadFinding {
    pub finding: Finding,
    pub at: (usize, usize),
}

/// What a check of the payload's text found: the findings in document order, and the payload
/// when the text is JSON.
#[derive(Clone, Debug, Default)]
struct Checked {
    findings: Vec<PayloadFinding>,
    payload: Option<Value>,
}

/// Checks `text` against the rules, and its version against the newest known version of its
/// app among `known`.
fn run(text: &str, known: &[Baseline]) -> Checked {
    let payload = match validate::parse_or_finding(text, "") {
        Ok(payload) => payload,
        Err((finding, at)) => {
            let at = at.unwrap_or_default();
            return Checked {
                findings: vec![PayloadFinding { finding, at }],
                payload: None,
            };
        }
    };
    let mut findings = match validate::validate_as(&payload, PayloadKind::Connect) {
        Ok(validation) => validation.findings,
        Err(e) => vec![Finding::error("", e.to_string())],
    };
    // As `appdeck connect FILE` says it: the parsed payload kept the last one only.
    findings.extend(validate::duplicate_key_findings(text));
    findings.extend(version_warning(&payload, known));
    // Every finding is built sanitised (`Finding::error`, `Finding::warning`).
    let findings = findings
        .into_iter()
        .map(|finding| {
            let at = position_of(text, &finding.pointer);
            PayloadFinding { finding, at }
        })
        .collect();
    Checked {
        findings,
        payload: Some(payload),
    }
}

/// The newest known version of the payload's app, if any.
fn baseline_of<'a>(payload: &Value, known: &'a [Baseline]) -> Option<&'a Baseline> {
    let app_id = payload.get("app_id")?.as_str()?;
    known.iter().find(|b| b.app_id == app_id)
}

/// A warning when the payload's `version` does not come after the newest known one, by the rule
/// `appdeck connect` warns by (`diff::version_not_after`).
fn version_warning(payload: &Value, known: &[Baseline]) -> Option<Finding> {
    let baseline = baseline_of(payload, known)?;
    let version = payload.get("version")?.as_str()?;
    let app = format!("{} ({})", baseline.app_id, baseline.source);
    let message = match crate::diff::version_not_after(version, &baseline.version)? {
        NotAfter::Semver { new, old } => {
            format!("version {new} is not greater than {old}, the newest known version of {app}")
        }
        NotAfter::SameString(version) => {
            format!("replaces the same version string {version:?} of {app}")
        }
    };
    Some(Finding::warning("/version", message))
}

/// Everything the composer shows about the payload as typed: the findings, the outline, and the
/// changes against the newest known version of its app. Pure and owned, so it runs on the UI
/// thread for a small payload and on a background task for a large one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analysis {
    /// Whether the text is JSON (when it is not, the outline is left as it was).
    pub is_json: bool,
    pub findings: Vec<PayloadFinding>,
    pub outline: Vec<crate::catalog::OutlineType>,
    /// What the payload is compared with, when a version of its app is known.
    pub against: Option<Baseline>,
    /// The changes against it (`None` when the text is not JSON or nothing is known).
    pub changes: Option<crate::diff::Changes>,
}

/// The findings, the outline and the changes of the payload `text` against the newest known
/// version of its app among `known`.
pub fn analyse(text: &str, known: &[Baseline]) -> Analysis {
    let Checked { findings, payload } = run(text, known);
    let Some(payload) = payload else {
        return Analysis {
            findings,
            ..Analysis::default()
        };
    };
    let against = baseline_of(&payload, known).cloned();
    let changes = against
        .as_ref()
        .map(|b| crate::diff::compare(&b.payload, &payload));
    Analysis {
        is_json: true,
        findings,
        outline: crate::catalog::outline(&payload, text),
        against,
        changes,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use super::*;
    use crate::validate::Severity;

    fn demo() -> Value {
        serde_json::from_str(crate::catalog::DEMO_CONNECT).unwrap()
    }

    fn known(version: &str) -> Vec<Baseline> {
        vec![Baseline {
            app_id: "acme-devtools".into(),
            version: version.into(),
            source: "demo".into(),
            payload: Arc::new(demo()),
            text: Arc::from(crate::catalog::DEMO_CONNECT),
        }]
    }

    fn text(payload: &Value) -> String {
        serde_json::to_string_pretty(payload).unwrap()
    }

    #[test]
    fn the_demo_payload_passes_against_an_older_version() {
        let checked = run(&text(&demo()), &known("1.3.9"));
        assert_eq!(checked.findings, vec![]);
        assert!(checked.payload.is_some());
    }

    #[test]
    fn a_version_not_greater_than_the_newest_known_is_a_warning_on_its_line() {
        let checked = run(&text(&demo()), &known("1.10.0"));
        let [found] = checked.findings.as_slice() else {
            panic!("{:?}", checked.findings)
        };
        assert_eq!(found.finding.severity, Severity::Warning);
        assert_eq!(found.finding.pointer, "/version");
        assert!(found.finding.message.contains("not greater than 1.10.0"));
        assert_eq!(found.at.0, 2, "the version line");
        // Not semver: only the same string warns.
        let mut odd = demo();
        odd["version"] = json!("spring");
        assert!(run(&text(&odd), &known("summer")).findings.is_empty());
        let same = run(&text(&odd), &known("spring"));
        assert!(
            same.findings[0]
                .finding
                .message
                .contains("same version string")
        );
    }

    #[test]
    fn the_version_warning_names_the_app_as_a_safe_line() {
        let mut payload = demo();
        payload["app_id"] = json!("evil\u{1b}[2J");
        let mut known = known("1.4.0");
        known[0].app_id = "evil\u{1b}[2J".into();
        let checked = run(&text(&payload), &known);
        let [found] = checked.findings.as_slice() else {
            panic!("{:?}", checked.findings)
        };
        assert!(found.finding.message.contains("evil␛[2J"), "{found:?}");
    }

    #[test]
    fn duplicate_types_and_syntax_errors_are_found_where_they_are() {
        let mut payload = demo();
        let first = payload["resources"][0].clone();
        payload["resources"].as_array_mut().unwrap().push(first);
        let checked = run(&text(&payload), &[]);
        assert!(
            checked
                .findings
                .iter()
                .any(|l| l.finding.severity == Severity::Error),
            "{:?}",
            checked.findings
        );
        let broken = run("{\n  \"app_id\": \"a\",\n  oops\n}", &[]);
        assert_eq!(broken.findings[0].at, (2, 2));
        assert!(broken.payload.is_none());
    }
}
