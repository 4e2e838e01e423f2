//! The types view: every resource type appdeck knows (from connects it sent, `--types` files, a
//! profile's `types`, the demo), and the type names seen in loaded resources that nothing
//! defines. One row per type, its newest definition first; `Enter` opens it (`type_detail`).
//! The known types are loaded by the runtime off the UI thread ([`Command::LoadTypes`]).

pub(crate) mod keys;
mod update;

use std::collections::BTreeMap;
use std::sync::Arc;

use ratatui::layout::Rect;

use crate::app::KnownTypes;
use crate::app::action::{Command, RequestId, RequestIds};
use crate::app::widgets::FilteredList;
use crate::catalog::{KnownType, NO_DEFINITION};
use crate::sanitize;

/// One row of the table, its texts sanitised once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeRow {
    /// The type's name as registered, for `b` and lookups (sanitise before showing).
    pub name: String,
    pub shown_name: String,
    pub display_name: String,
    /// `app 1.2.0`, with `+N` when older versions are known too, and `, removed in 1.5.0` when
    /// the app's newest known version no longer defines it (as `appdeck types` says it).
    pub app_version: String,
    /// The app version that dropped it (see [`KnownType::removed_in`]).
    pub removed_in: Option<String>,
    /// The lifecycle stage, or `removed` for a type the app's newest version dropped (a short
    /// word that stays whole where the version beside it is cut).
    pub stage: String,
    /// `LRCUDH` marks (see `Capabilities::marks`).
    pub capabilities: String,
    pub actions: Option<usize>,
    /// Rows of this type loaded in the resource list.
    pub loaded: usize,
    /// Where the newest definition came from.
    pub source: String,
    /// Its index in the catalog; `None` for a name seen in resources that nothing defines.
    pub known: Option<usize>,
}

impl TypeRow {
    fn defined(index: usize, known: &KnownType, loaded: usize) -> Option<Self> {
        let newest = known.newest()?;
        let versions = known.definitions.len();
        let text = |f: &crate::api::Field<String>| {
            f.get()
                .map(|s| sanitize::line(s).into_owned())
                .unwrap_or_default()
        };
        let d = &newest.definition;
        let mut app_version = newest.app_version_label();
        if versions > 1 {
            app_version.push_str(&format!(" +{}", versions - 1));
        }
        let removed_in = known
            .removed_in
            .as_deref()
            .map(|v| sanitize::line(v).into_owned());
        if let Some(version) = &removed_in {
            app_version.push_str(&format!(", removed in {version}"));
        }
        Some(TypeRow {
            name: newest.name.clone(),
            shown_name: sanitize::line(&newest.name).into_owned(),
            display_name: text(&d.display_name),
            app_version,
            stage: match removed_in {
                Some(_) => "removed".to_owned(),
                None => text(&d.lifecycle_stage),
            },
            capabilities: newest.capabilities().marks(),
            actions: Some(newest.action_count()),
            loaded,
            source: newest.source.to_string(),
            known: Some(index),
            removed_in,
        })
    }

    fn undefined(name: &str, loaded: usize) -> Self {
        TypeRow {
            name: name.to_owned(),
            shown_name: sanitize::line(name).into_owned(),
            display_name: NO_DEFINITION.to_owned(),
            app_version: String::new(),
            stage: String::new(),
            capabilities: String::new(),
            actions: None,
            loaded,
            source: String::new(),
            known: None,
            removed_in: None,
        }
    }
}

#[derive(Clone, Debug)]
pub struct TypesView {
    /// `None` until the runtime has loaded them.
    pub known: Option<Arc<KnownTypes>>,
    /// The load in flight.
    pub loading: Option<RequestId>,
    pub rows: Vec<TypeRow>,
    /// Loaded rows per type name (every name seen, zero for those filtered out of the list).
    counts: BTreeMap<String, usize>,
    /// The rows that pass the `/` filter, and the cursor over them.
    pub list: FilteredList,
    /// A large type whose detail is being laid out in the background.
    pub opening: Option<RequestId>,
}

impl TypesView {
    /// A types view over `known` (or loading them when the runtime has not yet), with the loaded
    /// rows of each type name seen in the resource list.
    pub(crate) fn open(
        known: Option<Arc<KnownTypes>>,
        counts: BTreeMap<String, usize>,
        ids: &mut RequestIds,
    ) -> (Self, Vec<Command>) {
        let mut view = TypesView {
            known: None,
            loading: None,
            rows: Vec::new(),
            counts,
            list: FilteredList::default(),
            opening: None,
        };
        let commands = match known {
            Some(known) => {
                view.set_known(known, usize::MAX);
                Vec::new()
            }
            None => vec![view.load(ids)],
        };
        (view, commands)
    }

    /// Asks the runtime to (re)load the known types.
    pub(crate) fn load(&mut self, ids: &mut RequestIds) -> Command {
        let id = ids.issue();
        self.loading = Some(id);
        Command::LoadTypes { id }
    }

    /// Takes a new catalog; the cursor stays on the same type when it is still listed.
    pub(crate) fn set_known(&mut self, known: Arc<KnownTypes>, height: usize) {
        let selected = self.selected().map(|r| r.name.clone());
        let catalog = &known.catalog;
        let mut rows: Vec<TypeRow> = catalog
            .types()
            .iter()
            .enumerate()
            .filter_map(|(i, t)| {
                let loaded = self.counts.get(&t.name).copied().unwrap_or(0);
                TypeRow::defined(i, t, loaded)
            })
            .collect();
        rows.extend(
            catalog
                .undefined(self.counts.keys().map(String::as_str))
                .iter()
                .map(|name| TypeRow::undefined(name, self.counts[name])),
        );
        self.rows = rows;
        self.known = Some(known);
        self.refilter(height);
        if let Some(name) = selected
            && let Some(index) = (self.list.visible.iter()).position(|&i| self.rows[i].name == name)
        {
            self.list
                .cursor
                .select(index, self.list.visible.len(), height);
        }
    }

    /// New counts of loaded rows per type (the list loaded more): the rows follow, the cursor
    /// stays on its type.
    pub(crate) fn set_counts(&mut self, counts: BTreeMap<String, usize>, body: Rect) {
        if counts == self.counts {
            return;
        }
        self.counts = counts;
        if let Some(known) = self.known.clone() {
            let height = self.table_height(body);
            self.set_known(known, height);
        }
    }

    pub(crate) fn selected(&self) -> Option<&TypeRow> {
        self.rows.get(self.list.selected()?)
    }

    /// Recomputes the rows that pass the `/` filter (name, display name, app, stage, source).
    pub(crate) fn refilter(&mut self, height: usize) {
        self.list.refilter(
            &self.rows,
            |r| {
                [
                    &r.shown_name,
                    &r.display_name,
                    &r.app_version,
                    &r.stage,
                    &r.source,
                ]
                .map(String::as_str)
            },
            height,
        );
    }

    pub(crate) fn areas(&self, body: Rect) -> crate::app::layout::TableAreas {
        self.list.areas(body)
    }

    pub(crate) fn table_height(&self, body: Rect) -> usize {
        self.list.height(body)
    }
}

#[cfg(test)]
pub(crate) mod tests;
