//! What a `:watch` look found changed in a row (`d` on a row marked `~`): value by value, each
//! with its JSON pointer (RFC 6901), the text before and the text now, as
//! [`crate::changes::between`] finds them (numbers kept as written).

use std::sync::Arc;
use std::time::Instant;

use super::{Detail, FieldKind, OPEN_IN_BACKGROUND_BYTES, OpenDetail, detail_of};
use crate::api::PageItem;
use crate::app::job::{JobOutput, Work};
use crate::app::pane::{Ctx, Topic};
use crate::app::{Command, Notice, RequestId};
use crate::changes::Change;
use appdeck_listing::{BodyError, Followed, NotLive};

/// A look's change to a large row being laid out off the UI thread, for the detail following it.
#[derive(Clone, Debug)]
pub(crate) struct Following {
    request: RequestId,
    /// When the look found the change: the title's "changed by a look … ago".
    at: Instant,
    /// The looks told until the job answers, followed then from the text it laid out.
    looks_since: Vec<(Arc<Followed>, Instant)>,
}

/// The most changes listed; past it, the detail says how many more there are.
pub(crate) const MAX_CHANGES: usize = 500;

impl Detail {
    /// This detail (of the row as it is `now`) with what changed since `was` at the top of its
    /// fields. When either text is not JSON, the whole text is the one change.
    pub(crate) fn with_changes_since(self, was: &str, now: &str) -> Detail {
        let is_json = |text: &str| serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok();
        let mut changes = match is_json(was) && is_json(now) {
            true => crate::changes::between(was, now),
            false => vec![Change {
                pointer: String::new(),
                before: Some(was.to_owned()),
                after: Some(now.to_owned()),
            }],
        };
        let count = changes.len();
        changes.truncate(MAX_CHANGES);
        self.with_changes(&changes, count)
    }

    /// A `:watch` look found this resource changed or gone (`found`): the detail shows it as
    /// it is now, what changed at the top of its fields (as `d` shows it), its title saying
    /// when; or says it is gone, as the list does. Its text is then what `y`, `:export` and `R`
    /// take. The reader's place stays ([`Detail::keep_place_in`]). A row larger than
    /// [`OPEN_IN_BACKGROUND_BYTES`] is laid out by an [`OpenDetail`] job, as the list's `Enter`
    /// opens it, the detail saying it is updating meanwhile; the looks told until it answers
    /// are followed then, from the text it shows.
    pub(crate) fn follow(
        &mut self,
        found: &Arc<Followed>,
        at: Instant,
        cx: &mut Ctx,
    ) -> Vec<Command> {
        if let Some(following) = &mut self.following {
            following.looks_since.push((Arc::clone(found), at));
            return Vec::new();
        }
        let (Some(sent), PageItem::Resource(resource)) = (&self.sent, self.item.as_ref()) else {
            return Vec::new();
        };
        let Some(id) = resource.id.get() else {
            return Vec::new();
        };
        let row = match found.of(id, sent) {
            None => return Vec::new(),
            Some(None) => {
                self.not_live = self.not_live.or(Some(NotLive::Gone));
                return Vec::new();
            }
            Some(Some(row)) => row,
        };
        if row.json_len() > OPEN_IN_BACKGROUND_BYTES {
            let request = cx.ids.issue();
            let said = format!(
                "a look changed this resource: laying out its {:.1} MB…",
                row.json_len() as f64 / 1e6
            );
            cx.say_about(Topic::Following, Notice::Info(said));
            let job = Work::new(OpenDetail {
                row,
                bodies: found.bodies.clone(),
                changed_since: Some(Box::from(&**sent)),
                not_live: None,
            });
            self.following = Some(Following {
                request,
                at,
                looks_since: Vec::new(),
            });
            return vec![Command::Run { id: request, job }];
        }
        match detail_of(&row, &found.bodies, Some(sent)) {
            Ok(fresh) => self.keep_place_in(fresh, at),
            Err(error) => cx.error(format!("cannot follow the resource's change: {error}")),
        }
        Vec::new()
    }

    /// Whether `request` is the job laying out the change a look found.
    pub(super) fn is_following(&self, request: RequestId) -> bool {
        self.following
            .as_ref()
            .is_some_and(|f| f.request == request)
    }

    /// The job laying out a look's change answered (`laid_out`): the detail takes its place,
    /// then follows the looks told since.
    pub(super) fn followed(&mut self, laid_out: JobOutput, cx: &mut Ctx) -> Vec<Command> {
        let Some(following) = self.following.take() else {
            return Vec::new();
        };
        cx.take_back(Topic::Following);
        match laid_out.take::<Result<Detail, BodyError>>() {
            Some(Ok(fresh)) => self.keep_place_in(fresh, following.at),
            Some(Err(error)) => cx.error(format!("cannot follow the resource's change: {error}")),
            None => {}
        }
        let mut commands = Vec::new();
        for (found, at) in following.looks_since {
            commands.extend(self.follow(&found, at, cx));
        }
        commands
    }

    /// `fresh`, this resource as a look found it, in this detail's place: the reader's place
    /// stays (the pane in focus, the raw pane's side, the folds, the cursors, the search), and
    /// the reports' lines.
    fn keep_place_in(&mut self, mut fresh: Detail, now: Instant) {
        // The reports sent about it are the same resource's: their lines stay at the end.
        let reports = (self.fields.iter())
            .position(|f| f.kind == FieldKind::Section && f.label == super::reports::HEADING);
        if let Some(at) = reports {
            fresh.fields.extend(self.fields.drain(at..));
            fresh.fields_width = super::fields_width(&fresh.fields);
        }
        fresh.reports = std::mem::take(&mut self.reports);
        fresh.focus = self.focus;
        fresh.raw_source = self.raw_source;
        fresh.raw_wrap = self.raw_wrap;
        fresh.search = self.search.take();
        fresh.exporting = self.exporting.take();
        // A look brings the service's copy: no longer the one from before a report.
        fresh.not_live = self.not_live.filter(|n| *n != NotLive::Reported);
        fresh.changed_by_look = Some(now);
        fresh.tree.keep_folds_of(&self.tree);
        for pane in [super::DetailPart::Tree, super::DetailPart::Raw] {
            let (was, len) = (self.cursor(pane), fresh.pane_len(pane));
            let cursor = fresh.cursor_mut(pane);
            cursor.selected = was.selected.min(len.saturating_sub(1));
            cursor.offset = was.offset.min(cursor.selected);
        }
        fresh.run_search();
        *self = fresh;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn listed(was: &str, now: &str) -> Vec<(String, String)> {
        let detail = Detail::open_sent(Arc::new(appdeck_listing::Row::item_of(now)), now);
        let detail = detail.with_changes_since(was, now);
        let lines = detail
            .fields
            .iter()
            .map(|f| (f.label.clone(), f.value.clone()));
        lines.collect()
    }

    #[test]
    fn a_long_list_of_changes_is_cut_and_counted() {
        let items = |plus: usize| {
            let values: Vec<String> = (0..MAX_CHANGES + 7)
                .map(|i| (i + plus).to_string())
                .collect();
            format!(
                r#"{{"id":"r1","properties":{{"n":[{}]}}}}"#,
                values.join(",")
            )
        };
        let lines = listed(&items(0), &items(1));
        assert_eq!(
            lines[0].1,
            format!("{} fields; the first {MAX_CHANGES} here", MAX_CHANGES + 7)
        );
        assert_eq!(lines[1], ("/properties/n/0".to_owned(), "0 → 1".to_owned()));
    }

    #[test]
    fn a_text_that_is_not_json_is_one_change_of_the_whole() {
        let lines = listed("not json", r#"{"id":"r1"}"#);
        assert_eq!(
            lines[1],
            (
                "(the whole item)".to_owned(),
                r#"not json → {"id":"r1"}"#.to_owned()
            )
        );
    }
}
