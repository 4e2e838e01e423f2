//! Keys on the popups: `?` help, the `:` command line, the type picker, the error details, a
//! value in full, the question before quitting.

use super::Overlay;
use super::command_line;
use crate::app::action::Move;
use crate::app::widgets::LineEvent;
use crate::app::{Action, App, Command, Notice};

impl App {
    /// Handles a key for the popup taken out of `self.overlay`; puts it back unless it closes.
    pub(in crate::app) fn update_overlay(
        &mut self,
        overlay: Overlay,
        action: Action,
    ) -> Vec<Command> {
        match overlay {
            Overlay::Help(mut help) => {
                let body = crate::app::layout::screen(self.size).body;
                match help.filter.handle(action) {
                    LineEvent::Submitted | LineEvent::Cancelled => return Vec::new(),
                    LineEvent::Changed => help.scroll = 0,
                    LineEvent::Unchanged => {}
                    LineEvent::Other(action) => {
                        let page = help.rows_in_view(body).max(1) as isize;
                        match action {
                            Action::Move(Move::Up) => help.scroll_by(-1, body),
                            Action::Move(Move::Down) => help.scroll_by(1, body),
                            Action::Move(Move::PageUp) => help.scroll_by(-page, body),
                            Action::Move(Move::PageDown) => help.scroll_by(page, body),
                            _ => {}
                        }
                    }
                }
                self.overlay = Some(Overlay::Help(help));
            }
            Overlay::CommandLine(mut line) => {
                match line.input.handle(action) {
                    LineEvent::Cancelled => return Vec::new(),
                    LineEvent::Changed => {
                        line.candidates.clear();
                        line.recalled = None;
                    }
                    LineEvent::Unchanged => {}
                    LineEvent::Other(Action::Complete) => {
                        // Tab again cycles through several candidates. A single one is already
                        // in the line whole, so `>= 1` would change nothing (cargo-mutants
                        // reports that mutant as missed: it is equivalent).
                        let cycled = (line.candidates.len() > 1)
                            .then(|| command_line::cycle(line.input.text(), &line.candidates))
                            .flatten();
                        match cycled {
                            Some(next) => line.input.set(&next),
                            None => {
                                let types = self.browser.types_seen().iter();
                                let (completed, candidates) = command_line::complete_profile(
                                    line.input.text(),
                                    &self.profiles,
                                )
                                .unwrap_or_else(|| {
                                    command_line::complete(line.input.text(), types)
                                });
                                line.input.set(&completed);
                                line.candidates = candidates;
                            }
                        }
                    }
                    LineEvent::Other(Action::Move(Move::Up)) => {
                        if let Some((at, text)) = self.command_history.older(line.recalled) {
                            line.input.set(text);
                            line.recalled = Some(at);
                        }
                    }
                    LineEvent::Other(Action::Move(Move::Down)) => {
                        if let Some(at) = line.recalled {
                            match self.command_history.newer(at) {
                                Some((at, text)) => {
                                    line.input.set(text);
                                    line.recalled = Some(at);
                                }
                                None => {
                                    line.input.set("");
                                    line.recalled = None;
                                }
                            }
                        }
                    }
                    // The line closes whatever came of it: a command it does not know is said
                    // in the status bar, as the errors of one that ran are (a line left open
                    // and empty read as closed, and the next `:` made `::`); Up on the next
                    // line brings it back to fix. Enter on an empty line just closes it.
                    LineEvent::Submitted => {
                        let text = line.input.text().to_owned();
                        self.command_history.push(&text);
                        if text.trim().is_empty() {
                            return Vec::new();
                        }
                        return match command_line::parse(&text) {
                            Ok(command) => self.run_line_command(command),
                            Err(error) => {
                                self.notice = Some(Notice::Error(error));
                                Vec::new()
                            }
                        };
                    }
                    LineEvent::Other(_) => {}
                }
                self.overlay = Some(Overlay::CommandLine(line));
            }
            Overlay::TypePicker(mut picker) => {
                match picker.filter.handle(action) {
                    LineEvent::Cancelled => return Vec::new(),
                    // When nothing matches, the picker stays, for the filter to be fixed.
                    LineEvent::Submitted => {
                        if let Some(option) = picker.chosen() {
                            let choice = option.name.clone();
                            return self.set_type_filter(choice);
                        }
                    }
                    LineEvent::Changed => picker.refilter(),
                    LineEvent::Unchanged => {}
                    LineEvent::Other(action) => {
                        let len = picker.visible.len();
                        if matches!(action, Action::Move(_)) {
                            picker.cursor.apply(&action, len, len);
                        }
                    }
                }
                self.overlay = Some(Overlay::TypePicker(picker));
            }
            Overlay::Value(mut popup) => {
                let body = crate::app::layout::screen(self.size).body;
                match action {
                    Action::Back => return Vec::new(),
                    Action::Copy => {
                        let text = Some(popup.text.clone());
                        let commands = crate::app::pane::copy(&mut self.notice, text, "value");
                        self.overlay = Some(Overlay::Value(popup));
                        return commands;
                    }
                    action => popup.scroll(&action, body),
                }
                self.overlay = Some(Overlay::Value(popup));
            }
            // `q` again quits, keeping the text in a file; Esc stays; other keys do nothing.
            Overlay::Quit(ask) => match action {
                Action::Quit => return self.quit_now(),
                Action::Back => return Vec::new(),
                _ => self.overlay = Some(Overlay::Quit(ask)),
            },
            Overlay::Error(mut popup) => {
                match action {
                    Action::Back => return Vec::new(),
                    Action::Move(Move::Down) => popup.scroll += 1,
                    Action::Move(Move::Up) => popup.scroll = popup.scroll.saturating_sub(1),
                    _ => {}
                }
                self.overlay = Some(Overlay::Error(popup));
            }
        }
        Vec::new()
    }
}
