//! Tests of the common describe parts: metadata, pods (containers, scheduling), secrets, the
//! generic rendering, and that no kind panics on missing or mistyped fields. Must not test
//! the workload/service/node sections (that is `tests_kinds`).

use std::sync::Arc;

use serde_json::{json, Value};

use super::describe;
use ktui_kube::builtin::BuiltinKind;
use ktui_kube::kind::{ApiResource, Kind};

/// The tests' clock: 2026-11-30T12:00:00Z.
pub(super) const NOW: i64 = 1_796_040_000;

/// The describe text of `obj` as `kind`, one string.
pub(super) fn text(obj: &Value, kind: BuiltinKind) -> String {
    describe(obj, &kind.into(), NOW).join("\n")
}

/// Asserts every `want` is a substring of `text`.
pub(super) fn assert_has(text: &str, wants: &[&str]) {
    for want in wants {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
}

#[test]
fn pod_sections() {
    let pod = json!({
        "metadata": {"name": "web-0", "namespace": "shop", "creationTimestamp": "2026-11-30T11:00:00Z",
                     "labels": {"app": "web"}, "ownerReferences": [{"kind": "StatefulSet", "name": "web"}]},
        "spec": {"nodeName": "node-1", "containers": [{"name": "app", "image": "nginx:1.27",
                  "ports": [{"containerPort": 80}], "resources": {"limits": {"memory": "128Mi"}}}],
                 "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "d"}}]},
        "status": {"phase": "Running", "podIPs": [{"ip": "10.0.0.5"}],
                   "containerStatuses": [{"name": "app", "ready": true, "restartCount": 3,
                      "state": {"running": {"startedAt": "2026-11-30T11:55:00Z"}}}],
                   "conditions": [{"type": "Ready", "status": "True"}]}
    });
    let text = text(&pod, BuiltinKind::Pod);
    assert_has(
        &text,
        &[
            "Name:             web-0",
            "Created:          60m ago",
            "Labels:           app=web",
            "Controlled By:    StatefulSet/web",
            "Node:             node-1",
            "IPs:              10.0.0.5",
            "Image:          nginx:1.27",
            "Ports:          80/TCP",
            "State:          Running for 5m",
            "Restart Count:  3",
            "Limits:         memory=128Mi",
            "Volumes:          data (persistentVolumeClaim)",
            "Ready  True",
        ],
    );
}

#[test]
fn pod_containers_show_env_names_mounts_probes_and_scheduling() {
    let pod = json!({
        "metadata": {"name": "api-7d9c", "namespace": "shop"},
        "spec": {"containers": [{"name": "api", "image": "shop/api:2.1", "command": ["/api"], "args": ["--port=8080"],
                  "ports": [{"name": "http", "containerPort": 8080, "protocol": "TCP"}],
                  "env": [{"name": "LOG_LEVEL", "value": "debug"},
                          {"name": "DB_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "db", "key": "password"}}},
                          {"name": "POD_IP", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "status.podIP"}}}],
                  "envFrom": [{"configMapRef": {"name": "api-env"}, "prefix": "APP_"}],
                  "readinessProbe": {"httpGet": {"path": "/healthz", "port": 8080, "scheme": "HTTP"},
                                     "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3},
                  "volumeMounts": [{"name": "cfg", "mountPath": "/etc/api", "readOnly": true},
                                   {"name": "kube-api-access-x", "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "readOnly": true}]}],
                 "nodeSelector": {"kubernetes.io/os": "linux"}, "priorityClassName": "high",
                 "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}],
                 "volumes": [{"name": "cfg", "configMap": {"name": "api"}}]},
        "status": {"phase": "Pending", "qosClass": "BestEffort"}
    });
    let text = text(&pod, BuiltinKind::Pod);
    assert_has(
        &text,
        &[
            "QoS Class:        BestEffort",
            "    Command:        /api",
            "    Args:           --port=8080",
            "    Ports:          8080/TCP (http)",
            "    Readiness:      http-get http://:8080/healthz delay=0s timeout=1s period=10s #success=1 #failure=3",
            "    Environment:    LOG_LEVEL\n                    DB_PASSWORD <key password of secret db>",
            "POD_IP <field status.podIP>",
            "    Environment From: config map api-env (prefix APP_)",
            "    Mounts:         /etc/api from cfg (ro)\n",
            "Priority Class Name: high",
            "Node-Selectors:   kubernetes.io/os=linux",
            "Tolerations:      node.kubernetes.io/not-ready:NoExecute op=Exists for 300s",
        ],
    );
    assert!(
        !text.contains("debug"),
        "literal env values are not shown:\n{text}"
    );
    assert!(!text.contains("State:"), "no status, no state:\n{text}");
}

#[test]
fn secrets_show_sizes_never_values() {
    let s = json!({"metadata": {"name": "db"}, "type": "Opaque", "data": {"password": "aHVudGVyMg==", "odd": "=="}});
    let text = text(&s, BuiltinKind::Secret);
    assert!(text.contains("password: 7 bytes"), "{text}");
    assert!(text.contains("odd: 0 bytes"), "{text}");
    assert!(!text.contains("aHVudGVyMg") && !text.contains("hunter2"));
}

#[test]
fn generic_kinds_render_spec_status_and_conditions() {
    let gizmo = Kind::Api(Arc::new(ApiResource {
        group: "demo.ktui.dev".into(),
        version: "v1".into(),
        plural: "gizmos".into(),
        kind: "Gizmo".into(),
        ..ApiResource::default()
    }));
    let d = json!({"metadata": {"name": "web"}, "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}}},
                   "status": {"readyReplicas": 2, "conditions": [{"type": "Available", "status": "False",
                              "reason": "MinimumReplicasUnavailable", "message": "not enough\nsecond"}]}});
    let text = describe(&d, &gizmo, NOW).join("\n");
    assert!(text.contains("Spec:\n  Replicas: 3"), "{text}");
    assert!(
        text.contains("MatchLabels:\n      App: web") || text.contains("App: web"),
        "{text}"
    );
    assert!(
        text.contains("Available  False   MinimumReplicasUnavailable  not enough"),
        "{text}"
    );
    assert!(!text.contains("second"));
}

#[test]
fn lines_are_sanitized() {
    let d = json!({"metadata": {"name": "x\u{1b}[2J", "labels": {"a": "b\u{202e}c"}}});
    let text = text(&d, BuiltinKind::Deployment);
    assert!(!text.contains('\u{1b}') && !text.contains('\u{202e}'), "{text:?}");
    assert!(text.contains("x^[[2J"), "{text}");
}

#[test]
fn empty_and_mistyped_objects_do_not_panic() {
    let odd = [
        json!({}),
        json!(null),
        json!([1, 2]),
        json!({"metadata": 5, "spec": "x", "status": [1]}),
        json!({"spec": {"template": {"spec": {"containers": [{}, 7, {"ports": [{}], "env": [{}], "volumeMounts": [3]}],
               "tolerations": [{}], "volumes": [{}]}}, "selector": {"matchExpressions": [{"key": "a", "operator": "Near"}]},
               "ports": [{}], "taints": [{}], "volumeClaimTemplates": [{}], "strategy": {"rollingUpdate": {}},
               "jobTemplate": {"spec": {"template": {}}}},
               "status": {"conditions": [{}], "addresses": [{}], "capacity": {"cpu": 1}, "active": [{}],
                          "loadBalancer": {"ingress": [{}]}, "startTime": "bad", "completionTime": "2026-11-30T11:00:00Z"}}),
    ];
    for kind in BuiltinKind::ALL {
        for obj in &odd {
            let lines = describe(obj, &kind.into(), NOW);
            assert!(
                lines.iter().any(|l| l.starts_with("Name:")),
                "{kind:?}: {lines:?}"
            );
        }
    }
}

#[test]
fn multi_line_annotations_keep_every_line() {
    let cm = json!({"metadata": {"name": "c", "annotations": {"note": "line one\nline two"}},
        "data": {"nginx.conf": "server {\n  listen 80;\n}"}});
    let text = text(&cm, BuiltinKind::ConfigMap);
    assert!(
        text.contains("note: line one\n") && text.contains("  line two"),
        "{text}"
    );
    assert!(
        text.contains("nginx.conf: server {") && text.contains("    listen 80;"),
        "{text}"
    );
}

#[test]
fn only_kubectl_shaped_labels_are_labels() {
    use super::label_end;
    assert_eq!(label_end("Name:             web-0"), Some(4));
    assert_eq!(label_end("    Restart Count:  4"), Some(17));
    assert_eq!(label_end("  web:"), Some(5));
    assert_eq!(
        label_end("  Warning  Failed   3s  kubelet  Error: ImagePullBackOff"),
        None,
        "an event row whose message holds a colon"
    );
    assert_eq!(label_end("                  tier=db"), None);
    assert_eq!(label_end("  image: nginx:1.27"), Some(7));
    assert_eq!(label_end("https://x"), None);
}
