//! How deep an expression nests, found before jaq reads it: jaq's lexer reads each bracket a call
//! deeper, so `[[[…]]]` a few thousand deep overflowed the stack.

/// Where (a byte offset) `expr` first nests deeper than `limit`: brackets `(`, `[`, `{` and
/// string interpolations `\(…)`, outside string literals and comments. `None` when it does not.
pub(super) fn deeper_than(expr: &str, limit: usize) -> Option<usize> {
    /// What the scan is inside of.
    #[derive(PartialEq)]
    enum In {
        /// A bracket in code.
        Bracket,
        /// A string literal.
        Text,
        /// An interpolation in a string: its `)` goes back to the string.
        Interpolation,
    }
    let mut stack: Vec<In> = Vec::new();
    let mut depth = 0;
    let mut chars = expr.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if stack.last() == Some(&In::Text) {
            match c {
                '\\' if chars.peek().is_some_and(|&(_, next)| next == '(') => {
                    chars.next();
                    stack.push(In::Interpolation);
                    depth += 1;
                }
                '\\' => {
                    chars.next();
                }
                '"' => {
                    stack.pop();
                }
                _ => {}
            }
        } else {
            match c {
                '"' => stack.push(In::Text),
                '#' => {
                    // A comment, to the end of the line.
                    while chars.next_if(|&(_, c)| c != '\n').is_some() {}
                }
                '(' | '[' | '{' => {
                    stack.push(In::Bracket);
                    depth += 1;
                }
                ')' | ']' | '}' => {
                    if matches!(stack.last(), Some(In::Bracket | In::Interpolation)) {
                        stack.pop();
                        depth -= 1;
                    }
                }
                _ => {}
            }
        }
        if depth > limit {
            return Some(at);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_and_interpolations_count_strings_and_comments_do_not() {
        assert_eq!(deeper_than(".a | [.b, {c: (.d)}]", 3), None);
        assert_eq!(deeper_than(".a | [.b, {c: (.d)}]", 2), Some(14), "the `(`");
        assert_eq!(deeper_than(r#""((([[[" | ."#, 0), None, "in a string");
        assert_eq!(deeper_than(r#""\"(" | ."#, 0), None, "an escaped quote");
        assert_eq!(deeper_than(r#""a\(.b)c""#, 0), Some(2), "an interpolation");
        assert_eq!(
            deeper_than(r#""a\("b\(.c)")""#, 1),
            Some(6),
            "one inside another"
        );
        assert_eq!(deeper_than("# (((\n.a", 0), None, "a comment");
        assert_eq!(
            deeper_than("]]]))) [", 0),
            Some(7),
            "closers without openers"
        );
        let deep = format!("{}1{}", "[".repeat(300), "]".repeat(300));
        assert_eq!(deeper_than(&deep, 256), Some(256));
    }
}
