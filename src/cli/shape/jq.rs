//! `--jq EXPR`: a jq filter (jaq) over the JSON a command prints, as `gh --jq` does: each result
//! on its own line, a string as its raw text, anything else as compact JSON.
//!
//! Numbers stay exact: the filter is fed the JSON *text* (serde_json here keeps every number's
//! text), and jaq-json reads an integer that fits no machine word as a big integer and any other
//! non-integer as a decimal that keeps its text, so `.n` prints `123456789012345678901234567890`
//! or `1.10` as it came. Only arithmetic on such a number goes through f64.

use std::io::Write;

use jaq_core::load::{Arena, File, Loader};
use jaq_core::{Compiler, Ctx, Vars, data, unwrap_valr};
use jaq_json::Val;

use crate::sanitize;

/// Nesting past this is refused before jaq reads it: its reader recurses, and a hostile
/// answer must not overflow the stack.
const MAX_DEPTH: usize = 512;

type Filter = jaq_core::compile::Filter<jaq_core::Native<data::JustLut<Val>>>;

/// A compiled `--jq` expression.
pub struct Jq {
    filter: Filter,
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
        let program = File {
            code: expr,
            path: (),
        };
        let defs = jaq_core::defs()
            .chain(jaq_std::defs())
            .chain(jaq_json::defs());
        let funs = jaq_core::funs()
            .chain(jaq_std::funs())
            .chain(jaq_json::funs());
        let loader = Loader::new(defs);
        let arena = Arena::default();
        let at = |part: &str| {
            let offset = (part.as_ptr() as usize).saturating_sub(expr.as_ptr() as usize);
            if offset <= expr.len() {
                format!(" at character {}", expr[..offset].chars().count() + 1)
            } else {
                String::new()
            }
        };
        let modules = loader.load(&arena, program).map_err(|errors| {
            let mut said = Vec::new();
            for (_, error) in errors {
                match error {
                    jaq_core::load::Error::Io(errs) => {
                        said.extend(errs.into_iter().map(|(_, e)| e));
                    }
                    jaq_core::load::Error::Lex(errs) => {
                        said.extend(errs.iter().map(|(expect, part)| {
                            format!("expected {}{}", expect.as_str(), at(part))
                        }))
                    }
                    jaq_core::load::Error::Parse(errs) => {
                        said.extend(errs.iter().map(|(expect, part)| {
                            format!("expected {}{}", expect.as_str(), at(part))
                        }))
                    }
                }
            }
            invalid(expr, &said)
        })?;
        let filter = Compiler::default()
            .with_funs(funs)
            .compile(modules)
            .map_err(|errors| {
                let said: Vec<String> = errors
                    .into_iter()
                    .flat_map(|(_, errs)| errs)
                    .map(|(name, undefined)| {
                        format!("undefined {} `{name}`{}", undefined.as_str(), at(name))
                    })
                    .collect();
                invalid(expr, &said)
            })?;
        Ok(Jq { filter, terminal })
    }

    /// Runs the filter over one JSON text and writes each result on its own line.
    pub fn run(&self, json: &[u8], out: &mut impl Write) -> Result<(), JqError> {
        if exceeds_depth(json, MAX_DEPTH) {
            return Err(JqError::Input(format!(
                "nested deeper than {MAX_DEPTH} levels"
            )));
        }
        let input =
            jaq_json::read::parse_single(json).map_err(|e| JqError::Input(e.to_string()))?;
        let ctx = Ctx::<data::JustLut<Val>>::new(&self.filter.lut, Vars::new([]));
        for result in self.filter.id.run((ctx, input)).map(unwrap_valr) {
            let value =
                result.map_err(|e| JqError::Run(sanitize::line(&e.to_string()).into_owned()))?;
            self.write(&value, out)?;
        }
        Ok(())
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

/// Whether arrays and objects in `json` nest deeper than `limit` (strings skipped).
pub fn exceeds_depth(json: &[u8], limit: usize) -> bool {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for &byte in json {
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
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
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
        let err = run(".a + 1", r#"{"a":"x"}"#).unwrap_err();
        assert!(err.starts_with("--jq: "), "{err}");
        let deep = format!("{}1{}", "[".repeat(600), "]".repeat(600));
        let err = run(".", &deep).unwrap_err();
        assert!(err.contains("deeper than 512"), "{err}");
        // Brackets inside strings do not count.
        assert!(!exceeds_depth(
            format!("\"{}\"", "[".repeat(600)).as_bytes(),
            10
        ));
    }
}
