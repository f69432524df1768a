//! The demo cluster's object store, like etcd plus the API server's watch cache: one
//! cluster-wide revision counter, per kind the objects (serialized JSON bytes plus indexed
//! [`Meta`]), a bounded log of recent changes and a fan-out channel of live ones. Owns every
//! write; must not know about HTTP, faults or the scenario.

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use bytes::Bytes;
use serde_json::Value;
use tokio::sync::broadcast;

use super::kinds::{KindId, KINDS};
use super::matching::Meta;

/// Bounds of the store.
#[derive(Debug, Clone)]
pub struct StoreConfig {
    /// Changes kept per kind for watch replay and continue tokens; older revisions get 410.
    pub history: usize,
    /// Live changes a watcher may fall behind before it is cut off.
    pub watch_buffer: usize,
}

impl Default for StoreConfig {
    fn default() -> Self {
        StoreConfig {
            history: 20_000,
            watch_buffer: 16_384,
        }
    }
}

/// One stored object version.
#[derive(Debug, Clone)]
pub struct Stored {
    /// Its `metadata.resourceVersion`.
    pub rv: u64,
    /// The object's JSON, `resourceVersion` already stamped.
    pub bytes: Bytes,
    /// Its indexed fields.
    pub meta: Arc<Meta>,
}

/// What happened to an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeType {
    Added,
    Modified,
    Deleted,
}

/// One entry of a kind's change log, shared by every watcher.
#[derive(Debug)]
pub struct Change {
    /// ADDED / MODIFIED / DELETED.
    pub kind: ChangeType,
    /// The object after the change (for DELETED: its last state, stamped with the deletion
    /// revision).
    pub obj: Stored,
    /// The indexed fields before a MODIFIED, so a filtered watch can turn an object leaving
    /// its selector into DELETED and one entering it into ADDED.
    pub prev: Option<Arc<Meta>>,
}

/// Why a write failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    #[error("{0} not found")]
    NotFound(String),
    #[error("{0} already exists")]
    AlreadyExists(String),
    #[error("invalid object: {0}")]
    Invalid(String),
    /// The object changed since the revision the writer started from (a compare-and-swap
    /// lost); the API answers 409 Conflict.
    #[error("{0}: the object has been modified")]
    Conflict(String),
}

/// A watch could not start: `from` is older than the kind's log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gone {
    /// The requested revision.
    pub from: u64,
    /// The oldest revision a watch can still start from.
    pub oldest: u64,
}

struct Table {
    objects: BTreeMap<String, Stored>,
    log: VecDeque<Arc<Change>>,
    /// Every change with a revision above this is in `log`.
    oldest: u64,
    /// Revision of the last compaction: continue tokens from before it are expired.
    compacted: u64,
    tx: broadcast::Sender<Arc<Change>>,
}

/// The store. Cheap to share behind an `Arc`; every method is synchronous and short.
pub struct Store {
    tables: Vec<Mutex<Table>>,
    revision: AtomicU64,
    uids: AtomicU64,
    /// Age given to new objects that carry no creationTimestamp (see [`Store::set_creation_age`]).
    creation_age: AtomicU64,
    config: StoreConfig,
}

/// Store key of an object: `namespace/name`, or `name` when cluster-scoped.
pub fn key_of(namespace: &str, name: &str) -> String {
    if namespace.is_empty() {
        name.to_owned()
    } else {
        format!("{namespace}/{name}")
    }
}

impl Store {
    /// An empty store at revision 1.
    pub fn new(config: StoreConfig) -> Arc<Store> {
        let tables = KINDS
            .iter()
            .map(|_| {
                let (tx, _) = broadcast::channel(config.watch_buffer.max(16));
                Mutex::new(Table {
                    objects: BTreeMap::new(),
                    log: VecDeque::new(),
                    oldest: 1,
                    compacted: 1,
                    tx,
                })
            })
            .collect();
        Arc::new(Store {
            tables,
            revision: AtomicU64::new(1),
            uids: AtomicU64::new(0),
            creation_age: AtomicU64::new(0),
            config,
        })
    }

    fn table(&self, kind: KindId) -> MutexGuard<'_, Table> {
        // A panic while holding the lock leaves a consistent table (writes are all-or-nothing
        // before the insert), so poisoning is ignored.
        self.tables[kind].lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The current cluster-wide revision.
    pub fn revision(&self) -> u64 {
        self.revision.load(Ordering::SeqCst)
    }

    /// Creates `obj`; fails if it exists.
    pub fn create(&self, kind: KindId, obj: Value) -> Result<Stored, StoreError> {
        self.write(kind, obj, Some(false))
    }

    /// Creates or replaces `obj` (keeping uid and creationTimestamp of the stored version).
    pub fn apply(&self, kind: KindId, obj: Value) -> Result<Stored, StoreError> {
        self.write(kind, obj, None)
    }

    /// Applies `f` to the stored object and writes the result; `NotFound` if absent.
    pub fn modify(
        &self,
        kind: KindId,
        ns: &str,
        name: &str,
        f: impl FnOnce(&mut Value),
    ) -> Result<Stored, StoreError> {
        let key = key_of(ns, name);
        let mut t = self.table(kind);
        let cur = t
            .objects
            .get(&key)
            .ok_or_else(|| StoreError::NotFound(key.clone()))?;
        let mut v: Value =
            serde_json::from_slice(&cur.bytes).map_err(|e| StoreError::Invalid(e.to_string()))?;
        f(&mut v);
        self.write_locked(&mut t, kind, v, Some(true))
    }

    fn write(&self, kind: KindId, mut obj: Value, exists: Option<bool>) -> Result<Stored, StoreError> {
        // Before this kind's lock: it reads the namespace's, owners' and CRD's tables.
        self.backdate(kind, &mut obj);
        let mut t = self.table(kind);
        self.write_locked(&mut t, kind, obj, exists)
    }

    /// `exists`: `Some(false)` = must be new, `Some(true)` = must exist, `None` = either.
    fn write_locked(
        &self,
        t: &mut Table,
        kind: KindId,
        mut obj: Value,
        exists: Option<bool>,
    ) -> Result<Stored, StoreError> {
        let info = &KINDS[kind].info;
        let meta = index(kind, &obj)?;
        if info.namespaced == meta.namespace.is_empty() {
            return Err(StoreError::Invalid(format!(
                "namespace {:?} on a {} object",
                meta.namespace, info.kind
            )));
        }
        let key = key_of(&meta.namespace, &meta.name);
        let prev = t.objects.get(&key);
        match (exists, prev.is_some()) {
            (Some(false), true) => return Err(StoreError::AlreadyExists(key)),
            (Some(true), false) => return Err(StoreError::NotFound(key)),
            _ => {}
        }
        let rv = self.revision.fetch_add(1, Ordering::SeqCst) + 1;
        let prev_meta = prev.map(|p| p.meta.clone());
        let prev_value: Option<Value> = prev.map(|p| serde_json::from_slice(&p.bytes).unwrap_or(Value::Null));
        let (uid, created) = match &prev_value {
            Some(pv) => (
                pv["metadata"]["uid"].clone(),
                pv["metadata"]["creationTimestamp"].clone(),
            ),
            None => (Value::Null, Value::Null),
        };
        let m = obj
            .get_mut("metadata")
            .and_then(Value::as_object_mut)
            .ok_or_else(|| StoreError::Invalid("no metadata".into()))?;
        if m.get("uid").is_none_or(Value::is_null) {
            let uid = if uid.is_null() {
                Value::String(self.next_uid(kind))
            } else {
                uid
            };
            m.insert("uid".into(), uid);
        }
        if m.get("creationTimestamp").is_none_or(Value::is_null) {
            // A backdated new object got its timestamp in `write` (see `backdate`).
            let ts = if created.is_null() {
                Value::String(now_rfc3339())
            } else {
                created
            };
            m.insert("creationTimestamp".into(), ts);
        }
        m.insert("resourceVersion".into(), Value::String(rv.to_string()));
        super::managed::stamp(kind, prev_value.as_ref(), &mut obj, &now_rfc3339());
        // Boxed slice: no spare capacity kept per object (to_vec grows by doubling).
        let bytes = Bytes::from(
            serde_json::to_vec(&obj)
                .map_err(|e| StoreError::Invalid(e.to_string()))?
                .into_boxed_slice(),
        );
        let stored = Stored {
            rv,
            bytes,
            meta: Arc::new(meta),
        };
        let change_type = if prev_meta.is_some() {
            ChangeType::Modified
        } else {
            ChangeType::Added
        };
        t.objects.insert(key, stored.clone());
        self.record(
            t,
            Change {
                kind: change_type,
                obj: stored.clone(),
                prev: prev_meta,
            },
        );
        Ok(stored)
    }

    /// Deletes an object; its DELETED change carries its last state at a new revision.
    pub fn delete(&self, kind: KindId, ns: &str, name: &str) -> Result<Stored, StoreError> {
        let mut t = self.table(kind);
        self.delete_locked(&mut t, &key_of(ns, name))
    }

    fn delete_locked(&self, t: &mut Table, key: &str) -> Result<Stored, StoreError> {
        let cur = t
            .objects
            .remove(key)
            .ok_or_else(|| StoreError::NotFound(key.to_owned()))?;
        let rv = self.revision.fetch_add(1, Ordering::SeqCst) + 1;
        let mut v: Value = serde_json::from_slice(&cur.bytes).unwrap_or(Value::Null);
        if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
            m.insert("resourceVersion".into(), Value::String(rv.to_string()));
        }
        let bytes = serde_json::to_vec(&v)
            .map(|b| Bytes::from(b.into_boxed_slice()))
            .unwrap_or(cur.bytes);
        let stored = Stored {
            rv,
            bytes,
            meta: cur.meta,
        };
        self.record(
            t,
            Change {
                kind: ChangeType::Deleted,
                obj: stored.clone(),
                prev: None,
            },
        );
        Ok(stored)
    }

    fn record(&self, t: &mut Table, change: Change) {
        let change = Arc::new(change);
        t.log.push_back(change.clone());
        while t.log.len() > self.config.history {
            if let Some(old) = t.log.pop_front() {
                t.oldest = old.obj.rv;
            }
        }
        // No receivers is fine: nobody watches this kind right now.
        let _ = t.tx.send(change);
    }

    /// Forgets a kind's whole change history (watch cache and storage): watches and continue
    /// tokens from before now get 410.
    pub fn compact(&self, kind: KindId) {
        let mut t = self.table(kind);
        t.log.clear();
        t.oldest = self.revision();
        t.compacted = t.oldest;
    }

    /// Compacts storage of every kind up to revision `to`, like the API server's periodic
    /// etcd compaction: continue tokens from before `to` expire; the watch logs are untouched.
    pub fn compact_storage(&self, to: u64) {
        for kind in 0..self.tables.len() {
            let mut t = self.table(kind);
            t.compacted = t.compacted.max(to);
        }
    }

    /// The oldest revision a watch of `kind` may start from.
    pub fn oldest(&self, kind: KindId) -> u64 {
        self.table(kind).oldest
    }

    /// The oldest revision a continue token of `kind` may carry.
    pub fn compacted(&self, kind: KindId) -> u64 {
        self.table(kind).compacted
    }

    /// One object.
    pub fn get(&self, kind: KindId, ns: &str, name: &str) -> Option<Stored> {
        self.table(kind).objects.get(&key_of(ns, name)).cloned()
    }

    /// Number of objects of a kind.
    pub fn len(&self, kind: KindId) -> usize {
        self.table(kind).objects.len()
    }

    /// Whether the store holds no object of `kind`.
    pub fn is_empty(&self, kind: KindId) -> bool {
        self.len(kind) == 0
    }

    /// Makes objects written from now on without a creationTimestamp look `secs` old (plus up
    /// to 10 % jitter, never older than their namespace, owners or CRD: see `backdate`): the
    /// scenario's setup uses it so the demo looks like a cluster that has been running for a
    /// while. 0 = now.
    pub fn set_creation_age(&self, secs: u64) {
        self.creation_age.store(secs, Ordering::Relaxed);
    }

    fn next_uid(&self, kind: KindId) -> String {
        let n = self.uids.fetch_add(1, Ordering::Relaxed) + 1;
        format!("{:08x}-5ec0-4d00-8000-{:012x}", kind as u64 + 0xd3_0000, n)
    }
}

/// Current time as the API formats timestamps (`2026-01-01T00:00:00Z`).
pub fn now_rfc3339() -> String {
    ago_rfc3339(0)
}

/// The time `secs` seconds ago, formatted like [`now_rfc3339`].
pub fn ago_rfc3339(secs: u64) -> String {
    let t = jiff::Timestamp::now() - jiff::SignedDuration::from_secs(i64::try_from(secs).unwrap_or(0));
    t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

mod backdate;
mod cas;
mod index;
mod read;
mod restore;

pub use index::index;
pub use read::{Page, WatchStart};
pub use restore::Backup;

#[cfg(test)]
mod tests;
