//! Sending one operation to many bodies, as `appdeck report --each -j 4` does: the first alone
//! (it waits for its draft's mark in the store), then up to [`AT_ONCE`] in flight, each answer
//! recorded in the history and worded as `report --each` prints it; `Esc` stops it (nothing
//! more goes out), and again cancels what is under way, recorded as such. A report over marked rows
//! (`panes/report/many.rs`) sends through it, as a composer sends one body through `send_flow`.

use super::send_flow::{self, SendResult, Target};
use crate::answer_words::answer_words;
use crate::api::{ApiError, Exchange, Reply};
use crate::app::keymap::{Binding, Key::Char, Key::Code, bind};
use crate::app::pane::Ctx;
use crate::app::panes::history::record::record_cancelled;
use crate::app::{Action, ApiCall, Body, Command, RequestId, RequestIds};
use crate::sanitize;
use crate::store::SendKind;
use crate::text::{count, counted};
use crossterm::event::KeyCode;

/// How many sends are in flight at once: as `report --each` sends by default.
pub(crate) const AT_ONCE: usize = 4;

/// The sends, one a body, in the order they were given.
#[derive(Clone, Debug)]
pub struct Run {
    pub kind: SendKind,
    pub sends: Vec<Send>,
    /// Stopped: nothing more goes out.
    pub stopped: bool,
    /// Lines the results are scrolled by.
    pub scroll: usize,
    /// The first send, which waits for the draft's mark in the store: the others go once it
    /// is answered (a store that cannot take the mark holds all of them back).
    gate: Option<RequestId>,
}

/// What a key did to a run ([`Run::update`]).
pub(crate) enum RunKey {
    /// Handled: these go out.
    Done(Vec<Command>),
    /// `Esc` or `Enter` on the results: they are left.
    Leave,
    /// `y` on the results.
    Copy,
    /// Every send has its end now: these go out, and its composer says how it went.
    Over(Vec<Command>),
    NotMine(Action),
}

/// The keys while the sends go out, which [`Run::update`] handles.
pub(crate) static SENDING: [Binding; 1] = [bind(
    "back",
    &[Code(KeyCode::Esc)],
    "stop sending the rest (again: cancel the sends under way)",
    || Action::Back,
    "stop",
)];

/// The keys on the results once every send has its end ([`Run::update`]), worded by the kind.
pub(crate) const fn results(back: &'static str, copy_failed: &'static str) -> [Binding; 2] {
    let leave = &[Code(KeyCode::Esc), Code(KeyCode::Enter)];
    [
        bind("back", leave, back, || Action::Back, "back"),
        bind(
            "copy_failed",
            &[Char('y')],
            copy_failed,
            || Action::Copy,
            "copy failed",
        ),
    ]
}

/// One body's send.
#[derive(Clone, Debug, PartialEq)]
pub enum Send {
    Waiting(Body),
    InFlight {
        id: RequestId,
        body: Body,
    },
    /// The service's answer (or why none came), as `report --each` words it.
    Answered {
        ok: bool,
        words: String,
    },
    /// Cancelled in flight: the service may have received it.
    Cancelled,
    /// Never sent, and why.
    NotSent(String),
}

impl Send {
    fn in_flight(&self) -> bool {
        matches!(self, Send::InFlight { .. })
    }

    fn accepted(&self) -> bool {
        matches!(self, Send::Answered { ok: true, .. })
    }

    fn refused(&self) -> bool {
        matches!(self, Send::Answered { ok: false, .. })
    }
}

impl Run {
    /// The sends of `kind`, none gone yet.
    pub(crate) fn new(kind: SendKind, sends: Vec<Send>) -> Run {
        Run {
            kind,
            sends,
            stopped: false,
            scroll: 0,
            gate: None,
        }
    }

    /// The first send, now in flight: the others wait for its answer.
    pub(crate) fn first(&mut self, ids: &mut RequestIds) -> Option<(RequestId, Command)> {
        let (id, send) = self.send_next(ids)?;
        self.gate = Some(id);
        Some((id, send))
    }

    /// Whether every send has its end (an answer, or none to come).
    pub fn is_over(&self) -> bool {
        !(self.sends.iter()).any(|s| matches!(s, Send::Waiting(_) | Send::InFlight { .. }))
    }

    /// How many sends are answered, and how many of them the service accepted.
    pub fn answered(&self) -> (usize, usize) {
        let answered = self.sends.iter().filter(|s| s.accepted() || s.refused());
        let ok = self.sends.iter().filter(|s| s.accepted()).count();
        (answered.count(), ok)
    }

    /// Where the sends the service accepted are, or (not `accepted`) those it did not (refused,
    /// not answered, cancelled or never sent).
    pub(crate) fn positions(&self, accepted: bool) -> impl Iterator<Item = usize> + '_ {
        (self.sends.iter().enumerate())
            .filter_map(move |(i, s)| (s.accepted() == accepted).then_some(i))
    }

    /// The next waiting send, now in flight.
    fn send_next(&mut self, ids: &mut RequestIds) -> Option<(RequestId, Command)> {
        let send = (self.sends.iter_mut()).find(|s| matches!(s, Send::Waiting(_)))?;
        let Send::Waiting(body) = std::mem::replace(send, Send::Cancelled) else {
            return None;
        };
        let id = ids.issue();
        let call = ApiCall {
            operation: self.kind.operation(),
            body: body.clone(),
        };
        *send = Send::InFlight { id, body };
        Some((id, Command::Api { id, call }))
    }

    /// Sends more, up to [`AT_ONCE`] in flight, once the first is answered.
    fn fill(&mut self, ids: &mut RequestIds) -> Vec<Command> {
        let mut commands = Vec::new();
        if self.gate.is_some() || self.stopped {
            return commands;
        }
        while self.sends.iter().filter(|s| s.in_flight()).count() < AT_ONCE {
            match self.send_next(ids) {
                Some((_, command)) => commands.push(command),
                None => break,
            }
        }
        commands
    }

    /// Nothing more goes out: returns how many are still under way.
    fn stop(&mut self) -> usize {
        self.stopped = true;
        for send in &mut self.sends {
            if matches!(send, Send::Waiting(_)) {
                *send = Send::NotSent("stopped before it was sent".to_owned());
            }
        }
        self.sends.iter().filter(|s| s.in_flight()).count()
    }

    /// The sends under way cancelled and recorded as such (sent to `base_url`), and none
    /// started after them.
    pub(crate) fn abandon(&mut self, cx: &mut Ctx, base_url: &str) -> Vec<Command> {
        let mut commands = Vec::new();
        for send in &mut self.sends {
            if let Send::InFlight { id, body } = send {
                commands.push(Command::Cancel(*id));
                commands.push(record_cancelled(cx.ids.issue(), base_url, self.kind, body));
                *send = Send::Cancelled;
            }
        }
        self.gate = None;
        commands
    }

    /// The answer to request `id`, when it is one of these sends: recorded (as `about` says
    /// where it went and what was being done), its words in its place, the next sends out.
    /// `Err` when the first send was held back before it went out: nothing was sent.
    pub(crate) fn answer<'a>(
        &mut self,
        id: RequestId,
        exchange: &Exchange,
        cx: &mut Ctx,
        about: impl FnOnce(usize) -> (Target<'a>, String),
    ) -> Option<Result<Vec<Command>, String>> {
        let at = (self.sends.iter())
            .position(|s| matches!(s, Send::InFlight { id: sent, .. } if *sent == id))?;
        let Send::InFlight { body, .. } = std::mem::replace(&mut self.sends[at], Send::Cancelled)
        else {
            return None;
        };
        if self.gate.take() == Some(id)
            && let Err(ApiError::NotSent(why)) = &exchange.result
        {
            return Some(Err(sanitize::line(why).into_owned()));
        }
        let (target, doing) = about(at);
        let (recorded, result) = send_flow::recorded(cx, &target, &body, exchange, &doing);
        self.sends[at] = Send::Answered {
            ok: result.ok,
            words: words(exchange, &result),
        };
        let mut commands = vec![recorded];
        commands.extend(self.fill(cx.ids));
        Some(Ok(commands))
    }

    /// A key while the sends go out, or on their results: the scroll keys; `Esc` stops, and
    /// again cancels what is under way (recorded as sent to `base_url`); once over, `Esc` and
    /// `Enter` leave and `y` copies.
    pub(crate) fn update(&mut self, action: Action, cx: &mut Ctx, base_url: &str) -> RunKey {
        let Err(action) = send_flow::scroll_by(&mut self.scroll, action, self.sends.len()) else {
            return RunKey::Done(Vec::new());
        };
        match action {
            Action::Back | Action::Open if self.is_over() => RunKey::Leave,
            Action::Copy if self.is_over() => RunKey::Copy,
            Action::Back if !self.stopped => {
                let under_way = self.stop();
                if self.is_over() {
                    return RunKey::Over(Vec::new());
                }
                cx.info(format!(
                    "stopped: {} under way finishing; Esc again cancels them",
                    counted(under_way, self.kind.as_str())
                ));
                RunKey::Done(Vec::new())
            }
            Action::Back => RunKey::Over(self.abandon(cx, base_url)),
            other => RunKey::NotMine(other),
        }
    }

    /// What the status bar says while the sends go out (`sends` names them).
    pub(crate) fn activity(&self, sends: &str) -> Option<String> {
        if self.is_over() {
            return None;
        }
        let (answered, _) = self.answered();
        let total = count(self.sends.len());
        Some(if self.stopped {
            format!("stopping: {answered} of {total} done; Esc cancels the sends under way")
        } else {
            format!("sending the {sends}: {answered} of {total} done; Esc stops")
        })
    }

    /// How it went, once over: `3 reports sent: 2 ok, 1 refused or not answered`.
    pub(crate) fn summary(&self) -> String {
        let total = self.sends.len();
        let many = |is: fn(&Send) -> bool| self.sends.iter().filter(|s| is(s)).count();
        let accepted = many(Send::accepted);
        let refused = many(Send::refused);
        let cancelled = many(|s| *s == Send::Cancelled);
        let not_sent = many(|s| matches!(s, Send::NotSent(_)));
        let sent = accepted + refused + cancelled;
        let of = match sent == total {
            true => String::new(),
            false => format!("{} of ", count(sent)),
        };
        let sends = counted(total, self.kind.as_str());
        let mut said = format!("{of}{sends} sent: {} ok", count(accepted));
        let others = [
            (refused, "refused or not answered"),
            (cancelled, "cancelled in flight (may have arrived)"),
            (not_sent, "not sent"),
        ];
        for (n, what) in others.into_iter().filter(|(n, _)| *n > 0) {
            said += &format!(", {} {what}", count(n));
        }
        if self.stopped {
            said = format!("stopped: {said}");
        }
        said
    }
}

/// An answer as `report --each` words it (the refusal as the CLI's, its HTTP status else its
/// `error`; or what went wrong on the way), then an accepted send's message.
fn words(exchange: &Exchange, result: &SendResult) -> String {
    let error = match &exchange.result {
        Ok(Reply::Answer(answer)) => answer.rejection().map(|e| e.to_string()),
        Ok(Reply::Page(_)) => result.error.clone(),
        Err(error) => Some(error.to_string()),
    };
    let said = answer_words(
        result.http_status,
        result.status.as_deref(),
        error.as_deref(),
    );
    let message = result.message.as_deref().filter(|m| !m.trim().is_empty());
    match message.filter(|_| result.ok) {
        Some(message) => format!("{said} · {}", sanitize::line(message)),
        None => said,
    }
}
