//! The demo cluster's kubelet side of the pod model: an informer on pods (the store's change
//! channel) that adopts pods created by clients and controllers, forgets deleted ones and
//! notices a `deletionTimestamp` set by a DELETE or an eviction (the pod then stops within its
//! grace period: the demo's containers exit two ticks after SIGTERM, or at once for grace 0);
//! and the final delete once a terminating pod's containers are gone. Load pods (`load-NN`)
//! belong to the load generator. Writes through the store's write API only.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::Value;
use tokio::sync::broadcast::error::TryRecvError;

use super::delete::{delete_object, DeleteOptions};
use super::kinds::id;
use super::pods::{Life, PodModel};
use super::scenario::World;
use super::store::{key_of, Change, ChangeType, Stored};

/// Whether a pod belongs to the load generator (`load-NN` namespaces), not to the kubelet.
fn is_load(obj: &Stored) -> bool {
    obj.meta.namespace.starts_with("load-")
}

/// The model of a pod the kubelet did not create, read from its JSON.
fn adopt(v: &Value) -> PodModel {
    let m = &v["metadata"];
    let c0 = &v["spec"]["containers"][0];
    let mut p = PodModel::new(
        m["namespace"].as_str().unwrap_or(""),
        m["name"].as_str().unwrap_or(""),
        c0["name"].as_str().unwrap_or("main"),
        c0["image"].as_str().unwrap_or(""),
    );
    if let Some(l) = m["labels"].as_object() {
        p.labels = l
            .iter()
            .filter(|(k, _)| k.as_str() != "app")
            .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_owned()))
            .collect();
    }
    if let Some(o) = super::labels::controller_of(v) {
        let s = |k: &str| o[k].as_str().unwrap_or("").to_owned();
        p.owner = Some((s("apiVersion"), s("kind"), s("name"), s("uid")));
    }
    p.node = v["spec"]["nodeName"]
        .as_str()
        .filter(|n| !n.is_empty())
        .map(str::to_owned);
    if matches!(v["spec"]["restartPolicy"].as_str(), Some("Never" | "OnFailure")) {
        p.restart_policy = "Never";
    }
    let st = &v["status"];
    let cs = &st["containerStatuses"][0];
    let ready = st["conditions"]
        .as_array()
        .is_some_and(|c| c.iter().any(|c| c["type"] == "Ready" && c["status"] == "True"));
    p.life = match st["phase"].as_str().unwrap_or("Pending") {
        "Pending" if p.node.is_some() && cs.is_object() => Life::Creating,
        "Pending" if p.node.is_some() => Life::Pending,
        "Running" => Life::Running { ready },
        "Succeeded" => Life::Completed,
        "Failed" => Life::Failed,
        _ => Life::Pending,
    };
    p.ip = st["podIP"].as_str().map(str::to_owned);
    p.started = cs["state"]["running"]["startedAt"]
        .as_str()
        .or(st["startTime"].as_str())
        .map(str::to_owned);
    p.restarts = u32::try_from(cs["restartCount"].as_u64().unwrap_or(0)).unwrap_or(0);
    p.deleting = m["deletionTimestamp"].as_str().map(str::to_owned);
    p
}

impl World {
    /// Starts the kubelet's informer: every current pod (non-load) into the model, then the
    /// changes after them.
    pub(crate) fn watch_pods(&mut self) {
        self.resync_pods();
    }

    /// Applies the pod changes since the last tick to the model. At most the changes queued
    /// when it starts (later ones wait for the next tick, so a busy store cannot keep a tick
    /// going); after falling behind the channel's buffer it relists once and stops.
    pub(crate) fn sync_pods(&mut self) {
        let Some(mut rx) = self.pod_changes.take() else {
            return;
        };
        for _ in 0..rx.len() {
            match rx.try_recv() {
                Ok(change) => self.pod_changed(change.kind, &change.obj),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Lagged(_)) => {
                    self.resync_pods();
                    return;
                }
                // The store was restored from a backup: relist.
                Err(TryRecvError::Closed) => {
                    self.resync_pods();
                    return;
                }
            }
        }
        self.pod_changes = Some(rx);
    }

    /// A relist as an informer does it after falling behind: the current pods and a fresh
    /// receiver taken together under the store's lock (so nothing is missed and no stale
    /// change is replayed after the list), the model rebuilt from them: pods no longer listed
    /// are forgotten, new ones adopted, known ones updated.
    fn resync_pods(&mut self) {
        let Ok((now, rx)) = self.store.watch(id::POD, None) else {
            return;
        };
        self.pod_changes = Some(rx);
        let mine: Vec<&Arc<Change>> = now.iter().filter(|c| !is_load(&c.obj)).collect();
        let keys: HashSet<String> = mine
            .iter()
            .map(|c| key_of(&c.obj.meta.namespace, &c.obj.meta.name))
            .collect();
        self.pods.retain(|k, _| keys.contains(k));
        for c in mine {
            self.pod_changed(ChangeType::Modified, &c.obj);
        }
    }

    fn pod_changed(&mut self, kind: ChangeType, obj: &Stored) {
        if is_load(obj) {
            return;
        }
        let key = key_of(&obj.meta.namespace, &obj.meta.name);
        if kind == ChangeType::Deleted {
            self.pods.remove(&key);
            return;
        }
        let Ok(v) = serde_json::from_slice::<Value>(&obj.bytes) else {
            return;
        };
        let v = &v;
        let uid_now = v["metadata"]["uid"].as_str().unwrap_or("");
        // The same pod, or a new one under a known name (replaced while the informer lagged).
        let same = self
            .pods
            .get(&key)
            .is_some_and(|p| p.uid.is_empty() || p.uid == uid_now);
        if !same {
            let mut p = adopt(v);
            p.uid = uid_now.to_owned();
            self.pods.insert(key, p);
            return;
        }
        if let Some(p) = self.pods.get_mut(&key) {
            p.uid = uid_now.to_owned();
            if p.deleting.is_none() {
                if let Some(ts) = v["metadata"]["deletionTimestamp"].as_str() {
                    p.deleting = Some(ts.to_owned());
                    p.grace = v["metadata"]["deletionGracePeriodSeconds"].as_i64().unwrap_or(30);
                    p.age_in_stage = 0;
                    let p = p.clone();
                    self.kill(&p);
                }
            }
        }
    }

    /// The kubelet's `Killing` event for a pod that is being stopped.
    pub(crate) fn kill(&mut self, p: &PodModel) {
        let node = p.node.clone().unwrap_or_default();
        let msg = format!("Stopping container {}", p.app);
        let r = self.pod_ref(p, true);
        self.events.record(
            &r,
            "Normal",
            "Killing",
            &msg,
            &World::kubelet(&node),
            &super::store::now_rfc3339(),
        );
    }

    /// The final delete of a terminating pod whose containers stopped (grace 0, as the
    /// kubelet sends it); the object stays while it has finalizers.
    pub(crate) fn finish_termination(&mut self, key: &str, p: &PodModel) {
        let o = DeleteOptions {
            grace: Some(0),
            ..Default::default()
        };
        match delete_object(&self.store, id::POD, &p.namespace, &p.name, &o) {
            Ok(super::delete::Deleted::Gone(_)) => {
                self.pods.remove(key);
            }
            Ok(_) => {}
            Err(_) => {
                self.pods.remove(key);
            }
        }
    }
}
