//! `appdeck validate`'s checks on the example payloads shipped in `assets/examples/`, which users
//! copy: they must stay clean, and the invalid one must keep showing each kind of mistake.

use appdeck_core::validate::{
    Finding, PayloadKind, Severity, ValidateError, Validation, parse_json, validate_text,
    validate_value,
};
use serde_json::{Value, json};

fn example(name: &str) -> String {
    let path = format!("{}/assets/examples/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn example_value(name: &str) -> Value {
    parse_json(&example(name)).unwrap()
}

fn shown(v: &Validation) -> Vec<String> {
    v.findings.iter().map(Finding::to_string).collect()
}

fn pointers(v: &Validation) -> Vec<&str> {
    v.findings.iter().map(|f| f.pointer.as_str()).collect()
}

#[test]
fn the_good_examples_are_clean() {
    let report = validate_text(&example("report.json"), None).unwrap();
    assert_eq!(report.kind, PayloadKind::Report);
    assert_eq!(shown(&report), Vec::<String>::new());
    let connect = validate_text(&example("connect.json"), None).unwrap();
    assert_eq!(connect.kind, PayloadKind::Connect);
    assert_eq!(shown(&connect), Vec::<String>::new());
}

#[test]
fn the_example_report_satisfies_the_example_types() {
    let v = validate_text(&example("report.json"), Some(&example("connect.json"))).unwrap();
    assert_eq!(shown(&v), Vec::<String>::new());
}

#[test]
fn the_invalid_example_shows_each_mistake() {
    let v = validate_text(&example("report-invalid.json"), None).unwrap();
    assert!(v.has_errors());
    assert_eq!(
        shown(&v),
        [
            "error at /task_id: `task_id` must not be empty",
            "error at /status: `status` must be \"ok\" or \"error\", found \"OK\" (write it as \"ok\")",
            "error at /message: expected a string, found a number",
            "warning at /response/response_type: `response_type` is missing; the spec gives one in every report's `response`",
            "error at /response/resource/display_name: expected a string, found an array",
            "warning at /response/resource/created_at: \"18/03/2024\" is not an RFC 3339 date-time (the ISO 8601 form of the spec's examples) such as \"2024-05-01T12:00:00Z\"",
            "warning at /response/resource/links/links/0/url: \"javascript:alert(document.cookie)\" is not an http or https URL with a host; appdeck opens only those",
            "error at /response/resource/links/links/1: expected a link object, found a string",
        ]
    );
}

#[test]
fn with_types_the_invalid_example_also_breaks_its_schema() {
    let v = validate_text(
        &example("report-invalid.json"),
        Some(&example("connect.json")),
    )
    .unwrap();
    let schema_findings: Vec<&Finding> = v
        .findings
        .iter()
        .filter(|f| f.pointer.starts_with("/response/resource/properties"))
        .collect();
    let mut at: Vec<&str> = schema_findings.iter().map(|f| f.pointer.as_str()).collect();
    at.sort_unstable();
    assert_eq!(
        at,
        [
            "/response/resource/properties",
            "/response/resource/properties/stars",
            "/response/resource/properties/topics",
        ]
    );
    assert!(
        schema_findings
            .iter()
            .all(|f| f.severity == Severity::Error)
    );
    let about = |pointer: &str| {
        schema_findings
            .iter()
            .find(|f| f.pointer == pointer)
            .map(|f| f.message.clone())
            .unwrap_or_default()
    };
    assert!(about("/response/resource/properties").contains("default_branch"));
    assert!(about("/response/resource/properties/stars").contains("minimum of 0"));
}

#[test]
fn breaking_the_schema_yields_the_pointer() {
    let types = example_value("connect.json");
    let mut report = example_value("report.json");
    report["response"]["resource"]["properties"]["stars"] = json!(-1);
    let v = validate_value(&report, Some(&types)).unwrap();
    assert_eq!(pointers(&v), ["/response/resource/properties/stars"]);
    assert_eq!(
        shown(&v),
        ["error at /response/resource/properties/stars: -1 is less than the minimum of 0"]
    );

    // The second type is draft-07 and checks another shape.
    let resource = &mut report["response"]["resource"];
    resource["type"] = json!("deployment");
    resource["properties"] = json!({"environment": "prod", "commit": "HEAD"});
    let v = validate_value(&report, Some(&types)).unwrap();
    assert_eq!(
        pointers(&v),
        [
            "/response/resource/properties/environment",
            "/response/resource/properties/commit"
        ]
    );
}

#[test]
fn a_type_missing_from_the_types_is_named_with_the_known_ones() {
    let mut report = example_value("report.json");
    report["response"]["resource"]["type"] = json!("issue");
    let v = validate_value(&report, Some(&example_value("connect.json"))).unwrap();
    assert_eq!(
        shown(&v),
        [
            "error at /response/resource/type: \"issue\" is not a type of the --types file; its types are \"repository\", \"deployment\""
        ]
    );
}

#[test]
fn connect_mistakes_point_into_the_payload() {
    let mut connect = example_value("connect.json");
    connect["resources"][1]["type"] = json!("repository");
    connect["resources"][1]["actions"][0]["input_json_schema"] = json!({"type": "objekt"});
    connect["resources"][0]["actions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "archive"}));
    let v = validate_value(&connect, None).unwrap();
    assert_eq!(
        pointers(&v),
        [
            "/resources/0/actions/1/name",
            "/resources/1/type",
            "/resources/1/actions/0/input_json_schema",
        ]
    );
    assert!(
        v.findings[1]
            .message
            .contains("/resources/0 and at /resources/1")
    );
    assert!(
        v.findings[2]
            .message
            .starts_with("the JSON Schema does not compile: ")
    );
}

#[test]
fn types_are_ignored_for_a_connect_payload() {
    let v = validate_text(&example("connect.json"), Some(&example("connect.json"))).unwrap();
    assert_eq!(v.findings.len(), 1);
    assert_eq!(v.findings[0].severity, Severity::Warning);
    assert_eq!(v.findings[0].pointer, "");
    assert!(!v.has_errors());
}

#[test]
fn a_report_as_types_is_refused() {
    let err = validate_text(&example("report.json"), Some(&example("report.json"))).unwrap_err();
    assert!(matches!(err, ValidateError::Types(_)), "{err}");
}

#[test]
fn syntax_errors_give_line_and_column() {
    // Drop the comma that ends the `"status": "ok",` line: the parser stops at the next key.
    let text = example("report.json").replacen("\"status\": \"ok\",", "\"status\": \"ok\"", 1);
    let err = validate_text(&text, None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "JSON syntax error at line 4, column 3: expected `,` or `}`"
    );

    let types_text = example("connect.json").replacen("\"beta\",", "\"beta\" ", 1);
    let line = types_text
        .lines()
        .position(|l| l.contains("\"beta\""))
        .unwrap()
        + 2;
    let err = validate_text(&example("report.json"), Some(&types_text)).unwrap_err();
    let ValidateError::Types(message) = err else {
        panic!("expected a --types error, got {err:?}")
    };
    assert!(
        message.contains(&format!("line {line}, column 7")),
        "{message}"
    );
}

#[test]
fn hostile_text_never_reaches_the_output_raw() {
    let report = json!({
        "task_id": "t\u{1b}]0;pwned\u{7}", "status": "ok\u{1b}[2J",
        "response": {"resource": {
            "type": "repository\u{202e}",
            "created_at": "\u{9b}31m",
            "properties": {"\u{1b}[31mkey": 1},
            "links": {"links": [{"url": "\u{1b}]8;;http://evil\u{7}"}]}
        }}
    });
    for types in [None, Some(example_value("connect.json"))] {
        let v = validate_value(&report, types.as_ref()).unwrap();
        assert!(v.has_errors());
        for finding in &v.findings {
            let text = finding.to_string();
            assert!(
                !text.chars().any(|c| c.is_control() || c == '\u{202e}'),
                "{text:?}"
            );
        }
    }
}

/// Every field of every record, set to every JSON type: findings, never a panic.
#[test]
fn any_shape_is_checked_without_panicking() {
    let shapes = [
        json!(null),
        json!(true),
        json!(-1.5),
        json!("s"),
        json!([]),
        json!({}),
        json!([1, "x", null, {}]),
        json!({"links": 5, "type": [], "$ref": 3}),
    ];
    let types = example_value("connect.json");
    let report = example_value("report.json");
    let connect = example_value("connect.json");
    let targets: [(&Value, &[&str]); 6] = [
        (&report, &[""]),
        (&report, &["", "response"]),
        (&report, &["", "response", "resource"]),
        (
            &report,
            &["", "response", "resource", "links", "links", "0"],
        ),
        (&connect, &["", "resources", "0"]),
        (&connect, &["", "resources", "0", "actions", "0"]),
    ];
    for (base, path) in targets {
        let pointer = path.join("/");
        let keys: Vec<String> = base
            .pointer(&pointer)
            .and_then(Value::as_object)
            .unwrap()
            .keys()
            .cloned()
            .collect();
        for key in keys {
            for shape in &shapes {
                let mut value = base.clone();
                value.pointer_mut(&pointer).unwrap()[&key] = shape.clone();
                for t in [None, Some(&types)] {
                    // The top-level markers may make the kind unknown; anything else is a Validation.
                    let _ = validate_value(&value, t);
                }
            }
        }
    }
}
