//! What the sandbox should answer a request, by the model: a request the model allows is served
//! (200, or the declared answer to a rule the model states in words: an unknown `id`, a schema
//! that does not compile, a cursor the sandbox did not issue); one it does not allow is refused.
//! And what every answer must be: a status the model declares, with the declared body.

use proptest::test_runner::TestCaseError;
use reqwest::Method;
use serde_json::{Map, Value};

use super::model::{Model, Operation};
use super::mutate::RawBody;
use super::wire::{Auth, Exchange};

/// The status the model gives a request, before the operation's own rules (`semantic`), which
/// judge only a body the model allows.
pub fn expected_status(
    model: &Model,
    operation: Operation,
    method: &Method,
    auth: &Auth,
    raw: &RawBody,
    semantic: impl FnOnce(&Map<String, Value>) -> u16,
) -> u16 {
    if method != Method::POST {
        return 405;
    }
    match auth {
        Auth::Twice => return 400,
        auth if !auth.accepted() => return 401,
        _ => {}
    }
    if matches!(raw, RawBody::OverLimit(_)) {
        return 413;
    }
    let Some(body) = raw.object() else {
        return 400;
    };
    if !model
        .request_errors(operation, &Value::Object(body.clone()))
        .is_empty()
    {
        return 400;
    }
    semantic(body)
}

/// Checks an answer against the model and the expected status; returns its body.
pub fn check_answer(
    model: &Model,
    exchange: &Exchange,
    expected: u16,
) -> Result<Value, TestCaseError> {
    let fail = |why: String| {
        let request_errors = exchange_request_errors(model, exchange);
        TestCaseError::fail(format!("{why}\n{exchange}{request_errors}"))
    };
    let operation = exchange.request.operation;
    let method = exchange.request.method.as_str();
    if !model.declares(operation, method, exchange.status) {
        return Err(fail(format!(
            "HTTP {} is not declared for {method} {}",
            exchange.status,
            operation.path()
        )));
    }
    let body = exchange.json().map_err(&fail)?;
    let errors = model.answer_errors(operation, method, exchange.status, &body);
    if !errors.is_empty() {
        return Err(fail(format!(
            "the answer's body is not the declared one:\n  {}",
            errors.join("\n  ")
        )));
    }
    if exchange.status == 401
        && !exchange
            .www_authenticate
            .as_deref()
            .is_some_and(|v| v.starts_with("Bearer"))
    {
        return Err(fail("a 401 without `WWW-Authenticate: Bearer`".to_owned()));
    }
    if exchange.status != expected {
        return Err(fail(format!(
            "expected HTTP {expected} by the model, got HTTP {}",
            exchange.status
        )));
    }
    Ok(body)
}

/// What the model says of the request's body, for the failure message.
fn exchange_request_errors(model: &Model, exchange: &Exchange) -> String {
    let Ok(body) = serde_json::from_slice::<Value>(&exchange.request.body) else {
        return "\nthe model: the request body is not JSON".to_owned();
    };
    let errors = model.request_errors(exchange.request.operation, &body);
    if errors.is_empty() {
        "\nthe model: the request body fits the request schema".to_owned()
    } else {
        format!(
            "\nthe model: the request body breaks the request schema:\n  {}",
            errors.join("\n  ")
        )
    }
}

/// Connect's rules the model states in words: type names unique (400), action names unique
/// within a type (400), and every schema a JSON Schema that compiles (422).
pub fn connect_status(body: &Map<String, Value>) -> u16 {
    let types = body["resources"].as_array().cloned().unwrap_or_default();
    if !unique(types.iter().map(|t| &t["type"])) {
        return 400;
    }
    let mut schemas = Vec::new();
    for definition in &types {
        let actions = definition["actions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let names = actions.iter().map(|a| &a["name"]).filter(|n| n.is_string());
        if !unique(names) {
            return 400;
        }
        for key in [
            "property_json_schema",
            "create_input_schema",
            "update_input_schema",
        ] {
            schemas.extend(definition.get(key).cloned());
        }
        for action in &actions {
            for key in ["input_json_schema", "output_json_schema"] {
                schemas.extend(action.get(key).cloned());
            }
        }
    }
    if schemas.iter().all(compiles) {
        200
    } else {
        422
    }
}

fn unique<'a>(values: impl Iterator<Item = &'a Value>) -> bool {
    let mut seen = std::collections::HashSet::new();
    values.into_iter().all(|v| seen.insert(v.to_string()))
}

/// Whether a schema compiles: its `$schema`'s draft, else 2020-12; nothing fetched.
fn compiles(schema: &Value) -> bool {
    jsonschema::options().build(schema).is_ok()
}
