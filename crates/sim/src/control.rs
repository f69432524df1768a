//! The demo cluster's controllers, reacting to the store as kube-controller-manager's do to
//! their informers: deployments (ReplicaSet per pod template, `deployment.kubernetes.io/revision`,
//! rolling updates, rollback by reusing an old ReplicaSet), replicasets (pods created and
//! removed), statefulsets and daemonsets (ordinals, one pod per node, rolling restarts), jobs
//! and cronjobs (suspend honoured), the garbage collector (dependents of deleted owners,
//! `foregroundDeletion` and `orphan` finalizers) and PodDisruptionBudget status. One pass per
//! scenario tick ([`World::reconcile`]); every change goes through the store's write API (as a
//! client's would). Load namespaces (`load-NN`, driven by the load generator) are skipped.
//! Must not serve HTTP.

mod batch;
mod gc;
mod parsed;
mod sets;
mod workloads;

pub(crate) use parsed::Memo;
pub(crate) use sets::revision_of;

use serde_json::{json, Value};

use super::defaults;
use super::events::{Involved, Source};
use super::kinds::{id, KindId, KINDS};
use super::matching::Filter;
use super::scenario::World;
use super::store::{now_rfc3339, Store, StoreError, Stored};

impl World {
    /// One pass of every controller.
    pub(crate) fn reconcile(&mut self) {
        let namespaces = namespaces(&self.store);
        // Taken out of `self` for the pass: the controllers borrow the pods it holds.
        let mut memo = std::mem::take(&mut self.parsed);
        memo.retain_namespaces(&namespaces);
        let store = self.store.clone();
        // For the daemonsets: one pod per node (5,000 load nodes at scale).
        let nodes: Vec<String> = memo
            .list(&store, id::NODE, None)
            .iter()
            .map(|n| name_of(n).to_owned())
            .collect();
        for ns in &namespaces {
            // One list of the namespace's pods per pass, shared (an informer's cache: a pod
            // created during the pass shows from the next one).
            let pods = memo.list(&store, id::POD, Some(ns));
            self.garbage_collect(ns, pods);
            self.deployments(ns, pods);
            self.replicasets(ns, pods);
            self.statefulsets(ns, pods);
            self.daemonsets(ns, pods, &nodes);
            self.cronjobs(ns);
            self.jobs(ns, pods);
            self.disruption_budgets(ns);
        }
        self.parsed = memo;
    }

    /// Records an event from controller `component` about `obj`.
    pub(crate) fn controller_event(
        &mut self,
        obj: &Value,
        ty: &str,
        reason: &str,
        msg: &str,
        component: &'static str,
    ) {
        let m = &obj["metadata"];
        let r = Involved {
            kind: obj["kind"].as_str().unwrap_or("").into(),
            api_version: obj["apiVersion"].as_str().unwrap_or("").into(),
            namespace: m["namespace"].as_str().unwrap_or("").into(),
            name: m["name"].as_str().unwrap_or("").into(),
            uid: m["uid"].as_str().unwrap_or("").into(),
            field_path: None,
        };
        let src = Source::Legacy {
            component,
            host: String::new(),
        };
        self.events.record(&r, ty, reason, msg, &src, &now_rfc3339());
    }
}

/// Namespaces the controllers look after (all but the load generator's).
fn namespaces(store: &Store) -> Vec<String> {
    objects(store, id::NAMESPACE, None)
        .iter()
        .filter_map(|n| n["metadata"]["name"].as_str().map(str::to_owned))
        .filter(|n| !n.starts_with("load-"))
        .collect()
}

/// The objects of `kind` in `ns` (or all), parsed.
pub(crate) fn objects(store: &Store, kind: KindId, ns: Option<&str>) -> Vec<Value> {
    let filter = Filter {
        namespace: ns.map(str::to_owned),
        ..Default::default()
    };
    store
        .list(kind, &filter, 0, None, None)
        .items
        .iter()
        .filter_map(|b| serde_json::from_slice(b).ok())
        .collect()
}

pub(crate) fn name_of(v: &Value) -> &str {
    v["metadata"]["name"].as_str().unwrap_or("")
}

pub(crate) fn uid_of(v: &Value) -> &str {
    v["metadata"]["uid"].as_str().unwrap_or("")
}

/// Whether `dep` has a controller owner reference to the object with `uid`.
pub(crate) fn controlled_by(dep: &Value, uid: &str) -> bool {
    super::labels::controller_of(dep).is_some_and(|o| o["uid"] == uid)
}

pub(crate) fn terminating(v: &Value) -> bool {
    v["metadata"]["deletionTimestamp"].is_string()
}

pub(crate) fn pod_ready(p: &Value) -> bool {
    !terminating(p)
        && p["status"]["conditions"]
            .as_array()
            .is_some_and(|cs| cs.iter().any(|c| c["type"] == "Ready" && c["status"] == "True"))
}

/// A controller owner reference to `owner`.
pub(crate) fn owner_ref(owner: &Value) -> Value {
    json!({"apiVersion": owner["apiVersion"], "kind": owner["kind"], "name": owner["metadata"]["name"],
           "uid": owner["metadata"]["uid"], "controller": true, "blockOwnerDeletion": true})
}

/// A template's hash in the demo's pod-template-hash alphabet (10 characters).
pub(crate) fn template_hash(template: &Value) -> String {
    let h = super::pods::fxhash(&template.to_string());
    format!("{h:016x}")
        .chars()
        .take(10)
        .map(|c| {
            if c.is_ascii_digit() {
                (b'b' + (c as u8 - b'0')) as char
            } else {
                c
            }
        })
        .collect()
}

/// A template without the `pod-template-hash` label (what a Deployment compares).
pub(crate) fn without_hash(template: &Value) -> Value {
    let mut t = semantic(template);
    if let Some(l) = t["metadata"]["labels"].as_object_mut() {
        l.remove("pod-template-hash");
    }
    if t["metadata"]["labels"].as_object().is_some_and(|l| l.is_empty()) {
        if let Some(m) = t["metadata"].as_object_mut() {
            m.remove("labels");
        }
    }
    t
}

/// `v` without nulls and empty objects or arrays, at every depth: what the API server's
/// semantic equality of typed objects ignores (an absent struct is the empty one, a nil map
/// or slice the empty one). kubectl's `rollout undo` sends Go-typed templates, which carry
/// `resources: {}` and `creationTimestamp: null` the stored ones do not.
pub(crate) fn semantic(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), semantic(v)))
                .filter(|(_, v)| !is_empty(v))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(semantic).collect()),
        other => other.clone(),
    }
}

fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Object(m) => m.is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

/// Creates a pod from `template` owned by `owner`, named `name` (or generated from
/// `generate`), with `extra` labels; `node` binds it directly (daemonsets).
pub(crate) fn create_pod(
    store: &Store,
    owner: &Value,
    template: &Value,
    name: &str,
    extra: &[(&str, String)],
    node: Option<&str>,
) -> Result<Stored, StoreError> {
    let ns = owner["metadata"]["namespace"].as_str().unwrap_or("");
    let mut meta = json!({"namespace": ns, "name": name, "labels": template["metadata"]["labels"].clone(),
                          "ownerReferences": [owner_ref(owner)]});
    if owner["kind"] != "StatefulSet" {
        meta["generateName"] = json!(format!("{}-", name_of(owner)));
    }
    if !meta["labels"].is_object() {
        meta["labels"] = json!({});
    }
    for (k, v) in extra {
        meta["labels"][*k] = json!(v);
    }
    if let Some(a) = template["metadata"]["annotations"].as_object() {
        meta["annotations"] = json!(a);
    }
    let mut pod =
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": template["spec"].clone()});
    if let Some(n) = node {
        pod["spec"]["nodeName"] = json!(n);
    }
    defaults::prepare_create(id::POD, &mut pod);
    store.create(id::POD, pod)
}

/// Writes `status` of an object when it differs (a no-op write stores nothing).
pub(crate) fn write_status(store: &Store, kind: KindId, obj: &Value, status: Value) {
    let ns = obj["metadata"]["namespace"].as_str().unwrap_or("");
    let _ = store.update(
        kind,
        ns,
        name_of(obj),
        |_: &Stored, v: &mut Value| -> Result<(), StoreError> {
            v["status"] = status;
            Ok(())
        },
    );
}

/// Sets `spec.replicas` of an object (a controller scaling its child).
pub(crate) fn set_replicas(store: &Store, kind: KindId, obj: &Value, replicas: i64) {
    let ns = obj["metadata"]["namespace"].as_str().unwrap_or("");
    let _ = store.update(
        kind,
        ns,
        name_of(obj),
        |_: &Stored, v: &mut Value| -> Result<(), StoreError> {
            v["spec"]["replicas"] = json!(replicas);
            Ok(())
        },
    );
}

/// A controller deleting a child the way a client does (graceful for pods).
pub(crate) fn delete_child(store: &Store, kind: KindId, obj: &Value) {
    let ns = obj["metadata"]["namespace"].as_str().unwrap_or("");
    let o = super::delete::DeleteOptions {
        propagation: Some(super::delete::Propagation::Background),
        ..Default::default()
    };
    if let Err(e) = super::delete::delete_object(store, kind, ns, name_of(obj), &o) {
        tracing::debug!(kind = KINDS[kind].info.kind, name = name_of(obj), error = %e.message, "demo controller: delete failed");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn templates_compare_as_the_api_server_does() {
        let stored = json!({"metadata": {"labels": {"app": "cart", "pod-template-hash": "abc"}},
            "spec": {"containers": [{"name": "cart", "image": "i:1"}]}});
        let from_kubectl = json!({"metadata": {"creationTimestamp": null, "labels": {"app": "cart"}},
            "spec": {"containers": [{"name": "cart", "image": "i:1", "resources": {}}], "volumes": []}});
        assert_eq!(without_hash(&stored), without_hash(&from_kubectl));
        let other = json!({"metadata": {"labels": {"app": "cart"}},
            "spec": {"containers": [{"name": "cart", "image": "i:2"}]}});
        assert_ne!(without_hash(&stored), without_hash(&other));
        assert_eq!(
            template_hash(&without_hash(&stored)),
            template_hash(&without_hash(&from_kubectl))
        );
    }
}
