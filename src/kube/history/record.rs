//! [`History`]: the revisions ktui has observed of each object, per context. An object keeps
//! its newest revision as compact JSON (LZ4-packed, [`super::body`]) and, per older revision,
//! a reverse patch; everything is counted against a byte budget (oldest revisions evicted
//! first, then the least recently changed objects) and a per-object cap. Owns recording,
//! eviction and reconstruction; must not decide what is worth recording (see
//! `super::recorded`) nor how changes read.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::value::RawValue;
use serde_json::Value;

use super::body::Packed;
use super::managed::{self, ManagerEntry};
use super::patch::{self, Op};
use super::tape::{Tape, Val};
use super::{raw, rawdiff};
use crate::kube::row::UnixSecs;

/// Bounds of one context's history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HistoryConfig {
    /// Bytes all recorded revisions of a context may take (bodies, patches and bookkeeping);
    /// `[history] max_mib`, default 64 MiB. 0 turns recording off.
    pub budget_bytes: usize,
    /// Revisions kept per object (`[history] max_revisions`, default 50); older ones go first.
    pub per_object: usize,
}

impl Default for HistoryConfig {
    fn default() -> Self {
        HistoryConfig {
            budget_bytes: 64 << 20,
            per_object: 50,
        }
    }
}

/// Identity of one recorded object: its resource (`plural.group`, as `Kind::full_name`),
/// `metadata.namespace` and `metadata.name`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjId {
    /// `deployments.apps`, `configmaps`, `gizmos.demo.ktui.dev`.
    pub resource: Box<str>,
    /// `metadata.namespace`; `None` for cluster-scoped objects.
    pub namespace: Option<Box<str>>,
    /// `metadata.name`.
    pub name: Box<str>,
}

/// How a revision reached ktui.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// The first revision ktui saw of the object (in a list, or when it was created).
    First,
    /// A watch event (ADDED/MODIFIED) of a list's informer or a detail view's watch.
    Watch,
    /// A relist after a watch gap found it changed: revisions in between were not observed.
    Relist,
}

/// What ktui knows of one observed revision, without its body.
#[derive(Debug, Clone, PartialEq)]
pub struct Revision {
    /// Order of arrival across the whole history (unique, increasing).
    pub seq: u64,
    /// `metadata.resourceVersion`.
    pub resource_version: Box<str>,
    /// When ktui received it (unix seconds).
    pub received: UnixSecs,
    /// `metadata.generation`.
    pub generation: Option<i64>,
    /// `metadata.managedFields` of this revision, without field sets.
    pub managers: Vec<ManagerEntry>,
    /// Indices into `managers` of those owning the fields that changed from the previous
    /// revision (their `fieldsV1` covers a changed path; when none does, the entries whose
    /// `time` moved). Empty for a first revision.
    pub owners: Vec<u8>,
    /// How it arrived.
    pub via: Via,
    /// `metadata.uid` differs from the previous revision's: the object was deleted and
    /// created again under the same name.
    pub recreated: bool,
    /// The reverse patch from this revision's body to the previous one's; `None` for the
    /// oldest revision kept.
    back: Option<Box<[u8]>>,
}

/// One revision with its body, as the history view reads it.
#[derive(Debug, Clone)]
pub struct RevisionView {
    /// What is known of it.
    pub meta: Revision,
    /// The object as it was (without `managedFields`, `resourceVersion` and the
    /// last-applied annotation; Secret values replaced by their size and a hash).
    pub body: Arc<Value>,
}

/// The recorded history of one object, newest revision first.
#[derive(Debug, Clone)]
pub struct ObjectRecord {
    /// Which object.
    pub id: ObjId,
    /// Newest first.
    pub revisions: Vec<RevisionView>,
    /// When ktui saw it deleted, if it did.
    pub deleted: Option<UnixSecs>,
    /// The deletion itself was not seen: a relist no longer listed the object (it went
    /// during a watch gap); `deleted` is the time of that relist.
    pub deleted_unseen: bool,
    /// Older revisions of this object dropped (per-object cap or budget).
    pub evicted: u64,
    /// When this context's history started recording (unix seconds).
    pub since: UnixSecs,
}

/// Totals of one context's history, for the view's header and for benchmarks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HistoryStats {
    /// Objects with at least one revision.
    pub objects: usize,
    /// Revisions kept.
    pub revisions: usize,
    /// Bytes counted against the budget.
    pub bytes: usize,
    /// The budget.
    pub budget: usize,
    /// Revisions (and baselines) evicted so far.
    pub evicted: u64,
}

struct ObjectHistory {
    /// The newest revision's body, compact JSON, packed.
    current: Packed,
    revisions: VecDeque<Revision>,
    uid: Box<str>,
    deleted: Option<UnixSecs>,
    /// See [`ObjectRecord::deleted_unseen`].
    deleted_unseen: bool,
    evicted: u64,
    /// Bytes counted for this object.
    cost: usize,
}

mod relist;

#[derive(Default)]
struct Inner {
    objects: HashMap<ObjId, ObjectHistory>,
    /// Eviction order: `(0, seq of the oldest patch)` for objects with older revisions, then
    /// `(1, seq of the newest revision)` for objects holding only their newest one.
    order: BTreeMap<(u8, u64), ObjId>,
    bytes: usize,
    evicted: u64,
    seq: u64,
}

/// Bookkeeping bytes counted per object and per revision besides their strings and bytes.
const OBJECT_OVERHEAD: usize = 160;
const REVISION_OVERHEAD: usize = 120;

/// One context's history. Shared (`Arc`) by the informers that record into it and the views
/// that read it; one short lock per operation.
pub struct History {
    config: HistoryConfig,
    since: UnixSecs,
    inner: Mutex<Inner>,
}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("History")
            .field("config", &self.config)
            .field("stats", &self.stats())
            .finish()
    }
}

impl History {
    /// An empty history with `config`, recording since `since`.
    pub fn new(config: HistoryConfig, since: UnixSecs) -> Arc<History> {
        Arc::new(History {
            config,
            since,
            inner: Mutex::new(Inner::default()),
        })
    }

    /// Whether anything is recorded at all (a zero budget turns recording off).
    pub fn enabled(&self) -> bool {
        self.config.budget_bytes > 0 && self.config.per_object > 0
    }

    /// Records `obj` (a whole object of `resource`, as the API server sent it) received at
    /// `now`; `listed`: it came in a (re)list. Returns whether a new revision was kept. The
    /// same resourceVersion, or the same content under a new one, records nothing. (For
    /// callers holding a decoded object; the informers record the text, [`Self::observe_raw`].)
    pub fn observe(&self, resource: &str, obj: Value, listed: bool, now: UnixSecs) -> bool {
        serde_json::value::to_raw_value(&obj).is_ok_and(|raw| self.observe_raw(resource, &raw, listed, now))
    }

    /// [`Self::observe`] of an object given as its JSON text, as it came off the wire: only
    /// `metadata` is read before the resourceVersion check (a relist of unchanged objects
    /// costs one scan each), and a change is diffed text against text
    /// ([`super::rawdiff`]), decoding only what differs.
    pub fn observe_raw(&self, resource: &str, obj: &RawValue, listed: bool, now: UnixSecs) -> bool {
        if !self.enabled() {
            return false;
        }
        let Some(o) = raw::Object::read(obj.get()) else {
            return false;
        };
        let Some(id) = id_from(resource, &o) else {
            return false;
        };
        let rv: Box<str> = (*o.meta_str("resourceVersion")).into();
        {
            let g = self.lock();
            if let Some(h) = g.objects.get(&id) {
                if h.deleted.is_none() && seen_before(h, &rv) {
                    return false;
                }
            }
        }
        let uid: Box<str> = (*o.meta_str("uid")).into();
        let generation = o.generation();
        let (managers, fields) = o.managed_fields().map(managed::entries_raw).unwrap_or_default();
        let body = o.normalized(resource, |s| {
            format!("<{} bytes, #{:08x}>", s.len(), keyed(s.as_bytes()))
        });
        let new = body.as_str();
        let mut g = self.lock();
        let seq = g.seq;
        g.seq += 1;
        let per_object = self.config.per_object;
        let Inner {
            objects,
            order,
            bytes: total,
            ..
        } = &mut *g;
        let Some(h) = objects.get_mut(&id) else {
            let rev = Revision {
                seq,
                resource_version: rv,
                received: now,
                generation,
                managers,
                owners: Vec::new(),
                via: Via::First,
                recreated: false,
                back: None,
            };
            let mut h = ObjectHistory {
                current: Packed::pack(&body),
                revisions: VecDeque::from([rev]),
                uid,
                deleted: None,
                deleted_unseen: false,
                evicted: 0,
                cost: 0,
            };
            h.cost = cost(&id, &h);
            *total += h.cost;
            order.insert(order_key(&h), id.clone());
            objects.insert(id, h);
            drop(g);
            self.enforce_budget();
            return true;
        };
        let Some(tape) = Tape::parse(new) else {
            return false;
        };
        let old = h.current.unpack();
        let ops = if old == new {
            Vec::new()
        } else {
            match Tape::parse(&old) {
                Some(old) => rawdiff::reverse_values(tape.root(), old.root()),
                None => rawdiff::reverse(new, &old),
            }
        };
        if ops.is_empty() && h.uid == uid && h.deleted.is_none() {
            // A new resourceVersion with the same content (a relist after a restore, a no-op
            // write of a field ktui does not keep): remember the version only.
            if let Some(last) = h.revisions.back_mut() {
                last.resource_version = rv;
                last.managers = managers;
            }
            return false;
        }
        order.remove(&order_key(h));
        let previous = h.revisions.back().map_or(&[][..], |r| &r.managers[..]);
        let owners = owners_of(&fields, tape.root(), &ops, &managers, previous);
        let recreated = !h.uid.is_empty() && h.uid != uid;
        h.revisions.push_back(Revision {
            seq,
            resource_version: rv,
            received: now,
            generation,
            managers,
            owners,
            via: if listed { Via::Relist } else { Via::Watch },
            recreated,
            back: Some(patch::encode(&ops)),
        });
        h.current = Packed::pack(new);
        h.uid = uid;
        h.deleted = None;
        h.deleted_unseen = false;
        while h.revisions.len() > per_object {
            drop_oldest(h);
        }
        let was = h.cost;
        h.cost = cost(&id, h);
        *total = *total + h.cost - was;
        order.insert(order_key(h), id);
        drop(g);
        self.enforce_budget();
        true
    }

    /// Marks the object `obj` of `resource` deleted at `now` (a watch DELETED event); its
    /// revisions stay until evicted.
    pub fn deleted(&self, resource: &str, obj: &Value, now: UnixSecs) {
        let Some(id) = id_of(resource, obj) else { return };
        if let Some(h) = self.lock().objects.get_mut(&id) {
            h.deleted.get_or_insert(now);
        }
    }

    /// [`Self::deleted`] of an object given as its JSON text.
    pub fn deleted_raw(&self, resource: &str, obj: &RawValue, now: UnixSecs) {
        let Some(id) = id_of_raw(resource, obj) else {
            return;
        };
        if let Some(h) = self.lock().objects.get_mut(&id) {
            h.deleted.get_or_insert(now);
        }
    }

    /// The newest revision's `seq` of `id`, to tell whether a view must re-read.
    pub fn latest(&self, id: &ObjId) -> Option<(u64, Option<UnixSecs>)> {
        let g = self.lock();
        let h = g.objects.get(id)?;
        Some((h.revisions.back()?.seq, h.deleted))
    }

    /// Every kept revision of `id` with its body, newest first; `None` when nothing is
    /// recorded of it.
    pub fn record(&self, id: &ObjId) -> Option<ObjectRecord> {
        let (current, metas, deleted, deleted_unseen, evicted) = {
            let g = self.lock();
            let h = g.objects.get(id)?;
            (
                h.current.clone(),
                h.revisions.clone(),
                h.deleted,
                h.deleted_unseen,
                h.evicted,
            )
        };
        let mut body: Value = serde_json::from_str(&current.unpack()).unwrap_or_else(|_| patch::empty());
        let mut revisions = Vec::with_capacity(metas.len());
        for meta in metas.into_iter().rev() {
            let back = meta.back.as_deref().map(patch::decode);
            let view = RevisionView {
                meta,
                body: Arc::new(body.clone()),
            };
            if let Some(ops) = back {
                patch::apply(&mut body, &ops);
            }
            revisions.push(view);
        }
        Some(ObjectRecord {
            id: id.clone(),
            revisions,
            deleted,
            deleted_unseen,
            evicted,
            since: self.since,
        })
    }

    /// Totals now.
    pub fn stats(&self) -> HistoryStats {
        let g = self.lock();
        HistoryStats {
            objects: g.objects.len(),
            revisions: g.objects.values().map(|h| h.revisions.len()).sum(),
            bytes: g.bytes,
            budget: self.config.budget_bytes,
            evicted: g.evicted,
        }
    }

    /// When recording started (unix seconds).
    pub fn since(&self) -> UnixSecs {
        self.since
    }

    /// Evicts until the total fits the budget: the oldest older revision first, then the
    /// object changed least recently (its next revision starts a new record).
    fn enforce_budget(&self) {
        let mut g = self.lock();
        while g.bytes > self.config.budget_bytes {
            let Some(((tier, _), id)) = g.order.pop_first() else {
                break;
            };
            let Inner {
                objects,
                order,
                bytes,
                evicted,
                ..
            } = &mut *g;
            *evicted += 1;
            if tier == 1 {
                if let Some(h) = objects.remove(&id) {
                    *bytes -= h.cost;
                }
                continue;
            }
            let Some(h) = objects.get_mut(&id) else { continue };
            drop_oldest(h);
            let was = h.cost;
            h.cost = cost(&id, h);
            *bytes = *bytes + h.cost - was;
            order.insert(order_key(h), id);
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        match self.inner.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        }
    }
}

/// Whether revision `rv` is one `h` already has or older than its newest: the same object
/// arrives from two streams (a list's informer and a detail view's watch), in either order.
/// resourceVersions are compared as numbers only when both are (etcd's are); otherwise only
/// equality counts.
fn seen_before(h: &ObjectHistory, rv: &str) -> bool {
    let newest = h.revisions.back().map(|r| &*r.resource_version);
    if let (Some(n), Ok(new)) = (newest.and_then(|n| n.parse::<u64>().ok()), rv.parse::<u64>()) {
        return new <= n;
    }
    h.revisions.iter().any(|r| &*r.resource_version == rv)
}

/// Drops the oldest revision of `h`; the next one becomes the oldest (without a patch).
fn drop_oldest(h: &mut ObjectHistory) {
    if h.revisions.len() > 1 {
        h.revisions.pop_front();
        h.evicted += 1;
        if let Some(front) = h.revisions.front_mut() {
            front.back = None;
        }
    }
}

fn order_key(h: &ObjectHistory) -> (u8, u64) {
    match (h.revisions.get(1), h.revisions.back()) {
        (Some(second), _) => (0, second.seq),
        (None, Some(only)) => (1, only.seq),
        (None, None) => (1, 0),
    }
}

fn cost(id: &ObjId, h: &ObjectHistory) -> usize {
    let strings =
        id.resource.len() + id.name.len() + id.namespace.as_ref().map_or(0, |n| n.len()) + h.uid.len();
    let revisions: usize = h
        .revisions
        .iter()
        .map(|r| {
            let managers: usize = r
                .managers
                .iter()
                .map(|m| {
                    48 + m.manager.len() + m.operation.len() + m.subresource.as_ref().map_or(0, |s| s.len())
                })
                .sum();
            REVISION_OVERHEAD
                + r.resource_version.len()
                + managers
                + r.owners.len()
                + r.back.as_ref().map_or(0, |b| b.len())
        })
        .sum();
    OBJECT_OVERHEAD + strings + h.current.len() + revisions
}

fn str_at<'a>(obj: &'a Value, pointer: &str) -> &'a str {
    obj.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

/// The identity of `obj` of `resource`; `None` without a name.
pub fn id_of(resource: &str, obj: &Value) -> Option<ObjId> {
    let name = str_at(obj, "/metadata/name");
    if name.is_empty() {
        return None;
    }
    let ns = str_at(obj, "/metadata/namespace");
    Some(ObjId {
        resource: resource.into(),
        namespace: (!ns.is_empty()).then(|| ns.into()),
        name: name.into(),
    })
}

/// [`id_of`] of an object given as its JSON text.
pub fn id_of_raw(resource: &str, obj: &RawValue) -> Option<ObjId> {
    id_from(resource, &raw::Object::read(obj.get())?)
}

fn id_from(resource: &str, o: &raw::Object<'_>) -> Option<ObjId> {
    let name = o.meta_str("name");
    if name.is_empty() {
        return None;
    }
    let ns = o.meta_str("namespace");
    Some(ObjId {
        resource: resource.into(),
        namespace: (!ns.is_empty()).then(|| (*ns).into()),
        name: (*name).into(),
    })
}

/// A keyed hash (SipHash with a key drawn at random once per process), cut to 32 bits:
/// enough to tell two Secret values apart on screen, and, unlike a plain hash, no help in
/// guessing a short value offline from a saved history.
fn keyed(bytes: &[u8]) -> u32 {
    use std::hash::BuildHasher;
    static KEY: std::sync::OnceLock<std::collections::hash_map::RandomState> = std::sync::OnceLock::new();
    let h = KEY
        .get_or_init(std::collections::hash_map::RandomState::new)
        .hash_one(bytes);
    (h >> 32) as u32
}

/// The managers owning what changed (see [`Revision::owners`]): `fields[i]` is entry `i`'s
/// `fieldsV1` as text; `obj` the new body.
fn owners_of(
    fields: &[Option<&RawValue>],
    obj: Val<'_, '_>,
    ops: &[Op],
    managers: &[ManagerEntry],
    previous: &[ManagerEntry],
) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::new();
    // Each field set indexed once, when a changed path first asks it.
    let mut sets: Vec<Option<Option<Tape<'_>>>> = (0..fields.len()).map(|_| None).collect();
    for op in ops {
        let path = match op {
            Op::Set(p, _) | Op::Remove(p) => p,
        };
        for (i, f) in fields.iter().enumerate() {
            let Some(f) = f else { continue };
            let Some(set) = sets[i].get_or_insert_with(|| Tape::parse(f.get())) else {
                continue;
            };
            if managed::owns_raw(set.root(), obj, path) {
                if let Ok(i) = u8::try_from(i) {
                    if !out.contains(&i) {
                        out.push(i);
                    }
                }
            }
        }
    }
    if out.is_empty() {
        for (i, m) in managers.iter().enumerate() {
            if !previous.contains(m) {
                if let Ok(i) = u8::try_from(i) {
                    out.push(i);
                }
            }
        }
    }
    out
}
