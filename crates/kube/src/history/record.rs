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
use crate::row::UnixSecs;

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
mod types;

use types::id_from;
pub use types::{
    id_of, id_of_raw, HistoryConfig, HistoryStats, ObjId, ObjectRecord, Revision, RevisionView, Via,
};

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
        let body = o.normalized(resource);
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
        // A Secret's body is its metadata (see `raw::Object::normalized`): a write to its
        // data shows only as a manager's new time, which is then a revision of its own.
        let secret_written =
            resource == "secrets" && h.revisions.back().is_some_and(|last| last.managers != managers);
        if ops.is_empty() && h.uid == uid && h.deleted.is_none() && !secret_written {
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
