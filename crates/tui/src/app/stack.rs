//! The navigation stack and the routing of results. Opening a screen pushes it, `Esc` pops it,
//! so "back" returns to where the user came from. The resource list is the bottom and is never
//! popped. Every request is noted with the screen that asked, and its result goes back to that
//! screen; a result for a request that was cancelled, or whose screen was closed, is dropped.

use std::collections::HashMap;

use super::action::{Command, RequestId};
use super::pane::Screen;

/// Names one screen for as long as it is open; never reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScreenId(u64);

impl ScreenId {
    /// The resource list at the bottom of the stack.
    pub const BROWSER: ScreenId = ScreenId(0);
}

#[derive(Clone, Debug)]
pub(crate) struct Layer {
    pub id: ScreenId,
    pub screen: Screen,
}

/// The screens above the resource list, and which of them asked for what.
#[derive(Clone, Debug, Default)]
pub struct Stack {
    layers: Vec<Layer>,
    last_id: u64,
    owners: HashMap<RequestId, ScreenId>,
}

impl Stack {
    /// The screen on top; `None` when the resource list is.
    pub fn top(&self) -> Option<&Screen> {
        self.layers.last().map(|l| &l.screen)
    }

    pub(crate) fn top_mut(&mut self) -> Option<&mut Layer> {
        self.layers.last_mut()
    }

    /// The screens above the list, bottom first.
    pub(crate) fn layers(&self) -> &[Layer] {
        &self.layers
    }

    pub(crate) fn layers_mut(&mut self) -> &mut [Layer] {
        &mut self.layers
    }

    /// Which screen has the keyboard.
    pub(crate) fn top_id(&self) -> ScreenId {
        self.layers.last().map_or(ScreenId::BROWSER, |l| l.id)
    }

    pub fn push(&mut self, screen: Screen) -> ScreenId {
        // Ids are only compared: they must be unique and never `ScreenId::BROWSER` (0). Counting
        // down from there (the `-=` mutant, wrapping) would be as good: benches/mutants.toml.
        self.last_id += 1;
        let id = ScreenId(self.last_id);
        self.layers.push(Layer { id, screen });
        id
    }

    /// Closes the top screen; returns the cancels of the requests it still had in flight. The
    /// resource list is never popped.
    pub(crate) fn pop(&mut self) -> Vec<Command> {
        self.close_top()
            .map(|(_, cancels)| cancels)
            .unwrap_or_default()
    }

    /// Closes the top screen as [`Stack::pop`] does, and hands it over.
    pub(crate) fn close_top(&mut self) -> Option<(Screen, Vec<Command>)> {
        let layer = self.layers.pop()?;
        Some((layer.screen, self.forget(layer.id)))
    }

    /// Back to the resource list, closing every screen above it.
    pub(crate) fn pop_all(&mut self) -> Vec<Command> {
        let mut cancels = Vec::new();
        while !self.layers.is_empty() {
            cancels.extend(self.pop());
        }
        cancels
    }

    /// Notes `owner` as the asker of every request among `commands`, and forgets the cancelled.
    pub(crate) fn claim(&mut self, owner: ScreenId, commands: &[Command]) {
        for command in commands {
            if let Some(id) = command.request_id() {
                self.owners.insert(id, owner);
            }
            if let Command::Cancel(id) = command {
                self.owners.remove(id);
            }
        }
    }

    /// The screen a result is for, if it is still open and still waiting for it; the request is
    /// forgotten either way.
    pub(crate) fn route(&mut self, id: RequestId) -> Option<ScreenId> {
        let owner = self.route_progress(id);
        self.owners.remove(&id);
        owner
    }

    /// The screen a job's progress is for, if it is still open and waiting: the request is kept,
    /// its answer is still to come.
    pub(crate) fn route_progress(&self, id: RequestId) -> Option<ScreenId> {
        let owner = *self.owners.get(&id)?;
        (owner == ScreenId::BROWSER || self.layers.iter().any(|l| l.id == owner)).then_some(owner)
    }

    /// Forgets the requests of a closed screen, and says to cancel them.
    fn forget(&mut self, screen: ScreenId) -> Vec<Command> {
        let mut ids: Vec<RequestId> = self
            .owners
            .iter()
            .filter(|(_, owner)| **owner == screen)
            .map(|(id, _)| *id)
            .collect();
        ids.sort();
        for id in &ids {
            self.owners.remove(id);
        }
        ids.into_iter().map(Command::Cancel).collect()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::api::PageItem;
    use crate::app::panes::detail::Detail;

    fn detail() -> Screen {
        let item = PageItem::from_value(serde_json::json!({"id": "x"}));
        Screen::Detail(Box::new(Detail::open(Arc::new(item))))
    }

    fn asks(id: u64) -> Vec<Command> {
        vec![
            Command::Cancel(RequestId(999)),
            Command::OpenUrl("x".into()),
        ]
        .into_iter()
        .chain([Command::Api {
            id: RequestId(id),
            call: crate::app::ApiCall::report(crate::app::Body::of_value(serde_json::json!({}))),
        }])
        .collect()
    }

    #[test]
    fn a_result_goes_to_the_screen_that_asked() {
        let mut stack = Stack::default();
        stack.claim(ScreenId::BROWSER, &asks(1));
        let top = stack.push(detail());
        stack.claim(top, &asks(2));
        assert_eq!(stack.route(RequestId(1)), Some(ScreenId::BROWSER));
        assert_eq!(stack.route(RequestId(2)), Some(top));
        assert_eq!(stack.route(RequestId(2)), None, "one result per request");
        assert_eq!(stack.route(RequestId(3)), None, "never asked");
    }

    #[test]
    fn closing_a_screen_cancels_its_requests_and_drops_their_results() {
        let mut stack = Stack::default();
        stack.claim(ScreenId::BROWSER, &asks(1));
        let top = stack.push(detail());
        stack.claim(top, &asks(2));
        stack.claim(top, &asks(3));
        assert_eq!(
            stack.pop(),
            vec![Command::Cancel(RequestId(2)), Command::Cancel(RequestId(3))]
        );
        assert_eq!(stack.route(RequestId(2)), None);
        let again = stack.push(detail());
        assert_ne!(again, top, "a new screen is not taken for the closed one");
        assert_eq!(stack.route(RequestId(3)), None);
        assert_eq!(stack.route(RequestId(1)), Some(ScreenId::BROWSER));
    }

    #[test]
    fn a_jobs_progress_keeps_the_request_for_its_answer() {
        let mut stack = Stack::default();
        let top = stack.push(detail());
        stack.claim(top, &asks(2));
        assert_eq!(stack.route_progress(RequestId(2)), Some(top));
        assert_eq!(
            stack.route_progress(RequestId(2)),
            Some(top),
            "progress again"
        );
        assert_eq!(stack.route(RequestId(2)), Some(top), "then the answer");
        assert_eq!(stack.route_progress(RequestId(2)), None, "nothing after it");
        stack.claim(top, &asks(3));
        stack.pop();
        assert_eq!(
            stack.route_progress(RequestId(3)),
            None,
            "its screen closed"
        );
    }

    #[test]
    fn a_cancelled_request_is_forgotten() {
        let mut stack = Stack::default();
        stack.claim(ScreenId::BROWSER, &asks(1));
        stack.claim(ScreenId::BROWSER, &[Command::Cancel(RequestId(1))]);
        assert_eq!(stack.route(RequestId(1)), None);
    }

    #[test]
    fn the_list_is_never_popped() {
        let mut stack = Stack::default();
        assert!(stack.pop().is_empty());
        assert!(stack.top().is_none());
        assert_eq!(stack.top_id(), ScreenId::BROWSER);
    }
}
