//! Numbers for a schema's bounds: 0, then each bound (`minimum`, `maximum` as written, the
//! integer just inside an exclusive one), then the first multiple of `multipleOf` past the lower
//! bound. The caller keeps the first that its validator accepts.

use serde_json::{Number, Value};

/// Candidates for an `integer` (`whole`) or a `number`, most plain first.
pub(super) fn candidates(schema: &Value, whole: bool) -> Vec<Value> {
    let bound = |key| schema.get(key).filter(|v| v.is_number());
    let float = |key| bound(key).and_then(Value::as_f64);
    let mut values = vec![Value::from(0)];
    // A bound as written keeps its exact text (arbitrary precision): `1e400` stays `1e400`.
    values.extend(bound("minimum").cloned());
    values.extend(bound("maximum").cloned());
    let lower = float("minimum").or(float("exclusiveMinimum").map(|v| v.floor() + 1.0));
    let upper = float("exclusiveMaximum").map(|v| v.ceil() - 1.0);
    values.extend(lower.into_iter().chain(upper).filter_map(whole_number));
    if let Some(step) = float("multipleOf").filter(|step| *step > 0.0) {
        values.extend(whole_number((lower.unwrap_or(0.0) / step).ceil() * step));
    }
    // A number strictly between two bounds that no integer fits between: their middle.
    let high = float("maximum").or(float("exclusiveMaximum"));
    if !whole && let (Some(low), Some(high)) = (float("exclusiveMinimum"), high) {
        values.extend(Number::from_f64((low + high) / 2.0).map(Value::Number));
    }
    values
}

/// `value` as an integer, when it is one that fits an `i64`.
fn whole_number(value: f64) -> Option<Value> {
    let fits = value.is_finite() && value.fract() == 0.0 && value.abs() < 9.0e15;
    fits.then(|| Value::from(value as i64))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn bounds_and_steps_give_candidates() {
        let schema = json!({"minimum": 3, "multipleOf": 5});
        assert_eq!(
            candidates(&schema, true),
            [json!(0), json!(3), json!(3), json!(5)]
        );
        let schema = json!({"exclusiveMinimum": 0.5, "exclusiveMaximum": 1});
        let made = candidates(&schema, false);
        assert!(
            made.contains(&json!(1)) && made.contains(&json!(0.75)),
            "{made:?}"
        );
    }
}
