//! A property-based run of the sandbox against an OpenAPI model of the spec
//! (tests/fixtures/openapi.json, issue 20 item 15): bodies generated from the model's request
//! schemas, and invalid variants of them, are sent over HTTP on loopback, and every answer must be
//! a status the model declares for the operation, with the declared body, and the status the
//! model gives that request. Reports the sandbox accepts must be listed back as sent, and paging
//! must yield each resource exactly once.
//!
//! Seeded (`SANDBOX_MODEL_SEED=<n>` tries another seed, `SANDBOX_MODEL_CASES=<percent>` scales
//! the case counts); a failing case prints the request and the answer, shrunk.

mod generate;
mod model;
mod mutate;
mod oracle;
mod paging;
mod wire;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::LazyLock;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use reqwest::Method;
use serde_json::{Map, Value};

use model::{Model, Operation};
use mutate::RawBody;
use oracle::{check_answer, connect_status, expected_status};
use wire::{Auth, Harness, Request};

static MODEL: LazyLock<Model> = LazyLock::new(Model::load);

/// A runner with a fixed seed (or `SANDBOX_MODEL_SEED`) and `cases` cases (scaled by
/// `SANDBOX_MODEL_CASES`, the count for a weight of 100). No regression files: a found case
/// becomes a plain test.
fn runner(cases: u32) -> TestRunner {
    let seed: u64 = std::env::var("SANDBOX_MODEL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let scale: u32 = std::env::var("SANDBOX_MODEL_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let config = Config {
        cases: (cases * scale / 100).max(1),
        failure_persistence: None,
        max_shrink_iters: 2048,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// Runs the property; a failure panics with the shrunk case's request and answer.
fn run<S: Strategy>(cases: u32, strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: std::fmt::Debug,
{
    if let Err(failure) = runner(cases).run(&strategy, test) {
        panic!("{failure}");
    }
}

/// How often each status came back, to show that a run met every kind of answer it should (a
/// generator that made only broken bodies would pass every property and test nothing).
#[derive(Default)]
struct Tally(RefCell<BTreeMap<u16, u32>>);

impl Tally {
    fn count(&self, status: u16) {
        *self.0.borrow_mut().entry(status).or_default() += 1;
    }

    /// Asserts that each of `statuses` came back at least `min_share` of the time.
    fn assert_met(&self, statuses: &[u16], min_share: f64) {
        let tally = self.0.borrow();
        let total: u32 = tally.values().sum();
        for status in statuses {
            let n = tally.get(status).copied().unwrap_or_default();
            assert!(
                f64::from(n) >= min_share * f64::from(total),
                "HTTP {status} came back {n} times in {total}: the run hardly tries it ({tally:?})"
            );
        }
    }
}

/// A request as the run sends it: the method, the Authorization header(s), the body's bytes.
#[derive(Clone, Debug)]
struct Case {
    method: Method,
    auth: Auth,
    raw: RawBody,
}

impl Case {
    fn request(&self, operation: Operation) -> Request {
        Request {
            operation,
            method: self.method.clone(),
            auth: self.auth.clone(),
            body: self.raw.bytes(),
        }
    }
}

fn auth() -> BoxedStrategy<Auth> {
    prop_oneof![
        24 => Just(Auth::Good),
        2 => Just(Auth::LowerCaseScheme),
        1 => Just(Auth::Missing),
        1 => prop_oneof!["[A-Za-z0-9._~+/=-]{1,40}", Just("tökén".to_owned())]
            .prop_map(Auth::WrongToken),
        1 => Just(Auth::OtherScheme),
        1 => Just(Auth::NoToken),
        1 => Just(Auth::Twice),
    ]
    .boxed()
}

fn method() -> BoxedStrategy<Method> {
    prop_oneof![
        40 => Just(Method::POST),
        1 => Just(Method::GET),
        1 => Just(Method::PUT),
        1 => Just(Method::PATCH),
        1 => Just(Method::DELETE),
    ]
    .boxed()
}

/// Requests for an operation: a body from the model's request schema, `adjust`ed by a choice
/// from `adjustments`, one mutation of it half the time, sent as JSON or as bytes that are not a
/// JSON object, with good or bad credentials, mostly by POST. (No `prop_flat_map`: it shrinks
/// poorly, and a failing case should come out small.)
fn cases<A: Strategy + 'static>(
    operation: Operation,
    adjustments: A,
    adjust: impl Fn(Value, A::Value) -> Value + 'static,
) -> impl Strategy<Value = Case> {
    let body = generate::value_for(&MODEL, MODEL.request_schema(operation));
    let mutation = prop::option::of(mutate::mutation());
    (
        body,
        adjustments,
        mutation,
        mutate::wire(),
        auth(),
        method(),
    )
        .prop_map(move |(body, adjustment, mutation, wire, auth, method)| {
            let mut body = adjust(body, adjustment);
            if let Some(mutation) = mutation {
                mutation.apply(&mut body);
            }
            Case {
                method,
                auth,
                raw: wire.carry(body),
            }
        })
}

/// Sends a case and checks the answer against the model and the status the model gives the
/// request (`semantic`: the operation's rules for a body the model allows); returns the exchange
/// and the answer's body.
fn exchange(
    harness: &Harness,
    tally: &Tally,
    operation: Operation,
    case: &Case,
    semantic: impl FnOnce(&Map<String, Value>) -> u16,
) -> Result<(wire::Exchange, Value), TestCaseError> {
    let expected = expected_status(
        &MODEL,
        operation,
        &case.method,
        &case.auth,
        &case.raw,
        semantic,
    );
    let exchange = harness.send(&case.request(operation));
    tally.count(exchange.status);
    let answer = check_answer(&MODEL, &exchange, expected)?;
    Ok((exchange, answer))
}

#[test]
fn reports_get_the_answers_the_model_declares() {
    let tally = Tally::default();
    let harness = Harness::empty();
    let store = harness.store();
    // The service assigns ids, so a generated one would name no resource: ids are left out, or
    // one no resource has is given (a 404 the model declares).
    let ids = prop_oneof![9 => Just(None), 1 => Just(Some("res_0"))];
    let with_id = |mut body: Value, id: Option<&str>| {
        if let Some(resource) = body.pointer_mut("/response/resource")
            && let Some(map) = resource.as_object_mut()
        {
            match id {
                Some(id) => map.insert("id".to_owned(), Value::from(id)),
                None => map.shift_remove("id"),
            };
        }
        body
    };
    run(2000, cases(Operation::Report, ids, with_id), |case| {
        let semantic = |body: &_| report_status(&store, body);
        exchange(&harness, &tally, Operation::Report, &case, semantic).map(drop)
    });
    tally.assert_met(&[200, 400], 0.2);
    tally.assert_met(&[401, 404, 405, 413], 0.002);
}

/// A report's answer by the rules the model states in words: an `ok` report naming an `id`
/// updates that resource, and is a 404 when there is none.
fn report_status(store: &appdeck_sandbox::SandboxStore, body: &Map<String, Value>) -> u16 {
    let id = body
        .get("response")
        .and_then(|r| r.get("resource"))
        .and_then(|r| r.get("id"))
        .and_then(Value::as_str)
        .filter(|id| !id.trim().is_empty());
    match (body.get("status").and_then(Value::as_str), id) {
        (Some("ok"), Some(id)) if store.get(id).is_none() => 404,
        _ => 200,
    }
}

#[test]
fn connects_get_the_answers_the_model_declares() {
    let tally = Tally::default();
    let harness = Harness::empty();
    run(
        1500,
        cases(Operation::Connect, Just(()), |body, ()| body),
        |case| exchange(&harness, &tally, Operation::Connect, &case, connect_status).map(drop),
    );
    tally.assert_met(&[200, 400], 0.2);
    tally.assert_met(&[401, 405, 413, 422], 0.002);
}

#[test]
fn listings_get_the_answers_the_model_declares() {
    let tally = Tally::default();
    let harness = Harness::demo();
    let cursors = paging::issued_cursors(&harness, &MODEL);
    let types = paging::demo_types();
    // For `type` and `next`: None keeps the generated value, Some(None) leaves the field out,
    // Some(Some(v)) puts v.
    let filter = prop_oneof![
        2 => Just(None),
        1 => Just(Some(None)),
        2 => proptest::sample::select(types).prop_map(|t| Some(Some(t))),
    ];
    let next = prop_oneof![
        1 => Just(None),
        1 => Just(Some(None)),
        1 => Just(Some(Some(String::new()))),
        3 => proptest::sample::select(cursors.clone()).prop_map(|(_, c)| Some(Some(c))),
    ];
    let adjust = |body: Value, choices: (Option<Option<String>>, Option<Option<String>>)| {
        let Value::Object(mut body) = body else {
            unreachable!("the request schema is an object")
        };
        for (key, choice) in [("type", choices.0), ("next", choices.1)] {
            match choice {
                None => {}
                Some(None) => {
                    body.shift_remove(key);
                }
                Some(Some(v)) => {
                    body.insert(key.to_owned(), Value::String(v));
                }
            }
        }
        Value::Object(body)
    };
    run(
        1500,
        cases(Operation::List, (filter, next), adjust),
        |case| {
            let semantic = |body: &_| paging::list_status(&cursors, body);
            let (exchange, answer) = exchange(&harness, &tally, Operation::List, &case, semantic)?;
            if exchange.status == 200
                && let Some(body) = case.raw.object()
            {
                paging::check_page(body, &answer)
                    .map_err(|why| TestCaseError::fail(format!("{why}\n{exchange}")))?;
            }
            Ok(())
        },
    );
    tally.assert_met(&[200, 400], 0.2);
    tally.assert_met(&[401, 405, 413], 0.002);
}

#[test]
fn accepted_reports_are_listed_back_as_sent_once_each() {
    run(300, paging::report_sequences(&MODEL), |sequence| {
        paging::check_sequence(&MODEL, &sequence)
    });
}

/// Every place of a generated body, one at a time, set to null and to a 23-digit integer: the
/// random mutations reach a given field seldom, and a field the model types must refuse both.
#[test]
fn each_field_nulled_or_mistyped_gets_the_models_answer() {
    let tally = Tally::default();
    let harnesses = [
        (Operation::Report, Harness::empty()),
        (Operation::Connect, Harness::empty()),
        (Operation::List, Harness::empty()),
    ];
    for (operation, harness) in &harnesses {
        let store = harness.store();
        // Ids name no resource and cursors were not issued: leave both out, so that what
        // decides the answer is the one place changed.
        let body = generate::value_for(&MODEL, MODEL.request_schema(*operation)).prop_map(|body| {
            let mut body = body;
            if let Some(map) = body.as_object_mut() {
                map.shift_remove("next");
            }
            if let Some(Value::Object(resource)) = body.pointer_mut("/response/resource") {
                resource.shift_remove("id");
            }
            body
        });
        run(40, body, |body| {
            for n in 0..mutate::place_count(&body) {
                for wrong in [Value::Null, generate::number("12345678901234567890123")] {
                    let mut changed = body.clone();
                    mutate::replace_nth(&mut changed, n, wrong);
                    let case = Case {
                        method: Method::POST,
                        auth: Auth::Good,
                        raw: RawBody::Json(changed),
                    };
                    let semantic = |body: &Map<String, Value>| match operation {
                        Operation::Report => report_status(&store, body),
                        Operation::Connect => connect_status(body),
                        Operation::List => 200,
                    };
                    exchange(harness, &tally, *operation, &case, semantic)?;
                }
            }
            Ok(())
        });
    }
    tally.assert_met(&[200, 400], 0.1);
}
