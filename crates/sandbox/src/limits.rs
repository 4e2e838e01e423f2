//! The limits that keep one bad client from stopping the sandbox: how long a client may take to
//! send a request, how many connections may be open at once, and how long checking a report
//! against its type's schema may take.

use std::time::Duration;

/// Limits on connections and on the work one request may cause. The defaults suit a sandbox on
/// a developer's machine; `appdeck sandbox` has a flag for each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SandboxLimits {
    /// Time a client has to send a request's headers, counted from when the connection opens or
    /// its previous answer was sent; a keep-alive connection idle for this long is closed too.
    pub header_timeout: Duration,
    /// Time a client has to send a request's body once its headers are in (a 408 past it).
    pub body_timeout: Duration,
    /// Connections open at once; a client connecting beyond this is closed at once, so a flood
    /// degrades into refused connections with memory and file descriptors bounded.
    pub max_connections: usize,
    /// Time one report may spend waiting for and checking its properties against its type's
    /// schema before it is refused with a message saying so.
    pub check_budget: Duration,
}

impl SandboxLimits {
    pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(5);
    pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(10);
    pub const DEFAULT_MAX_CONNECTIONS: usize = 4096;
    pub const DEFAULT_CHECK_BUDGET: Duration = Duration::from_secs(2);
}

impl Default for SandboxLimits {
    fn default() -> Self {
        SandboxLimits {
            header_timeout: Self::DEFAULT_HEADER_TIMEOUT,
            body_timeout: Self::DEFAULT_BODY_TIMEOUT,
            max_connections: Self::DEFAULT_MAX_CONNECTIONS,
            check_budget: Self::DEFAULT_CHECK_BUDGET,
        }
    }
}
