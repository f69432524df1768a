//! The compact row every informer stores instead of an API object; owns the `Row`/`Cell`
//! vocabulary and the `IntoRow` contract. Must not format anything time-dependent (that is
//! done at draw time) nor know about terminals.

use std::sync::Arc;

use serde::de::DeserializeOwned;

use super::intern::Interner;

/// Unix time in whole seconds (UTC). All timestamps in rows use this unit so that relative
/// ages can be computed at draw time against an injected clock.
pub type UnixSecs = i64;

/// Label pairs of an object (`metadata.labels`), keys and values interned, sorted by key.
pub type Labels = super::intern::LabelSet;

/// One cell of a row, kept in the cheapest form that can still be rendered exactly like
/// kubectl at draw time. Text is already sanitized (see [`crate::sanitize`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// A literal string, sanitized at decode time.
    Text(Box<str>),
    /// A literal string known at compile time (`<none>`, `Running`, ...), no allocation.
    Static(&'static str),
    /// Sanitized text held in one allocation with other owners: text that repeats across
    /// many rows (a pod's NODE, READY `1/1`, an event's REASON), interned, or a row's own
    /// text that its [`EventInfo`] holds too (a one-line event MESSAGE).
    Shared(Arc<str>),
    /// An integer printed in decimal.
    Int(i64),
    /// `HumanDuration(now - t)`; `None` prints `<unknown>`.
    Age(Option<UnixSecs>),
    /// Pod RESTARTS: `count`, or `count (HumanDuration(now - last) ago)` when `count > 0`
    /// and `last` (latest `lastState.terminated.finishedAt`) is known.
    Restarts { count: i64, last: Option<UnixSecs> },
    /// Job DURATION (boxed: jobs are few, and it keeps every cell at 24 bytes — eight per
    /// pod row).
    Span(Box<Span>),
}

/// Job DURATION: blank without `start` (`status.startTime`); `HumanDuration(end - start)`
/// when `end` (`status.completionTime`) is set, else `HumanDuration(now - start)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// `status.startTime`.
    pub start: Option<UnixSecs>,
    /// `status.completionTime`.
    pub end: Option<UnixSecs>,
}

impl Cell {
    /// A [`Cell::Span`] from `start` to `end`.
    pub fn span(start: Option<UnixSecs>, end: Option<UnixSecs>) -> Cell {
        Cell::Span(Box::new(Span { start, end }))
    }

    /// The literal text of a [`Cell::Text`], [`Cell::Static`] or [`Cell::Shared`] cell;
    /// `None` for cells formatted at draw time (ages, counts, restarts, spans).
    pub fn literal(&self) -> Option<&str> {
        match self {
            Cell::Text(t) => Some(t),
            Cell::Static(t) => Some(t),
            Cell::Shared(t) => Some(t),
            _ => None,
        }
    }
}

/// How a row should be coloured: derived from the kind's status column at decode time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Health {
    /// Nothing remarkable (Running and ready, Active, Bound, Complete...).
    #[default]
    Ok,
    /// In progress or degraded (Pending, ContainerCreating, NotReady, Terminating...).
    Warn,
    /// Failing (CrashLoopBackOff, Error, ImagePullBackOff, Failed...).
    Error,
    /// Finished and uninteresting (Completed, Succeeded).
    Done,
}

/// Where `enter` on a row leads: a pod list narrowed by a server-side selector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Drill {
    /// Pods of this namespace (from a Namespace row).
    Namespace(Box<str>),
    /// Pods matching a label selector in the row's namespace (Deployment, ReplicaSet,
    /// StatefulSet, DaemonSet, Job `spec.selector`, Service `spec.selector`), in
    /// Kubernetes label-selector syntax (`app=web,tier in (a,b)`).
    Selector(Box<str>),
    /// Pods scheduled on a node: field selector `spec.nodeName=<name>`.
    Node(Box<str>),
}

/// One object as a list shows it. Built once per received object by [`IntoRow`]; shared by
/// `Arc` between snapshots, never mutated.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// `metadata.namespace`, interned; `None` for cluster-scoped kinds.
    pub namespace: Option<Arc<str>>,
    /// `metadata.name`, sanitized; the store's key shares this allocation.
    pub name: Arc<str>,
    /// `metadata.uid`; empty when the server sent none.
    pub uid: Box<str>,
    /// `metadata.creationTimestamp` in unix seconds.
    pub created: Option<UnixSecs>,
    /// `metadata.labels`.
    pub labels: Labels,
    /// The kind's columns after NAME, in the order of its column spec (default columns then
    /// wide-only ones), AGE included where kubectl prints it.
    pub cells: Box<[Cell]>,
    /// Colour class of the row.
    pub health: Health,
    /// Which cluster the row came from, as the informer pool that built it was told
    /// ([`RowCtx::origin`]): 0 for the context in use, `1..` for the other members of a union
    /// of contexts (the UI maps it to a context name). Fits in the row's padding: `Row` stays
    /// 144 bytes.
    pub origin: u16,
    /// Where `enter` leads, if anywhere (boxed: most rows — every pod, every event — have
    /// none, and it keeps a row's allocation 16 bytes smaller).
    pub drill: Option<Box<Drill>>,
    /// Event facts the timeline needs (core/v1 Event rows only).
    pub event: Option<Arc<EventInfo>>,
    /// The controlling owner (`metadata.ownerReferences[]`), for `shift-j`.
    pub owner: Option<Box<Owner>>,
    /// What usage is measured against (pods: containers' requests and limits; nodes:
    /// allocatable); `None` for other kinds. Shared: equal demands may share one `Arc`.
    pub capacity: Option<Arc<super::capacity::Capacity>>,
    /// What a pod references by name (ServiceAccount, ConfigMaps, Secrets, claims), for the
    /// xray tree; `None` for other kinds and for pods that reference nothing. Shared: the
    /// replicas of one workload share one `Arc`.
    pub uses: Option<Arc<super::uses::PodUses>>,
}

/// An object's owner: the `metadata.ownerReferences[]` entry with `controller: true`, else
/// the first one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    /// `apiVersion` (`apps/v1`), interned.
    pub api_version: Arc<str>,
    /// `kind` (`ReplicaSet`), interned.
    pub kind: Arc<str>,
    /// `name`, sanitized and interned (the pods of one ReplicaSet share it).
    pub name: Arc<str>,
}

/// A reference to another object (`involvedObject` of an Event).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ObjRef {
    /// `kind` as the server sent it (`Pod`), interned when decoded from an event.
    pub kind: Arc<str>,
    /// `name`.
    pub name: Box<str>,
    /// `namespace`; `None` for cluster-scoped objects.
    pub namespace: Option<Arc<str>>,
    /// `uid`; empty when the writer left it out.
    pub uid: Box<str>,
}

/// What the event timeline knows of one core/v1 Event besides its cells.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EventInfo {
    /// `involvedObject`.
    pub involved: ObjRef,
    /// `action` (events.k8s.io/v1's `action`, also on core/v1): what was done or failed
    /// (`Binding`, `Killing`), sanitized; `None` when empty.
    pub action: Option<Box<str>>,
    /// `related` (events.k8s.io/v1's `related`): a second object the event is about (the
    /// pod a ReplicaSet failed to create, the node a pod was bound to); `None` when absent.
    pub related: Option<Box<ObjRef>>,
    /// The instant kubectl shows as LAST SEEN: `series.lastObservedTime` (when `series` is
    /// set) → `lastTimestamp` → `firstTimestamp` → `eventTime`; `None` when all are null.
    pub last_seen: Option<UnixSecs>,
    /// `series.count`, else `count`; 0 or absent counts as 1.
    pub count: i64,
    /// `type == "Warning"`.
    pub warning: bool,
    /// The whole `message`, sanitized line by line (newlines kept) for the detail pane; a
    /// one-line message shares this allocation with the row's MESSAGE cell.
    pub message: Arc<str>,
    /// The server no longer has this event (deleted, or expired past its TTL and missing
    /// from a relist); the timeline keeps it, dimmed.
    pub expired: bool,
}

/// Decoding context handed to row builders: the interner shared by one informer pool, and
/// the pool's revision history, if it records one.
#[derive(Debug, Default, Clone)]
pub struct RowCtx {
    /// Interns namespaces, label keys and values, node names.
    pub interner: Interner,
    /// Where informers of recorded kinds record every revision (`None`: nothing recorded).
    pub history: Option<Arc<super::history::History>>,
    /// The cluster every row built here comes from (see [`Row::origin`]); 0 outside unions.
    pub origin: u16,
}

impl RowCtx {
    /// `row` with this context's [`RowCtx::origin`]: what every row builder's result goes
    /// through before it is stored, so no kind's builder has to know about unions.
    pub fn stamp(&self, mut row: Row) -> Row {
        row.origin = self.origin;
        row
    }
}

/// Anything the list-watch loop can decode: it must carry `metadata.resourceVersion` so
/// watches can resume. Built-in slim types get their impl from the kind registration
/// (`ktui_table`); generic and raw objects implement it by hand.
pub trait Versioned: DeserializeOwned + Clone + Send + Sync + 'static {
    /// True when the type decodes from Kubernetes' protobuf encoding as well as from JSON
    /// (`crate::protobuf`: a built-in kind's slim type); informers of such types ask for
    /// protobuf first. False for types that need the JSON text (the history's `Captured`,
    /// detail views' whole objects) or whose kinds have no protobuf (CRDs).
    const PROTOBUF: bool = false;

    /// True when the type is read from the API server's printed rows (`meta.k8s.io/v1
    /// Table` with `includeObject=Metadata`: the server's cells and the object's
    /// `PartialObjectMetadata`) as well as from whole objects; informers of such types ask
    /// for those rows, so lists never carry the objects' values (secrets). Such a type
    /// decodes a Table row (`{"cells": […], "object": {"metadata": …}}`) and a Table of one
    /// row (a watch event's object).
    const TABLE_ROWS: bool = false;

    /// `metadata.resourceVersion`.
    fn version(&self) -> Option<&str>;
}

/// A slim, serde-decoded view of one API object (only the fields its columns need) that
/// turns itself into a [`Row`]. Implemented per kind in `ktui_table`.
pub trait IntoRow: Versioned {
    /// Builds the row. Must be pure apart from interning: no clock, no I/O.
    fn into_row(self, ctx: &RowCtx) -> Row;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pod row holds eight cells and a cluster 150,000 pods: each 8 bytes of `Cell` is
    /// about 10 MB there. Text is boxed or shared, and the one wide variant (`Span`) boxed.
    #[test]
    fn cells_stay_three_words() {
        assert_eq!(std::mem::size_of::<Cell>(), 24);
    }

    /// Every row is one `Arc` allocation of this size (plus two counters): 16 bytes more is
    /// 2.4 MB over 150,000 pods. The rare fields (drill, owner, event facts) are boxed; the
    /// usage capacity (pods, nodes) and a pod's references (`uses`, for xray) are one
    /// pointer each, 1.2 MB over 150,000 pods.
    #[test]
    fn rows_stay_144_bytes() {
        assert_eq!(std::mem::size_of::<Row>(), 144);
    }
}
