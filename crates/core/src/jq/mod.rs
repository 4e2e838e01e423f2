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
use jaq_core::{Compiler, Ctx, Exn, Vars, data};
pub use jaq_json::Val;

use crate::sanitize;

mod negative_zero;
mod nesting;
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

/// The longest expression taken: a list of some 5,000 ids pasted in fits.
pub const MAX_EXPR_BYTES: usize = 64 * 1024;

/// The deepest nesting of brackets and interpolations taken (jq written by hand nests a few
/// levels): jaq's lexer reads each level a call deeper.
pub const MAX_NESTING: usize = 256;

/// The stack jaq reads, checks, compiles and runs an expression on (the compiler's thread, a
/// `:where` worker's, the CLI's): each term of a chain (`a, b, …`, `a | b | …`) is a call deeper
/// there, some 3 KB each, and the 8 MB of a main thread overflowed at 5,000 (appdeck aborted,
/// the terminal left raw). Only what a thread uses of it is ever memory.
pub const STACK_BYTES: usize = 256 << 20;

impl Program {
    /// Compiles `expr`. On failure, what is wrong, each with its place (`at character N`,
    /// counted from 1 in characters). An expression longer than [`MAX_EXPR_BYTES`] or nested
    /// deeper than [`MAX_NESTING`] is refused before jaq reads it; the rest is read on a stack
    /// of [`STACK_BYTES`], where a chain as long as the longest expression fits.
    pub fn compile(expr: &str) -> Result<Program, Vec<String>> {
        if expr.len() > MAX_EXPR_BYTES {
            return Err(vec![format!(
                "the expression is {} bytes long, over the {} appdeck takes",
                crate::text::count(expr.len()),
                crate::text::count(MAX_EXPR_BYTES)
            )]);
        }
        if let Some(at) = nesting::deeper_than(expr, MAX_NESTING) {
            return Err(vec![format!(
                "the expression nests deeper than {MAX_NESTING} levels at character {}",
                expr[..at].chars().count() + 1
            )]);
        }
        on_large_stack(|| Program::compile_here(expr)).unwrap_or_else(|e| {
            Err(vec![format!(
                "no thread could be started to compile it: {e}"
            )])
        })
    }

    fn compile_here(expr: &str) -> Result<Program, Vec<String>> {
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
        let input = match negative_zero::holds(json) {
            true => negative_zero::read(json),
            false => None,
        };
        let input = match input {
            Some(input) => input,
            None => jaq_json::read::parse_single(json).map_err(|e| InputError(e.to_string()))?,
        };
        let ctx = Ctx::<data::JustLut<Val>>::new(&self.filter.lut, Vars::new([]));
        for result in self.filter.id.run((ctx, input)) {
            let result = result.map_err(said);
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

/// Runs `f` on a thread of its own with a stack of [`STACK_BYTES`], and gives back what it
/// returns (an error when no such thread can be started).
pub fn on_large_stack<T: Send>(f: impl FnOnce() -> T + Send) -> std::io::Result<T> {
    std::thread::scope(|scope| {
        let thread = std::thread::Builder::new()
            .name("jq".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, f)?;
        thread
            .join()
            .map_err(|_| std::io::Error::other("the thread panicked"))
    })
}

/// What an exception says. jaq's own `unwrap_valr` ends the process on `halt`, which ended
/// appdeck with the terminal raw (`:where`) or its output unwritten (`--jq`): here it is an
/// error of the value it was called on.
fn said(exn: Exn<Val>) -> String {
    match exn.get_err() {
        Ok(error) => sanitize::line(&error.to_string()).into_owned(),
        Err(exn) => match exn.get_halt() {
            Ok(code) => format!("halt({code}) is not supported: appdeck does not end on it"),
            Err(_) => "jaq stopped on an exception of its own".to_owned(),
        },
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
        let halt = p(".a or halt").is_true(b"{}").unwrap_err();
        assert!(halt.contains("halt(0) is not supported"), "{halt}");
        assert_eq!(p(".a or halt").is_true(br#"{"a":1}"#), Ok(true));
    }

    /// A long chain of terms compiles (on the large stack); an expression too long or nested
    /// too deep is refused with why, before jaq reads it (it overflowed the stack).
    #[test]
    fn a_long_chain_compiles_and_a_deep_or_huge_expression_is_refused() {
        let ids: Vec<String> = (0..5000).map(|i| format!("\"res_{i}\"")).collect();
        let list = format!(".id as $i | [{}] | any(. == $i)", ids.join(","));
        assert!(list.len() < MAX_EXPR_BYTES);
        let program = Program::compile(&list).unwrap();
        assert_eq!(program.is_true(br#"{"id":"res_4999"}"#), Ok(true));
        assert_eq!(program.is_true(br#"{"id":"res_5000"}"#), Ok(false));
        let pipes = format!(".id{}", " | .".repeat(15_000));
        assert!(Program::compile(&pipes).is_ok());
        let deep = format!("{}1{}", "[".repeat(4000), "]".repeat(4000));
        let said = Program::compile(&deep).unwrap_err();
        assert_eq!(
            said,
            ["the expression nests deeper than 256 levels at character 257"]
        );
        let huge = format!(".a{}", " ".repeat(MAX_EXPR_BYTES));
        let said = Program::compile(&huge).unwrap_err();
        assert!(
            said[0].contains("over the 65,536 appdeck takes"),
            "{said:?}"
        );
    }

    #[test]
    fn a_wrong_expression_says_where() {
        let said = Program::compile(".a >").unwrap_err();
        assert_eq!(said, ["expected term at character 5"]);
        let said = Program::compile(".a | nosuch").unwrap_err();
        assert_eq!(said, ["undefined filter `nosuch` at character 6"]);
    }
}
