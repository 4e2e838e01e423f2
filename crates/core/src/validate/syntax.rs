//! Parsing with positions a person can use: serde_json counts columns in bytes and places an
//! unexpected end of input after the last newline, so both are translated into the line and
//! character column an editor shows.

use serde_json::Value;

use super::ValidateError;
use crate::sanitize;

/// The finding that stops a text's checks, with the 0-based line and column it is at when it
/// is one of syntax.
pub type Stopped = (super::Finding, Option<(usize, usize)>);

/// The text as JSON, or the error finding of why it is not, as a composer's checks begin: under
/// `pointer` for a syntax error, under the whole text for another, with, for a syntax error,
/// the 0-based line and column it is at.
pub fn parse_or_finding(text: &str, pointer: &str) -> Result<Value, Stopped> {
    parse_json(text).map_err(|error| {
        let at = match &error {
            ValidateError::Syntax { line, column, .. } => {
                Some((line.saturating_sub(1), column.saturating_sub(1)))
            }
            _ => None,
        };
        let pointer = if at.is_some() { pointer } else { "" };
        (super::Finding::error(pointer, error.to_string()), at)
    })
}

/// Parses JSON text; a syntax error carries its 1-based line and character column.
pub fn parse_json(text: &str) -> Result<Value, ValidateError> {
    if text.starts_with('\u{feff}') {
        // serde_json would only say "expected value"; the cause is invisible in most editors.
        return Err(ValidateError::Syntax {
            line: 1,
            column: 1,
            message: "the text starts with a byte-order mark (U+FEFF), which JSON does not allow; \
                      save the file as UTF-8 without BOM"
                .into(),
        });
    }
    serde_json::from_str(text).map_err(|e| match crate::api::page::beyond_parser(&e) {
        // The parser stopped on what it cannot hold; the text may still be broken further on.
        // Read as raw text (no depth limit, escapes unchecked), it is judged on its syntax alone.
        Some(why) => match serde_json::from_str::<&serde_json::value::RawValue>(text) {
            Ok(_) => ValidateError::Unreadable(format!(
                "line {}, column {}: the JSON is valid, but {why}",
                e.line().max(1),
                char_column(text, e.line(), e.column())
            )),
            Err(syntax) => syntax_error(text, &syntax),
        },
        None => syntax_error(text, &e),
    })
}

fn syntax_error(text: &str, error: &serde_json::Error) -> ValidateError {
    let raw = error.to_string();
    // serde_json appends the position to its message; it is given separately here.
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    let message = raw.strip_suffix(&suffix).unwrap_or(&raw);
    if error.is_eof() {
        return end_of_input(text, message);
    }
    ValidateError::Syntax {
        line: error.line().max(1),
        column: char_column(text, error.line(), error.column()),
        message: sanitize::line(&explain(message)).into_owned(),
    }
}

/// serde_json's terse messages, with the JSON rule that was broken where it is not obvious.
fn explain(message: &str) -> String {
    let extra = match message {
        "expected ident" => "a bare word must be `true`, `false` or `null`",
        "key must be a string" => "keys are strings in double quotes",
        "trailing comma" => "JSON allows no comma before `]` or `}`",
        "control character (\\u0000-\\u001F) found while parsing a string" => {
            "write it escaped, such as \\n or \\t"
        }
        _ => return message.to_owned(),
    };
    format!("{message}: {extra}")
}

/// An unexpected end is reported just after the last meaningful character, where the missing
/// text belongs, rather than on an empty line past the end of the file.
fn end_of_input(text: &str, message: &str) -> ValidateError {
    let content = text.trim_end();
    if content.is_empty() {
        return ValidateError::Syntax {
            line: 1,
            column: 1,
            message: "the text is empty; expected a JSON object".into(),
        };
    }
    let line = content.matches('\n').count() + 1;
    let last_line = content.rsplit('\n').next().unwrap_or(content);
    let message = message.replacen(
        "EOF while parsing",
        "unexpected end of input while parsing",
        1,
    );
    ValidateError::Syntax {
        line,
        column: last_line.chars().count() + 1,
        message: sanitize::line(&message).into_owned(),
    }
}

/// The 1-based character column of the character that ends at byte `byte_column` of `line`.
fn char_column(text: &str, line: usize, byte_column: usize) -> usize {
    let Some(line_text) = text.split('\n').nth(line.saturating_sub(1)) else {
        return byte_column.max(1);
    };
    let chars = line_text
        .char_indices()
        .take_while(|(start, _)| *start < byte_column)
        .count();
    chars.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(text: &str) -> (usize, usize, String) {
        match parse_json(text) {
            Err(ValidateError::Syntax {
                line,
                column,
                message,
            }) => (line, column, message),
            other => panic!("expected a syntax error, got {other:?}"),
        }
    }

    #[test]
    fn a_stray_character_is_located() {
        let (line, column, message) = position("{\n  \"a\": 1,\n  \"b\": x\n}");
        assert_eq!((line, column), (3, 8));
        assert_eq!(message, "expected value");
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        // "é" and "日" take several bytes each; the error is on the 8th character.
        let (line, column, _) = position("{\"é日\": ?}");
        assert_eq!((line, column), (1, 8));
    }

    #[test]
    fn a_missing_comma_is_located() {
        let (line, column, message) = position("{\n  \"a\": 1\n  \"b\": 2\n}\n");
        assert_eq!((line, column), (3, 3));
        assert!(message.contains("expected `,` or `}`"), "{message}");
    }

    #[test]
    fn a_truncated_document_points_after_its_last_character() {
        let (line, column, message) = position("{\n  \"a\": [1, 2\n\n");
        assert_eq!((line, column), (2, 13));
        assert!(message.starts_with("unexpected end of input"), "{message}");
    }

    #[test]
    fn empty_input_and_bom_are_explained() {
        assert!(position("  \n").2.contains("empty"));
        let (line, column, message) = position("\u{feff}{}");
        assert_eq!((line, column), (1, 1));
        assert!(message.contains("byte-order mark"));
    }

    #[test]
    fn terse_messages_are_explained() {
        assert!(position("{'a': 1}").2.contains("double quotes"));
        assert!(position("[1,]").2.contains("no comma before"));
        assert!(position("[tru]").2.contains("`true`, `false` or `null`"));
        assert!(position("[\"a\tb\"]").2.contains("escaped"));
    }

    #[test]
    fn trailing_text_is_an_error() {
        let (line, column, message) = position("{}\n{}");
        assert_eq!((line, column), (2, 1));
        assert!(message.contains("trailing"));
    }

    #[test]
    fn control_characters_in_strings_are_reported_safely() {
        let (_, _, message) = position("{\"a\": \"\u{1b}[2J\"}");
        assert!(!message.contains('\u{1b}'));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        // Unclosed: a syntax error, found past the depth the parser stopped at.
        let deep = "[".repeat(100_000);
        let (_, _, message) = position(&deep);
        assert!(message.contains("unexpected end of input"), "{message}");
    }

    #[test]
    fn valid_json_the_parser_cannot_hold_is_not_called_a_syntax_error() {
        let deep = format!("{}1{}", "[".repeat(1000), "]".repeat(1000));
        let Err(ValidateError::Unreadable(message)) = parse_json(&deep) else {
            panic!("not unreadable");
        };
        assert!(
            message
                .starts_with("line 1, column 128: the JSON is valid, but nested deeper than 128"),
            "{message}"
        );
        let Err(ValidateError::Unreadable(message)) = parse_json(r#"{"a": "\ud800"}"#) else {
            panic!("not unreadable");
        };
        assert!(message.contains("lone surrogate"), "{message}");
    }

    #[test]
    fn valid_json_parses() {
        assert_eq!(
            parse_json("{\"a\": [1]}").unwrap(),
            serde_json::json!({"a": [1]})
        );
    }
}
