//! The statefulset and daemonset controllers of the demo cluster: ordinal pods `NAME-i`
//! (OrderedReady: the next one once the lower are Ready; the highest removed first) and one pod
//! per node (daemonset pods tolerate cordoned nodes, as the real controller's tolerations make
//! them); a template change (a `kubectl rollout restart`) rolls the pods one at a time, the
//! revision kept in the `controller-revision-hash` label. Writes through the store's write API; must
//! not bypass it.

use std::collections::HashSet;

use serde_json::{json, Value};

use super::{
    controlled_by, create_pod, delete_child, name_of, objects, pod_ready, template_hash, terminating, uid_of,
    write_status,
};
use crate::defaults::random_suffix;
use crate::kinds::id;
use crate::scenario::World;

/// `NAME-HASH`: the revision of a set's current template.
pub(crate) fn revision_of(set: &Value) -> String {
    format!("{}-{}", name_of(set), template_hash(&set["spec"]["template"]))
}

fn rev(p: &Value) -> &str {
    p["metadata"]["labels"]["controller-revision-hash"]
        .as_str()
        .unwrap_or("")
}

impl World {
    pub(crate) fn statefulsets(&mut self, ns: &str, pods: &[Value]) {
        let store = self.store.clone();
        let sets = objects(&store, id::STATEFULSET, Some(ns));
        if sets.is_empty() {
            return;
        }
        for s in sets.iter().filter(|s| !terminating(s)) {
            let want = s["spec"]["replicas"].as_i64().unwrap_or(1).max(0) as usize;
            let update = revision_of(s);
            let mine: Vec<&Value> = pods.iter().filter(|p| controlled_by(p, uid_of(s))).collect();
            let by_ordinal = |i: usize| {
                let n = format!("{}-{i}", name_of(s));
                mine.iter().find(|p| name_of(p) == n).copied()
            };
            let mut busy = mine.iter().any(|p| terminating(p));
            for i in 0..want {
                match by_ordinal(i) {
                    None if !busy => {
                        let name = format!("{}-{i}", name_of(s));
                        let extra = [
                            ("controller-revision-hash", update.clone()),
                            ("statefulset.kubernetes.io/pod-name", name.clone()),
                            ("apps.kubernetes.io/pod-index", i.to_string()),
                        ];
                        if create_pod(&store, s, &s["spec"]["template"], &name, &extra, None).is_ok() {
                            let msg = format!("create Pod {name} in StatefulSet {} successful", name_of(s));
                            self.controller_event(
                                s,
                                "Normal",
                                "SuccessfulCreate",
                                &msg,
                                "statefulset-controller",
                            );
                        }
                        busy = true;
                    }
                    Some(p) if !pod_ready(p) => busy = true,
                    _ => {}
                }
            }
            let extra: Vec<&&Value> = mine
                .iter()
                .filter(|p| !terminating(p))
                .filter(|p| {
                    name_of(p)
                        .rsplit('-')
                        .next()
                        .and_then(|o| o.parse::<usize>().ok())
                        .is_some_and(|o| o >= want)
                })
                .collect();
            if let Some(p) = extra
                .iter()
                .max_by_key(|p| name_of(p).len() * 1000 + name_of(p).bytes().last().unwrap_or(0) as usize)
            {
                if !busy {
                    delete_child(&store, id::POD, p);
                    busy = true;
                }
            }
            if !busy {
                // Rolling update: the highest ordinal still on an old revision goes first.
                if let Some(p) = (0..want).rev().filter_map(by_ordinal).find(|p| rev(p) != update) {
                    delete_child(&store, id::POD, p);
                    let msg = format!(
                        "delete Pod {} in StatefulSet {} successful",
                        name_of(p),
                        name_of(s)
                    );
                    self.controller_event(s, "Normal", "SuccessfulDelete", &msg, "statefulset-controller");
                }
            }
            let live: Vec<&&Value> = mine.iter().filter(|p| !terminating(p)).collect();
            let ready = live.iter().filter(|p| pod_ready(p)).count();
            let updated = live.iter().filter(|p| rev(p) == update).count();
            let current = if updated == live.len() {
                update.clone()
            } else {
                s["status"]["currentRevision"]
                    .as_str()
                    .unwrap_or(&update)
                    .to_owned()
            };
            let status = json!({"observedGeneration": s["metadata"]["generation"], "replicas": live.len(), "readyReplicas": ready,
                "currentReplicas": live.len() - updated + if current == update { updated } else { 0 }, "updatedReplicas": updated,
                "availableReplicas": ready, "currentRevision": current, "updateRevision": update, "collisionCount": 0});
            write_status(&store, id::STATEFULSET, s, status);
        }
    }

    pub(crate) fn daemonsets(&mut self, ns: &str, pods: &[Value], nodes: &[String]) {
        let store = self.store.clone();
        let sets = objects(&store, id::DAEMONSET, Some(ns));
        if sets.is_empty() {
            return;
        }
        for s in sets.iter().filter(|s| !terminating(s)) {
            let update = revision_of(s);
            let mine: Vec<&Value> = pods.iter().filter(|p| controlled_by(p, uid_of(s))).collect();
            // The nodes that hold one of its pods (terminating ones too: a replacement waits
            // until the old pod is gone), as a set: 5,000 nodes must not cost 5,000 scans.
            let placed: HashSet<&str> = mine
                .iter()
                .filter_map(|p| p["spec"]["nodeName"].as_str())
                .collect();
            for node in nodes {
                if !placed.contains(node.as_str()) {
                    let name = format!("{}-{}", name_of(s), random_suffix());
                    if create_pod(
                        &store,
                        s,
                        &s["spec"]["template"],
                        &name,
                        &[("controller-revision-hash", update.clone())],
                        Some(node),
                    )
                    .is_ok()
                    {
                        self.controller_event(
                            s,
                            "Normal",
                            "SuccessfulCreate",
                            &format!("Created pod: {name}"),
                            "daemonset-controller",
                        );
                    }
                }
            }
            let live: Vec<&&Value> = mine.iter().filter(|p| !terminating(p)).collect();
            let old: Vec<&&&Value> = live.iter().filter(|p| rev(p) != update).collect();
            // Old pods that are not available anyway go at once; then one available at a time.
            let mut deleted = false;
            for p in old.iter().filter(|p| !pod_ready(p)) {
                delete_child(&store, id::POD, p);
                deleted = true;
            }
            let unavailable =
                live.iter().any(|p| !pod_ready(p) && rev(p) == update) || mine.iter().any(|p| terminating(p));
            if !deleted && !unavailable {
                if let Some(p) = old.first() {
                    delete_child(&store, id::POD, p);
                    let msg = format!("Deleted pod: {}", name_of(p));
                    self.controller_event(s, "Normal", "SuccessfulDelete", &msg, "daemonset-controller");
                }
            }
            let ready = live.iter().filter(|p| pod_ready(p)).count();
            let updated = live.iter().filter(|p| rev(p) == update).count();
            let status = json!({"desiredNumberScheduled": nodes.len(), "currentNumberScheduled": live.len(), "numberReady": ready,
                "updatedNumberScheduled": updated, "numberAvailable": ready, "numberUnavailable": nodes.len().saturating_sub(ready),
                "numberMisscheduled": 0, "observedGeneration": s["metadata"]["generation"]});
            write_status(&store, id::DAEMONSET, s, status);
        }
    }
}
