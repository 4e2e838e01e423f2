//! Misbehaviour the sandbox can inject into `resources.list`, so that a client can be tried against
//! the server faults DESIGN.md says it must survive (a body that is not JSON, a cursor that
//! repeats, empty pages for ever, a malformed item, nulls, a server too slow to answer, an error
//! status), and JSON laid out otherwise than compact (`spaced`), which it must keep as it came.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// One fault, applied to every `resources.list` answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Answers 200 with an HTML page instead of JSON, like a misconfigured proxy.
    NotJson,
    /// Hands back, as `next`, the cursor the request came with: following it would loop forever.
    RepeatCursor,
    /// Answers the first page as usual, then only empty pages, each with a new `next`: a listing
    /// that never ends and never makes progress.
    EmptyPages,
    /// Adds an element that is not a resource object in the middle of every page.
    MalformedItem,
    /// Serves `null` for every resource field the spec names that a resource leaves out, and
    /// ends paging with `"next": null`: for clients to test their tolerance of nulls.
    Nulls,
    /// Lays every page out over many lines, with needless escapes (see `spaced.rs`): the same
    /// JSON values, other bytes.
    Spaced,
    /// Waits this long before answering (cut short when the sandbox shuts down).
    Slow(Duration),
    /// Answers with this HTTP status (400–599) and a JSON error body.
    Status(u16),
}

/// The forms `Fault::from_str` accepts, for error and help messages.
pub(crate) const FAULT_FORMS: &str = "not-json, repeat-cursor, empty-pages, malformed-item, nulls, spaced, slow:<millis>, status:<code 400-599>";

/// A fault description that is not one of [`FAULT_FORMS`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid fault {input:?}: {reason} (expected one of: {FAULT_FORMS})")]
pub struct FaultParseError {
    input: String,
    reason: &'static str,
}

impl FromStr for Fault {
    type Err = FaultParseError;

    fn from_str(input: &str) -> Result<Self, Self::Err> {
        let fail = |reason| FaultParseError {
            input: input.to_owned(),
            reason,
        };
        let text = input.trim();
        match text.split_once(':') {
            None => match text {
                "not-json" => Ok(Fault::NotJson),
                "repeat-cursor" => Ok(Fault::RepeatCursor),
                "empty-pages" => Ok(Fault::EmptyPages),
                "malformed-item" => Ok(Fault::MalformedItem),
                "nulls" => Ok(Fault::Nulls),
                "spaced" => Ok(Fault::Spaced),
                "slow" | "status" => Err(fail("a value is needed after the colon")),
                _ => Err(fail("unknown fault")),
            },
            Some(("slow", millis)) => millis
                .trim()
                .parse::<u64>()
                .map(|ms| Fault::Slow(Duration::from_millis(ms)))
                .map_err(|_| fail("the delay must be a whole number of milliseconds")),
            Some(("status", code)) => match code.trim().parse::<u16>() {
                Ok(code @ 400..=599) => Ok(Fault::Status(code)),
                _ => Err(fail("the status must be a number from 400 to 599")),
            },
            Some(_) => Err(fail("unknown fault")),
        }
    }
}

/// Writes the fault in the form `from_str` reads, so that it can be echoed back to the user.
impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::NotJson => f.write_str("not-json"),
            Fault::RepeatCursor => f.write_str("repeat-cursor"),
            Fault::EmptyPages => f.write_str("empty-pages"),
            Fault::MalformedItem => f.write_str("malformed-item"),
            Fault::Nulls => f.write_str("nulls"),
            Fault::Spaced => f.write_str("spaced"),
            Fault::Slow(delay) => write!(f, "slow:{}", delay.as_millis()),
            Fault::Status(code) => write!(f, "status:{code}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_parses_and_round_trips() {
        for (text, fault) in [
            ("not-json", Fault::NotJson),
            ("repeat-cursor", Fault::RepeatCursor),
            ("empty-pages", Fault::EmptyPages),
            ("malformed-item", Fault::MalformedItem),
            ("nulls", Fault::Nulls),
            ("spaced", Fault::Spaced),
            ("slow:1500", Fault::Slow(Duration::from_millis(1500))),
            ("status:503", Fault::Status(503)),
        ] {
            assert_eq!(text.parse::<Fault>(), Ok(fault));
            assert_eq!(fault.to_string(), text);
        }
    }

    #[test]
    fn bad_forms_say_what_is_accepted() {
        for text in [
            "",
            "nope",
            "slow",
            "slow:",
            "slow:-1",
            "slow:fast",
            "status:200",
            "status:99999",
            "x:1",
        ] {
            let error = text.parse::<Fault>().unwrap_err().to_string();
            assert!(error.contains(FAULT_FORMS), "{error}");
        }
    }
}
