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
use super::select::{Filter, Meta};

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
        StoreConfig { history: 20_000, watch_buffer: 16_384 }
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
    tx: broadcast::Sender<Arc<Change>>,
}

/// A page of a list: raw items, the list's revision, and the key to continue after.
#[derive(Debug, Clone)]
pub struct Page {
    /// The objects' JSON, in key order.
    pub items: Vec<Bytes>,
    /// `metadata.resourceVersion` of the list.
    pub revision: u64,
    /// Key of the last item when more may follow (the next page starts after it).
    pub next: Option<String>,
}

/// The store. Cheap to share behind an `Arc`; every method is synchronous and short.
pub struct Store {
    tables: Vec<Mutex<Table>>,
    revision: AtomicU64,
    uids: AtomicU64,
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
                Mutex::new(Table { objects: BTreeMap::new(), log: VecDeque::new(), oldest: 1, tx })
            })
            .collect();
        Arc::new(Store { tables, revision: AtomicU64::new(1), uids: AtomicU64::new(0), config })
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
    pub fn modify(&self, kind: KindId, ns: &str, name: &str, f: impl FnOnce(&mut Value)) -> Result<Stored, StoreError> {
        let key = key_of(ns, name);
        let mut t = self.table(kind);
        let cur = t.objects.get(&key).ok_or_else(|| StoreError::NotFound(key.clone()))?;
        let mut v: Value = serde_json::from_slice(&cur.bytes).map_err(|e| StoreError::Invalid(e.to_string()))?;
        f(&mut v);
        self.write_locked(&mut t, kind, v, Some(true))
    }

    fn write(&self, kind: KindId, obj: Value, exists: Option<bool>) -> Result<Stored, StoreError> {
        let mut t = self.table(kind);
        self.write_locked(&mut t, kind, obj, exists)
    }

    /// `exists`: `Some(false)` = must be new, `Some(true)` = must exist, `None` = either.
    fn write_locked(&self, t: &mut Table, kind: KindId, mut obj: Value, exists: Option<bool>) -> Result<Stored, StoreError> {
        let info = &KINDS[kind].info;
        let meta = index(kind, &obj)?;
        if info.namespaced == meta.namespace.is_empty() {
            return Err(StoreError::Invalid(format!("namespace {:?} on a {} object", meta.namespace, info.kind)));
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
        let (uid, created) = match prev {
            Some(p) => {
                let pv: Value = serde_json::from_slice(&p.bytes).unwrap_or(Value::Null);
                (pv["metadata"]["uid"].clone(), pv["metadata"]["creationTimestamp"].clone())
            }
            None => (Value::Null, Value::Null),
        };
        let m = obj
            .get_mut("metadata")
            .and_then(Value::as_object_mut)
            .ok_or_else(|| StoreError::Invalid("no metadata".into()))?;
        if m.get("uid").is_none_or(Value::is_null) {
            let uid = if uid.is_null() { Value::String(self.next_uid(kind)) } else { uid };
            m.insert("uid".into(), uid);
        }
        if m.get("creationTimestamp").is_none_or(Value::is_null) {
            let ts = if created.is_null() { Value::String(now_rfc3339()) } else { created };
            m.insert("creationTimestamp".into(), ts);
        }
        m.insert("resourceVersion".into(), Value::String(rv.to_string()));
        let bytes = Bytes::from(serde_json::to_vec(&obj).map_err(|e| StoreError::Invalid(e.to_string()))?);
        let stored = Stored { rv, bytes, meta: Arc::new(meta) };
        let change_type = if prev_meta.is_some() { ChangeType::Modified } else { ChangeType::Added };
        t.objects.insert(key, stored.clone());
        self.record(t, Change { kind: change_type, obj: stored.clone(), prev: prev_meta });
        Ok(stored)
    }

    /// Deletes an object; its DELETED change carries its last state at a new revision.
    pub fn delete(&self, kind: KindId, ns: &str, name: &str) -> Result<Stored, StoreError> {
        let key = key_of(ns, name);
        let mut t = self.table(kind);
        let cur = t.objects.remove(&key).ok_or_else(|| StoreError::NotFound(key.clone()))?;
        let rv = self.revision.fetch_add(1, Ordering::SeqCst) + 1;
        let mut v: Value = serde_json::from_slice(&cur.bytes).unwrap_or(Value::Null);
        if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
            m.insert("resourceVersion".into(), Value::String(rv.to_string()));
        }
        let bytes = serde_json::to_vec(&v).map(Bytes::from).unwrap_or(cur.bytes);
        let stored = Stored { rv, bytes, meta: cur.meta };
        self.record(&mut t, Change { kind: ChangeType::Deleted, obj: stored.clone(), prev: None });
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

    /// Forgets a kind's change history (like an etcd compaction): watches and continue
    /// tokens from before now get 410.
    pub fn compact(&self, kind: KindId) {
        let mut t = self.table(kind);
        t.log.clear();
        t.oldest = self.revision();
    }

    /// The oldest revision a watch or continue token of `kind` may start from.
    pub fn oldest(&self, kind: KindId) -> u64 {
        self.table(kind).oldest
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

    /// Up to `limit` (0 = all) matching objects with keys after `after`, from the current
    /// state. The page's revision is the current one unless `at` (a continue token's) is given.
    pub fn list(&self, kind: KindId, filter: &Filter, limit: usize, after: Option<&str>, at: Option<u64>) -> Page {
        let t = self.table(kind);
        let revision = at.unwrap_or_else(|| self.revision());
        let ns = filter.namespace.as_deref().or(filter.fields.namespace());
        let prefix = ns.filter(|_| KINDS[kind].info.namespaced).map(|ns| format!("{ns}/"));
        let start = match (after, &prefix) {
            (Some(a), _) => std::ops::Bound::Excluded(a.to_owned()),
            (None, Some(p)) => std::ops::Bound::Included(p.clone()),
            (None, None) => std::ops::Bound::Unbounded,
        };
        let mut items = Vec::new();
        let mut last = None;
        for (k, o) in t.objects.range((start, std::ops::Bound::Unbounded)) {
            if prefix.as_ref().is_some_and(|p| !k.starts_with(p.as_str())) {
                break;
            }
            if !filter.matches(&o.meta) {
                continue;
            }
            if limit > 0 && items.len() == limit {
                return Page { items, revision, next: last };
            }
            items.push(o.bytes.clone());
            last = Some(k.clone());
        }
        Page { items, revision, next: None }
    }

    /// Starts a watch of `kind`: the changes after `from` (or, with `None`, every current
    /// object as ADDED), plus a receiver of every later change. Both are taken under the
    /// kind's lock, so nothing is missed or doubled.
    pub fn watch(&self, kind: KindId, from: Option<u64>) -> Result<(Vec<Arc<Change>>, broadcast::Receiver<Arc<Change>>), Gone> {
        let t = self.table(kind);
        let backlog = match from {
            Some(r) if r < t.oldest => return Err(Gone { from: r, oldest: t.oldest }),
            Some(r) => {
                let skip = t.log.partition_point(|c| c.obj.rv <= r);
                t.log.iter().skip(skip).cloned().collect()
            }
            None => t
                .objects
                .values()
                .map(|o| Arc::new(Change { kind: ChangeType::Added, obj: o.clone(), prev: None }))
                .collect(),
        };
        Ok((backlog, t.tx.subscribe()))
    }

    /// The revision a bookmark of `kind` may carry: every change of `kind` at or below it has
    /// been sent to the kind's channel (read under the kind's lock).
    pub fn bookmark_revision(&self, kind: KindId) -> u64 {
        let _t = self.table(kind);
        self.revision()
    }

    fn next_uid(&self, kind: KindId) -> String {
        let n = self.uids.fetch_add(1, Ordering::Relaxed) + 1;
        format!("{:08x}-5ec0-4d00-8000-{:012x}", kind as u64 + 0xd3_0000, n)
    }
}

/// Current time as the API formats timestamps (`2026-01-01T00:00:00Z`).
pub fn now_rfc3339() -> String {
    jiff::Timestamp::now().strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// Extracts the indexed fields of an object of `kind`.
pub fn index(kind: KindId, obj: &Value) -> Result<Meta, StoreError> {
    let md = &obj["metadata"];
    let name = md["name"].as_str().filter(|n| !n.is_empty()).ok_or_else(|| StoreError::Invalid("metadata.name is required".into()))?;
    let namespace = md["namespace"].as_str().unwrap_or("");
    let labels = md["labels"]
        .as_object()
        .map(|m| m.iter().map(|(k, v)| (Box::from(k.as_str()), Box::from(v.as_str().unwrap_or("")))).collect())
        .unwrap_or_default();
    let fields = KINDS[kind]
        .fields
        .iter()
        .map(|f| (*f, Box::from(field_value(obj, f).as_str())))
        .collect();
    Ok(Meta { namespace: namespace.into(), name: name.into(), labels, fields })
}

fn field_value(obj: &Value, label: &str) -> String {
    let pointer = match label {
        "source" => "/source/component".to_owned(),
        "status.successful" => "/status/succeeded".to_owned(),
        other => format!("/{}", other.replace('.', "/")),
    };
    match obj.pointer(&pointer) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(v) => v.to_string(),
    }
}

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
