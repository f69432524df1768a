//! The snapshot store: per informer, a writer that applies list/watch events to its rows and
//! publishes immutable [`Snapshot`]s through an atomic swap, coalesced, with one payload-free
//! change notification per key. Owns publication rules; must not talk to the network.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use arc_swap::ArcSwap;
use tokio::sync::mpsc::UnboundedSender;

use super::key::ResourceKey;
use super::row::Row;
use super::sync::SyncState;

/// Identity of a row inside one informer: (`metadata.namespace`, `metadata.name`). Like
/// kube's `ObjectRef`, a delete+recreate with the same name replaces the row.
pub type ObjKey = (Option<Arc<str>>, Box<str>);

/// An immutable, complete view of one informer's objects at one moment. Reading it never
/// blocks the writer; a new one replaces it whole.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// The key this snapshot belongs to.
    pub key: ResourceKey,
    /// Informer epoch that produced it (see `pool`); a view drops snapshots of old epochs.
    pub epoch: u64,
    /// Bumped on every publication of this slot; memoisation keys on it.
    pub rev: u64,
    /// Rows ordered by (namespace, name).
    pub rows: Arc<[Arc<Row>]>,
    /// Freshness, in words (see [`SyncState`]).
    pub state: SyncState,
    /// True once at least one complete list was applied: only then may an empty `rows` be
    /// shown as "no resources".
    pub listed: bool,
    /// The last resourceVersion the informer saw (list, event or bookmark).
    pub resource_version: Option<String>,
}

impl Snapshot {
    /// The empty, not-yet-listed snapshot a slot starts with.
    pub fn empty(key: ResourceKey, epoch: u64) -> Self {
        Snapshot {
            key,
            epoch,
            rev: 0,
            rows: Arc::from(Vec::new()),
            state: SyncState::Pending,
            listed: false,
            resource_version: None,
        }
    }
}

/// Where one informer's current snapshot lives. Readers call [`Slot::load`]: one atomic load
/// and an `Arc` clone, no lock shared with the writer.
#[derive(Debug)]
pub struct Slot {
    current: ArcSwap<Snapshot>,
    /// Set when a notification is in flight and nobody loaded since: collapses duplicates.
    notified: AtomicBool,
}

impl Slot {
    /// A slot holding [`Snapshot::empty`].
    pub fn new(key: ResourceKey, epoch: u64) -> Arc<Slot> {
        Arc::new(Slot {
            current: ArcSwap::from_pointee(Snapshot::empty(key, epoch)),
            notified: AtomicBool::new(false),
        })
    }

    /// The latest published snapshot. Re-arms change notification for this slot.
    pub fn load(&self) -> Arc<Snapshot> {
        self.notified.store(false, Ordering::Release);
        self.current.load_full()
    }

    /// The latest snapshot without re-arming notifications (for stats and tests).
    pub fn peek(&self) -> Arc<Snapshot> {
        self.current.load_full()
    }
}

/// A store-changed notification: which key, from which epoch. Carries no rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreChanged {
    /// The key whose slot was republished.
    pub key: ResourceKey,
    /// Epoch of the informer that published.
    pub epoch: u64,
}

/// Least time between two publications of one slot while events stream in (the first
/// publication after a complete list is immediate).
pub const PUBLISH_INTERVAL: Duration = Duration::from_millis(100);

/// Publication of one slot: coalescing, revision, sync state and the change notification.
/// Shared by every writer shape (the row store here, the event timeline); owned by one
/// informer task.
#[derive(Debug)]
pub struct Publisher {
    key: ResourceKey,
    epoch: u64,
    slot: Arc<Slot>,
    notify: UnboundedSender<StoreChanged>,
    state: SyncState,
    listed: bool,
    resource_version: Option<String>,
    rev: u64,
    dirty: bool,
    last_publish: Option<Instant>,
    publications: u64,
}

impl Publisher {
    /// A publisher for `slot`, notifying `notify` after each publication.
    pub fn new(slot: Arc<Slot>, notify: UnboundedSender<StoreChanged>) -> Self {
        let snap = slot.peek();
        Publisher {
            key: snap.key.clone(),
            epoch: snap.epoch,
            slot,
            notify,
            state: SyncState::Pending,
            listed: false,
            resource_version: None,
            rev: snap.rev,
            dirty: false,
            last_publish: None,
            publications: 0,
        }
    }

    /// Marks a visible change pending.
    pub fn touch(&mut self) {
        self.dirty = true;
    }

    /// Records that a complete list was applied (empty may now be shown as empty).
    pub fn set_listed(&mut self) {
        self.listed = true;
        self.dirty = true;
    }

    /// Records the resourceVersion to resume from. Not a visible change.
    pub fn set_resource_version(&mut self, rv: Option<String>) {
        self.resource_version = rv;
    }

    /// Changes the state; returns true when its *kind* changed (e.g. live → reconnecting),
    /// which the caller publishes at once so failures show without delay.
    pub fn set_state(&mut self, state: SyncState) -> bool {
        let kind_changed = std::mem::discriminant(&state) != std::mem::discriminant(&self.state);
        if state != self.state {
            self.state = state;
            self.dirty = true;
        }
        kind_changed
    }

    /// The state last set.
    pub fn state(&self) -> &SyncState {
        &self.state
    }

    /// Publications so far.
    pub fn publications(&self) -> u64 {
        self.publications
    }

    /// When the pending change must be published, if one is pending: the last publication
    /// plus [`PUBLISH_INTERVAL`].
    pub fn deadline(&self) -> Option<Instant> {
        if !self.dirty {
            return None;
        }
        Some(
            self.last_publish
                .map_or_else(Instant::now, |t| t + PUBLISH_INTERVAL),
        )
    }

    /// True when a change is pending and its deadline has passed.
    pub fn due(&self) -> bool {
        self.deadline().is_some_and(|d| Instant::now() >= d)
    }

    /// True when a change is pending.
    pub fn is_dirty(&self) -> bool {
        self.dirty
    }

    /// Publishes `rows` (already in display order) with the current state, and notifies.
    pub fn publish(&mut self, rows: Arc<[Arc<Row>]>) {
        self.dirty = false;
        self.rev += 1;
        self.publications += 1;
        self.last_publish = Some(Instant::now());
        let snap = Snapshot {
            key: self.key.clone(),
            epoch: self.epoch,
            rev: self.rev,
            rows,
            state: self.state.clone(),
            listed: self.listed,
            resource_version: self.resource_version.clone(),
        };
        self.slot.current.store(Arc::new(snap));
        if !self.slot.notified.swap(true, Ordering::AcqRel) {
            // A closed receiver means the UI is gone; nothing to tell.
            let _ = self.notify.send(StoreChanged {
                key: self.key.clone(),
                epoch: self.epoch,
            });
        }
    }
}

/// The single writer of one [`Slot`] for list views, owned by its informer task. Mirrors
/// kube's `reflector::Store` semantics: a relist (`init` → `init_apply`* → `init_done`) is
/// buffered and swapped in whole, so a view never sees a half-empty table. Rows are
/// published ordered by (namespace, name).
#[derive(Debug)]
pub struct StoreWriter {
    publisher: Publisher,
    objects: BTreeMap<ObjKey, Arc<Row>>,
    relist: Option<BTreeMap<ObjKey, Arc<Row>>>,
}

impl StoreWriter {
    /// A writer for `slot`, notifying `notify` after each publication.
    pub fn new(slot: Arc<Slot>, notify: UnboundedSender<StoreChanged>) -> Self {
        StoreWriter {
            publisher: Publisher::new(slot, notify),
            objects: BTreeMap::new(),
            relist: None,
        }
    }

    /// Gives up the row store, keeping the publication machinery (for writers of another
    /// shape, such as the event timeline).
    pub fn into_publisher(self) -> Publisher {
        self.publisher
    }

    /// The publication machinery.
    pub fn publisher(&mut self) -> &mut Publisher {
        &mut self.publisher
    }

    /// Starts a (re)list: later `init_apply` calls fill a buffer that replaces all rows at
    /// [`StoreWriter::init_done`]. A retry after a failure keeps showing why it failed
    /// (`unreachable: …`, `reconnecting …`) until objects arrive, so the reason does not
    /// flicker away on every attempt.
    pub fn init(&mut self) {
        self.relist = Some(BTreeMap::new());
        if !self.state().is_failure() {
            self.set_state(SyncState::Syncing { received: 0 });
        }
    }

    /// Adds one listed object to the relist buffer.
    pub fn init_apply(&mut self, row: Row) {
        let buf = self.relist.get_or_insert_with(BTreeMap::new);
        buf.insert(obj_key(&row), Arc::new(row));
        let received = buf.len();
        self.publisher.set_state(SyncState::Syncing { received });
    }

    /// Ends a relist: swaps the buffer in whole (objects deleted during a watch gap vanish,
    /// unchanged ones keep their `Arc` identity), marks the store live and publishes at once.
    pub fn init_done(&mut self, resource_version: Option<String>) {
        if let Some(mut fresh) = self.relist.take() {
            for (k, row) in fresh.iter_mut() {
                if let Some(old) = self.objects.get(k) {
                    if **old == **row {
                        *row = old.clone();
                    }
                }
            }
            self.objects = fresh;
        }
        self.publisher.set_listed();
        self.publisher.set_resource_version(resource_version);
        self.publisher.set_state(SyncState::Live);
        self.publish();
    }

    /// Adds or replaces one object (watch ADDED/MODIFIED).
    pub fn apply(&mut self, row: Row) {
        self.objects.insert(obj_key(&row), Arc::new(row));
        self.publisher.touch();
    }

    /// Removes one object (watch DELETED). Unknown keys are ignored.
    pub fn delete(&mut self, key: &ObjKey) {
        if self.objects.remove(key).is_some() {
            self.publisher.touch();
        }
    }

    /// Records the resourceVersion to resume from (event or bookmark). Not a visible change.
    pub fn set_resource_version(&mut self, rv: String) {
        self.publisher.set_resource_version(Some(rv));
    }

    /// Changes the visible sync state; publishes immediately when the state *kind* changes
    /// (e.g. live → reconnecting) so failures show without delay.
    pub fn set_state(&mut self, state: SyncState) {
        if self.publisher.set_state(state) {
            self.publish();
        }
    }

    /// The state last set.
    pub fn state(&self) -> &SyncState {
        self.publisher.state()
    }

    /// Number of objects currently held (not counting a relist buffer).
    pub fn len(&self) -> usize {
        self.objects.len()
    }

    /// True when no objects are held.
    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    /// Publications so far (for stats and tests of coalescing).
    pub fn publications(&self) -> u64 {
        self.publisher.publications()
    }

    /// When the pending change must be published, if one is pending.
    pub fn deadline(&self) -> Option<Instant> {
        self.publisher.deadline()
    }

    /// Publishes if a change is pending and the coalescing interval has passed.
    pub fn maybe_publish(&mut self) {
        if self.publisher.due() {
            self.publish();
        }
    }

    /// Publishes the current rows and state now (if anything changed since the last time).
    pub fn publish(&mut self) {
        if self.publisher.is_dirty() {
            let rows: Arc<[Arc<Row>]> = self.objects.values().cloned().collect();
            self.publisher.publish(rows);
        }
    }
}

/// The identity of a row within its informer.
pub fn obj_key(row: &Row) -> ObjKey {
    (row.namespace.clone(), row.name.clone())
}

#[cfg(test)]
mod tests;
