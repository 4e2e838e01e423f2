//! The signals that ask a long-running appdeck (the TUI, `appdeck sandbox`) to stop: SIGTERM
//! (`kill`, service managers), SIGHUP (the terminal went away) and SIGINT (ctrl-c outside raw
//! mode). Listening starts at [`StopSignals::listen`], so a caller can be sure none arrives
//! unheard after that point.

pub struct StopSignals {
    #[cfg(unix)]
    streams: Vec<tokio::signal::unix::Signal>,
}

impl StopSignals {
    /// Starts listening. Must be called inside a tokio runtime.
    #[cfg(unix)]
    pub fn listen() -> Self {
        use tokio::signal::unix::{SignalKind, signal};
        let kinds = [
            SignalKind::terminate(),
            SignalKind::hangup(),
            SignalKind::interrupt(),
        ];
        let streams = kinds.into_iter().filter_map(|k| signal(k).ok()).collect();
        StopSignals { streams }
    }

    /// Resolves when one of the signals arrives (never, if none could be listened to).
    #[cfg(unix)]
    pub async fn received(mut self) {
        if self.streams.is_empty() {
            return std::future::pending().await;
        }
        let waits = self.streams.iter_mut().map(|s| Box::pin(s.recv()));
        futures_util::future::select_all(waits).await;
    }

    #[cfg(not(unix))]
    pub fn listen() -> Self {
        StopSignals {}
    }

    #[cfg(not(unix))]
    pub async fn received(self) {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}
