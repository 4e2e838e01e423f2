//! `:profile NAME` at run time: resolves the profile as a start with `--profile NAME` would
//! (the profile's base URL and token winning), builds the client for its service and says where
//! the known types now come from. Reads the config file and a token file (bounded reads, which
//! refuse a FIFO): the event loop runs it on a blocking thread, never on the UI thread.

use std::path::PathBuf;

use super::known_types::TypeSources;
use crate::api::Client;
use crate::app::{ProfileSwitch, Session};
use crate::config::{self, Flags};

/// What a switch needs from the start: the command line's flags and `--types` files.
#[derive(Clone, Debug, Default)]
pub struct ProfileSwitcher {
    pub flags: Flags,
    /// `--types` files, known whatever the profile.
    pub type_files: Vec<PathBuf>,
}

/// A profile resolved and its client built, ready to be used.
pub(crate) struct Switched {
    pub client: Client,
    pub types: TypeSources,
    pub switch: ProfileSwitch,
    /// Whether the new profile's listings are kept.
    pub keep: super::listing_keeper::Keeping,
}

impl ProfileSwitcher {
    /// The profiles the config file defines now.
    pub(crate) fn profile_names(&self) -> Result<Vec<String>, config::ConfigError> {
        config::read(&self.flags)?.profile_names()
    }

    /// Resolves `name`; the error says why the switch cannot happen (no base URL, an unreadable
    /// token file...), and the service in use stays as it was.
    pub(crate) fn resolve(&self, name: &str) -> Result<Switched, String> {
        let failed = |e: &dyn std::fmt::Display| format!("cannot switch to profile {name:?}: {e}");
        let settings = config::load_profile(&self.flags, name).map_err(|e| failed(&e))?;
        let (client_settings, _warnings) = settings.client_settings().map_err(|e| failed(&e))?;
        crate::api::client::check_base_url(&client_settings.base_url).map_err(|e| failed(&e))?;
        let client = Client::new(&client_settings).map_err(|e| failed(&e))?;
        let base_url = client_settings.base_url.clone();
        let mut files = self.type_files.clone();
        files.extend(settings.types.iter().cloned());
        let store_path = config::Env::from_process()
            .ok()
            .and_then(|env| config::store_path(&env))
            .map(|path| path.value);
        let keep = super::listing_keeper::Keeping::of(&settings, store_path.clone(), &base_url);
        let store = store_path.map(|path| (path, base_url.clone()));
        Ok(Switched {
            keep,
            client,
            types: TypeSources {
                files,
                store,
                demo: false,
            },
            switch: ProfileSwitch {
                session: Session {
                    origin: name.to_owned(),
                    host: host_of(&base_url),
                    warnings: Vec::new(),
                },
                base_url,
                read_only: settings.write_refusal(),
            },
        })
    }
}

pub use crate::api::host_of;
