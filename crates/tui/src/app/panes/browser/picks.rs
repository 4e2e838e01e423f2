//! Rows marked with `Space`, for `:export`, `y` and `R` to act on several rows at once (`R`:
//! one report sent to each, `panes/report/many.rs`). The marks themselves, by resource id, are
//! the engine's [`appdeck_listing::Picks`].

use super::Browser;
use crate::app::pane::{Ctx, Open, Outcome};
use crate::app::panes::report::many::MarkedResource;
use appdeck_listing::RowView;

impl Browser {
    /// `Space`: marks the row under the cursor, or unmarks it, and moves to the next row (so
    /// that `Space` held marks a run). Returns how many are marked, or why the row cannot be.
    pub(crate) fn toggle_pick(&mut self, height: usize) -> Result<usize, &'static str> {
        let row = self.selected().ok_or("no row here to mark")?;
        let id = row.id().map(Box::<str>::from);
        self.picked.toggle(id)?;
        let next = self.cursor.selected + 1;
        if next < self.visible.len() {
            self.cursor.select(next, self.visible.len(), height);
        }
        Ok(self.picked.len())
    }

    pub(crate) fn is_picked(&self, row: RowView<'_>) -> bool {
        self.picked.contains(row)
    }

    /// `R` with rows marked: one report to send to each, the marked resources as listed (in
    /// the order of [`appdeck_listing::Picks::rows`]). Kept rows say so, as `R` on one does.
    pub(super) fn report_on_picked(&self, cx: &mut Ctx) -> Outcome {
        let texts = (self.listing.loaded())
            .map(|l| l.marked_texts(&self.visible, &self.picked, self.watch.as_ref()));
        let (marked, left_out) = match texts.unwrap_or(Ok((Vec::new(), Default::default()))) {
            Ok(texts) => texts,
            Err(why) => {
                cx.error(format!("{why}; nothing opened"));
                return Outcome::done();
            }
        };
        let marked: Vec<MarkedResource> = (marked.into_iter())
            .map(|(id, listed)| MarkedResource {
                id,
                listed: listed.into(),
            })
            .collect();
        if marked.is_empty() {
            cx.error(crate::app::export::all_gone(left_out, "no report to send"));
            return Outcome::done();
        }
        let n = crate::text::count(marked.len());
        let gone = crate::app::export::left_out(left_out);
        if self.kept.is_some() {
            cx.error(format!(
                "warning: these {n} resources are from a listing{}: each report carries its resource as it was then",
                self.kept_note(cx.now)
            ));
        } else {
            cx.info(format!(
                "one report for {}{gone}: s reviews it, Enter sends it to each",
                crate::text::counted(marked.len(), "marked resource")
            ));
        }
        Outcome::Open(Open::ReportOnMarked(marked))
    }
}
