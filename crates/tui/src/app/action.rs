//! The one vocabulary of the TUI: every input becomes an [`Action`], and every background
//! result one [`Action::Reply`] routed by request id; `update` answers with [`Command`]s, the
//! only way the pure core asks for I/O. Nothing here names a pane: a pane's background work is
//! its own [`Job`](super::job::Job), run through [`Command::Run`].

use ratatui_textarea::Input;
use serde_json::Value;

use std::sync::Arc;

use super::KnownTypes;
use super::job::{Job, JobOutput, Work};
use crate::api::{Exchange, ListRequest, Operation};
use crate::store::{DraftRevision, HistoryEntry, Sent};

/// What changes when the runtime switched to another profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileSwitch {
    /// The new profile and host, for the status bar.
    pub session: super::Session,
    /// The new service's API root, for the composers (review, curl).
    pub base_url: String,
    /// Why writes are refused under the new profile, if they are.
    pub read_only: Option<crate::config::ReadOnly>,
}

pub use crate::job::RequestId;
pub(crate) use crate::job::RequestIds;

/// Where a movement key moves the cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
}

/// Everything that can happen to the app.
#[derive(Debug)]
pub enum Action {
    /// Move the cursor of the focused list, tree or text.
    Move(Move),
    /// `h` / `l`: collapse or expand a node of the properties tree (`l` opens a row in the list).
    Left,
    Right,
    /// `Enter`: open what is under the cursor.
    Open,
    /// `Esc`: close the popup, cancel a load in flight, or go back.
    Back,
    /// `q`: quit from anywhere that is not typing.
    Quit,
    /// `Ctrl-C` or a signal: quit even while typing.
    ForceQuit,
    /// `Ctrl-Z`: stop appdeck as a shell job, as any full-screen program does (raw mode turns
    /// off the terminal's own `^z`); `fg` brings it back as it was.
    Suspend,
    /// `?`: the keys of the current pane.
    Help,
    /// `:`: the command line.
    CommandLine,
    /// `/`: filter the list, or search the detail.
    Search,
    /// `n` / `N`: next or previous search match.
    Match(Toward),
    /// `r`: retry what failed, else reload from the first page.
    Refresh,
    /// `t`: pick a type among those seen.
    TypePicker,
    /// `Tab` / `Shift-Tab`: next or previous part of a screen (the detail's panes).
    Pane(Toward),
    /// `o`: open the link under the cursor in the browser.
    OpenLink,
    /// `y`: copy the link (or value) under the cursor with OSC 52.
    Copy,
    /// `v` in the detail view: the value under the cursor in full, in a popup.
    ShowValue,
    /// `w` in the detail view: wrap the raw JSON's long lines, or cut them again.
    ToggleWrap,
    /// `a` in the detail view: the raw JSON of the whole resource, or of its properties again.
    ToggleRawSource,
    /// `!`: details of the last error.
    ShowError,
    /// `1`-`4`: one of the views every screen can go to.
    Show(View),
    /// `E` in the history: edit a sent report in the composer and resend it.
    EditAndResend,
    /// `C`: compose a connect (an app version and its types).
    Connect,
    /// `b`: the resources of the type under the cursor.
    BrowseType,
    /// `v`: the next known version of a type.
    NextVersion,
    /// A key for the text input that has focus.
    Edit(Input),
    /// Pasted text for the text input that has focus (one action, so a long paste filters once).
    InsertText(String),
    /// `Enter` in a one-line input.
    Submit,
    /// `Tab` in the command line.
    Complete,
    /// Mouse wheel: `Previous` is up.
    Scroll(Toward),
    /// A left click at a screen position.
    Click {
        column: u16,
        row: u16,
    },
    /// The terminal was resized.
    Resize {
        width: u16,
        height: u16,
    },
    /// The answer to a request (a [`Command`] with an id), routed by its id to the pane that
    /// asked; one the app asked for itself (a file read, a record in the store, a profile) is
    /// the app's. A stale one (cancelled, or its pane closed) is dropped.
    Reply {
        id: RequestId,
        delivery: Delivery,
    },
    /// Something the runtime did on the app's behalf failed or finished (opening a browser).
    Notice(Notice),
    /// `R`: write a report about the resource under the cursor.
    Report,
    /// `i` in the composer: edit the field under the cursor.
    StartEdit,
    /// `Space`: toggle a value (a report's `status`).
    Toggle,
    /// `u` / `^r`: undo (`Previous`) and redo (`Next`) in an editor.
    Undo(Toward),
    /// `f`: fill what the schema requires and is missing.
    Fill,
    /// `s` / `^s`: review what will be sent.
    Review,
    /// `c`: copy as a curl command.
    CopyCurl,
    /// `e`: edit the whole report in `$VISUAL` / `$EDITOR`.
    EditExternally,
    /// `D`: discard the restored draft and start again from the resource.
    DiscardDraft,
    /// `x`: drop the edited report that is not JSON, back to the report as it was.
    DropEdited,
    /// A deadline a pane asked for (see `App::wake_at`) has come: the loop's only timer.
    Tick,
    /// `s` in the list: sort by the next column (after the last: the server's order again).
    SortNext,
    /// `L` / `:load all` in the list: every page to the last.
    LoadAll,
    /// `S` in the list: reverse the sort.
    SortReverse,
    /// `:sort COLUMN [desc]`, its words after `sort` (none or `off`: the server's order).
    Sort(String),
    /// `:columns WORDS`: add (`+PATH`) and remove (`-NAME`) the list's columns.
    Columns(String),
    /// `:where EXPR` (`None`: cleared) on the list in front.
    Where(Option<String>),
    /// `:watch SECS` (`None`: `:watch off`) on the resource list.
    Watch(Option<std::time::Duration>),
    /// `d` in the list: what changed in the row a `:watch` look marked changed.
    ShowChanges,
    /// `:export PATH` (`:export! PATH` overwrites): write what the pane shows to a file.
    Export {
        path: String,
        overwrite: bool,
    },
}

/// Which way an action goes: to the next match, part or step, or back to the previous.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Toward {
    Next,
    Previous,
}

/// The views `1`-`4` (`:types`, `:history`, `:overview`) go to from any screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// `1`: back to the resource list.
    Resources,
    /// `2`: the known resource types.
    Types,
    /// `3`: the history of sends.
    History,
    /// `4`: the overview of the loaded rows in charts.
    Overview,
}

/// What a draft is about, within the service appdeck is connected to (the runtime adds the base
/// URL when it reads or writes the store).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DraftSubject {
    /// Which composer: `report`.
    pub kind: String,
    /// The resource's id, or `new`.
    pub subject: String,
}

/// Whose draft a save or a removal is: one composer's. Its own (`owner`, unique in this window:
/// the runtime adds the window's name; `None` before its first save), and the stored draft it
/// went on from (`from`), which it takes over only while nobody else changed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DraftSlot {
    pub subject: DraftSubject,
    pub owner: Option<u64>,
    pub from: Option<DraftRevision>,
}

/// A draft read back from the store.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredDraft {
    /// The composer's text for it.
    pub body: String,
    /// How long ago it was saved, as the runtime's clock says.
    pub age: std::time::Duration,
    /// Which stored draft it is, as it was read.
    pub revision: DraftRevision,
    /// How long ago it was sent, when it was: its removal could not be written since, or its
    /// send began and no answer was recorded (it may have reached the service).
    pub sent: Option<std::time::Duration>,
}

/// A draft kept in the store and not sent yet, as the history view lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct UnsentDraft {
    pub subject: DraftSubject,
    /// Which stored draft it is (two windows may each keep one about the same subject).
    pub revision: DraftRevision,
    /// The composer's text for it.
    pub body: String,
    pub saved_at: chrono::DateTime<chrono::Utc>,
    /// How long ago it was saved, as the runtime's clock says.
    pub age: std::time::Duration,
}

/// What the runtime reports back about a side effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    Info(String),
    Error(String),
}

/// The answer to an [`ApiCall`]: the outcome read as its operation's reply (a page, the answer
/// to a report or a connect), the HTTP status and the time taken.
pub type ApiReply = Exchange;

/// What came back for a request, in [`Action::Reply`]: for the pane that asked, or for the app
/// (the last four: news every pane may care about, or a screen to open).
#[derive(Debug)]
pub enum Delivery {
    /// An API call's answer, whatever the operation ([`Command::Api`]).
    Api(Box<ApiReply>),
    /// A pane's background job's answer ([`Command::Run`]); only that pane knows its type.
    Job(JobOutput),
    /// How far a job still running has come ([`crate::app::job::Progress::set`]): `done` of
    /// `total` units of its own.
    Progress { done: u64, total: u64 },
    /// The known types ([`Command::LoadTypes`]); the app keeps them, then the pane that asked.
    Types(Arc<KnownTypes>),
    /// The newest sends of the history, or why the store could not be read
    /// ([`Command::LoadHistory`]).
    History(Box<Result<Vec<HistoryEntry>, String>>),
    /// The drafts not yet sent ([`Command::ListDrafts`]).
    Drafts(Result<Vec<UnsentDraft>, String>),
    /// The stored draft, if any ([`Command::LoadDraft`]).
    DraftLoaded(Result<Option<StoredDraft>, String>),
    /// Whether a draft was saved ([`Command::SaveDraft`]).
    DraftSaved(Result<(), String>),
    /// The text the external editor left, or why there is none ([`Command::EditExternally`]).
    Edited(Result<String, String>),
    /// A file the user named, read (or why not) ([`Command::ReadFile`]).
    FileRead {
        path: String,
        opens: OpenAs,
        text: Result<String, String>,
    },
    /// The columns kept for a type, if any ([`Command::LoadColumns`]; a store that cannot be
    /// read keeps none).
    Columns(Option<String>),
    /// The listing the store kept for the list's type filter, shown until the service answers
    /// ([`Command::LoadKeptListing`]).
    KeptListing(KeptListing),
    /// A send was recorded in the history, or why not ([`Command::RecordSend`]).
    SendRecorded(Result<(), String>),
    /// A connect the service accepted was recorded in the store at `at`, or could not be
    /// (`result` says why); it becomes a known app version either way
    /// ([`Command::RecordAppVersion`]).
    VersionRecorded {
        payload: Box<Body>,
        at: chrono::DateTime<chrono::Utc>,
        result: Result<(), String>,
    },
    /// The runtime now talks to another profile's service, or could not switch (why, in a
    /// sentence: the service in use stays) ([`Command::SwitchProfile`]).
    ProfileSwitched(Result<Box<ProfileSwitch>, String>),
    /// The config file's profile names as read now, or why it could not be read
    /// ([`Command::ReadProfiles`]).
    ProfileNames(Result<Vec<String>, String>),
}

/// What the store kept of a listing.
#[derive(Debug)]
pub enum KeptListing {
    /// Its rows as the service sent them, read as one page, kept `age` ago.
    Rows {
        age: std::time::Duration,
        page: Box<crate::api::ReadPage>,
        /// Rows the store left out as too large to keep.
        too_large: usize,
    },
    /// Its first rows, as many as the first screen can show, kept `age` ago: the rest follow
    /// in a [`KeptListing::Rest`] answering the same ask. The start reads them so: with 100
    /// rows kept, `--offline` had its first rows on screen after 24.15 ms instead of 29.98 ms
    /// (120x40, median of 51 runs side by side, load 8: benches/tui_startup.sh's measure).
    First {
        age: std::time::Duration,
        page: Box<crate::api::ReadPage>,
        too_large: usize,
    },
    /// The rows after a [`KeptListing::First`], in order.
    Rest(Box<crate::api::ReadPage>),
    /// A listing that did not read back as appdeck writes one: set aside, and why.
    SetAside(String),
    /// None kept (or keeping is off, or the store cannot be read: the log says why).
    None,
}

impl Delivery {
    /// Whether the request is over with this reply: all are but a job's progress, which its
    /// answer follows (and until then the job can still be cancelled), and the first of the
    /// kept rows, which the rest follow.
    pub(crate) fn ends_request(&self) -> bool {
        !matches!(
            self,
            Delivery::Progress { .. } | Delivery::KeptListing(KeptListing::First { .. })
        )
    }
}

impl From<Box<ApiReply>> for Delivery {
    fn from(reply: Box<ApiReply>) -> Self {
        Delivery::Api(reply)
    }
}

impl Action {
    /// The answer to request `id`.
    pub fn reply(id: RequestId, delivery: impl Into<Delivery>) -> Self {
        Action::Reply {
            id,
            delivery: delivery.into(),
        }
    }
}

/// What a file read for the user is opened as: `:report PATH`, `:connect PATH`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenAs {
    Report,
    Connect,
}

/// A request for I/O, carried out by the runtime. Those with an id are answered by an
/// [`Action::Reply`] with that id.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Run an API call on a background task; [`Delivery::Api`].
    Api { id: RequestId, call: ApiCall },
    /// Run a pane's job on a background task; [`Delivery::Job`].
    Run { id: RequestId, job: Work },
    /// Abort a request in flight (its result, if any, is stale anyway); a job is asked to stop
    /// ([`crate::app::job::Progress::cancelled`]).
    Cancel(RequestId),
    /// Open an http(s) URL in the user's browser.
    OpenUrl(String),
    /// Put text on the clipboard with OSC 52.
    Copy(String),
    /// Load the known types (the store, `--types` files, the demo) on a background task;
    /// [`Delivery::Types`].
    LoadTypes { id: RequestId },
    /// Read a file for `:report PATH` or `:connect PATH`; [`Delivery::FileRead`].
    ReadFile {
        id: RequestId,
        path: String,
        opens: OpenAs,
    },
    /// Record a connect the service accepted as a known app version in the store (for the CLI's
    /// comparisons and the next runs), on a blocking task; [`Delivery::VersionRecorded`].
    RecordAppVersion {
        id: RequestId,
        base_url: String,
        /// The text sent is what the store keeps.
        payload: Box<Body>,
    },
    /// `:profile NAME`: the runtime resolves the profile and points the client at its service;
    /// [`Delivery::ProfileSwitched`].
    SwitchProfile { id: RequestId, name: String },
    /// Read the config file's profile names again (`:profile` with a name the start did not
    /// know: the file may have changed since), on a blocking task; [`Delivery::ProfileNames`].
    ReadProfiles { id: RequestId },
    /// Hand the terminal to `$VISUAL` / `$EDITOR` on `text` (a temp file), take it back when the
    /// editor exits; [`Delivery::Edited`].
    EditExternally { id: RequestId, text: String },
    /// `^z`: hand the terminal back to the shell as for `$EDITOR`, stop the process (SIGTSTP)
    /// until the shell continues it, then take the terminal back and draw it all anew.
    Suspend,
    /// Look up the stored draft; [`Delivery::DraftLoaded`].
    LoadDraft {
        id: RequestId,
        subject: DraftSubject,
    },
    /// Save a composer's draft, off the UI thread; [`Delivery::DraftSaved`].
    SaveDraft {
        id: RequestId,
        slot: DraftSlot,
        body: String,
    },
    /// Remove a composer's draft (the user discarded it), never another window's.
    RemoveDraft(DraftSlot),
    /// A composer's send goes out next: save `body`, its draft text, marked as being sent (so a
    /// window that ends before the answer is recorded never offers it again as unsent).
    DraftSending { slot: DraftSlot, body: String },
    /// A composer's draft was sent and accepted: remove it like [`Command::RemoveDraft`]; should
    /// the store not take even that, this window still never restores it as unsent.
    DraftSent(DraftSlot),
    /// Read the newest `limit` sends of the history on a blocking task with its own store
    /// connection; [`Delivery::History`].
    LoadHistory { id: RequestId, limit: usize },
    /// Read the newest `limit` reports sent to the service in use about the resource `about`
    /// (the report that created it included), like [`Command::LoadHistory`];
    /// [`Delivery::History`].
    LoadReportsAbout {
        id: RequestId,
        about: crate::store::ResourceKey,
        limit: usize,
    },
    /// List the drafts kept for this service, after every save and removal asked for before
    /// (they share one queue); [`Delivery::Drafts`].
    ListDrafts { id: RequestId },
    /// Record a send in the history on a blocking task with its own store connection; the
    /// runtime stamps its time (the answer's arrival less the time taken).
    /// [`Delivery::SendRecorded`].
    RecordSend { id: RequestId, sent: Box<Sent> },
    /// appdeck quits with a text the store did not take as a draft: keep it in a file, and name
    /// that file once the terminal is handed back.
    KeepUnsaved(crate::app::pane::UnsavedWork),
    /// Read the columns `:columns` chose for a type (`*`: every type) from the store;
    /// [`Delivery::Columns`].
    LoadColumns { id: RequestId, type_key: String },
    /// Keep the columns chosen for a type (`spec`: `:columns`'s words; empty: the table's own).
    SaveColumns { type_key: String, spec: String },
    /// Read the listing kept for the list's type filter (this service and profile's);
    /// [`Delivery::KeptListing`].
    LoadKeptListing {
        id: RequestId,
        type_filter: Option<String>,
    },
    /// Keep a page of the list's rows (their texts as they came) for the next start:
    /// `from_start` replaces what was kept (the first page), else they follow it.
    KeepListing {
        type_filter: Option<String>,
        rows: Vec<String>,
        from_start: bool,
    },
    /// Write the list's rows' JSON gathered in memory to its spill file, off the UI thread
    /// (`update` only appends in memory: [`appdeck_listing::Bodies::write_due`]).
    WriteBodies(appdeck_listing::Bodies),
    /// The page request `Command::Api` with this id (just before) reads ahead: when its answer
    /// names a next page, the runtime asks for that page at once, for the list to take up with
    /// its own request (`L`: the list's work on a page and the service's on the next overlap).
    ReadAhead(RequestId),
}

/// The list engine's jobs run and stop as any pane's.
impl From<appdeck_listing::JobCommand> for Command {
    fn from(command: appdeck_listing::JobCommand) -> Self {
        match command {
            appdeck_listing::JobCommand::Run { id, job } => Command::Run { id, job },
            appdeck_listing::JobCommand::Cancel(id) => Command::Cancel(id),
        }
    }
}

impl Command {
    /// The job this command runs, when it is a `J` (for tests and benches that look into it).
    pub fn job<J: Job>(&self) -> Option<&J> {
        match self {
            Command::Run { job, .. } => job.get(),
            _ => None,
        }
    }

    /// The request whose answer a pane will be given, if any (the answers the app takes itself
    /// are nobody's to claim).
    pub fn request_id(&self) -> Option<RequestId> {
        match self {
            Command::Api { id, .. }
            | Command::Run { id, .. }
            | Command::LoadTypes { id }
            | Command::LoadHistory { id, .. }
            | Command::LoadReportsAbout { id, .. }
            | Command::ListDrafts { id }
            | Command::EditExternally { id, .. }
            | Command::LoadDraft { id, .. }
            | Command::SaveDraft { id, .. }
            | Command::LoadColumns { id, .. }
            | Command::LoadKeptListing { id, .. } => Some(*id),
            _ => None,
        }
    }
}

/// A request body as it goes out: its text, which is what is posted, reviewed, put in the curl
/// command and recorded (a parsed value would not keep it: `1E2` would go out as `1e+2`), and
/// its value, for reading its fields. Reads as its value (`body["status"]`).
#[derive(Clone, Debug)]
pub struct Body {
    text: Box<serde_json::value::RawValue>,
    value: Value,
}

impl Body {
    /// `text`, which is `value` as the user wrote it; `value`'s own text if `text` is not JSON.
    pub(crate) fn new(text: &str, value: Value) -> Self {
        match crate::json_text::body(text) {
            Some(text) => Body { text, value },
            None => Body::of_value(value),
        }
    }

    /// A body with no text of its own: `value`, compact.
    pub(crate) fn of_value(value: Value) -> Self {
        // A value always serialises; `null` is the fallback all the same.
        let text = serde_json::value::to_raw_value(&value).unwrap_or_default();
        Body { text, value }
    }

    /// The text posted.
    pub(crate) fn text(&self) -> &str {
        self.text.get()
    }

    pub(crate) fn value(&self) -> &Value {
        &self.value
    }
}

impl Default for Body {
    fn default() -> Self {
        Body::of_value(Value::Null)
    }
}

impl PartialEq for Body {
    fn eq(&self, other: &Self) -> bool {
        self.text() == other.text()
    }
}

impl std::ops::Deref for Body {
    type Target = Value;

    fn deref(&self) -> &Value {
        &self.value
    }
}

impl serde::Serialize for Body {
    /// As its text, unchanged.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.text.serialize(serializer)
    }
}

/// One API call: the operation and the body to post, exactly as it will be sent.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiCall {
    pub operation: Operation,
    pub body: Body,
}

impl ApiCall {
    /// One page of `resources.list`.
    pub(crate) fn list_page(request: &ListRequest) -> Self {
        ApiCall {
            operation: Operation::ResourcesList,
            // A struct of strings and numbers always serialises.
            body: Body::of_value(serde_json::to_value(request).unwrap_or(Value::Null)),
        }
    }

    /// The request of the page after this page request's, whose cursor its answer named.
    pub(crate) fn next_page(&self, cursor: &str) -> Option<Self> {
        let mut request = (self.operation == Operation::ResourcesList)
            .then(|| serde_json::from_value::<ListRequest>(self.body.value().clone()).ok())??;
        request.next = Some(cursor.to_owned());
        Some(ApiCall::list_page(&request))
    }

    /// A task report (`apps.operations.report`), sent as written.
    #[cfg(test)]
    pub(crate) fn report(body: Body) -> Self {
        ApiCall {
            operation: Operation::OperationsReport,
            body,
        }
    }

    /// The body read back as a page request, when this is one (for the tests and the harness).
    #[cfg(any(test, feature = "test-harness"))]
    pub(crate) fn as_list_request(&self) -> Option<ListRequest> {
        (self.operation == Operation::ResourcesList)
            .then(|| serde_json::from_value(self.body.value().clone()).ok())
            .flatten()
    }
}
