//! The list's columns chosen with the TUI's `:columns`, kept per resource type so that the
//! next run shows them again. Kept as the command's words: the TUI reads them with the same
//! parser, so a choice it cannot read any more is the table's own columns, never an error.

use rusqlite::OptionalExtension;

use super::{Store, StoreError};

impl Store {
    /// The columns kept for `resource_type` (`*`: the list of every type), if any.
    pub fn list_columns(&self, resource_type: &str) -> Result<Option<String>, StoreError> {
        self.conn
            .query_row(
                "SELECT spec FROM list_columns WHERE resource_type = ?1",
                [resource_type],
                |row| row.get(0),
            )
            .optional()
            .map_err(|e| self.error(e))
    }

    /// Keeps `spec` for `resource_type`; an empty one (the table's own columns) is forgotten.
    pub fn set_list_columns(&self, resource_type: &str, spec: &str) -> Result<(), StoreError> {
        let done = match spec.is_empty() {
            true => self.conn.execute(
                "DELETE FROM list_columns WHERE resource_type = ?1",
                [resource_type],
            ),
            false => self.conn.execute(
                "INSERT INTO list_columns (resource_type, spec) VALUES (?1, ?2)
                 ON CONFLICT (resource_type) DO UPDATE SET spec = excluded.spec",
                [resource_type, spec],
            ),
        };
        done.map(drop).map_err(|e| self.error(e))
    }
}

#[cfg(test)]
mod tests {
    use crate::Store;

    #[test]
    fn columns_are_kept_per_type_across_opens_and_an_empty_choice_is_forgotten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("appdeck.db");
        {
            let store = Store::open(&path).unwrap();
            assert_eq!(store.list_columns("repository").unwrap(), None);
            store
                .set_list_columns("repository", "+properties.language")
                .unwrap();
            store
                .set_list_columns("repository", "-id +properties.stars")
                .unwrap();
            store.set_list_columns("*", "-external_id").unwrap();
        }
        let store = Store::open(&path).unwrap();
        assert_eq!(
            store.list_columns("repository").unwrap().as_deref(),
            Some("-id +properties.stars")
        );
        assert_eq!(
            store.list_columns("*").unwrap().as_deref(),
            Some("-external_id")
        );
        assert_eq!(store.list_columns("user").unwrap(), None);
        store.set_list_columns("repository", "").unwrap();
        assert_eq!(store.list_columns("repository").unwrap(), None);
    }
}
