//! Refuses jq definitions that call themselves. jaq runs a call inside a call on the thread's
//! stack and has no depth limit, so `def f: 1 + f; f` overflowed it and aborted appdeck, the
//! terminal left raw (`:where`) or the CLI killed (`--jq`). A row filter or a shaping expression
//! has no need of recursion; jq's own definitions (`recurse`, `walk`, …) are not the user's and
//! are not looked at (the input's nesting, which they follow, is bounded: see `MAX_DEPTH`).

use jaq_core::load::lex::StrPart;
use jaq_core::load::parse::{BinaryOp, Pattern, Term};
use jaq_core::load::{Lexer, Parser};
use jaq_core::path::Part;

/// The name (a part of `expr`, where the call is) of a definition in `expr` that calls itself,
/// directly or through a definition made in its body; `None` when there is none, or when `expr`
/// does not parse (its errors are said elsewhere).
pub(super) fn calling_itself(expr: &str) -> Option<&str> {
    let tokens = Lexer::new(expr).lex().ok()?;
    let term = Parser::new(&tokens).parse(|p| p.term()).ok()?;
    let mut walk = Walk::default();
    walk.term(&term);
    walk.found
}

/// What a name called with some number of arguments means at one place of the expression.
#[derive(Clone, Copy)]
enum Binding<'s> {
    /// A definition, by its number in the walk.
    Def {
        name: &'s str,
        arity: usize,
        id: usize,
    },
    /// A definition's argument (`f` of `def g(f)`, or `x` of `def g($x)`).
    Arg(&'s str),
}

#[derive(Default)]
struct Walk<'s> {
    /// What is in scope, innermost last.
    scope: Vec<Binding<'s>>,
    /// The definitions whose bodies the walk is in.
    open: Vec<usize>,
    defs: usize,
    found: Option<&'s str>,
}

impl<'s> Walk<'s> {
    fn term(&mut self, term: &Term<&'s str>) {
        if self.found.is_some() {
            return;
        }
        match term {
            Term::Id | Term::Recurse | Term::Num(_) | Term::Break(_) | Term::Var(_) => {}
            Term::Str(_, parts) => {
                for part in parts {
                    if let StrPart::Term(t) = part {
                        self.term(t);
                    }
                }
            }
            Term::Arr(inner) => inner.iter().for_each(|t| self.term(t)),
            Term::Obj(pairs) => {
                for (key, value) in pairs {
                    self.term(key);
                    value.iter().for_each(|v| self.term(v));
                }
            }
            Term::Neg(t) | Term::Label(_, t) => self.term(t),
            Term::BinOp(l, op, r) => {
                self.term(l);
                if let BinaryOp::Pipe(Some(pattern)) = op {
                    self.pattern(pattern);
                }
                self.term(r);
            }
            Term::Fold(_, xs, pattern, args) => {
                self.term(xs);
                self.pattern(pattern);
                args.iter().for_each(|t| self.term(t));
            }
            Term::TryCatch(t, catch) => {
                self.term(t);
                catch.iter().for_each(|c| self.term(c));
            }
            Term::IfThenElse(branches, otherwise) => {
                for (cond, then) in branches {
                    self.term(cond);
                    self.term(then);
                }
                otherwise.iter().for_each(|t| self.term(t));
            }
            Term::Def(defs, rest) => {
                let before = self.scope.len();
                for def in defs {
                    let id = self.defs;
                    self.defs += 1;
                    // In scope in its own body, and after it.
                    self.scope.push(Binding::Def {
                        name: def.name,
                        arity: def.args.len(),
                        id,
                    });
                    let outer = self.scope.len();
                    (self.scope).extend(
                        def.args
                            .iter()
                            .map(|a| Binding::Arg(a.trim_start_matches('$'))),
                    );
                    self.open.push(id);
                    self.term(&def.body);
                    self.open.pop();
                    self.scope.truncate(outer);
                }
                self.term(rest);
                self.scope.truncate(before);
            }
            Term::Call(name, args) => {
                let called = self.scope.iter().rev().find(|b| match b {
                    Binding::Def { name: n, arity, .. } => n == name && *arity == args.len(),
                    Binding::Arg(n) => n == name && args.is_empty(),
                });
                if let Some(Binding::Def { id, .. }) = called
                    && self.open.contains(id)
                {
                    self.found = Some(name);
                    return;
                }
                args.iter().for_each(|t| self.term(t));
            }
            Term::Path(t, path) => {
                self.term(t);
                for (part, _) in &path.0 {
                    match part {
                        Part::Index(i) => self.term(i),
                        Part::Range(from, to) => {
                            from.iter().chain(to).for_each(|t| self.term(t));
                        }
                    }
                }
            }
        }
    }

    /// The terms in a destructuring pattern (an object pattern's keys).
    fn pattern(&mut self, pattern: &Pattern<&'s str>) {
        match pattern {
            Pattern::Var(_) => {}
            Pattern::Arr(items) => items.iter().for_each(|p| self.pattern(p)),
            Pattern::Obj(entries) => {
                for (key, value) in entries {
                    self.term(key);
                    self.pattern(value);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_definition_calling_itself_is_found_however_it_is_reached() {
        for (expr, name) in [
            ("def f: 1 + f; f", "f"),
            ("def f: f; f", "f"),
            ("def f(g): g | f(g); f(.)", "f"),
            ("def f: def g: f; g; f", "f"),
            ("def f: [.[] | f]; .a | f", "f"),
            ("def f: {a: f}; f", "f"),
            ("def f: \"\\(f)\"; f", "f"),
            ("def f: .[f]; f", "f"),
            ("def f: if . then f else 1 end; f", "f"),
            ("def f: try f catch f; f", "f"),
            ("def f: reduce f as $x (0; .); f", "f"),
            ("def f: . as {(f): $x} | $x; f", "f"),
            ("def f($n): f($n - 1); f(3)", "f"),
            ("1, (def f: f; 2)", "f"),
        ] {
            assert_eq!(calling_itself(expr), Some(name), "{expr}");
        }
    }

    #[test]
    fn definitions_that_do_not_recurse_and_jqs_own_are_let_through() {
        for expr in [
            ".properties.stars > 100",
            "def f: 1; f + f",
            "def f: def f: 1; f; f",
            "def f(f): f; f(1)",
            "def f(g): g; def h: f(.); h",
            "def f: 1; def f(x): f + x; f(2)",
            "[recurse] | length",
            "walk(.) | until(. > 3; . + 1)",
            "def f: 1; [.[] | f]",
            "not valid (",
        ] {
            assert_eq!(calling_itself(expr), None, "{expr}");
        }
    }
}
