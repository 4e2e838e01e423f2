//! `R` over rows marked with `Space`: one report composed (the composer opens on the first
//! marked resource) and sent once per marked resource, each send carrying its own resource as
//! the list showed it, as `R` on that row alone would. The sends go a few at a time
//! (`widgets::send_many`, as `appdeck report --each -j 4`), each recorded in the history; the
//! results, a row a resource in the words `report --each` prints, take the place of the answer. The
//! resources the service accepted are unmarked in the list, the others stay marked for another
//! try. `Esc` stops sending the rest (the sends under way finish; `Esc` again cancels them).

use std::sync::Arc;

use super::check::{self, CheckJob};
use super::keys::{MARKED_RESULTS_KEYS, MARKED_REVIEW_KEYS, MARKED_SENDING_KEYS};
use super::{Field, Phase, ReportComposer, ReportContext};
use crate::app::keymap::KeyTable;
use crate::app::pane::{Ctx, News, Outcome};
use crate::app::widgets::send_flow::{self, Target};
#[cfg(test)]
use crate::app::widgets::send_many::AT_ONCE;
use crate::app::widgets::send_many::RunKey;
pub(crate) use crate::app::widgets::send_many::{Run, Send};
use crate::app::{Action, Command, Delivery};
use crate::sanitize;
use crate::store::SendKind;
use crate::text::{count, counted};

/// The resources a report over marks goes to, and its sending once it started.
#[derive(Clone, Debug)]
pub struct Marked {
    /// In the list's order (the rows shown first, then those a filter hides).
    pub resources: Vec<MarkedResource>,
    /// One send a resource, in the same order.
    pub run: Option<Run>,
}

/// A marked row, as the list showed it.
#[derive(Clone, Debug, PartialEq)]
pub struct MarkedResource {
    pub id: Box<str>,
    /// Its JSON text as the service sent it: the resource its report carries.
    pub listed: Arc<str>,
}

impl ReportComposer {
    /// A report to send to each of `resources` (at least one): the composer of the first,
    /// its draft kept apart from the reports about one resource.
    pub fn for_marked(
        context: Arc<ReportContext>,
        resources: Vec<MarkedResource>,
        seed: u64,
    ) -> Self {
        let first = resources.first().map_or("{}", |r| &r.listed).to_owned();
        let mut composer = ReportComposer::for_resource(context, &first, seed);
        let subject = ReportComposer::draft_subject(Some("marked"));
        composer.draft.subject = subject;
        composer.kind.marked = Some(Box::new(Marked {
            resources,
            run: None,
        }));
        composer
    }

    /// How many resources this report goes to, when it goes to the marked ones.
    pub fn marked_count(&self) -> Option<usize> {
        self.marked.as_ref().map(|m| m.resources.len())
    }
}

/// The resource's text as `R` puts it in the editor (laid out token by token, what could drive
/// the terminal as `\u` escapes: the same data): what each send carries, as `R` on its row.
pub(super) fn as_composed(listed: &str) -> String {
    sanitize::json_for_terminal(&crate::json_text::pretty(listed)).into_owned()
}

/// The key table while a report over marks is reviewed, sent or answered.
pub(super) fn own_keys(c: &ReportComposer) -> Option<&'static KeyTable> {
    let marked = c.marked.as_deref()?;
    match (&marked.run, &c.phase) {
        (Some(run), _) if run.is_over() => Some(&MARKED_RESULTS_KEYS),
        (Some(_), _) => Some(&MARKED_SENDING_KEYS),
        (None, Phase::Review { .. }) => Some(&MARKED_REVIEW_KEYS),
        (None, _) => None,
    }
}

/// What the status bar says while the reports go out.
pub(super) fn activity(c: &ReportComposer) -> Option<String> {
    c.marked.as_deref()?.run.as_ref()?.activity("reports")
}

/// The keys a report over marks handles itself: `Enter` in the review sends to each, the keys
/// of the sending and the results, and the edits of the resource it refuses (each send carries
/// its own resource as listed). `Err` gives the action back to the composer.
pub(super) fn intercept(
    c: &mut ReportComposer,
    action: Action,
    cx: &mut Ctx,
) -> Result<Outcome, Action> {
    let Some(marked) = c.kind.marked.as_deref() else {
        return Err(action);
    };
    if marked.run.is_some() {
        return Ok(update_run(c, action, cx));
    }
    let n = marked.resources.len();
    match (&c.phase, action) {
        (Phase::Review { .. }, Action::Open) => Ok(start(c, cx)),
        (Phase::Editing, action) if !c.editing => {
            let edits_resource = match &action {
                Action::Open | Action::StartEdit => c.field == Field::Resource,
                Action::Fill | Action::EditExternally | Action::Undo(_) => true,
                _ => false,
            };
            if !edits_resource {
                return Err(action);
            }
            cx.error(format!(
                "each of the {} reports carries its own resource as listed: to change a \
                 resource, R on its row alone (Esc in the list unmarks)",
                count(n)
            ));
            Ok(Outcome::done())
        }
        (_, action) => Err(action),
    }
}

/// `Enter` in the review: one send a marked resource, the first waiting for the draft's mark.
/// Held for a second `Enter` as a single report is (findings, a check still running).
fn start(c: &mut ReportComposer, cx: &mut Ctx) -> Outcome {
    let others = c.kind.marked.as_deref().map(|m| others_found(c, m));
    let hold = c.hold_words_with(others.into_iter().flatten().collect());
    let Phase::Review { armed, .. } = &mut c.phase else {
        return Outcome::done();
    };
    if !send_flow::confirmed(armed, hold, "report", cx) {
        return Outcome::done();
    }
    let Some(marked) = c.kind.marked.as_deref() else {
        return Outcome::done();
    };
    let sends = (marked.resources.iter())
        .map(|r| match c.kind.body_about(&as_composed(&r.listed)) {
            Ok(body) => Send::Waiting(body),
            Err(why) => Send::NotSent(format!("its resource is not JSON: {why}")),
        })
        .collect();
    let mut run = Run::new(SendKind::Report, sends);
    let mut commands = Vec::new();
    if let Some((id, send)) = run.first(cx.ids) {
        // Right before its send, as the composer marks a single report's draft.
        commands.push(c.draft.sending(id, c.draft_text()));
        commands.push(send);
    }
    let over = run.is_over();
    if let Some(marked) = c.kind.marked.as_deref_mut() {
        marked.run = Some(run);
    }
    if over {
        return finish(c, commands, cx);
    }
    commands.into()
}

/// What the checks find in the reports to the marked resources after the first (whose report
/// the composer checks as it is typed), each checked as `R` on its row alone would check it:
/// `3 findings in the reports to r1 and r4`, or nothing. Checked here, at the review's `Enter`,
/// as the composer checks a small report.
fn others_found(c: &ReportComposer, marked: &Marked) -> Option<String> {
    use crate::app::panes::composer::Kind;
    let job = c.kind.check_job();
    let mut findings = 0;
    let mut ids = Vec::new();
    for resource in marked.resources.iter().skip(1) {
        let job = CheckJob {
            resource_text: Arc::from(as_composed(&resource.listed)),
            ..job.clone()
        };
        let found = check::run(&job).len();
        if found > 0 {
            findings += found;
            ids.push(sanitize::line(&resource.id).into_owned());
        }
    }
    let names = match ids.as_slice() {
        [] => return None,
        [one] => one.clone(),
        [first @ .., last] if first.len() < 3 => format!("{} and {last}", first.join(", ")),
        _ => format!("{} and {} more", ids[..3].join(", "), count(ids.len() - 3)),
    };
    let reports = if ids.len() == 1 { "report" } else { "reports" };
    Some(format!(
        "{} in the {reports} to {names}",
        counted(findings, "finding")
    ))
}

/// A key while the reports go out, or on their results.
fn update_run(c: &mut ReportComposer, action: Action, cx: &mut Ctx) -> Outcome {
    let report = &mut c.kind;
    let Some(run) = report.marked.as_deref_mut().and_then(|m| m.run.as_mut()) else {
        return Outcome::NotMine(action);
    };
    match run.update(action, cx, &report.context.base_url) {
        RunKey::Done(commands) => commands.into(),
        RunKey::Leave => Outcome::Pop,
        RunKey::Copy => {
            let marked = c.kind.marked.as_deref();
            let failed = marked.map(|m| ids(m, false)).unwrap_or_default();
            let what = match failed.len() {
                0 | 1 => "failed resource id",
                _ => "failed resource ids",
            };
            cx.copy_each(&failed, what).into()
        }
        RunKey::Over(commands) => finish(c, commands, cx),
        RunKey::NotMine(action) => Outcome::NotMine(action),
    }
}

/// The sends under way cancelled and recorded as such, and none started after them: `Esc`, or
/// the composer closing under them (`q`, `:profile`).
pub(crate) fn abandon_in_flight(c: &mut ReportComposer, cx: &mut Ctx) -> Vec<Command> {
    let report = &mut c.kind;
    let Some(run) = report.marked.as_deref_mut().and_then(|m| m.run.as_mut()) else {
        return Vec::new();
    };
    run.abandon(cx, &report.context.base_url)
}

/// The answer to one of the sends: recorded, its result in its row, the next send out.
pub(super) fn on_reply(
    c: &mut ReportComposer,
    id: crate::app::RequestId,
    delivery: Delivery,
    cx: &mut Ctx,
) -> Option<Outcome> {
    let Delivery::Api(exchange) = delivery else {
        return None;
    };
    let report = &mut c.kind;
    let marked = report.marked.as_deref_mut()?;
    let run = marked.run.as_mut()?;
    let resources = &marked.resources;
    let about = |at: usize| {
        let target = Target {
            kind: SendKind::Report,
            base_url: &report.context.base_url,
            resource_before: Some(&resources[at].listed),
        };
        let id = sanitize::line(&resources[at].id);
        (target, format!("sending a report about {id}"))
    };
    let commands = match run.answer(id, &exchange, cx, about)? {
        Ok(commands) => commands,
        Err(why) => {
            // Nothing went out: back to the review, where `Enter` sends them all the same.
            marked.run = None;
            if let Phase::Review { armed, .. } = &mut c.phase {
                *armed = true;
            }
            cx.error(format!(
                "the reports were not sent: {why}; Enter sends them all the same"
            ));
            return Some(Outcome::done());
        }
    };
    if run.is_over() {
        return Some(finish(c, commands, cx));
    }
    Some(commands.into())
}

/// The ids of the resources whose report the service accepted, or (not `accepted`) did not
/// (refused, not answered, cancelled or never sent: what `y` copies, to try them again), in the
/// list's order.
fn ids(marked: &Marked, accepted: bool) -> Vec<&str> {
    let Some(run) = &marked.run else {
        return Vec::new();
    };
    (run.positions(accepted))
        .map(|at| &*marked.resources[at].id)
        .collect()
}

/// Every send has its end: say how it went, settle the draft (gone when every report was
/// accepted), and tell the lists which resources the service took (they unmark them and fetch
/// their rows again; the others stay marked).
fn finish(c: &mut ReportComposer, mut commands: Vec<Command>, cx: &mut Ctx) -> Outcome {
    let Some(marked) = c.kind.marked.as_deref() else {
        return commands.into();
    };
    let Some(run) = &marked.run else {
        return commands.into();
    };
    let total = run.sends.len();
    let accepted: Vec<Box<str>> = ids(marked, true).into_iter().map(Box::from).collect();
    let said = run.summary();
    if accepted.len() == total {
        commands.push(c.draft.sent());
        cx.info(said);
    } else {
        // The results' title says the failures stay marked.
        c.draft.not_sent(cx.now);
        cx.error(said);
    }
    if accepted.is_empty() {
        return commands.into();
    }
    Outcome::Tell(News::MarksReported(accepted.into()), commands)
}

#[cfg(test)]
#[path = "many_tests.rs"]
mod tests;
