//! A pod's subtree in the xray tree: its containers, then what it uses — ServiceAccount,
//! ConfigMaps, Secrets (names only), claims (→ volumes), the services whose selector matches
//! it, its node. References come from the pod row's `uses` (decoded with the pod); each is
//! looked up in its kind's snapshot and flagged when listed and absent. Pure: must not do I/O.

use std::sync::Arc;

use crate::kube::builtin::BuiltinKind;
use crate::kube::capacity::Capacity;
use crate::kube::row::{Cell, Drill, Row};
use crate::view::selector::Selector;

use super::model::What;
use super::tree::{cell, in_namespace, Tree};

/// A service's `spec.selector` (its drill-down), parsed; `None` without one.
pub(super) fn selector_of(svc: &Row) -> Option<Selector> {
    match svc.drill.as_deref() {
        Some(Drill::Selector(s)) if !s.is_empty() => Selector::parse(s).ok(),
        _ => None,
    }
}

impl Tree<'_> {
    /// The children of pod `row`.
    pub(super) fn pod(&mut self, row: &Arc<Row>, depth: usize, path: &str) {
        let ns = row.namespace.as_ref();
        if let Some(Capacity::Pod(containers)) = row.capacity.as_deref() {
            for c in containers.iter() {
                let node = self.leaf(What::Container, ns, &c.name, depth, path);
                node.pod = Some(row.name.clone());
            }
        }
        if let Some(uses) = row.uses.clone() {
            if let Some(sa) = &uses.service_account {
                self.leaf(What::ServiceAccount, ns, sa, depth, path);
            }
            for name in uses.config_maps.iter() {
                self.reference(BuiltinKind::ConfigMap, ns, name, depth, path, false);
            }
            for name in uses.secrets.iter() {
                self.reference(BuiltinKind::Secret, ns, name, depth, path, false);
            }
            for name in uses.claims.iter() {
                self.reference(BuiltinKind::PersistentVolumeClaim, ns, name, depth, path, true);
            }
        }
        if let Some(snap) = self.snaps.get(&BuiltinKind::Service).cloned() {
            for svc in in_namespace(&snap, row.namespace.as_deref()) {
                if selector_of(svc).is_some_and(|s| s.matches(&row.labels)) {
                    self.object(BuiltinKind::Service, svc, depth, path, false);
                }
            }
        }
        // An unscheduled pod's NODE is the static `<none>`.
        let node =
            cell(BuiltinKind::Pod, row, "NODE").filter(|c| matches!(c, Cell::Text(_) | Cell::Shared(_)));
        if let Some(node) = node.and_then(Cell::literal) {
            self.reference(BuiltinKind::Node, None, &Arc::from(node), depth, path, false);
        }
    }
}
