//! Keeps the columns chosen with `:columns` in the store, off the UI thread: one blocking task
//! takes the saves in the order they were asked for, so of two quick `:columns` the later is the
//! one kept. It starts on the first save and sleeps on its queue in between, as the drafts' does.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};

use crate::store::Store;

/// One save: the columns `spec` for `type_key` (empty: back to the default), into `store`.
struct Save {
    store: Arc<PathBuf>,
    type_key: String,
    spec: String,
}

/// Hands the saves to the worker task, starting it on first use.
#[derive(Default)]
pub(crate) struct ColumnsKeeper {
    saves: Option<(Sender<Save>, tokio::task::JoinHandle<()>)>,
}

impl ColumnsKeeper {
    /// Keeps `spec` as the columns of `type_key` in `store`, after every save asked before it;
    /// a failure is logged (the columns stay for this run).
    pub(crate) fn save(&mut self, store: Arc<PathBuf>, type_key: String, spec: String) {
        self.send(Save {
            store,
            type_key,
            spec,
        });
    }

    fn send(&mut self, save: Save) {
        let (saves, _) = self.saves.get_or_insert_with(|| {
            let (saves, queue) = channel();
            (saves, tokio::task::spawn_blocking(move || work(queue)))
        });
        if let Err(failed) = saves.send(save) {
            // The worker ended (it panicked): start another for this save.
            self.saves = None;
            self.send(failed.0);
        }
    }
}

#[cfg(test)]
impl ColumnsKeeper {
    /// Once every save asked for is written.
    async fn finish(self) {
        if let Some((saves, worker)) = self.saves {
            drop(saves);
            worker.await.unwrap();
        }
    }
}

/// Writes the saves one after another, with one store connection while the store stays the same.
fn work(queue: Receiver<Save>) {
    let mut open: Option<(Arc<PathBuf>, Store)> = None;
    for save in queue {
        if open.as_ref().is_none_or(|(path, _)| path != &save.store) {
            open = match Store::open(&save.store) {
                Ok(store) => Some((save.store.clone(), store)),
                Err(e) => {
                    warn_not_kept(&save.store, &e);
                    continue;
                }
            };
        }
        if let Some((_, store)) = &open
            && let Err(e) = store.set_list_columns(&save.type_key, &save.spec)
        {
            warn_not_kept(&save.store, &e);
        }
    }
}

fn warn_not_kept(store: &Path, e: &dyn std::fmt::Display) {
    tracing::warn!(
        "the list's columns were not kept in {}: {e}",
        store.display()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Many quick saves of one type's columns: the last asked for is the one kept.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn saves_are_written_in_the_order_they_were_asked_for() {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(dir.path().join("store.db"));
        let mut keeper = ColumnsKeeper::default();
        for i in 0..50 {
            keeper.save(store.clone(), "repo".into(), format!("+properties.n{i}"));
        }
        keeper.save(store.clone(), "repo".into(), "+properties.last".into());
        keeper.finish().await;
        let kept = Store::open(&store).unwrap().list_columns("repo").unwrap();
        assert_eq!(kept.as_deref(), Some("+properties.last"));
    }
}
