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

use crate::json_peek::{self, Node};
use crate::sanitize;

mod comparison;
mod environment;
mod negative_zero;
mod nesting;
mod recursion;
pub mod worker;

/// Nesting past this is refused before jaq reads it: its reader recurses, and a hostile
/// answer must not overflow the stack.
pub(crate) const MAX_DEPTH: usize = 512;

type Filter = jaq_core::compile::Filter<jaq_core::Native<data::JustLut<Val>>>;

/// A compiled jq expression, with jq's standard library.
pub struct Program {
    filter: Filter,
    /// The keys of an expression that is only a path (`.id`): run along the path, not over the
    /// whole text read (see [`value_at_path`]).
    path: Option<Vec<String>>,
    /// An expression that compares a plain path with a literal (`.properties.stars > 500`):
    /// the value is read along the path and compared (see [`comparison`]).
    comparison: Option<comparison::Comparison>,
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
pub(crate) const MAX_EXPR_BYTES: usize = 64 * 1024;

/// The deepest nesting of brackets and interpolations taken (jq written by hand nests a few
/// levels): jaq's lexer reads each level a call deeper.
pub(crate) const MAX_NESTING: usize = 256;

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
            .chain(jaq_std::funs().filter(|(name, ..)| *name != "env"))
            .chain([environment::env()])
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
            path: plain_path(expr),
            comparison: comparison::Comparison::parse(expr),
            source: expr.to_owned(),
        })
    }

    /// The expression as written.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether the program only reads one value along a path and compares it with a literal:
    /// it cannot loop or grow, so it needs no worker process to be stopped or bounded in.
    pub fn is_a_comparison(&self) -> bool {
        self.comparison.is_some()
    }

    /// Runs the program over one JSON text, handing each result (or its error, sanitised) to
    /// `each` until it says stop.
    pub fn run(
        &self,
        json: &[u8],
        mut each: impl FnMut(Result<Val, String>) -> ControlFlow<()>,
    ) -> Result<(), InputError> {
        // One scan finds how the text may be read and its first level.
        let (facts, top) = match std::str::from_utf8(json) {
            Ok(text) => json_peek::peek(text),
            Err(_) => (json_peek::facts(json), None),
        };
        if facts.depth > MAX_DEPTH {
            return Err(InputError(format!("nested deeper than {MAX_DEPTH} levels")));
        }
        // jaq reads a surrogate escape its own way, and a `-0` is read below: the whole text
        // is read then, as before.
        if !facts.minus_zero
            && !facts.surrogate_escape
            && let Some(top) = top
        {
            if let Some(keys) = &self.path
                && let Some(value) = value_at_path(&top, keys)
            {
                let _ = each(Ok(value));
                return Ok(());
            }
            if let Some(comparison) = &self.comparison
                && let Some(value) = value_at_path(&top, &comparison.keys)
            {
                let _ = each(Ok(Val::from(comparison.holds(&value))));
                return Ok(());
            }
        }
        let input = match facts.minus_zero {
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

/// What `.a.b…` (`keys`) gives for a text whose first level is `top`, read only along the
/// path: jq's answer when every step is an object (a missing member, or null, gives null).
/// `None` when a step is something else (jaq says the error) or does not read as JSON here: the
/// caller reads the text whole. `--jq .id` over 100,000 listed resources: 5.6 s read whole,
/// 1.35 s along the path (ndjson: 0.6-0.8 s; benches/list_formats.sh).
fn value_at_path(top: &Node<'_>, keys: &[String]) -> Option<Val> {
    let mut below;
    let mut node = top;
    let mut text = None;
    for (at, key) in keys.iter().enumerate() {
        match node {
            Node::Object(_) => match node.member(key) {
                Some(member) => text = Some(member),
                None => return Some(Val::Null),
            },
            Node::Scalar("null") => return Some(Val::Null),
            _ => return None,
        }
        if at + 1 < keys.len() {
            below = json_peek::peek(text?).1?;
            node = &below;
        }
    }
    jaq_json::read::parse_single(text?.as_bytes()).ok()
}

/// The keys of an expression that is only a path of plain names (`.id`, `.properties.stars`).
fn plain_path(expr: &str) -> Option<Vec<String>> {
    let rest = expr.trim().strip_prefix('.')?;
    rest.split('.')
        .map(|key| {
            let mut chars = key.chars();
            let first = chars.next()?;
            let plain = (first.is_ascii_alphabetic() || first == '_')
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
            plain.then(|| key.to_owned())
        })
        .collect()
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

    /// Every answer of a program as text, or why the input was refused.
    fn answers(program: &Program, input: &str) -> Result<Vec<Result<String, String>>, String> {
        let mut said = Vec::new();
        program
            .run(input.as_bytes(), |result| {
                said.push(result.map(|v| v.to_string()));
                ControlFlow::Continue(())
            })
            .map_err(|e| e.0)?;
        Ok(said)
    }

    /// Read along the path or read whole, a plain path gives the same answers and errors: a key
    /// given twice (the last counts), escaped, missing, null on the way, a non-object on the
    /// way, numbers as written, `-0` and surrogates (read whole), and text that is not JSON.
    #[test]
    fn a_plain_path_gives_what_reading_the_whole_text_gives() {
        let inputs = [
            r#"{"id":"r1","properties":{"stars":1E400,"n":null,"s":"x","o":{"k":[1,2.50]}}}"#,
            r#"{"id":"a","x":1,"id":"b"}"#,
            r#"{"\u0069d":"escaped","properties":{"o":1}}"#,
            r#" { "id" : "é\u00e9\n" } "#,
            "null",
            "[1]",
            r#""s""#,
            r#"{"properties":5}"#,
            r#"{"id":"r","x":-0,"properties":{"stars":1E400}}"#,
            r#"{"id":"\ud83d\ude00","n":"\ud800"}"#,
            "{",
            r#"{"id":1} {"id":2}"#,
            "1 2",
        ];
        for expr in [
            ".id",
            ".properties.stars",
            ".properties.n.x",
            ".properties.s.x",
        ] {
            let along = Program::compile(expr).unwrap();
            assert!(along.path.is_some(), "{expr}");
            let whole = Program {
                path: None,
                ..Program::compile(expr).unwrap()
            };
            for input in inputs {
                assert_eq!(
                    answers(&along, input),
                    answers(&whole, input),
                    "{expr} on {input}"
                );
            }
        }
        let along = Program::compile(".properties.o").unwrap();
        assert_eq!(
            answers(&along, inputs[0]),
            Ok(vec![Ok(r#"{"k":[1,2.50]}"#.to_owned())])
        );
    }

    /// Compared along the path or read whole, `PATH OP LITERAL` gives the same answers: every
    /// operator, literals of each kind (an integer, a big one, a decimal, a negative one,
    /// strings, booleans, null) against values of every kind and numbers written many ways.
    #[test]
    fn a_comparison_gives_what_reading_the_whole_text_gives() {
        let values = [
            "500",
            "501",
            "499",
            "500.0",
            "5E2",
            "1E400",
            "-0",
            "-3",
            "-3.5",
            "1.50",
            "1.5",
            "123456789012345678901234567890",
            "null",
            "true",
            "false",
            r#""500""#,
            r#""error""#,
            r#""é""#,
            r#""\u00e9""#,
            "[1]",
            "[]",
            r#"{"a":1}"#,
            "{}",
        ];
        let mut inputs: Vec<String> = values
            .iter()
            .map(|v| format!(r#"{{"status":{v},"properties":{{"stars":{v}}}}}"#))
            .collect();
        inputs.extend(
            [
                r#"{"properties":5}"#,
                r#"{"properties":"x"}"#,
                r#"{"properties":null}"#,
                r#"{"status":"a","status":"error"}"#,
                "{",
                "[1]",
                "null",
            ]
            .map(str::to_owned),
        );
        let literals = [
            "500",
            "500.0",
            "1.5",
            "-3",
            "-0",
            "0",
            "123456789012345678901234567890",
            "99999999999999999999999",
            r#""error""#,
            r#""500""#,
            r#""é""#,
            r#""""#,
            "true",
            "false",
            "null",
        ];
        for op in ["==", "!=", "<", "<=", ">", ">="] {
            for literal in literals {
                for path in [".status", ".properties.stars"] {
                    let expr = format!("{path} {op} {literal}");
                    let along = Program::compile(&expr).unwrap();
                    assert!(along.is_a_comparison(), "{expr}");
                    let whole = Program {
                        comparison: None,
                        ..Program::compile(&expr).unwrap()
                    };
                    for input in &inputs {
                        assert_eq!(
                            answers(&along, input),
                            answers(&whole, input),
                            "{expr} on {input}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn only_a_plain_path_against_a_plain_literal_is_a_comparison() {
        for yes in [
            ".a == 1",
            " .a.b_c>=-2 ",
            r#".status != "x y""#,
            ".a<1.25",
            ".a > null",
        ] {
            assert!(Program::compile(yes).unwrap().is_a_comparison(), "{yes}");
        }
        for not in [
            ".a == 1 and .b",
            ".a > 1 | not",
            ".a - 1 > 5",
            "1 < .a",
            ".a? > 1",
            ".a[0] == 1",
            r#".a == "x\ty""#,
            r#".a == "\(.b)""#,
            ".a == 1e3",
            ".a == .b",
            ".a == [1]",
            ".a",
        ] {
            assert!(!Program::compile(not).unwrap().is_a_comparison(), "{not}");
        }
    }

    #[test]
    fn only_a_path_of_plain_names_is_a_plain_path() {
        assert_eq!(plain_path(" .id "), Some(vec!["id".to_owned()]));
        assert_eq!(
            plain_path(".properties._x1"),
            Some(vec!["properties".to_owned(), "_x1".to_owned()])
        );
        for not in [
            ".",
            "..",
            ".a[]",
            ".a | .b",
            r#".["a"]"#,
            ".1a",
            ".a.",
            ".a?",
            "id",
            ".a-b",
        ] {
            assert_eq!(plain_path(not), None, "{not}");
        }
    }

    #[test]
    fn a_wrong_expression_says_where() {
        let said = Program::compile(".a >").unwrap_err();
        assert_eq!(said, ["expected term at character 5"]);
        let said = Program::compile(".a | nosuch").unwrap_err();
        assert_eq!(said, ["undefined filter `nosuch` at character 6"]);
    }
}
