//! Reviewing, sending and answering, as both composers (report and connect) do it: the exact
//! request on screen, `c` for curl, `Enter` to send (refused under a read-only profile, and held
//! for a second `Enter` when something should make the user think twice), `Esc` to cancel a send
//! in flight, and the answer with its `platform_app_url`. Every send is recorded in the history.

use crate::app::Toward;
use crate::app::action::Move;
use std::time::Duration;

use crate::api::{ApiError, Exchange, Reply, curl};
use crate::app::keymap::{
    Binding,
    Key::{Char, Code},
    bind,
};
use crate::app::pane::{Ctx, Outcome};
use crate::app::panes::history::record::{record, record_cancelled};
use crate::app::{Action, ApiCall, Body, Command, RequestId};
use crate::sanitize;
use crate::store::SendKind;
use crossterm::event::KeyCode;

/// Where a composer is in writing, reviewing and sending.
#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    Editing,
    /// The exact request on screen; when it needs a second confirmation, `armed` once the first
    /// `Enter` was pressed.
    Review {
        body: Body,
        armed: bool,
    },
    /// Sent; waiting for the answer (`Esc` cancels).
    Sending {
        id: RequestId,
        body: Body,
    },
    Answered(Box<SendResult>),
}

/// What came back from a send.
#[derive(Clone, Debug, PartialEq)]
pub struct SendResult {
    pub ok: bool,
    pub http_status: Option<u16>,
    pub elapsed: Duration,
    pub status: Option<String>,
    pub message: Option<String>,
    pub platform_app_url: Option<String>,
    /// The service's `error`, or what went wrong on the way (network, timeout, not JSON).
    pub error: Option<String>,
    /// What an accepted report changed in its resource, against the resource as listed
    /// (`None`: not known, as for a report written from a file).
    pub changes: Option<Vec<crate::changes::Change>>,
    /// Accepted with no body at all (a connect: the spec shows no connect answer).
    pub empty: bool,
    /// Accepted, but its `status` is neither `ok` nor `error` (absent, `"OK"`, `["ok"]`): it does
    /// not say the send was taken ([`appdeck_core::api::Answer::unclear_status`]).
    pub unclear: bool,
}

impl SendResult {
    pub(crate) fn from_exchange(exchange: &Exchange) -> Self {
        let mut result = SendResult {
            ok: false,
            http_status: exchange.status,
            elapsed: exchange.elapsed,
            status: None,
            message: None,
            platform_app_url: None,
            error: None,
            changes: None,
            empty: false,
            unclear: false,
        };
        match &exchange.result {
            Ok(Reply::Answer(answer)) => {
                let response = &answer.response;
                // Not a string (`["ok"]`): as written, where a `—` said nothing came.
                result.status = response.status.get().cloned().or_else(|| {
                    let span = crate::json_text::span_of(&answer.text, "/status")?;
                    Some(answer.text[span].to_owned())
                });
                result.message = response.message.get().cloned();
                result.platform_app_url = response
                    .metadata
                    .get()
                    .and_then(|m| m.platform_app_url.get().cloned());
                // A refusal with an error status says why in its `error`, else in its status.
                result.error = response
                    .error
                    .get()
                    .cloned()
                    .or_else(|| answer.http_error.as_ref().map(describe));
                result.ok = answer.rejection().is_none();
                result.empty = answer.raw.is_null();
            }
            Ok(Reply::Page(_)) => result.error = Some("the service answered with a page".into()),
            Err(error) => result.error = Some(describe(error)),
        }
        result
    }
}

fn describe(error: &ApiError) -> String {
    match error.hint() {
        Some(hint) => format!("{error} ({hint})"),
        None => error.to_string(),
    }
}

/// Which send this is: the operation (from the kind) and where it goes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Target<'a> {
    pub kind: SendKind,
    pub base_url: &'a str,
    /// A report's resource as it was listed, recorded with the send (see
    /// [`crate::store::Sent::resource_before`]).
    pub resource_before: Option<&'a str>,
}

/// A key in the review, scrolled by `scroll` up to `bottom` (when known: see
/// `Composer::review_bottom`). `hold` is what the first `Enter` says when the send needs a second
/// one (findings, breaking changes); `None` sends at once.
pub(crate) fn update_review(
    phase: &mut Phase,
    (scroll, bottom): (&mut usize, Option<usize>),
    action: Action,
    cx: &mut Ctx,
    target: Target<'_>,
    hold: Option<String>,
) -> Outcome {
    let Phase::Review { body, armed } = phase else {
        return Outcome::done();
    };
    let scrolled = scroll_by(scroll, action, bottom.unwrap_or(usize::MAX / 2));
    if let Some(bottom) = bottom {
        *scroll = (*scroll).min(bottom);
    }
    let Err(action) = scrolled else {
        return Outcome::done();
    };
    match action {
        Action::Open if confirmed(armed, hold, target.kind.as_str(), cx) => {
            let id = cx.ids.issue();
            let body = body.clone();
            let call = ApiCall {
                operation: target.kind.operation(),
                body: body.clone(),
            };
            *phase = Phase::Sending { id, body };
            return vec![Command::Api { id, call }].into();
        }
        Action::Open => {}
        Action::CopyCurl => {
            let line = curl::command(target.base_url, target.kind.operation(), body.text());
            return cx.copy(Some(line), "curl command").into();
        }
        Action::Back => *phase = Phase::Editing,
        other => return Outcome::NotMine(other),
    }
    Outcome::done()
}

/// Whether the review's `Enter` sends `what` now: never under a read-only profile, and when
/// something holds the send (`hold`, said at the first `Enter`), only once `armed` by it.
pub(crate) fn confirmed(armed: &mut bool, hold: Option<String>, what: &str, cx: &mut Ctx) -> bool {
    if cx.refuse_write(what) {
        return false;
    }
    match hold {
        Some(text) if !*armed => {
            *armed = true;
            cx.info(text);
            false
        }
        _ => true,
    }
}

/// `j`/`k`, the page keys and the ends on lines scrolled by `scroll` (`Bottom` goes to
/// `bottom`); any other action back.
pub(crate) fn scroll_by(scroll: &mut usize, action: Action, bottom: usize) -> Result<(), Action> {
    match action {
        Action::Move(Move::Down) | Action::Scroll(Toward::Next) => *scroll += 1,
        Action::Move(Move::Up) | Action::Scroll(Toward::Previous) => {
            *scroll = scroll.saturating_sub(1)
        }
        Action::Move(Move::PageDown) => *scroll += 10,
        Action::Move(Move::PageUp) => *scroll = scroll.saturating_sub(10),
        Action::Move(Move::Top) => *scroll = 0,
        Action::Move(Move::Bottom) => *scroll = bottom,
        other => return Err(other),
    }
    Ok(())
}

/// A key while the send is in flight: `Esc` cancels it (and records that it may have arrived).
pub(crate) fn update_sending(
    phase: &mut Phase,
    action: Action,
    cx: &mut Ctx,
    target: Target<'_>,
) -> Outcome {
    if !matches!(phase, Phase::Sending { .. }) {
        return Outcome::done();
    }
    match action {
        Action::Back => {
            let commands = abandon_sending(phase, cx, target);
            cx.info("send cancelled (the service may have received it already)");
            commands.into()
        }
        other => Outcome::NotMine(other),
    }
}

/// The send in flight, if any, cancelled and recorded as such (the service may have received
/// it): `Esc` while sending, or the composer closing under it (`q`, `:profile`).
pub(crate) fn abandon_sending(phase: &mut Phase, cx: &mut Ctx, target: Target<'_>) -> Vec<Command> {
    let Phase::Sending { id, body } = phase else {
        return Vec::new();
    };
    let cancel = Command::Cancel(*id);
    let record = record_cancelled(cx.ids.issue(), target.base_url, target.kind, body);
    *phase = Phase::Editing;
    vec![cancel, record]
}

/// The answer's keys that do nothing: `o` and `y` when it has no `platform_app_url`.
pub(crate) fn idle_keys(phase: &Phase) -> &'static [&'static str] {
    match phase {
        Phase::Answered(result) if result.platform_app_url.is_none() => &["open_link", "copy"],
        _ => &[],
    }
}

/// A key on the answer: `o` opens `platform_app_url`, `y` copies it, `Esc` goes back to editing.
pub(crate) fn update_answered(phase: &mut Phase, action: Action, cx: &mut Ctx) -> Outcome {
    let Phase::Answered(result) = phase else {
        return Outcome::done();
    };
    match action {
        Action::OpenLink => {
            let url = result.platform_app_url.clone();
            cx.open_url(url, "the answer has no platform_app_url")
                .into()
        }
        Action::Copy => {
            let url = result.platform_app_url.clone();
            cx.copy(url, "platform_app_url").into()
        }
        Action::Back => {
            *phase = Phase::Editing;
            Outcome::done()
        }
        other => Outcome::NotMine(other),
    }
}

/// What an answer to the send in flight did.
#[derive(Debug)]
pub(crate) struct Answered {
    /// The service accepted it.
    pub ok: bool,
    /// The body as it was sent.
    pub body: Body,
    /// Its record in the history.
    pub commands: Vec<Command>,
}

/// The answer to request `id`: when it is the send in flight, the phase shows it, the send is
/// recorded, and the status bar says what happened. `None` for any other id.
pub(crate) fn answer(
    phase: &mut Phase,
    id: RequestId,
    exchange: &Exchange,
    cx: &mut Ctx,
    target: Target<'_>,
) -> Option<Answered> {
    let Phase::Sending { id: sent, body } = phase else {
        return None;
    };
    if *sent != id {
        return None;
    }
    let body = std::mem::take(body);
    let noun = target.kind.as_str();
    // Held back before it went out (the store could not mark its draft): nothing to record; the
    // review again, where Enter sends it all the same.
    if let Err(ApiError::NotSent(why)) = &exchange.result {
        cx.error(format!("the {noun} was not sent: {}", sanitize::line(why)));
        *phase = Phase::Review {
            body: body.clone(),
            armed: true,
        };
        return Some(Answered {
            ok: false,
            body,
            commands: Vec::new(),
        });
    }
    // As `appdeck report` and `connect` warn: taken as accepted, but the answer does not say so.
    let silent = match &exchange.result {
        Ok(Reply::Answer(answer)) => answer.unclear_status(target.kind.operation()),
        _ => None,
    };
    let (recorded, mut result) =
        recorded(cx, &target, &body, exchange, &format!("sending a {noun}"));
    result.unclear = silent.is_some();
    let commands = vec![recorded];
    let ok = result.ok;
    let empty = result.empty;
    *phase = Phase::Answered(Box::new(result));
    if ok && empty {
        // As `appdeck connect` warns: taken as accepted, but nothing confirmed it.
        let http = exchange
            .status
            .map_or_else(|| "2xx".to_owned(), |s| s.to_string());
        cx.error(format!(
            "warning: the service accepted the {noun} (HTTP {http}) with an empty answer"
        ));
    } else if let (true, Some(warning)) = (ok, silent) {
        cx.error(format!("warning: {warning}"));
    } else if ok {
        cx.info(format!("{noun} sent: the service answered ok"));
    } else if let Err(
        error @ (ApiError::Network(_) | ApiError::Timeout(_) | ApiError::RequestTooLarge { .. }),
    ) = &exchange.result
    {
        // Not the service's refusal: none came (too large to send, the network, a timeout);
        // a proxy's error page or an answer that is not JSON is an answer, said as refused.
        let error = sanitize::line(&error.to_string()).into_owned();
        cx.error(format!("the {noun} got no answer: {error}"));
    } else {
        cx.error(format!("the {noun} was refused: fix it and send again"));
    }
    Some(Answered { ok, body, commands })
}

/// The answer to a send of `body`: its record in the history (a refusal or a network failure
/// too), and what it says. A failure goes to `!` too, with its request and the start of the
/// answer, as what was being done (`doing`) failing.
pub(crate) fn recorded(
    cx: &mut Ctx,
    target: &Target<'_>,
    body: &Body,
    exchange: &Exchange,
    doing: &str,
) -> (Command, SendResult) {
    let record = record(cx.ids.issue(), target, body, exchange);
    let result = SendResult::from_exchange(exchange);
    let failure = match &exchange.result {
        Err(error) => Some(error),
        Ok(Reply::Answer(answer)) => answer.http_error.as_ref(),
        Ok(_) => None,
    };
    if let Some(error) = failure {
        cx.record_api_error(doing, error);
    }
    (record, result)
}

/// The review's keys, the same in both composers but for what sending does (`send_help`).
pub(crate) const fn reviewing(send_help: &'static str) -> [Binding; 3] {
    [
        bind(
            "send",
            &[Code(KeyCode::Enter)],
            send_help,
            || Action::Open,
            "send",
        ),
        bind(
            "copy_curl",
            &[Char('c')],
            "copy as curl (token from $APPDECK_TOKEN)",
            || Action::CopyCurl,
            "curl",
        ),
        bind(
            "back",
            &[Code(KeyCode::Esc)],
            "back to editing",
            || Action::Back,
            "edit",
        ),
    ]
}

/// A send in flight, in either composer: `Esc` cancels it.
pub(crate) static SENDING: [Binding; 1] = [bind(
    "back",
    &[Code(KeyCode::Esc)],
    "cancel the send",
    || Action::Back,
    "cancel",
)];

/// The answer, in either composer.
pub(crate) static ANSWERED: [Binding; 3] = [
    bind(
        "open_link",
        &[Char('o')],
        "open platform_app_url",
        || Action::OpenLink,
        "open",
    ),
    bind(
        "copy",
        &[Char('y')],
        "copy platform_app_url",
        || Action::Copy,
        "copy",
    ),
    bind(
        "back",
        &[Code(KeyCode::Esc), Code(KeyCode::Enter)],
        "back to editing",
        || Action::Back,
        "back",
    ),
];
