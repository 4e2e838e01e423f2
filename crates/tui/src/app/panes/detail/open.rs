//! A row of the list opened as a detail: laid out off the UI thread when large (the list's
//! `Enter` on it, `d` with its text before a change).

use std::sync::Arc;

use super::Detail;
use crate::app::job::{Job, Progress};
use appdeck_listing::{Bodies, BodyError, NotLive, Row};

/// Rows whose JSON is larger than this open on a background task: laying out megabytes of
/// properties takes tens of milliseconds (about 100 ms for 5 MB), too long for a keypress.
pub(crate) const OPEN_IN_BACKGROUND_BYTES: usize = 256 * 1024;

/// Lays a large row's detail view out off the UI thread; answers with the [`Detail`].
#[derive(Debug)]
pub(crate) struct OpenDetail {
    pub row: Row,
    pub bodies: Bodies,
    /// `d`: the row's text at the look before, whose changes head the detail.
    pub changed_since: Option<Box<str>>,
    pub not_live: Option<NotLive>,
}

impl Job for OpenDetail {
    /// An error when the row's body cannot be read.
    type Output = Result<Detail, BodyError>;

    fn run(&self, _: &Progress) -> Result<Detail, BodyError> {
        let detail = detail_of(&self.row, &self.bodies, self.changed_since.as_deref())?;
        Ok(detail.not_live(self.not_live))
    }
}

/// The detail of `row`, read from its JSON text in `bodies`, which its `:export` writes; with
/// what changed since `changed_since` (its text before) at the top, for `d`.
pub(crate) fn detail_of(
    row: &Row,
    bodies: &Bodies,
    changed_since: Option<&str>,
) -> Result<Detail, BodyError> {
    let json = bodies.read(row.body)?;
    let detail = Detail::open_sent(Arc::new(Row::item_of(&json)), &json);
    Ok(match changed_since {
        Some(was) => detail.with_changes_since(was, &json),
        None => detail,
    })
}
