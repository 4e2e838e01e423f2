//! `appdeck report FILE --diff`: what a report changed in its resource. The resource is found in
//! the listing of its type by its `id` before the report is sent, and again once the service took
//! the report; when it is not listed again, the resource as the report sent it stands in, and the
//! output says which. Not finding it first only costs the diff: the report is sent all the same.

use serde::Serialize;
use serde_json::Value;

use crate::api::{ApiError, Client, ListRequest};
use crate::changes::{self, After, Change};
use crate::sanitize;

/// The most pages read looking for the resource, each time: a listing larger than this is not
/// searched to its end (and the diff is not shown rather than the send held up).
const MAX_PAGES: usize = 1_000;

/// The resource as it was listed before the report.
pub struct Before {
    /// Its JSON text as the service sent it.
    pub text: String,
    id: String,
    resource_type: Option<String>,
}

/// What the report changed, and what "after" is.
pub struct Diff {
    after: After,
    changes: Vec<Change>,
    /// The resource's text as listed again, when it was: what the history compares with too.
    listed: Option<String>,
}

impl Diff {
    /// The resource as listed again once the report was taken; `None` when the resource as the
    /// report sent it stands in.
    pub fn listed_again(&self) -> Option<&str> {
        self.listed.as_deref()
    }

    /// The text output's lines, after the answer's.
    pub fn lines(&self) -> Vec<String> {
        let count = changes::counted(self.changes.len(), self.after);
        let mut lines = vec![format!("what it changed: {count}")];
        lines.extend(
            self.changes
                .iter()
                .map(|c| sanitize::line(&c.to_string()).into_owned()),
        );
        lines
    }

    /// `{"before", "after", "changes": [{"change", "pointer", "before", "after"}]}`, each value
    /// as its JSON text.
    pub fn to_json(&self) -> DiffJson<'_> {
        DiffJson {
            before: "as listed",
            after: self.after.words(),
            changes: self.changes.iter().map(ChangeJson::from).collect(),
        }
    }
}

/// What `report --diff -o json` says the report changed (see [`Diff::to_json`]).
#[derive(Serialize)]
pub struct DiffJson<'a> {
    before: &'static str,
    after: &'static str,
    changes: Vec<ChangeJson<'a>>,
}

/// One change for scripts (`report --diff -o json`, `history -o json`): each value as its JSON
/// text, in a string (`null` for the side it is missing from).
#[derive(Serialize)]
pub struct ChangeJson<'a> {
    change: &'static str,
    pointer: &'a str,
    before: Option<&'a str>,
    after: Option<&'a str>,
}

impl<'a> From<&'a Change> for ChangeJson<'a> {
    fn from(change: &'a Change) -> Self {
        ChangeJson {
            change: change.kind(),
            pointer: &change.pointer,
            before: change.before.as_deref(),
            after: change.after.as_deref(),
        }
    }
}

/// The report's resource as the service lists it now; `None`, said on stderr, when it has no
/// `id` or is not found.
pub async fn before(client: &Client, report: &Value) -> Option<Before> {
    let resource = report.pointer("/response/resource")?;
    let Some(id) = resource.get("id").and_then(Value::as_str) else {
        super::warn(&["--diff: the report's resource has no `id` to find it by; no diff".into()]);
        return None;
    };
    let resource_type = resource
        .get("type")
        .and_then(Value::as_str)
        .map(str::to_owned);
    match find(client, resource_type.as_deref(), id).await {
        Ok(Some(text)) => Some(Before {
            text,
            id: id.to_owned(),
            resource_type,
        }),
        Ok(None) => {
            super::warn(&[format!(
                "--diff: {} is not in the listing{}; no diff",
                sanitize::line(id),
                of_type(resource_type.as_deref())
            )]);
            None
        }
        Err(error) => {
            super::warn(&[format!(
                "--diff: the listing could not be read ({error}); no diff"
            )]);
            None
        }
    }
}

/// What the accepted report (`body`, as sent) changed: against the resource listed again, else
/// against the resource it carried.
pub async fn after(client: &Client, before: &Before, body: &str) -> Diff {
    match find(client, before.resource_type.as_deref(), &before.id).await {
        Ok(Some(now)) => Diff {
            after: After::ListedAgain,
            changes: changes::between(&before.text, &now),
            listed: Some(now),
        },
        found => {
            if let Err(error) = found {
                super::warn(&[format!(
                    "--diff: the listing could not be read again ({error}); the changes are \
                     against the resource as the report sent it"
                )]);
            }
            Diff {
                after: After::Sent,
                changes: changes::made_by_report(&before.text, body).unwrap_or_default(),
                listed: None,
            }
        }
    }
}

fn of_type(resource_type: Option<&str>) -> String {
    resource_type.map_or_else(String::new, |t| format!(" of type {}", sanitize::line(t)))
}

/// The text of the resource `id` in the listing (of `resource_type`), page by page.
async fn find(
    client: &Client,
    resource_type: Option<&str>,
    id: &str,
) -> Result<Option<String>, ApiError> {
    /// Only the `id`: the rest of an item is skipped, not built.
    #[derive(serde::Deserialize)]
    struct Id<'a> {
        #[serde(borrow)]
        id: Option<std::borrow::Cow<'a, str>>,
    }
    let mut request = ListRequest {
        resource_type: resource_type.map(str::to_owned),
        next: None,
        limit: None,
    };
    for _ in 0..MAX_PAGES {
        let page = client.list_page_raw(&request).await?;
        for item in page.raw_items() {
            let found = serde_json::from_slice::<Id>(item)
                .ok()
                .and_then(|i| i.id)
                .is_some_and(|i| i == id);
            if found {
                return Ok(std::str::from_utf8(item).ok().map(str::to_owned));
            }
        }
        match page.envelope.next.get() {
            Some(next) if !next.is_empty() => request.next = Some(next.clone()),
            _ => return Ok(None),
        }
    }
    Ok(None)
}
