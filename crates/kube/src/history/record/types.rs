//! The history's vocabulary: its bounds ([`HistoryConfig`]), object identity ([`ObjId`] and
//! how it is read from an object), and what the views read — revisions without bodies,
//! records with them, totals. Types and identity only; must not record, evict or rebuild
//! bodies (that is `super`).

use std::sync::Arc;

use serde_json::value::RawValue;
use serde_json::Value;

use super::super::managed::ManagerEntry;
use super::super::raw;
use crate::row::UnixSecs;

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
    pub(super) back: Option<Box<[u8]>>,
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

pub(super) fn id_from(resource: &str, o: &raw::Object<'_>) -> Option<ObjId> {
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
