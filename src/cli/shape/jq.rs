//! `--jq EXPR`: a jq filter (jaq) over the JSON a command prints, as `gh --jq` does: each result
//! on its own line, a string as its raw text, anything else as compact JSON. The compiling and
//! running are `crate::jq`'s (the list's `:where` uses them too); numbers stay exact there
//! (serde_json here keeps every number's text).

use std::io::Write;
use std::ops::ControlFlow;

use crate::jq::{Program, Val};
use crate::sanitize;

/// A compiled `--jq` expression.
pub struct Jq {
    program: Program,
    /// Whether a raw string goes to a terminal (then it is neutralised).
    terminal: bool,
}

impl std::fmt::Debug for Jq {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Jq")
    }
}

/// Why a value could not be filtered.
#[derive(Debug, thiserror::Error)]
pub enum JqError {
    #[error("--jq: the input is not JSON jaq can read: {0}")]
    Input(String),
    #[error("--jq: {0}")]
    Run(String),
    #[error(transparent)]
    Output(#[from] std::io::Error),
}

impl Jq {
    /// Compiles `expr` with jq's standard library; the error says what is wrong and where.
    pub fn compile(expr: &str, terminal: bool) -> Result<Jq, String> {
        let program = Program::compile(expr).map_err(|said| invalid(expr, &said))?;
        Ok(Jq { program, terminal })
    }

    /// Runs the filter over one JSON text and writes each result on its own line.
    pub fn run(&self, json: &[u8], out: &mut impl Write) -> Result<(), JqError> {
        let mut outcome = Ok(());
        let program = &self.program;
        super::memory::bounded(|| {
            program.run(json, |result| {
                outcome = match result {
                    Ok(value) => self.write(&value, out).map_err(JqError::from),
                    Err(error) => Err(JqError::Run(error)),
                };
                if outcome.is_ok() {
                    ControlFlow::Continue(())
                } else {
                    ControlFlow::Break(())
                }
            })
        })
        .map_err(|e| JqError::Input(e.0))?;
        outcome
    }

    /// Runs the filter over a serde_json value (its text keeps every number exact).
    pub fn run_value(
        &self,
        value: &serde_json::Value,
        out: &mut impl Write,
    ) -> Result<(), JqError> {
        let text = serde_json::to_vec(value).map_err(std::io::Error::from)?;
        self.run(&text, out)
    }

    fn write(&self, value: &Val, out: &mut impl Write) -> std::io::Result<()> {
        match value {
            Val::TStr(bytes) => {
                let text = String::from_utf8_lossy(bytes);
                if self.terminal {
                    out.write_all(sanitize::multiline(&text).as_bytes())?;
                } else {
                    out.write_all(text.as_bytes())?;
                }
            }
            other => {
                let json = other.to_string();
                out.write_all(sanitize::json_for_terminal(&json).as_bytes())?;
            }
        }
        out.write_all(b"\n")
    }
}

fn invalid(expr: &str, said: &[String]) -> String {
    let what = if said.is_empty() {
        "it does not compile".to_owned()
    } else {
        said.join("; ")
    };
    format!(
        "--jq {:?} is not a valid jq expression: {what}",
        sanitize::line(expr)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(expr: &str, input: &str) -> Result<String, String> {
        let jq = Jq::compile(expr, false)?;
        let mut out = Vec::new();
        jq.run(input.as_bytes(), &mut out)
            .map_err(|e| e.to_string())?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn results_are_one_a_line_strings_raw() {
        assert_eq!(
            run(".[] | .name", r#"[{"name":"a"},{"name":"b,c"}]"#).unwrap(),
            "a\nb,c\n"
        );
        assert_eq!(run("{x: .a}", r#"{"a":[1,2]}"#).unwrap(), "{\"x\":[1,2]}\n");
        assert_eq!(run("select(.a > 5)", r#"{"a":1}"#).unwrap(), "");
    }

    #[test]
    fn numbers_keep_their_text() {
        let input = r#"{"big":123456789012345678901234567890,"dec":1.10,"exp":1E400,"neg":-0.0}"#;
        assert_eq!(
            run(".big", input).unwrap(),
            "123456789012345678901234567890\n"
        );
        assert_eq!(run(".dec", input).unwrap(), "1.10\n");
        assert_eq!(run(".exp", input).unwrap(), "1E400\n");
        assert_eq!(run(".", input).unwrap(), format!("{input}\n"));
        // Comparing and sorting work on them; arithmetic goes through f64.
        assert_eq!(run(".big > 5", input).unwrap(), "true\n");
    }

    #[test]
    fn hostile_text_is_escaped_in_json_and_neutralised_raw_on_a_terminal() {
        let input = "{\"s\":\"a\u{9b}31m\u{202e}b\"}";
        assert_eq!(
            run(".", input).unwrap(),
            "{\"s\":\"a\\u009b31m\\u202eb\"}\n"
        );
        let jq = Jq::compile(".s", true).unwrap();
        let mut out = Vec::new();
        jq.run(input.as_bytes(), &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "a\u{fffd}31m\u{fffd}b\n");
    }

    #[test]
    fn bad_expressions_and_inputs_are_clear_errors() {
        let err = run(".a | ", "{}").unwrap_err();
        assert!(err.contains("not a valid jq expression"), "{err}");
        let err = run("nosuchfilter", "{}").unwrap_err();
        assert!(err.contains("undefined filter `nosuchfilter`"), "{err}");
        let err = run("def f: [f]; f", "{}").unwrap_err();
        assert!(err.contains("`f` at character 9 calls itself"), "{err}");
        let err = run(".a + 1", r#"{"a":"x"}"#).unwrap_err();
        assert!(err.starts_with("--jq: "), "{err}");
        let deep = format!("{}1{}", "[".repeat(600), "]".repeat(600));
        let err = run(".", &deep).unwrap_err();
        assert!(err.contains("deeper than 512"), "{err}");
        // Brackets inside strings do not count.
        let in_a_string = format!("{{\"a\":\"{}\"}}", "[".repeat(600));
        assert_eq!(run(".a | length", &in_a_string).unwrap(), "600\n");
    }
}
