//! Where the token appears in any spelling a server may give it. A JSON writer may escape any
//! character (`\u0053`, `\/`), and a URL percent-encodes bytes (`%2F`): a server echoing the token
//! in such a spelling would have it decoded in clear by whatever reads the JSON (the `!` view, the
//! history, `--jq`), so each of the token's characters is matched as itself, as a JSON escape
//! (`\uXXXX` in either case, a surrogate pair beyond the BMP, `\/ \" \\ \b \f \n \r \t`), or as
//! `%XX` for each of its UTF-8 bytes (either case), mixed freely within one occurrence.
//!
//! Fast where there is nothing to find: the raw token is found by `memmem`, and an occurrence in
//! any other spelling holds a `\` or `%`, so only those bytes are looked at, and one whose escape
//! stands for no byte of the token is passed over at once. Over a 5.2 MB page without the token
//! (`cargo bench --bench mask`, medians of 50, load 8 on 2 cores): 0.36 ms with no `\` or `%` in
//! it, 0.85 ms with five escapes in every row, 2.0 ms with every non-ASCII character `\uXXXX`
//! too; looking for the raw token alone, as before, took 0.18 ms.

use std::collections::HashSet;
use std::ops::Range;

use memchr::{memchr_iter, memchr2_iter, memmem};

/// The token, ready to be looked for in its spellings.
#[derive(Clone)]
pub(super) struct Spellings {
    token: Box<str>,
    raw: memmem::Finder<'static>,
    /// Which bytes the token holds: an escape standing for another byte is passed over at once.
    holds: [bool; 256],
}

/// A path through the token: at this byte of the text, this byte of the token matched so far.
type State = (usize, usize);

impl Spellings {
    pub(super) fn new(token: &str) -> Self {
        let mut holds = [false; 256];
        for &b in token.as_bytes() {
            holds[usize::from(b)] = true;
        }
        Spellings {
            token: token.into(),
            raw: memmem::Finder::new(token.as_bytes()).into_owned(),
            holds,
        }
    }

    /// Each stretch of `text` to mask, in order, none overlapping: every occurrence of the token
    /// in any spelling, from its first byte to its last, widened to whole JSON escapes (see
    /// [`whole_escapes`]).
    pub(super) fn find(&self, text: &[u8]) -> Vec<Range<usize>> {
        let token = self.token.as_bytes();
        let mut found: Vec<Range<usize>> = self
            .raw
            .find_iter(text)
            .map(|at| at..at + token.len())
            .collect();
        self.spelled(text, &mut found);
        found.sort_by_key(|range| range.start);
        let mut merged: Vec<Range<usize>> = Vec::with_capacity(found.len());
        for range in found.into_iter().map(|range| whole_escapes(text, range)) {
            match merged.last_mut() {
                Some(last) if range.start <= last.end => last.end = last.end.max(range.end),
                _ => merged.push(range),
            }
        }
        merged
    }

    /// Adds to `found` each occurrence spelled with an escape (a JSON escape or a `%XX`): each is
    /// found from its first escape.
    fn spelled(&self, text: &[u8], found: &mut Vec<Range<usize>>) {
        let token = self.token.as_bytes();
        let mut dead = HashSet::new();
        let mut spelled_until = 0;
        for at in memchr2_iter(b'\\', b'%', text) {
            if at < spelled_until {
                continue;
            }
            // Where the token would start were this escape the first of its spelling: the bytes
            // before it are then the token's own, and the escape stands for its `index`-th byte.
            let mut starts = |index: usize| {
                (index <= at && text[at - index..at] == token[..index])
                    .then(|| self.end(text, (at, index), &mut dead))
                    .flatten()
                    .map(|end| at - index..end)
            };
            let occurrence = if text[at] == b'%' {
                let Some(byte) = percent(text, at) else {
                    continue;
                };
                if !self.holds[usize::from(byte)] {
                    continue;
                }
                memchr_iter(byte, token).find_map(&mut starts)
            } else {
                let Some((decoded, _)) = json_escape(text, at) else {
                    continue;
                };
                let mut utf8 = [0; 4];
                let decoded = decoded.encode_utf8(&mut utf8);
                if !self.holds[usize::from(decoded.as_bytes()[0])] {
                    continue;
                }
                self.token
                    .match_indices(&*decoded)
                    .find_map(|(index, _)| starts(index))
            };
            if let Some(occurrence) = occurrence {
                spelled_until = occurrence.end;
                found.push(occurrence);
            }
        }
    }

    /// Where the token ends in `text`, following it from `state`; the escaped readings are tried
    /// before the raw one, so that an occurrence takes in a whole escape (`\\` for a `\`).
    fn end(&self, text: &[u8], mut state: State, dead: &mut HashSet<State>) -> Option<usize> {
        let token = self.token.as_bytes();
        loop {
            let (at, index) = state;
            if index == token.len() {
                return Some(at);
            }
            let mut next = [None; 3];
            if self.token.is_char_boundary(index)
                && let Some((decoded, len)) = json_escape(text, at)
                && token[index..].starts_with(decoded.encode_utf8(&mut [0; 4]).as_bytes())
            {
                next[0] = Some((at + len, index + decoded.len_utf8()));
            }
            if percent(text, at) == Some(token[index]) {
                next[1] = Some((at + 3, index + 1));
            }
            if text.get(at) == Some(&token[index]) {
                next[2] = Some((at + 1, index + 1));
            }
            let mut ways = next.into_iter().flatten();
            match (ways.next(), ways.next()) {
                (None, _) => return None,
                (Some(only), None) => state = only,
                (Some(one), Some(other)) => {
                    // Only a `\` or `%` of the token reads two ways; a path failed once is
                    // not followed again, so no token costs exponential time.
                    if dead.contains(&state) {
                        return None;
                    }
                    for way in [one, other].into_iter().chain(ways) {
                        if let Some(end) = self.end(text, way, dead) {
                            return Some(end);
                        }
                    }
                    dead.insert(state);
                    return None;
                }
            }
        }
    }
}

/// `range` widened to whole JSON escapes: it starts one byte earlier when the `\` before it escapes
/// its first byte, and ends one escape later when its last `\` escapes the byte after it. Masked
/// this way, a JSON string stays valid JSON (the mask is plain text, and no escape is cut).
fn whole_escapes(text: &[u8], range: Range<usize>) -> Range<usize> {
    let backslashes_before = |end: usize| {
        text[..end]
            .iter()
            .rev()
            .take_while(|&&b| b == b'\\')
            .count()
    };
    let mut start = range.start;
    if backslashes_before(start) % 2 == 1 {
        start -= 1;
    }
    let mut end = range.end;
    if backslashes_before(end) % 2 == 1 {
        end = match json_escape(text, end - 1) {
            Some((_, len)) => end - 1 + len,
            // A `\u` of a lone surrogate, or not an escape at all.
            None if text.get(end) == Some(&b'u') => (end + 5).min(text.len()),
            None => (end + 1).min(text.len()),
        };
    }
    start..end
}

/// The character the JSON escape at `at` stands for, and the escape's length.
fn json_escape(text: &[u8], at: usize) -> Option<(char, usize)> {
    if text.get(at) != Some(&b'\\') {
        return None;
    }
    let simple = match *text.get(at + 1)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let high = hex4(text, at + 2)?;
            if !(0xd800..0xdc00).contains(&high) {
                return Some((char::from_u32(high)?, 6));
            }
            if text.get(at + 6..at + 8) != Some(b"\\u") {
                return None;
            }
            let low = hex4(text, at + 8)?;
            if !(0xdc00..0xe000).contains(&low) {
                return None;
            }
            let c = 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00);
            return Some((char::from_u32(c)?, 12));
        }
        _ => return None,
    };
    Some((simple, 2))
}

/// The byte `%XX` at `at` stands for, either case.
fn percent(text: &[u8], at: usize) -> Option<u8> {
    if text.get(at) != Some(&b'%') {
        return None;
    }
    let digits = text.get(at + 1..at + 3)?;
    Some(hex(digits[0])? << 4 | hex(digits[1])?)
}

/// The four hex digits at `at`, either case.
fn hex4(text: &[u8], at: usize) -> Option<u32> {
    text.get(at..at + 4)?
        .iter()
        .try_fold(0, |sum, &digit| Some(sum << 4 | u32::from(hex(digit)?)))
}

fn hex(digit: u8) -> Option<u8> {
    match digit {
        b'0'..=b'9' => Some(digit - b'0'),
        b'a'..=b'f' => Some(digit - b'a' + 10),
        b'A'..=b'F' => Some(digit - b'A' + 10),
        _ => None,
    }
}
