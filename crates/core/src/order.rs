//! The order listings are sorted in, by the TUI's `:sort` and the CLI's `list --sort`: each
//! value becomes a byte string ([`sort_key`]) whose byte order is the order a person expects.
//! - A value that is a JSON number sorts by its exact value (`9` before `10`, `-2` before `-1`,
//!   `0.1` before `0.10000000000000000001`), never through `f64`; numbers come before texts.
//! - A text sorts case-insensitively, each run of digits by its value (`res_2` before `res_10`,
//!   `1.2.9` before `1.2.10`).
//!
//! Keys are compared as bytes, so a sort builds each once and compares them with `memcmp`.

use std::cmp::Ordering;

/// The first byte of a number's key, before every text's: numbers sort first.
const NUMBER: u8 = 1;
/// The first byte of a text's key.
const TEXT: u8 = 2;
/// Within a number's key, after [`NUMBER`]: the sign (negative, zero, positive).
const NEGATIVE: u8 = 0;
const ZERO: u8 = 1;
const POSITIVE: u8 = 2;
/// Within a text's key: a run of digits, then its length and its digits (leading zeros
/// dropped). `0`, so that a run sorts among the characters where a digit would.
const DIGITS: u8 = b'0';

/// Appends the sort key of `value` (the text of one cell) to `out`.
pub fn sort_key(value: &str, out: &mut Vec<u8>) {
    match Decimal::parse(value) {
        Some(number) => {
            out.push(NUMBER);
            number.key(out);
        }
        None => {
            out.push(TEXT);
            text_key(value, out);
        }
    }
}

/// Two values in sort order (as their keys compare).
pub fn compare(a: &str, b: &str) -> Ordering {
    let (mut ka, mut kb) = (Vec::new(), Vec::new());
    sort_key(a, &mut ka);
    sort_key(b, &mut kb);
    ka.cmp(&kb)
}

/// A text lowercased, its digit runs replaced by [`DIGITS`], their length (two bytes) and
/// their digits.
fn text_key(text: &str, out: &mut Vec<u8>) {
    let mut buffer = [0; 4];
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let mut run = vec![c as u8];
            while let Some(d) = chars.next_if(char::is_ascii_digit) {
                run.push(d as u8);
            }
            let start = run.iter().position(|&d| d != b'0').unwrap_or(run.len() - 1);
            let digits = &run[start..];
            let len = u16::try_from(digits.len()).unwrap_or(u16::MAX);
            out.push(DIGITS);
            out.extend_from_slice(&len.to_be_bytes());
            out.extend_from_slice(digits);
        } else {
            for lower in c.to_lowercase() {
                out.extend_from_slice(lower.encode_utf8(&mut buffer).as_bytes());
            }
        }
    }
}

/// A JSON number as sign, significant digits and the power of ten of the first one:
/// `-120.5` is negative, `1205`, 2.
struct Decimal {
    negative: bool,
    /// Without leading or trailing zeros; empty for zero.
    digits: Vec<u8>,
    exponent: i64,
}

impl Decimal {
    /// `None` unless `text` is a JSON number, whole.
    fn parse(text: &str) -> Option<Decimal> {
        let bytes = text.as_bytes();
        let (negative, rest) = match bytes.split_first()? {
            (b'-', rest) => (true, rest),
            _ => (false, bytes),
        };
        let int_len = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let (int, rest) = rest.split_at(int_len);
        if int.is_empty() || (int.len() > 1 && int[0] == b'0') {
            return None;
        }
        let (frac, rest) = match rest.split_first() {
            Some((b'.', after)) => {
                let n = after.iter().take_while(|b| b.is_ascii_digit()).count();
                if n == 0 {
                    return None;
                }
                after.split_at(n)
            }
            _ => (&rest[..0], rest),
        };
        let exp: i64 = match rest.split_first() {
            None => 0,
            Some((b'e' | b'E', after)) => {
                let (minus, digits) = match after.split_first()? {
                    (b'-', d) => (true, d),
                    (b'+', d) => (false, d),
                    _ => (false, after),
                };
                if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
                    return None;
                }
                // Saturates: an exponent past any real value's still orders right.
                let value = digits.iter().fold(0i64, |n, &d| {
                    n.saturating_mul(10).saturating_add(i64::from(d - b'0'))
                });
                if minus { -value } else { value }
            }
            Some(_) => return None,
        };
        let all: Vec<u8> = int.iter().chain(frac).copied().collect();
        let Some(first) = all.iter().position(|&d| d != b'0') else {
            return Some(Decimal {
                negative: false,
                digits: Vec::new(),
                exponent: 0,
            });
        };
        let last = all.iter().rposition(|&d| d != b'0').unwrap_or(first);
        let exponent = (int.len() as i64 - 1 - first as i64).saturating_add(exp);
        Some(Decimal {
            negative,
            digits: all[first..=last].to_vec(),
            exponent,
        })
    }

    /// Sign, then (for a positive value) the exponent and the digits, which order by value; a
    /// negative value's bytes are those of its magnitude inverted, then a last `0xFF`, so that
    /// a longer magnitude (a larger one) sorts first.
    fn key(&self, out: &mut Vec<u8>) {
        if self.digits.is_empty() {
            out.push(ZERO);
            return;
        }
        let mut magnitude = Vec::with_capacity(8 + self.digits.len());
        let biased = (self.exponent as u64) ^ (1 << 63);
        magnitude.extend_from_slice(&biased.to_be_bytes());
        magnitude.extend_from_slice(&self.digits);
        if self.negative {
            out.push(NEGATIVE);
            out.extend(magnitude.iter().map(|b| !b));
            out.push(0xFF);
        } else {
            out.push(POSITIVE);
            out.extend_from_slice(&magnitude);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(values: &[&str]) -> Vec<String> {
        let mut v: Vec<&str> = values.to_vec();
        v.sort_by(|a, b| compare(a, b));
        v.into_iter().map(str::to_owned).collect()
    }

    #[test]
    fn ids_sort_by_the_value_of_their_digits() {
        assert_eq!(
            sorted(&["res_100", "res_10", "res_2", "res_1", "RES_3", "res_02x"]),
            ["res_1", "res_2", "res_02x", "RES_3", "res_10", "res_100"]
        );
        assert_eq!(
            sorted(&["1.2.10", "1.2.9", "1.10.0", "v2"]),
            ["1.2.9", "1.2.10", "1.10.0", "v2"]
        );
    }

    #[test]
    fn numbers_sort_by_their_exact_value_before_texts() {
        assert_eq!(
            sorted(&[
                "10", "9", "-1", "-10", "0", "-0", "1e1", "0.5", "x", "2E-1", "-0.5"
            ]),
            [
                "-10", "-1", "-0.5", "0", "-0", "2E-1", "0.5", "9", "10", "1e1", "x"
            ]
        );
    }

    #[test]
    fn decimals_compare_exactly_past_what_f64_tells_apart() {
        let (a, b) = ("0.1", "0.1000000000000000055511151231257827");
        assert_eq!(compare(a, b), Ordering::Less);
        assert_eq!(compare(b, a), Ordering::Greater);
        assert_eq!(compare("100", "1e2"), Ordering::Equal);
        assert_eq!(compare("-0.51", "-0.5"), Ordering::Less);
        assert_eq!(
            compare("1e999999999999999999999", "9e99"),
            Ordering::Greater
        );
        assert_eq!(compare("-1e-400", "0"), Ordering::Less);
    }
}
