//! The OpenAPI model of the spec (tests/fixtures/openapi.json) as the run uses it: the request
//! schema of each operation, to generate bodies from and to judge them by, and the answers each
//! operation declares, to check the sandbox's answers against.

use std::collections::HashMap;

use serde_json::{Value, json};

/// The model, as written.
pub const OPENAPI: &str = include_str!("../../fixtures/openapi.json");

/// The three operations of the spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    List,
    Report,
    Connect,
}

impl Operation {
    pub const ALL: [Operation; 3] = [Operation::List, Operation::Report, Operation::Connect];

    /// The path under the API root, as the model's `paths` name it.
    pub fn path(self) -> &'static str {
        match self {
            Operation::List => "/resources.list",
            Operation::Report => "/apps.operations.report",
            Operation::Connect => "/apps.version.connect",
        }
    }
}

/// The model with a validator for every request schema and every declared answer.
pub struct Model {
    doc: Value,
    requests: HashMap<Operation, jsonschema::Validator>,
    /// (operation, lower-case method, status) -> the schema of that answer's body.
    answers: HashMap<(Operation, String, u16), jsonschema::Validator>,
}

impl Model {
    pub fn load() -> Model {
        let doc: Value =
            serde_json::from_str(OPENAPI).expect("tests/fixtures/openapi.json is JSON");
        assert_eq!(doc["openapi"], "3.1.0", "an OpenAPI 3.1 document");
        let mut requests = HashMap::new();
        let mut answers = HashMap::new();
        for operation in Operation::ALL {
            let path_item = doc["paths"][operation.path()]
                .as_object()
                .unwrap_or_else(|| panic!("the model has {}", operation.path()));
            let at = format!("/paths/{}", escape(operation.path()));
            let body = format!("{at}/post/requestBody/content/application~1json/schema");
            requests.insert(operation, validator(&doc, &body));
            for (method, item) in path_item {
                let responses = item["responses"].as_object().expect("responses");
                for status in responses.keys() {
                    let code: u16 = status.parse().expect("numeric statuses only, no `default`");
                    let schema = format!(
                        "{at}/{method}/responses/{status}/content/application~1json/schema"
                    );
                    answers.insert((operation, method.clone(), code), validator(&doc, &schema));
                }
            }
        }
        Model {
            doc,
            requests,
            answers,
        }
    }

    /// The schema at a JSON pointer of the model, with `$ref`s followed.
    pub fn schema(&self, pointer: &str) -> &Value {
        self.resolve(self.doc.pointer(pointer).expect("a pointer into the model"))
    }

    /// The request body schema of an operation.
    pub fn request_schema(&self, operation: Operation) -> &Value {
        self.schema(&format!(
            "/paths/{}/post/requestBody/content/application~1json/schema",
            escape(operation.path())
        ))
    }

    /// Follows `$ref`s (all local, `#/...`).
    pub fn resolve<'a>(&'a self, mut schema: &'a Value) -> &'a Value {
        while let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            let pointer = reference.strip_prefix('#').expect("a local reference");
            schema = self
                .doc
                .pointer(pointer)
                .expect("a reference inside the model");
        }
        schema
    }

    /// The ways a request body breaks the operation's schema (empty: the model allows it).
    pub fn request_errors(&self, operation: Operation, body: &Value) -> Vec<String> {
        errors(&self.requests[&operation], body)
    }

    /// Whether the model declares this status for the operation and method.
    pub fn declares(&self, operation: Operation, method: &str, status: u16) -> bool {
        self.answers
            .contains_key(&(operation, method.to_ascii_lowercase(), status))
    }

    /// The ways an answer's body breaks the schema declared for its status, or why it cannot be
    /// checked (undeclared status).
    pub fn answer_errors(
        &self,
        operation: Operation,
        method: &str,
        status: u16,
        body: &Value,
    ) -> Vec<String> {
        match self
            .answers
            .get(&(operation, method.to_ascii_lowercase(), status))
        {
            Some(validator) => errors(validator, body),
            None => vec![format!(
                "HTTP {status} is not an answer the model declares for {method} {}",
                operation.path()
            )],
        }
    }
}

/// A validator for the schema at `pointer`: the whole document is the root, so the schema's
/// `$ref`s to `#/components/...` resolve; OpenAPI's own keys are unknown keywords to JSON Schema.
fn validator(doc: &Value, pointer: &str) -> jsonschema::Validator {
    let mut root = doc.clone();
    root["$ref"] = json!(format!("#{pointer}"));
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(&root)
        .unwrap_or_else(|e| panic!("the model's schema at {pointer} compiles: {e}"))
}

fn errors(validator: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    validator
        .iter_errors(instance)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

/// A JSON pointer token: `~` and `/` escaped.
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}
