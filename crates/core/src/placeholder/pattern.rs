//! A string that a `pattern` matches, made by walking the regex's syntax tree: each class gives
//! one plain character (`a`, `0`... when the class has one), each repetition its minimum count
//! plus `stretch`, each alternation the branch its `variant` picks. No generator crate: `regex-syntax` is the
//! parser the `regex` engine already uses. What it makes is only a candidate: the caller checks it
//! with the validator's own engine, which also covers what this walk ignores (look-around, `\b`).

use regex_syntax::hir::{Class, Hir, HirKind};

/// Past this many characters a candidate is given up (a pattern such as `a{100000}`).
pub(super) const MAX_CHARS: usize = 10_000;

/// The parsed pattern, or `None` when the `regex` syntax does not read it (back-references,
/// look-around: the backtracking engine's patterns get no generated candidate).
pub(super) fn parse(pattern: &str) -> Option<Hir> {
    regex_syntax::parse(pattern).ok()
}

/// What one variant of a pattern gives.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Made {
    /// A string the pattern should match.
    Text(String),
    /// None: a class in it matches nothing printable, or it grew past [`MAX_CHARS`].
    Nothing,
    /// The variant is past the last choice of branches: no further one gives anything new.
    PastTheLast,
}

/// A string the pattern should match, with every open repetition taken `stretch` more times
/// than its minimum (capped by its maximum) and its alternations' branches chosen by `variant`:
/// 0 takes every first branch; counting up goes through the choices, the first alternation met
/// changing fastest (`^(ab|cd)-(ef|gh)$` gives `ab-ef`, `cd-ef`, `ab-gh`, `cd-gh`).
pub(super) fn generate(hir: &Hir, stretch: u32, variant: u64) -> Made {
    let mut out = String::new();
    let mut choices = variant;
    match walk(hir, stretch, &mut choices, &mut out) {
        _ if choices > 0 => Made::PastTheLast,
        Some(()) => Made::Text(out),
        None => Made::Nothing,
    }
}

/// `choices`: what is left of the variant; each alternation met takes its branch from it.
fn walk(hir: &Hir, stretch: u32, choices: &mut u64, out: &mut String) -> Option<()> {
    if out.len() > MAX_CHARS {
        return None;
    }
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(literal) => out.push_str(std::str::from_utf8(&literal.0).ok()?),
        HirKind::Class(class) => out.push(pick(class)?),
        HirKind::Repetition(repetition) => {
            let count = repetition
                .min
                .saturating_add(stretch)
                .min(repetition.max.unwrap_or(u32::MAX));
            for _ in 0..count {
                walk(&repetition.sub, stretch, choices, out)?;
            }
        }
        HirKind::Capture(capture) => walk(&capture.sub, stretch, choices, out)?,
        HirKind::Concat(parts) => {
            for part in parts {
                walk(part, stretch, choices, out)?;
            }
        }
        HirKind::Alternation(branches) => {
            let count = branches.len() as u64;
            let branch = &branches[(*choices % count) as usize];
            *choices /= count;
            walk(branch, stretch, choices, out)?
        }
    }
    Some(())
}

/// A readable character of the class: a lowercase letter, a digit, an uppercase letter, a few
/// common signs, else its first printable character.
fn pick(class: &Class) -> Option<char> {
    let ranges: Vec<(char, char)> = match class {
        Class::Unicode(class) => class
            .ranges()
            .iter()
            .map(|r| (r.start(), r.end()))
            .collect(),
        Class::Bytes(class) => class
            .ranges()
            .iter()
            .filter(|r| r.start().is_ascii())
            .map(|r| (char::from(r.start()), char::from(r.end().min(0x7f))))
            .collect(),
    };
    let contains = |c: char| ranges.iter().any(|&(start, end)| start <= c && c <= end);
    let preferred = ('a'..='z')
        .chain('0'..='9')
        .chain('A'..='Z')
        .chain("-_.:/@ ".chars());
    preferred.into_iter().find(|&c| contains(c)).or_else(|| {
        ranges
            .iter()
            .find_map(|&(start, end)| (start..=end).take(256).find(|c| !c.is_control()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn make(pattern: &str, stretch: u32) -> Option<String> {
        match generate(&parse(pattern)?, stretch, 0) {
            Made::Text(text) => Some(text),
            _ => None,
        }
    }

    /// Every variant of the pattern up to the last, as `generate` gives them.
    fn variants(pattern: &str, stretch: u32) -> Vec<Made> {
        let hir = parse(pattern).unwrap();
        (0..)
            .map(|variant| generate(&hir, stretch, variant))
            .take_while(|made| *made != Made::PastTheLast)
            .collect()
    }

    #[test]
    fn classes_give_plain_characters_and_repetitions_their_minimum_plus_stretch() {
        assert_eq!(make("^[a-z]+-[0-9]+$", 0).as_deref(), Some("a-0"));
        assert_eq!(make("^[a-z]+-[0-9]+$", 2).as_deref(), Some("aaa-000"));
        assert_eq!(make("^[^/]+/[^/]+$", 0).as_deref(), Some("a/a"));
        assert_eq!(make("^[0-9a-f]{7,40}$", 0).as_deref(), Some("aaaaaaa"));
        assert_eq!(make("^[0-9a-f]{7,40}$", 100).map(|s| s.len()), Some(40));
        assert_eq!(make("^(?:v|ver)\\d+\\.\\d+$", 0).as_deref(), Some("v0.0"));
        assert_eq!(make("^[A-Z]{2}$", 0).as_deref(), Some("AA"));
        assert_eq!(make("^\\S+@\\S+$", 0).as_deref(), Some("a@a"));
    }

    #[test]
    fn what_cannot_be_made_gives_none() {
        // A back-reference is not `regex` syntax; a class of control characters has nothing to
        // show; a huge repetition is given up.
        assert_eq!(make("^(a)\\1$", 0), None);
        assert_eq!(make("^[\\x00-\\x1f]$", 0), None);
        assert_eq!(make("^a{100000}$", 0), None);
    }

    #[test]
    fn each_variant_takes_other_branches_until_the_last() {
        let text = |t: &str| Made::Text(t.to_owned());
        assert_eq!(
            variants("^(ab|cd)-(ef|gh)$", 0),
            [text("ab-ef"), text("cd-ef"), text("ab-gh"), text("cd-gh")]
        );
        // A branch with nothing printable gives nothing; the next one still comes.
        assert_eq!(
            variants("^(?:[\\x00-\\x1f]|ok)$", 0),
            [Made::Nothing, text("ok")]
        );
        // Without an alternation there is one variant; a repeated one is chosen each time.
        assert_eq!(variants("^[a-z]+$", 0), [text("a")]);
        assert_eq!(variants("^(?:xa|yb)+$", 1).len(), 4);
    }
}
