//! Shutting down the sandbox cuts a request it is holding. Alone in its own test binary: it
//! waits for the sandbox's own log event with a thread-local tracing subscriber, and tracing's
//! cache of which callsites are enabled can miss that subscriber while other tests on other
//! threads hit the same callsite at the same moment.

use std::time::Duration;

use appdeck_core::api::{ApiError, Client, ClientSettings, ListRequest, Token};
use appdeck_sandbox::{Fault, Sandbox, SandboxOptions};

/// Generous bound for anything awaited here: reached only when something is broken.
const PATIENCE: Duration = Duration::from_secs(10);

/// Sends the message of every event logged on this thread, so that a test can wait for the
/// sandbox's "sandbox request received" instead of sleeping.
struct LoggedMessages(tokio::sync::mpsc::UnboundedSender<String>);

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for LoggedMessages {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        struct Message(Option<String>);
        impl tracing::field::Visit for Message {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                if field.name() == "message" {
                    self.0 = Some(format!("{value:?}"));
                }
            }
        }
        let mut message = Message(None);
        event.record(&mut message);
        if let Some(text) = message.0 {
            let _ = self.0.send(text);
        }
    }
}

/// Shutting down cuts a request the server is holding: the request provably reached the
/// sandbox (its handler logged it), and its answer is the sandbox's own 503, not a network
/// error that a request which never arrived would also get.
#[tokio::test]
async fn shutdown_cuts_a_request_the_server_is_holding() {
    use tracing_subscriber::layer::SubscriberExt;
    // `#[tokio::test]` runs the sandbox on this thread, so a thread-local subscriber sees it.
    let (logged, mut messages) = tokio::sync::mpsc::unbounded_channel();
    let _log = tracing::subscriber::set_default(
        tracing_subscriber::registry().with(LoggedMessages(logged)),
    );
    let options = SandboxOptions {
        fault: Some(Fault::Slow(Duration::from_secs(60))),
        ..SandboxOptions::default()
    };
    let sandbox = Sandbox::start(options).await.expect("the sandbox starts");
    let mut settings = ClientSettings::new(sandbox.base_url(), Token::new(sandbox.token()));
    settings.request_timeout = PATIENCE;
    let patient = Client::new(&settings).expect("a client");
    let in_flight = tokio::spawn(async move { patient.list_page(&ListRequest::default()).await });
    let mut seen = Vec::new();
    let arrived = tokio::time::timeout(PATIENCE, async {
        while let Some(message) = messages.recv().await {
            if message == "sandbox request received" {
                return;
            }
            seen.push(message);
        }
    })
    .await;
    assert!(
        arrived.is_ok(),
        "the request reaches the sandbox; logged: {seen:?}"
    );

    tokio::time::timeout(PATIENCE, sandbox.shutdown())
        .await
        .expect("shutdown ends");
    let answer = tokio::time::timeout(PATIENCE, in_flight)
        .await
        .expect("the in-flight request ends")
        .expect("the request task");
    match answer {
        Err(ApiError::Http {
            status: 503,
            message,
            ..
        }) => assert!(message.contains("shutting down"), "{message}"),
        other => panic!("expected the held request to be cut with a 503, got {other:?}"),
    }
}
