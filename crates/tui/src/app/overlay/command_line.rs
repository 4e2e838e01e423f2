//! The `:` command line: what it understands, and Tab completion. A new command is a variant of
//! [`LineCommand`], a word in [`parse`], a line in [`COMMANDS`] (for completion and the hint) and
//! an arm in `App::run_line_command` (`global.rs`).

use unicode_width::UnicodeWidthStr;

/// A parsed command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum LineCommand {
    /// `:resources`: back to the resource list.
    Resources,
    /// `:types`: the known resource types.
    Types,
    /// `:type NAME` filters by type; `:type` alone clears the filter.
    Type(Option<String>),
    Refresh,
    Help,
    Quit,
    /// `:report` opens a blank report; `:report PATH` opens a report file.
    Report(Option<String>),
    /// `:profile NAME` switches to another profile of the config file; `:profile` lists them.
    Profile(Option<String>),
    /// `:history`: the reports and connects sent.
    History,
    /// `:overview`: the loaded rows in charts.
    Overview,
    /// `:where EXPR` keeps the list's rows for which the jq expression is true; `:where` alone
    /// clears it.
    Where(Option<String>),
    /// `:connect` composes a connect (as `C`); `:connect new` a new app inferred from the loaded
    /// rows; `:connect PATH` opens a connect payload file.
    Connect(Option<String>),
    /// `:sort COLUMN [desc]` sorts the list (its words after `sort`; none or `off`: unsorted).
    Sort(String),
    /// `:columns +PATH -NAME`: the list's columns (its words after `columns`; none: say which).
    Columns(String),
    /// `:export PATH` writes what the pane shows to a file; `:export! PATH` overwrites one.
    Export {
        path: String,
        overwrite: bool,
    },
    /// `:watch SECS` looks at the list again every SECS seconds; `:watch off` stops.
    Watch(Option<std::time::Duration>),
    /// `:load all` (or `:load`): every page of the list, as `L`.
    LoadAll,
}

/// The commands, with what the completion hint says of them.
pub(crate) const COMMANDS: [(&str, &str); 18] = [
    ("resources", "back to the resource list"),
    ("types", "the known resource types"),
    ("type", "type NAME: filter by type (no name: all types)"),
    ("refresh", "reload from the first page"),
    ("help", "the keys of this pane"),
    (
        "report",
        "report [PATH]: write a task report (blank, or from a file)",
    ),
    (
        "profile",
        "profile NAME: switch to another profile of the config file (no name: list them)",
    ),
    ("history", "the reports and connects sent"),
    ("overview", "the loaded rows in charts, by type and status"),
    (
        "where",
        "where EXPR: keep the rows for which the jq expression is true (none: all rows)",
    ),
    (
        "connect",
        "connect [new|PATH]: compose an app version (new: types inferred from the list)",
    ),
    (
        "sort",
        "sort COLUMN [desc]: sort the list (type, name, status, id, external_id, updated_at; off)",
    ),
    (
        "columns",
        "columns +PATH -NAME: add a column by path, remove one (reset; none: list them)",
    ),
    (
        "export",
        "export PATH: write the rows shown (or the resource) to .csv, .json or .ndjson",
    ),
    ("export!", "export! PATH: export, overwriting PATH"),
    (
        "watch",
        "watch SECS: list again every SECS seconds, marking what changed (off: stop)",
    ),
    ("load", "load all: every page of the list (as L; Esc stops)"),
    ("quit", "quit appdeck"),
];

pub(crate) fn parse(line: &str) -> Result<LineCommand, String> {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    match word {
        "resources" | "res" | "r" => Ok(LineCommand::Resources),
        "types" => Ok(LineCommand::Types),
        "type" | "t" => Ok(LineCommand::Type(
            (!rest.is_empty()).then(|| rest.to_owned()),
        )),
        "refresh" => Ok(LineCommand::Refresh),
        "history" => Ok(LineCommand::History),
        "overview" => Ok(LineCommand::Overview),
        "where" => Ok(LineCommand::Where(
            (!rest.is_empty()).then(|| rest.to_owned()),
        )),
        "help" | "h" => Ok(LineCommand::Help),
        "quit" | "q" => Ok(LineCommand::Quit),
        "profile" => Ok(LineCommand::Profile(
            (!rest.is_empty()).then(|| rest.to_owned()),
        )),
        "report" => Ok(LineCommand::Report(
            (!rest.is_empty()).then(|| rest.to_owned()),
        )),
        "connect" => Ok(LineCommand::Connect(
            (!rest.is_empty()).then(|| rest.to_owned()),
        )),
        "sort" => Ok(LineCommand::Sort(rest.to_owned())),
        "columns" | "cols" => Ok(LineCommand::Columns(rest.to_owned())),
        "export" | "export!" if rest.is_empty() => Err(format!(
            "{word} PATH: name the file (.csv, .json or .ndjson)"
        )),
        "export" | "export!" => Ok(LineCommand::Export {
            path: rest.to_owned(),
            overwrite: word == "export!",
        }),
        "watch" => parse_watch(rest).map(LineCommand::Watch),
        "load" if rest.is_empty() || rest == "all" => Ok(LineCommand::LoadAll),
        "load" => Err(format!(
            "load all: every page; not {:?}",
            crate::sanitize::line(rest)
        )),
        "" => Err("type a command; Tab lists them".to_owned()),
        other => Err(format!("unknown command {other:?}; Tab lists the commands")),
    }
}

/// `:watch`'s argument: whole seconds (`5` or `5s`), or `off`.
fn parse_watch(rest: &str) -> Result<Option<std::time::Duration>, String> {
    use crate::app::panes::browser::watch::MAX_EVERY;
    if rest == "off" {
        return Ok(None);
    }
    let usage = "watch SECS (every SECS seconds, 1 to 86400) or watch off";
    let digits = rest.strip_suffix('s').unwrap_or(rest);
    match digits.parse::<u64>() {
        Ok(secs) if (1..=MAX_EVERY.as_secs()).contains(&secs) => {
            Ok(Some(std::time::Duration::from_secs(secs)))
        }
        _ if rest.is_empty() => Err(format!("usage: {usage}")),
        _ => Err(format!(
            "not an interval: {:?}; {usage}",
            crate::sanitize::line(rest)
        )),
    }
}

/// Completes `line`: the candidates that fit, and the line extended by what they share.
pub(crate) fn complete<'a>(
    line: &str,
    types: impl Iterator<Item = &'a String>,
) -> (String, Vec<String>) {
    let trimmed = line.trim_start();
    let (candidates, prefix): (Vec<String>, &str) = match trimmed.split_once(' ') {
        Some(("type" | "t", partial)) => (
            types
                .filter(|t| t.starts_with(partial.trim_start()))
                .cloned()
                .collect(),
            "type ",
        ),
        Some(_) => (Vec::new(), ""),
        None => (
            COMMANDS
                .iter()
                .map(|(c, _)| c.to_string())
                .filter(|c| c.starts_with(trimmed))
                .collect(),
            "",
        ),
    };
    let completed = match candidates.as_slice() {
        [] => line.to_owned(),
        [only] if prefix.is_empty() && only == "type" => "type ".to_owned(),
        [only] => format!("{prefix}{only}"),
        many => format!("{prefix}{}", common_prefix(many)),
    };
    // Never shorten what the user typed (e.g. "type  x" with odd spacing).
    let completed = if completed.len() < line.len() {
        line.to_owned()
    } else {
        completed
    };
    (completed, candidates)
}

/// Completes `profile NAME` over `profiles`; `None` when `line` is not a `:profile` with a
/// name begun (then [`complete`] applies).
pub(crate) fn complete_profile(line: &str, profiles: &[String]) -> Option<(String, Vec<String>)> {
    let partial = line.trim_start().strip_prefix("profile ")?.trim_start();
    let candidates: Vec<String> = profiles
        .iter()
        .filter(|p| p.starts_with(partial))
        .cloned()
        .collect();
    let completed = match candidates.as_slice() {
        [] => line.to_owned(),
        [only] => format!("profile {only}"),
        many => format!("profile {}", common_prefix(many)),
    };
    let completed = if completed.len() < line.len() {
        line.to_owned()
    } else {
        completed
    };
    Some((completed, candidates))
}

/// The candidate after the one on `line`, for a second Tab: `line` is "type NAME" or a command
/// word; when it holds none of the candidates (only their common start), the first one.
pub(crate) fn cycle(line: &str, candidates: &[String]) -> Option<String> {
    let trimmed = line.trim_start();
    let (prefix, word) = match trimmed.split_once(' ') {
        Some((command, rest)) => (format!("{command} "), rest.trim_start()),
        None => (String::new(), trimmed),
    };
    let next = match candidates.iter().position(|c| c == word) {
        Some(i) => candidates.get((i + 1) % candidates.len())?,
        None => candidates.first()?,
    };
    Some(format!("{prefix}{next}"))
}

/// Which of `candidates` the line holds now (Tab cycled to it), if any.
pub(crate) fn chosen(line: &str, candidates: &[String]) -> Option<usize> {
    let trimmed = line.trim_start();
    let word = match trimmed.split_once(' ') {
        Some((_, rest)) => rest.trim_start(),
        None => trimmed,
    };
    candidates.iter().position(|c| c == word)
}

/// The row of candidates (or commands) above the line, in `room` cells: all of them when they
/// fit; else as many as fit around the one chosen (from the first when none is), with `…`
/// where some are left out before and `… +N` saying how many after.
pub(crate) fn candidates_row(items: &[&str], chosen: Option<usize>, room: usize) -> String {
    const GAP: &str = "  ";
    let width = |item: &&str| item.width();
    let whole: usize =
        items.iter().map(width).sum::<usize>() + GAP.len() * items.len().saturating_sub(1);
    if whole <= room {
        return items.join(GAP);
    }
    let after_mark = |hidden: usize| match hidden {
        0 => String::new(),
        n => format!("{GAP}… +{n}"),
    };
    let fits = |start: usize, end: usize| {
        let before = if start > 0 { 1 + GAP.len() } else { 0 };
        let shown: usize = items[start..end].iter().map(width).sum::<usize>()
            + GAP.len() * (end - start).saturating_sub(1);
        before + shown + after_mark(items.len() - end).width() <= room
    };
    let chosen = chosen.filter(|&c| c < items.len()).unwrap_or(0);
    let mut start = 0;
    while start < chosen && !fits(start, chosen + 1) {
        start += 1;
    }
    let mut end = (chosen + 1).min(items.len());
    while end < items.len() && fits(start, end + 1) {
        end += 1;
    }
    let mut row = String::new();
    if start > 0 {
        row.push('…');
        row.push_str(GAP);
    }
    row.push_str(&items[start..end].join(GAP));
    row.push_str(&after_mark(items.len() - end));
    row
}

/// The commands run so far, oldest first, for Up/Down on the command line.
#[derive(Clone, Debug, Default)]
pub struct History {
    entries: Vec<String>,
}

/// Enough to go back a long way; the oldest drop off.
const HISTORY_LIMIT: usize = 100;

impl History {
    /// Remembers `line` (not blank, not the same as the last one).
    pub(crate) fn push(&mut self, line: &str) {
        let line = line.trim();
        if line.is_empty() || self.entries.last().is_some_and(|l| l == line) {
            return;
        }
        if self.entries.len() == HISTORY_LIMIT {
            self.entries.remove(0);
        }
        self.entries.push(line.to_owned());
    }

    /// Up from `at` (None: from the line being typed): the index and text of the earlier command.
    pub(crate) fn older(&self, at: Option<usize>) -> Option<(usize, &str)> {
        let index = match at {
            Some(0) => 0,
            Some(i) => i - 1,
            None => self.entries.len().checked_sub(1)?,
        };
        Some((index, self.entries.get(index)?))
    }

    /// Down from `at`: the later command, or None past the newest (back to an empty line).
    pub(crate) fn newer(&self, at: usize) -> Option<(usize, &str)> {
        let index = at + 1;
        Some((index, self.entries.get(index)?))
    }
}

fn common_prefix(words: &[String]) -> String {
    let first = &words[0];
    let mut end = first.len();
    for w in &words[1..] {
        end = end.min(
            first
                .bytes()
                .zip(w.bytes())
                .take_while(|(a, b)| a == b)
                .count(),
        );
    }
    while !first.is_char_boundary(end) {
        end -= 1;
    }
    first[..end].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 35 item 14: the row of commands was cut at the screen's edge without a sign, and
    /// `quit` never showed. What is left out is said (`… +N`), and the candidate Tab chose is
    /// always in view.
    #[test]
    fn the_candidates_row_says_what_it_leaves_out_and_shows_the_chosen() {
        let items = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"];
        assert_eq!(
            candidates_row(&items, None, 80),
            "alpha  beta  gamma  delta  epsilon  zeta"
        );
        assert_eq!(candidates_row(&items, None, 26), "alpha  beta  gamma  … +3");
        let last = candidates_row(&items, Some(5), 26);
        assert_eq!(last, "…  delta  epsilon  zeta");
        assert!(last.width() <= 26);
        let middle = candidates_row(&items, Some(3), 26);
        assert!(
            middle.contains("delta") && middle.ends_with("… +2"),
            "{middle}"
        );
        assert!(middle.width() <= 26, "{middle}");
        let commands: Vec<&str> = COMMANDS.iter().map(|(c, _)| *c).collect();
        let all = commands.len();
        let row = candidates_row(&commands, None, 60);
        assert!(
            row.ends_with(&format!("… +{}", all - row.split("  ").count() + 1)),
            "{row}"
        );
        let candidates: Vec<String> = commands.iter().map(|c| c.to_string()).collect();
        let quit = chosen("quit", &candidates);
        assert!(candidates_row(&commands, quit, 60).contains("quit"));
    }

    #[test]
    fn parses_commands() {
        assert_eq!(
            parse(" type repository "),
            Ok(LineCommand::Type(Some("repository".into())))
        );
        assert_eq!(parse("type"), Ok(LineCommand::Type(None)));
        assert_eq!(parse("q"), Ok(LineCommand::Quit));
        assert_eq!(
            parse("where  .properties.stars > 100 "),
            Ok(LineCommand::Where(Some(".properties.stars > 100".into())))
        );
        assert_eq!(parse("where"), Ok(LineCommand::Where(None)));
        assert_eq!(complete("wh", std::iter::empty()).0, "where");
        assert!(parse("frobnicate").unwrap_err().contains("unknown command"));
        assert_eq!(
            parse("sort name desc"),
            Ok(LineCommand::Sort("name desc".into()))
        );
        assert_eq!(parse("sort"), Ok(LineCommand::Sort(String::new())));
        assert_eq!(
            parse("export  ~/out dir/rows.csv "),
            Ok(LineCommand::Export {
                path: "~/out dir/rows.csv".into(),
                overwrite: false
            })
        );
        assert_eq!(
            parse("export! rows.ndjson"),
            Ok(LineCommand::Export {
                path: "rows.ndjson".into(),
                overwrite: true
            })
        );
        assert!(parse("export").unwrap_err().contains("name the file"));
    }

    #[test]
    fn a_second_tab_cycles_through_the_candidates() {
        let names: Vec<String> = vec!["deployment".into(), "dashboard".into()];
        assert_eq!(cycle("type d", &names).as_deref(), Some("type deployment"));
        assert_eq!(
            cycle("type deployment", &names).as_deref(),
            Some("type dashboard")
        );
        assert_eq!(
            cycle("type dashboard", &names).as_deref(),
            Some("type deployment")
        );
        let words: Vec<String> = vec!["refresh".into(), "resources".into()];
        assert_eq!(cycle("refresh", &words).as_deref(), Some("resources"));
        assert_eq!(cycle("x", &[]), None);
    }

    #[test]
    fn history_recalls_older_and_newer_commands() {
        let mut history = History::default();
        assert_eq!(history.older(None), None);
        for line in ["type repo", "refresh", "refresh", "  "] {
            history.push(line);
        }
        assert_eq!(history.older(None), Some((1, "refresh")));
        assert_eq!(history.older(Some(1)), Some((0, "type repo")));
        assert_eq!(history.older(Some(0)), Some((0, "type repo")));
        assert_eq!(history.newer(0), Some((1, "refresh")));
        assert_eq!(history.newer(1), None);
    }

    #[test]
    fn completes_and_cycles_profile_names() {
        let profiles: Vec<String> = vec!["prod".into(), "preview".into(), "dev".into()];
        assert_eq!(complete_profile("type d", &profiles), None);
        assert_eq!(complete("prof", std::iter::empty()).0, "profile");
        let (line, candidates) = complete_profile("profile d", &profiles).unwrap();
        assert_eq!((line.as_str(), candidates.len()), ("profile dev", 1));
        let (line, candidates) = complete_profile("profile p", &profiles).unwrap();
        assert_eq!(line, "profile pr");
        assert_eq!(candidates, vec!["prod", "preview"]);
        assert_eq!(cycle(&line, &candidates).as_deref(), Some("profile prod"));
        assert_eq!(
            cycle("profile prod", &candidates).as_deref(),
            Some("profile preview")
        );
        assert_eq!(
            parse("profile  prod "),
            Ok(LineCommand::Profile(Some("prod".into())))
        );
        assert_eq!(parse("profile"), Ok(LineCommand::Profile(None)));
    }

    #[test]
    fn completes_commands_and_type_names() {
        let types: Vec<String> = vec!["deployment".into(), "dashboard".into(), "repository".into()];
        assert_eq!(complete("re", types.iter()).0, "re");
        assert_eq!(complete("res", types.iter()).0, "resources");
        assert_eq!(complete("ty", types.iter()).0, "type");
        assert_eq!(complete("types", types.iter()).0, "types");
        assert_eq!(parse("types"), Ok(LineCommand::Types));
        let (line, candidates) = complete("type d", types.iter());
        assert_eq!(line, "type d");
        assert_eq!(candidates, vec!["deployment", "dashboard"]);
        assert_eq!(complete("type r", types.iter()).0, "type repository");
        assert_eq!(complete("type de", types.iter()).0, "type deployment");
    }
}
