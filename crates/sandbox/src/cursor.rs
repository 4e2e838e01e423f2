//! `resources.list` cursors. A cursor names a position, not an offset: the sequence number of the
//! last row served. New rows get higher numbers and updates keep theirs, so inserts between pages
//! never make a listing skip or repeat a row. The text is opaque to clients (base64url of a version
//! tag, the position and the type filter), and anything this sandbox did not issue is refused.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

const VERSION: &str = "v1";

/// A decoded cursor: where the previous page ended, and the filter of the listing it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Cursor {
    /// Sequence number of the last row already served; the next page starts after it.
    pub after: u64,
    /// The `type` filter the listing was made with (`None`: every type).
    pub resource_type: Option<String>,
}

impl Cursor {
    pub(crate) fn encode(&self) -> String {
        let filter = self.resource_type.as_deref().unwrap_or_default();
        URL_SAFE_NO_PAD.encode(format!("{VERSION}:{}:{filter}", self.after))
    }

    /// Reads a cursor; `Err` says why it is not one of ours, for a 400 answer.
    pub(crate) fn decode(text: &str) -> Result<Cursor, &'static str> {
        const FOREIGN: &str = "not a cursor issued by this sandbox";
        let bytes = URL_SAFE_NO_PAD.decode(text.trim()).map_err(|_| FOREIGN)?;
        let text = String::from_utf8(bytes).map_err(|_| FOREIGN)?;
        let mut parts = text.splitn(3, ':');
        let (Some(VERSION), Some(after), Some(filter)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(FOREIGN);
        };
        let after = after.parse::<u64>().map_err(|_| FOREIGN)?;
        Ok(Cursor {
            after,
            resource_type: (!filter.is_empty()).then(|| filter.to_owned()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_with_and_without_a_filter() {
        for cursor in [
            Cursor {
                after: 0,
                resource_type: None,
            },
            Cursor {
                after: u64::MAX,
                resource_type: Some("a:b/c é".into()),
            },
        ] {
            assert_eq!(Cursor::decode(&cursor.encode()), Ok(cursor));
        }
    }

    #[test]
    fn garbage_is_refused_not_a_panic() {
        for text in ["", "!!!", "djE6", "djI6MTo", "djE6eDo", "////", "v1:1:"] {
            assert!(Cursor::decode(text).is_err(), "{text}");
        }
    }
}
