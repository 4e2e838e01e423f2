//! The pane trait and the one enum of screens that can be pushed on the stack.
//!
//! Words: a *pane* is one screen on the stack (the list, the detail, a composer...); the areas
//! inside a pane that take the focus in turn are its *parts* (`DetailPart`, `TypePart`,
//! `ConnectPart`).
//!
//! A pane owns its state and answers: how to handle a key ([`Pane::update`]), the answer to a
//! request it made ([`Pane::on_reply`]) and news every pane hears ([`Pane::on_broadcast`]);
//! which keys it has ([`Pane::keys`]), what it is doing ([`Pane::activity`]); and how it lays
//! itself out (its own `layout.rs`). It never opens another screen itself: it asks
//! ([`Outcome::Open`]) and the app decides. Work too slow for a keypress is a
//! [`Job`](super::job::Job) defined in its folder, returned as [`Command::Run`].
//!
//! Adding a pane touches, outside its folder `panes/<pane>/` and its renderer
//! `ui/panes/<pane>.rs`: its `pub mod` in `panes/mod.rs`, one variant of [`Screen`] with its
//! arms in [`Screen::pane`] / [`Screen::pane_mut`], one arm in `ui::render`, its key table in
//! `keymap/registry.rs`, and the key or `:` command that opens it (`global.rs`).

use ratatui::layout::Rect;

use std::time::Instant;

use std::sync::Arc;

use super::KnownTypes;
use super::action::{Action, Command, Delivery, Notice, RequestId, RequestIds, UnsentDraft};
use super::keymap::{InputMode, KeyTable};
use super::overlay::{ErrorReport, Overlay};
use super::stack::ScreenId;
// The screens, for the enum below only.
use super::panes::{
    browser::Browser, connect::ConnectComposer, detail::Detail, history::HistoryView,
    overview::Overview, report::ReportComposer, type_detail::TypeDetail, types::TypesView,
};
use crate::api::ApiError;
use crate::sanitize;
use appdeck_listing::LoadedSummary;

/// A screen above the resource list (which is always at the bottom of the stack, see
/// `App::browser`). One variant per pane.
#[derive(Clone, Debug)]
pub enum Screen {
    Detail(Box<Detail>),
    Types(Box<TypesView>),
    TypeDetail(Box<TypeDetail>),
    Report(Box<ReportComposer>),
    History(Box<HistoryView>),
    /// A resource list of one type opened over another screen (`b` on a type): `Esc` goes back
    /// to it. The main list stays as it was below.
    Browser(Box<Browser>),
    Connect(Box<ConnectComposer>),
    Overview(Box<Overview>),
}

impl Screen {
    pub(crate) fn pane(&self) -> &dyn Pane {
        match self {
            Screen::Detail(detail) => detail.as_ref(),
            Screen::Types(types) => types.as_ref(),
            Screen::TypeDetail(detail) => detail.as_ref(),
            Screen::Report(composer) => composer.as_ref(),
            Screen::History(history) => history.as_ref(),
            Screen::Browser(list) => list.as_ref(),
            Screen::Connect(connect) => connect.as_ref(),
            Screen::Overview(overview) => overview.as_ref(),
        }
    }

    pub(crate) fn pane_mut(&mut self) -> &mut dyn Pane {
        match self {
            Screen::Detail(detail) => detail.as_mut(),
            Screen::Types(types) => types.as_mut(),
            Screen::TypeDetail(detail) => detail.as_mut(),
            Screen::Report(composer) => composer.as_mut(),
            Screen::History(history) => history.as_mut(),
            Screen::Browser(list) => list.as_mut(),
            Screen::Connect(connect) => connect.as_mut(),
            Screen::Overview(overview) => overview.as_mut(),
        }
    }
}

/// What a pane did with an action.
#[derive(Debug)]
pub enum Outcome {
    /// Done; run these commands.
    Handled(Vec<Command>),
    /// Not a key this pane uses: the global keys get it.
    NotMine(Action),
    /// Open a screen on top of this one, and run the commands it asks for as it opens (their
    /// answers go to it).
    Push(Screen, Vec<Command>),
    /// Close this pane: back to where the user came from.
    Pop,
    /// Done; run these commands, and reload the resource list (a report changed a resource).
    RefreshList(Vec<Command>),
    /// Open another screen: the app decides how.
    Open(Open),
    /// Done; run these commands, and tell every pane the news.
    Tell(News, Vec<Command>),
}

impl Outcome {
    pub(crate) fn done() -> Self {
        Outcome::Handled(Vec::new())
    }
}

impl From<Vec<Command>> for Outcome {
    fn from(commands: Vec<Command>) -> Self {
        Outcome::Handled(commands)
    }
}

/// News every open pane may care about, sent by the app to each ([`Pane::on_broadcast`]), so
/// that the app never writes a pane's fields.
#[derive(Debug)]
pub enum News {
    /// The known types changed: a connect the service accepted is the newest version of its app.
    KnownTypes(Arc<KnownTypes>),
    /// The resource list loaded rows: what they add up to now.
    RowsLoaded(Arc<LoadedSummary>),
    /// A send was recorded in the history.
    SendRecorded,
    /// The service accepted a report about the resource of this id (`None`: not known, or a
    /// plain reload): it may have changed, so the lists fetch their rows again (keeping the
    /// user's place), and a detail open on it says it shows it as it was before.
    ResourceReported(Option<Arc<str>>),
    /// The service accepted reports sent over marked rows about these resources (by id): the
    /// lists unmark them (the others stay marked) and fetch their rows again.
    MarksReported(Arc<[Box<str>]>),
    /// A `:watch` look found rows changed or gone: a detail open on one follows it.
    Looked(Arc<appdeck_listing::Followed>),
}

/// A screen a pane asks the app to open; the app decides how (on top, or back to one open
/// below).
#[derive(Debug)]
pub enum Open {
    /// A report about this resource (`R`): its JSON text as it came, and the warning that it is
    /// not live (kept, gone), said as the composer opens and again with a draft's news.
    ReportOn {
        resource: Box<str>,
        not_live: Option<String>,
    },
    /// One report to send to each marked resource (`R` over marks), as listed.
    ReportOnMarked(Vec<crate::app::panes::report::many::MarkedResource>),
    /// The report composer on a report as it was sent (`E` in the history): its JSON text.
    Report(Box<str>),
    /// The connect composer on a payload as it was sent (`E` on a sent connect): its JSON text.
    Connect(Box<str>),
    /// An unsent draft, in its composer, to go on with (from the history).
    Draft(Box<UnsentDraft>),
    /// One send in full, as the history view shows it (a report listed in a resource's detail).
    Sent(Box<crate::store::HistoryEntry>),
    /// The resources of one type, in a list over this screen (`b` on a type).
    TypeList(String),
    /// The resources of one status (of the main list's type), in a list over this screen.
    StatusList(appdeck_listing::StatusShown),
    /// The loaded rows of one type (`Enter` on the overview's type chart): the main list's rows
    /// filtered, not asked of the service again, so the list counts what the chart counted.
    LoadedTypeList(appdeck_listing::TypeShown),
}

/// Work of a pane's that a notice is about, so that its end takes back that notice and leaves
/// any other ([`Ctx::say_about`], [`Ctx::take_back`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Topic {
    /// A large item laid out in the background ("opening…; Esc cancels").
    Opening,
    /// The list fetched again behind its rows (`:watch`'s looks, `r`).
    Refreshing,
    /// A detail laying out the change a look found in its large row.
    Following,
}

/// A notice a pane said about its work under way: whose, about what, and what it said (a
/// notice said since replaces it in the status bar, and is not this one's to take back).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NoticeAbout {
    screen: ScreenId,
    topic: Topic,
    notice: Notice,
}

/// What a pane may use and change besides its own state while it handles an action.
pub struct Ctx<'a> {
    /// The area the pane is drawn in (the screen less the status bar and the footer): its
    /// viewport sizes and click positions come from laying this out.
    pub body: Rect,
    /// Ids for the requests it makes; the app notes which pane asked from the commands returned.
    pub ids: &'a mut RequestIds,
    /// What the key did, in a few words, for the status bar.
    pub notice: &'a mut Option<Notice>,
    /// The screen of the pane handling the action, whose notices about its work it takes back.
    pub(crate) screen: ScreenId,
    /// The notice a pane said about its work under way, if it is still the one said.
    pub(crate) notice_about: &'a mut Option<NoticeAbout>,
    /// The last error in full, for `!`.
    pub last_error: &'a mut Option<ErrorReport>,
    /// A popup to open over the panes (a picker, a confirmation).
    pub overlay: &'a mut Option<Overlay>,
    /// Set when writes are refused (a read-only profile, `--read-only`): see [`Ctx::refuse_write`].
    pub read_only: Option<&'a crate::config::ReadOnly>,
    /// The time of this action, as the runtime's monotonic clock said when it arrived (panes
    /// that time things, like draft saves, read it here, never from the clock).
    pub now: Instant,
}

impl Ctx<'_> {
    /// Every write (a report, a connect) asks here first: under a read-only profile it is
    /// refused with a message naming the profile, and the caller sends nothing. Reads
    /// (`resources.list`) never ask.
    pub(crate) fn refuse_write(&mut self, what: &str) -> bool {
        let Some(read_only) = self.read_only else {
            return false;
        };
        self.error(format!("{read_only}: the {what} is not sent"));
        true
    }

    pub(crate) fn info(&mut self, text: impl Into<String>) {
        *self.notice = Some(Notice::Info(text.into()));
    }

    pub(crate) fn error(&mut self, text: impl Into<String>) {
        *self.notice = Some(Notice::Error(text.into()));
    }

    /// Says `notice` about `topic`, work of this pane's that ends later (its answer, its
    /// failure): [`Ctx::take_back`] then takes this notice away, and no other.
    pub(crate) fn say_about(&mut self, topic: Topic, notice: Notice) {
        *self.notice = Some(notice.clone());
        *self.notice_about = Some(NoticeAbout {
            screen: self.screen,
            topic,
            notice,
        });
    }

    /// The work `topic` of this pane ended: what it said about it goes, so that what the pane
    /// shows now (its problem, the screen it opened) is seen. A notice said since (another key,
    /// another pane, another work: "3 ids copied") stays; the problem shows once it goes.
    pub(crate) fn take_back(&mut self, topic: Topic) {
        // Another work's record stays: its own end takes its notice back.
        let screen = self.screen;
        let ours = (self.notice_about).take_if(|s| s.screen == screen && s.topic == topic);
        if let Some(ours) = ours
            && self.notice.as_ref() == Some(&ours.notice)
        {
            *self.notice = None;
        }
    }

    /// Keeps an API error for `!`, saying what appdeck was doing.
    pub(crate) fn record_api_error(&mut self, doing: &str, error: &ApiError) {
        *self.last_error = Some(ErrorReport::of_api_error(doing, error));
    }

    /// Opens http(s) URLs only: anything else (file:, javascript:, custom schemes) is refused.
    pub(crate) fn open_url(&mut self, url: Option<String>, missing: &str) -> Vec<Command> {
        let Some(url) = url else {
            self.error(missing);
            return Vec::new();
        };
        let shown = sanitize::line(&url).into_owned();
        match reqwest::Url::parse(&url) {
            Ok(parsed) if matches!(parsed.scheme(), "http" | "https") => {
                self.info(format!("opening {shown}"));
                vec![Command::OpenUrl(parsed.to_string())]
            }
            _ => {
                self.error(format!(
                    "refused to open {shown}: only http and https links are opened"
                ));
                Vec::new()
            }
        }
    }

    /// Copies with OSC 52 and says what was sent (see [`copy`]).
    pub(crate) fn copy(&mut self, text: Option<String>, what: &str) -> Vec<Command> {
        copy(self.notice, text, what)
    }

    /// Copies several values, one a line (see [`copy_each`]).
    pub(crate) fn copy_each(&mut self, values: &[impl AsRef<str>], what: &str) -> Vec<Command> {
        copy_each(self.notice, values, what)
    }
}

/// Copies with OSC 52 and says what was sent. OSC 52 cannot confirm that the terminal took it,
/// so the notice says "sent", never "copied". A value holding control characters goes escaped
/// (see [`sanitize::for_clipboard`]), and the notice says so. For panes through [`Ctx::copy`],
/// and for popups.
pub(crate) fn copy(notice: &mut Option<Notice>, text: Option<String>, what: &str) -> Vec<Command> {
    let Some(text) = text else {
        *notice = Some(Notice::Error(format!("no {what} to copy here")));
        return Vec::new();
    };
    let (copied, escaped) = sanitize::for_clipboard(&text);
    let how = if escaped {
        " as JSON, as it holds control characters"
    } else {
        ""
    };
    sent(notice, copied.into_owned(), what, how)
}

/// Copies `values` one a line, each holding control characters as its JSON string (see
/// [`copy`]): the others stay as they are. None copies nothing and says there is no `what`.
pub(crate) fn copy_each(
    notice: &mut Option<Notice>,
    values: &[impl AsRef<str>],
    what: &str,
) -> Vec<Command> {
    if values.is_empty() {
        return copy(notice, None, what);
    }
    let mut escaped = 0;
    let lines: Vec<_> = (values.iter())
        .map(|value| {
            let (line, was_escaped) = sanitize::for_clipboard(value.as_ref());
            escaped += usize::from(was_escaped);
            line
        })
        .collect();
    let how = match escaped {
        0 => String::new(),
        n => format!(
            ", {} as JSON, as it holds control characters",
            crate::text::count(n)
        ),
    };
    sent(notice, lines.join("\n"), what, &how)
}

/// A copy past this many bytes is said to risk being dropped: terminals cap what one OSC 52
/// sequence carries (0.1 to 1 MB; tmux kept nothing of a 20 MB value), and the sequence is a
/// third larger than the text (base64). It is still sent: some terminals take it.
const LARGE_COPY_BYTES: usize = 100 * 1024;

fn sent(notice: &mut Option<Notice>, text: String, what: &str, how: &str) -> Vec<Command> {
    // Its start only is made safe to show: a 20 MB value was sanitised whole for 60 characters.
    let start: String = text.chars().take(60).collect();
    let shown: String = sanitize::line(&start).chars().take(60).collect();
    let said = format!("{what} sent to the terminal's clipboard (OSC 52){how}");
    *notice = Some(match text.len() {
        n if n > LARGE_COPY_BYTES => Notice::Error(format!(
            "{said}, but at {:.1} MB many terminals drop a copy this large \
             (:export writes to a file): {shown}",
            n as f64 / 1e6
        )),
        _ => Notice::Info(format!("{said}: {shown}")),
    });
    vec![Command::Copy(text)]
}

/// A text the store did not take as a draft: `q` asks before quitting, and the quit keeps it
/// in a file the exit names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsavedWork {
    /// Why the store did not take it (`disk full`).
    pub why: String,
    /// What it is (`report`, `connect`): the file's name, and the command that opens it again.
    pub what: &'static str,
    /// The whole text, as `$EDITOR` gets it (`:report PATH` or `:connect PATH` reads it).
    pub text: String,
}

/// One pane of the TUI. Dispatch goes through [`Screen`] (or straight to the browser at the
/// bottom of the stack); the trait is only the shape every pane has.
pub(crate) trait Pane {
    /// Its key table: its own keys, then the shared ones it takes.
    fn keys(&self) -> &'static KeyTable;

    /// Whether one of its text inputs has the keyboard.
    fn input_mode(&self) -> InputMode {
        InputMode::None
    }

    /// What it is busy with, in a few words ("loading page 3…"), for the status bar.
    fn activity(&self) -> Option<String> {
        None
    }

    /// Keys of its table (by binding name) that would do nothing now: left out of the footer
    /// rather than offered (`o` on an answer with no link).
    fn idle_keys(&self) -> &'static [&'static str] {
        &[]
    }

    /// What is wrong with it now, in one line, for the status bar.
    fn problem(&self) -> Option<String> {
        None
    }

    /// Work quitting now would lose (a draft the store did not take), for `q` to ask first and
    /// for the quit to keep in a file.
    fn unsaved_work(&self) -> Option<UnsavedWork> {
        None
    }

    /// A key, a click or a paste, while it is on top.
    fn update(&mut self, action: Action, cx: &mut Ctx) -> Outcome;

    /// The answer to a request it made (a stale one never reaches it).
    fn on_reply(&mut self, _id: RequestId, _delivery: Delivery, _cx: &mut Ctx) -> Outcome {
        Outcome::done()
    }

    /// News every open pane hears of ([`News`]); most have nothing to do with it.
    fn on_broadcast(&mut self, _news: &News, _cx: &mut Ctx) -> Vec<Command> {
        Vec::new()
    }

    /// The terminal changed size: keep its cursors in view; it may want more data now.
    fn resized(&mut self, cx: &mut Ctx) -> Vec<Command>;

    /// When it wants [`Pane::tick`] called, if ever: the event loop sleeps until the earliest
    /// such deadline and no longer, so a pane with nothing pending costs no wake-up.
    fn wake_at(&self) -> Option<Instant> {
        None
    }

    /// Its deadline ([`Pane::wake_at`]) has passed.
    fn tick(&mut self, _cx: &mut Ctx) -> Vec<Command> {
        Vec::new()
    }

    /// It is about to be closed (or the app to quit): work it still owes, such as saving a
    /// draft now rather than when its timer would have fired.
    fn closing(&mut self, _cx: &mut Ctx) -> Vec<Command> {
        Vec::new()
    }
}
