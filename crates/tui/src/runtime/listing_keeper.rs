//! Keeps the list's last listing in the store and reads it back at the next start, on a thread
//! of its own: one store connection, and one queue, so a listing's pages are written in the
//! order they came and a read sees every write asked for before it.

use std::path::PathBuf;
use std::sync::mpsc;

use tokio::sync::mpsc::UnboundedSender;

use crate::api::{RawPage, ReadPage};
use crate::app::{Action, Delivery, KeptListing, RequestId};
use crate::store::{Kept, ListingKey, Store};

/// Whose listings are kept: the store's file, the service and the profile (`None` when keeping
/// is off for them: `keep_listings = false`, `--demo`, no data directory).
#[derive(Clone, Debug)]
pub struct KeepPlace {
    pub store: PathBuf,
    pub base_url: String,
    pub profile: Option<String>,
}

/// Whether listings are kept for the service in use.
#[derive(Clone, Debug)]
pub enum Keeping {
    On(KeepPlace),
    /// `keep_listings = false`: nothing is kept, and what was kept for this place is forgotten.
    Off(KeepPlace),
    /// No data directory, or `--demo` (its sandbox's address changes every run).
    Never,
}

impl Keeping {
    /// As the resolved settings say, for listings of `base_url` kept in the store at `store`.
    pub fn of(
        settings: &crate::config::Settings,
        store: Option<PathBuf>,
        base_url: &str,
    ) -> Keeping {
        let Some(store) = store else {
            return Keeping::Never;
        };
        let place = KeepPlace {
            store,
            base_url: base_url.to_owned(),
            profile: settings.profile_name().map(str::to_owned),
        };
        match settings.keep_listings.value {
            true => Keeping::On(place),
            false => Keeping::Off(place),
        }
    }
}

impl Keeping {
    /// [`Keeping::Never`] when the store's file does not exist: nothing can have been kept.
    fn filter_existing(self) -> Keeping {
        match &self {
            Keeping::On(place) if !place.store.exists() => Keeping::Never,
            _ => self,
        }
    }
}

impl ListingKeeper {
    /// Keeps as `keeping` says from now on (at the start, and after `:profile`).
    pub(crate) fn follow(&self, keeping: Keeping) {
        match keeping {
            Keeping::On(place) => self.serve(Some(place)),
            Keeping::Off(place) => {
                self.serve(None);
                self.forget(place.store, place.base_url, place.profile);
            }
            Keeping::Never => self.serve(None),
        }
    }
}

enum Job {
    /// From now on, keep for this service and profile (`None`: keep nothing).
    Serve(Option<KeepPlace>),
    /// Forget what was kept for this service and profile: keeping is off for it.
    Forget {
        store: PathBuf,
        base_url: String,
        profile: Option<String>,
    },
    Load {
        id: RequestId,
        type_filter: Option<String>,
    },
    Keep {
        type_filter: Option<String>,
        rows: Vec<String>,
        from_start: bool,
    },
}

/// The handle the event loop holds; the thread ends when it is dropped.
pub(crate) struct ListingKeeper {
    jobs: mpsc::Sender<Job>,
    /// Closed when the thread has done every job and ended.
    done: mpsc::Receiver<()>,
}

impl ListingKeeper {
    pub(crate) fn new(results: UnboundedSender<Action>) -> ListingKeeper {
        let (jobs, queue) = mpsc::channel();
        let (ended, done) = mpsc::channel::<()>();
        let spawned = std::thread::Builder::new()
            .name("listing-keeper".into())
            .spawn(move || {
                work(&queue, &results);
                drop(ended);
            });
        if let Err(e) = spawned {
            tracing::warn!("no thread to keep listings on: {e}");
        }
        ListingKeeper { jobs, done }
    }

    /// appdeck is quitting: the pages asked to be kept are written before it ends (a `q` right
    /// after the first page would otherwise lose them), waiting at most `within`. Returns false
    /// when they were still being written then (a store locked by another appdeck, a slow disk):
    /// what was shown may not be there at the next start, and the user is told.
    pub(crate) fn finish(self, within: std::time::Duration) -> bool {
        let ListingKeeper { jobs, done } = self;
        drop(jobs);
        let timed_out = done.recv_timeout(within) == Err(mpsc::RecvTimeoutError::Timeout);
        if timed_out {
            tracing::warn!("the listing was still being kept when appdeck quit");
        }
        !timed_out
    }

    /// Keeps for `place` from now on; `None` keeps nothing (and loads nothing).
    fn serve(&self, place: Option<KeepPlace>) {
        let _ = self.jobs.send(Job::Serve(place));
    }

    /// Erases what was kept for this service and profile (keeping was turned off for it).
    fn forget(&self, store: PathBuf, base_url: String, profile: Option<String>) {
        let _ = self.jobs.send(Job::Forget {
            store,
            base_url,
            profile,
        });
    }

    /// Reads the listing kept for `type_filter`; [`Delivery::KeptListing`] answers `id`.
    pub(crate) fn load(&self, id: RequestId, type_filter: Option<String>) {
        let _ = self.jobs.send(Job::Load { id, type_filter });
    }

    pub(crate) fn keep(&self, type_filter: Option<String>, rows: Vec<String>, from_start: bool) {
        let _ = self.jobs.send(Job::Keep {
            type_filter,
            rows,
            from_start,
        });
    }
}

fn work(queue: &mpsc::Receiver<Job>, results: &UnboundedSender<Action>) {
    let mut place: Option<KeepPlace> = None;
    let mut store: Option<Store> = None;
    while let Ok(job) = queue.recv() {
        match job {
            Job::Serve(new) => {
                if new.as_ref().map(|p| &p.store) != place.as_ref().map(|p| &p.store) {
                    store = None;
                }
                place = new;
            }
            Job::Forget {
                store: path,
                base_url,
                profile,
            } => {
                let forgot = Store::open(&path)
                    .and_then(|mut s| s.forget_kept_listings(&base_url, profile.as_deref()));
                match forgot {
                    Ok(0) => {}
                    Ok(n) => tracing::info!("keep_listings is off: forgot {n} kept listings"),
                    Err(e) => tracing::warn!("the kept listings were not forgotten: {e}"),
                }
            }
            Job::Load { id, type_filter } => {
                let reply = match place.as_ref() {
                    Some(place) => match opened(&mut store, place) {
                        Some(store) => read(store, place, type_filter.as_deref()),
                        None => KeptListing::None,
                    },
                    None => KeptListing::None,
                };
                let _ = results.send(Action::reply(id, Delivery::KeptListing(reply)));
            }
            Job::Keep {
                type_filter,
                rows,
                from_start,
            } => {
                let Some(place) = place.as_ref() else {
                    continue;
                };
                let Some(store) = opened(&mut store, place) else {
                    continue;
                };
                let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
                let key = key(place, type_filter.as_deref());
                if let Err(e) = store.keep_listing(&key, &rows, from_start, chrono::Utc::now()) {
                    tracing::warn!("the listing was not kept: {e}");
                }
            }
        }
    }
}

/// The listing kept for `type_filter` at `place`, as the list takes it.
fn read(store: &Store, place: &KeepPlace, type_filter: Option<&str>) -> KeptListing {
    match kept_rows(store, place, type_filter) {
        Ok((age, rows, too_large)) => {
            page_of(&rows).map_or(KeptListing::None, |page| KeptListing::Rows {
                age,
                page: Box::new(page),
                too_large,
            })
        }
        Err(nothing) => nothing,
    }
}

/// The rows kept for `type_filter` at `place`, how long ago they were kept and how many were
/// left out as too large; else what the list is told instead (set aside, or none).
fn kept_rows(
    store: &Store,
    place: &KeepPlace,
    type_filter: Option<&str>,
) -> Result<(std::time::Duration, Vec<String>, usize), KeptListing> {
    let found = store
        .kept_listing(&key(place, type_filter))
        .inspect_err(|e| tracing::warn!("the kept listing was not read: {e}"))
        .ok()
        .flatten();
    match found {
        Some(Kept::Rows {
            kept_at,
            rows,
            too_large,
        }) => {
            let age = (chrono::Utc::now() - kept_at).to_std().unwrap_or_default();
            Ok((age, rows, too_large))
        }
        Some(Kept::SetAside(why)) => Err(KeptListing::SetAside(why)),
        None => Err(KeptListing::None),
    }
}

/// The start's read of the kept listing (no type filter yet), begun as soon as the configuration
/// is read (before the async runtime, the client and the terminal are set up), on a thread of
/// its own, so that the first frame can show its rows. Only the rows the first screen can show
/// are made a page for it; the rest follow.
pub struct EarlyRead {
    /// `None` once answered.
    first: Option<tokio::sync::oneshot::Receiver<KeptListing>>,
    rest: tokio::sync::oneshot::Receiver<Box<ReadPage>>,
}

impl EarlyRead {
    /// Starts reading what `keeping` has kept, the first answer holding no more rows than the
    /// terminal has lines.
    pub fn at_start(keeping: &Keeping) -> EarlyRead {
        let screen_lines = crossterm::terminal::size()
            .ok()
            .map(|(_, h)| usize::from(h));
        EarlyRead::start(keeping, screen_lines)
    }

    /// Starts reading what `keeping` has kept for the unfiltered list (nothing to read when
    /// keeping is off or impossible: the answer is "none" at once). At most `first_rows` come
    /// first ([`KeptListing::First`]), the others after them ([`KeptListing::Rest`]); `None`:
    /// all at once.
    pub(crate) fn start(keeping: &Keeping, first_rows: Option<usize>) -> EarlyRead {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let (rest, rest_read) = tokio::sync::oneshot::channel();
        let early = EarlyRead {
            first: Some(answered),
            rest: rest_read,
        };
        // No store file yet: nothing was kept, and creating the store (some 10 ms) must not
        // hold the first frame up (it is made when something is first kept).
        let Keeping::On(place) = keeping.clone().filter_existing() else {
            let _ = answer.send(KeptListing::None);
            return early;
        };
        let spawned = std::thread::Builder::new()
            .name("kept-at-start".into())
            .spawn(move || {
                let found = match Store::open(&place.store) {
                    Ok(store) => kept_rows(&store, &place, None),
                    Err(e) => {
                        tracing::warn!("no store for kept listings: {e}");
                        Err(KeptListing::None)
                    }
                };
                let (age, mut rows, too_large) = match found {
                    Ok(found) => found,
                    Err(nothing) => {
                        let _ = answer.send(nothing);
                        return;
                    }
                };
                let after = first_rows.filter(|&n| n > 0 && n < rows.len());
                let later = after.map(|n| rows.split_off(n));
                let page = page_of(&rows).map(Box::new);
                let first = match (page, later.is_some()) {
                    (Some(page), true) => KeptListing::First {
                        age,
                        page,
                        too_large,
                    },
                    (Some(page), false) => KeptListing::Rows {
                        age,
                        page,
                        too_large,
                    },
                    (None, _) => KeptListing::None,
                };
                let shown = matches!(first, KeptListing::First { .. });
                let _ = answer.send(first);
                // Made while the first frame is drawn.
                if let Some(page) = later.filter(|_| shown).and_then(|rows| page_of(&rows)) {
                    let _ = rest.send(Box::new(page));
                }
            });
        if let Err(e) = spawned {
            tracing::warn!("no thread to read the kept listing on: {e}");
        }
        early
    }

    /// The first answer, if it comes within `within` (`None`: not yet, [`EarlyRead::send`]
    /// sends it when it comes).
    pub(crate) async fn first_within(
        &mut self,
        within: std::time::Duration,
    ) -> Option<KeptListing> {
        let first = self.first.as_mut()?;
        let answer = match tokio::time::timeout(within, first).await {
            Ok(answer) => answer,
            Err(_) => return None,
        };
        self.first = None;
        // The thread could not start, or ended without an answer: nothing kept to show.
        Some(answer.unwrap_or(KeptListing::None))
    }

    /// Sends what is still to come, as replies to `id`: the first answer unless taken already,
    /// then the rest of the rows, if any.
    pub(crate) fn send(self, id: RequestId, to: UnboundedSender<Action>) {
        let reply = move |kept| Action::reply(id, Delivery::KeptListing(kept));
        tokio::spawn(async move {
            if let Some(first) = self.first {
                let _ = to.send(reply(first.await.unwrap_or(KeptListing::None)));
            }
            if let Ok(rest) = self.rest.await {
                let _ = to.send(reply(KeptListing::Rest(rest)));
            }
        });
    }
}

/// The store, opened on first use; a store that cannot be opened is tried again next time.
fn opened<'s>(store: &'s mut Option<Store>, place: &KeepPlace) -> Option<&'s mut Store> {
    if store.is_none() {
        *store = Store::open(&place.store)
            .inspect_err(|e| tracing::warn!("no store for kept listings: {e}"))
            .ok();
    }
    store.as_mut()
}

fn key(place: &KeepPlace, type_filter: Option<&str>) -> ListingKey {
    ListingKey::new(&place.base_url, place.profile.as_deref(), type_filter)
}

/// The kept rows as one page the list takes as it takes the service's, each row's text as it
/// came (the store checked that each is a JSON object).
fn page_of(rows: &[String]) -> Option<ReadPage> {
    let mut body = Vec::with_capacity(rows.iter().map(|r| r.len() + 1).sum::<usize>() + 16);
    body.extend_from_slice(b"{\"resources\":[");
    for (i, row) in rows.iter().enumerate() {
        if i > 0 {
            body.push(b',');
        }
        body.extend_from_slice(row.as_bytes());
    }
    body.extend_from_slice(b"]}");
    RawPage::read(body).ok().map(ReadPage::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without a store file the start's read answers "none" at once and creates no file: the
    /// first frame of a first run is not held up by making the store.
    #[tokio::test]
    async fn the_start_read_answers_none_at_once_without_a_store_and_makes_none() {
        let dir = tempfile::tempdir().unwrap();
        let store = dir.path().join("appdeck.db");
        let keeping = Keeping::On(KeepPlace {
            store: store.clone(),
            base_url: "http://127.0.0.1:9/api/v1".into(),
            profile: None,
        });
        let answer = EarlyRead::start(&keeping, Some(10))
            .first_within(std::time::Duration::ZERO)
            .await;
        assert!(
            matches!(answer, Some(KeptListing::None)),
            "answered at once"
        );
        assert!(!store.exists(), "the store was made");
    }

    /// The start's read gives the rows a screen shows first, then the rest, in order, as
    /// replies to the same ask.
    #[tokio::test]
    async fn the_start_read_gives_a_screenful_first_then_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let place = KeepPlace {
            store: dir.path().join("appdeck.db"),
            base_url: "http://127.0.0.1:9/api/v1".into(),
            profile: None,
        };
        let rows: Vec<String> = (0..25)
            .map(|i| format!(r#"{{"id":"r{i}","type":"repo","name":"n {i}"}}"#))
            .collect();
        let texts: Vec<&str> = rows.iter().map(String::as_str).collect();
        let mut store = Store::open(&place.store).unwrap();
        store
            .keep_listing(&key(&place, None), &texts, true, chrono::Utc::now())
            .unwrap();
        let ids = |page: &ReadPage| -> Vec<String> {
            page.items_and_texts()
                // `id` is the fifth of the texts an item shows.
                .filter_map(|(item, text)| item.texts(&text)[4].map(str::to_owned))
                .collect()
        };
        let keeping = Keeping::On(place);
        let mut early = EarlyRead::start(&keeping, Some(10));
        let first = early.first_within(std::time::Duration::from_secs(10)).await;
        let Some(KeptListing::First { page, .. }) = first else {
            panic!("the first rows first: {first:?}")
        };
        assert_eq!(ids(&page), rows_ids(0..10));
        let (sender, mut replies) = tokio::sync::mpsc::unbounded_channel();
        let id = RequestId(7);
        early.send(id, sender);
        let rest = tokio::time::timeout(std::time::Duration::from_secs(10), replies.recv())
            .await
            .expect("the rest comes");
        let Some(Action::Reply {
            id: to,
            delivery: Delivery::KeptListing(KeptListing::Rest(page)),
        }) = rest
        else {
            panic!("the rest: {rest:?}")
        };
        assert_eq!((to, ids(&page)), (id, rows_ids(10..25)));

        // All of them at once when they fit the screen.
        let mut early = EarlyRead::start(&keeping, Some(25));
        let all = early.first_within(std::time::Duration::from_secs(10)).await;
        assert!(
            matches!(&all, Some(KeptListing::Rows { page, .. }) if page.len() == 25),
            "{all:?}"
        );
    }

    /// A listing whose page held an item that is not an object reads back whole, the item in
    /// its place and marked as the live page marked it: never the whole listing set aside.
    #[test]
    fn a_kept_item_that_is_not_an_object_reads_back_as_the_live_page_showed_it() {
        let dir = tempfile::tempdir().unwrap();
        let place = KeepPlace {
            store: dir.path().join("appdeck.db"),
            base_url: "http://127.0.0.1:9/api/v1".into(),
            profile: None,
        };
        let body = br#"{"resources":[{"id":"r0","type":"repo"},"just a string",{"id":"r2"}]}"#;
        let live = ReadPage::from(RawPage::read(body.to_vec()).unwrap());
        let texts: Vec<String> = live.items_and_texts().map(|(_, t)| t.into()).collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let mut store = Store::open(&place.store).unwrap();
        store
            .keep_listing(&key(&place, None), &texts, true, chrono::Utc::now())
            .unwrap();
        let KeptListing::Rows { page, .. } = read(&store, &place, None) else {
            panic!("the kept listing was not shown");
        };
        let kinds = |page: &ReadPage| -> Vec<_> {
            page.items_and_texts()
                .map(|(item, text)| (item.kind, text.into_owned()))
                .collect()
        };
        assert_eq!(kinds(&page), kinds(&live));
        assert_eq!(
            kinds(&page)[1].0,
            crate::api::ItemKind::NotResource,
            "marked"
        );
    }

    fn place_in(dir: &std::path::Path) -> KeepPlace {
        KeepPlace {
            store: dir.join("appdeck.db"),
            base_url: "http://127.0.0.1:9/api/v1".into(),
            profile: None,
        }
    }

    fn kept_ids(place: &KeepPlace) -> Vec<String> {
        let store = Store::open(&place.store).unwrap();
        match kept_rows(&store, place, None) {
            Ok((_, rows, _)) => rows,
            Err(nothing) => panic!("nothing kept: {nothing:?}"),
        }
    }

    /// A page asked to be kept just before quitting is in the store once `finish` returns: the
    /// keeper's thread is waited for, not dropped with the runtime (the store not even made yet,
    /// as on a first run, whose `q` came the moment its first rows showed).
    #[test]
    fn quitting_right_after_a_page_waits_until_it_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let place = place_in(dir.path());
        let (sender, _replies) = tokio::sync::mpsc::unbounded_channel();
        let keeper = ListingKeeper::new(sender);
        keeper.follow(Keeping::On(place.clone()));
        let rows: Vec<String> = (0..3).map(|i| format!(r#"{{"id":"r{i}"}}"#)).collect();
        keeper.keep(None, rows.clone(), true);
        assert!(
            keeper.finish(std::time::Duration::from_secs(30)),
            "kept in time"
        );
        assert_eq!(kept_ids(&place), rows);
    }

    /// A store another process holds locked keeps the page from being written: quitting waits
    /// no longer than it was given, and says the page was not kept.
    #[test]
    fn quitting_waits_no_longer_than_given_and_says_when_the_page_was_not_kept() {
        let dir = tempfile::tempdir().unwrap();
        let place = place_in(dir.path());
        drop(Store::open(&place.store).unwrap());
        let lock = crate::store::test_support::locked(&place.store);
        let (sender, _replies) = tokio::sync::mpsc::unbounded_channel();
        let keeper = ListingKeeper::new(sender);
        keeper.follow(Keeping::On(place.clone()));
        keeper.keep(None, vec![r#"{"id":"r0"}"#.into()], true);
        let started = std::time::Instant::now();
        let kept = keeper.finish(std::time::Duration::from_millis(200));
        let waited = started.elapsed();
        drop(lock);
        assert!(!kept, "said as not kept");
        assert!(
            waited < std::time::Duration::from_secs(2),
            "waited {waited:?}"
        );
    }

    fn rows_ids(range: std::ops::Range<usize>) -> Vec<String> {
        range.map(|i| format!("r{i}")).collect()
    }
}
