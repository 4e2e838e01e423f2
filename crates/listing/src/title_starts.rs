//! Titles kept as one of the listing's title starts and the rest of them: the rows of a listing
//! often name themselves alike (`INC-1009: a failure of the login service · copy 12`,
//! `payments-api v2.30.9 → staging`, `Deploy auth to prod #4411`), and the title was most of a
//! row's texts (about 50 of 70 bytes at 100,000 rows: `benches/row_memory.rs`). A start is kept
//! once; a row says its index (a byte or two) and keeps the rest of its title.
//!
//! The starts are found as the rows come, among the titles seen lately, kept in order: the one
//! that begins most like a new title is next to it in that order. The beginning they share
//! (less the digits it ends with: `INC-10` of `INC-1009` and `INC-1010` is a number's start,
//! not a name's) becomes a start when it is [`MIN_GAIN`] bytes longer than the longest start
//! that fits the title already. So `payments-api v` is found first, `payments-api v2.30.9 →
//! staging · copy ` when two copies of that one have come. The first [`MAX_STARTS`] found stay;
//! a listing whose titles share nothing keeps its titles whole.
//!
//! Nothing is lost: a title read back is its start followed by its rest, the very bytes given.
//!
//! What it saves (`cargo bench --bench row_memory`, 100,000 rows of the generated shape, titles
//! `INC-1009: a failure of the login service · copy N`, with [`MAX_STARTS`] at 0 for without):
//! the columns' texts 31.5 bytes a row against 83.9, the resident data grown 65.8 bytes a row
//! against 118.3, so 52 bytes a row. Titles that share no start keep them whole and cost only
//! the looking.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Bound;

/// How many starts a listing keeps: their index takes one byte of the packed texts up to 127,
/// two past it (see `row_texts.rs`).
pub(crate) const MAX_STARTS: usize = 2048;
/// The starts are looked up by their first bytes, this many.
const KEY: usize = 4;
/// The shortest a start is, and how much longer than the start it grew from: a row saves
/// that less the byte or two it takes to say which.
const MIN_GAIN: usize = 6;
/// How many titles seen lately are kept to find starts in; past that they are forgotten and
/// the next ones kept (a bound on the memory: a hundred kilobytes or so).
const RECENT: usize = 2048;
/// The longest title kept by its start: read back, it is put together in a [`Joined`] (no
/// allocation), so it has a size; a longer title is kept whole.
pub(crate) const MAX_JOINED: usize = 128;

/// The starts' texts, one after another, and where each ends: what reading a title needs
/// (shared with a job as a copy of two allocations).
#[derive(Clone, Default)]
pub(crate) struct Starts {
    text: String,
    ends: Vec<u32>,
}

impl Starts {
    pub(crate) const fn new() -> Starts {
        Starts {
            text: String::new(),
            ends: Vec::new(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// The start of this index.
    pub(crate) fn get(&self, index: usize) -> Option<&str> {
        let end = *self.ends.get(index)? as usize;
        let start = match index {
            0 => 0,
            _ => self.ends[index - 1] as usize,
        };
        self.text.get(start..end)
    }

    /// These starts, in this order (tests: a listing finds its own).
    #[cfg(test)]
    pub(crate) fn of(starts: &[&str]) -> Starts {
        let mut all = Starts::new();
        starts.iter().for_each(|start| all.push(start));
        all
    }

    fn push(&mut self, start: &str) {
        self.text.push_str(start);
        self.ends.push(self.text.len() as u32);
    }
}

/// The title starts of a listing, and what finds more of them.
#[derive(Clone, Default)]
pub(crate) struct TitleStarts {
    starts: Starts,
    /// The starts by their first [`KEY`] bytes: their indices.
    by_key: BTreeMap<u32, Vec<u16>>,
    /// Titles seen lately that a new start could still make shorter, in order.
    recent: BTreeSet<Box<str>>,
}

impl TitleStarts {
    pub(crate) const fn new() -> TitleStarts {
        TitleStarts {
            starts: Starts::new(),
            by_key: BTreeMap::new(),
            recent: BTreeSet::new(),
        }
    }

    /// The starts, by their index.
    pub(crate) fn kept(&self) -> &Starts {
        &self.starts
    }

    /// `title` as the index of one of the starts and the rest of it; `None`: keep it whole.
    pub(crate) fn split<'a>(&mut self, title: &'a str) -> Option<(usize, &'a str)> {
        if title.len() > MAX_JOINED {
            return None;
        }
        let mut best = self.longest_fitting(title);
        if self.starts.len() < MAX_STARTS
            && let Some(found) = self.found(title, best)
        {
            best = Some(found);
        }
        let (index, len) = best?;
        Some((index, &title[len..]))
    }

    /// The longest start `title` begins with: its index and length.
    fn longest_fitting(&self, title: &str) -> Option<(usize, usize)> {
        let indices = self.by_key.get(&key(title.as_bytes())?)?;
        (indices.iter())
            .map(|&index| usize::from(index))
            .filter_map(|index| Some((index, self.starts.get(index)?)))
            .filter(|(_, start)| title.starts_with(start))
            .map(|(index, start)| (index, start.len()))
            .max_by_key(|&(_, len)| len)
    }

    /// A new start for `title`, from the title seen lately that begins most like it, when it
    /// is longer than the start that fits (`fitting`: its index and length); else `title` is
    /// remembered, if a start could still make it shorter.
    fn found(&mut self, title: &str, fitting: Option<(usize, usize)>) -> Option<(usize, usize)> {
        let from = fitting.map_or(0, |(_, len)| len);
        if title.len() < from + MIN_GAIN {
            return None;
        }
        let before = (self.recent)
            .range::<str, _>((Bound::Unbounded, Bound::Excluded(title)))
            .next_back();
        let after = self
            .recent
            .range::<str, _>((Bound::Included(title), Bound::Unbounded))
            .next();
        let shared = [before, after]
            .into_iter()
            .flatten()
            .map(|seen| start_shared(seen, title))
            .max()
            .unwrap_or(0);
        if shared < from + MIN_GAIN {
            if self.recent.len() == RECENT {
                self.recent.clear();
            }
            self.recent.insert(title.into());
            return None;
        }
        let start = &title[..shared];
        let index = self.starts.len();
        self.starts.push(start);
        let first = key(start.as_bytes())?;
        self.by_key.entry(first).or_default().push(index as u16);
        if self.starts.len() == MAX_STARTS {
            self.recent = BTreeSet::new();
        }
        Some((index, shared))
    }
}

/// The first [`KEY`] bytes of `bytes`, as a number; `None` when it is shorter.
fn key(bytes: &[u8]) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(..KEY)?.try_into().ok()?))
}

/// How many bytes `title` begins with that `seen` begins with too: whole characters, less the
/// digits they end with.
fn start_shared(seen: &str, title: &str) -> usize {
    let same = (seen.bytes().zip(title.bytes()))
        .take_while(|(a, b)| a == b)
        .count();
    let mut end = same;
    while !title.is_char_boundary(end) {
        end -= 1;
    }
    let digits = title.as_bytes()[..end]
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_digit())
        .count();
    end - digits
}

/// A title put back together from its start and its rest: kept inline so that reading one
/// allocates nothing.
#[derive(Clone, Copy)]
pub struct Joined {
    len: u8,
    bytes: [u8; MAX_JOINED],
}

impl Joined {
    /// `start` then `rest`; `None` when they are longer than a title kept this way can be.
    pub fn new(start: &str, rest: &str) -> Option<Joined> {
        let len = start.len() + rest.len();
        let mut joined = Joined {
            len: u8::try_from(len)
                .ok()
                .filter(|&n| usize::from(n) <= MAX_JOINED)?,
            bytes: [0; MAX_JOINED],
        };
        joined.bytes[..start.len()].copy_from_slice(start.as_bytes());
        joined.bytes[start.len()..len].copy_from_slice(rest.as_bytes());
        Some(joined)
    }

    pub fn as_str(&self) -> &str {
        // Two whole `str`s, one after the other.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joined(starts: &TitleStarts, split: Option<(usize, &str)>) -> Option<String> {
        let (index, rest) = split?;
        let start = starts.kept().get(index).unwrap();
        Some(Joined::new(start, rest).unwrap().as_str().to_owned())
    }

    fn kept(starts: &TitleStarts) -> Vec<&str> {
        (0..starts.kept().len())
            .map(|i| starts.kept().get(i).unwrap())
            .collect()
    }

    /// Copies of a few titles, round-robin as the sandbox makes them: a start shared by some is
    /// found first, then each title's own start; every title reads back as it was.
    #[test]
    fn titles_alike_are_kept_by_their_start() {
        let names = [
            "payments-api v2.30.9 → staging",
            "payments-api v3.8.8 → development",
            "INC-1009: login fails",
            "Feature flags #4",
        ];
        let mut starts = TitleStarts::new();
        let mut rests = Vec::new();
        for n in 1..=400 {
            let title = format!("{} · copy {n}", names[(n - 1) % names.len()]);
            let split = starts.split(&title);
            if split.is_some() {
                assert_eq!(joined(&starts, split).unwrap(), title);
            }
            rests.push(split.map(|(_, rest)| rest.to_owned()));
        }
        assert_eq!(rests[1].as_deref(), Some("3.8.8 → development · copy 2"));
        assert!(
            rests[200..]
                .iter()
                .all(|r| r.as_ref().is_some_and(|r| r.len() <= 3)),
            "{rests:?}"
        );
        let mut kept = kept(&starts);
        kept.sort_unstable();
        assert_eq!(
            kept,
            [
                "Feature flags #4 · copy ",
                "INC-1009: login fails · copy ",
                "payments-api v",
                "payments-api v2.30.9 → staging · copy ",
                "payments-api v3.8.8 → development · copy ",
            ],
            "the digits that differ are not part of a start"
        );
    }

    /// Titles that share less than a start's worth, or are too long to put back together, are
    /// kept whole; a start never splits a character.
    #[test]
    fn titles_apart_stay_whole() {
        let mut starts = TitleStarts::new();
        for title in ["INC-1009 a", "INC-1010 b", "short", "shorter", "ab", ""] {
            assert_eq!(starts.split(title), None, "{title}");
        }
        let long = "x".repeat(MAX_JOINED + 1);
        assert_eq!(starts.split(&long), None);
        assert_eq!(starts.split(&long), None, "not kept by its start");
        assert_eq!(starts.split("日本語のタイトル一"), None);
        let split = starts.split("日本語のタイトル二");
        assert_eq!(split, Some((0, "二")));
        assert_eq!(kept(&starts), ["日本語のタイトル"]);
        assert_eq!(
            start_shared("ab\u{e9}", "ab\u{e8}"),
            2,
            "é and è share a byte"
        );
    }

    /// Past [`MAX_STARTS`] starts, new titles are kept whole; those with a start still use it.
    #[test]
    fn the_first_starts_found_stay() {
        let mut starts = TitleStarts::new();
        for i in 0..MAX_STARTS + 10 {
            let first = format!("{i:04x} service name one");
            starts.split(&first);
            let title = format!("{i:04x} service name two");
            let split = starts.split(&title);
            if i < MAX_STARTS {
                assert_eq!(split.map(|(_, rest)| rest), Some("two"), "{title}");
            } else {
                assert_eq!(split, None, "{title}");
            }
        }
        assert_eq!(starts.kept().len(), MAX_STARTS);
        assert!(starts.recent.is_empty());
        let split = starts.split("0003 service name three");
        assert_eq!(
            joined(&starts, split).as_deref(),
            Some("0003 service name three")
        );
    }

    #[test]
    fn joined_is_at_most_its_size() {
        let start = "s".repeat(MAX_JOINED - 2);
        assert_eq!(
            Joined::new(&start, "ab").unwrap().as_str().len(),
            MAX_JOINED
        );
        assert!(Joined::new(&start, "abc").is_none());
    }

    /// The sandbox's copies of the demo resources (`--generate`, what `benches/memory.sh`
    /// loads: 299 titles of all kinds, round-robin, each with its number): after the first
    /// rounds, a title keeps a few bytes of its own; each reads back as it was.
    #[test]
    fn the_sandbox_copies_keep_little_of_their_titles() {
        let demo: serde_json::Value =
            serde_json::from_str(include_str!("../../../assets/demo/resources.json")).unwrap();
        let names: Vec<&str> = (demo.as_array().unwrap().iter())
            .filter_map(|r| r.get("display_name").or(r.get("name"))?.as_str())
            .collect();
        assert!(names.len() > 250, "{}", names.len());
        let mut starts = TitleStarts::new();
        let (mut titles, mut kept) = (0, 0);
        for n in 1..=20 * names.len() {
            let title = format!("{} · copy {n}", names[(n - 1) % names.len()]);
            let split = starts.split(&title);
            if n > 10 * names.len() {
                titles += title.len();
                kept += split.map_or(title.len(), |(_, rest)| rest.len());
            }
            if split.is_some() {
                assert_eq!(joined(&starts, split).unwrap(), title);
            }
        }
        assert!(kept * 5 < titles, "{kept} of {titles} bytes");
    }
}
