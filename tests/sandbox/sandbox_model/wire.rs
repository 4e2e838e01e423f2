//! The sandbox on loopback and one exchange with it: a request as bytes, the answer as bytes. An
//! exchange prints both, so a failing case shows what was sent and what came back.

use std::fmt;

use reqwest::Method;
use serde_json::Value;

use super::model::Operation;
use crate::common::{TOKEN, TestSandbox};

/// A sandbox with its own runtime ([`TestSandbox`]) and a client; the run stays synchronous and
/// blocks on each exchange.
pub struct Harness {
    sandbox: TestSandbox,
    client: reqwest::Client,
}

impl Harness {
    /// An empty sandbox (no demo data) accepting [`TOKEN`].
    pub fn empty() -> Harness {
        Self::over(TestSandbox::start(false, 0, None))
    }

    /// The demo data, so that listings have pages.
    pub fn demo() -> Harness {
        Self::over(TestSandbox::demo())
    }

    fn over(sandbox: TestSandbox) -> Harness {
        // appdeck's client installs the TLS provider reqwest needs; this one talks plain HTTP.
        let _ = rustls::crypto::ring::default_provider().install_default();
        Harness {
            sandbox,
            client: reqwest::Client::new(),
        }
    }

    /// The sandbox's data, to look at without going through HTTP.
    pub fn store(&self) -> appdeck_sandbox::SandboxStore {
        self.sandbox.store()
    }

    /// Sends one request and reads the whole answer.
    pub fn send(&self, request: &Request) -> Exchange {
        let url = format!("{}{}", self.sandbox.base_url, request.operation.path());
        let mut builder = self
            .client
            .request(request.method.clone(), url)
            .header("content-type", "application/json")
            .body(request.body.clone());
        for value in request.auth.headers() {
            builder = builder.header("authorization", value);
        }
        let (status, www_authenticate, body) = self.sandbox.block_on(async {
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
