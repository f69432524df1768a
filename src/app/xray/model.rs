//! The state of an xray view ([`XrayState`]) and the shape of its lines ([`Node`]): which
//! roots, the informers it reads (one [`Source`] per kind, attached by the loop), which nodes
//! are expanded, and the lines built
//! from the latest snapshots — memoised on the snapshots' `(epoch, rev)` and the expansion,
//! so an idle frame builds nothing. Plain data and pure rebuilds; must not do I/O nor draw.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::kube::builtin::BuiltinKind;
use crate::kube::key::ResourceKey;
use crate::kube::row::Health;
use crate::kube::sync::SyncState;

use crate::app::effect::{Effect, ViewId};
use crate::app::feed::Source;

use super::tree::{build, Snaps};

/// What a node of the tree stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum What {
    /// An object of a built-in kind (its row is in that kind's snapshot, unless missing).
    Object(BuiltinKind),
    /// A container of the pod `Node::pod` (`spec.containers`, then sidecars).
    Container,
    /// The pod's `spec.serviceAccountName` (no informer: shown by name, unchecked).
    ServiceAccount,
}

/// One line of the tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// What it stands for.
    pub what: What,
    /// The object's namespace; `None` for cluster-scoped kinds.
    pub namespace: Option<Arc<str>>,
    /// The object's (or container's) name, sanitized.
    pub name: Arc<str>,
    /// A container's pod.
    pub pod: Option<Arc<str>>,
    /// A short state (`1/1 Running`, `ready 2/3`, `Ready`); empty when none is known.
    pub status: String,
    /// Colour class (from the row; `Error` for a missing reference).
    pub health: Health,
    /// A reference to an object the informer has listed and does not hold: `not found`.
    pub missing: bool,
    /// Nesting level, 0 for roots.
    pub depth: usize,
    /// Where in the tree: the chain of `kind:namespace/name` from the root, unique per line
    /// (what expansion and the selection remember).
    pub path: Arc<str>,
    /// `enter` expands it (it may have children).
    pub expandable: bool,
    /// Its children follow.
    pub expanded: bool,
}

/// Which objects are the roots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    /// Their kind.
    pub kind: BuiltinKind,
    /// Their namespace; `None`: all (and cluster-scoped kinds).
    pub namespace: Option<String>,
    /// Only the object of this name (`x` on a row).
    pub only: Option<String>,
}

/// The kind word of a line (`configmap`, `container`).
pub fn label(what: What) -> &'static str {
    match what {
        What::Object(k) => k.info().singular,
        What::Container => "container",
        What::ServiceAccount => "serviceaccount",
    }
}

/// What the lines were built from: each kind's snapshot `(kind, epoch, rev)`, sorted, and
/// the expansion's generation.
type Memo = (Vec<(BuiltinKind, u64, u64)>, u64);

/// The UI-local state of an xray view.
pub struct XrayState {
    /// The roots.
    pub root: Root,
    /// One informer's rows per kind read, attached by the loop.
    pub sources: HashMap<BuiltinKind, Source>,
    /// A pod was expanded: the kinds pods use (ConfigMaps, Secrets, claims, volumes,
    /// services, nodes) are subscribed too. Until then they are not: a tree of collapsed
    /// workloads starts only the informers of its owner chain.
    pub uses_wanted: bool,
    /// Paths of the expanded nodes.
    pub open: HashSet<Arc<str>>,
    /// The lines as last built.
    pub lines: Vec<Node>,
    /// The selected line.
    pub selected: usize,
    /// The first line shown.
    pub offset: usize,
    /// Kinds whose informer has not listed yet (for the header), by plural name.
    pub pending: Vec<&'static str>,
    /// Kinds the user may not list (RBAC), by plural name: their references stay unchecked.
    pub denied: Vec<&'static str>,
    /// The path of the selected line: the selection follows it when lines move.
    selected_path: Option<Arc<str>>,
    /// What `lines` was built from.
    memo: Option<Memo>,
    /// Bumped by every expansion change.
    open_gen: u64,
}

impl XrayState {
    /// An xray of `kind` in `namespace` (`None`: all namespaces, and cluster-scoped kinds);
    /// with `only`, of that one object, expanded.
    pub fn new(kind: BuiltinKind, namespace: Option<String>, only: Option<String>) -> XrayState {
        let namespace = namespace.filter(|_| kind.info().namespaced);
        let mut x = XrayState {
            root: Root {
                kind,
                namespace,
                only,
            },
            sources: HashMap::new(),
            uses_wanted: kind == BuiltinKind::Pod,
            open: HashSet::new(),
            lines: Vec::new(),
            selected: 0,
            offset: 0,
            pending: Vec::new(),
            denied: Vec::new(),
            selected_path: None,
            memo: None,
            open_gen: 0,
        };
        if let Some(name) = x.root.only.clone() {
            let ns = x.root.namespace.clone().unwrap_or_default();
            let path = format!("/{}:{ns}/{name}", kind.info().singular);
            x.open.insert(path.into());
        }
        x
    }

    /// The kinds this view reads now: the roots' owner chain (or what a node, service or
    /// namespace holds), plus what pods use once one was expanded.
    pub fn wanted(&self) -> Vec<BuiltinKind> {
        use BuiltinKind::*;
        let mut kinds = match self.root.kind {
            Deployment => vec![Deployment, ReplicaSet, Pod],
            CronJob => vec![CronJob, Job, Pod],
            Namespace => vec![
                Namespace,
                Deployment,
                ReplicaSet,
                StatefulSet,
                DaemonSet,
                CronJob,
                Job,
                Service,
                Pod,
            ],
            PersistentVolumeClaim => vec![PersistentVolumeClaim, PersistentVolume, Pod],
            Pod => vec![Pod],
            k => vec![k, Pod],
        };
        if self.uses_wanted {
            for k in [
                ConfigMap,
                Secret,
                PersistentVolumeClaim,
                PersistentVolume,
                Service,
                Node,
            ] {
                if !kinds.contains(&k) {
                    kinds.push(k);
                }
            }
        }
        kinds
    }

    /// The informer key for `kind`: the view's namespace for namespaced kinds (all
    /// namespaces under a node or namespace root), none for cluster-scoped ones.
    pub fn key_of(&self, kind: BuiltinKind) -> ResourceKey {
        let ns = self.root.namespace.as_deref().filter(|_| kind.info().namespaced);
        ResourceKey::new(kind, ns)
    }

    /// Subscriptions view `id` still needs.
    pub fn feeds(&self, id: ViewId) -> Vec<Effect> {
        self.wanted()
            .into_iter()
            .filter(|k| !self.sources.contains_key(k))
            .map(|k| Effect::Subscribe(id, self.key_of(k)))
            .collect()
    }

    /// Takes the rows the loop subscribed; false for a kind this view does not read.
    pub fn attach(&mut self, src: Source) -> bool {
        let Some(kind) = src.served_by.kind.builtin().filter(|k| self.wanted().contains(k)) else {
            return false;
        };
        self.sources.insert(kind, src);
        true
    }

    /// The keys of the informers serving this view (their changes redraw it).
    pub fn served_by(&self) -> Vec<ResourceKey> {
        self.sources.values().map(|s| s.served_by.clone()).collect()
    }

    /// The selected line.
    pub fn selected_node(&self) -> Option<&Node> {
        self.lines.get(self.selected)
    }

    /// Expands or collapses the selected line; true when it changed. Expanding a pod asks
    /// for the informers of what pods use (the caller subscribes them).
    pub fn toggle(&mut self) -> bool {
        let Some(node) = self.lines.get(self.selected).filter(|n| n.expandable) else {
            return false;
        };
        let path = node.path.clone();
        if node.what == What::Object(BuiltinKind::Pod) {
            self.uses_wanted = true;
        }
        if !self.open.remove(&path) {
            self.open.insert(path);
        }
        self.open_gen += 1;
        true
    }

    /// Moves the selection by `delta` lines (clamped).
    pub fn move_by(&mut self, delta: i64) {
        let last = self.lines.len().saturating_sub(1) as i64;
        self.selected = (self.selected as i64).saturating_add(delta).clamp(0, last.max(0)) as usize;
        self.selected_path = self.lines.get(self.selected).map(|n| n.path.clone());
    }

    /// Reads every source's latest snapshot (re-arming its change notification), rebuilds
    /// the lines when a snapshot or the expansion changed, keeps the selection on the same
    /// path and the selected line on a page of `page` lines.
    pub fn refresh(&mut self, page: usize) {
        let snaps: Snaps = self.sources.iter().map(|(k, s)| (*k, s.slot.load())).collect();
        let mut key: Vec<(BuiltinKind, u64, u64)> = snaps.iter().map(|(k, s)| (*k, s.epoch, s.rev)).collect();
        key.sort_by_key(|(k, _, _)| k.info().plural);
        let memo = (key, self.open_gen);
        if self.memo.as_ref() != Some(&memo) {
            self.lines = build(&snaps, &self.root, &self.open);
            self.memo = Some(memo);
            (self.pending, self.denied) = (Vec::new(), Vec::new());
            for k in self.wanted() {
                match snaps.get(&k) {
                    Some(s) if matches!(s.state, SyncState::Forbidden { .. }) => {
                        self.denied.push(k.info().plural)
                    }
                    Some(s) if s.listed => {}
                    _ => self.pending.push(k.info().plural),
                }
            }
            self.pending.sort_unstable();
            self.denied.sort_unstable();
        }
        if let Some(path) = &self.selected_path {
            if let Some(i) = self.lines.iter().position(|n| &n.path == path) {
                self.selected = i;
            }
        }
        self.selected = self.selected.min(self.lines.len().saturating_sub(1));
        self.selected_path = self.lines.get(self.selected).map(|n| n.path.clone());
        let page = page.max(1);
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + page {
            self.offset = self.selected + 1 - page;
        }
        self.offset = self.offset.min(self.lines.len().saturating_sub(page));
    }
}
