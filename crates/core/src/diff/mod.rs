//! What changes between two version-connect payloads (`apps.version.connect` bodies), and which
//! changes break the apps and users of the old version (DESIGN.md, "Breaking changes").
//!
//! Pure: [`compare`] takes two parsed payloads and returns every [`Change`], each with the JSON
//! pointer of where it happens and an [`Impact`]:
//! - **inputs** (`property_json_schema`, `create_input_schema`, `update_input_schema`, each
//!   action's `input_json_schema`) break when the new schema rejects something the old accepted;
//! - **outputs** (each action's `output_json_schema`) break when the new schema allows something
//!   the old ruled out;
//! - a removed type or action, and a capability turned from true to false, break;
//! - additions, lifecycle stage and display text are listed as not breaking.
//!
//! When appdeck cannot tell what a change does (a keyword it does not model changed, a pattern was
//! rewritten, a recursive `$ref` differs) the change is [`Impact::Unknown`], which counts as
//! breaking: a person must look at it before sending. Local `$ref`s (`#/$defs/…`,
//! `#/definitions/…`) are followed before comparing, so a path goes through the place that uses a
//! definition, as if it were written inline there.
//!
//! Paths point into the new payload; for something that exists only in the old payload (a removed
//! type or action) they point into the old one.

mod payload;
mod schema;
#[cfg(test)]
mod tests;
mod version;

use std::fmt;

use serde::Serialize;
use serde_json::Value;

pub use version::{NotAfter, not_after as version_not_after};

/// How a change affects the users of the old version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Impact {
    /// It breaks them, by the rule above.
    Breaking,
    /// appdeck cannot tell; counted as breaking so that nobody sends it by accident.
    Unknown,
    /// Listed for review; it breaks nobody.
    NonBreaking,
}

impl Impact {
    /// Whether the change must stop a send without a second confirmation (unknown ones do).
    pub(crate) fn is_breaking(self) -> bool {
        !matches!(self, Impact::NonBreaking)
    }

    /// A short word for text output.
    pub fn label(self) -> &'static str {
        match self {
            Impact::Breaking => "BREAKING",
            Impact::Unknown => "UNKNOWN",
            Impact::NonBreaking => "ok",
        }
    }
}

impl fmt::Display for Impact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// One difference between the two payloads. The texts hold payload keys and values: they are not
/// sanitised here, so print them through `crate::sanitize`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Change {
    pub impact: Impact,
    /// JSON pointer of the change (into the new payload, or the old one for removals).
    pub path: String,
    /// What the change is in, for a person: `type "repo"`, `type "repo", action "sync" output`.
    pub subject: String,
    /// What changed and, for a breaking change, why it breaks.
    pub reason: String,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} ({}): {}",
            self.impact, self.path, self.subject, self.reason
        )
    }
}

/// Every change from one payload to another, in document order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Changes {
    pub changes: Vec<Change>,
}

impl Changes {
    /// The changes that break (unknown ones included), in document order.
    pub fn breaking(&self) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(|c| c.impact.is_breaking())
    }

    /// Whether sending the new payload breaks something (or might: unknown effects count).
    pub fn has_breaking(&self) -> bool {
        self.breaking().next().is_some()
    }

    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// The order for a review: breaking first, then unknown, then the rest, each in document
    /// order.
    pub fn in_review_order(&self) -> Vec<&Change> {
        let mut ordered: Vec<&Change> = self.changes.iter().collect();
        ordered.sort_by_key(|c| c.impact); // stable: document order within each impact
        ordered
    }
}

/// Compares two version-connect payloads. Never fails: anything that is not shaped like a
/// payload (no `resources` array, a type without a name) is compared as far as it can be, and
/// values of unexpected types are reported as changes of unknown effect. Run `crate::validate`
/// first to refuse malformed payloads.
pub fn compare(old: &Value, new: &Value) -> Changes {
    let mut changes = Vec::new();
    payload::compare(old, new, &mut changes);
    Changes { changes }
}

/// Whether a schema change is breaking depends on which way data flows through the schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    /// Data sent to or reported through the schema: narrowing breaks.
    Input,
    /// Data handed back to callers: widening breaks.
    Output,
}

/// What a schema change does to the set of accepted values, before the direction decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Effect {
    /// Rejects something the old accepted.
    Narrows,
    /// Accepts something the old rejected.
    Widens,
    /// Neither, or not in a way that matters (annotations, an added optional property).
    Neutral,
    /// appdeck cannot tell.
    Unknown,
}

impl Effect {
    pub(crate) fn impact(self, direction: Direction) -> Impact {
        match (self, direction) {
            (Effect::Narrows, Direction::Input) | (Effect::Widens, Direction::Output) => {
                Impact::Breaking
            }
            (Effect::Unknown, _) => Impact::Unknown,
            _ => Impact::NonBreaking,
        }
    }
}

/// Appends one reference token to a JSON pointer, escaped as RFC 6901 says.
pub(crate) fn push_token(path: &mut String, token: &str) {
    path.push('/');
    for c in token.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
}
