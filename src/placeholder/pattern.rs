//! A string that a `pattern` matches, made by walking the regex's syntax tree: each class gives
//! one plain character (`a`, `0`... when the class has one), each repetition its minimum count
//! plus `stretch`, each alternation its first branch. No generator crate: `regex-syntax` is the
//! parser the `regex` engine already uses. What it makes is only a candidate: the caller checks it
//! with the validator's own engine, which also covers what this walk ignores (look-around, `\b`).

use regex_syntax::hir::{Class, Hir, HirKind};

/// Past this many characters a candidate is given up (a pattern such as `a{100000}`).
pub const MAX_CHARS: usize = 10_000;

/// The parsed pattern, or `None` when the `regex` syntax does not read it (back-references,
/// look-around: the backtracking engine's patterns get no generated candidate).
pub fn parse(pattern: &str) -> Option<Hir> {
    regex_syntax::parse(pattern).ok()
}

/// A string the pattern should match, with every open repetition taken `stretch` more times
/// than its minimum (capped by its maximum); `None` when a class matches nothing printable.
pub fn generate(hir: &Hir, stretch: u32) -> Option<String> {
    let mut out = String::new();
    walk(hir, stretch, &mut out)?;
    Some(out)
}

fn walk(hir: &Hir, stretch: u32, out: &mut String) -> Option<()> {
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
                walk(&repetition.sub, stretch, out)?;
            }
        }
        HirKind::Capture(capture) => walk(&capture.sub, stretch, out)?,
        HirKind::Concat(parts) => {
            for part in parts {
                walk(part, stretch, out)?;
            }
        }
        HirKind::Alternation(branches) => walk(branches.first()?, stretch, out)?,
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
        generate(&parse(pattern)?, stretch)
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
}
