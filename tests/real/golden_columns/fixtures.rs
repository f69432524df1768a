//! Fixtures of the golden column test: odd-case objects of every built-in kind, the status
//! patches that put them into those states, and what the server is expected to print for the
//! interesting ones (so a fixture that silently stopped producing its case is noticed).

use serde_json::{json, Value};

use ktui::kube::builtin::BuiltinKind;

use super::{net_hpa_pv, pods};

/// RFC 3339 text of `now - ago` seconds.
pub fn at(now: i64, ago: i64) -> String {
    jiff::Timestamp::from_second(now - ago)
        .map(|t| t.to_string())
        .unwrap_or_default()
}

/// Every namespaced fixture.
pub fn objects(ns: &str, now: i64) -> Vec<Value> {
    let mut items = pods::objects();
    // the test's own node (golden_columns.rs names it so), where no kubelet runs
    let node = format!("{ns}-node");
    for pod in &mut items {
        if pod["spec"]["nodeName"] == pods::NODE_PLACEHOLDER {
            pod["spec"]["nodeName"] = json!(node);
        }
    }

    let tmpl = |labels: Value, extra: Value| {
        let mut spec =
            json!({"containers": [{"name": "web", "image": "nginx:1"}, {"name": "log", "image": "busybox"}]});
        if let (Some(s), Some(e)) = (spec.as_object_mut(), extra.as_object()) {
            s.extend(e.clone());
        }
        json!({"metadata": {"labels": labels}, "spec": spec})
    };
    items.extend([
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
            "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}, "matchExpressions": [
                {"key": "env", "operator": "In", "values": ["prod", "dev"]}, {"key": "canary", "operator": "DoesNotExist"}]},
                "template": tmpl(json!({"app": "web", "env": "prod"}), json!({}))}}),
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "zero"},
            "spec": {"replicas": 0, "selector": {"matchLabels": {"app": "zero"}}, "template": tmpl(json!({"app": "zero"}), json!({}))}}),
        json!({"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "rs-solo"},
            "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "solo"}, "matchExpressions": [
                {"key": "tier", "operator": "NotIn", "values": ["db"]}, {"key": "track", "operator": "Exists"}]},
                "template": tmpl(json!({"app": "solo", "tier": "web", "track": "stable"}), json!({}))}}),
        json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db"},
            "spec": {"replicas": 2, "serviceName": "db", "selector": {"matchLabels": {"app": "db"}},
                "template": tmpl(json!({"app": "db"}), json!({}))}}),
        json!({"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "ds"},
            "spec": {"selector": {"matchLabels": {"app": "ds"}}, "template": tmpl(json!({"app": "ds"}), json!({}))}}),
        json!({"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "ds-sel"},
            "spec": {"selector": {"matchLabels": {"app": "ds-sel"}}, "template": tmpl(json!({"app": "ds-sel"}),
                json!({"nodeSelector": {"kubernetes.io/os": "linux", "disk": "ssd"}}))}}),
    ]);

    let job = |name: &str, spec: Value| {
        let mut s = json!({"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "pi", "image": "perl"}]}}});
        if let (Some(o), Some(e)) = (s.as_object_mut(), spec.as_object()) {
            o.extend(e.clone());
        }
        json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": name}, "spec": s})
    };
    items.extend([
        job("j-par", json!({"parallelism": 3})),
        job("j-comp", json!({"completions": 5, "parallelism": 2})),
        job("j-susp", json!({"completions": 1, "suspend": true})),
        job(
            "j-done",
            json!({"completions": 1, "managedBy": "example.com/custom"}),
        ),
        job(
            "j-fail",
            json!({"completions": 5, "managedBy": "example.com/custom"}),
        ),
    ]);
    let cj = |name: &str, schedule: &str, tz: Option<&str>, suspend: bool| {
        let mut spec = json!({"schedule": schedule, "suspend": suspend, "jobTemplate": {"spec": {"template": {"spec": {
            "restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox"}]}}}}});
        if let Some(tz) = tz {
            spec["timeZone"] = json!(tz);
        }
        json!({"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": name}, "spec": spec})
    };
    items.extend([
        cj("cj-tz", "*/5 * * * *", Some("Europe/Paris"), true),
        cj("cj-yearly", "@yearly", None, false),
    ]);

    let svc = |name: &str, spec: Value| json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": name}, "spec": spec});
    items.extend([
        svc("dns", json!({"selector": {"k8s-app": "dns"}, "ports": [{"name": "dns", "port": 53, "protocol": "UDP"},
            {"name": "dns-tcp", "port": 53, "protocol": "TCP"}]})),
        svc("headless", json!({"clusterIP": "None", "selector": {"b": "2", "a": "1"}, "ports": [{"port": 80}]})),
        svc("headless-noports", json!({"clusterIP": "None"})),
        svc("np", json!({"type": "NodePort", "externalIPs": ["1.2.3.4", "5.6.7.8"], "ports": [{"port": 80}]})),
        svc("lb", json!({"type": "LoadBalancer", "externalIPs": ["9.9.9.9"], "ports": [{"name": "http", "port": 80}, {"name": "https", "port": 443}]})),
        svc("lb-pending", json!({"type": "LoadBalancer", "allocateLoadBalancerNodePorts": false,
            "ports": [{"port": 80, "protocol": "SCTP"}]})),
        svc("ext", json!({"type": "ExternalName", "externalName": "db.example.com"})),
    ]);

    items.extend([
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"}, "data": {"a": "1", "b": "2"},
            "binaryData": {"c": "AAAA"}}),
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm-empty"}}),
        json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "opaque"}, "data": {"u": "YQ==", "p": "Yg=="}}),
        json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "tls"}, "type": "kubernetes.io/tls",
            "data": {"tls.crt": "YQ==", "tls.key": "Yg=="}}),
        json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "docker"}, "type": "kubernetes.io/dockerconfigjson",
            "data": {".dockerconfigjson": "eyJhdXRocyI6e319"}}),
        json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "string"}, "stringData": {"x": "y", "z": "w"}}),
    ]);

    let pvc = |name: &str, meta: Value, spec: Value| {
        let mut s = json!({"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}});
        if let (Some(o), Some(e)) = (s.as_object_mut(), spec.as_object()) {
            o.extend(e.clone());
        }
        let mut m = json!({"name": name});
        if let (Some(o), Some(e)) = (m.as_object_mut(), meta.as_object()) {
            o.extend(e.clone());
        }
        json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": m, "spec": s})
    };
    items.extend([
        pvc(
            "pending",
            json!({}),
            json!({"storageClassName": "fast", "volumeAttributesClassName": "gold"}),
        ),
        pvc(
            "bound",
            json!({}),
            json!({"storageClassName": "manual", "volumeName": format!("{ns}-pv")}),
        ),
        pvc(
            "legacy",
            json!({"annotations": {"volume.beta.kubernetes.io/storage-class": "old"}}),
            json!({}),
        ),
        pvc(
            "block",
            json!({}),
            json!({"storageClassName": "", "volumeMode": "Block"}),
        ),
        pvc(
            "doomed",
            json!({"finalizers": ["example.com/hold"]}),
            json!({"storageClassName": "slow"}),
        ),
    ]);

    let involved = |kind: &str, name: &str, field: &str| json!({"kind": kind, "name": name, "namespace": ns, "fieldPath": field});
    items.extend([
        json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e-legacy"}, "type": "Warning", "reason": "BackOff",
            "involvedObject": involved("Pod", "web-1", "spec.containers{web}"),
            "source": {"component": "kubelet", "host": "node-1"},
            "message": "  Back-off restarting failed container\n", "count": 12,
            "firstTimestamp": at(now, 3600), "lastTimestamp": at(now, 65)}),
        json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e-series"}, "type": "Normal", "reason": "Pulled",
            "involvedObject": involved("Pod", "p", ""), "reportingComponent": "kubelet", "reportingInstance": "node-2",
            "action": "Pulling", "eventTime": at(now, 600).replace('Z', ".123456Z"),
            "series": {"count": 4, "lastObservedTime": at(now, 30).replace('Z', ".000001Z")}}),
        json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e-single"}, "type": "Normal", "reason": "Ping",
            "involvedObject": involved("Node", "", ""), "reportingComponent": "c", "reportingInstance": "i",
            "action": "Check", "eventTime": at(now, 200).replace('Z', ".500000Z")}),
        json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e-none"}, "type": "Weird", "reason": "Odd",
            "involvedObject": involved("Deployment", "web", ""), "message": "\u{1b}[31mred\nsecond line"}),
    ]);
    items.extend(net_hpa_pv::objects());
    items
}

/// Cluster-scoped fixtures: a node, the PV for the bound claim, a namespace to be deleted,
/// the PVs of the volume fixtures.
pub fn cluster_objects(ns: &str, node: &str, doomed_ns: &str) -> Vec<Value> {
    let mut items = vec![
        json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": node, "labels": {
            "node-role.kubernetes.io/control-plane": "", "kubernetes.io/role": "infra"}},
            "spec": {"unschedulable": true}}),
        json!({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": format!("{ns}-pv")},
            "spec": {"capacity": {"storage": "2Gi"}, "accessModes": ["ReadWriteMany", "ReadWriteOnce", "ReadOnlyMany"],
                "persistentVolumeReclaimPolicy": "Retain", "storageClassName": "manual", "hostPath": {"path": "/tmp/golden"},
                "claimRef": {"namespace": ns, "name": "bound"}}}),
        json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": doomed_ns}}),
    ];
    items.extend(net_hpa_pv::cluster_objects(ns));
    items
}

/// A config map with a finalizer, so its namespace stays Terminating.
pub fn held_configmap() -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "held", "finalizers": ["example.com/hold"]}})
}

/// `(resource, name, merge patch of the status subresource)`; the node's name is implied.
pub fn status_patches(ns: &str, now: i64) -> Vec<(&'static str, String, Value)> {
    let ago = |s: i64| at(now, s);
    let mut out = pods::status_patches(now);
    let job_cond = |t: &str| json!({"type": t, "status": "True", "lastTransitionTime": ago(50)});
    out.extend([
        ("jobs", "j-done", json!({"status": {"startTime": ago(100), "completionTime": ago(50), "succeeded": 1,
            "conditions": [job_cond("SuccessCriteriaMet"), job_cond("Complete")]}})),
        ("jobs", "j-fail", json!({"status": {"startTime": ago(7200), "succeeded": 2, "failed": 1,
            "conditions": [job_cond("FailureTarget"), job_cond("Failed")]}})),
        ("cronjobs", "cj-tz", json!({"status": {"lastScheduleTime": ago(65)}})),
        ("services", "lb", json!({"status": {"loadBalancer": {"ingress": [{"ip": "34.1.2.3"}, {"ip": "34.1.2.2"},
            {"hostname": "a1b2c3d4e5-123456.elb.example.com"}]}}})),
        ("nodes", "", json!({"status": {"conditions": [{"type": "Ready", "status": "False", "reason": "KubeletNotReady"}],
            "addresses": [{"type": "InternalIP", "address": "10.9.0.1"}, {"type": "ExternalIP", "address": "203.0.113.5"}],
            "nodeInfo": {"kubeletVersion": "v1.37.2", "architecture": "arm64", "machineID": "", "systemUUID": "",
                "bootID": "", "kernelVersion": "", "osImage": "", "containerRuntimeVersion": "", "kubeProxyVersion": "",
                "operatingSystem": "linux"}}})),
    ]);
    let mut out: Vec<_> = out.into_iter().map(|(r, n, p)| (r, n.to_string(), p)).collect();
    out.extend(net_hpa_pv::status_patches(ns));
    out
}

/// Objects deleted while a finalizer holds them (so they show Terminating).
pub fn deletions(ns: &str) -> Vec<(&'static str, String)> {
    let mut d: Vec<(&str, String)> = pods::FINALIZED_PODS
        .iter()
        .map(|n| ("pod", n.to_string()))
        .collect();
    d.push(("pvc", "doomed".into()));
    d.extend(net_hpa_pv::deletions(ns));
    d
}

/// Objects whose finalizer must be removed at cleanup.
pub fn finalized(ns: &str) -> Vec<(&'static str, String)> {
    deletions(ns)
}

/// `(kind, object name, header, text the server must print)` for the cases the fixtures
/// exist for.
pub fn expectations(
    ns: &str,
    node: &str,
    doomed_ns: &str,
) -> Vec<(BuiltinKind, String, &'static str, &'static str)> {
    use BuiltinKind::*;
    let mut e: Vec<(BuiltinKind, &str, &'static str, &'static str)> = pods::expectations();
    e.extend([
        (Deployment, "web", "SELECTOR", "app=web,!canary,env in (dev,prod)"),
        (Deployment, "zero", "READY", "0/0"),
        (
            ReplicaSet,
            "rs-solo",
            "SELECTOR",
            "app=solo,tier notin (db),track",
        ),
        (
            DaemonSet,
            "ds-sel",
            "NODE SELECTOR",
            "disk=ssd,kubernetes.io/os=linux",
        ),
        (Job, "j-done", "STATUS", "Complete"),
        (Job, "j-done", "DURATION", "50s"),
        (Job, "j-done", "COMPLETIONS", "1/1"),
        (Job, "j-fail", "STATUS", "Failed"),
        (Job, "j-fail", "COMPLETIONS", "2/5"),
        (Job, "j-par", "COMPLETIONS", "0/1 of 3"),
        (Job, "j-comp", "COMPLETIONS", "0/5"),
        (CronJob, "cj-tz", "TIMEZONE", "Europe/Paris"),
        (CronJob, "cj-tz", "SUSPEND", "True"),
        (CronJob, "cj-yearly", "TIMEZONE", "<none>"),
        (CronJob, "cj-yearly", "LAST SCHEDULE", "<none>"),
        (Service, "dns", "PORT(S)", "53/UDP,53/TCP"),
        (Service, "headless", "CLUSTER-IP", "None"),
        (Service, "headless", "SELECTOR", "a=1,b=2"),
        (Service, "headless-noports", "PORT(S)", "<none>"),
        (Service, "np", "EXTERNAL-IP", "1.2.3.4,5.6.7.8"),
        (
            Service,
            "lb",
            "EXTERNAL-IP",
            "34.1.2.2,34.1.2.3,a1b2c3d4e5-123456.elb.example.com,9.9.9.9",
        ),
        (Service, "lb-pending", "EXTERNAL-IP", "<pending>"),
        (Service, "lb-pending", "PORT(S)", "80/SCTP"),
        (Service, "ext", "CLUSTER-IP", "<none>"),
        (Service, "ext", "EXTERNAL-IP", "db.example.com"),
        (ConfigMap, "cm", "DATA", "3"),
        (ConfigMap, "cm-empty", "DATA", "0"),
        (Secret, "tls", "TYPE", "kubernetes.io/tls"),
        (Secret, "string", "DATA", "2"),
        (Secret, "opaque", "TYPE", "Opaque"),
        (PersistentVolumeClaim, "bound", "STATUS", "Bound"),
        (PersistentVolumeClaim, "bound", "CAPACITY", "2Gi"),
        (PersistentVolumeClaim, "bound", "ACCESS MODES", "RWO,ROX,RWX"),
        (PersistentVolumeClaim, "pending", "VOLUMEATTRIBUTESCLASS", "gold"),
        (PersistentVolumeClaim, "pending", "CAPACITY", ""),
        (PersistentVolumeClaim, "legacy", "STORAGECLASS", "old"),
        (PersistentVolumeClaim, "block", "VOLUMEMODE", "Block"),
        (PersistentVolumeClaim, "doomed", "STATUS", "Terminating"),
        (Event, "e-legacy", "SOURCE", "kubelet, node-1"),
        (Event, "e-legacy", "COUNT", "12"),
        (
            Event,
            "e-legacy",
            "MESSAGE",
            "Back-off restarting failed container",
        ),
        (Event, "e-legacy", "SUBOBJECT", "spec.containers{web}"),
        (Event, "e-series", "SOURCE", "kubelet, node-2"),
        (Event, "e-series", "COUNT", "4"),
        (Event, "e-single", "OBJECT", "node"),
        (Event, "e-single", "COUNT", "1"),
        (Event, "e-none", "MESSAGE", "^[[31mred..."),
        (Event, "e-none", "LAST SEEN", "<unknown>"),
        (Event, "e-none", "OBJECT", "deployment/web"),
    ]);
    e.extend([
        (Node, node, "STATUS", "NotReady,SchedulingDisabled"),
        (Node, node, "ROLES", "control-plane,infra"),
        (Node, node, "KERNEL-VERSION", "<unknown> (arm64)"),
        (Node, node, "EXTERNAL-IP", "203.0.113.5"),
        (Namespace, doomed_ns, "STATUS", "Terminating"),
    ]);
    let mut e: Vec<_> = e
        .into_iter()
        .map(|(k, n, h, v)| (k, n.to_string(), h, v))
        .collect();
    e.extend(net_hpa_pv::expectations(ns));
    e
}
