//! The TUI's state and its one mutator, [`App::update`]: pure, no I/O, no async. Everything that
//! touches the outside world is returned as a [`Command`] for the runtime (`crate::tui`) to run.
//!
//! `update` dispatches to the handler of whatever has the keyboard: `on_browser.rs` (the list and
//! its `/` filter), `on_detail.rs` (the detail view and its search), `on_overlay.rs` (the popups
//! and the command line).

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
pub mod row;

mod on_browser;
mod on_detail;
mod on_overlay;

use ratatui::layout::Rect;

pub use action::{Action, ApiCall, ApiReply, Command, Notice, RequestId};
pub use loadable::Loadable;

use browser::{Browser, RequestIds};
use cursor::ListCursor;
use detail::{Detail, DetailPane};
use keymap::Context;
use overlay::{CommandLine, ErrorPopup, ErrorReport, Help, Overlay};

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
    /// What the last key did, in a few words (copied, refused, cancelled...); the next key
    /// clears it.
    pub notice: Option<Notice>,
    /// The last error in full, for `!`.
    pub last_error: Option<ErrorReport>,
    /// A large resource whose detail is being prepared in the background.
    pub opening: Option<RequestId>,
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
            opening: None,
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
        let searching = self
            .detail
            .as_ref()
            .is_some_and(|d| d.search.as_ref().is_some_and(|s| s.editing));
        match self.view {
            View::Browser if self.browser.filtering => Context::TextInput,
            View::Browser => Context::Browser,
            View::Detail if searching => Context::TextInput,
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
                // A taller screen may show rows that are not loaded yet.
                let height = self.table_height();
                self.browser
                    .prefetch(&mut self.ids, height)
                    .into_iter()
                    .collect()
            }
            Action::ApiResult {
                id,
                reply: ApiReply::Page(result),
            } => self.on_page(id, *result),
            Action::DetailReady { id, detail } => {
                // Dropped if the user moved on (Esc, another row) meanwhile.
                if self.opening == Some(id) {
                    self.opening = None;
                    self.notice = None;
                    self.detail = Some(*detail);
                    self.view = View::Detail;
                }
                Vec::new()
            }
            Action::Notice(notice) => {
                if let Notice::Error(message) = &notice {
                    self.record_error("running a command", message.clone(), None);
                }
                self.notice = Some(notice);
                Vec::new()
            }
            action => {
                // A key or a click: what the previous one did is old news.
                self.notice = None;
                match self.overlay.take() {
                    Some(overlay) => self.update_overlay(overlay, action),
                    None => match self.view {
                        View::Browser if self.browser.filtering => self.update_filter_input(action),
                        View::Browser => self.update_browser(action),
                        View::Detail => self.update_detail(action),
                    },
                }
            }
        }
    }

    fn quit(&mut self) -> Vec<Command> {
        self.should_quit = true;
        Vec::new()
    }

    fn on_page(
        &mut self,
        id: RequestId,
        result: Result<crate::api::ListResponse, ApiError>,
    ) -> Vec<Command> {
        let height = self.table_height();
        let (taken, follow_up) = self.browser.on_page(id, result, &mut self.ids, height);
        if taken && let Some(error) = self.browser.error().cloned() {
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

    // ----- viewports, from the layout the renderer uses too -----

    fn browser_areas(&self) -> layout::BrowserAreas {
        let filter_line = self.browser.filtering || !self.browser.filter.text().is_empty();
        layout::browser(layout::screen(self.size).body, filter_line)
    }

    fn table_height(&self) -> usize {
        usize::from(self.browser_areas().rows.height)
    }

    fn detail_areas(&self) -> layout::DetailAreas {
        let search_line = self.detail.as_ref().is_some_and(|d| d.search.is_some());
        layout::detail(layout::screen(self.size).body, search_line)
    }

    fn pane_height(&self, pane: DetailPane) -> usize {
        let index = DetailPane::ALL.iter().position(|p| *p == pane).unwrap_or(0);
        usize::from(layout::inset(self.detail_areas().panes[index]).height)
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

    // ----- what every view shares -----

    fn update_global(&mut self, action: Action) -> Vec<Command> {
        match action {
            Action::Quit => return self.quit(),
            Action::Help => self.overlay = Some(Overlay::Help(Help::new(self.context()))),
            Action::CommandLine => {
                self.overlay = Some(Overlay::CommandLine(CommandLine::default()))
            }
            Action::ShowError => match &self.last_error {
                Some(report) => {
                    let popup = ErrorPopup {
                        report: report.clone(),
                        scroll: 0,
                    };
                    self.overlay = Some(Overlay::Error(popup));
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
            self.notice = Some(Notice::Error(missing.to_owned()));
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
        Action::ScrollUp => cursor.scroll(-WHEEL_LINES, len, height),
        Action::ScrollDown => cursor.scroll(WHEEL_LINES, len, height),
        _ => {}
    }
}

/// Whether an action moves a cursor (keys or the wheel).
fn is_movement(action: &Action) -> bool {
    matches!(
        action,
        Action::Up
            | Action::Down
            | Action::PageUp
            | Action::PageDown
            | Action::Top
            | Action::Bottom
            | Action::ScrollUp
            | Action::ScrollDown
    )
}

#[cfg(test)]
mod tests;
