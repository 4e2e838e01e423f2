//! The integer `-0`, kept. jaq-json reads `-0` as the machine integer 0 and writes it back as
//! `0`: `--jq .` changed the service's bytes. A JSON text holding an integer `-0` (rare: a scan
//! outside strings finds it) is read through serde_json instead, which keeps each number's
//! digits, and that `-0` becomes a decimal jaq writes as it came (and compares as 0). In such a
//! text an exponent comes back as serde_json writes it (`1E400` as `1e+400`): a computed value,
//! as the README says of jq's output.

use std::rc::Rc;

use jaq_json::Num;

use super::Val;

/// Whether `json` holds the integer `-0` outside a string: `-0` followed by no digit, `.`, `e`
/// or `E`.
pub fn holds(json: &[u8]) -> bool {
    let (mut in_string, mut escaped) = (false, false);
    for (i, &byte) in json.iter().enumerate() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'-' if json.get(i + 1) == Some(&b'0') => {
                let next = json.get(i + 2).copied().unwrap_or(b' ');
                if !(next.is_ascii_digit() || matches!(next, b'.' | b'e' | b'E')) {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// `json` read as jaq would, each integer `-0` kept as written; `None` when serde_json cannot
/// read it (the caller reads it as jaq does).
pub fn read(json: &[u8]) -> Option<Val> {
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
    fn only_an_integer_minus_zero_outside_strings_is_found() {
        for yes in [
            "-0",
            "[1,-0]",
            r#"{"a":-0}"#,
            "-0 ",
            r#"{"s":"x\"","n":-0}"#,
        ] {
            assert!(holds(yes.as_bytes()), "{yes}");
        }
        for no in [
            "-0.0",
            "-0e1",
            "-0E1",
            r#""-0""#,
            r#"{"d":"2024-05-01"}"#,
            "10",
            "-1",
        ] {
            assert!(!holds(no.as_bytes()), "{no}");
        }
    }

    #[test]
    fn read_keeps_minus_zero_and_the_digits_of_every_other_number() {
        let val = read(br#"{"z":-0,"b":[1,123456789012345678901234567890,1.50,1E400]}"#).unwrap();
        assert_eq!(
            val.to_string(),
            r#"{"z":-0,"b":[1,123456789012345678901234567890,1.50,1e+400]}"#
        );
    }
}
