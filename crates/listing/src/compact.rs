//! Column texts kept in fewer bytes than their text, for the shapes nearly every listing has:
//! an `updated_at` such as `2024-12-28T22:14:00Z` (21 bytes packed as text, 6 this way), an id
//! that is a prefix and a number (`res_123`, `INC-1009`: the prefix kept once in the listing),
//! and a lowercase UUID (37 bytes as text, 20 this way). At 100,000 rows that is about 2 MB
//! of the resident memory (`benches/memory.sh`).
//!
//! A text is only kept this way when it prints back to exactly the same bytes (what the service
//! sent is what appdeck shows): `...00.000Z` keeps its three zeros, an upper-case UUID, a
//! `+00:00` offset, a number with leading zeros or a year before 1970 stay text. Every
//! encoding is checked by printing it back before it is kept (see `Texts::push`).
//!
//! Packed, a compact text is a kind (in the column's char, see `row_texts.rs`) and a payload
//! of 7-bit bytes (ASCII, so the listing's texts stay a `str`), whose length the kind says.

use chrono::{DateTime, Datelike, NaiveDate, Timelike};

/// How many kinds of compact text there are: a time with 0 to 9 digits of fraction, a number
/// of 1 to 9 payload bytes, a UUID.
pub(crate) const KINDS: usize = 20;
const TIME: usize = 0;
const NUMBER: usize = 10;
const UUID: usize = 19;

/// The longest prefix a number keeps in the listing's table (longer: the id stays text).
pub(crate) const MAX_PREFIX: usize = 16;
/// Digits of a number: under 10^18, it fits the 63 bits of 9 payload bytes.
const MAX_DIGITS: usize = 18;
/// Payload bytes of the seconds since 1970: 35 bits, up to the year 3058.
const SECOND_BYTES: usize = 5;
/// Payload bytes of a UUID's 128 bits.
const UUID_BYTES: usize = 19;

/// A text in its compact form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Compact {
    /// `YYYY-MM-DDTHH:MM:SS` in UTC, `digits` digits of fraction after a `.` (none: no `.`),
    /// then `Z`.
    Time {
        seconds: u64,
        digits: u8,
        fraction: u32,
    },
    /// The listing's prefix of this index, then `value` in decimal.
    Number { prefix: u8, value: u64 },
    /// A UUID in lowercase, with its four dashes.
    Uuid(u128),
}

impl Compact {
    /// `text` as a time, if it has the shape of one that prints back the same.
    pub(crate) fn time(text: &str) -> Option<Compact> {
        let b = text.as_bytes();
        let layout = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
        if b.len() < 20 || layout.iter().any(|&(at, c)| b[at] != c) || b.last() != Some(&b'Z') {
            return None;
        }
        let number = |from: usize, to: usize| digits_value(b.get(from..to)?);
        let digits = match &b[19..b.len() - 1] {
            [] => 0,
            [b'.', fraction @ ..] if (1..=9).contains(&fraction.len()) => fraction.len(),
            _ => return None,
        };
        let fraction = if digits == 0 {
            0
        } else {
            number(20, 20 + digits)?
        };
        let date = NaiveDate::from_ymd_opt(
            i32::try_from(number(0, 4)?).ok()?,
            u32::try_from(number(5, 7)?).ok()?,
            u32::try_from(number(8, 10)?).ok()?,
        )?;
        let (hour, minute, second) = (number(11, 13)?, number(14, 16)?, number(17, 19)?);
        if hour > 23 || minute > 59 || second > 59 {
            return None;
        }
        let epoch = NaiveDate::from_ymd_opt(1970, 1, 1)?;
        let days = u64::try_from(date.signed_duration_since(epoch).num_days()).ok()?;
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second;
        (seconds < 1 << (7 * SECOND_BYTES)).then_some(Compact::Time {
            seconds,
            digits: digits as u8,
            fraction: u32::try_from(fraction).ok()?,
        })
    }

    /// `text` as a prefix and a number: the prefix, for the caller to find in its table (then
    /// [`Compact::Number`]), and the number.
    pub(crate) fn split_number(text: &str) -> Option<(&str, u64)> {
        let digits = text.bytes().rev().take_while(u8::is_ascii_digit).count();
        let (prefix, digits) = text.split_at(text.len() - digits);
        let canonical = digits == "0" || !digits.starts_with('0');
        if digits.is_empty() || digits.len() > MAX_DIGITS || prefix.len() > MAX_PREFIX || !canonical
        {
            return None;
        }
        Some((prefix, digits_value(digits.as_bytes())?))
    }

    /// `text` as a UUID, if it is one in lowercase with its dashes.
    pub(crate) fn uuid(text: &str) -> Option<Compact> {
        let b = text.as_bytes();
        if b.len() != 36 {
            return None;
        }
        let mut value = 0u128;
        for (at, &c) in b.iter().enumerate() {
            match (at, c) {
                (8 | 13 | 18 | 23, b'-') => {}
                (8 | 13 | 18 | 23, _) => return None,
                (_, b'0'..=b'9') => value = value << 4 | u128::from(c - b'0'),
                (_, b'a'..=b'f') => value = value << 4 | u128::from(c - b'a' + 10),
                _ => return None,
            }
        }
        Some(Compact::Uuid(value))
    }

    /// Its kind, under [`KINDS`].
    pub(crate) fn kind(self) -> usize {
        match self {
            Compact::Time { digits, .. } => TIME + usize::from(digits),
            Compact::Number { value, .. } => NUMBER + bytes_for(u128::from(value)) - 1,
            Compact::Uuid(_) => UUID,
        }
    }

    /// Appends its payload ([`payload_len`] bytes of 7 bits) to `out`.
    pub(crate) fn write_payload(self, out: &mut String) {
        match self {
            Compact::Time {
                seconds,
                digits,
                fraction,
            } => {
                put(u128::from(seconds), SECOND_BYTES, out);
                put(u128::from(fraction), fraction_bytes(digits.into()), out);
            }
            Compact::Number { prefix, value } => {
                put(u128::from(prefix), 1, out);
                put(u128::from(value), bytes_for(u128::from(value)), out);
            }
            Compact::Uuid(value) => put(value, UUID_BYTES, out),
        }
    }

    /// The compact text of `kind` whose payload starts `payload`; `None` when it is too short.
    pub(crate) fn read(kind: usize, payload: &[u8]) -> Option<Compact> {
        let payload = payload.get(..payload_len(kind))?;
        Some(match kind {
            TIME..NUMBER => Compact::Time {
                seconds: u64::try_from(take(&payload[..SECOND_BYTES])).ok()?,
                digits: (kind - TIME) as u8,
                fraction: u32::try_from(take(&payload[SECOND_BYTES..])).ok()?,
            },
            NUMBER..UUID => Compact::Number {
                prefix: payload[0],
                value: u64::try_from(take(&payload[1..])).ok()?,
            },
            _ => Compact::Uuid(take(payload)),
        })
    }

    /// The text it stands for; `prefixes` the listing's (a number's prefix missing there: none).
    pub(crate) fn text(self, prefixes: &[Box<str>]) -> Option<Made> {
        let mut out = Made::default();
        match self {
            Compact::Time {
                seconds,
                digits,
                fraction,
            } => {
                let time = DateTime::from_timestamp(i64::try_from(seconds).ok()?, 0)?;
                out.number(time.year().try_into().ok()?, 4);
                out.push(b"-");
                out.number(time.month().into(), 2);
                out.push(b"-");
                out.number(time.day().into(), 2);
                out.push(b"T");
                out.number(time.hour().into(), 2);
                out.push(b":");
                out.number(time.minute().into(), 2);
                out.push(b":");
                out.number(time.second().into(), 2);
                if digits > 0 {
                    out.push(b".");
                    out.number(fraction.into(), digits.into());
                }
                out.push(b"Z");
            }
            Compact::Number { prefix, value } => {
                out.push(prefixes.get(usize::from(prefix))?.as_bytes());
                out.number(value, 1);
            }
            Compact::Uuid(value) => {
                for at in 0..32 {
                    if matches!(at, 8 | 12 | 16 | 20) {
                        out.push(b"-");
                    }
                    let nibble = (value >> (124 - 4 * at)) as u8 & 0xF;
                    out.push(&[b"0123456789abcdef"[usize::from(nibble)]]);
                }
            }
        }
        Some(out)
    }
}

/// The payload bytes of a compact text of `kind`.
pub(crate) fn payload_len(kind: usize) -> usize {
    match kind {
        TIME..NUMBER => SECOND_BYTES + fraction_bytes(kind - TIME),
        NUMBER..UUID => 1 + (kind - NUMBER + 1),
        _ => UUID_BYTES,
    }
}

/// The bytes of `digits` digits of fraction: 7 bits each, none for none.
fn fraction_bytes(digits: usize) -> usize {
    match digits {
        0 => 0,
        _ => bytes_for(10u128.pow(digits as u32) - 1),
    }
}

/// The 7-bit bytes `value` needs (one at least).
fn bytes_for(value: u128) -> usize {
    (128 - value.leading_zeros() as usize).div_ceil(7).max(1)
}

/// The value of ASCII digits; `None` when one is not a digit.
fn digits_value(digits: &[u8]) -> Option<u64> {
    digits.iter().try_fold(0u64, |n, &c| {
        c.is_ascii_digit().then(|| n * 10 + u64::from(c - b'0'))
    })
}

/// Appends the low `bytes` 7-bit groups of `value`, the highest first.
fn put(value: u128, bytes: usize, out: &mut String) {
    for at in (0..bytes).rev() {
        out.push(char::from((value >> (7 * at)) as u8 & 0x7F));
    }
}

/// The value of 7-bit groups, the highest first.
fn take(payload: &[u8]) -> u128 {
    payload
        .iter()
        .fold(0, |value, &b| value << 7 | u128::from(b & 0x7F))
}

/// A compact text printed back: at most 36 bytes (a UUID; a time takes 30, a number 34), kept
/// inline so that reading one allocates nothing.
#[derive(Clone, Copy)]
pub struct Made {
    len: u8,
    bytes: [u8; 36],
}

impl Default for Made {
    fn default() -> Made {
        Made {
            len: 0,
            bytes: [0; 36],
        }
    }
}

impl Made {
    pub fn as_str(&self) -> &str {
        // Only whole UTF-8 texts are pushed (ASCII, and a prefix that is a `str`).
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }

    /// Appends `bytes`; what would not fit is left out (no text that can be made is that long).
    fn push(&mut self, bytes: &[u8]) {
        let at = usize::from(self.len);
        if let Some(room) = self.bytes.get_mut(at..at + bytes.len()) {
            room.copy_from_slice(bytes);
            self.len += bytes.len() as u8;
        }
    }

    /// Appends `value` in decimal, zero-padded to `width` digits.
    fn number(&mut self, value: u64, width: usize) {
        let mut digits = [b'0'; 20];
        let (mut value, mut at) = (value, digits.len());
        while value > 0 || at == digits.len() {
            at -= 1;
            digits[at] = b'0' + (value % 10) as u8;
            value /= 10;
        }
        let from = at.min(digits.len().saturating_sub(width));
        self.push(&digits[from..]);
    }
}

impl std::fmt::Debug for Made {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Encoded, packed, read back and printed: exactly the text it was.
    fn round_trip(text: &str, compact: Compact, prefixes: &[Box<str>]) {
        let mut payload = String::new();
        compact.write_payload(&mut payload);
        assert_eq!(payload.len(), payload_len(compact.kind()), "{text}");
        assert!(payload.is_ascii());
        payload.push_str("\u{7f}after");
        let read = Compact::read(compact.kind(), payload.as_bytes()).unwrap();
        assert_eq!(read, compact, "{text}");
        assert_eq!(read.text(prefixes).unwrap().as_str(), text);
    }

    #[test]
    fn times_that_print_back_the_same_are_compact() {
        for text in [
            "2024-12-28T22:14:00Z",
            "1970-01-01T00:00:00Z",
            "2024-02-29T23:59:59Z",
            "2024-05-01T12:00:00.000Z",
            "2024-05-01T12:00:00.5Z",
            "2024-05-01T12:00:00.050Z",
            "2024-05-01T12:00:00.123456Z",
            "2024-05-01T12:00:00.999999999Z",
            "3000-12-31T23:59:59Z",
        ] {
            let compact = Compact::time(text).unwrap_or_else(|| panic!("{text}"));
            round_trip(text, compact, &[]);
        }
        let with =
            |digits| Compact::time(&format!("2024-05-01T12:00:00{digits}Z")).map(|c| c.kind());
        assert_ne!(with(""), with(".000"), "the zeros are part of the text");
    }

    #[test]
    fn times_that_would_print_otherwise_stay_text() {
        for text in [
            "2024-05-01T12:00:00+00:00",
            "2024-05-01T12:00:00.000+00:00",
            "2024-05-01 12:00:00Z",
            "2024-05-01t12:00:00z",
            "2024-05-01T12:00:00.Z",
            "2024-05-01T12:00:00.1234567890Z",
            "2024-05-01T12:00Z",
            "2023-02-29T00:00:00Z",
            "2024-13-01T00:00:00Z",
            "2024-05-01T24:00:00Z",
            "2016-12-31T23:59:60Z",
            "1969-12-31T23:59:59Z",
            "3059-01-01T00:00:00Z",
            "+2024-05-01T12:00:00Z",
            "２024-05-01T12:00:00Z",
            "2024-05-01T12:00:00Z ",
            "",
        ] {
            assert_eq!(Compact::time(text), None, "{text}");
        }
    }

    #[test]
    fn prefixed_numbers_without_leading_zeros_are_compact() {
        let prefixes: Vec<Box<str>> = vec!["res_".into(), "".into(), "INC-".into()];
        for (text, prefix, value) in [
            ("res_1", 0, 1),
            ("res_123456", 0, 123_456),
            ("0", 1, 0),
            ("127", 1, 127),
            ("128", 1, 128),
            ("999999999999999999", 1, 999_999_999_999_999_999),
            ("INC-1009", 2, 1009),
        ] {
            let (seen, number) = Compact::split_number(text).unwrap();
            assert_eq!((seen, number), (&*prefixes[prefix], value));
            round_trip(
                text,
                Compact::Number {
                    prefix: prefix as u8,
                    value,
                },
                &prefixes,
            );
        }
        for text in [
            "res_007",
            "res_",
            "",
            "1000000000000000000",
            "a-very-long-prefix-here-1",
            "res_１",
        ] {
            assert_eq!(Compact::split_number(text), None, "{text}");
        }
        let unknown = Compact::Number {
            prefix: 9,
            value: 1,
        };
        assert!(unknown.text(&prefixes).is_none());
    }

    #[test]
    fn lowercase_uuids_are_compact_and_others_stay_text() {
        for text in [
            "123e4567-e89b-12d3-a456-426614174000",
            "00000000-0000-0000-0000-000000000000",
            "ffffffff-ffff-ffff-ffff-ffffffffffff",
        ] {
            round_trip(text, Compact::uuid(text).unwrap(), &[]);
        }
        for text in [
            "123E4567-E89B-12D3-A456-426614174000",
            "123e4567e89b12d3a456426614174000",
            "{123e4567-e89b-12d3-a456-426614174000}",
            "123e4567-e89b-12d3-a456_426614174000",
            "123e4567-e89b-12d3-a456-42661417400g",
        ] {
            assert_eq!(Compact::uuid(text), None, "{text}");
        }
    }

    #[test]
    fn a_payload_cut_short_reads_nothing() {
        let mut payload = String::new();
        Compact::time("2024-05-01T12:00:00.123Z")
            .unwrap()
            .write_payload(&mut payload);
        assert_eq!(Compact::read(TIME + 3, &payload.as_bytes()[..6]), None);
    }

    /// The seconds take 5 bytes, the fraction as few as its digits need, a number's value 1 to 9.
    #[test]
    fn payloads_are_as_short_as_their_values() {
        let time = |text| payload_len(Compact::time(text).unwrap().kind());
        assert_eq!(time("2024-05-01T12:00:00Z"), 5);
        assert_eq!(time("2024-05-01T12:00:00.12Z"), 6);
        assert_eq!(time("2024-05-01T12:00:00.123Z"), 7);
        assert_eq!(time("2024-05-01T12:00:00.123456789Z"), 10);
        let number = |value| payload_len(Compact::Number { prefix: 0, value }.kind());
        assert_eq!(
            [number(0), number(127), number(128), number(u64::MAX >> 1)],
            [2, 2, 3, 10]
        );
    }
}
