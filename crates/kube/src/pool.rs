//! The informer pool: one informer task per [`ResourceKey`], started lazily on the first
//! subscription, shared by equal keys (an all-namespaces informer also serves namespace
//! views), stopped after a grace period without subscribers. Owns task lifetimes and epochs;
//! must not decode objects (see `informer::Decoders`) or know about the UI.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::time::Instant;

use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;

use super::informer::{Decoders, Informer, InformerConfig};
use super::key::ResourceKey;
use super::row::RowCtx;
use super::stats::{InformerStats, StatsView};
use super::store::{Publisher, Slot, StoreChanged};
use super::sync::SyncState;

/// Every informer start and every pool gets a fresh epoch from this counter, so a view can
/// drop notifications and snapshots from informers that were replaced.
static EPOCH: AtomicU64 = AtomicU64::new(1);

struct Entry {
    slot: Arc<Slot>,
    stats: Arc<InformerStats>,
    subscribers: usize,
    idle_since: Option<Instant>,
    task: JoinHandle<()>,
}

struct Inner {
    entries: HashMap<ResourceKey, Entry>,
    shut: bool,
}

/// The informers of one context. Cheap to clone (shared inside).
#[derive(Clone)]
pub struct InformerPool {
    inner: Arc<Mutex<Inner>>,
    client: kube::Client,
    decoders: Arc<dyn Decoders>,
    notify: UnboundedSender<StoreChanged>,
    rows: RowCtx,
    config: InformerConfig,
    grace: Duration,
    runtime: tokio::runtime::Handle,
}

/// A view's claim on an informer. Dropping it releases the claim; the informer stops after
/// the pool's grace period if nobody else holds one.
pub struct Subscription {
    /// The key the view asked for.
    pub key: ResourceKey,
    /// The key of the informer actually serving it (the all-namespaces one may serve a
    /// namespace view; then rows must be filtered to `key.namespace`).
    pub served_by: ResourceKey,
    /// Where the informer publishes.
    pub slot: Arc<Slot>,
    pool: InformerPool,
}

impl Subscription {
    /// The namespace rows must be filtered to, when an all-namespaces informer serves a
    /// namespace view.
    pub fn filter_namespace(&self) -> Option<&str> {
        if self.served_by.namespace.is_none() {
            self.key.namespace.as_deref()
        } else {
            None
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        self.pool.release(&self.served_by);
    }
}

/// One row of `:informers`.
#[derive(Debug, Clone)]
pub struct InformerInfo {
    /// The informer's key.
    pub key: ResourceKey,
    /// Live counters, with state, resourceVersion and object count read from the informer's
    /// published snapshot.
    pub stats: StatsView,
    /// Views holding a subscription.
    pub subscribers: usize,
    /// Time left before an unused informer stops; `None` while subscribed.
    pub stops_in: Option<Duration>,
    /// Objects it could not decode, as one line ([`Slot::unreadable`]).
    pub unreadable: Option<Arc<String>>,
    /// The pool's origin (`crate::row::Row::origin`): 0 for the context in use, else a union
    /// member's.
    pub origin: u16,
}

impl InformerPool {
    /// A pool over `client`. `notify` receives one [`StoreChanged`] per publication burst.
    /// Informer tasks run on the runtime of the caller; see [`InformerPool::new_on`].
    pub fn new(
        client: kube::Client,
        decoders: Arc<dyn Decoders>,
        notify: UnboundedSender<StoreChanged>,
        config: InformerConfig,
        grace: Duration,
    ) -> Self {
        Self::new_on(
            tokio::runtime::Handle::current(),
            client,
            decoders,
            notify,
            config,
            grace,
        )
    }

    /// Like [`InformerPool::new`], with informer tasks spawned on `runtime` — ktui keeps
    /// them off the UI's runtime so that a blocking exec auth plugin or a burst of decoding
    /// can never starve the render loop.
    pub fn new_on(
        runtime: tokio::runtime::Handle,
        client: kube::Client,
        decoders: Arc<dyn Decoders>,
        notify: UnboundedSender<StoreChanged>,
        config: InformerConfig,
        grace: Duration,
    ) -> Self {
        let pool = InformerPool {
            inner: Arc::new(Mutex::new(Inner {
                entries: HashMap::new(),
                shut: false,
            })),
            client,
            decoders,
            notify,
            rows: RowCtx::default(),
            config,
            grace,
            runtime,
        };
        let weak = Arc::downgrade(&pool.inner);
        let grace_tick = (grace / 4).clamp(Duration::from_millis(50), Duration::from_secs(1));
        pool.runtime.spawn(async move {
            let mut tick = tokio::time::interval(grace_tick);
            loop {
                tick.tick().await;
                let Some(inner) = weak.upgrade() else { return };
                let mut g = lock(&inner);
                if g.shut {
                    return;
                }
                g.entries.retain(|_, e| match e.idle_since {
                    Some(t) if t.elapsed() >= grace => {
                        e.task.abort();
                        false
                    }
                    _ => true,
                });
            }
        });
        pool
    }

    /// Makes every informer this pool starts from now on record into `history` (the kinds
    /// `history::recorded_by_lists` names; see `ktui_table::decoders`).
    pub fn record_into(mut self, history: Arc<super::history::History>) -> Self {
        self.rows.history = Some(history);
        self
    }

    /// Makes every row this pool's informers build carry `origin` ([`crate::row::Row::origin`]):
    /// the pool of a union member other than the context in use. Call before subscribing.
    pub fn with_origin(mut self, origin: u16) -> Self {
        self.rows.origin = origin;
        self
    }

    /// The origin stamped on this pool's rows (0: the context in use).
    pub fn origin(&self) -> u16 {
        self.rows.origin
    }

    /// The history this pool's informers record into, if any.
    pub fn history(&self) -> Option<&Arc<super::history::History>> {
        self.rows.history.as_ref()
    }

    /// Subscribes to `key`, starting its informer if none runs. Idempotent: equal keys share
    /// one informer, and a running all-namespaces informer with the same kind and selectors
    /// that has completed a list serves a namespace key (one that is forbidden or failing
    /// does not: a user allowed one namespace must still see it).
    pub fn subscribe(&self, key: ResourceKey) -> Subscription {
        let mut g = lock(&self.inner);
        let wide = key.widened();
        // A timeline is ordered by time, not namespace: it cannot serve a narrower scope.
        let wide_serves = g.entries.get(&wide).is_some_and(|e| {
            let snap = e.slot.load();
            snap.listed && !matches!(snap.state, SyncState::Forbidden { .. } | SyncState::NotFound)
        });
        let served_by = if key.namespace.is_some() && !key.kind.is_timeline() && wide_serves {
            wide
        } else {
            key.clone()
        };
        if !g.entries.contains_key(&served_by) && !g.shut {
            let entry = self.start(&served_by);
            g.entries.insert(served_by.clone(), entry);
        }
        let slot = match g.entries.get_mut(&served_by) {
            Some(e) => {
                e.subscribers += 1;
                e.idle_since = None;
                e.slot.clone()
            }
            // Shut pool: hand out a slot that will never fill.
            None => Slot::new(served_by.clone(), 0),
        };
        drop(g);
        Subscription {
            key,
            served_by,
            slot,
            pool: self.clone(),
        }
    }

    fn start(&self, key: &ResourceKey) -> Entry {
        let epoch = EPOCH.fetch_add(1, Ordering::Relaxed);
        let slot = Slot::new(key.clone(), epoch);
        let stats = Arc::new(InformerStats::default());
        let informer = Informer::new(
            key.clone(),
            self.client.clone(),
            stats.clone(),
            self.config.clone(),
        );
        let publisher = Publisher::new(slot.clone(), self.notify.clone());
        tracing::info!(%key, epoch, "informer start");
        let task = self.runtime.spawn(
            self.decoders
                .run(&key.kind, informer, publisher, self.rows.clone()),
        );
        Entry {
            slot,
            stats,
            subscribers: 0,
            idle_since: None,
            task,
        }
    }

    fn release(&self, key: &ResourceKey) {
        let mut g = lock(&self.inner);
        if let Some(e) = g.entries.get_mut(key) {
            e.subscribers = e.subscribers.saturating_sub(1);
            if e.subscribers == 0 {
                e.idle_since = Some(Instant::now());
            }
        }
    }

    /// The running informers, sorted by key, for `:informers`.
    pub fn informers(&self) -> Vec<InformerInfo> {
        let g = lock(&self.inner);
        let mut out: Vec<InformerInfo> = g
            .entries
            .iter()
            .map(|(k, e)| InformerInfo {
                key: k.clone(),
                stats: e.stats.view(&e.slot.peek()),
                subscribers: e.subscribers,
                stops_in: e.idle_since.map(|t| self.grace.saturating_sub(t.elapsed())),
                unreadable: e.slot.unreadable(),
                origin: self.rows.origin,
            })
            .collect();
        out.sort_by(|a, b| a.key.cmp(&b.key));
        out
    }

    /// Stops every informer now (context switch, quit). Later subscriptions get dead slots.
    pub fn shutdown(&self) {
        let mut g = lock(&self.inner);
        g.shut = true;
        for (_, e) in g.entries.drain() {
            e.task.abort();
        }
    }

    /// The runtime informer tasks run on (for one-shot operations and detail watches).
    pub fn runtime(&self) -> &tokio::runtime::Handle {
        &self.runtime
    }

    /// The client this pool lists with (for one-shot operations).
    pub fn client(&self) -> &kube::Client {
        &self.client
    }
}

fn lock(m: &Mutex<Inner>) -> MutexGuard<'_, Inner> {
    match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}
