//! The xray tree, built from informer snapshots: roots of one kind, then — only under the
//! nodes the user expanded — owner references down to pods (Deployment → ReplicaSet → Pod,
//! CronJob → Job → Pod, StatefulSet/DaemonSet/Job → Pod), a service's or node's pods, a
//! namespace's workloads, what a pod uses (`pod.rs`), and the other way round the pods that
//! use a ConfigMap, Secret or claim. A 100k-pod cluster costs a scan of
//! one namespace's pods per expanded owner, nothing for collapsed ones. Pure: must not do I/O
//! nor draw.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::kube::builtin::BuiltinKind;
use crate::kube::row::{Cell, Health, Row};
use crate::kube::store::Snapshot;
use crate::kube::sync::SyncState;

use super::model::{label, Node, Root, What};

/// The latest snapshot of each kind the view subscribed.
pub type Snaps = HashMap<BuiltinKind, Arc<Snapshot>>;

/// The kinds whose objects may have children in the tree.
pub fn has_children(kind: BuiltinKind) -> bool {
    use BuiltinKind::*;
    matches!(
        kind,
        Deployment
            | ReplicaSet
            | StatefulSet
            | DaemonSet
            | Job
            | CronJob
            | Service
            | Node
            | Namespace
            | Pod
            | PersistentVolumeClaim
            | ConfigMap
            | Secret
    )
}

/// How a lookup by name ended.
pub(super) enum Lookup {
    /// The object's row.
    Found(Arc<Row>),
    /// Listed and absent: a dangling reference.
    Missing,
    /// Not known (no snapshot yet, not listed, forbidden).
    Unknown,
}

/// Builds the lines: the roots, and the children of every node whose path is in `open`.
pub fn build(snaps: &Snaps, root: &Root, open: &HashSet<Arc<str>>) -> Vec<Node> {
    let mut t = Tree {
        snaps,
        open,
        out: Vec::new(),
    };
    let Some(snap) = snaps.get(&root.kind) else {
        return t.out;
    };
    let ns = root.namespace.as_deref().filter(|_| root.kind.info().namespaced);
    for row in in_namespace(snap, ns) {
        if root.only.as_deref().is_none_or(|n| n == &*row.name) {
            t.object(root.kind, row, 0, "", true);
        }
    }
    t.out
}

/// The rows of `snap` in namespace `ns` (all rows for `None`): rows are sorted by
/// (namespace, name), so one namespace is a contiguous run found by binary search.
pub(super) fn in_namespace<'a>(
    snap: &'a Snapshot,
    ns: Option<&'a str>,
) -> impl Iterator<Item = &'a Arc<Row>> + 'a {
    let start = match ns {
        Some(ns) => snap
            .rows
            .partition_point(|r| r.namespace.as_deref().unwrap_or("") < ns),
        None => 0,
    };
    snap.rows
        .range(start..snap.rows.len())
        .map(|(_, r)| r)
        .take_while(move |r| ns.is_none_or(|ns| r.namespace.as_deref() == Some(ns)))
}

/// The text of a cell as a list prints it (literals and integers; empty otherwise).
pub(super) fn cell_text(c: Option<&Cell>) -> String {
    match c {
        Some(Cell::Int(n)) => n.to_string(),
        Some(c) => c.literal().unwrap_or_default().to_owned(),
        None => String::new(),
    }
}

/// The cell under column `header` of a row of `kind`.
pub(super) fn cell<'a>(kind: BuiltinKind, row: &'a Row, header: &str) -> Option<&'a Cell> {
    let i = crate::table::builtin_spec(kind)
        .columns
        .iter()
        .position(|c| c.header == header)?;
    row.cells.get(i)
}

/// A line's short state, from the row's cells.
fn status(kind: BuiltinKind, row: &Row) -> String {
    use BuiltinKind::*;
    let of = |h: &str| cell_text(cell(kind, row, h));
    match kind {
        Pod => format!("{} {}", of("READY"), of("STATUS")),
        Deployment | StatefulSet => format!("ready {}", of("READY")),
        ReplicaSet | DaemonSet => format!("ready {}/{}", of("READY"), of("DESIRED")),
        Job => format!("{} {}", of("STATUS"), of("COMPLETIONS")),
        CronJob => format!("{} active {}", of("SCHEDULE"), of("ACTIVE")),
        Service | Secret => of("TYPE"),
        ConfigMap => format!("data {}", of("DATA")),
        Node | Namespace | PersistentVolume | PersistentVolumeClaim => of("STATUS"),
        _ => String::new(),
    }
}

pub(super) struct Tree<'a> {
    pub(super) snaps: &'a Snaps,
    open: &'a HashSet<Arc<str>>,
    pub(super) out: Vec<Node>,
}

impl Tree<'_> {
    /// Pushes the line of `row` (of `kind`) and, when expanded and `branch`, its children.
    pub(super) fn object(
        &mut self,
        kind: BuiltinKind,
        row: &Arc<Row>,
        depth: usize,
        parent: &str,
        branch: bool,
    ) {
        let path: Arc<str> = format!(
            "{parent}/{}:{}/{}",
            kind.info().singular,
            row.namespace.as_deref().unwrap_or(""),
            row.name
        )
        .into();
        let expandable = branch && has_children(kind);
        let expanded = expandable && self.open.contains(&path);
        self.out.push(Node {
            what: What::Object(kind),
            namespace: row.namespace.clone(),
            name: row.name.clone(),
            pod: None,
            status: status(kind, row),
            health: row.health,
            missing: false,
            depth,
            path: path.clone(),
            expandable,
            expanded,
        });
        if expanded {
            self.children(kind, row, depth + 1, &path);
        }
    }

    /// Pushes a line that is not an object row (a container, a service account, a missing
    /// or not yet known reference).
    pub(super) fn leaf(
        &mut self,
        what: What,
        ns: Option<&Arc<str>>,
        name: &Arc<str>,
        depth: usize,
        parent: &str,
    ) -> &mut Node {
        let label = label(what);
        self.out.push(Node {
            what,
            namespace: ns.cloned(),
            name: name.clone(),
            pod: None,
            status: String::new(),
            health: Health::Ok,
            missing: false,
            depth,
            path: format!("{parent}/{label}:{}/{name}", ns.map_or("", |n| n)).into(),
            expandable: false,
            expanded: false,
        });
        let last = self.out.len() - 1;
        &mut self.out[last]
    }

    fn children(&mut self, kind: BuiltinKind, row: &Arc<Row>, depth: usize, path: &str) {
        use BuiltinKind::*;
        match kind {
            Deployment => self.owned(ReplicaSet, "Deployment", row, depth, path),
            CronJob => self.owned(Job, "CronJob", row, depth, path),
            ReplicaSet => self.owned(Pod, "ReplicaSet", row, depth, path),
            StatefulSet => self.owned(Pod, "StatefulSet", row, depth, path),
            DaemonSet => self.owned(Pod, "DaemonSet", row, depth, path),
            Job => self.owned(Pod, "Job", row, depth, path),
            Service => self.selected_pods(row, depth, path),
            Node => self.pods_on(row, depth, path),
            Namespace => self.namespace(row, depth, path),
            Pod => self.pod(row, depth, path),
            PersistentVolumeClaim => {
                self.volume(row, depth, path);
                self.users(kind, row, depth, path);
            }
            ConfigMap | Secret => self.users(kind, row, depth, path),
            _ => {}
        }
    }

    /// Objects of `child` in `owner`'s namespace whose controlling owner is it.
    fn owned(&mut self, child: BuiltinKind, owner_kind: &str, owner: &Row, depth: usize, path: &str) {
        let Some(snap) = self.snaps.get(&child).cloned() else {
            return;
        };
        for row in in_namespace(&snap, owner.namespace.as_deref()) {
            let by = row.owner.as_deref();
            if by.is_some_and(|o| &*o.kind == owner_kind && o.name == owner.name) {
                self.object(child, row, depth, path, true);
            }
        }
    }

    /// A service's pods: those its `spec.selector` matches, in its namespace.
    fn selected_pods(&mut self, svc: &Row, depth: usize, path: &str) {
        let Some(sel) = super::pod::selector_of(svc) else {
            return;
        };
        let Some(snap) = self.snaps.get(&BuiltinKind::Pod).cloned() else {
            return;
        };
        for row in in_namespace(&snap, svc.namespace.as_deref()) {
            if sel.matches(&row.labels) {
                self.object(BuiltinKind::Pod, row, depth, path, true);
            }
        }
    }

    /// A node's pods (their NODE cell, `spec.nodeName`), every namespace.
    fn pods_on(&mut self, node: &Row, depth: usize, path: &str) {
        let Some(snap) = self.snaps.get(&BuiltinKind::Pod).cloned() else {
            return;
        };
        // The column is looked up once: a node's pods are a scan of every pod.
        let Some(col) = crate::table::builtin_spec(BuiltinKind::Pod)
            .columns
            .iter()
            .position(|c| c.header == "NODE")
        else {
            return;
        };
        for row in snap.rows.iter() {
            if row.cells.get(col).and_then(Cell::literal) == Some(&*node.name) {
                self.object(BuiltinKind::Pod, row, depth, path, true);
            }
        }
    }

    /// A namespace's top-level objects: its controllers, its services, and the jobs and
    /// pods no controller owns.
    fn namespace(&mut self, ns: &Row, depth: usize, path: &str) {
        use BuiltinKind::*;
        for kind in [Deployment, StatefulSet, DaemonSet, CronJob, Job, Service, Pod] {
            let Some(snap) = self.snaps.get(&kind).cloned() else {
                continue;
            };
            for row in in_namespace(&snap, Some(&ns.name)) {
                if matches!(kind, Job | Pod) && row.owner.is_some() {
                    continue;
                }
                self.object(kind, row, depth, path, true);
            }
        }
    }

    /// The pods of the object's namespace that reference it (a ConfigMap, Secret or claim,
    /// by the pod rows' `uses`), as leaves.
    fn users(&mut self, kind: BuiltinKind, obj: &Row, depth: usize, path: &str) {
        let Some(snap) = self.snaps.get(&BuiltinKind::Pod).cloned() else {
            return;
        };
        for pod in in_namespace(&snap, obj.namespace.as_deref()) {
            let Some(uses) = pod.uses.as_deref() else { continue };
            let names = match kind {
                BuiltinKind::ConfigMap => &uses.config_maps,
                BuiltinKind::Secret => &uses.secrets,
                _ => &uses.claims,
            };
            if names.binary_search_by(|n| (**n).cmp(&*obj.name)).is_ok() {
                self.object(BuiltinKind::Pod, pod, depth, path, false);
            }
        }
    }

    /// A claim's volume (its VOLUME cell), once bound.
    fn volume(&mut self, pvc: &Row, depth: usize, path: &str) {
        let name = cell_text(cell(BuiltinKind::PersistentVolumeClaim, pvc, "VOLUME"));
        if !name.is_empty() {
            self.reference(
                BuiltinKind::PersistentVolume,
                None,
                &name.into(),
                depth,
                path,
                false,
            );
        }
    }

    /// Looks `name` up in `kind`'s snapshot (in `ns`).
    pub(super) fn lookup(&self, kind: BuiltinKind, ns: Option<&str>, name: &str) -> Lookup {
        let Some(snap) = self.snaps.get(&kind) else {
            return Lookup::Unknown;
        };
        let want = (ns.unwrap_or(""), name);
        match snap
            .rows
            .binary_search_by(|r| (r.namespace.as_deref().unwrap_or(""), &*r.name).cmp(&want))
        {
            Ok(i) => snap.rows.get(i).cloned().map_or(Lookup::Unknown, Lookup::Found),
            Err(_) if snap.listed && !matches!(snap.state, SyncState::Forbidden { .. }) => Lookup::Missing,
            Err(_) => Lookup::Unknown,
        }
    }

    /// A referenced object: its row's line (with children when `branch`), else a line
    /// flagged `not found` (listed and absent) or without state (not known).
    pub(super) fn reference(
        &mut self,
        kind: BuiltinKind,
        ns: Option<&Arc<str>>,
        name: &Arc<str>,
        depth: usize,
        path: &str,
        branch: bool,
    ) {
        match self.lookup(kind, ns.map(|n| &**n), name) {
            Lookup::Found(row) => self.object(kind, &row, depth, path, branch),
            Lookup::Missing => {
                let node = self.leaf(What::Object(kind), ns, name, depth, path);
                node.missing = true;
                node.health = Health::Error;
                node.status = "not found".into();
            }
            Lookup::Unknown => {
                self.leaf(What::Object(kind), ns, name, depth, path);
            }
        }
    }
}
