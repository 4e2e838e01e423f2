//! What works on every pane: the global keys a pane passes on, the `:` commands, and moving
//! between views. A key or command that opens another view (`2` / `:types`, `3` / `:history`,
//! `:report`, `:connect`) is handled here, by pushing its screen.

use super::overlay::command_line::LineCommand;
use super::overlay::{ErrorPopup, Help, Overlay};
use super::pane::Screen;
use super::panes::types::{TypesView, count_rows};
use super::{Action, App, Command, Notice};
use crate::sanitize;

impl App {
    /// An action the focused pane does not use.
    pub(super) fn update_global(&mut self, action: Action) -> Vec<Command> {
        match action {
            Action::Quit => self.should_quit = true,
            Action::Help => self.overlay = Some(Overlay::Help(Help::new(self.focus().keys))),
            Action::CommandLine => self.overlay = Some(Overlay::CommandLine(Default::default())),
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
            Action::ShowResources => return self.show_resources(),
            Action::ShowTypes => return self.show_types(),
            Action::ListType(name) => return self.set_type_filter(Some(name)),
            _ => {}
        }
        Vec::new()
    }

    pub(super) fn run_line_command(&mut self, command: LineCommand) -> Vec<Command> {
        match command {
            LineCommand::Resources => self.show_resources(),
            LineCommand::Types => self.show_types(),
            LineCommand::Type(t) => self.set_type_filter(t),
            LineCommand::Refresh => {
                let mut commands = self.show_resources();
                let restart = self.browser.restart(&mut self.ids);
                commands.extend(self.browser_commands(restart));
                commands
            }
            LineCommand::Help => {
                self.overlay = Some(Overlay::Help(Help::new(self.focus().keys)));
                Vec::new()
            }
            LineCommand::Quit => {
                self.should_quit = true;
                Vec::new()
            }
        }
    }

    /// Back to the resource list, closing every screen above it (and cancelling their requests).
    pub(super) fn show_resources(&mut self) -> Vec<Command> {
        self.stack.pop_all()
    }

    /// The types view: back to it when it is open below, else opened on top, with the rows of
    /// each type the list has loaded.
    pub(super) fn show_types(&mut self) -> Vec<Command> {
        if self
            .stack
            .layers()
            .iter()
            .any(|l| matches!(l.screen, Screen::Types(_)))
        {
            let mut cancels = Vec::new();
            while !matches!(self.stack.top(), Some(Screen::Types(_))) {
                cancels.extend(self.stack.pop());
            }
            return cancels;
        }
        let counts = count_rows(
            self.browser
                .rows()
                .iter()
                .map(|r| r.resource_type.as_deref()),
            self.browser.types_seen.iter(),
        );
        let (view, commands) = TypesView::open(self.known_types.clone(), counts, &mut self.ids);
        let id = self.stack.push(Screen::Types(Box::new(view)));
        self.stack.claim(id, &commands);
        commands
    }

    /// Lists another type (or all types) from the first page, back on the resource list.
    pub(super) fn set_type_filter(&mut self, type_filter: Option<String>) -> Vec<Command> {
        let notice = match &type_filter {
            Some(t) => format!("showing type {}", sanitize::line(t)),
            None => "showing all types".to_owned(),
        };
        self.browser.type_filter = type_filter;
        let mut commands = self.show_resources();
        let restart = self.browser.restart(&mut self.ids);
        commands.extend(self.browser_commands(restart));
        self.notice = Some(Notice::Info(notice));
        commands
    }
}
