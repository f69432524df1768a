//! The snapshot store: per informer, a [`Publisher`] that swaps immutable [`Snapshot`]s into
//! its [`Slot`] (coalesced, with one payload-free change notification per key) and the row
//! store ([`StoreWriter`]) that applies list/watch events to rows for it. Owns publication
//! rules; must not talk to the network.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tokio::time::Instant;

use arc_swap::ArcSwap;
use tokio::sync::mpsc::UnboundedSender;

use super::key::ResourceKey;
use super::row::{Row, RowCtx};
use super::rows::Rows;
use super::sink::{ByIntoRow, Relisted, RowBuilder, Sink, Verified};
use super::sync::SyncState;

pub use publisher::{Publisher, PUBLISH_INTERVAL};

/// Identity of a row inside one informer: (`metadata.namespace`, `metadata.name`). Like
/// kube's `ObjectRef`, a delete+recreate with the same name replaces the row.
/// The name is the row's own `Arc` (one allocation for both).
pub type ObjKey = (Option<Arc<str>>, Arc<str>);

/// An immutable, complete view of one informer's objects at one moment. Reading it never
/// blocks the writer; a new one replaces it whole.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// The key this snapshot belongs to.
    pub key: ResourceKey,
    /// Informer epoch that produced it (see `pool`). A restarted informer counts `rev` from 0
    /// again, so memoisation keys on `(epoch, rev)`.
    pub epoch: u64,
    /// Bumped on every publication of this slot; memoisation keys on it.
    pub rev: u64,
    /// Rows ordered by (namespace, name), in chunks shared with the previous snapshot where
    /// none of their rows changed (see [`Rows`]).
    pub rows: Rows,
    /// Freshness, in words (see [`SyncState`]).
    pub state: SyncState,
    /// True once at least one complete list was applied: only then may an empty `rows` be
    /// shown as "no resources".
    pub listed: bool,
    /// The last resourceVersion the informer saw (list, event or bookmark): where its watch
    /// resumes. `:informers` shows it from here.
    pub resource_version: Option<String>,
}

impl Snapshot {
    /// The empty, not-yet-listed snapshot a slot starts with.
    pub fn empty(key: ResourceKey, epoch: u64) -> Self {
        Snapshot {
            key,
            epoch,
            rev: 0,
            rows: Rows::default(),
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
    /// The `rev` of each publication, for tasks of the kube layer that follow one informer
    /// without the UI's notification channel (port-forwards re-targeting). Sending costs
    /// nothing without receivers.
    published: tokio::sync::watch::Sender<u64>,
    /// Objects of the last list (and watch events since) that could not be decoded, as one
    /// line for the header and `:informers` (`1 object could not be read: pod/ns/x: …`).
    unreadable: arc_swap::ArcSwapOption<String>,
}

impl Slot {
    /// A slot holding [`Snapshot::empty`].
    pub fn new(key: ResourceKey, epoch: u64) -> Arc<Slot> {
        Arc::new(Slot {
            current: ArcSwap::from_pointee(Snapshot::empty(key, epoch)),
            notified: AtomicBool::new(false),
            published: tokio::sync::watch::Sender::new(0),
            unreadable: arc_swap::ArcSwapOption::empty(),
        })
    }

    /// What could not be decoded (see the field), if anything.
    pub fn unreadable(&self) -> Option<Arc<String>> {
        self.unreadable.load_full()
    }

    /// Replaces the undecodable-objects line (the informer's business).
    pub fn set_unreadable(&self, line: Option<String>) {
        self.unreadable.store(line.map(Arc::new));
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

    /// A receiver that wakes after each publication (it holds the snapshot's `rev`); read
    /// the rows with [`Slot::peek`], which leaves the UI's notification alone. Changes are
    /// coalesced as publications are: a slow reader sees the latest only.
    pub fn changes(&self) -> tokio::sync::watch::Receiver<u64> {
        self.published.subscribe()
    }
}

/// A store-changed notification: which key. Carries no rows (the reader loads the slot).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreChanged {
    /// The key whose slot was republished.
    pub key: ResourceKey,
}

/// The single writer of one [`Slot`] for list views, owned by its informer task: the row
/// store. Mirrors kube's `reflector::Store` semantics: a relist (`init` → `init_apply`* →
/// `init_done`) is buffered and swapped in whole, so a view never sees a half-replaced table.
/// The *first* list of a slot is shown progressively instead: with nothing listed yet there
/// is no old table to keep, so each page's rows are published (coalesced, the first page at
/// once) with `listed: false` and `Syncing { received }` — a partial table that says so. A
/// relist keeps publishing the old, complete snapshot until `init_done` (merging the new
/// rows into it would show objects deleted meanwhile next to fresh ones as if one moment).
/// Rows are published ordered by (namespace, name). A publication after k changes costs
/// O(k log n + k·CHUNK + n/CHUNK): the writer remembers the changed keys and rebuilds only the
/// chunks of the last published [`Rows`] they fall in (see `patch`). The informer feeds it
/// decoded objects through its [`Sink`] impl, which builds each row with `B`; the inherent
/// methods take rows.
#[derive(Debug)]
pub struct StoreWriter<B = ByIntoRow> {
    publisher: Publisher,
    objects: BTreeMap<ObjKey, Arc<Row>>,
    relist: Option<BTreeMap<ObjKey, Arc<Row>>>,
    /// Rows in the last publication (the first page of a first list is published at once).
    published_rows: usize,
    /// The rows of `objects` as last published, when that publication was of `objects`.
    last: Option<Rows>,
    /// Keys added, changed or removed in `objects` since `last` (unsorted, may repeat).
    changed: Vec<ObjKey>,
    /// What the last completed relist replaced.
    relisted: Option<Relisted>,
    rows: RowCtx,
    build: B,
}

impl StoreWriter {
    /// A writer for `slot`, notifying `notify` after each publication, building rows of slim
    /// types with their own interner.
    pub fn new(slot: Arc<Slot>, notify: UnboundedSender<StoreChanged>) -> Self {
        Self::with_builder(Publisher::new(slot, notify), RowCtx::default(), ByIntoRow)
    }
}

impl<B> StoreWriter<B> {
    /// A writer publishing through `publisher`, building rows with `build` and the interner
    /// `rows` (shared across a pool).
    pub fn with_builder(publisher: Publisher, rows: RowCtx, build: B) -> Self {
        StoreWriter {
            publisher,
            objects: BTreeMap::new(),
            relist: None,
            published_rows: 0,
            last: None,
            changed: Vec::new(),
            relisted: None,
            rows,
            build,
        }
    }

    /// Starts a (re)list: later `init_apply` calls fill a buffer that replaces all rows at
    /// [`StoreWriter::init_done`]. A retry after a failure keeps showing why it failed
    /// (`unreachable: …`, `reconnecting …`) until objects arrive, so the reason does not
    /// flicker away on every attempt.
    pub fn init(&mut self) {
        self.relist = Some(BTreeMap::new());
        if !self.publisher.state().is_failure() {
            self.set_state(SyncState::Syncing { received: 0 });
        }
    }

    /// Adds one listed row to the relist buffer. During the first list the buffer is what is
    /// published (see the type's doc), so the row is a pending change.
    pub fn init_apply(&mut self, row: Row) {
        let buf = self.relist.get_or_insert_with(BTreeMap::new);
        buf.insert(obj_key(&row), Arc::new(row));
        let received = buf.len();
        self.publisher.set_state(SyncState::Syncing { received });
        if self.progressive() {
            self.publisher.touch();
        }
    }

    /// Drops one row from the relist buffer (a streaming list's DELETED before its end).
    pub fn init_remove(&mut self, key: &ObjKey) {
        let buf = self.relist.get_or_insert_with(BTreeMap::new);
        if buf.remove(key).is_some() {
            let received = buf.len();
            self.publisher.set_state(SyncState::Syncing { received });
            // During a first list the buffer is what is shown.
            if !self.publisher.listed() {
                self.publisher.touch();
            }
        }
    }

    /// True while the first list is under way: its buffer is shown as it fills.
    fn progressive(&self) -> bool {
        !self.publisher.listed() && self.relist.as_ref().is_some_and(|b| !b.is_empty())
    }

    /// Ends a relist: swaps the buffer in whole (objects deleted during a watch gap vanish,
    /// unchanged ones keep their `Arc` identity), marks the store live and publishes at once.
    pub fn init_done(&mut self, resource_version: Option<String>) {
        if let Some(mut fresh) = self.relist.take() {
            let (mut kept, mut changed) = (0, 0);
            for (k, row) in fresh.iter_mut() {
                if let Some(old) = self.objects.get(k) {
                    kept += 1;
                    if **old == **row {
                        *row = old.clone();
                    } else {
                        changed += 1;
                    }
                }
            }
            self.relisted = Some(Relisted {
                removed: self.objects.len() - kept,
                added: fresh.len() - kept,
                changed,
            });
            self.objects = fresh;
            self.forget_last();
        }
        self.publisher.set_listed();
        self.publisher.set_resource_version(resource_version);
        self.publisher.set_state(SyncState::Live);
        self.publish();
    }

    /// Adds or replaces one row (watch ADDED/MODIFIED).
    pub fn apply(&mut self, row: Row) {
        let key = obj_key(&row);
        self.objects.insert(key.clone(), Arc::new(row));
        self.changed_key(key);
        self.publisher.touch();
    }

    /// Records that `key` changed in `objects` since the last publication; past a few
    /// changes per row, the next publication rebuilds everything instead.
    fn changed_key(&mut self, key: ObjKey) {
        if self.last.is_some() {
            self.changed.push(key);
            if self.changed.len() > self.objects.len() / 4 + 64 {
                self.forget_last();
            }
        }
    }

    /// The next publication rebuilds all chunks.
    fn forget_last(&mut self) {
        self.last = None;
        self.changed = Vec::new();
    }

    /// Removes one row (watch DELETED). Unknown keys are ignored.
    pub fn delete(&mut self, key: &ObjKey) {
        if self.objects.remove(key).is_some() {
            self.changed_key(key.clone());
            self.publisher.touch();
        }
    }

    /// Changes the visible sync state; publishes immediately when the state *kind* changes
    /// (e.g. live → reconnecting) so failures show without delay.
    pub fn set_state(&mut self, state: SyncState) {
        if self.publisher.set_state(state) {
            self.publish();
        }
    }

    /// Publications so far (for tests of coalescing).
    pub fn publications(&self) -> u64 {
        self.publisher.publications()
    }

    /// When the pending change must be published, if one is pending.
    pub fn deadline(&self) -> Option<Instant> {
        self.publisher.deadline()
    }

    /// Publishes if a change is pending and the coalescing interval has passed, or at once
    /// when the first rows of a first list arrived (an empty table should not wait).
    pub fn maybe_publish(&mut self) {
        let first_rows = self.progressive() && self.published_rows == 0;
        if self.publisher.due() || (first_rows && self.publisher.is_dirty()) {
            self.publish();
        }
    }

    /// Publishes the current rows and state now (if anything changed since the last time):
    /// the first list's buffer while it fills, else the complete rows.
    pub fn publish(&mut self) {
        if self.publisher.is_dirty() {
            let rows = match &self.relist {
                Some(buf) if self.progressive() => patch::full(buf),
                _ => {
                    let rows = match &self.last {
                        Some(last) => {
                            let mut changed = std::mem::take(&mut self.changed);
                            changed.sort_unstable();
                            changed.dedup();
                            patch::patch(last, &self.objects, &changed)
                        }
                        None => patch::full(&self.objects),
                    };
                    self.last = Some(rows.clone());
                    rows
                }
            };
            self.published_rows = rows.len();
            self.publisher.publish(rows);
        }
    }
}

impl<T, B: RowBuilder<T>> Sink<T> for StoreWriter<B> {
    fn init(&mut self) {
        StoreWriter::init(self);
    }
    fn init_apply(&mut self, obj: T) {
        let row = self.rows.stamp(self.build.build(obj, &self.rows));
        StoreWriter::init_apply(self, row);
    }
    fn init_delete(&mut self, obj: T) {
        let row = self.rows.stamp(self.build.build(obj, &self.rows));
        StoreWriter::init_remove(self, &obj_key(&row));
    }
    fn init_done(&mut self, rv: Option<String>) {
        StoreWriter::init_done(self, rv);
    }
    fn apply(&mut self, obj: T) {
        let row = self.rows.stamp(self.build.build(obj, &self.rows));
        StoreWriter::apply(self, row);
    }
    fn delete(&mut self, obj: T) {
        let row = self.rows.stamp(self.build.build(obj, &self.rows));
        StoreWriter::delete(self, &obj_key(&row));
    }
    fn set_state(&mut self, state: SyncState) {
        StoreWriter::set_state(self, state);
    }
    fn set_resource_version(&mut self, rv: &str) {
        self.publisher.set_resource_version(Some(rv.to_owned()));
    }
    fn flush(&mut self) -> Option<Instant> {
        self.maybe_publish();
        self.deadline()
    }
    fn publish(&mut self) {
        StoreWriter::publish(self);
    }
    fn unreadable(&mut self, line: Option<String>) {
        self.publisher.set_unreadable(line);
    }
    fn relisted(&self) -> Option<Relisted> {
        self.relisted
    }
    fn verify(&mut self, listed: Vec<(T, Option<u64>)>, upto: u64) -> Option<Verified> {
        if self.relist.is_some() {
            return None;
        }
        let mut keys = std::collections::BTreeSet::new();
        let mut v = Verified::default();
        for (obj, rv) in listed {
            let row = self.rows.stamp(self.build.build(obj, &self.rows));
            let k = obj_key(&row);
            keys.insert(k.clone());
            // Changed after the store's resourceVersion: the watch brings it.
            if rv.is_none_or(|rv| rv > upto) {
                continue;
            }
            match self.objects.get(&k) {
                Some(held) if **held == row => continue,
                Some(_) => v.changed += 1,
                None => v.added += 1,
            }
            self.objects.insert(k.clone(), Arc::new(row));
            self.changed_key(k);
            self.publisher.touch();
        }
        v.candidates = self
            .objects
            .keys()
            .filter(|k| !keys.contains(*k))
            .cloned()
            .collect();
        Some(v)
    }
    fn remove_ghosts(&mut self, keys: &[ObjKey]) -> usize {
        let mut removed = 0;
        for k in keys {
            if self.objects.remove(k).is_some() {
                removed += 1;
                self.changed_key(k.clone());
            }
        }
        if removed > 0 {
            self.publisher.touch();
        }
        removed
    }
}

/// The identity of a row within its informer.
pub fn obj_key(row: &Row) -> ObjKey {
    (row.namespace.clone(), row.name.clone())
}

mod patch;
mod publisher;
#[cfg(test)]
mod tests;
