//! The deployment and replicaset controllers of the demo cluster: a Deployment owns one
//! ReplicaSet per pod template (found by template equality ignoring `pod-template-hash`, so a
//! rollback to an old template reuses the old ReplicaSet and gives it the next
//! `deployment.kubernetes.io/revision`), rolls from old to new within maxSurge/maxUnavailable,
//! and reports status; a ReplicaSet creates and removes pods to match `spec.replicas`. Writes
//! through the store's write API only.

use serde_json::{json, Value};

use super::{
    controlled_by, create_pod, delete_child, name_of, objects, owner_ref, pod_ready, set_replicas,
    template_hash, terminating, uid_of, without_hash, write_status,
};
use crate::defaults::random_suffix;
use crate::kinds::id;
use crate::scenario::World;
use crate::store::now_rfc3339;

const REVISION: &str = "deployment.kubernetes.io/revision";

fn revision(rs: &Value) -> i64 {
    rs["metadata"]["annotations"][REVISION]
        .as_str()
        .and_then(|r| r.parse().ok())
        .unwrap_or(0)
}

/// `25%` of `of` (rounded up for surge, down for unavailable) or a count.
fn int_or_percent(v: &Value, of: i64, up: bool) -> i64 {
    match v {
        Value::Number(n) => n.as_i64().unwrap_or(0),
        Value::String(s) => {
            let p: i64 = s.trim_end_matches('%').parse().unwrap_or(25);
            if up {
                (p * of + 99) / 100
            } else {
                p * of / 100
            }
        }
        _ => {
            if up {
                (25 * of + 99) / 100
            } else {
                25 * of / 100
            }
        }
    }
}

fn count(pods: &[Value], uid: &str) -> (i64, i64) {
    let mine: Vec<&Value> = pods
        .iter()
        .filter(|p| controlled_by(p, uid) && !terminating(p))
        .collect();
    (
        mine.len() as i64,
        mine.iter().filter(|p| pod_ready(p)).count() as i64,
    )
}

impl World {
    pub(crate) fn deployments(&mut self, ns: &str, pods: &[Value]) {
        let store = self.store.clone();
        let deps = objects(&store, id::DEPLOYMENT, Some(ns));
        if deps.is_empty() {
            return;
        }
        for d in deps.iter().filter(|d| !terminating(d)) {
            let mut sets: Vec<Value> = objects(&store, id::REPLICASET, Some(ns))
                .into_iter()
                .filter(|rs| controlled_by(rs, uid_of(d)))
                .collect();
            let tpl = &d["spec"]["template"];
            let max_rev = sets.iter().map(revision).max().unwrap_or(0);
            let new = sets
                .iter()
                .position(|rs| without_hash(&rs["spec"]["template"]) == without_hash(tpl));
            let new_idx = match new {
                Some(i) => {
                    if revision(&sets[i]) < max_rev {
                        let _ = store.update(
                            id::REPLICASET,
                            ns,
                            name_of(&sets[i]),
                            |_: &_, v: &mut Value| -> Result<(), crate::store::StoreError> {
                                v["metadata"]["annotations"][REVISION] = json!((max_rev + 1).to_string());
                                Ok(())
                            },
                        );
                    }
                    i
                }
                None => match self.create_replicaset(d, max_rev + 1, &sets) {
                    Some(rs) => {
                        sets.push(rs);
                        sets.len() - 1
                    }
                    None => continue,
                },
            };
            let desired = d["spec"]["replicas"].as_i64().unwrap_or(1);
            let new_rs = sets[new_idx].clone();
            let old: Vec<Value> = sets
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != new_idx)
                .map(|(_, s)| s.clone())
                .collect();
            let old_spec: i64 = old
                .iter()
                .map(|s| s["spec"]["replicas"].as_i64().unwrap_or(0))
                .sum();
            let new_spec = new_rs["spec"]["replicas"].as_i64().unwrap_or(0);
            let recreate = d["spec"]["strategy"]["type"] == "Recreate";
            let ru = &d["spec"]["strategy"]["rollingUpdate"];
            let surge = int_or_percent(&ru["maxSurge"], desired, true);
            let max_unavailable =
                int_or_percent(&ru["maxUnavailable"], desired, false).max(if surge == 0 { 1 } else { 0 });
            let (new_pods, new_ready) = count(pods, uid_of(&new_rs));
            let old_ready: i64 = old.iter().map(|s| count(pods, uid_of(s)).1).sum();
            let old_pods: i64 = old.iter().map(|s| count(pods, uid_of(s)).0).sum();
            let target = if old_spec == 0 && (!recreate || old_pods == 0) {
                desired
            } else if recreate {
                0
            } else {
                new_spec.max((desired + surge - old_spec).min(desired))
            };
            if target != new_spec {
                set_replicas(&store, id::REPLICASET, &new_rs, target);
                let verb = if target > new_spec { "up" } else { "down" };
                let msg = format!(
                    "Scaled {verb} replica set {} from {new_spec} to {target}",
                    name_of(&new_rs)
                );
                self.controller_event(d, "Normal", "ScalingReplicaSet", &msg, "deployment-controller");
            }
            // Old sets shrink as far as availability allows (all of it for Recreate).
            let min_available = desired - max_unavailable;
            let mut can_remove = if recreate {
                old_spec
            } else {
                (new_ready + old_ready - min_available).max(0)
            };
            for s in &old {
                let r = s["spec"]["replicas"].as_i64().unwrap_or(0);
                if r == 0 || can_remove == 0 {
                    continue;
                }
                let down = r.min(can_remove);
                can_remove -= down;
                set_replicas(&store, id::REPLICASET, s, r - down);
                let msg = format!("Scaled down replica set {} from {r} to {}", name_of(s), r - down);
                self.controller_event(d, "Normal", "ScalingReplicaSet", &msg, "deployment-controller");
            }
            self.prune_history(d, &old, pods);
            let rev = revision(&new_rs).max(max_rev + i64::from(new.is_none()));
            let rev = store
                .get(id::REPLICASET, ns, name_of(&new_rs))
                .and_then(|s| serde_json::from_slice::<Value>(&s.bytes).ok())
                .map(|v| revision(&v))
                .unwrap_or(rev);
            if d["metadata"]["annotations"][REVISION].as_str() != Some(&rev.to_string()) {
                let _ = store.update(
                    id::DEPLOYMENT,
                    ns,
                    name_of(d),
                    |_: &_, v: &mut Value| -> Result<(), crate::store::StoreError> {
                        v["metadata"]["annotations"][REVISION] = json!(rev.to_string());
                        Ok(())
                    },
                );
            }
            let total = new_pods + old_pods;
            let ready = new_ready + old_ready;
            let complete = new_pods == desired && new_ready == desired && old_pods == 0;
            let prev = &d["status"]["conditions"];
            let cond = |t: &str, ok: bool, reason: &str, msg: String| {
                let s = if ok { "True" } else { "False" };
                let since = prev
                    .as_array()
                    .and_then(|cs| {
                        cs.iter()
                            .find(|c| c["type"] == t && c["status"] == s && c["reason"] == reason)
                    })
                    .map(|c| c["lastTransitionTime"].clone())
                    .unwrap_or_else(|| json!(now_rfc3339()));
                json!({"type": t, "status": s, "reason": reason, "message": msg, "lastUpdateTime": since, "lastTransitionTime": since})
            };
            let avail = ready >= min_available;
            let status = json!({"observedGeneration": d["metadata"]["generation"], "replicas": total, "updatedReplicas": new_pods,
                "readyReplicas": ready, "availableReplicas": ready, "unavailableReplicas": (desired - ready).max(0),
                "conditions": [
                    cond("Available", avail, if avail { "MinimumReplicasAvailable" } else { "MinimumReplicasUnavailable" },
                         if avail { "Deployment has minimum availability.".into() } else { "Deployment does not have minimum availability.".into() }),
                    cond("Progressing", true, if complete { "NewReplicaSetAvailable" } else { "ReplicaSetUpdated" },
                         if complete { format!("ReplicaSet \"{}\" has successfully progressed.", name_of(&new_rs)) }
                         else { format!("ReplicaSet \"{}\" is progressing.", name_of(&new_rs)) })]});
            write_status(&store, id::DEPLOYMENT, d, status);
        }
    }

    /// A new ReplicaSet for the Deployment's current template, at revision `rev`.
    fn create_replicaset(&mut self, d: &Value, rev: i64, sets: &[Value]) -> Option<Value> {
        let ns = d["metadata"]["namespace"].as_str().unwrap_or("");
        let hash = template_hash(&without_hash(&d["spec"]["template"]));
        let name = format!("{}-{hash}", name_of(d));
        let mut tpl = d["spec"]["template"].clone();
        if !tpl["metadata"]["labels"].is_object() {
            tpl["metadata"]["labels"] = json!({});
        }
        tpl["metadata"]["labels"]["pod-template-hash"] = json!(hash);
        let mut sel = d["spec"]["selector"].clone();
        if !sel["matchLabels"].is_object() {
            sel["matchLabels"] = json!({});
        }
        sel["matchLabels"]["pod-template-hash"] = json!(hash);
        let first = sets.is_empty();
        let replicas = if first {
            d["spec"]["replicas"].as_i64().unwrap_or(1)
        } else {
            0
        };
        let rs = json!({"apiVersion": "apps/v1", "kind": "ReplicaSet",
            "metadata": {"namespace": ns, "name": name, "labels": tpl["metadata"]["labels"].clone(), "generation": 1,
                         "annotations": {REVISION: rev.to_string(), "deployment.kubernetes.io/desired-replicas": d["spec"]["replicas"].to_string()},
                         "ownerReferences": [owner_ref(d)]},
            "spec": {"replicas": replicas, "selector": sel, "template": tpl}, "status": {"replicas": 0}});
        match self.store.create(id::REPLICASET, rs) {
            Ok(s) => {
                let v: Value = serde_json::from_slice(&s.bytes).ok()?;
                let msg = format!("Scaled up replica set {name} from 0 to {replicas}");
                self.controller_event(d, "Normal", "ScalingReplicaSet", &msg, "deployment-controller");
                Some(v)
            }
            Err(e) => {
                tracing::debug!(error = %e, "demo deployment controller: ReplicaSet not created");
                None
            }
        }
    }

    /// Deletes old, empty ReplicaSets beyond `revisionHistoryLimit`.
    fn prune_history(&mut self, d: &Value, old: &[Value], pods: &[Value]) {
        let limit = d["spec"]["revisionHistoryLimit"].as_i64().unwrap_or(10).max(0) as usize;
        let mut empty: Vec<&Value> = old
            .iter()
            .filter(|s| s["spec"]["replicas"].as_i64() == Some(0) && count(pods, uid_of(s)).0 == 0)
            .collect();
        if empty.len() <= limit {
            return;
        }
        empty.sort_by_key(|s| revision(s));
        for s in &empty[..empty.len() - limit] {
            delete_child(&self.store, id::REPLICASET, s);
        }
    }

    pub(crate) fn replicasets(&mut self, ns: &str, pods: &[Value]) {
        let store = self.store.clone();
        let sets = objects(&store, id::REPLICASET, Some(ns));
        if sets.is_empty() {
            return;
        }
        for rs in sets.iter().filter(|s| !terminating(s)) {
            let want = rs["spec"]["replicas"].as_i64().unwrap_or(1);
            let mut mine: Vec<&Value> = pods
                .iter()
                .filter(|p| controlled_by(p, uid_of(rs)) && !terminating(p))
                .collect();
            let have = mine.len() as i64;
            for _ in have..want {
                let name = format!("{}-{}", name_of(rs), random_suffix());
                match create_pod(&store, rs, &rs["spec"]["template"], &name, &[], None) {
                    Ok(_) => self.controller_event(
                        rs,
                        "Normal",
                        "SuccessfulCreate",
                        &format!("Created pod: {name}"),
                        "replicaset-controller",
                    ),
                    Err(e) => tracing::debug!(error = %e, "demo replicaset controller: pod not created"),
                }
            }
            if have > want {
                // Not-ready pods go first, then the newest.
                mine.sort_by_key(|p| {
                    (
                        pod_ready(p),
                        std::cmp::Reverse(
                            p["metadata"]["creationTimestamp"]
                                .as_str()
                                .unwrap_or("")
                                .to_owned(),
                        ),
                    )
                });
                for p in mine.iter().take((have - want) as usize) {
                    delete_child(&store, id::POD, p);
                    let msg = format!("Deleted pod: {}", name_of(p));
                    self.controller_event(rs, "Normal", "SuccessfulDelete", &msg, "replicaset-controller");
                }
            }
            let (cur, ready) = count(pods, uid_of(rs));
            let status = json!({"replicas": cur, "fullyLabeledReplicas": cur, "readyReplicas": ready, "availableReplicas": ready,
                                "observedGeneration": rs["metadata"]["generation"]});
            write_status(&store, id::REPLICASET, rs, status);
        }
    }
}
