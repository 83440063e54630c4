//! Live updates: a channel per watched game, the states sent on it in the
//! order of their revisions, and other servers' changes (heard from the
//! database) passed on to this server's watchers.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::{broadcast, watch};

use crate::service::Engine;
use crate::store::Change;

/// Live-update channels, one per watched game.
pub struct Hub {
    channels: Mutex<HashMap<String, Channel>>,
    shutdown: watch::Receiver<bool>,
}

/// A watched game's channel, and the newest revision sent on it: an older
/// state that arrives late (read before a newer one was sent) is not sent.
struct Channel {
    tx: broadcast::Sender<Arc<str>>,
    rev: u64,
}

impl Hub {
    /// A hub whose streams end when `shutdown` turns true.
    pub fn new(shutdown: watch::Receiver<bool>) -> Hub {
        Hub {
            channels: Mutex::new(HashMap::new()),
            shutdown,
        }
    }

    /// A receiver that turns true when the server stops.
    pub(crate) fn shutdown(&self) -> watch::Receiver<bool> {
        self.shutdown.clone()
    }

    /// How many games have a channel: those with someone watching.
    pub fn watched_games(&self) -> usize {
        self.lock().len()
    }

    /// The ids of the games someone watches.
    fn watched_ids(&self) -> Vec<String> {
        self.lock().keys().cloned().collect()
    }

    /// Whether a change of game `id` to revision `rev` is news to anyone.
    fn wants(&self, id: &str, rev: u64) -> bool {
        self.lock().get(id).is_some_and(|c| c.rev < rev)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Channel>> {
        self.channels.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Watch game `id`: its channel, made if it is the first watcher. The
    /// channel goes when the last [`Watcher`] of it is dropped.
    pub(crate) fn watch(self: &Arc<Hub>, id: &str) -> Watcher {
        let rx = self
            .lock()
            .entry(id.to_string())
            .or_insert_with(|| Channel {
                tx: broadcast::channel(64).0,
                rev: 0,
            })
            .tx
            .subscribe();
        Watcher {
            hub: self.clone(),
            id: id.to_string(),
            rx: Some(rx),
        }
    }

    /// Drop game `id`'s channel if nobody watches it any more.
    fn release(&self, id: &str) {
        let mut channels = self.lock();
        if channels.get(id).is_some_and(|c| c.tx.receiver_count() == 0) {
            channels.remove(id);
        }
    }

    /// Send game `id`'s state at revision `rev` to its watchers, unless
    /// they have had it or a newer one. The JSON is made only if someone
    /// watches: most games have nobody watching.
    pub(crate) fn publish(&self, id: &str, rev: u64, json: impl FnOnce() -> Option<String>) {
        if !self.wants(id, rev) {
            return;
        }
        let Some(json) = json() else {
            return;
        };
        // Checked again and sent under the lock, so that two states sent at
        // once go out in the order of their revisions.
        let mut channels = self.lock();
        if let Some(channel) = channels.get_mut(id)
            && channel.rev < rev
        {
            channel.rev = rev;
            // Fails only when nobody is listening; the last watcher to
            // leave removes the channel.
            let _ = channel.tx.send(Arc::from(json));
        }
    }
}

/// Pass other servers' changes (heard from the database) on to this
/// server's watchers: each watched game that changed is read again and
/// sent; after a gap (the database's connection was lost, or this server
/// fell behind), every watched game is. Ends with the server.
pub async fn relay_changes(
    mut changes: broadcast::Receiver<Change>,
    engine: Arc<Engine>,
    hub: Arc<Hub>,
) {
    let mut shutdown = hub.shutdown.clone();
    loop {
        let change = tokio::select! {
            c = changes.recv() => c,
            _ = shutdown.changed() => return,
        };
        let ids = match change {
            Ok(Change::Game { id, rev }) => {
                if !hub.wants(&id, rev) {
                    continue;
                }
                vec![id]
            }
            Ok(Change::Resync) | Err(broadcast::error::RecvError::Lagged(_)) => hub.watched_ids(),
            Err(broadcast::error::RecvError::Closed) => return,
        };
        for id in ids {
            let (engine, hub) = (engine.clone(), hub.clone());
            tokio::spawn(async move {
                let game_id = id.clone();
                let view = tokio::task::spawn_blocking(move || engine.get(&game_id)).await;
                if let Ok(Ok(view)) = view {
                    hub.publish(&id, view.rev, || serde_json::to_string(&view).ok());
                }
            });
        }
    }
}

/// One watcher's subscription to a game's channel; dropping it (the stream
/// ends, or the client goes) drops the channel when it was the last.
pub(crate) struct Watcher {
    hub: Arc<Hub>,
    id: String,
    rx: Option<broadcast::Receiver<Arc<str>>>,
}

impl Watcher {
    pub(crate) async fn recv(&mut self) -> Result<Arc<str>, broadcast::error::RecvError> {
        match &mut self.rx {
            Some(rx) => rx.recv().await,
            None => Err(broadcast::error::RecvError::Closed),
        }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        // Unsubscribe first, so the count no longer includes this one.
        self.rx = None;
        self.hub.release(&self.id);
    }
}
