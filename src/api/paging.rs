//! Following `resources.list` cursors. The rules (DESIGN.md): paging ends when `next` is absent,
//! null or empty; a cursor seen before in the same listing is a server fault, never a loop; rows
//! of another type than the one asked for are dropped, in case the server ignores the filter.

use std::collections::HashSet;

use super::client::Client;
use super::error::ApiError;
use super::types::{ListRequest, ListResponse, PageItem};

/// The cursors a listing has used so far. Shared by the CLI's pager and the TUI's browser.
#[derive(Clone, Debug, Default)]
pub struct CursorTrail {
    used: HashSet<String>,
}

impl CursorTrail {
    /// Records the cursor a page handed out and says whether it may be followed.
    pub fn accept(&mut self, next: &str) -> Result<(), ApiError> {
        if self.used.insert(next.to_owned()) {
            Ok(())
        } else {
            Err(ApiError::RepeatedCursor(next.to_owned()))
        }
    }
}

/// Drops the rows whose valid `type` differs from the filter. Rows with no readable type and
/// malformed items stay: they are shown and marked rather than silently lost.
pub fn retain_type(page: &mut ListResponse, wanted: Option<&str>) {
    if let Some(wanted) = wanted {
        page.resources.retain(|item| match item {
            PageItem::Resource(r) => r.resource_type.get().is_none_or(|t| t == wanted),
            PageItem::Malformed(_) => true,
        });
    }
}

/// Pulls the pages of one listing in order.
pub struct Pager {
    request: ListRequest,
    trail: CursorTrail,
    finished: bool,
    /// A server fault found in the last page's cursor: that page is still handed out (its rows
    /// are good), the fault comes with the next call.
    pending_fault: Option<ApiError>,
}

impl Pager {
    pub fn new(resource_type: Option<String>, limit: Option<u32>) -> Self {
        Pager {
            request: ListRequest {
                resource_type,
                next: None,
                limit,
            },
            trail: CursorTrail::default(),
            finished: false,
            pending_fault: None,
        }
    }

    /// The next page, or `None` when the listing is over. After an error the listing is over.
    pub async fn next_page(&mut self, client: &Client) -> Option<Result<ListResponse, ApiError>> {
        if let Some(fault) = self.pending_fault.take() {
            self.finished = true;
            return Some(Err(fault));
        }
        if self.finished {
            return None;
        }
        let result = client.list_page(&self.request).await.map(|mut page| {
            retain_type(&mut page, self.request.resource_type.as_deref());
            match (page.next_cursor(), page.next_fault()) {
                (_, Some(fault)) => self.pending_fault = Some(fault),
                (Some(next), None) => match self.trail.accept(next) {
                    Ok(()) => self.request.next = Some(next.to_owned()),
                    Err(fault) => self.pending_fault = Some(fault),
                },
                (None, None) => self.finished = true,
            }
            page
        });
        if result.is_err() {
            self.finished = true;
        }
        Some(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_repeated_cursor_is_refused() {
        let mut trail = CursorTrail::default();
        assert!(trail.accept("a").is_ok());
        assert!(trail.accept("b").is_ok());
        assert_eq!(trail.accept("a"), Err(ApiError::RepeatedCursor("a".into())));
    }

    /// Unequal counts of each type, so that an inverted or missing filter keeps a different
    /// set (and a different number) of rows.
    fn mixed_page() -> ListResponse {
        ListResponse::from_value(json!({"resources": [
            {"id": "r1", "type": "repo"},
            {"id": "u1", "type": "user"},
            {"id": "u2", "type": "user"},
            {"id": "u3", "type": "user"},
            {"id": "r2", "type": "repo"},
            {"id": "untyped"},
            {"id": "odd-type", "type": 7},
            5
        ]}))
        .unwrap()
    }

    fn kept(page: &ListResponse) -> Vec<String> {
        page.resources
            .iter()
            .map(|item| match item.resource().and_then(|r| r.id.get()) {
                Some(id) => id.clone(),
                None => item.to_json().to_string(),
            })
            .collect()
    }

    #[test]
    fn rows_of_another_type_are_dropped() {
        let mut page = mixed_page();
        retain_type(&mut page, Some("repo"));
        // The two repos, in order; rows with no readable type and malformed items stay.
        assert_eq!(kept(&page), ["r1", "r2", "untyped", "odd-type", "5"]);

        let mut page = mixed_page();
        retain_type(&mut page, Some("user"));
        assert_eq!(kept(&page), ["u1", "u2", "u3", "untyped", "odd-type", "5"]);
    }

    #[test]
    fn no_type_filter_keeps_every_row() {
        let mut page = mixed_page();
        retain_type(&mut page, None);
        assert_eq!(page, mixed_page());
    }
}
