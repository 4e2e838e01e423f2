//! The `[keys]` table of `config.toml`, read as written: which action gets which keys, globally
//! (`quit = ["x"]`) or in one pane (`[keys.browser]` then `open = ["l", "Enter"]`), each with
//! its line. Whether the names and keys mean anything is for the keymap to say
//! (`crate::app::keymap::Keymap::with_entries`, through `app::settings`), which knows the actions.

use toml::de::{DeTable, DeValue};

use crate::config::located::{LineProblem, line_of};

/// One `action = ["key", ...]` line of `[keys]` or of `[keys.PANE]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyEntry {
    /// The pane of a `[keys.PANE]` table and the line that names it; `None` at the top level.
    pub pane: Option<(String, usize)>,
    pub action: String,
    /// The line of the action's name.
    pub line: usize,
    /// Each key as written, with its line (an array may span lines).
    pub keys: Vec<(String, usize)>,
}

const HOW_TO_WRITE: &str = "write `action = [\"key\", ...]` at the top of [keys] (every pane) or \
     in a [keys.PANE] table (one pane); `appdeck keys` lists the actions and their panes";

/// Reads the `keys` table of the parsed config file (absent: no entries).
pub(crate) fn read(file: &DeTable, text: &str) -> Result<Vec<KeyEntry>, LineProblem> {
    let Some(keys) = file.get("keys") else {
        return Ok(Vec::new());
    };
    let at = |span: std::ops::Range<usize>| line_of(text, span.start);
    let DeValue::Table(table) = keys.get_ref() else {
        return Err(LineProblem::new(
            at(keys.span()),
            format!("`keys` must be a table; {HOW_TO_WRITE}"),
        ));
    };
    let mut entries = Vec::new();
    for (name, value) in table.iter() {
        let line = at(name.span());
        let name = crate::sanitize::line(name.get_ref()).into_owned();
        match value.get_ref() {
            DeValue::Table(pane) => {
                for (action, value) in pane.iter() {
                    let action_line = at(action.span());
                    let action = crate::sanitize::line(action.get_ref()).into_owned();
                    if let DeValue::Table(_) = value.get_ref() {
                        return Err(LineProblem::new(
                            action_line,
                            format!(
                                "[keys.{name}.{action}]: tables go one level deep only; {HOW_TO_WRITE}"
                            ),
                        ));
                    }
                    let keys = key_list(value, text, &format!("[keys.{name}] {action}"))?;
                    entries.push(KeyEntry {
                        pane: Some((name.clone(), line)),
                        action,
                        line: action_line,
                        keys,
                    });
                }
            }
            _ => {
                let keys = key_list(value, text, &format!("[keys] {name}"))?;
                entries.push(KeyEntry {
                    pane: None,
                    action: name,
                    line,
                    keys,
                });
            }
        }
    }
    Ok(entries)
}

/// The keys of one action: a list of strings (or one string), each with its line.
fn key_list(
    value: &toml::Spanned<DeValue>,
    text: &str,
    what: &str,
) -> Result<Vec<(String, usize)>, LineProblem> {
    let line = line_of(text, value.span().start);
    let not_keys = || {
        LineProblem::new(
            line,
            format!("{what}: give a list of keys as strings, e.g. [\"x\", \"ctrl-x\"]"),
        )
    };
    match value.get_ref() {
        DeValue::String(key) => Ok(vec![(key.to_string(), line)]),
        DeValue::Array(items) => items
            .iter()
            .map(|item| match item.get_ref() {
                DeValue::String(key) => Ok((key.to_string(), line_of(text, item.span().start))),
                _ => Err(not_keys()),
            })
            .collect(),
        _ => Err(not_keys()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str) -> Result<Vec<KeyEntry>, LineProblem> {
        let file = DeTable::parse(text).expect("valid TOML");
        read(file.get_ref(), text)
    }

    #[test]
    fn top_level_and_pane_entries_with_their_lines() {
        let mut entries = read_text(
            "theme = \"dark\"\n[keys]\nquit = [\"x\"]\n\n[keys.browser]\nopen = [\n  \"l\",\n  \"Enter\",\n]\n",
        )
        .unwrap();
        entries.sort_by_key(|e| e.line);
        assert_eq!(
            entries,
            vec![
                KeyEntry {
                    pane: None,
                    action: "quit".into(),
                    line: 3,
                    keys: vec![("x".into(), 3)],
                },
                KeyEntry {
                    pane: Some(("browser".into(), 5)),
                    action: "open".into(),
                    line: 6,
                    keys: vec![("l".into(), 7), ("Enter".into(), 8)],
                },
            ]
        );
        assert_eq!(read_text("[profiles.a]\n").unwrap(), Vec::new());
    }

    #[test]
    fn shapes_that_are_not_keys() {
        let not_a_table = read_text("keys = 3").unwrap_err();
        assert_eq!(not_a_table.line, 1);
        assert!(not_a_table.message.contains("must be a table"));
        let not_strings = read_text("[keys]\n\nquit = [1]").unwrap_err();
        assert_eq!(not_strings.line, 3);
        assert!(
            not_strings
                .message
                .contains("[keys] quit: give a list of keys"),
            "{not_strings:?}"
        );
        let too_deep = read_text("[keys.browser.open]\nx = 1").unwrap_err();
        assert!(too_deep.message.contains("one level deep"), "{too_deep:?}");
    }
}
