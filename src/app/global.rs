//! What works on every pane: the global keys a pane passes on, the `:` commands, and moving
//! between views. A key or command that opens another view (`2` / `:types`, `3` / `:history`,
//! `:report`, `:connect`) is handled here, by pushing its screen.

use super::overlay::command_line::LineCommand;
use super::overlay::{ErrorPopup, Help, Overlay};
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
            _ => {}
        }
        Vec::new()
    }

    pub(super) fn run_line_command(&mut self, command: LineCommand) -> Vec<Command> {
        match command {
            LineCommand::Resources => self.show_resources(),
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
