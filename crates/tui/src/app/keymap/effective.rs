//! The keys in effect: every registered table's defaults with the config file's `[keys]` laid
//! over them, built once at start. A mistake in `[keys]` (an unknown pane or action, a key that
//! is not one, an action left without keys, a key bound twice in one pane) is an error with the
//! line to fix; nothing is ignored.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, OnceLock};

use super::syntax::{self, HOW_TO_WRITE_A_KEY};
use super::{Focus, InputMode, Key, KeyTable, registry};
use crate::app::Action;
use crate::app::settings::keys::KeyEntry;
use crate::config::located::LineProblem;

/// One table as it applies now: its own and its shared bindings, flattened, with their keys.
#[derive(Debug, PartialEq, Eq)]
pub struct EffectiveTable {
    pub id: &'static str,
    /// What the help calls the place.
    pub name: &'static str,
    bindings: Vec<EffectiveBinding>,
}

impl EffectiveTable {
    /// Every binding, most specific first (the pane's own, then the shared ones).
    pub(crate) fn bindings(&self) -> impl Iterator<Item = &EffectiveBinding> {
        self.bindings.iter()
    }

    fn defaults(table: &'static KeyTable) -> Self {
        EffectiveTable {
            id: table.id,
            name: table.name,
            bindings: table
                .bindings()
                .map(|b| EffectiveBinding {
                    name: b.name,
                    keys: b.keys.to_vec(),
                    default_keys: b.keys,
                    label: b.label(),
                    help: b.help,
                    action: b.action,
                    footer: b.footer,
                })
                .collect(),
        }
    }
}

/// One binding as it applies now.
#[derive(Clone, Debug)]
pub(crate) struct EffectiveBinding {
    pub name: &'static str,
    pub keys: Vec<Key>,
    pub default_keys: &'static [Key],
    /// The keys as the help and the footer show them: the table's own label for the default
    /// keys, the remapped keys spelled out otherwise.
    pub label: Cow<'static, str>,
    pub help: &'static str,
    pub action: fn() -> Action,
    pub footer: &'static str,
}

impl PartialEq for EffectiveBinding {
    fn eq(&self, other: &Self) -> bool {
        (self.name, &self.keys, &self.label) == (other.name, &other.keys, &other.label)
    }
}

impl Eq for EffectiveBinding {}

/// The keys of every table, in the registry's order. Cheap to clone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keymap {
    tables: Arc<Vec<Arc<EffectiveTable>>>,
}

impl Default for Keymap {
    /// The defaults of every table.
    fn default() -> Self {
        static DEFAULTS: OnceLock<Keymap> = OnceLock::new();
        DEFAULTS
            .get_or_init(|| Keymap {
                tables: Arc::new(
                    registry::TABLES
                        .iter()
                        .map(|t| Arc::new(EffectiveTable::defaults(t)))
                        .collect(),
                ),
            })
            .clone()
    }
}

/// An action's keys in some panes, for `appdeck keys` and `config show`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionKeys {
    pub action: &'static str,
    pub keys: Vec<Key>,
    pub default_keys: &'static [Key],
    /// The tables (`[keys.ID]` names) where the action has these keys.
    pub panes: Vec<&'static str>,
    /// What it does (in the first of those panes).
    pub help: &'static str,
}

impl ActionKeys {
    pub fn is_remapped(&self) -> bool {
        self.keys != self.default_keys
    }
}

impl Keymap {
    /// The defaults with `entries` (the config file's `[keys]`) laid over them: a pane's own
    /// entry wins over a top-level one. Every mistake is an error at its line.
    pub fn with_entries(entries: &[KeyEntry]) -> Result<Keymap, LineProblem> {
        if entries.is_empty() {
            return Ok(Keymap::default());
        }
        let mut top: BTreeMap<&str, (Vec<Key>, usize)> = BTreeMap::new();
        let mut per_pane: BTreeMap<(&str, &str), (Vec<Key>, usize)> = BTreeMap::new();
        for entry in entries {
            let keys = parse_keys(entry)?;
            match &entry.pane {
                None => {
                    if !registry::TABLES
                        .iter()
                        .any(|t| t.bindings().any(|b| b.name == entry.action))
                    {
                        return Err(LineProblem::new(
                            entry.line,
                            format!(
                                "[keys]: unknown action `{}`; `appdeck keys` lists the actions and their panes",
                                entry.action,
                            ),
                        ));
                    }
                    top.insert(&entry.action, (keys, entry.line));
                }
                Some((pane, pane_line)) => {
                    let Some(table) = registry::TABLES.iter().find(|t| t.id == pane) else {
                        return Err(LineProblem::new(
                            *pane_line,
                            format!(
                                "[keys.{pane}]: unknown pane `{pane}`; the panes are {}",
                                registry::TABLES.map(|t| t.id).join(", ")
                            ),
                        ));
                    };
                    if !table.bindings().any(|b| b.name == entry.action) {
                        let names: Vec<&str> = table.bindings().map(|b| b.name).collect();
                        return Err(LineProblem::new(
                            entry.line,
                            format!(
                                "[keys.{pane}]: unknown action `{}` in {pane}; its actions are {}",
                                entry.action,
                                names.join(", ")
                            ),
                        ));
                    }
                    per_pane.insert((pane, &entry.action), (keys, entry.line));
                }
            }
        }
        let mut tables = Vec::with_capacity(registry::TABLES.len());
        for table in registry::TABLES {
            let mut effective = EffectiveTable::defaults(table);
            // Where each binding's keys come from: `Some(line)` for the config file.
            let mut lines: Vec<Option<usize>> = vec![None; effective.bindings.len()];
            for (binding, line) in effective.bindings.iter_mut().zip(&mut lines) {
                let remap = per_pane
                    .get(&(table.id, binding.name))
                    .or_else(|| top.get(binding.name));
                if let Some((keys, at)) = remap {
                    binding.keys.clone_from(keys);
                    binding.label = Cow::Owned(syntax::label(keys));
                    *line = Some(*at);
                }
            }
            check_each_key_once(&effective, &lines)?;
            tables.push(Arc::new(effective));
        }
        Ok(Keymap {
            tables: Arc::new(tables),
        })
    }

    /// The effective keys of `table`. A table missing from the registry (a bug its
    /// `assert_well_formed` test catches) keeps its defaults rather than losing its keys.
    pub(crate) fn table(&self, table: &'static KeyTable) -> Arc<EffectiveTable> {
        self.tables
            .iter()
            .find(|t| t.id == table.id)
            .cloned()
            .unwrap_or_else(|| Arc::new(EffectiveTable::defaults(table)))
    }

    /// The focus of a pane or popup whose own keys are `keys`, in `mode`: while typing, the
    /// input's table applies instead.
    pub(crate) fn focus(&self, keys: &'static KeyTable, mode: InputMode) -> Focus {
        Focus {
            keys: self.table(mode.table(keys)),
            mode,
        }
    }

    pub(crate) fn tables(&self) -> impl Iterator<Item = &EffectiveTable> {
        self.tables.iter().map(|t| t.as_ref())
    }

    /// Every action with its keys and the panes where it has them, in the order the tables
    /// list them: an action remapped in one pane only shows twice.
    pub fn actions(&self) -> Vec<ActionKeys> {
        let mut actions: Vec<ActionKeys> = Vec::new();
        for table in self.tables() {
            for binding in table.bindings() {
                match actions
                    .iter_mut()
                    .find(|a| a.action == binding.name && a.keys == binding.keys)
                {
                    Some(found) => found.panes.push(table.id),
                    None => actions.push(ActionKeys {
                        action: binding.name,
                        keys: binding.keys.clone(),
                        default_keys: binding.default_keys,
                        panes: vec![table.id],
                        help: binding.help,
                    }),
                }
            }
        }
        actions
    }
}

/// The keys of an entry, each checked.
fn parse_keys(entry: &KeyEntry) -> Result<Vec<Key>, LineProblem> {
    let place = match &entry.pane {
        Some((pane, _)) => format!("[keys.{pane}] {}", entry.action),
        None => format!("[keys] {}", entry.action),
    };
    if entry.keys.is_empty() {
        return Err(LineProblem::new(
            entry.line,
            format!(
                "{place}: an action needs at least one key (an action cannot be left without keys; to free a key, give this action another one)"
            ),
        ));
    }
    let mut keys = Vec::with_capacity(entry.keys.len());
    for (text, line) in &entry.keys {
        let Some(key) = syntax::parse(text) else {
            return Err(LineProblem::new(
                *line,
                format!(
                    "{place}: {:?} is not a key; {HOW_TO_WRITE_A_KEY}",
                    crate::sanitize::line(text)
                ),
            ));
        };
        if keys.contains(&key) {
            return Err(LineProblem::new(
                *line,
                format!(
                    "{place}: `{}` is listed twice; list it once",
                    syntax::written(key)
                ),
            ));
        }
        keys.push(key);
    }
    Ok(keys)
}

/// A key bound to two actions of one pane is an error at the config line that brought it there.
fn check_each_key_once(table: &EffectiveTable, lines: &[Option<usize>]) -> Result<(), LineProblem> {
    let mut seen: HashMap<Key, usize> = HashMap::new();
    for (index, binding) in table.bindings.iter().enumerate() {
        for key in &binding.keys {
            let Some(&first) = seen.get(key) else {
                seen.insert(*key, index);
                continue;
            };
            let other = &table.bindings[first];
            // Both cannot be defaults (the default tables are well formed): point at the remap,
            // the later line when both are.
            let line = lines[index].max(lines[first]).unwrap_or(0);
            return Err(LineProblem::new(
                line,
                format!(
                    "`{key}` is bound twice in {name} ([keys.{id}]): to `{a}` and to `{b}`; give one of them another key, in every pane ([keys]) or in this one ([keys.{id}]); a pane also takes the shared keys (movement, help, quit...)",
                    key = syntax::written(*key),
                    name = table.name,
                    id = table.id,
                    a = other.name,
                    b = binding.name,
                ),
            ));
        }
    }
    Ok(())
}
