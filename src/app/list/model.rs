//! The state of one resource list ([`ListState`]): what it shows, filter, sort, selection,
//! marks and its memoised rows. Plain state; must not import `UiState` nor any transition,
//! perform I/O or draw.

use std::sync::Arc;

use crate::kube::key::ResourceKey;
use crate::kube::kind::Kind;
use crate::kube::row::ObjRef;
use crate::kube::store::{ObjKey, Snapshot};

use crate::app::feed::Source;
use crate::app::list::cache::ListCache;

/// How the list is sorted. Pressing the same sort key again flips `reverse`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SortBy {
    /// Namespace then name (the informer's order).
    #[default]
    Name,
    /// Creation time, newest first.
    Age,
    /// The kind's status column.
    Status,
    /// A resource usage figure of pods and nodes (from the list's metrics poll): highest
    /// first; rows without a value always last.
    Usage(UsageCol),
}

/// The usage figure a pods or nodes list sorts by (see `crate::app::usage::compute` for how
/// each is computed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UsageCol {
    /// CPU: the latest sample's usage summed over the containers (nanocores).
    Cpu,
    /// MEM: the latest sample's memory summed over the containers (bytes).
    Mem,
    /// Pods: %CPU/R (of the requests); nodes: %CPU (of allocatable).
    CpuPct,
    /// Pods: %MEM/R (of the requests); nodes: %MEM (of allocatable).
    MemPct,
    /// Pods: %CPU/L (of the limits).
    CpuLimitPct,
    /// Pods: %MEM/L (of the limits).
    MemLimitPct,
}

/// The UI-local state of a list of one kind (what it shows, filter, sort, selection, its
/// memoised rows); drawn by `ui::list`.
pub struct ListState {
    /// What to show; the namespace is `None` for all namespaces.
    pub key: ResourceKey,
    /// Shown in the title after the kind when the list is a drill-down (`deploy/web`).
    pub origin: Option<String>,
    /// Where rows come from: attached by the loop once connected.
    pub source: Option<Source>,
    /// The applied filter text (see `crate::view`).
    pub filter: String,
    /// Filter parse error, shown in the footer; the last valid filter stays applied.
    pub filter_error: Option<String>,
    /// Sort column and direction.
    pub sort: SortBy,
    /// Sort direction flipped.
    pub reverse: bool,
    /// Show wide columns.
    pub wide: bool,
    /// Selected position in the filtered, sorted rows.
    pub selected: usize,
    /// Identity of the selected row, to keep the selection on it when rows move.
    pub selected_key: Option<ObjKey>,
    /// The cluster of the selected row (`Row::origin`): in a union, two clusters may hold
    /// an object of the same namespace and name.
    pub selected_origin: u16,
    /// First visible row.
    pub offset: usize,
    /// Memoised filter/sort result for the current snapshot.
    pub cache: ListCache,
    /// Event timeline: only Warning events.
    pub warnings_only: bool,
    /// Event timeline of one object (`shift-e`): events whose involvedObject matches.
    pub object: Option<ObjRef>,
    /// Event timeline tail mode: the cursor is on the newest row and follows new events.
    pub follow: bool,
    /// Event timeline: the row that was on top when the user scrolled away; rows above it
    /// now are new (`↑ 17 new`).
    pub anchor: Option<ObjKey>,
    /// Event timeline: rows newer than `anchor`.
    pub new_above: usize,
    /// A row to select as soon as it is listed (`shift-j` opens the owner's list with the
    /// owner selected); dropped once found or once the list is complete without it.
    pub target: Option<ObjKey>,
    /// Rows marked with `space` (by uid); actions apply to them, else to the selection.
    pub marks: crate::app::writes::model::Marks,
    /// Columns scrolled off on the left (`shift-→`): unpinned columns skipped before laying
    /// out the rest (see `view::columns::fit`, which clamps it).
    pub hscroll: usize,
    /// The namespace (or all) was chosen for this view (`:pods all`): the context's
    /// namespace, once known, must not replace an all-namespaces key.
    pub ns_chosen: bool,
    /// Pods and nodes: the metrics poll's read side, attached by the loop once it
    /// subscribed (`None` for other kinds, before connecting, or with `[metrics]` off).
    pub usage: Option<crate::app::usage::model::UsageSource>,
    /// Inside a union of contexts: every member's rows (then `source` stays `None` and
    /// [`ListState::snapshot`] is the merge), see `app::fleet`.
    pub union: Option<Box<crate::app::fleet::model::UnionFeed>>,
}

impl ListState {
    /// A list of `key`, unfiltered, sorted by name.
    pub fn new(key: ResourceKey, origin: Option<String>) -> Self {
        ListState {
            key,
            origin,
            source: None,
            filter: String::new(),
            filter_error: None,
            sort: SortBy::Name,
            reverse: false,
            wide: false,
            selected: 0,
            selected_key: None,
            selected_origin: 0,
            offset: 0,
            cache: ListCache::default(),
            warnings_only: false,
            object: None,
            follow: true,
            anchor: None,
            new_above: 0,
            target: None,
            marks: Default::default(),
            hscroll: 0,
            ns_chosen: false,
            usage: None,
            union: None,
        }
    }

    /// Remembers the row at display position `self.selected` as the selection's identity
    /// (namespace, name and, in a union, its cluster), so it stays on that row when rows move.
    pub fn remember_selected(&mut self) {
        let row = self.cache.selected_row(self.selected);
        self.selected_origin = row.as_ref().map_or(0, |r| r.origin);
        self.selected_key = row.map(|r| crate::kube::store::obj_key(&r));
    }

    /// The kind listed.
    pub fn kind(&self) -> &Kind {
        &self.key.kind
    }

    /// Whether this list shows ServiceAccounts (core/v1): `enter` on one shows what it may do
    /// (`app::can`).
    pub fn shows_service_accounts(&self) -> bool {
        let kind = self.kind();
        kind.group().is_empty() && kind.plural() == "serviceaccounts" && self.object.is_none()
    }

    /// Whether this list is an event timeline.
    pub fn is_timeline(&self) -> bool {
        self.key.kind.is_timeline()
    }

    /// The latest snapshot, if subscribed; a union list's last merge (`fleet::union::refresh`
    /// brings it up to date before each frame).
    pub fn snapshot(&self) -> Option<Arc<Snapshot>> {
        if let Some(u) = &self.union {
            return u.merged.clone();
        }
        self.source.as_ref().map(|s| s.slot.load())
    }
}
