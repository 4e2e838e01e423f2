//! The accept loop: HTTP/1.1 connections served by hyper with a header-read timeout (which also
//! closes idle keep-alive connections), at most `max_connections` at once, and a graceful stop.
//! `axum::serve` offers none of these limits, which is why the sandbox has its own loop.

use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;

use super::limits::SandboxLimits;

/// A pause after a failed accept (out of file descriptors, say), so the loop does not spin.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// Serves `app` on `listener` until `stop` turns `true` (or its sender is dropped), then lets
/// open connections finish their current request and returns.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: SandboxLimits,
    mut stop: watch::Receiver<bool>,
) -> std::io::Result<()> {
    let permits = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let (closing, closing_rx) = watch::channel(false);
    let mut connections = JoinSet::new();
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _peer)) => stream,
                Err(e) => {
                    tracing::debug!("accepting a connection failed: {e}");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
            () = turned_true(&mut stop) => break,
        };
        // Finished connections are reaped here so the set only holds open ones.
        while connections.try_join_next().is_some() {}
        let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
            tracing::debug!(
                max_connections = limits.max_connections,
                "refused a connection: too many open"
            );
            continue; // dropping the stream closes it
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        let mut closing = closing_rx.clone();
        connections.spawn(async move {
            let _permit = permit;
            let mut builder = http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_timeout);
            let mut connection = pin!(builder.serve_connection(TokioIo::new(stream), service));
            tokio::select! {
                result = connection.as_mut() => {
                    if let Err(e) = result {
                        tracing::debug!("connection closed: {e}");
                    }
                    return;
                }
                () = turned_true(&mut closing) => {}
            }
            // Stopping: the request in progress is answered, then the connection closes.
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        });
    }
    drop(listener);
    let _ = closing.send(true);
    while connections.join_next().await.is_some() {}
    Ok(())
}

/// Resolves once the flag is `true` or its sender is gone (holding no borrow of it after).
async fn turned_true(flag: &mut watch::Receiver<bool>) {
    let _ = flag.wait_for(|on| *on).await;
}
