//! What a send from the TUI becomes in the history: the composers hand their answer (or its
//! absence) here and ask the runtime to record it ([`Command::RecordSend`]), off the UI thread.

use chrono::DateTime;

use crate::api::{ApiError, Exchange, Reply};
use crate::app::widgets::send_flow::Target;
use crate::app::{Body, Command, RequestId};
use crate::store::{SendKind, Sent};

/// Records a send of `body` to `base_url` that got `exchange` back. The time is stamped by the
/// runtime when it records (`update` reads no clock).
pub(crate) fn record(
    id: RequestId,
    target: &Target<'_>,
    body: &Body,
    exchange: &Exchange,
) -> Command {
    let page = ApiError::Decode {
        problem: "the service answered with a page".to_owned(),
        excerpt: String::new(),
    };
    let outcome = match &exchange.result {
        Ok(Reply::Answer(answer)) => Ok(answer.as_ref()),
        Ok(Reply::Page(_)) => Err(&page),
        Err(error) => Err(error),
    };
    let sent = Sent::from_outcome(
        target.base_url,
        target.kind,
        body.text(),
        DateTime::UNIX_EPOCH,
        exchange.status,
        Some(exchange.elapsed),
        outcome,
    );
    let sent = Sent {
        resource_before: target.resource_before.map(str::to_owned),
        ..sent
    };
    Command::RecordSend {
        id,
        sent: Box::new(sent),
    }
}

/// Records a send cancelled before its answer: the service may have received it.
pub(crate) fn record_cancelled(
    id: RequestId,
    base_url: &str,
    kind: SendKind,
    body: &Body,
) -> Command {
    let sent = Box::new(Sent {
        sent_at: DateTime::UNIX_EPOCH,
        base_url: base_url.to_owned(),
        kind,
        body: body.text().to_owned(),
        answer: None,
        http_status: None,
        duration: None,
        error: Some("cancelled before the answer (the service may have received it)".to_owned()),
        resource_before: None,
        resource_after: None,
    });
    Command::RecordSend { id, sent }
}
