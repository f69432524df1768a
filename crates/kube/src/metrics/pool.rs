//! [`MetricsPool`]: one poll task per [`MetricsKey`] of a context, started lazily on the first
//! subscription, shared by equal keys (an all-namespaces pods poll that has listed also
//! serves namespace subscriptions), stopped after a grace period without subscribers. Owns
//! task lifetimes and epochs; must not decode or decide states (see `poll`, `snapshot`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::poll::Poller;
use super::served::ServedMap;
use super::{
    MetricsChanged, MetricsConfig, MetricsKey, MetricsSlot, MetricsSnapshot, MetricsState, Served, Target,
};
use crate::discovery::Discovery;

/// Every poll task start gets a fresh epoch from this counter.
static EPOCH: AtomicU64 = AtomicU64::new(1);

struct Entry {
    slot: Arc<MetricsSlot>,
    subscribers: usize,
    idle_since: Option<Instant>,
    task: JoinHandle<()>,
}

struct Inner {
    entries: HashMap<MetricsKey, Entry>,
    shut: bool,
}

/// The metrics poll tasks of one context. Cheap to clone (shared inside).
#[derive(Clone)]
pub struct MetricsPool {
    inner: Arc<Mutex<Inner>>,
    client: kube::Client,
    notify: UnboundedSender<MetricsChanged>,
    config: MetricsConfig,
    served: Arc<ServedMap>,
    runtime: tokio::runtime::Handle,
}

/// A view's claim on a poll task. Dropping it releases the claim; the task stops after the
/// pool's grace period if nobody else holds one.
pub struct MetricsSubscription {
    /// The key the view asked for (a nodes key without a namespace).
    pub key: MetricsKey,
    /// The key of the task actually serving it (the all-namespaces pods poll may serve a
    /// namespace; then objects must be filtered to `key.namespace`).
    pub served_by: MetricsKey,
    /// Where the task publishes.
    pub slot: Arc<MetricsSlot>,
    pool: MetricsPool,
}

impl MetricsSubscription {
    /// The namespace objects must be filtered to, when the all-namespaces poll serves a
    /// namespace subscription (see [`MetricsSnapshot::in_namespace`]).
    pub fn filter_namespace(&self) -> Option<&str> {
        if self.served_by.namespace.is_none() {
            self.key.namespace.as_deref()
        } else {
            None
        }
    }

    /// The latest snapshot ([`MetricsSlot::load`]).
    pub fn load(&self) -> Arc<MetricsSnapshot> {
        self.slot.load()
    }
}

impl Drop for MetricsSubscription {
    fn drop(&mut self) {
        self.pool.release(&self.served_by);
    }
}

/// One row of an `:informers`-like listing of metrics polls.
#[derive(Debug, Clone)]
pub struct MetricsInfo {
    /// The task's key.
    pub key: MetricsKey,
    /// How its last poll went.
    pub state: MetricsState,
    /// When its last poll answered; `None` before the first answer.
    pub fetched_at: Option<Instant>,
    /// How long its last poll took (request, decoding, merging).
    pub took: Option<Duration>,
    /// Its most recent failure, kept after a recovery.
    pub last_error: Option<String>,
    /// Objects held.
    pub objects: usize,
    /// Samples held over all objects.
    pub samples: usize,
    /// Views holding a subscription.
    pub subscribers: usize,
    /// Time left before an unused task stops; `None` while subscribed.
    pub stops_in: Option<Duration>,
}

impl MetricsPool {
    /// A pool over `client` (the context's, with ktui's user agent), tasks on the caller's
    /// runtime. `notify` receives one [`MetricsChanged`] per publication burst of a key.
    pub fn new(client: kube::Client, notify: UnboundedSender<MetricsChanged>, config: MetricsConfig) -> Self {
        Self::new_on(tokio::runtime::Handle::current(), client, notify, config)
    }

    /// Like [`MetricsPool::new`], with the poll tasks spawned on `runtime` (ktui keeps them
    /// off the UI's runtime, as the informers).
    pub fn new_on(
        runtime: tokio::runtime::Handle,
        client: kube::Client,
        notify: UnboundedSender<MetricsChanged>,
        config: MetricsConfig,
    ) -> Self {
        let pool = MetricsPool {
            inner: Arc::new(Mutex::new(Inner {
                entries: HashMap::new(),
                shut: false,
            })),
            client,
            notify,
            config,
            served: Arc::default(),
            runtime,
        };
        let weak = Arc::downgrade(&pool.inner);
        let grace = pool.config.grace;
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
                g.entries.retain(|key, e| match e.idle_since {
                    Some(t) if t.elapsed() >= grace => {
                        tracing::info!(%key, "metrics poll stop");
                        e.task.abort();
                        false
                    }
                    _ => true,
                });
            }
        });
        pool
    }

    /// Says whether `target` is served (from discovery: [`Served::from_discovery`]). While
    /// `No`, its tasks send nothing and show `NotServed`: at once for a task that shows
    /// another state (its first poll's 404 says less than discovery's reason), without a
    /// request; `Yes` shows at their next poll (within one interval).
    pub fn set_served(&self, target: Target, served: Served) {
        self.served.set(target, served.clone());
        let Served::No(why) = served else { return };
        let state = MetricsState::NotServed(why);
        let slots: Vec<Arc<MetricsSlot>> = lock(&self.inner)
            .entries
            .iter()
            .filter(|(k, _)| k.target == target)
            .map(|(_, e)| e.slot.clone())
            .collect();
        for slot in slots {
            let snap = slot.peek();
            if snap.state != state {
                let outcome = super::snapshot::Outcome::Failed(state.clone());
                let next = snap.next(outcome, Instant::now(), self.config.bound());
                // A failure shares the objects: dropping the old snapshot frees no series.
                drop(slot.publish(next, &self.notify));
            }
        }
    }

    /// [`MetricsPool::set_served`] for both targets from one discovery run.
    pub fn set_discovery(&self, discovery: &Discovery) {
        for target in [Target::Pods, Target::Nodes] {
            self.set_served(target, Served::from_discovery(discovery, target));
        }
    }

    /// [`MetricsPool::set_served`] for both targets from the loop's registry
    /// ([`Served::from_registry`]); nothing while it holds no discovery result.
    pub fn set_registry(&self, registry: &crate::registry::Registry) {
        for target in [Target::Pods, Target::Nodes] {
            if let Some(served) = Served::from_registry(registry, target) {
                self.set_served(target, served);
            }
        }
    }

    /// Subscribes to `key`, starting its poll task if none runs. Equal keys share one task,
    /// and a running all-namespaces pods poll that has listed at least once and is neither
    /// forbidden nor unserved serves a namespace key (a user allowed one namespace must
    /// still see it).
    pub fn subscribe(&self, key: MetricsKey) -> MetricsSubscription {
        let key = key.normalized();
        let mut g = lock(&self.inner);
        let wide = key.widened();
        let wide_serves = g.entries.get(&wide).is_some_and(|e| {
            let snap = e.slot.peek();
            snap.ok_at.is_some()
                && !matches!(
                    snap.state,
                    MetricsState::Forbidden(_) | MetricsState::NotServed(_)
                )
        });
        let served_by = if key.namespace.is_some() && wide_serves {
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
            // Shut pool: a slot that will never fill.
            None => MetricsSlot::new(MetricsSnapshot::empty(served_by.clone(), 0, self.config.interval)),
        };
        drop(g);
        MetricsSubscription {
            key,
            served_by,
            slot,
            pool: self.clone(),
        }
    }

    fn start(&self, key: &MetricsKey) -> Entry {
        let epoch = EPOCH.fetch_add(1, Ordering::Relaxed);
        let slot = MetricsSlot::new(MetricsSnapshot::empty(key.clone(), epoch, self.config.interval));
        tracing::info!(%key, epoch, "metrics poll start");
        let poller = Poller {
            key: key.clone(),
            client: self.client.clone(),
            slot: slot.clone(),
            notify: self.notify.clone(),
            config: self.config.clone(),
            served: self.served.clone(),
        };
        let task = self.runtime.spawn(poller.run());
        Entry {
            slot,
            subscribers: 0,
            idle_since: None,
            task,
        }
    }

    fn release(&self, key: &MetricsKey) {
        let mut g = lock(&self.inner);
        if let Some(e) = g.entries.get_mut(key) {
            e.subscribers = e.subscribers.saturating_sub(1);
            if e.subscribers == 0 {
                e.idle_since = Some(Instant::now());
            }
        }
    }

    /// The running poll tasks, sorted by key.
    pub fn infos(&self) -> Vec<MetricsInfo> {
        let g = lock(&self.inner);
        let mut out: Vec<MetricsInfo> = g
            .entries
            .iter()
            .map(|(k, e)| {
                let snap = e.slot.peek();
                MetricsInfo {
                    key: k.clone(),
                    state: snap.state.clone(),
                    fetched_at: snap.fetched_at,
                    took: snap.took,
                    last_error: snap.last_error.clone(),
                    objects: snap.object_count,
                    samples: snap.samples,
                    subscribers: e.subscribers,
                    stops_in: e
                        .idle_since
                        .map(|t| self.config.grace.saturating_sub(t.elapsed())),
                }
            })
            .collect();
        out.sort_by(|a, b| a.key.cmp(&b.key));
        out
    }

    /// Stops every poll task now (context switch, quit). Later subscriptions get dead slots.
    pub fn shutdown(&self) {
        let mut g = lock(&self.inner);
        g.shut = true;
        for (_, e) in g.entries.drain() {
            e.task.abort();
        }
    }

    /// The configuration the pool polls with.
    pub fn config(&self) -> &MetricsConfig {
        &self.config
    }
}

fn lock(m: &Mutex<Inner>) -> MutexGuard<'_, Inner> {
    match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}
