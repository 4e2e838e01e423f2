//! What `list --watch` remembers between looks, and what it says changed: each resource's bytes
//! by its identity. A look hands its items in one by one; an item new to the snapshot is
//! `added`, one whose bytes differ is `changed`, and only a look that reached the last page
//! says what is `removed` (a look cut short by an error has not seen everything).

use std::collections::HashMap;

/// Which resource an item is: its `type` and `id` when it has a string `id` (the same id under
/// two types is two resources), else its whole text (a malformed item is its own identity).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Identity {
    Named {
        resource_type: Option<String>,
        id: String,
    },
    Anonymous(Vec<u8>),
}

impl Identity {
    /// The identity of one item's JSON text.
    pub fn of(item: &[u8]) -> Identity {
        #[derive(serde::Deserialize)]
        struct Keys {
            #[serde(default)]
            id: Option<serde_json::Value>,
            #[serde(rename = "type", default)]
            resource_type: Option<serde_json::Value>,
        }
        match serde_json::from_slice::<Keys>(item) {
            Ok(Keys {
                id: Some(serde_json::Value::String(id)),
                resource_type,
            }) => Identity::Named {
                resource_type: match resource_type {
                    Some(serde_json::Value::String(t)) => Some(t),
                    _ => None,
                },
                id,
            },
            _ => Identity::Anonymous(item.to_vec()),
        }
    }
}

/// What happened to a resource between two looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    Added,
    Changed,
    Removed,
}

impl Change {
    /// The event's name in the output.
    pub fn name(self) -> &'static str {
        match self {
            Change::Added => "added",
            Change::Changed => "changed",
            Change::Removed => "removed",
        }
    }
}

/// One copy of a resource in a look: the `nth` item of its identity (0 for the first), so that
/// a server that lists a resource twice has both copies compared, each with the same copy of
/// the look before, and neither dropped nor flapping between them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Copy {
    identity: Identity,
    nth: u32,
}

/// The resources as last seen, and how many copies of each the look under way has seen.
#[derive(Debug, Default)]
pub struct Snapshot {
    known: HashMap<Copy, Vec<u8>>,
    seen: HashMap<Identity, u32>,
}

impl Snapshot {
    /// Starts a look: nothing seen yet.
    pub fn begin_look(&mut self) {
        self.seen.clear();
    }

    /// One item of the look under way: `Some` when it is new or its bytes changed. The n-th
    /// item of an identity in a look is compared with the n-th of the look before.
    pub fn item(&mut self, item: &[u8]) -> Option<Change> {
        let identity = Identity::of(item);
        let copies = self.seen.entry(identity.clone()).or_insert(0);
        let copy = Copy {
            identity,
            nth: *copies,
        };
        *copies += 1;
        match self.known.get_mut(&copy) {
            None => {
                self.known.insert(copy, item.to_vec());
                Some(Change::Added)
            }
            Some(known) if known.as_slice() != item => {
                item.clone_into(known);
                Some(Change::Changed)
            }
            Some(_) => None,
        }
    }

    /// The resources the look under way met more than once: how many, and the first of them
    /// by identity's order (its id, or its text), for the warning on stderr.
    pub fn repeated(&self) -> (usize, Option<&Identity>) {
        let repeated = (self.seen.iter()).filter(|(_, copies)| **copies > 1);
        let first = repeated.clone().map(|(identity, _)| identity).min();
        (repeated.count(), first)
    }

    /// Ends a look that reached the last page: the copies it did not see are gone, returned
    /// with their last bytes, in the order of their identities (so the output is the same from
    /// run to run).
    pub fn end_look(&mut self) -> Vec<Vec<u8>> {
        let seen = &self.seen;
        let mut gone: Vec<Copy> = (self.known.keys())
            .filter(|copy| seen.get(&copy.identity).is_none_or(|&n| copy.nth >= n))
            .cloned()
            .collect();
        gone.sort();
        self.seen.clear();
        gone.into_iter()
            .filter_map(|copy| self.known.remove(&copy))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A look over `items`; the changes in order, removals last.
    fn look(snapshot: &mut Snapshot, items: &[&str]) -> Vec<(Change, String)> {
        snapshot.begin_look();
        let mut changes: Vec<(Change, String)> = items
            .iter()
            .filter_map(|item| Some((snapshot.item(item.as_bytes())?, (*item).to_owned())))
            .collect();
        for gone in snapshot.end_look() {
            changes.push((Change::Removed, String::from_utf8(gone).unwrap()));
        }
        changes
    }

    #[test]
    fn the_first_look_adds_everything_then_only_differences_show() {
        let mut snapshot = Snapshot::default();
        let a = r#"{"id":"a","type":"t","n":1}"#;
        let b = r#"{"id":"b","type":"t"}"#;
        assert_eq!(
            look(&mut snapshot, &[a, b]),
            [(Change::Added, a.into()), (Change::Added, b.into())]
        );
        assert_eq!(look(&mut snapshot, &[a, b]), []);
        let a2 = r#"{"id":"a","type":"t","n":1.0}"#;
        let c = r#"{"id":"c","type":"t"}"#;
        assert_eq!(
            look(&mut snapshot, &[a2, c]),
            [
                (Change::Changed, a2.into()),
                (Change::Added, c.into()),
                (Change::Removed, b.into())
            ]
        );
        assert_eq!(snapshot.known.len(), 2);
    }

    #[test]
    fn the_same_id_under_two_types_is_two_resources() {
        let mut snapshot = Snapshot::default();
        let repo = r#"{"id":"1","type":"repo"}"#;
        let user = r#"{"id":"1","type":"user"}"#;
        assert_eq!(look(&mut snapshot, &[repo, user]).len(), 2);
        assert_eq!(look(&mut snapshot, &[repo, user]), []);
    }

    #[test]
    fn a_look_cut_short_removes_nothing() {
        let mut snapshot = Snapshot::default();
        let a = r#"{"id":"a"}"#;
        let b = r#"{"id":"b"}"#;
        look(&mut snapshot, &[a, b]);
        // A look that saw only `a` and then failed: no end_look, so `b` stays known.
        snapshot.begin_look();
        assert_eq!(snapshot.item(a.as_bytes()), None);
        assert_eq!(look(&mut snapshot, &[a, b]), []);
    }

    /// A tester's finding: the second copy of an id was dropped without a word, and a change
    /// to it never said. Each copy is compared with the same copy of the look before.
    #[test]
    fn a_resource_listed_twice_in_a_look_is_compared_copy_by_copy() {
        let mut snapshot = Snapshot::default();
        let first = r#"{"id":"a","v":1}"#;
        let second = r#"{"id":"a","v":2}"#;
        let b = r#"{"id":"b"}"#;
        assert_eq!(
            look(&mut snapshot, &[first, b, second]),
            [
                (Change::Added, first.into()),
                (Change::Added, b.into()),
                (Change::Added, second.into())
            ]
        );
        snapshot.begin_look();
        for item in [first, b, second] {
            assert_eq!(snapshot.item(item.as_bytes()), None, "nothing flaps");
        }
        let (count, first_repeated) = snapshot.repeated();
        assert_eq!(count, 1);
        assert_eq!(first_repeated, Some(&Identity::of(first.as_bytes())));
        assert_eq!(snapshot.end_look(), Vec::<Vec<u8>>::new());
        let third = r#"{"id":"a","v":3}"#;
        assert_eq!(
            look(&mut snapshot, &[first, b, third]),
            [(Change::Changed, third.into())],
            "a change to the second copy"
        );
        assert_eq!(
            look(&mut snapshot, &[first, b]),
            [(Change::Removed, third.into())],
            "the second copy gone"
        );
    }

    #[test]
    fn items_without_a_string_id_are_known_by_their_text() {
        let mut snapshot = Snapshot::default();
        assert_eq!(look(&mut snapshot, &["5", r#"{"id":7}"#]).len(), 2);
        assert_eq!(look(&mut snapshot, &["5", r#"{"id":7}"#]), []);
        assert_eq!(
            look(&mut snapshot, &["5"]),
            [(Change::Removed, r#"{"id":7}"#.into())]
        );
    }
}
