//! The integer `-0`, kept. jaq-json reads `-0` as the machine integer 0 and writes it back as
//! `0`: `--jq .` changed the service's bytes. A JSON text holding an integer `-0` (rare: the scan
//! of [`crate::json_peek::facts`] finds it) is read through serde_json instead, which keeps each number's
//! digits, and that `-0` becomes a decimal jaq writes as it came (and compares as 0). In such a
//! text an exponent comes back as serde_json writes it (`1E400` as `1e+400`): a computed value,
//! as the README says of jq's output.

use std::rc::Rc;

use jaq_json::Num;

use super::Val;

/// `json` read as jaq would, each integer `-0` kept as written; `None` when serde_json cannot
/// read it (the caller reads it as jaq does).
pub(super) fn read(json: &[u8]) -> Option<Val> {
    let value: serde_json::Value = serde_json::from_slice(json).ok()?;
    Some(convert(value))
}

fn convert(value: serde_json::Value) -> Val {
    use serde_json::Value;
    match value {
        Value::Null => Val::Null,
        Value::Bool(b) => Val::Bool(b),
        Value::String(s) => Val::utf8_str(s),
        Value::Number(n) => {
            let text = n.to_string();
            let integer = !text.contains(['.', 'e', 'E']);
            let num = match integer && text != "-0" {
                true => Num::from_str_radix(&text, 10).unwrap_or_else(|| Num::Dec(Rc::new(text))),
                false => Num::Dec(Rc::new(text)),
            };
            Val::Num(num)
        }
        Value::Array(items) => Val::Arr(Rc::new(items.into_iter().map(convert).collect())),
        Value::Object(map) => {
            let mut object = jaq_json::Map::default();
            for (key, value) in map {
                object.insert(Val::utf8_str(key), convert(value));
            }
            Val::obj(object)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_keeps_minus_zero_and_the_digits_of_every_other_number() {
        let val = read(br#"{"z":-0,"b":[1,123456789012345678901234567890,1.50,1E400]}"#).unwrap();
        assert_eq!(
            val.to_string(),
            r#"{"z":-0,"b":[1,123456789012345678901234567890,1.50,1e+400]}"#
        );
    }
}
