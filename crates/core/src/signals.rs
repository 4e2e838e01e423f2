//! The signals that ask a long-running appdeck (the TUI, `appdeck sandbox`) to stop: SIGTERM
//! (`kill`, service managers), SIGHUP (the terminal went away) and SIGINT (ctrl-c outside raw
//! mode). Listening starts at [`StopSignals::listen`], so a caller can be sure none arrives
//! unheard after that point.

pub struct StopSignals {
    /// Each signal's number, with its stream.
    #[cfg(unix)]
    streams: Vec<(i32, tokio::signal::unix::Signal)>,
}

/// SIGINT's number, which ctrl-c is on every platform.
const SIGINT: i32 = 2;

impl StopSignals {
    /// Starts listening. Must be called inside a tokio runtime.
    #[cfg(unix)]
    pub fn listen() -> Self {
        use tokio::signal::unix::{SignalKind, signal};
        let kinds = [
            (libc::SIGTERM, SignalKind::terminate()),
            (libc::SIGHUP, SignalKind::hangup()),
            (SIGINT, SignalKind::interrupt()),
        ];
        let streams = kinds
            .into_iter()
            .filter_map(|(number, kind)| Some((number, signal(kind).ok()?)))
            .collect();
        StopSignals { streams }
    }

    /// Resolves with the number of the signal that arrived (never, if none could be listened
    /// to), so that the process can exit with 128 + that number, as a shell expects of a
    /// program a signal stopped.
    #[cfg(unix)]
    pub async fn received(mut self) -> i32 {
        if self.streams.is_empty() {
            return std::future::pending().await;
        }
        let waits = self.streams.iter_mut().map(|(number, stream)| {
            Box::pin(async move {
                stream.recv().await;
                *number
            })
        });
        futures_util::future::select_all(waits).await.0
    }

    #[cfg(not(unix))]
    pub(crate) fn listen() -> Self {
        StopSignals {}
    }

    #[cfg(not(unix))]
    pub(crate) async fn received(self) -> i32 {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
        SIGINT
    }
}
