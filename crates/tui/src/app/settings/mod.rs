//! The terminal UI's own settings in `config.toml` (the theme, the keys), read apart from the
//! connection settings. `config` reads the text of `[theme]` and `[keys]`; this lays the keys
//! over the app's keymap, which only the app knows (so `config` never depends on `app`): a mistake there stops the terminal UI, `appdeck keys` and `config show`
//! with the file, the line and what to fix, but never a script's `appdeck list`.

pub(crate) mod keys;
pub(crate) mod theme;

use toml::de::DeTable;

use super::keymap::Keymap;
use crate::config::located::LineProblem;
use crate::config::{ConfigError, ConfigText, Flags, ParseProblem};
use theme::ThemeChoice;

/// What the config file says about how the terminal UI looks and which keys do what.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UiSettings {
    pub theme: ThemeChoice,
    /// The default keys with `[keys]` laid over them.
    pub keys: Keymap,
    /// The command `o` opens links with (`opener = "firefox --new-tab"`; `%s` is the URL),
    /// before `$BROWSER` and the platform's opener.
    pub opener: Option<String>,
}

/// The UI settings of the config file `flags` and the environment choose (none when there is
/// no file).
pub fn load_ui(flags: &Flags) -> Result<UiSettings, ConfigError> {
    ui_settings(crate::config::read(flags)?.text.as_ref())
}

/// The UI settings in `config`, as a pure function of its text.
pub fn ui_settings(config: Option<&ConfigText>) -> Result<UiSettings, ConfigError> {
    let Some(config) = config else {
        return Ok(UiSettings::default());
    };
    let located = |problems: Vec<LineProblem>| ConfigError::Setting {
        path: config.path.clone(),
        problems,
    };
    let file = DeTable::parse(&config.text).map_err(|e| {
        // The connection settings report syntax errors the same way; never with an excerpt.
        let line = crate::config::located::line_of(&config.text, e.span().map_or(0, |s| s.start));
        ConfigError::Parse {
            path: config.path.clone(),
            problem: ParseProblem {
                line,
                column: 1,
                message: crate::sanitize::line(e.message().trim()).into_owned(),
            },
        }
    })?;
    let file = file.get_ref();
    Ok(UiSettings {
        theme: theme::read(file, &config.text).map_err(located)?,
        keys: crate::app::settings::keys::read(file, &config.text)
            .and_then(|entries| Keymap::with_entries(&entries))
            .map_err(|problem| located(vec![problem]))?,
        opener: opener(file, &config.text).map_err(|problem| located(vec![problem]))?,
    })
}

/// The top-level `opener = "COMMAND"`: a string, or absent.
fn opener(file: &DeTable, text: &str) -> Result<Option<String>, LineProblem> {
    let Some(value) = file.get("opener") else {
        return Ok(None);
    };
    match value.get_ref() {
        toml::de::DeValue::String(line) => Ok(Some(line.to_string())),
        _ => Err(LineProblem::new(
            crate::config::located::line_of(text, value.span().start),
            "`opener` must be a string: the command that opens links, such as \
             opener = \"firefox --new-tab %s\" (%s is the URL; without it the URL goes last)",
        )),
    }
}
