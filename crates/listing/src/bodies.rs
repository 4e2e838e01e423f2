//! The items' JSON texts of one listing, kept apart from its rows: a row holds what the table
//! shows and a [`BodyId`]; the whole item is read back when something needs it (the detail, a
//! report, the search over every field, an export). Keeping the texts behind this one door is
//! what lets them leave memory without the readers changing: they are in a spill file (see
//! `spill.rs`), a million rows' worth of JSON in page cache rather than in the process.
//!
//! The UI thread appends as pages arrive, in memory only (its `update` touches no file); the
//! runtime writes what gathered to the file ([`Bodies::write_due`]); jobs on other threads read
//! at the same time through a clone of the handle.

use std::ops::ControlFlow;
use std::sync::Arc;

use super::spill::Spill;

/// Why a body could not be read: the spill file failed, or the id is not from these bodies (a
/// row of another listing).
pub use super::spill::SpillError as BodyError;

/// Where one item's JSON text is kept in its listing's [`Bodies`]: its offset in the spill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BodyId(u64);

impl From<BodyId> for u64 {
    fn from(id: BodyId) -> u64 {
        id.0
    }
}

/// The JSON texts of a listing's items, in the order they were added. Cloning shares them; the
/// spill file goes with the last clone.
#[derive(Clone, Debug, Default)]
pub struct Bodies {
    spill: Arc<Spill>,
}

/// The same bodies (clones of one handle), not equal texts.
impl PartialEq for Bodies {
    fn eq(&self, other: &Bodies) -> bool {
        Arc::ptr_eq(&self.spill, &other.spill)
    }
}

impl Bodies {
    /// Keeps one item's JSON text (as the service sent it), in memory until the runtime writes
    /// it ([`Bodies::write_due`]); the id reads it back either way.
    pub fn push(&self, json: &str) -> BodyId {
        BodyId(self.spill.append(json))
    }

    /// Whether enough texts have gathered in memory for the runtime to write them out.
    pub fn is_due(&self) -> bool {
        self.spill.is_due()
    }

    /// Writes the texts gathered in memory to the spill file, when enough have: the runtime's
    /// call (file I/O), never `update`'s.
    pub fn write_due(&self) {
        self.spill.write_due();
    }

    /// One item's JSON text, as it was kept.
    pub fn read(&self, id: BodyId) -> Result<String, BodyError> {
        self.spill.read(id.0)
    }

    /// Calls `f` with the position in `ids` and the JSON text of each body, in the order of
    /// `ids`, until it breaks. Meant for jobs going through many rows off the UI thread: the
    /// UI thread appending a page waits at most for a copy of the texts not yet written.
    pub fn scan(
        &self,
        ids: &[BodyId],
        f: impl FnMut(usize, &str) -> ControlFlow<()>,
    ) -> Result<(), BodyError> {
        self.scan_by(ids, |id| id, f)
    }

    /// As [`Bodies::scan`], over the bodies of `items` (rows, say) that `body_of` says.
    pub fn scan_by<T: Copy>(
        &self,
        items: &[T],
        body_of: impl Fn(T) -> BodyId + Copy,
        f: impl FnMut(usize, &str) -> ControlFlow<()>,
    ) -> Result<(), BodyError> {
        self.spill.scan(items, move |item| body_of(item).0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_back_each_text_exactly_and_scans_in_the_order_asked() {
        let bodies = Bodies::default();
        let ids: Vec<BodyId> = (0..3000)
            .map(|i| bodies.push(&format!(r#"{{"n":{i}0000000000000000000001}}"#)))
            .collect();
        assert_eq!(
            bodies.read(ids[2999]).unwrap(),
            r#"{"n":29990000000000000000000001}"#
        );
        let wanted = [ids[2500], ids[7], ids[1500]];
        let mut seen = Vec::new();
        bodies
            .scan(&wanted, |at, text| {
                seen.push((at, text.to_owned()));
                ControlFlow::Continue(())
            })
            .unwrap();
        assert_eq!(
            seen,
            [
                (0, r#"{"n":25000000000000000000000001}"#.to_owned()),
                (1, r#"{"n":70000000000000000000001}"#.to_owned()),
                (2, r#"{"n":15000000000000000000000001}"#.to_owned()),
            ]
        );
    }

    #[test]
    fn a_scan_stops_when_told_and_reads_while_rows_are_added() {
        let bodies = Bodies::default();
        let ids: Vec<BodyId> = (0..5000).map(|i| bodies.push(&i.to_string())).collect();
        let reader = bodies.clone();
        let scanning = std::thread::spawn(move || {
            let mut count = 0;
            reader
                .scan(&ids, |at, _| {
                    count += 1;
                    if at == 4000 {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                })
                .map(|()| count)
        });
        let added: Vec<BodyId> = (0..5000).map(|i| bodies.push(&i.to_string())).collect();
        assert_eq!(scanning.join().unwrap(), Ok(4001));
        assert_eq!(bodies.read(added[4999]).unwrap(), "4999");
    }

    #[test]
    fn an_id_of_other_bodies_is_an_error() {
        let other = Bodies::default();
        let id = other.push("{}");
        let second = other.push("{}");
        let bodies = Bodies::default();
        assert_eq!(bodies.read(id), Err(BodyError::Corrupt(id.0)));
        assert_eq!(
            bodies.scan(&[second], |_, _| ControlFlow::Continue(())),
            Err(BodyError::Corrupt(second.0))
        );
    }
}
