//! appdeck's terminal UI, in three parts (The Elm Architecture, one owner of state):
//!
//! - [`app`]: the state and its one mutator, `App::update`: pure, no I/O, never draws;
//! - [`ui`]: rendering, from `&App` alone;
//! - [`runtime`]: the terminal, the event loop, and the commands `update` returns, run off the
//!   UI thread (HTTP, the store, jobs, `$EDITOR`).

#![warn(unreachable_pub)]

mod app;
mod runtime;
mod ui;

// The surface the binary (src/), its tests, benches and examples use; the rest stays inside, so
// the compiler reports what nothing uses.
/// A whole `App` drawn into a `TestBackend`, keys sent: for tests and benches only.
#[cfg(feature = "test-harness")]
pub use app::harness;
pub use app::keymap::syntax::written as written_key;
pub use app::keymap::{ActionKeys, Key, Keymap, action_for};
pub use app::overlay::Overlay;
pub use app::pane::Screen;
pub use app::panes::connect::check::AnalysisJob;
pub use app::panes::connect::new_app::{InferJob, infer};
pub use app::panes::report::ReportContext;
pub use app::panes::report::check::{CheckJob, run as check_report};
pub use app::panes::type_detail::{OpenType, TypeDetail};
pub use app::settings::keys::KeyEntry;
pub use app::settings::theme::{BaseTheme, Role, ThemeChoice, describe_colour};
pub use app::settings::{UiSettings, load_ui, ui_settings};
pub use app::{
    Action, ApiReply, App, Command, Delivery, DraftSubject, KnownTypes, Move, Notice, RequestId,
    Session, StoredDraft, Toward, UnsentDraft, View,
};
pub use runtime::drafts::DraftPlace;
pub use runtime::effects::RecordedEffects;
pub use runtime::event_loop::EventLoop;
pub use runtime::known_types::{TypeSources, load as load_known_types};
pub use runtime::listing_keeper::{EarlyRead, Keeping};
pub use runtime::opener::{choose as choose_openers, describe as describe_openers};
pub use runtime::profiles::{ProfileSwitcher, host_of};
pub use runtime::terminal::TerminalGuard;
pub use runtime::{LaunchOptions, launch};
pub use ui::render;
pub use ui::theme::{Palette, Theme};

// The core's modules and the store under the names this crate's files use (`crate::api`...).
use appdeck_core::{
    answer_words, api, bounded_read, catalog, changes, config, diff, explain, freed_memory, infer,
    job, json_locate, json_text, log_file, placeholder, report_text, sanitize, signals, text,
    user_path, validate,
};
use appdeck_store as store;
