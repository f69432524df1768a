//! Fixtures of the golden column test for Ingresses, Endpoints, EndpointSlices,
//! HorizontalPodAutoscalers and PersistentVolumes (kubectl-columns.md §6, §10.2, §11): the
//! objects, the `/status` patches, what the server must print for them, and whether the
//! controllers have settled the volumes' phases. PVs are cluster-scoped: they are named after
//! the test namespace and labelled with it, so cleanup can find them.

use serde_json::{json, Value};

use ktui::kube::builtin::BuiltinKind;

/// Label every fixture PV carries (value: the test namespace).
pub const PV_LABEL: &str = "ktui.dev/golden";

/// `base` with the top-level keys of `extra` added (or replaced).
fn merged(mut base: Value, extra: Value) -> Value {
    if let (Some(o), Value::Object(e)) = (base.as_object_mut(), extra) {
        o.extend(e);
    }
    base
}

/// Namespaced fixtures.
pub fn objects() -> Vec<Value> {
    let ing = |name: &str, spec: Value| json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": name}, "spec": spec});
    let rule = |host: &str| json!({"host": host});
    let backend = json!({"service": {"name": "x", "port": {"number": 80}}});
    let mut items = vec![
        ing(
            "ing-many",
            json!({"ingressClassName": "nginx", "tls": [{"hosts": ["a.io"]}], "rules": [rule("a.io"), {},
                rule("b.io"), rule("c.io"), rule("d.io"), rule("e.io")]}),
        ),
        json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "ing-none",
            "annotations": {"kubernetes.io/ingress.class": "legacy"}}, "spec": {"defaultBackend": backend}}),
        ing(
            "ing-three",
            json!({"rules": [{}, rule("a.io"), rule("b.io"), rule("c.io")]}),
        ),
        ing(
            "ing-lb",
            json!({"ingressClassName": "lb", "defaultBackend": backend}),
        ),
    ];

    let ep = |name: &str, subsets: Value| json!({"apiVersion": "v1", "kind": "Endpoints", "metadata": {"name": name}, "subsets": subsets});
    let ips = |ips: &[&str]| ips.iter().map(|ip| json!({"ip": ip})).collect::<Vec<_>>();
    items.extend([
        ep(
            "ep-many",
            json!([{"addresses": ips(&["10.1.0.1", "10.1.0.2"]), "notReadyAddresses": ips(&["10.1.0.9"]),
                "ports": [{"name": "http", "port": 80}, {"name": "https", "port": 443}]}]),
        ),
        ep(
            "ep-v6",
            json!([{"addresses": ips(&["fd00::1"]), "ports": [{"port": 80}]}, {"addresses": ips(&["10.2.0.1"])}]),
        ),
        ep(
            "ep-portless",
            json!([{"addresses": ips(&["10.3.0.1", "10.3.0.2"])}, {"addresses": ips(&["10.3.0.3", "10.3.0.4", "10.3.0.5"])}]),
        ),
        ep(
            "ep-notready",
            json!([{"notReadyAddresses": ips(&["10.1.0.9"]), "ports": [{"port": 80}]}]),
        ),
        json!({"apiVersion": "v1", "kind": "Endpoints", "metadata": {"name": "ep-empty"}}),
    ]);

    let es = |name: &str, kind: &str, ports: Value, endpoints: Value| {
        json!({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "metadata": {"name": name},
            "addressType": kind, "ports": ports, "endpoints": endpoints})
    };
    items.extend([
        es(
            "es-many",
            "IPv4",
            json!([{"name": "http", "port": 80}, {"name": "named"}, {}, {"name": "metrics", "port": 9090}]),
            json!([{"addresses": ["10.0.0.1"], "conditions": {"ready": false}}, {"addresses": ["10.0.0.2"]},
                {"addresses": ["10.0.0.3"]}, {"addresses": ["10.0.0.4"]}]),
        ),
        es(
            "es-v6",
            "IPv6",
            json!([{"port": 53, "protocol": "UDP"}]),
            json!([{"addresses": ["fd00::1"]}]),
        ),
        es("es-nameless", "IPv4", json!([{}]), json!([])),
        json!({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "metadata": {"name": "es-bare"},
            "addressType": "IPv4"}),
    ]);

    // Targets that do not exist: the HPA controller then only writes a condition and leaves
    // the patched metrics alone (and scales nothing).
    let hpa = |name: &str, spec: Value| {
        let base = json!({"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "absent"}, "maxReplicas": 10});
        let s = merged(base, spec);
        json!({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": name}, "spec": s})
    };
    let target = |t: &str, v: Value| merged(json!({"type": t}), v);
    let resource =
        |name: &str, t: Value| json!({"type": "Resource", "resource": {"name": name, "target": t}});
    let util = |u: i64| target("Utilization", json!({"averageUtilization": u}));
    let avg = |q: &str| target("AverageValue", json!({"averageValue": q}));
    let value = |q: &str| target("Value", json!({"value": q}));
    let metric = json!({"name": "qps"});
    items.extend([
        hpa(
            "hpa-many",
            json!({"minReplicas": 2, "metrics": [resource("cpu", util(80)), resource("memory", avg("500Mi")),
                {"type": "Pods", "pods": {"metric": metric, "target": avg("1k")}}]}),
        ),
        hpa("hpa-default", json!({"maxReplicas": 5})),
        hpa(
            "hpa-objext",
            json!({"metrics": [
                {"type": "Object", "object": {"metric": metric, "target": value("10k"),
                    "describedObject": {"apiVersion": "v1", "kind": "Service", "name": "dns"}}},
                {"type": "External", "external": {"metric": metric, "target": avg("0.5")}}]}),
        ),
        hpa(
            "hpa-container",
            json!({"metrics": [
                {"type": "ContainerResource", "containerResource": {"name": "cpu", "container": "app", "target": util(60)}},
                {"type": "Pods", "pods": {"metric": metric, "target": avg("1000")}}]}),
        ),
        hpa(
            "hpa-nil",
            json!({"metrics": [resource("memory", avg("1.5Gi")),
                {"type": "External", "external": {"metric": metric, "target": value("100")}}]}),
        ),
    ]);
    items
}

/// Cluster-scoped fixtures: persistent volumes in every phase the controller produces.
pub fn cluster_objects(ns: &str) -> Vec<Value> {
    let pv = |suffix: &str, meta: Value, spec: Value| {
        let m = merged(
            json!({"name": format!("{ns}-pv-{suffix}"), "labels": {PV_LABEL: ns}}),
            meta,
        );
        let base = json!({"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"],
            "hostPath": {"path": format!("/nonexistent/{suffix}")}});
        let s = merged(base, spec);
        json!({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": m, "spec": s})
    };
    let gone = |uid: &str| json!({"namespace": ns, "name": "gone", "uid": uid});
    vec![
        pv(
            "odd",
            json!({"annotations": {"volume.beta.kubernetes.io/storage-class": "legacy"}}),
            json!({"capacity": {"storage": "1.5Gi"}, "accessModes": ["ReadWriteMany", "ReadOnlyMany", "ReadWriteOnce"],
                "storageClassName": "x", "claimRef": {"name": "half"}}),
        ),
        json!({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": format!("{ns}-pv-csi"),
            "labels": {PV_LABEL: ns}}, "spec": {"capacity": {"storage": "1000Mi"}, "accessModes": ["ReadWriteOncePod"],
            "volumeMode": "Block", "volumeAttributesClassName": "gold", "persistentVolumeReclaimPolicy": "Delete",
            "csi": {"driver": "golden.example.com", "volumeHandle": ns}}}),
        pv(
            "released",
            json!({}),
            json!({"claimRef": gone("00000000-0000-0000-0000-000000000001")}),
        ),
        pv(
            "failed",
            json!({}),
            json!({"persistentVolumeReclaimPolicy": "Delete", "claimRef": gone("00000000-0000-0000-0000-000000000002")}),
        ),
        pv("doomed", json!({"finalizers": ["example.com/hold"]}), json!({})),
    ]
}

/// `(resource, name, merge patch of the status subresource)`.
pub fn status_patches(ns: &str) -> Vec<(&'static str, String, Value)> {
    let cur = |t: &str, key: &str, current: Value| {
        let mut m = json!({"type": t});
        m[key] = if key == "resource" {
            json!({"name": "cpu", "current": current})
        } else {
            json!({"metric": {"name": "qps"}, "current": current})
        };
        m
    };
    let lb = json!({"ingress": [{"ip": "34.1.2.3"}, {"ip": "34.1.2.2", "ports": [{"port": 80, "protocol": "TCP"}]},
        {"hostname": "a1b2c3d4e5-123456.elb.example.com"}]});
    vec![
        (
            "ingresses",
            "ing-lb".into(),
            json!({"status": {"loadBalancer": lb}}),
        ),
        (
            "horizontalpodautoscalers",
            "hpa-many".into(),
            json!({"status": {"currentReplicas": 3, "desiredReplicas": 3, "currentMetrics": [
                cur("Resource", "resource", json!({"averageUtilization": 45, "averageValue": "150m"})),
                cur("Pods", "pods", json!({"averageValue": "2k"}))]}}),
        ),
        (
            "horizontalpodautoscalers",
            "hpa-objext".into(),
            json!({"status": {"currentReplicas": 1, "desiredReplicas": 1, "currentMetrics": [
                cur("Object", "object", json!({"value": "2500m"})),
                cur("External", "external", json!({"averageValue": "250m"}))]}}),
        ),
        (
            "horizontalpodautoscalers",
            "hpa-container".into(),
            json!({"status": {"currentReplicas": 0, "desiredReplicas": 0, "currentMetrics": [
                {"type": "ContainerResource", "containerResource": {"name": "cpu", "container": "app",
                    "current": {"averageUtilization": 75}}}]}}),
        ),
        (
            "horizontalpodautoscalers",
            "hpa-nil".into(),
            json!({"status": {"currentReplicas": 4, "desiredReplicas": 4, "currentMetrics": [
                cur("Resource", "resource", json!({"averageUtilization": 12})),
                cur("External", "external", json!({"averageValue": "3"}))]}}),
        ),
        (
            "persistentvolumes",
            format!("{ns}-pv-failed"),
            json!({"status": {"reason": "Oops\nsecond line"}}),
        ),
    ]
}

/// Objects deleted while a finalizer holds them.
pub fn deletions(ns: &str) -> Vec<(&'static str, String)> {
    vec![("persistentvolume", format!("{ns}-pv-doomed"))]
}

/// Whether the volume controller has moved the fixture PVs to the phases expected below.
pub fn settled(pv_phases: &str) -> bool {
    ["Released", "Failed", "Available"]
        .iter()
        .all(|p| pv_phases.split_whitespace().any(|x| x == *p))
}

/// `(kind, object name, header, text the server must print)`; PV names are prefixed with the
/// namespace.
const EXPECTED: &[(BuiltinKind, &str, &str, &str)] = {
    use BuiltinKind::{
        EndpointSlice, Endpoints, HorizontalPodAutoscaler as Hpa, Ingress, PersistentVolume as Pv,
    };
    &[
        (Ingress, "ing-many", "CLASS", "nginx"),
        (Ingress, "ing-many", "HOSTS", "a.io,b.io,c.io + 3 more..."),
        (Ingress, "ing-many", "PORTS", "80, 443"),
        (Ingress, "ing-none", "CLASS", "<none>"),
        (Ingress, "ing-none", "HOSTS", "*"),
        (Ingress, "ing-none", "PORTS", "80"),
        (Ingress, "ing-none", "ADDRESS", ""),
        (Ingress, "ing-three", "HOSTS", "a.io,b.io,c.io"),
        (
            Ingress,
            "ing-lb",
            "ADDRESS",
            "34.1.2.2,34.1.2.3,a1b2c3d4e5-123456.elb.example.com",
        ),
        (
            Endpoints,
            "ep-many",
            "ENDPOINTS",
            "10.1.0.1:80,10.1.0.2:80,10.1.0.1:443 + 1 more...",
        ),
        (Endpoints, "ep-v6", "ENDPOINTS", "[fd00::1]:80,10.2.0.1"),
        (
            Endpoints,
            "ep-portless",
            "ENDPOINTS",
            "10.3.0.1,10.3.0.2,10.3.0.3 + 2 more...",
        ),
        (Endpoints, "ep-notready", "ENDPOINTS", ""),
        (Endpoints, "ep-empty", "ENDPOINTS", "<none>"),
        (EndpointSlice, "es-many", "PORTS", "80,named, + 1 more..."),
        (
            EndpointSlice,
            "es-many",
            "ENDPOINTS",
            "10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...",
        ),
        (EndpointSlice, "es-v6", "ADDRESSTYPE", "IPv6"),
        (EndpointSlice, "es-v6", "ENDPOINTS", "fd00::1"),
        (EndpointSlice, "es-nameless", "PORTS", "<unset>"),
        (EndpointSlice, "es-bare", "PORTS", "<unset>"),
        (EndpointSlice, "es-bare", "ENDPOINTS", "<unset>"),
        (Hpa, "hpa-many", "REFERENCE", "Deployment/absent"),
        (
            Hpa,
            "hpa-many",
            "TARGETS",
            "cpu: 45%/80%, memory: <unknown>/500Mi + 1 more...",
        ),
        (Hpa, "hpa-many", "MINPODS", "2"),
        (Hpa, "hpa-many", "REPLICAS", "3"),
        (Hpa, "hpa-default", "TARGETS", "cpu: <unknown>/80%"),
        (Hpa, "hpa-default", "MINPODS", "1"),
        (Hpa, "hpa-default", "MAXPODS", "5"),
        (Hpa, "hpa-objext", "TARGETS", "2500m/10k, 250m/500m (avg)"),
        (Hpa, "hpa-container", "TARGETS", "cpu: 75%/60%, <unknown>/1k"),
        (Hpa, "hpa-nil", "TARGETS", "memory: <nil>/1536Mi, <nil>/100"),
        (Pv, "pv-odd", "CAPACITY", "1536Mi"),
        (Pv, "pv-odd", "ACCESS MODES", "RWO,ROX,RWX"),
        (Pv, "pv-odd", "RECLAIM POLICY", "Retain"),
        (Pv, "pv-odd", "CLAIM", "/half"),
        (Pv, "pv-odd", "STORAGECLASS", "legacy"),
        (Pv, "pv-odd", "VOLUMEATTRIBUTESCLASS", "<unset>"),
        (Pv, "pv-odd", "VOLUMEMODE", "Filesystem"),
        (Pv, "pv-csi", "ACCESS MODES", "RWOP"),
        (Pv, "pv-csi", "RECLAIM POLICY", "Delete"),
        (Pv, "pv-csi", "STATUS", "Available"),
        (Pv, "pv-csi", "CLAIM", ""),
        (Pv, "pv-csi", "VOLUMEATTRIBUTESCLASS", "gold"),
        (Pv, "pv-csi", "VOLUMEMODE", "Block"),
        (Pv, "pv-released", "STATUS", "Released"),
        (Pv, "pv-failed", "STATUS", "Failed"),
        (Pv, "pv-failed", "REASON", "Oops..."),
        (Pv, "pv-doomed", "STATUS", "Terminating"),
    ]
};

/// [`EXPECTED`] with the real object names.
pub fn expectations(ns: &str) -> Vec<(BuiltinKind, String, &'static str, &'static str)> {
    EXPECTED
        .iter()
        .map(|&(kind, name, header, want)| {
            let name = match kind {
                BuiltinKind::PersistentVolume => format!("{ns}-{name}"),
                _ => name.to_string(),
            };
            (kind, name, header, want)
        })
        .collect()
}
