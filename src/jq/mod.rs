//! jq expressions (jaq), compiled once and run over JSON text: the CLI's `--jq` prints what they
//! give, the list's `:where` keeps the rows for which they are true. The callers say what went
//! wrong in their own words; this module says what and where.
//!
//! Numbers stay exact: the filter is fed the JSON *text*, and jaq-json reads an integer that
//! fits no machine word as a big integer and any other non-integer as a decimal that keeps its
//! text, so `.n` gives `123456789012345678901234567890` or `1.10` as it came and `.n > 5`
//! compares it. Only arithmetic on such a number goes through f64.

use std::ops::ControlFlow;

use jaq_core::load::{Arena, File, Loader};
use jaq_core::{Compiler, Ctx, Vars, data, unwrap_valr};
pub use jaq_json::Val;

use crate::sanitize;

mod recursion;
pub mod worker;

/// Nesting past this is refused before jaq reads it: its reader recurses, and a hostile
/// answer must not overflow the stack.
pub const MAX_DEPTH: usize = 512;

type Filter = jaq_core::compile::Filter<jaq_core::Native<data::JustLut<Val>>>;

/// A compiled jq expression, with jq's standard library.
pub struct Program {
    filter: Filter,
    /// The expression as written, for a worker to compile again (src/jq/worker).
    source: String,
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("jq::Program")
    }
}

/// Why a JSON text could not be given to a program.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InputError(pub String);

impl Program {
    /// Compiles `expr`. On failure, what is wrong, each with its place (`at character N`,
    /// counted from 1 in characters).
    pub fn compile(expr: &str) -> Result<Program, Vec<String>> {
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
            if offset <= expr.len() && expr.is_char_boundary(offset) {
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
            said
        })?;
        let filter = Compiler::default()
            .with_funs(funs)
            .compile(modules)
            .map_err(|errors| {
                errors
                    .into_iter()
                    .flat_map(|(_, errs)| errs)
                    .map(|(name, undefined)| {
                        format!("undefined {} `{name}`{}", undefined.as_str(), at(name))
                    })
                    .collect::<Vec<_>>()
            })?;
        if let Some(name) = recursion::calling_itself(expr) {
            return Err(vec![format!(
                "`{name}`{} calls itself, which is refused: jaq has no depth limit, and a deep or \
                 endless recursion would crash appdeck",
                at(name)
            )]);
        }
        Ok(Program {
            filter,
            source: expr.to_owned(),
        })
    }

    /// The expression as written.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Runs the program over one JSON text, handing each result (or its error, sanitised) to
    /// `each` until it says stop.
    pub fn run(
        &self,
        json: &[u8],
        mut each: impl FnMut(Result<Val, String>) -> ControlFlow<()>,
    ) -> Result<(), InputError> {
        if exceeds_depth(json, MAX_DEPTH) {
            return Err(InputError(format!("nested deeper than {MAX_DEPTH} levels")));
        }
        let input = jaq_json::read::parse_single(json).map_err(|e| InputError(e.to_string()))?;
        let ctx = Ctx::<data::JustLut<Val>>::new(&self.filter.lut, Vars::new([]));
        for result in self.filter.id.run((ctx, input)).map(unwrap_valr) {
            let result = result.map_err(|e| sanitize::line(&e.to_string()).into_owned());
            if each(result).is_break() {
                break;
            }
        }
        Ok(())
    }

    /// Whether the program is true of `json`, as jq's `select` has it: some result is neither
    /// `false` nor `null`. Results after the first true one are not computed; an error before
    /// it is the answer.
    pub fn is_true(&self, json: &[u8]) -> Result<bool, String> {
        let mut answer = Ok(false);
        self.run(json, |result| match result {
            Ok(value) if truthy(&value) => {
                answer = Ok(true);
                ControlFlow::Break(())
            }
            Ok(_) => ControlFlow::Continue(()),
            Err(error) => {
                answer = Err(error);
                ControlFlow::Break(())
            }
        })
        .map_err(|e| e.0)?;
        answer
    }
}

/// jq's truth: everything but `false` and `null`.
fn truthy(value: &Val) -> bool {
    !matches!(value, Val::Null | Val::Bool(false))
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

    #[test]
    fn truth_is_jqs() {
        let p = |e: &str| Program::compile(e).unwrap();
        let row = br#"{"properties":{"stars":123456789012345678901234567890,"tag":null}}"#;
        assert_eq!(p(".properties.stars > 100").is_true(row), Ok(true));
        assert_eq!(p(".properties.stars < 100").is_true(row), Ok(false));
        assert_eq!(p(".properties.tag").is_true(row), Ok(false));
        assert_eq!(p(".properties").is_true(row), Ok(true), "an object is true");
        assert_eq!(p("empty").is_true(row), Ok(false));
        assert_eq!(p("false, 1").is_true(row), Ok(true), "any result");
        let err = p(".properties + 1").is_true(row).unwrap_err();
        assert!(err.contains("cannot"), "{err}");
        assert!(p(".").is_true(b"{").is_err());
    }

    #[test]
    fn a_wrong_expression_says_where() {
        let said = Program::compile(".a >").unwrap_err();
        assert_eq!(said, ["expected term at character 5"]);
        let said = Program::compile(".a | nosuch").unwrap_err();
        assert_eq!(said, ["undefined filter `nosuch` at character 6"]);
    }
}
