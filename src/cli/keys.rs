//! `appdeck keys`: every action of the terminal UI, the keys it has now (the config file's
//! `[keys]` included) and the panes where it has them. A mistake in `[keys]` is an error here
//! too, with its line, so the command doubles as a check of the remaps.

use std::io::Write;

use serde_json::json;

use super::Failure;
use super::args::{GlobalArgs, KeysArgs, KeysOutput};
use crate::tui::{ActionKeys, Keymap, written_key};

pub fn run(args: &KeysArgs, global: &GlobalArgs, out: &mut impl Write) -> Result<(), Failure> {
    let ui = crate::tui::load_ui(&global.flags())?;
    match args.output {
        KeysOutput::Table => out.write_all(table(&ui.keys).as_bytes())?,
        KeysOutput::Json => {
            let text =
                serde_json::to_string_pretty(&as_json(&ui.keys)).map_err(std::io::Error::from)?;
            writeln!(out, "{text}")?;
        }
    }
    out.flush()?;
    Ok(())
}

/// Keys as the config file writes them: `j, Down`.
pub(super) fn written(keys: &[crate::tui::Key]) -> String {
    keys.iter()
        .map(|k| written_key(*k))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The keys column: a remapped action also says its default.
fn keys_cell(action: &ActionKeys) -> String {
    let now = written(&action.keys);
    if action.is_remapped() {
        format!("{now} (default: {})", written(action.default_keys))
    } else {
        now
    }
}

/// Aligned columns, never cut; the panes last (the longest).
fn table(keymap: &Keymap) -> String {
    let rows: Vec<[String; 4]> = keymap
        .actions()
        .iter()
        .map(|a| {
            [
                a.action.to_owned(),
                keys_cell(a),
                a.help.to_owned(),
                a.panes.join(","),
            ]
        })
        .collect();
    let headers = ["ACTION", "KEYS", "WHAT IT DOES", "PANES"];
    let width = |i: usize| {
        rows.iter()
            .map(|r| r[i].chars().count())
            .chain([headers[i].len()])
            .max()
            .unwrap_or(0)
    };
    let (w0, w1, w2) = (width(0), width(1), width(2));
    let mut text = format!(
        "{:<w0$}  {:<w1$}  {:<w2$}  {}\n",
        headers[0], headers[1], headers[2], headers[3]
    );
    for [action, keys, help, panes] in &rows {
        text.push_str(&format!(
            "{action:<w0$}  {keys:<w1$}  {help:<w2$}  {panes}\n"
        ));
    }
    // Keys come from the config file: shown as the sanitiser lets them through.
    crate::sanitize::multiline(&text).into_owned()
}

fn as_json(keymap: &Keymap) -> serde_json::Value {
    keymap
        .actions()
        .iter()
        .map(|a| {
            json!({
                "action": a.action,
                "keys": a.keys.iter().map(|k| written_key(*k)).collect::<Vec<_>>(),
                "default_keys": a.default_keys.iter().map(|k| written_key(*k)).collect::<Vec<_>>(),
                "remapped": a.is_remapped(),
                "panes": a.panes,
                "description": a.help,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::KeyEntry;

    fn remapped() -> Keymap {
        Keymap::with_entries(&[KeyEntry {
            pane: None,
            action: "quit".into(),
            line: 1,
            keys: vec![("Q".into(), 1)],
        }])
        .unwrap()
    }

    #[test]
    fn the_table_shows_a_remap_with_its_default_and_its_panes() {
        let text = table(&remapped());
        let quit = text
            .lines()
            .find(|l| l.starts_with("quit "))
            .expect("a quit row");
        assert!(quit.contains("Q (default: q)"), "{quit}");
        assert!(quit.contains("browser,detail,"), "{quit}");
        let down = text.lines().find(|l| l.starts_with("down ")).unwrap();
        assert!(down.contains("j, Down "), "{down}");
        assert!(down.contains("error_popup"), "{down}");
    }

    #[test]
    fn json_lists_every_action_with_keys_and_panes() {
        let value = as_json(&remapped());
        let quit = value
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["action"] == "quit")
            .unwrap();
        assert_eq!(quit["keys"], json!(["Q"]));
        assert_eq!(quit["default_keys"], json!(["q"]));
        assert_eq!(quit["remapped"], json!(true));
        assert!(
            quit["panes"]
                .as_array()
                .unwrap()
                .contains(&json!("composer"))
        );
    }
}
