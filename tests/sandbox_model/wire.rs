//! The sandbox on loopback and one exchange with it: a request as bytes, the answer as bytes. An
//! exchange prints both, so a failing case shows what was sent and what came back.

use std::fmt;

use appdeck::sandbox::{Sandbox, SandboxOptions};
use reqwest::Method;
use serde_json::Value;

use super::model::Operation;

pub const TOKEN: &str = "model-token";

/// A sandbox with its own runtime; the run stays synchronous and blocks on each exchange.
pub struct Harness {
    runtime: tokio::runtime::Runtime,
    sandbox: Option<Sandbox>,
    client: reqwest::Client,
}

impl Harness {
    /// An empty sandbox (no demo data) accepting [`TOKEN`].
    pub fn empty() -> Harness {
        Self::start(false)
    }

    /// The demo data, so that listings have pages.
    pub fn demo() -> Harness {
        Self::start(true)
    }

    fn start(seed_demo: bool) -> Harness {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a runtime");
        let options = SandboxOptions {
            listen: "127.0.0.1:0".parse().expect("an address"),
            tokens: vec![TOKEN.to_owned()],
            seed_demo,
            ..SandboxOptions::default()
        };
        let sandbox = runtime
            .block_on(Sandbox::start(options))
            .expect("the sandbox starts");
        // appdeck's client installs the TLS provider reqwest needs; this one talks plain HTTP.
        let _ = rustls::crypto::ring::default_provider().install_default();
        Harness {
            runtime,
            sandbox: Some(sandbox),
            client: reqwest::Client::new(),
        }
    }

    /// The sandbox's data, to look at without going through HTTP.
    pub fn store(&self) -> appdeck::sandbox::SandboxStore {
        self.sandbox.as_ref().expect("running").store()
    }

    fn base_url(&self) -> &str {
        self.sandbox.as_ref().expect("running").base_url()
    }

    /// Sends one request and reads the whole answer.
    pub fn send(&self, request: &Request) -> Exchange {
        let url = format!("{}{}", self.base_url(), request.operation.path());
        let mut builder = self
            .client
            .request(request.method.clone(), url)
            .header("content-type", "application/json")
            .body(request.body.clone());
        for value in request.auth.headers() {
            builder = builder.header("authorization", value);
        }
        let (status, www_authenticate, body) = self.runtime.block_on(async {
            let response = builder.send().await.expect("the sandbox answers");
            let status = response.status().as_u16();
            let www = response
                .headers()
                .get("www-authenticate")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            let body = response.bytes().await.expect("the whole answer").to_vec();
            (status, www, body)
        });
        Exchange {
            request: request.clone(),
            status,
            www_authenticate,
            body,
        }
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        if let Some(sandbox) = self.sandbox.take() {
            self.runtime.block_on(sandbox.shutdown());
        }
    }
}

/// The Authorization header(s) of a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Auth {
    Good,
    /// `bearer <token>`: the scheme is case-insensitive (RFC 9110).
    LowerCaseScheme,
    Missing,
    WrongToken(String),
    /// `Basic <token>`.
    OtherScheme,
    /// `Bearer` and nothing after it.
    NoToken,
    /// The good header twice.
    Twice,
}

impl Auth {
    fn headers(&self) -> Vec<String> {
        match self {
            Auth::Good => vec![format!("Bearer {TOKEN}")],
            Auth::LowerCaseScheme => vec![format!("bearer {TOKEN}")],
            Auth::Missing => Vec::new(),
            Auth::WrongToken(token) => vec![format!("Bearer {token}")],
            Auth::OtherScheme => vec![format!("Basic {TOKEN}")],
            Auth::NoToken => vec!["Bearer ".to_owned()],
            Auth::Twice => vec![format!("Bearer {TOKEN}"); 2],
        }
    }

    /// Whether the sandbox should let the request through.
    pub fn accepted(&self) -> bool {
        matches!(self, Auth::Good | Auth::LowerCaseScheme)
    }
}

/// One request, as sent.
#[derive(Clone)]
pub struct Request {
    pub operation: Operation,
    pub method: Method,
    pub auth: Auth,
    pub body: Vec<u8>,
}

impl Request {
    pub fn post(operation: Operation, body: &Value) -> Request {
        Request {
            operation,
            method: Method::POST,
            auth: Auth::Good,
            body: body.to_string().into_bytes(),
        }
    }
}

impl fmt::Debug for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} ({:?})\n  body: {}",
            self.method,
            self.operation.path(),
            self.auth,
            shown(&self.body)
        )
    }
}

/// A request and the sandbox's answer.
pub struct Exchange {
    pub request: Request,
    pub status: u16,
    pub www_authenticate: Option<String>,
    pub body: Vec<u8>,
}

impl Exchange {
    /// The answer's body as JSON, or why it is not.
    pub fn json(&self) -> Result<Value, String> {
        serde_json::from_slice(&self.body).map_err(|e| format!("the answer is not JSON: {e}"))
    }
}

impl fmt::Display for Exchange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "request: {:?}\nanswer: HTTP {}{}\n  body: {}",
            self.request,
            self.status,
            match &self.www_authenticate {
                Some(v) => format!(" (WWW-Authenticate: {v})"),
                None => String::new(),
            },
            shown(&self.body)
        )
    }
}

/// A body for a failure message: its text (cut after 4 kB), escapes for what is not UTF-8.
fn shown(bytes: &[u8]) -> String {
    const MAX: usize = 4096;
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(MAX)]).into_owned();
    let text = text.escape_debug().to_string();
    if bytes.len() > MAX {
        format!("{text}… ({} bytes in all)", bytes.len())
    } else {
        text
    }
}
