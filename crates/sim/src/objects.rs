//! JSON builders for the demo cluster's non-pod objects, shaped like what a real API server
//! returns (defaults filled), so every column of kubectl-columns.md has something to read.
//! Pure functions; must not touch the store.

use serde_json::{json, Map, Value};

use super::kinds::GIZMO_GROUP;

/// Labels as a JSON object.
pub fn labels(pairs: &[(&str, &str)]) -> Value {
    Value::Object(
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), json!(v)))
            .collect::<Map<_, _>>(),
    )
}

/// An `ownerReferences` entry (controller).
pub fn owner(api_version: &str, kind: &str, name: &str, uid: &str) -> Value {
    json!({"apiVersion": api_version, "kind": kind, "name": name, "uid": uid, "controller": true, "blockOwnerDeletion": true})
}

/// A namespace, phase Active.
pub fn namespace(name: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "Namespace",
           "metadata": {"name": name, "labels": {"kubernetes.io/metadata.name": name}},
           "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}})
}

/// A node: `roles` become `node-role.kubernetes.io/<role>` labels.
pub fn node(name: &str, roles: &[&str], ip: &str, ready: bool, unschedulable: bool, arch: &str) -> Value {
    let mut l = Map::new();
    for (k, v) in [
        ("kubernetes.io/hostname", name),
        ("kubernetes.io/os", "linux"),
        ("kubernetes.io/arch", arch),
    ] {
        l.insert(k.into(), json!(v));
    }
    for r in roles {
        l.insert(format!("node-role.kubernetes.io/{r}"), json!(""));
    }
    let cond = |t: &str, s: bool, reason: &str| {
        json!({"type": t, "status": if s { "True" } else { "False" }, "reason": reason,
        "lastHeartbeatTime": "2026-01-01T00:00:00Z", "lastTransitionTime": "2026-01-01T00:00:00Z", "message": ""})
    };
    let mut spec = json!({"podCIDR": "10.244.0.0/24"});
    if unschedulable {
        spec["unschedulable"] = json!(true);
        spec["taints"] = json!([{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}]);
    }
    json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": l},
    "spec": spec,
    "status": {
        "conditions": [cond("MemoryPressure", false, "KubeletHasSufficientMemory"), cond("DiskPressure", false, "KubeletHasNoDiskPressure"),
                       cond("PIDPressure", false, "KubeletHasSufficientPID"),
                       cond("Ready", ready, if ready { "KubeletReady" } else { "KubeletNotReady" })],
        "addresses": [{"type": "InternalIP", "address": ip}, {"type": "Hostname", "address": name}],
        "capacity": {"cpu": "8", "memory": "32Gi", "pods": "110", "ephemeral-storage": "100Gi"},
        "allocatable": {"cpu": "7800m", "memory": "31Gi", "pods": "110", "ephemeral-storage": "95Gi"},
        "nodeInfo": {"kubeletVersion": "v1.37.2", "kubeProxyVersion": "v1.37.2", "osImage": "Debian GNU/Linux 13 (trixie)",
                     "kernelVersion": "6.12.48-1-amd64", "containerRuntimeVersion": "containerd://2.1.4",
                     "operatingSystem": "linux", "architecture": arch, "machineID": "", "systemUUID": "", "bootID": ""}
    }})
}

/// A workload's pod template and selector for `app=<app>`; its container sized as the
/// seeded pods of `app` are (`sizing`), so pods its controller makes are too.
fn template(app: &str, image: &str, extra: &[(&str, &str)]) -> (Value, Value) {
    let mut l = vec![("app", app)];
    l.extend_from_slice(extra);
    let tpl = json!({"metadata": {"labels": labels(&l)},
        "spec": {"containers": [{"name": app, "image": image, "ports": [{"containerPort": 8080, "protocol": "TCP"}],
                                 "resources": crate::sizing::resources(app)}],
                 "restartPolicy": "Always", "dnsPolicy": "ClusterFirst", "schedulerName": "default-scheduler"}});
    (json!({"matchLabels": {"app": app}}), tpl)
}

/// Replica counts of a workload's status.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Replicas {
    pub desired: u32,
    pub current: u32,
    pub ready: u32,
    pub updated: u32,
    pub available: u32,
}

/// A Deployment (status from `r`).
pub fn deployment(ns: &str, app: &str, image: &str, r: Replicas, generation: u64) -> Value {
    let (sel, tpl) = template(app, image, &[]);
    let progressing = if r.updated == r.desired && r.ready == r.desired {
        "NewReplicaSetAvailable"
    } else {
        "ReplicaSetUpdated"
    };
    json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"namespace": ns, "name": app, "labels": {"app": app}, "generation": generation,
                     "annotations": {"deployment.kubernetes.io/revision": generation.to_string()}},
        "spec": {"replicas": r.desired, "selector": sel, "template": tpl, "revisionHistoryLimit": 10, "progressDeadlineSeconds": 600,
                 "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}}},
        "status": {"observedGeneration": generation, "replicas": r.current, "updatedReplicas": r.updated, "readyReplicas": r.ready,
                   "availableReplicas": r.available, "unavailableReplicas": r.current.saturating_sub(r.available),
                   "conditions": [
                       {"type": "Available", "status": if r.available + 1 >= r.desired { "True" } else { "False" },
                        "reason": "MinimumReplicasAvailable", "message": "Deployment has minimum availability."},
                       {"type": "Progressing", "status": "True", "reason": progressing, "message": format!("ReplicaSet \"{app}\" is progressing.")}]}})
}

/// A ReplicaSet `<app>-<hash>` owned by its Deployment.
pub fn replicaset(ns: &str, app: &str, hash: &str, image: &str, r: Replicas, owner_ref: Value) -> Value {
    let (mut sel, mut tpl) = template(app, image, &[("pod-template-hash", hash)]);
    sel["matchLabels"]["pod-template-hash"] = json!(hash);
    tpl["metadata"]["labels"]["pod-template-hash"] = json!(hash);
    json!({"apiVersion": "apps/v1", "kind": "ReplicaSet",
        "metadata": {"namespace": ns, "name": format!("{app}-{hash}"), "labels": {"app": app, "pod-template-hash": hash},
                     "ownerReferences": [owner_ref], "generation": 1},
        "spec": {"replicas": r.desired, "selector": sel, "template": tpl},
        "status": {"replicas": r.current, "readyReplicas": r.ready, "availableReplicas": r.available,
                   "fullyLabeledReplicas": r.current, "observedGeneration": 1}})
}

/// A StatefulSet with a volume claim template.
pub fn statefulset(ns: &str, app: &str, image: &str, r: Replicas) -> Value {
    let (sel, tpl) = template(app, image, &[]);
    json!({"apiVersion": "apps/v1", "kind": "StatefulSet",
        "metadata": {"namespace": ns, "name": app, "labels": {"app": app}, "generation": 1},
        "spec": {"replicas": r.desired, "selector": sel, "template": tpl, "serviceName": app, "podManagementPolicy": "OrderedReady",
                 "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 0}},
                 "volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {"accessModes": ["ReadWriteOnce"],
                     "resources": {"requests": {"storage": "10Gi"}}, "storageClassName": "standard"}}]},
        "status": {"replicas": r.current, "readyReplicas": r.ready, "currentReplicas": r.current, "updatedReplicas": r.updated,
                   "availableReplicas": r.available, "observedGeneration": 1}})
}

/// A DaemonSet on every (schedulable) node.
pub fn daemonset(ns: &str, app: &str, image: &str, r: Replicas) -> Value {
    let (sel, mut tpl) = template(app, image, &[]);
    tpl["spec"]["nodeSelector"] = json!({"kubernetes.io/os": "linux"});
    json!({"apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": {"namespace": ns, "name": app, "labels": {"app": app}, "generation": 1},
        "spec": {"selector": sel, "template": tpl, "updateStrategy": {"type": "RollingUpdate"}},
        "status": {"desiredNumberScheduled": r.desired, "currentNumberScheduled": r.current, "numberReady": r.ready,
                   "updatedNumberScheduled": r.updated, "numberAvailable": r.available, "numberMisscheduled": 0, "observedGeneration": 1}})
}

/// A Job; `done` = completion time when it succeeded.
pub fn job(
    ns: &str,
    name: &str,
    owner_ref: Option<Value>,
    start: &str,
    done: Option<&str>,
    active: u32,
) -> Value {
    let mut meta = json!({"namespace": ns, "name": name, "labels": {"job-name": name, "app": "report"}});
    if let Some(o) = owner_ref {
        meta["ownerReferences"] = json!([o]);
    }
    let mut status = json!({"startTime": start, "active": active, "ready": active, "terminating": 0});
    if let Some(t) = done {
        status = json!({"startTime": start, "completionTime": t, "succeeded": 1, "ready": 0, "terminating": 0,
            "conditions": [{"type": "SuccessCriteriaMet", "status": "True", "lastTransitionTime": t},
                           {"type": "Complete", "status": "True", "lastTransitionTime": t}]});
    }
    json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": meta,
        "spec": {"completions": 1, "parallelism": 1, "backoffLimit": 6, "completionMode": "NonIndexed", "suspend": false,
                 "selector": {"matchLabels": {"job-name": name}},
                 "template": {"metadata": {"labels": {"job-name": name, "app": "report"}},
                              "spec": {"containers": [{"name": "report", "image": "busybox:1.37", "command": ["sh", "-c", "make-report"]}],
                                       "restartPolicy": "Never"}}},
        "status": status})
}

/// A CronJob.
pub fn cronjob(ns: &str, name: &str, schedule: &str, last: Option<&str>, active: &[Value]) -> Value {
    let mut status = json!({});
    if let Some(t) = last {
        status["lastScheduleTime"] = json!(t);
        status["lastSuccessfulTime"] = json!(t);
    }
    if !active.is_empty() {
        status["active"] = json!(active);
    }
    json!({"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"namespace": ns, "name": name, "labels": {"app": "report"}},
        "spec": {"schedule": schedule, "timeZone": "Etc/UTC", "concurrencyPolicy": "Forbid", "suspend": false,
                 "successfulJobsHistoryLimit": 3, "failedJobsHistoryLimit": 1,
                 "jobTemplate": {"spec": {"template": {"spec": {"containers": [{"name": "report", "image": "busybox:1.37"}], "restartPolicy": "Never"}}}}},
        "status": status})
}

/// A Service; `kind` is ClusterIP, NodePort, LoadBalancer or headless (`cluster_ip` "None").
pub fn service(
    ns: &str,
    name: &str,
    svc_type: &str,
    cluster_ip: &str,
    ports: Value,
    selector: Option<&str>,
    lb_ip: Option<&str>,
) -> Value {
    let mut spec = json!({"type": svc_type, "clusterIP": cluster_ip, "clusterIPs": [cluster_ip], "ports": ports,
        "sessionAffinity": "None", "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack", "internalTrafficPolicy": "Cluster"});
    if let Some(app) = selector {
        spec["selector"] = json!({"app": app});
    }
    let mut status = json!({"loadBalancer": {}});
    if let Some(ip) = lb_ip {
        status = json!({"loadBalancer": {"ingress": [{"ip": ip, "ipMode": "VIP"}]}});
    }
    json!({"apiVersion": "v1", "kind": "Service", "metadata": {"namespace": ns, "name": name, "labels": {"app": selector.unwrap_or(name)}},
           "spec": spec, "status": status})
}

/// A port entry of a Service.
pub fn port(name: &str, port: u16, protocol: &str, node_port: Option<u16>) -> Value {
    let mut p = json!({"name": name, "port": port, "protocol": protocol, "targetPort": port});
    if let Some(np) = node_port {
        p["nodePort"] = json!(np);
    }
    p
}

/// A ConfigMap with `data`.
pub fn configmap(ns: &str, name: &str, data: &[(&str, &str)]) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"namespace": ns, "name": name}, "data": labels(data)})
}

/// A Secret of `type` with base64 `data` keys.
pub fn secret(ns: &str, name: &str, secret_type: &str, keys: &[&str]) -> Value {
    let data: Map<String, Value> = keys
        .iter()
        .map(|k| ((*k).to_owned(), json!("ZGVtbw==")))
        .collect();
    json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"namespace": ns, "name": name}, "type": secret_type, "data": data})
}

/// A PVC; `volume` set = Bound.
pub fn pvc(ns: &str, name: &str, size: &str, class: &str, volume: Option<&str>) -> Value {
    let mut v = json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"namespace": ns, "name": name},
        "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": size}}, "storageClassName": class, "volumeMode": "Filesystem"},
        "status": {"phase": "Pending"}});
    if let Some(vol) = volume {
        v["spec"]["volumeName"] = json!(vol);
        v["status"] =
            json!({"phase": "Bound", "accessModes": ["ReadWriteOnce"], "capacity": {"storage": size}});
    }
    v
}

/// The CRD of the demo kind `gizmos.demo.ktui.dev` with printer columns.
pub fn gizmo_crd() -> Value {
    let col = |name: &str, ty: &str, path: &str| json!({"name": name, "type": ty, "jsonPath": path});
    json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": format!("gizmos.{GIZMO_GROUP}")},
        "spec": {"group": GIZMO_GROUP, "scope": "Namespaced",
            "names": {"plural": "gizmos", "singular": "gizmo", "kind": "Gizmo", "listKind": "GizmoList", "shortNames": ["gz"]},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}},
                "subresources": {"status": {}},
                "additionalPrinterColumns": [col("Color", "string", ".spec.color"), col("Size", "integer", ".spec.size"),
                    col("Phase", "string", ".status.phase"), col("Age", "date", ".metadata.creationTimestamp")]}]},
        "status": {"acceptedNames": {"plural": "gizmos", "singular": "gizmo", "kind": "Gizmo", "listKind": "GizmoList", "shortNames": ["gz"]},
                   "storedVersions": ["v1"],
                   "conditions": [{"type": "Established", "status": "True", "reason": "InitialNamesAccepted"}]}})
}

/// A Gizmo.
pub fn gizmo(ns: &str, name: &str, color: &str, size: u32, phase: &str) -> Value {
    json!({"apiVersion": format!("{GIZMO_GROUP}/v1"), "kind": "Gizmo", "metadata": {"namespace": ns, "name": name, "labels": {"color": color}},
           "spec": {"color": color, "size": size}, "status": {"phase": phase}})
}

/// A PodDisruptionBudget for `app=<app>` with `minAvailable` or `maxUnavailable` = `n`.
pub fn pdb(ns: &str, app: &str, field: &str, n: u32) -> Value {
    json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
        "metadata": {"namespace": ns, "name": app, "generation": 1},
        "spec": {field: n, "selector": {"matchLabels": {"app": app}}, "unhealthyPodEvictionPolicy": "IfHealthyBudget"},
        "status": {}})
}
