//! Remote data as it goes through its life: each pane shows its own state from this.

use super::action::RequestId;
use crate::api::ApiError;

#[derive(Clone, Debug, Default)]
pub enum Loadable<T> {
    #[default]
    NotLoaded,
    /// The request in flight; its answer is recognised by this id, a stale one dropped.
    Loading(RequestId),
    Loaded(T),
    Failed(ApiError),
}

impl<T> Loadable<T> {
    pub fn loaded(&self) -> Option<&T> {
        match self {
            Loadable::Loaded(v) => Some(v),
            _ => None,
        }
    }

    pub(crate) fn loaded_mut(&mut self) -> Option<&mut T> {
        match self {
            Loadable::Loaded(v) => Some(v),
            _ => None,
        }
    }

    pub(crate) fn is_loading(&self) -> bool {
        matches!(self, Loadable::Loading(_))
    }
}
