//! The garbage collector and the disruption controller of the demo cluster. The collector
//! deletes dependents whose owners are gone (background propagation), deletes the dependents
//! of owners carrying the `foregroundDeletion` finalizer and removes the finalizer once none
//! is left, and for the `orphan` finalizer removes the owner's references from its dependents
//! first; the disruption controller keeps each PodDisruptionBudget's status current. Writes
//! through the store's write API; must not bypass it.

use std::collections::HashSet;

use serde_json::{json, Value};

use super::{delete_child, name_of, objects, terminating, uid_of};
use crate::delete::finish_if_unblocked;
use crate::kinds::{id, KindId};
use crate::labels::owner_uids;
use crate::pdb;
use crate::scenario::World;
use crate::store::{StoreError, Stored};

/// Kinds that own others in the demo, and kinds that are owned.
const OWNERS: [KindId; 6] = [
    id::DEPLOYMENT,
    id::REPLICASET,
    id::STATEFULSET,
    id::DAEMONSET,
    id::JOB,
    id::CRONJOB,
];
const DEPENDENTS: [KindId; 3] = [id::REPLICASET, id::POD, id::JOB];

fn finalizers(v: &Value) -> Vec<&str> {
    v["metadata"]["finalizers"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

impl World {
    pub(crate) fn garbage_collect(&mut self, ns: &str, pods: &[Value]) {
        let store = self.store.clone();
        let owners: Vec<(KindId, Value)> = OWNERS
            .iter()
            .flat_map(|k| objects(&store, *k, Some(ns)).into_iter().map(move |o| (*k, o)))
            .collect();
        let uids: HashSet<String> = owners.iter().map(|(_, o)| uid_of(o).to_owned()).collect();
        // The pods are borrowed from the pass's list, not copied.
        let listed: Vec<(KindId, Vec<Value>)> = DEPENDENTS
            .iter()
            .filter(|k| **k != id::POD)
            .map(|k| (*k, objects(&store, *k, Some(ns))))
            .collect();
        let deps: Vec<(KindId, &Value)> = pods
            .iter()
            .map(|p| (id::POD, p))
            .chain(listed.iter().flat_map(|(k, l)| l.iter().map(move |o| (*k, o))))
            .filter(|(_, d)| !owner_uids(d).is_empty())
            .collect();
        // Dependents every one of whose owners is gone.
        for (k, d) in &deps {
            if !terminating(d) && owner_uids(d).iter().all(|u| !uids.contains(*u)) {
                delete_child(&store, *k, d);
            }
        }
        for (k, o) in &owners {
            if !terminating(o) {
                continue;
            }
            let fins = finalizers(o);
            let uid = uid_of(o);
            let mine: Vec<&(KindId, &Value)> = deps
                .iter()
                .filter(|(_, d)| owner_uids(d).contains(&uid))
                .collect();
            if fins.contains(&"orphan") {
                for (dk, d) in &mine {
                    let dns = d["metadata"]["namespace"].as_str().unwrap_or("");
                    let _ = store.update(
                        *dk,
                        dns,
                        name_of(d),
                        |_: &Stored, v: &mut Value| -> Result<(), StoreError> {
                            if let Some(refs) = v["metadata"]["ownerReferences"].as_array_mut() {
                                refs.retain(|r| r["uid"] != uid);
                                if refs.is_empty() {
                                    if let Some(m) = v["metadata"].as_object_mut() {
                                        m.remove("ownerReferences");
                                    }
                                }
                            }
                            Ok(())
                        },
                    );
                }
                self.drop_finalizer(*k, o, "orphan");
            } else if fins.contains(&"foregroundDeletion") {
                if mine.is_empty() {
                    self.drop_finalizer(*k, o, "foregroundDeletion");
                }
                for (dk, d) in mine.iter().filter(|(_, d)| !terminating(d)) {
                    let dns = d["metadata"]["namespace"].as_str().unwrap_or("");
                    // Foreground cascades to dependents that own others; leaves go in the background.
                    let propagation = if OWNERS.contains(dk) {
                        crate::delete::Propagation::Foreground
                    } else {
                        crate::delete::Propagation::Background
                    };
                    let opts = crate::delete::DeleteOptions {
                        propagation: Some(propagation),
                        ..Default::default()
                    };
                    let _ = crate::delete::delete_object(&store, *dk, dns, name_of(d), &opts);
                }
            }
        }
    }

    fn drop_finalizer(&mut self, kind: KindId, o: &Value, f: &str) {
        let ns = o["metadata"]["namespace"].as_str().unwrap_or("");
        let res = self.store.update(
            kind,
            ns,
            name_of(o),
            |_: &Stored, v: &mut Value| -> Result<(), StoreError> {
                if let Some(a) = v["metadata"]["finalizers"].as_array_mut() {
                    a.retain(|x| x != f);
                    if a.is_empty() {
                        if let Some(m) = v["metadata"].as_object_mut() {
                            m.remove("finalizers");
                        }
                    }
                }
                Ok(())
            },
        );
        if let Ok(s) = res {
            finish_if_unblocked(&self.store, kind, ns, name_of(o), &s);
        }
    }

    pub(crate) fn disruption_budgets(&mut self, ns: &str) {
        for b in objects(&self.store, id::PDB, Some(ns)) {
            let n = pdb::budget(&self.store, &b);
            let mut st = pdb::status(&b, &n);
            if let Some(d) = b["status"].get("disruptedPods") {
                // Evictions recorded by the eviction subresource stay until the pods are gone.
                let gone: serde_json::Map<String, Value> = d
                    .as_object()
                    .map(|m| {
                        m.iter()
                            .filter(|(p, _)| self.store.get(id::POD, ns, p).is_some())
                            .map(|(k, v)| (k.clone(), v.clone()))
                            .collect()
                    })
                    .unwrap_or_default();
                st["disruptedPods"] = json!(gone);
            }
            super::write_status(&self.store, id::PDB, &b, st);
        }
    }
}
