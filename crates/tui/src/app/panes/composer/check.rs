//! What the checks of every kind begin with: the text as JSON, or an error finding that says
//! where it is not.

use serde_json::Value;

use crate::validate::{self, Finding, ValidateError};

/// The text as JSON, or the error finding of why it is not (under `pointer` for a syntax
/// error, under the whole text for another) with, for a syntax error, the 0-based line and
/// column it is at.
pub(crate) fn parse(text: &str, pointer: &str) -> Result<Value, (Finding, Option<(usize, usize)>)> {
    validate::parse_json(text).map_err(|error| {
        let at = match &error {
            ValidateError::Syntax { line, column, .. } => {
                Some((line.saturating_sub(1), column.saturating_sub(1)))
            }
            _ => None,
        };
        let pointer = if at.is_some() { pointer } else { "" };
        (Finding::error(pointer, error.to_string()), at)
    })
}
