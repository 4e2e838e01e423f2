//! Where a JSON pointer's value starts in JSON text, so that a finding can mark its line in a
//! composer's editor and `Enter` can jump there. A small scanner over the text as written (serde_json keeps no
//! positions): it walks only the path of the pointer and skips everything else.

/// The 0-based line and character column where the value at `pointer` starts in `text`. A pointer
/// that goes further than the text (a missing property) gives the deepest value that exists on its
/// path; text that is not JSON gives where the scan stopped.
pub fn position_of(text: &str, pointer: &str) -> (usize, usize) {
    let tokens: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect();
    let mut scanner = Scanner {
        bytes: text.as_bytes(),
        pos: 0,
    };
    let offset = scanner.find(&tokens);
    line_and_column(text, offset)
}

fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text.as_bytes()[..offset.min(text.len())];
    let line = before.iter().filter(|b| **b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count();
    (line, column)
}

struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// Offset of the value at `path` (or of the deepest one found), from the value at `pos`.
    fn find(&mut self, path: &[String]) -> usize {
        self.skip_whitespace();
        let start = self.pos;
        let Some((token, rest)) = path.split_first() else {
            return start;
        };
        match self.peek() {
            Some(b'{') => {
                self.pos += 1;
                loop {
                    self.skip_whitespace();
                    if self.peek() != Some(b'"') {
                        return start;
                    }
                    let key = self.string();
                    self.skip_whitespace();
                    if self.peek() != Some(b':') {
                        return start;
                    }
                    self.pos += 1;
                    if key.as_deref() == Some(token.as_str()) {
                        return self.find(rest);
                    }
                    self.skip_value();
                    self.skip_whitespace();
                    if self.peek() != Some(b',') {
                        return start;
                    }
                    self.pos += 1;
                }
            }
            Some(b'[') => {
                let Ok(wanted) = token.parse::<usize>() else {
                    return start;
                };
                self.pos += 1;
                for _ in 0..wanted {
                    self.skip_whitespace();
                    if self.peek() == Some(b']') {
                        return start;
                    }
                    self.skip_value();
                    self.skip_whitespace();
                    if self.peek() != Some(b',') {
                        return start;
                    }
                    self.pos += 1;
                }
                self.skip_whitespace();
                if self.peek() == Some(b']') {
                    return start;
                }
                self.find(rest)
            }
            _ => start,
        }
    }

    /// Reads a string at `pos` (on its opening quote); `None` if it does not decode.
    fn string(&mut self) -> Option<String> {
        let start = self.pos;
        self.pos += 1;
        let mut escaped = false;
        while let Some(b) = self.peek() {
            self.pos += 1;
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => break,
                _ => {}
            }
        }
        let raw = std::str::from_utf8(&self.bytes[start..self.pos]).ok()?;
        serde_json::from_str(raw).ok()
    }

    /// Skips one value of any kind, nested ones included.
    fn skip_value(&mut self) {
        self.skip_whitespace();
        let mut depth = 0usize;
        while let Some(b) = self.peek() {
            match b {
                b'"' => {
                    self.string();
                    if depth == 0 {
                        return;
                    }
                    continue;
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    if depth == 0 {
                        return;
                    }
                    depth -= 1;
                    if depth == 0 {
                        self.pos += 1;
                        return;
                    }
                }
                b',' if depth == 0 => return,
                _ => {}
            }
            self.pos += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::position_of;

    const TEXT: &str =
        "{\n  \"a\": 1,\n  \"b/c\": {\"x\": [10, {\"y\": \"]\"}, 30]},\n  \"é\": \"z\"\n}";

    #[test]
    fn finds_values_by_pointer() {
        assert_eq!(position_of(TEXT, ""), (0, 0));
        assert_eq!(position_of(TEXT, "/a"), (1, 7));
        assert_eq!(position_of(TEXT, "/b~1c/x/0"), (2, 16));
        assert_eq!(position_of(TEXT, "/b~1c/x/2"), (2, 32));
        assert_eq!(position_of(TEXT, "/é"), (3, 7));
    }

    #[test]
    fn a_missing_value_gives_the_deepest_one_found() {
        assert_eq!(position_of(TEXT, "/b~1c/missing"), (2, 9));
        assert_eq!(position_of(TEXT, "/b~1c/x/9"), (2, 15));
        assert_eq!(position_of("{\"a\": ", "/a/b"), (0, 6));
        assert_eq!(position_of("not json", "/a"), (0, 0));
    }
}
