//! Keys, clicks and replies on the resource list, and its `/` filter while it is being typed.

use crate::app::action::Move;

use super::keys::BROWSER_KEYS;
use super::watch::LookDiff;
use super::{Browser, kept::NotLive};
use crate::api::{self, ApiError};
use crate::app::export::{Exported, Exporting, Items};
use crate::app::job::Work;
use crate::app::keymap::{InputMode, KeyTable};
use crate::app::layout;
use crate::app::loadable::Loadable;
use crate::app::overlay::Overlay;
use crate::app::pane::{Ctx, News, Open, Outcome, Pane, Screen, Topic};
use crate::app::panes::detail::{Detail, OPEN_IN_BACKGROUND_BYTES, OpenDetail, detail_of};
use crate::app::widgets::{LineEvent, is_movement};
use crate::app::{Action, Command, Delivery, Notice, RequestId};
use crate::sanitize;
use crate::text::counted;
use appdeck_listing::BodyError;
use appdeck_listing::SortSpec;
use appdeck_listing::Tested;
use std::time::Instant;

/// The detail opened on top of the list, with what it asks for as it opens.
fn pushed(mut detail: Detail, cx: &mut Ctx) -> Outcome {
    let asks = detail.asks(cx.ids);
    Outcome::Push(Screen::Detail(Box::new(detail)), asks)
}

impl Pane for Browser {
    fn keys(&self) -> &'static KeyTable {
        &BROWSER_KEYS
    }

    fn input_mode(&self) -> InputMode {
        if self.filtering {
            InputMode::Line
        } else {
            InputMode::None
        }
    }

    fn activity(&self) -> Option<String> {
        if self.opening.is_some() {
            return Some("opening…".to_owned());
        }
        let refreshing = || (self.reloading.as_ref()).map(|_| "refreshing the list…".to_owned());
        (self.query.testing())
            .or_else(|| self.exporting.as_ref().map(Exporting::activity))
            .or_else(|| self.sorting.activity(|spec| self.sort_words(spec)))
            .or_else(|| match &self.listing {
                Loadable::Loading(_) => Some("loading the first page…".to_owned()),
                Loadable::Loaded(listing) => listing.activity(self.loading_all).or_else(refreshing),
                _ => None,
            })
    }

    /// With no row shown, the keys that act on a row do nothing: not offered (issue 35: the
    /// footer said `Enter open` under a failed load); nor `/` until rows are loaded.
    fn idle_keys(&self) -> &'static [&'static str] {
        match (&self.listing, self.visible.is_empty()) {
            (Loadable::Loaded(_), false) => &[],
            (Loadable::Loaded(_), true) => &["open", "report", "sort"],
            _ => &["open", "report", "sort", "search"],
        }
    }

    fn problem(&self) -> Option<String> {
        let error = (self.error()).map(|e| sanitize::line(&e.to_string()).into_owned());
        error.or_else(|| self.not_refreshed.clone())
    }

    fn update(&mut self, action: Action, cx: &mut Ctx) -> Outcome {
        let outcome = self.update_keys(action, cx);
        self.export_when_due(outcome, cx)
    }

    fn on_reply(&mut self, id: RequestId, delivery: Delivery, cx: &mut Ctx) -> Outcome {
        let outcome = self.take_reply(id, delivery, cx);
        match self.export_when_due(outcome, cx) {
            Outcome::Handled(mut commands) => {
                commands.extend(self.bodies_due());
                match self.followed.take() {
                    Some(found) => Outcome::Tell(News::Looked(found), commands),
                    None => Outcome::Handled(commands),
                }
            }
            other => other,
        }
    }

    /// A report changed a resource: the list is fetched again behind the rows on screen.
    fn on_broadcast(&mut self, news: &News, cx: &mut Ctx) -> Vec<Command> {
        match news {
            News::ResourceReported(_) => self.reload_in_place(cx.ids),
            News::MarksReported(ids) => {
                self.picked.remove_all(ids);
                self.reload_in_place(cx.ids)
            }
            _ => Vec::new(),
        }
    }

    /// Under `:watch`, when the next look is due; else never.
    fn wake_at(&self) -> Option<Instant> {
        self.watch.as_ref().map(|w| w.next_at)
    }

    fn tick(&mut self, cx: &mut Ctx) -> Vec<Command> {
        self.look(cx.ids, cx.now)
    }

    fn resized(&mut self, cx: &mut Ctx) -> Vec<Command> {
        let height = self.table_height(cx.body);
        self.cursor.keep_visible(self.visible.len(), height);
        // A taller screen may show rows that are not loaded yet.
        self.prefetch(cx.ids, height).into_iter().collect()
    }
}

impl Browser {
    fn update_keys(&mut self, action: Action, cx: &mut Ctx) -> Outcome {
        if self.filtering {
            return self.update_filter(action, cx);
        }
        let height = self.table_height(cx.body);
        let len = self.visible.len();
        match action {
            action if is_movement(&action) => return self.move_cursor(&action, cx),
            Action::Click { column, row } => {
                let rows = self.areas(cx.body).rows;
                if layout::contains(rows, column, row) {
                    let index = self.cursor.offset + usize::from(row - rows.y);
                    if index < len {
                        if index == self.cursor.selected {
                            return self.open_detail(None, cx);
                        }
                        self.cursor.select(index, len, height);
                    }
                }
            }
            Action::Open | Action::Right => return self.open_detail(None, cx),
            Action::Search => self.filtering = true,
            Action::Back => {
                if self.opening.take().is_some() {
                    cx.info("opening cancelled");
                    return Outcome::done();
                }
                if let Some(exporting) = self.exporting.take() {
                    cx.info(exporting.outcome(Exported::Cancelled).unwrap_or_default());
                    return vec![Command::Cancel(exporting.id)].into();
                }
                if self.sorting.pending() {
                    let (commands, kept) = self.cancel_sort(cx.ids, height);
                    cx.info(match kept {
                        Some(spec) => {
                            format!("sort cancelled: still sorted by {}", self.sort_words(spec))
                        }
                        None => "sort cancelled: the server's order".to_owned(),
                    });
                    return commands.into();
                }
                if let Some(id) = self.cancel() {
                    cx.info("load cancelled; r resumes");
                    return vec![Command::Cancel(id)].into();
                }
                if let Some((said, commands)) = self.restore_before(cx.ids, height) {
                    cx.info(said);
                    return commands.into();
                }
                if !self.filter.text().is_empty() {
                    self.filter.set("");
                    return self.search_changed(cx.ids, height).into();
                } else if !self.picked.is_empty() {
                    self.picked.clear();
                    cx.info("marks cleared");
                } else if self.pushed {
                    return Outcome::Pop;
                }
            }
            Action::Refresh => return self.refresh(cx.ids).into(),
            // The status bar says the load's progress while it runs (`activity`): a notice
            // beside it would say it twice, and stay once the load ended.
            Action::LoadAll => match self.load_all(cx.ids) {
                Ok(commands) => return commands.into(),
                Err(why) => cx.info(why),
            },
            Action::TypePicker => {
                *cx.overlay = Some(Overlay::TypePicker(self.type_picker()));
            }
            Action::OpenLink => {
                // One row's body, read here: `o` is one key on one row.
                let url = (self.selected())
                    .and_then(|r| self.item(&r).ok())
                    .and_then(|item| item.resource()?.external_url.get().cloned());
                return cx.open_url(url, "this resource has no external_url").into();
            }
            Action::Copy if !self.picked.is_empty() => {
                let (ids, gone) = (self.listing.loaded())
                    .map(|l| l.marked_ids(&self.visible, &self.picked, self.watch.as_ref()))
                    .unwrap_or_default();
                if ids.is_empty() {
                    cx.error(crate::app::export::all_gone(gone, "nothing copied"));
                    return Outcome::done();
                }
                let what = counted(ids.len(), "marked id") + &crate::app::export::left_out(gone);
                let what = what + &self.kept_note(cx.now);
                return cx.copy_each(&ids, &what).into();
            }
            Action::Copy => {
                let id = self
                    .selected()
                    .and_then(|r| r.id().map(|id| id.to_string()));
                let note = NotLive::note_of(self.selected_not_live(), cx.now);
                return cx.copy(id, &format!("resource id{note}")).into();
            }
            Action::Toggle => match self.toggle_pick(height) {
                Ok(0) => cx.info("no row marked"),
                Ok(n) => cx.info(format!(
                    "{} marked · y copies their ids, :export writes them, R reports on each · Esc unmarks",
                    crate::text::count(n)
                )),
                Err(why) => cx.error(why),
            },
            // Every list reports on its row: the main one, and a list of one type opened over
            // another screen.
            Action::Report if !self.picked.is_empty() => return self.report_on_picked(cx),
            Action::Report => {
                let resource = (self.selected()).and_then(|r| self.bodies().read(r.body).ok());
                let not_live = self.selected_not_live().map(|n| n.report_warning(cx.now));
                return match resource {
                    Some(resource) => Outcome::Open(Open::ReportOn {
                        resource: resource.into(),
                        not_live,
                    }),
                    None => Outcome::NotMine(Action::Report),
                };
            }
            Action::SortNext => return self.sort_by(SortSpec::next(self.sorting.spec), cx),
            Action::SortReverse => {
                return self.sort_by(Some(SortSpec::reversed(self.sorting.spec)), cx);
            }
            Action::ShowChanges => match self.text_before_change() {
                Ok(was) => return self.open_detail(Some(was), cx),
                Err(why) => cx.info(why),
            },
            Action::Match(toward) => match self.jump_to_marked(toward, height) {
                Ok(()) => {
                    return self
                        .prefetch(cx.ids, height)
                        .into_iter()
                        .collect::<Vec<_>>()
                        .into();
                }
                Err(why) => cx.info(why),
            },
            Action::Export { path, overwrite } => return self.export(path, overwrite, cx),
            Action::Sort(words) => match SortSpec::parse(&words, &self.columns) {
                Ok(spec) => return self.sort_by(spec, cx),
                Err(problem) => cx.error(problem),
            },
            Action::Where(expr) => {
                let said = match &expr {
                    Some(e) => format!("where {}", sanitize::line(e)),
                    None => "where cleared: all rows".to_owned(),
                };
                match self.set_where(expr, cx.ids, height) {
                    Ok(tests) => {
                        cx.info(said);
                        return tests.into();
                    }
                    Err(error) => cx.error(error),
                }
            }
            Action::Watch(every) => {
                let said = Notice::Info(match every {
                    Some(every) => {
                        format!(
                            "watching the list every {}s; :watch off stops",
                            every.as_secs()
                        )
                    }
                    None => "not watching the list any more".to_owned(),
                });
                cx.say_about(Topic::Refreshing, said);
                return self.set_watch(every, cx.ids, cx.now, height).into();
            }
            Action::Columns(words) => match self.columns_command(&words, cx.ids, height) {
                Ok((said, commands)) => {
                    cx.info(said);
                    return commands.into();
                }
                Err(problem) => cx.error(problem),
            },
            other => return Outcome::NotMine(other),
        }
        Outcome::done()
    }

    /// An export waiting for the query starts once it is complete (`:where` alone ends it too).
    fn export_when_due(&mut self, mut outcome: Outcome, cx: &mut Ctx) -> Outcome {
        if let Outcome::Handled(commands) = &mut outcome
            && let Some((path, overwrite)) = Exporting::due(&mut self.exporting, &self.query)
            && let Outcome::Handled(export) = self.export(path, overwrite, cx)
        {
            commands.extend(export);
        }
        outcome
    }

    /// An answer to one of the list's requests (a page, a job), before the rows' JSON it
    /// gathered is handed to the runtime to write.
    fn take_reply(&mut self, id: RequestId, delivery: Delivery, cx: &mut Ctx) -> Outcome {
        match delivery {
            Delivery::Api(reply) => {
                let page = reply.result.and_then(|r| match r {
                    api::Reply::Page(page) => Ok(*page),
                    api::Reply::Answer(_) => Err(not_a_page()),
                });
                let height = self.table_height(cx.body);
                if self.reloads(id) {
                    return match self.on_reload_page(id, page, cx.ids, height) {
                        Ok(commands) => commands.into(),
                        Err(error) => {
                            let shown = sanitize::line(&error.to_string()).into_owned();
                            self.look_failed(shown.clone(), cx.now);
                            // The pane's problem while it stands, not a notice that would stay:
                            // what the looks said before goes, another key's notice stays.
                            self.not_refreshed =
                                Some(format!("the list was not refreshed: {shown}; r reloads"));
                            cx.take_back(Topic::Refreshing);
                            cx.record_api_error("refreshing the list", &error);
                            Outcome::done()
                        }
                    };
                }
                let mut commands: Vec<Command> = Vec::new();
                let mut cursor_was = None;
                if self.replaces_kept(id) {
                    match &page {
                        Err(error) => {
                            cx.record_api_error("loading resources", error);
                            self.kept_live_failed(error.clone());
                            return Outcome::done();
                        }
                        Ok(_) => {
                            let (at, cancels) = self.drop_kept(id);
                            cursor_was = Some(at);
                            commands.extend(cancels);
                        }
                    }
                }
                if let Ok(page) = &page {
                    commands.extend(self.texts_to_keep(id, page));
                }
                let before = self.rows().len();
                let (taken, follow_up) = self.on_page(id, page, cx.ids, height);
                if taken && let Some(error) = self.error() {
                    cx.record_api_error("loading resources", error);
                }
                if cursor_was.is_some() {
                    // Marks are on rows held: those on kept rows the live page lacks go.
                    self.picked.keep_held(self.listing.loaded());
                }
                // The cursor's row was not in the live page: the cursor keeps its place.
                if let Some(at) = cursor_was.filter(|_| self.reselect.is_some())
                    && !self.visible.is_empty()
                {
                    let len = self.visible.len();
                    self.cursor.select(at.min(len - 1), len, height);
                }
                commands.extend(follow_up);
                if taken && self.rows().len() > before {
                    commands.extend(self.test_new_rows(before, cx.ids));
                }
                if taken && self.listing.loaded().is_some() {
                    commands.extend(self.ask_kept_columns(cx.ids));
                }
                commands.into()
            }
            Delivery::KeptListing(kept) if self.asks_kept(id) => {
                let height = self.table_height(cx.body);
                if let Some(said) = self.on_kept(kept, cx.now, cx.ids, height) {
                    cx.error(said);
                }
                let mut commands = Vec::new();
                if self.listing.loaded().is_some() {
                    commands.extend(self.ask_kept_columns(cx.ids));
                }
                commands.into()
            }
            Delivery::Columns(spec) if self.asks_kept_columns(id) => {
                let height = self.table_height(cx.body);
                self.on_kept_columns(spec, cx.ids, height).into()
            }
            Delivery::Job(filled) if self.fills(id) => {
                let Some(filled) = filled.take::<Result<appdeck_listing::Filled, String>>() else {
                    return Outcome::done();
                };
                let height = self.table_height(cx.body);
                match self.on_filled(filled, cx.ids, height) {
                    Ok(commands) => commands.into(),
                    Err(why) => {
                        cx.error(format!("the added columns could not be read: {why}"));
                        Outcome::done()
                    }
                }
            }
            Delivery::Job(output) if self.tests(id) => {
                let Some(tested) = output.take::<Tested>() else {
                    return Outcome::done();
                };
                let height = self.table_height(cx.body);
                let (said, commands) = self.on_tested(id, tested, height, cx.ids);
                if let Some(said) = said {
                    cx.error(said);
                }
                commands.into()
            }
            Delivery::Job(output) if self.tests_reload(id) => {
                let Some(tested) = output.take::<Tested>() else {
                    return Outcome::done();
                };
                let height = self.table_height(cx.body);
                let (said, commands) = self.on_reload_tested(id, tested, cx.ids, height);
                if let Some(said) = said {
                    cx.say_about(Topic::Refreshing, Notice::Error(said));
                }
                commands.into()
            }
            Delivery::Job(diff) if self.compares(id) => {
                match diff.take::<Result<LookDiff, String>>() {
                    Some(diff) => {
                        let height = self.table_height(cx.body);
                        self.on_compared(diff, cx.ids, height, cx.now).into()
                    }
                    None => Outcome::done(),
                }
            }
            // Dropped if the user moved on (Esc, another row) meanwhile.
            Delivery::Progress { done, total } => {
                match &mut self.exporting {
                    Some(exporting) if exporting.id == id => {
                        exporting.done = usize::try_from(done).unwrap_or(usize::MAX);
                    }
                    _ => {
                        self.query.on_progress(id, done, total);
                        self.sorting.on_progress(id, done, total);
                    }
                }
                Outcome::done()
            }
            Delivery::Job(exported) if self.exporting.as_ref().is_some_and(|e| e.id == id) => {
                if let (Some(exporting), Some(exported)) =
                    (self.exporting.take(), exported.take::<Exported>())
                {
                    match exporting.outcome(exported) {
                        Ok(news) => cx.info(news + &self.kept_note(cx.now)),
                        Err(problem) => cx.error(problem),
                    }
                }
                Outcome::done()
            }
            Delivery::Job(order) if self.sorts_reload(id) => {
                let order = order.take::<Option<Vec<usize>>>().flatten();
                let height = self.table_height(cx.body);
                self.on_reload_sorted(id, order, cx.ids, height).into()
            }
            Delivery::Job(order) if self.sorting.job() == Some(id) => {
                let order = order.take::<Option<Vec<usize>>>().flatten();
                let height = self.table_height(cx.body);
                let asked = self.sorting.asked;
                if self.sorted(id, order, height)
                    && asked
                    && let Some(spec) = self.sorting.spec
                {
                    cx.info(format!("sorted by {}", self.sort_words(spec)));
                }
                Outcome::done()
            }
            Delivery::Job(detail) if self.opening == Some(id) => {
                self.opening = None;
                cx.take_back(Topic::Opening);
                match detail.take::<Result<Detail, BodyError>>() {
                    Some(Ok(detail)) => pushed(detail, cx),
                    Some(Err(error)) => {
                        cx.error(format!("cannot open the resource: {error}"));
                        Outcome::done()
                    }
                    None => Outcome::done(),
                }
            }
            _ => Outcome::done(),
        }
    }

    /// The `/` filter has the keyboard: the rows narrow as the user types.
    fn update_filter(&mut self, action: Action, cx: &mut Ctx) -> Outcome {
        let height = self.table_height(cx.body);
        match self.filter.handle(action) {
            LineEvent::Changed => {
                let commands = self.search_changed(cx.ids, height);
                if let Some(problem) = &self.query.search_problem {
                    cx.error(problem.clone());
                }
                return commands.into();
            }
            LineEvent::Unchanged => {}
            LineEvent::Submitted => {
                self.filtering = false;
                // Still said once the line is closed: no row is hidden, and this is why.
                if let Some(problem) = &self.query.search_problem {
                    cx.error(problem.clone());
                }
            }
            LineEvent::Cancelled => {
                self.filtering = false;
                if let Some((said, commands)) = self.restore_before(cx.ids, height) {
                    cx.info(said);
                    return commands.into();
                }
                self.filter.set("");
                return self.search_changed(cx.ids, height).into();
            }
            LineEvent::Other(action @ (Action::Move(Move::Up) | Action::Move(Move::Down))) => {
                return self.move_cursor(&action, cx);
            }
            LineEvent::Other(_) => {}
        }
        Outcome::done()
    }

    /// A movement key; near the end of the loaded rows, the next page is fetched.
    fn move_cursor(&mut self, action: &Action, cx: &mut Ctx) -> Outcome {
        let height = self.table_height(cx.body);
        self.reselect = None;
        self.cursor.apply(action, self.visible.len(), height);
        self.prefetch(cx.ids, height)
            .into_iter()
            .collect::<Vec<_>>()
            .into()
    }

    /// Sorts by `spec` (`None`: the server's order) and says so; a large list is sorted by a
    /// job, and says how far it got meanwhile.
    fn sort_by(&mut self, spec: Option<SortSpec>, cx: &mut Ctx) -> Outcome {
        let height = self.table_height(cx.body);
        let commands = self.set_sort(spec, cx.ids, height);
        match spec {
            None => cx.info("unsorted: the server's order"),
            Some(spec) if !self.sorting.pending() => {
                cx.info(format!("sorted by {}", self.sort_words(spec)))
            }
            Some(_) => {}
        }
        commands.into()
    }

    /// `:export PATH`: the rows shown, in their order, written by a job; one at a time. Rows a
    /// `:watch` still shows as gone are left out: the service no longer has them. Under `L`,
    /// the rows loaded so far, as "wrote" then says.
    fn export(&mut self, path: String, overwrite: bool, cx: &mut Ctx) -> Outcome {
        if let Some(exporting) = &mut self.exporting {
            exporting.refuse(path, cx);
            return Outcome::done();
        }
        if !self.query.complete() {
            Exporting::wait_in(&mut self.exporting, path, overwrite, cx);
            return Outcome::done();
        }
        let (ids, marked) = (self.listing.loaded())
            .map(|l| l.to_export(&self.visible, &self.picked, self.watch.as_ref()))
            .unwrap_or_default();
        let items = Items::Rows {
            bodies: self.bodies(),
            ids,
            columns: self.columns.export_columns(),
            marked,
        };
        if let Some(gone) = items.marked().filter(|_| items.count() == 0) {
            cx.error(crate::app::export::all_gone(gone, "nothing to export"));
            return Outcome::done();
        }
        let asked = (
            path,
            overwrite,
            self.loading_all() && items.marked().is_none(),
        );
        Exporting::start_in(&mut self.exporting, asked, items, cx)
    }

    /// Enter, or `d` with the row's text before its change: the detail of the selected row,
    /// laid out here when small, on a background task when large.
    fn open_detail(&mut self, changed_since: Option<Box<str>>, cx: &mut Ctx) -> Outcome {
        let Some(row) = self.selected() else {
            return Outcome::done();
        };
        if row.json_len() <= OPEN_IN_BACKGROUND_BYTES {
            return match detail_of(row.row(), &self.bodies(), changed_since.as_deref()) {
                Ok(detail) => pushed(detail.not_live(self.selected_not_live()), cx),
                Err(error) => {
                    cx.error(format!("cannot open the resource: {error}"));
                    Outcome::done()
                }
            };
        }
        let (row, id) = (*row.row(), cx.ids.issue());
        let said = format!(
            "opening a large resource ({:.1} MB)…; Esc cancels",
            row.json_len() as f64 / 1e6
        );
        cx.say_about(Topic::Opening, Notice::Info(said));
        self.opening = Some(id);
        let job = Work::new(OpenDetail {
            row,
            bodies: self.bodies(),
            changed_since,
            not_live: self.selected_not_live(),
        });
        vec![Command::Run { id, job }].into()
    }
}

/// The list only asks for pages; any other answer to its request is a fault.
fn not_a_page() -> ApiError {
    ApiError::Decode {
        problem: "expected a page of resources".into(),
        excerpt: String::new(),
    }
}
