//! The built-in sandbox: a local stand-in for the service, for demos (`appdeck --demo`), tests,
//! and app developers trying their integration (`appdeck sandbox`). It serves the three operations
//! with the spec's shapes over real HTTP, seeded with the demo data under `assets/demo/`.
//!
//! - `server`: the accept loop with its timeouts and connection cap (`limits`);
//! - `handlers`: routes, bearer tokens, body limit, faults; `resource_page`: `platform_app_url`;
//! - `list`, `report`, `connect`: the operations; `request` and `error`: their input and errors;
//! - `checks`: schema checks of reports, off the server's threads and within a time budget;
//! - `store`, `rows`, `cursor`, `registry`: the data;
//! - `seed`: demo and generated data; `fault`: injected misbehaviour (`spaced`: JSON spaced out).

// The core's modules under the names this crate's files use (`crate::api`...).
#![warn(unreachable_pub)]

use appdeck_core::{api, catalog, json_text, sanitize, schema, validate};

mod checks;
mod connect;
mod cursor;
mod error;
mod fault;
mod handlers;
mod limits;
mod list;
mod registry;
mod report;
mod request;
mod resource_page;
mod rows;
mod seed;
mod server;
mod spaced;
mod store;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use base64::Engine as _;
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub use fault::{Fault, FaultParseError};
pub use limits::SandboxLimits;
pub use seed::{DEMO_RESOURCES, refuse_generate};
pub use store::{RecordedFailure, SandboxStore};

/// How long `shutdown` lets in-flight requests finish before it stops waiting for them.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(3);

/// How to run a sandbox.
#[derive(Clone)]
pub struct SandboxOptions {
    /// Where to listen; port 0 picks a free one.
    pub listen: SocketAddr,
    /// The accepted bearer tokens; empty means one random token, readable with [`Sandbox::token`].
    pub tokens: Vec<String>,
    /// Load the demo types and resources (`false` is `appdeck sandbox --empty`).
    pub seed_demo: bool,
    /// Extra resources made from the demo ones, spread over the demo types (for benchmarks).
    /// The demo types are registered for them even when `seed_demo` is false.
    pub generate: usize,
    /// Misbehaviour injected into the answers, for testing clients (see [`Fault`]).
    pub fault: Option<Fault>,
    /// Timeouts, the connection cap and the schema-check budget.
    pub limits: SandboxLimits,
}

impl Default for SandboxOptions {
    fn default() -> Self {
        SandboxOptions {
            listen: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
            tokens: Vec::new(),
            seed_demo: true,
            generate: 0,
            fault: None,
            limits: SandboxLimits::default(),
        }
    }
}

/// Shows how many tokens there are, never the tokens themselves.
impl std::fmt::Debug for SandboxOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SandboxOptions")
            .field("listen", &self.listen)
            .field("tokens", &format_args!("{} token(s)", self.tokens.len()))
            .field("seed_demo", &self.seed_demo)
            .field("generate", &self.generate)
            .field("fault", &self.fault)
            .field("limits", &self.limits)
            .finish()
    }
}

/// A running sandbox. Dropping it asks the server to stop; [`Sandbox::shutdown`] also waits.
pub struct Sandbox {
    addr: SocketAddr,
    base_url: String,
    tokens: Arc<[String]>,
    store: SandboxStore,
    stop: watch::Sender<bool>,
    server: Option<JoinHandle<std::io::Result<()>>>,
    /// The background load of the data, until someone waits for it.
    load: Mutex<Option<JoinHandle<Result<(), String>>>>,
}

impl Sandbox {
    /// Loads the data, binds, and serves on the current tokio runtime; returns once listening
    /// with the data in place.
    pub async fn start(options: SandboxOptions) -> anyhow::Result<Sandbox> {
        let sandbox = Self::start_early(options).await?;
        sandbox.loaded().await?;
        Ok(sandbox)
    }

    /// Binds and serves at once, and loads the data in the background; requests wait until it is
    /// loaded. `appdeck --demo` starts this way so the terminal UI comes up while the demo data
    /// is read.
    pub async fn start_early(options: SandboxOptions) -> anyhow::Result<Sandbox> {
        let started = Instant::now();
        let tokens: Arc<[String]> = accepted_tokens(options.tokens)?.into();
        let store = SandboxStore::new();
        let listener = tokio::net::TcpListener::bind(options.listen)
            .await
            .with_context(|| format!("cannot listen on {}", options.listen))?;
        let bound = listener
            .local_addr()
            .context("cannot read the address the sandbox listens on")?;
        let addr = reachable(bound);
        let origin = format!("http://{addr}");
        let base_url = format!("{origin}/api/v1");

        let (ready_tx, ready) = watch::channel(false);
        let loading = store.clone();
        let (seed_demo, generate, fault) = (options.seed_demo, options.generate, options.fault);
        // Generating many resources takes a moment: keep it off the runtime's worker threads.
        let load = tokio::task::spawn_blocking(move || {
            let result = seed::load(&loading, seed_demo, generate);
            match &result {
                Ok(()) => tracing::info!(
                    listen = %bound,
                    resources = loading.len(),
                    types = loading.read().registry.type_count(),
                    fault = fault.map(|f| f.to_string()),
                    startup_ms = started.elapsed().as_millis() as u64,
                    "sandbox ready"
                ),
                Err(e) => tracing::error!("sandbox data failed to load: {e:#}"),
            }
            let _ = ready_tx.send(true);
            result.map_err(|e| e.to_string())
        });

        let (stop, stopped) = watch::channel(false);
        let app = handlers::router(handlers::AppState {
            store: store.clone(),
            tokens: Arc::clone(&tokens),
            fault: options.fault,
            checks: checks::SchemaChecks::new(options.limits.check_budget),
            body_timeout: options.limits.body_timeout,
            origin: Arc::from(origin),
            shutdown: stopped.clone(),
            ready,
        });
        let server = tokio::spawn(server::serve(listener, app, options.limits, stopped));
        Ok(Sandbox {
            addr,
            base_url,
            tokens,
            store,
            stop,
            server: Some(server),
            load: Mutex::new(Some(load)),
        })
    }

    /// Waits until the data is loaded; the error says why it could not be.
    pub async fn loaded(&self) -> anyhow::Result<()> {
        let load = self.load.lock().ok().and_then(|mut l| l.take());
        match load {
            Some(load) => load
                .await
                .context("loading the sandbox data stopped unexpectedly")?
                .map_err(anyhow::Error::msg),
            None => Ok(()),
        }
    }

    /// The API root, `http://127.0.0.1:PORT/api/v1`.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The first accepted token.
    pub fn token(&self) -> &str {
        self.tokens.first().map(String::as_str).unwrap_or_default()
    }

    /// The address clients connect to (a loopback address when listening on all interfaces).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn store(&self) -> SandboxStore {
        self.store.clone()
    }

    /// Stops accepting connections and lets in-flight requests finish (a slow answer is cut
    /// short). Returns within a few seconds even if a client never finishes its request.
    pub async fn shutdown(mut self) {
        let _ = self.stop.send(true);
        let Some(mut server) = self.server.take() else {
            return;
        };
        match tokio::time::timeout(SHUTDOWN_GRACE, &mut server).await {
            Ok(_) => tracing::info!("sandbox stopped"),
            Err(_) => {
                tracing::warn!(
                    "sandbox connections still open after {}s; stopped without them",
                    SHUTDOWN_GRACE.as_secs()
                );
                server.abort();
            }
        }
    }
}

/// Shows where the sandbox serves, never its tokens.
impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox")
            .field("base_url", &self.base_url)
            .field("resources", &self.store.len())
            .finish_non_exhaustive()
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}

/// The given tokens, or one random token when none is given.
fn accepted_tokens(given: Vec<String>) -> anyhow::Result<Vec<String>> {
    if given.is_empty() {
        return Ok(vec![random_token()?]);
    }
    given
        .into_iter()
        .map(|token| {
            let token = token.trim().to_owned();
            if token.is_empty() || token.chars().any(|c| c.is_whitespace() || c.is_control()) {
                bail!("a sandbox token must be non-empty, without spaces or control characters");
            }
            Ok(token)
        })
        .collect()
}

/// 24 random bytes as 32 base64url characters.
fn random_token() -> anyhow::Result<String> {
    let mut bytes = [0u8; 24];
    getrandom::fill(&mut bytes).map_err(|e| anyhow!("cannot make a random token: {e}"))?;
    Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes))
}

/// Listening on all interfaces, clients still connect to a loopback address.
fn reachable(bound: SocketAddr) -> SocketAddr {
    match bound.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => {
            SocketAddr::from((Ipv4Addr::LOCALHOST, bound.port()))
        }
        IpAddr::V6(ip) if ip.is_unspecified() => {
            SocketAddr::from((Ipv6Addr::LOCALHOST, bound.port()))
        }
        _ => bound,
    }
}
