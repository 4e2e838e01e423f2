//! Keys on the popups: `?` help, the `:` command line, the type picker, the error details.

use super::command_line::{self, LineCommand};
use super::cursor::ListCursor;
use super::overlay::{Help, Overlay};
use super::{Action, App, Command, move_cursor};

impl App {
    /// Handles a key for the popup taken out of `self.overlay`; puts it back unless it closes.
    pub(super) fn update_overlay(&mut self, overlay: Overlay, action: Action) -> Vec<Command> {
        if matches!(action, Action::ForceQuit) {
            return self.quit();
        }
        match overlay {
            Overlay::Help(mut help) => {
                let count = help.entries().len();
                match action {
                    Action::Back | Action::Submit => return Vec::new(),
                    Action::Edit(input) => {
                        help.filter.edit(input);
                        help.cursor = ListCursor::default();
                    }
                    Action::InsertText(text) => {
                        help.filter.insert(&text);
                        help.cursor = ListCursor::default();
                    }
                    Action::Up | Action::Down => {
                        move_cursor(&mut help.cursor, &action, count, count)
                    }
                    _ => {}
                }
                self.overlay = Some(Overlay::Help(help));
            }
            Overlay::CommandLine(mut line) => {
                match action {
                    Action::Back => return Vec::new(),
                    Action::Edit(input) => {
                        line.input.edit(input);
                        line.error = None;
                    }
                    Action::InsertText(text) => {
                        line.input.insert(&text);
                        line.error = None;
                    }
                    Action::Complete => {
                        let types = self.browser.types_seen.iter();
                        let (completed, candidates) =
                            command_line::complete(line.input.text(), types);
                        line.input.set(&completed);
                        line.candidates = candidates;
                    }
                    Action::Submit => match command_line::parse(line.input.text()) {
                        Ok(command) => return self.run_line_command(command),
                        Err(error) => line.error = Some(error),
                    },
                    _ => {}
                }
                self.overlay = Some(Overlay::CommandLine(line));
            }
            Overlay::TypePicker(mut picker) => {
                let len = picker.options.len();
                match action {
                    Action::Back => return Vec::new(),
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
            Overlay::Error(mut popup) => {
                match action {
                    Action::Back => return Vec::new(),
                    Action::Down => popup.scroll += 1,
                    Action::Up => popup.scroll = popup.scroll.saturating_sub(1),
                    _ => {}
                }
                self.overlay = Some(Overlay::Error(popup));
            }
        }
        Vec::new()
    }

    fn run_line_command(&mut self, command: LineCommand) -> Vec<Command> {
        match command {
            LineCommand::Resources => {
                self.show_list();
                Vec::new()
            }
            LineCommand::Type(t) => self.set_type_filter(t),
            LineCommand::Refresh => {
                self.show_list();
                self.browser.restart(&mut self.ids)
            }
            LineCommand::Help => {
                self.overlay = Some(Overlay::Help(Help::new(self.context())));
                Vec::new()
            }
            LineCommand::Quit => self.quit(),
        }
    }
}
