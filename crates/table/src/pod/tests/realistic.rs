//! Realistic pods as the API server sends them (~3 KB each) decode to their row. Test-only.

use super::*;

/// A realistic ~3 KB pod as the API server sends it (managedFields, annotations, volumes).
fn realistic_pod(i: usize) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": format!("web-7d9f8c6b5-{i:05}"), "namespace": format!("team-{}", i % 50),
            "uid": format!("0b7c2f1e-3c1d-4f7a-9a55-{i:012}"), "resourceVersion": format!("{}", 100_000 + i),
            "creationTimestamp": "2024-05-01T10:00:00Z", "generateName": "web-7d9f8c6b5-",
            "labels": {"app": "web", "pod-template-hash": "7d9f8c6b5", "tier": "frontend"},
            "annotations": {"kubectl.kubernetes.io/restartedAt": "2024-05-01T09:59:00Z",
                "prometheus.io/scrape": "true", "prometheus.io/port": "9090"},
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-7d9f8c6b5",
                "uid": "5b1d2c3e-1111-2222-3333-444455556666", "controller": true, "blockOwnerDeletion": true}],
            "managedFields": [{"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "v1",
                "time": "2024-05-01T10:00:00Z", "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {"f:generateName": {},
                "f:labels": {".": {}, "f:app": {}, "f:pod-template-hash": {}}, "f:ownerReferences": {".": {}}},
                "f:spec": {"f:containers": {"k:{\"name\":\"web\"}": {".": {}, "f:image": {}, "f:imagePullPolicy": {},
                "f:name": {}, "f:ports": {}, "f:resources": {}}}}}},
                {"manager": "kubelet", "operation": "Update", "apiVersion": "v1", "time": "2024-05-01T10:00:05Z",
                "fieldsType": "FieldsV1", "subresource": "status", "fieldsV1": {"f:status": {"f:conditions": {},
                "f:containerStatuses": {}, "f:hostIP": {}, "f:phase": {}, "f:podIP": {}, "f:podIPs": {}, "f:startTime": {}}}}]},
        "spec": {"nodeName": format!("node-{}", i % 100), "serviceAccountName": "default", "restartPolicy": "Always",
            "dnsPolicy": "ClusterFirst", "schedulerName": "default-scheduler", "terminationGracePeriodSeconds": 30,
            "containers": [{"name": "web", "image": "registry.example.com/team/web:1.2.3", "imagePullPolicy": "IfNotPresent",
                "ports": [{"containerPort": 8080, "protocol": "TCP", "name": "http"}],
                "env": [{"name": "MODE", "value": "production"}, {"name": "POD_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
                "resources": {"limits": {"cpu": "500m", "memory": "256Mi"}, "requests": {"cpu": "100m", "memory": "128Mi"}},
                "readinessProbe": {"httpGet": {"path": "/healthz", "port": 8080, "scheme": "HTTP"}, "periodSeconds": 10},
                "volumeMounts": [{"name": "kube-api-access-abcde", "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "readOnly": true}],
                "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}],
            "volumes": [{"name": "kube-api-access-abcde", "projected": {"defaultMode": 420, "sources": [
                {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}}]}}],
            "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}]},
        "status": {"phase": "Running", "hostIP": "10.1.0.4", "podIP": "10.244.1.7", "podIPs": [{"ip": "10.244.1.7"}],
            "qosClass": "Burstable", "startTime": "2024-05-01T10:00:01Z",
            "conditions": [{"type": "Initialized", "status": "True", "lastTransitionTime": "2024-05-01T10:00:01Z"},
                {"type": "Ready", "status": "True", "lastTransitionTime": "2024-05-01T10:00:05Z"},
                {"type": "ContainersReady", "status": "True", "lastTransitionTime": "2024-05-01T10:00:05Z"},
                {"type": "PodScheduled", "status": "True", "lastTransitionTime": "2024-05-01T10:00:00Z"}],
            "containerStatuses": [{"name": "web", "ready": true, "started": true, "restartCount": 1,
                "image": "registry.example.com/team/web:1.2.3", "imageID": "registry.example.com/team/web@sha256:0123456789abcdef",
                "containerID": "containerd://0123456789abcdef0123456789abcdef",
                "state": {"running": {"startedAt": "2024-05-01T10:00:04Z"}},
                "lastState": {"terminated": {"exitCode": 137, "reason": "OOMKilled", "startedAt": "2024-05-01T10:00:02Z",
                    "finishedAt": "2024-05-01T10:00:03Z", "containerID": "containerd://fedcba"}}}]}
    })
}

/// A realistic pod as the API server sends it (managedFields, ownerReferences, a restarted
/// container) decodes to kubectl's cells. Its cost is measured by `benches/store.rs`
/// (`decode_1000`, `decode_row_1000`), not here: timings are no test on a shared machine.
#[test]
fn realistic_pods_decode_to_their_cells() {
    let ctx = ktui_kube::row::RowCtx::default();
    let rows: Vec<_> = (0..100)
        .map(|i| serde_json::to_vec(&realistic_pod(i)).unwrap())
        .map(|d| crate::decode_row(BuiltinKind::Pod, &d, &ctx).unwrap())
        .collect();
    assert_eq!(crate::testutil::texts(&rows[7])[..2], ["1/1", "Running"]);
}
