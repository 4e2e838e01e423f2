//! The TUI's state and its one mutator, [`App::update`]: pure, no I/O, no async. Everything that
//! touches the outside world is returned as a [`Command`] for the runtime (`crate::tui`) to run.

pub mod action;
pub mod browser;
pub mod command_line;
pub mod cursor;
pub mod detail;
pub mod input;
pub mod json_tree;
pub mod keymap;
pub mod loadable;
pub mod overlay;

use ratatui::layout::Rect;

pub use action::{Action, ApiCall, ApiReply, Command, Notice, RequestId};
pub use loadable::Loadable;

use browser::{Browser, RequestIds};
use command_line::LineCommand;
use cursor::ListCursor;
use detail::{Detail, DetailPane, DetailSearch};
use keymap::Context;
use overlay::{CommandLine, ErrorPopup, ErrorReport, Help, Overlay, TypePicker};

use crate::api::ApiError;
use crate::sanitize;
use crate::ui::layout;

/// Lines the mouse wheel moves.
const WHEEL_LINES: isize = 3;

/// What the status bar says about where appdeck is connected.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Session {
    pub profile: Option<String>,
    /// Host and port of the base URL (never the token).
    pub host: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Browser,
    Detail,
}

#[derive(Clone, Debug)]
pub struct App {
    pub session: Session,
    /// The terminal's size, for viewport heights and click positions.
    pub size: Rect,
    pub view: View,
    pub browser: Browser,
    pub detail: Option<Detail>,
    pub overlay: Option<Overlay>,
    /// The last thing said in the status bar (copied, refused, cancelled...).
    pub notice: Option<Notice>,
    pub last_error: Option<ErrorReport>,
    pub should_quit: bool,
    ids: RequestIds,
}

impl App {
    /// A new app showing the first page of resources; the returned commands fetch it.
    pub fn new(session: Session, size: Rect, page_size: Option<u32>) -> (App, Vec<Command>) {
        let mut app = App {
            session,
            size,
            view: View::Browser,
            browser: Browser::new(page_size),
            detail: None,
            overlay: None,
            notice: None,
            last_error: None,
            should_quit: false,
            ids: RequestIds::default(),
        };
        let first = app.browser.start(&mut app.ids);
        (app, vec![first])
    }

    /// Where the keyboard goes now.
    pub fn context(&self) -> Context {
        match &self.overlay {
            Some(Overlay::Help(_) | Overlay::CommandLine(_)) => return Context::TextInput,
            Some(Overlay::TypePicker(_)) => return Context::Picker,
            Some(Overlay::Error(_)) => return Context::Popup,
            None => {}
        }
        match self.view {
            View::Browser if self.browser.filtering => Context::TextInput,
            View::Browser => Context::Browser,
            View::Detail
                if self
                    .detail
                    .as_ref()
                    .is_some_and(|d| d.search.as_ref().is_some_and(|s| s.editing)) =>
            {
                Context::TextInput
            }
            View::Detail => Context::Detail,
        }
    }

    /// Applies one action; returns the I/O it calls for.
    pub fn update(&mut self, action: Action) -> Vec<Command> {
        match action {
            Action::ForceQuit => self.quit(),
            Action::Resize { width, height } => {
                self.size = Rect::new(0, 0, width, height);
                self.keep_cursors_visible();
                Vec::new()
            }
            Action::ApiResult {
                id,
                reply: ApiReply::Page(result),
            } => self.on_page(id, *result),
            Action::Notice(notice) => {
                if let Notice::Error(message) = &notice {
                    self.record_error("running a command", message.clone(), None);
                }
                self.notice = Some(notice);
                Vec::new()
            }
            action => match self.overlay.take() {
                Some(overlay) => self.update_overlay(overlay, action),
                None => match self.view {
                    View::Browser if self.browser.filtering => self.update_filter_input(action),
                    View::Browser => self.update_browser(action),
                    View::Detail => self.update_detail(action),
                },
            },
        }
    }

    fn quit(&mut self) -> Vec<Command> {
        self.should_quit = true;
        vec![Command::Quit]
    }

    fn on_page(
        &mut self,
        id: RequestId,
        result: Result<crate::api::ListResponse, ApiError>,
    ) -> Vec<Command> {
        let error = result.as_ref().err().cloned();
        let height = self.table_height();
        let (taken, follow_up) = self.browser.on_page(id, result, &mut self.ids, height);
        if taken && let Some(error) = error.or_else(|| self.browser.error().cloned()) {
            self.record_api_error("loading resources", &error);
        }
        follow_up.into_iter().collect()
    }

    fn record_api_error(&mut self, doing: &str, error: &ApiError) {
        self.record_error(doing, error.to_string(), error.hint().map(str::to_owned));
    }

    fn record_error(&mut self, doing: &str, message: String, hint: Option<String>) {
        self.last_error = Some(ErrorReport {
            doing: doing.to_owned(),
            message: sanitize::line(&message).into_owned(),
            hint,
        });
    }

    // ----- heights of the viewports, from the shared layout -----

    fn table_height(&self) -> usize {
        let filter_line = self.browser.filtering || !self.browser.filter.text().is_empty();
        layout::browser(layout::screen(self.size).body, filter_line)
            .rows
            .height as usize
    }

    fn detail_areas(&self) -> layout::DetailAreas {
        let search_line = self.detail.as_ref().is_some_and(|d| d.search.is_some());
        layout::detail(layout::screen(self.size).body, search_line)
    }

    fn pane_height(&self, pane: DetailPane) -> usize {
        let index = DetailPane::ALL.iter().position(|p| *p == pane).unwrap_or(0);
        layout::inset(self.detail_areas().panes[index]).height as usize
    }

    fn keep_cursors_visible(&mut self) {
        let height = self.table_height();
        self.browser
            .cursor
            .keep_visible(self.browser.visible.len(), height);
        let heights = DetailPane::ALL.map(|p| self.pane_height(p));
        if let Some(detail) = &mut self.detail {
            for (pane, height) in DetailPane::ALL.into_iter().zip(heights) {
                let len = detail.pane_len(pane);
                detail.cursor_mut(pane).keep_visible(len, height);
            }
        }
    }

    // ----- the resource browser -----

    fn update_browser(&mut self, action: Action) -> Vec<Command> {
        let height = self.table_height();
        let len = self.browser.visible.len();
        let cursor = &mut self.browser.cursor;
        match action {
            Action::Up
            | Action::Down
            | Action::PageUp
            | Action::PageDown
            | Action::Top
            | Action::Bottom => {
                move_cursor(cursor, &action, len, height);
                return self
                    .browser
                    .prefetch(&mut self.ids, height)
                    .into_iter()
                    .collect();
            }
            Action::ScrollUp | Action::ScrollDown => {
                let delta = if matches!(action, Action::ScrollUp) {
                    -WHEEL_LINES
                } else {
                    WHEEL_LINES
                };
                cursor.scroll(delta, len, height);
                return self
                    .browser
                    .prefetch(&mut self.ids, height)
                    .into_iter()
                    .collect();
            }
            Action::Click { column, row } => {
                let rows = layout::browser(layout::screen(self.size).body, false).rows;
                if layout::contains(rows, column, row) {
                    let index = cursor.offset + usize::from(row - rows.y);
                    if index < len {
                        if index == cursor.selected {
                            return self.open_detail();
                        }
                        cursor.select(index, len, height);
                    }
                }
            }
            Action::Open | Action::Right => return self.open_detail(),
            Action::Search => self.browser.filtering = true,
            Action::Back => {
                if let Some(id) = self.browser.cancel() {
                    self.notice = Some(Notice::Info("load cancelled; r resumes".into()));
                    return vec![Command::Cancel(id)];
                }
                if !self.browser.filter.text().is_empty() {
                    self.browser.filter.set("");
                    self.browser.refilter(self.table_height());
                }
            }
            Action::Refresh => return self.browser.refresh(&mut self.ids),
            Action::TypePicker => self.open_type_picker(),
            Action::OpenLink => {
                let url = self
                    .selected_resource()
                    .and_then(|r| r.external_url.get().cloned());
                return self.open_url(url, "this resource has no external_url");
            }
            Action::Copy => {
                let id = self.selected_resource().and_then(|r| r.id.get().cloned());
                return self.copy(id, "resource id");
            }
            other => return self.update_global(other),
        }
        Vec::new()
    }

    fn selected_resource(&self) -> Option<&crate::api::Resource> {
        self.browser.selected()?.resource()
    }

    fn update_filter_input(&mut self, action: Action) -> Vec<Command> {
        match action {
            Action::Edit(input) => {
                let changed = self.browser.filter.edit(input);
                if changed {
                    self.browser.refilter(self.table_height());
                }
            }
            Action::Submit => self.browser.filtering = false,
            Action::Back => {
                self.browser.filtering = false;
                self.browser.filter.set("");
                self.browser.refilter(self.table_height());
            }
            Action::Up | Action::Down => return self.update_browser(action),
            Action::ForceQuit => return self.quit(),
            _ => {}
        }
        Vec::new()
    }

    fn open_detail(&mut self) -> Vec<Command> {
        if let Some(item) = self.browser.selected().cloned() {
            self.detail = Some(Detail::open(item));
            self.view = View::Detail;
        }
        Vec::new()
    }

    fn open_type_picker(&mut self) {
        let options: Vec<Option<String>> = std::iter::once(None)
            .chain(self.browser.types_seen.iter().cloned().map(Some))
            .collect();
        let current = options
            .iter()
            .position(|o| *o == self.browser.type_filter)
            .unwrap_or(0);
        let mut cursor = ListCursor::default();
        cursor.select(current, options.len(), options.len());
        self.overlay = Some(Overlay::TypePicker(TypePicker { options, cursor }));
    }

    /// Lists another type (or all types), from the first page.
    fn set_type_filter(&mut self, type_filter: Option<String>) -> Vec<Command> {
        let mut commands: Vec<Command> = self
            .browser
            .cancel()
            .map(Command::Cancel)
            .into_iter()
            .collect();
        self.notice = Some(Notice::Info(match &type_filter {
            Some(t) => format!("showing type {}", sanitize::line(t)),
            None => "showing all types".to_owned(),
        }));
        self.browser.type_filter = type_filter;
        self.view = View::Browser;
        self.detail = None;
        commands.push(self.browser.start(&mut self.ids));
        commands
    }

    // ----- the detail view -----

    fn update_detail(&mut self, action: Action) -> Vec<Command> {
        let Some(focus) = self.detail.as_ref().map(|d| d.focus) else {
            self.view = View::Browser;
            return Vec::new();
        };
        let height = self.pane_height(focus);
        let areas = self.detail_areas();
        let Some(detail) = self.detail.as_mut() else {
            return Vec::new();
        };
        if detail.search.as_ref().is_some_and(|s| s.editing) {
            return self.update_detail_search(action, height);
        }
        let len = detail.pane_len(focus);
        match action {
            Action::Up
            | Action::Down
            | Action::PageUp
            | Action::PageDown
            | Action::Top
            | Action::Bottom => {
                move_cursor(detail.cursor_mut(focus), &action, len, height);
            }
            Action::ScrollUp | Action::ScrollDown => {
                let delta = if matches!(action, Action::ScrollUp) {
                    -WHEEL_LINES
                } else {
                    WHEEL_LINES
                };
                detail.cursor_mut(focus).scroll(delta, len, height);
            }
            Action::Click { column, row } => {
                if let Some(i) = areas
                    .panes
                    .iter()
                    .position(|p| layout::contains(*p, column, row))
                {
                    let pane = DetailPane::ALL[i];
                    detail.focus = pane;
                    let inner = layout::inset(areas.panes[i]);
                    if layout::contains(inner, column, row) {
                        let cursor = detail.cursor(pane);
                        let index = cursor.offset + usize::from(row - inner.y);
                        let (len, height) = (detail.pane_len(pane), usize::from(inner.height));
                        if index < len {
                            detail.cursor_mut(pane).select(index, len, height);
                        }
                    }
                }
            }
            Action::NextPane | Action::PrevPane => {
                detail.focus = focus.cycle(matches!(action, Action::NextPane));
                detail.run_search();
            }
            Action::Right | Action::Left | Action::Open if focus == DetailPane::Tree => {
                let line = detail.cursor(focus).selected;
                let expanded = detail.tree.lines().get(line).is_some_and(|l| l.expanded);
                let changed = match action {
                    Action::Right => detail.tree.set_expanded(line, true),
                    Action::Left => detail.tree.set_expanded(line, false),
                    _ => detail.tree.set_expanded(line, !expanded),
                };
                if !changed
                    && matches!(action, Action::Left)
                    && let Some(parent) = detail.tree.parent_line(line)
                {
                    detail.cursor_mut(focus).select(parent, len, height);
                }
                let len = detail.pane_len(focus);
                detail.cursor_mut(focus).keep_visible(len, height);
            }
            Action::Open if focus == DetailPane::Fields => {
                let url = detail
                    .fields
                    .get(detail.cursor(focus).selected)
                    .and_then(|f| f.url.clone());
                if url.is_some() {
                    return self.open_url(url, "");
                }
            }
            Action::Search => {
                detail.search = Some(DetailSearch {
                    editing: true,
                    ..DetailSearch::default()
                });
            }
            Action::NextMatch | Action::PrevMatch => {
                let step = if matches!(action, Action::NextMatch) {
                    1
                } else {
                    -1
                };
                detail.goto_hit(step, height);
            }
            Action::OpenLink => {
                let url = detail.url_under_cursor();
                return self.open_url(url, "no link under the cursor and no external_url");
            }
            Action::Copy => {
                let (text, what) = match detail.url_under_cursor() {
                    Some(url) => (Some(url), "link"),
                    None => (detail.value_under_cursor(), "value"),
                };
                return self.copy(text, what);
            }
            Action::Back => {
                if detail.search.take().is_none() {
                    self.view = View::Browser;
                    self.detail = None;
                }
            }
            other => return self.update_global(other),
        }
        Vec::new()
    }

    fn update_detail_search(&mut self, action: Action, height: usize) -> Vec<Command> {
        let Some(detail) = self.detail.as_mut() else {
            return Vec::new();
        };
        let Some(search) = detail.search.as_mut() else {
            return Vec::new();
        };
        match action {
            Action::Edit(input) => {
                let changed = search.input.edit(input);
                if changed {
                    detail.run_search();
                    detail.goto_hit(0, height);
                }
            }
            Action::Submit => {
                search.editing = false;
                if search.input.text().is_empty() {
                    detail.search = None;
                }
            }
            Action::Back => detail.search = None,
            Action::Up | Action::Down => {
                let focus = detail.focus;
                let len = detail.pane_len(focus);
                move_cursor(detail.cursor_mut(focus), &action, len, height);
            }
            Action::ForceQuit => return self.quit(),
            _ => {}
        }
        Vec::new()
    }

    // ----- what both views share -----

    fn update_global(&mut self, action: Action) -> Vec<Command> {
        match action {
            Action::Quit => return self.quit(),
            Action::Help => self.overlay = Some(Overlay::Help(Help::new(self.context()))),
            Action::CommandLine => {
                self.overlay = Some(Overlay::CommandLine(CommandLine::default()))
            }
            Action::ShowError => match &self.last_error {
                Some(report) => {
                    self.overlay = Some(Overlay::Error(ErrorPopup {
                        report: report.clone(),
                        scroll: 0,
                    }))
                }
                None => self.notice = Some(Notice::Info("no error so far".into())),
            },
            _ => {}
        }
        Vec::new()
    }

    /// Opens http(s) URLs only: anything else (file:, javascript:, custom schemes) is refused.
    fn open_url(&mut self, url: Option<String>, missing: &str) -> Vec<Command> {
        let Some(url) = url else {
            if !missing.is_empty() {
                self.notice = Some(Notice::Error(missing.to_owned()));
            }
            return Vec::new();
        };
        let shown = sanitize::line(&url).into_owned();
        match reqwest::Url::parse(&url) {
            Ok(parsed) if matches!(parsed.scheme(), "http" | "https") => {
                self.notice = Some(Notice::Info(format!("opening {shown}")));
                vec![Command::OpenUrl(parsed.to_string())]
            }
            _ => {
                self.notice = Some(Notice::Error(format!(
                    "refused to open {shown}: only http and https links are opened"
                )));
                Vec::new()
            }
        }
    }

    fn copy(&mut self, text: Option<String>, what: &str) -> Vec<Command> {
        match text {
            Some(text) => {
                let shown: String = sanitize::line(&text).chars().take(60).collect();
                self.notice = Some(Notice::Info(format!(
                    "copied {what} to the clipboard (OSC 52): {shown}"
                )));
                vec![Command::Copy(text)]
            }
            None => {
                self.notice = Some(Notice::Error(format!("no {what} to copy here")));
                Vec::new()
            }
        }
    }

    // ----- popups -----

    fn update_overlay(&mut self, overlay: Overlay, action: Action) -> Vec<Command> {
        match overlay {
            Overlay::Help(mut help) => {
                let count = help.entries().len();
                match action {
                    Action::Back | Action::Submit => return Vec::new(),
                    Action::ForceQuit => return self.quit(),
                    Action::Edit(input) => {
                        help.filter.edit(input);
                        help.cursor = ListCursor::default();
                    }
                    Action::Up | Action::Down => {
                        move_cursor(&mut help.cursor, &action, count, count)
                    }
                    _ => {}
                }
                self.overlay = Some(Overlay::Help(help));
            }
            Overlay::CommandLine(mut line) => match action {
                Action::Back => return Vec::new(),
                Action::ForceQuit => return self.quit(),
                Action::Edit(input) => {
                    line.input.edit(input);
                    line.error = None;
                    self.overlay = Some(Overlay::CommandLine(line));
                }
                Action::Complete => {
                    let (completed, candidates) =
                        command_line::complete(line.input.text(), self.browser.types_seen.iter());
                    line.input.set(&completed);
                    line.candidates = candidates;
                    self.overlay = Some(Overlay::CommandLine(line));
                }
                Action::Submit => match command_line::parse(line.input.text()) {
                    Ok(command) => return self.run_line_command(command),
                    Err(error) => {
                        line.error = Some(error);
                        self.overlay = Some(Overlay::CommandLine(line));
                    }
                },
                _ => self.overlay = Some(Overlay::CommandLine(line)),
            },
            Overlay::TypePicker(mut picker) => {
                let len = picker.options.len();
                match action {
                    Action::Back => return Vec::new(),
                    Action::Quit | Action::ForceQuit => return self.quit(),
                    Action::Open => {
                        let choice = picker
                            .options
                            .get(picker.cursor.selected)
                            .cloned()
                            .flatten();
                        return self.set_type_filter(choice);
                    }
                    Action::Up | Action::Down | Action::Top | Action::Bottom => {
                        move_cursor(&mut picker.cursor, &action, len, len)
                    }
                    _ => {}
                }
                self.overlay = Some(Overlay::TypePicker(picker));
            }
            Overlay::Error(mut popup) => match action {
                Action::Back | Action::Open => return Vec::new(),
                Action::ForceQuit => return self.quit(),
                Action::Down => {
                    popup.scroll += 1;
                    self.overlay = Some(Overlay::Error(popup));
                }
                Action::Up => {
                    popup.scroll = popup.scroll.saturating_sub(1);
                    self.overlay = Some(Overlay::Error(popup));
                }
                _ => self.overlay = Some(Overlay::Error(popup)),
            },
        }
        Vec::new()
    }

    fn run_line_command(&mut self, command: LineCommand) -> Vec<Command> {
        match command {
            LineCommand::Resources => {
                self.view = View::Browser;
                self.detail = None;
                Vec::new()
            }
            LineCommand::Type(t) => self.set_type_filter(t),
            LineCommand::Refresh => {
                self.view = View::Browser;
                self.detail = None;
                let mut commands: Vec<Command> = self
                    .browser
                    .cancel()
                    .map(Command::Cancel)
                    .into_iter()
                    .collect();
                commands.push(self.browser.start(&mut self.ids));
                commands
            }
            LineCommand::Help => {
                self.overlay = Some(Overlay::Help(Help::new(self.context())));
                Vec::new()
            }
            LineCommand::Quit => self.quit(),
        }
    }
}

/// The movement keys, on any list cursor.
fn move_cursor(cursor: &mut ListCursor, action: &Action, len: usize, height: usize) {
    let page = height.max(1) as isize;
    match action {
        Action::Up => cursor.move_by(-1, len, height),
        Action::Down => cursor.move_by(1, len, height),
        Action::PageUp => cursor.move_by(-page, len, height),
        Action::PageDown => cursor.move_by(page, len, height),
        Action::Top => cursor.select(0, len, height),
        Action::Bottom => cursor.select(len.saturating_sub(1), len, height),
        _ => {}
    }
}
