//! What works on every pane: the global keys a pane passes on, the `:` commands, and moving
//! between views. A key or command that opens another view (`2` / `:types`, `3` / `:history`,
//! `:report`, `:connect`) is handled here, by pushing its screen (a composer's, in `compose.rs`).

use super::overlay::command_line::LineCommand;
use super::overlay::{ErrorPopup, ErrorReport, Help, Overlay};
use super::pane::{News, Open, Screen};
use super::panes::browser::Browser;
use super::panes::history::HistoryView;
use super::panes::overview::Overview;
use super::panes::report::ReportComposer;
use super::panes::types::TypesView;
use super::{Action, App, Command, KnownTypes, Notice, OpenAs, RequestId};
use crate::app::View;
use crate::sanitize;
use appdeck_listing::{StatusShown, TypeShown};
use std::sync::Arc;

impl App {
    /// An action the focused pane does not use.
    pub(super) fn update_global(&mut self, action: Action) -> Vec<Command> {
        match action {
            Action::Quit => return self.quit(),
            Action::Help => self.overlay = Some(Overlay::Help(Help::new(self.focus().keys))),
            Action::CommandLine => self.overlay = Some(Overlay::CommandLine(Default::default())),
            // The panes that show a resource open its report themselves ([`Open::ReportOn`]).
            Action::Report => {
                self.notice = Some(Notice::Error("no resource here to report on".into()));
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
            Action::Show(view) => return self.show(view),
            Action::Connect => return self.open_connect(),
            Action::Sort(_) | Action::SortNext | Action::SortReverse => {
                self.notice = Some(Notice::Error(
                    "only a resource list sorts; 1 goes to it".into(),
                ));
            }
            Action::Columns(_) => {
                self.notice = Some(Notice::Error(
                    "only a resource list has columns to choose; 1 goes to it".into(),
                ));
            }
            Action::LoadAll => {
                self.notice = Some(Notice::Error(
                    "only a resource list loads pages; 1 goes to it".into(),
                ));
            }
            Action::Export { .. } => {
                self.notice = Some(Notice::Error(
                    "nothing to export here: :export writes a resource list or a resource".into(),
                ));
            }
            _ => {}
        }
        Vec::new()
    }

    /// A `:` command for the pane on top (`:sort`, `:export`), as if it were its key.
    fn hand_to_top_pane(&mut self, action: Action) -> Vec<Command> {
        let top = self.stack.top_id();
        let outcome = self
            .with_pane(top, |pane, cx| pane.update(action, cx))
            .unwrap_or_else(super::pane::Outcome::done);
        self.apply(top, outcome)
    }

    /// A screen a pane asked for.
    pub(super) fn open(&mut self, open: Open) -> Vec<Command> {
        match open {
            Open::ReportOn { resource, not_live } => self.open_report_on(&resource, not_live),
            Open::ReportOnMarked(marked) => {
                let seed = self.ids.issue().0;
                let composer = ReportComposer::for_marked(self.report.clone(), marked, seed);
                // The report over marks composed and left unsent before is restored when found.
                self.push_composer(composer, true, Vec::new())
            }
            Open::Report(report) => self.open_report_from(&report),
            Open::Connect(payload) => self.open_connect_from(&payload),
            Open::Draft(draft) => self.open_draft(&draft),
            Open::Sent(entry) => {
                let view = HistoryView::showing(*entry);
                self.stack.push(Screen::History(Box::new(view)));
                Vec::new()
            }
            Open::TypeList(name) => self.push_type_list(name),
            Open::StatusList(status) => self.push_status_list(status),
            Open::LoadedTypeList(name) => self.push_loaded_type_list(name),
        }
    }

    /// One of the views `1`-`4` (`:resources`, `:types`, `:history`, `:overview`).
    fn show(&mut self, view: View) -> Vec<Command> {
        match view {
            View::Resources => self.show_resources(),
            View::Types => self.show_types(),
            View::History => self.show_history(),
            View::Overview => self.show_overview(),
        }
    }

    pub(super) fn run_line_command(&mut self, command: LineCommand) -> Vec<Command> {
        match command {
            LineCommand::Resources => self.show(View::Resources),
            LineCommand::Types => self.show(View::Types),
            LineCommand::History => self.show(View::History),
            LineCommand::Overview => self.show(View::Overview),
            LineCommand::Type(t) => self.set_type_filter(t),
            LineCommand::Where(expr) => self.hand_to_the_list_in_front(Action::Where(expr)),
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
            LineCommand::Quit => self.quit(),
            LineCommand::Report(None) => {
                let seed = self.ids.issue().0;
                let type_name = self.browser.type_filter();
                let composer = ReportComposer::blank(self.report.clone(), type_name, seed);
                self.push_composer(composer, true, Vec::new())
            }
            LineCommand::Report(Some(path)) => vec![Command::ReadFile {
                id: self.ids.issue(),
                path,
                opens: OpenAs::Report,
            }],
            LineCommand::Profile(name) => self.switch_profile(name),
            LineCommand::Connect(None) => self.open_connect(),
            LineCommand::Connect(Some(word)) if word == "new" => self.open_connect_new(),
            LineCommand::Connect(Some(path)) => vec![Command::ReadFile {
                id: self.ids.issue(),
                path,
                opens: OpenAs::Connect,
            }],
            LineCommand::Sort(words) => self.hand_to_top_pane(Action::Sort(words)),
            LineCommand::Columns(words) => self.hand_to_top_pane(Action::Columns(words)),
            LineCommand::Export { path, overwrite } => {
                self.hand_to_top_pane(Action::Export { path, overwrite })
            }
            LineCommand::Watch(every) => self.watch(every),
            LineCommand::LoadAll => self.hand_to_the_list_in_front(Action::LoadAll),
        }
    }

    /// `:watch SECS` / `:watch off`, on the resource list (shown, if it was under others).
    fn watch(&mut self, every: Option<std::time::Duration>) -> Vec<Command> {
        let mut commands = self.show_resources();
        commands.extend(self.hand_to_top_pane(Action::Watch(every)));
        commands
    }

    /// `:profile NAME`: cancels every request in flight (the screens above the list close, the
    /// list stops loading) and asks the runtime to switch; the list reloads once it has
    /// ([`App::profile_switched`]). `:profile` alone lists the profiles. A name the start did
    /// not know is looked for in the config file first: it may have been added since.
    fn switch_profile(&mut self, name: Option<String>) -> Vec<Command> {
        match name {
            Some(name) if !self.profiles.contains(&name) => {
                let id = self.ids.issue();
                self.profile_asked = Some((id, name));
                vec![Command::ReadProfiles { id }]
            }
            name => self.switch_to_known_profile(name),
        }
    }

    /// The config file was read again for `:profile NAME`: its profiles are the ones known from
    /// now on, and the switch goes on if it defines NAME.
    pub(super) fn profile_names_read(
        &mut self,
        id: RequestId,
        names: Result<Vec<String>, String>,
    ) -> Vec<Command> {
        let Some((_, name)) = self.profile_asked.take_if(|(asked, _)| *asked == id) else {
            return Vec::new();
        };
        match names {
            Ok(names) => {
                self.profiles = names;
                self.switch_to_known_profile(Some(name))
            }
            Err(why) => {
                self.notice = Some(Notice::Error(format!(
                    "unknown profile {:?}: the config file could not be read again: {}",
                    sanitize::line(&name),
                    sanitize::line(&why)
                )));
                Vec::new()
            }
        }
    }

    fn switch_to_known_profile(&mut self, name: Option<String>) -> Vec<Command> {
        let known = if self.profiles.is_empty() {
            "the config file defines no profiles".to_owned()
        } else {
            format!("the profiles: {}", self.profiles.join(", "))
        };
        let Some(name) = name else {
            let now = self.session.origin.as_str();
            let text = format!("{known} (now: {})", sanitize::line(now));
            self.notice = Some(Notice::Info(text));
            return Vec::new();
        };
        if !self.profiles.contains(&name) {
            let text = format!("unknown profile {:?}; {known}", sanitize::line(&name));
            self.notice = Some(Notice::Error(text));
            return Vec::new();
        }
        // A composer's pending draft is saved now, under the service it was written for: the
        // save is on its way before the runtime switches where drafts go.
        let mut commands = self.owed_by_screens();
        let mut cancels = self.stack.pop_all();
        if let Some(id) = self.browser.cancel() {
            cancels.push(Command::Cancel(id));
        }
        commands.extend(self.browser_commands(cancels));
        commands.push(Command::SwitchProfile {
            id: self.ids.issue(),
            name: name.clone(),
        });
        self.notice = Some(Notice::Info(format!(
            "switching to profile {}…",
            sanitize::line(&name)
        )));
        commands
    }

    /// The runtime talks to the new profile's service: the status bar, the composers and the
    /// read-only flag follow it, the list reloads from its first page (all types: the new service
    /// may have others) and the known types load again for its base URL.
    pub(super) fn profile_switched(&mut self, switch: super::ProfileSwitch) -> Vec<Command> {
        let super::ProfileSwitch {
            session,
            base_url,
            read_only,
        } = switch;
        let shown = session.origin.clone();
        self.session = session;
        self.read_only = read_only;
        self.report = std::sync::Arc::new(super::panes::report::ReportContext {
            base_url,
            ..(*self.report).clone()
        });
        self.known_types = None;
        let mut commands = self.stack.pop_all();
        let restart = self.browser.list_new_service(&mut self.ids);
        commands.extend(self.browser_commands(restart));
        let load = self.ids.issue();
        self.types_since = load;
        commands.push(Command::LoadTypes { id: load });
        self.notice = Some(Notice::Info(format!(
            "switched to profile {} ({})",
            sanitize::line(&shown),
            sanitize::line(&self.session.host)
        )));
        commands
    }

    /// The switch failed: the service in use stays, and the list the switch had cancelled loads
    /// again from it, so nothing is left empty until `r`.
    pub(super) fn profile_switch_failed(&mut self, why: &str) -> Vec<Command> {
        let restart = self.browser.restart(&mut self.ids);
        let commands = self.browser_commands(restart);
        self.notice = Some(Notice::Error(format!(
            "{}; still on profile {} ({})",
            sanitize::line(why),
            sanitize::line(&self.session.origin),
            sanitize::line(&self.session.host)
        )));
        commands
    }

    /// The history view: back to it when it is open below (reloaded), else opened on top. The
    /// open composers' drafts are saved first (the store takes them before it lists the drafts),
    /// so that what was just typed is listed (issue 35: the list was the one before).
    pub(super) fn show_history(&mut self) -> Vec<Command> {
        let mut commands = self.save_drafts_now();
        if self
            .stack
            .layers()
            .iter()
            .any(|l| matches!(l.screen, Screen::History(_)))
        {
            while !matches!(self.stack.top(), Some(Screen::History(_))) {
                commands.extend(self.pop_screen());
            }
            // Back to it, reloaded.
            if let Some(layer) = self.stack.top_mut()
                && let Screen::History(view) = &mut layer.screen
            {
                let (screen, reload) = (layer.id, view.load(&mut self.ids));
                self.stack.claim(screen, &reload);
                commands.extend(reload);
            }
            return commands;
        }
        let (view, load) = HistoryView::open(&mut self.ids);
        let id = self.stack.push(Screen::History(Box::new(view)));
        self.stack.claim(id, &load);
        commands.extend(load);
        commands
    }

    /// Every open screen's unsaved draft, saved now; each answer goes back to its composer (one
    /// that stays open hears that the save was taken, or why not).
    fn save_drafts_now(&mut self) -> Vec<Command> {
        let screens: Vec<super::stack::ScreenId> =
            self.stack.layers().iter().map(|l| l.id).collect();
        let mut saves = Vec::new();
        for screen in screens {
            let owed = (self.with_pane(screen, |pane, cx| pane.closing(cx))).unwrap_or_default();
            self.stack.claim(screen, &owed);
            saves.extend(owed);
        }
        saves
    }

    /// The overview of the loaded rows: back to it when it is open below, else opened on top.
    pub(super) fn show_overview(&mut self) -> Vec<Command> {
        if let Some(cancels) = self.back_to(|s| matches!(s, Screen::Overview(_))) {
            return cancels;
        }
        let overview = Overview::new(self.browser.summary());
        self.stack.push(Screen::Overview(Box::new(overview)));
        Vec::new()
    }

    /// A send was recorded (the history shows it), or could not be (the user is told, since
    /// `appdeck history` will not list it).
    pub(super) fn send_recorded(&mut self, result: Result<(), String>) -> Vec<Command> {
        match result {
            Ok(()) => self.broadcast(&News::SendRecorded),
            Err(problem) => {
                let message = format!(
                    "sent, but not recorded in the history: {}",
                    sanitize::line(&problem)
                );
                self.last_error = Some(ErrorReport::new("recording a send", &message, None));
                self.notice = Some(Notice::Error(message));
                Vec::new()
            }
        }
    }

    /// Back to the resource list, closing every screen above it (and cancelling their requests).
    pub(super) fn show_resources(&mut self) -> Vec<Command> {
        let mut commands = Vec::new();
        while !self.stack.layers().is_empty() {
            commands.extend(self.pop_screen());
        }
        commands
    }

    /// Back to the screen `wanted` picks when one is open below, closing those above it (and
    /// cancelling their requests); `None` when none is open.
    pub(super) fn back_to(&mut self, wanted: impl Fn(&Screen) -> bool) -> Option<Vec<Command>> {
        if !self.stack.layers().iter().any(|l| wanted(&l.screen)) {
            return None;
        }
        let mut cancels = Vec::new();
        while !self.stack.top().is_some_and(&wanted) {
            cancels.extend(self.pop_screen());
        }
        Some(cancels)
    }

    /// The types view: back to it when it is open below, else opened on top, with the rows of
    /// each type the list has loaded.
    pub(super) fn show_types(&mut self) -> Vec<Command> {
        if let Some(cancels) = self.back_to(|s| matches!(s, Screen::Types(_))) {
            return cancels;
        }
        let counts = self.browser.summary().per_type.clone();
        let (view, commands) = TypesView::open(self.known_types.clone(), counts, &mut self.ids);
        let id = self.stack.push(Screen::Types(Box::new(view)));
        self.stack.claim(id, &commands);
        commands
    }

    /// The resources of one type, in a list opened over the current screen (`b` on a type), so
    /// that `Esc` comes back to it; the main list below keeps its rows and filter.
    pub(super) fn push_type_list(&mut self, name: String) -> Vec<Command> {
        let notice = format!("showing type {} (Esc goes back)", sanitize::line(&name));
        let (list, commands) = self.browser.list_over(Some(name), |_| {}, &mut self.ids);
        self.push_list(list, commands, notice)
    }

    /// The rows of one status, of the main list's type, in a list opened over the current screen
    /// (`Enter` on a status of the overview); `Esc` comes back to it. The rows are the main
    /// list's, filtered: the list counts what the chart counted.
    pub(super) fn push_status_list(&mut self, status: StatusShown) -> Vec<Command> {
        let notice = format!(
            "showing status {} (Esc goes back)",
            sanitize::line(status.label())
        );
        let body = self.body();
        let (list, commands) = self.browser.list_of_status(status, body, &mut self.ids);
        self.push_list(list, commands, notice)
    }

    /// The rows of one type in a list opened over the current screen (`Enter` on a type of the
    /// overview), out of the main list's loaded rows as [`App::push_status_list`]'s are.
    pub(super) fn push_loaded_type_list(&mut self, name: TypeShown) -> Vec<Command> {
        let notice = format!(
            "showing type {} (Esc goes back)",
            sanitize::line(name.label())
        );
        let body = self.body();
        let (list, commands) = self.browser.list_of_type(name, body, &mut self.ids);
        self.push_list(list, commands, notice)
    }

    /// Opens `list` over the current screen, the commands it asked for its own.
    fn push_list(&mut self, list: Browser, commands: Vec<Command>, notice: String) -> Vec<Command> {
        self.notice = Some(Notice::Info(notice));
        let id = self.stack.push(Screen::Browser(Box::new(list)));
        self.stack.claim(id, &commands);
        commands
    }

    /// The list loaded rows: every pane hears what they add up to (kept as pages arrive, so
    /// telling them is cheap).
    pub(super) fn rows_loaded(&mut self) -> Vec<Command> {
        self.broadcast(&News::RowsLoaded(self.browser.summary()))
    }

    /// `:where` (a wrong expression leaves the list as it was and says why) and `:load all`:
    /// on the list in front (a list opened over another screen, else the resource list, back
    /// to it).
    fn hand_to_the_list_in_front(&mut self, action: Action) -> Vec<Command> {
        let mut commands = Vec::new();
        if !matches!(self.stack.top(), Some(Screen::Browser(_))) {
            commands.extend(self.show_resources());
        }
        commands.extend(self.hand_to_top_pane(action));
        commands
    }

    /// Lists another type (or all types) from the first page, back on the resource list.
    pub(super) fn set_type_filter(&mut self, type_filter: Option<String>) -> Vec<Command> {
        let notice = match &type_filter {
            Some(t) => format!("showing type {}", sanitize::line(t)),
            None => "showing all types".to_owned(),
        };
        let mut commands = self.show_resources();
        let restart = self.browser.list_type(type_filter, &mut self.ids);
        commands.extend(self.browser_commands(restart));
        self.notice = Some(Notice::Info(notice));
        commands
    }

    /// A connect the service accepted at `at` is the newest version of its app from now on: in
    /// the known types (every open pane hears of it: the types view and the connect composers
    /// follow at once), whether or not the store could record it (`result` says).
    pub(super) fn version_recorded(
        &mut self,
        payload: &crate::app::Body,
        at: chrono::DateTime<chrono::Utc>,
        result: Result<(), String>,
    ) -> Vec<Command> {
        let empty = crate::catalog::Catalog::default();
        let (catalog, mut problems) = match &self.known_types {
            Some(known) => (&known.catalog, known.problems.clone()),
            None => (&empty, Vec::new()),
        };
        let catalog = catalog.with_sent(payload.value(), payload.text(), at);
        if let Err(problem) = result {
            let message = format!(
                "the connect was sent, but not recorded in the store: {}",
                sanitize::line(&problem)
            );
            problems.push(message.clone());
            self.notice = Some(Notice::Error(message));
        }
        let known = Arc::new(KnownTypes { catalog, problems });
        self.known_types = Some(known.clone());
        self.broadcast(&News::KnownTypes(known))
    }
}
