//! Tests of the describe sections of Events, HPAs, PVs and PVCs, and of a pod's status
//! lines kubectl prints (message of an evicted pod, `Terminating`, priority), on objects
//! shaped as the API server returns them.

use serde_json::json;

use super::tests::{assert_has, text};
use ktui_kube::builtin::BuiltinKind;

use super::tests::NOW;

fn at(secs_from_now: i64) -> String {
    jiff::Timestamp::from_second(NOW + secs_from_now)
        .unwrap()
        .to_string()
}

#[test]
fn evicted_and_terminating_pods_say_so_as_kubectl_does() {
    let evicted = json!({"metadata": {"name": "p", "namespace": "a"},
        "spec": {"priority": 1000, "priorityClassName": "high", "containers": []},
        "status": {"phase": "Failed", "reason": "Evicted",
                   "message": "Pod ephemeral local storage usage exceeds the total limit of containers 1Gi."}});
    let t = text(&evicted, BuiltinKind::Pod);
    assert_has(&t, &[
        "Priority:         1000\n",
        "Priority Class Name: high\n",
        "Status:           Failed\nReason:           Evicted\nMessage:          Pod ephemeral local storage usage exceeds",
    ]);
    assert!(
        !t.contains("Service Account:"),
        "no empty Service Account line:\n{t}"
    );
    // Graceful deletion: the timestamp is ahead (now + grace period).
    let deleting = json!({"metadata": {"name": "p", "namespace": "a", "deletionTimestamp": at(20),
                                       "deletionGracePeriodSeconds": 30},
        "spec": {"serviceAccountName": "web", "containers": []}, "status": {"phase": "Running"}});
    let t = text(&deleting, BuiltinKind::Pod);
    assert_has(
        &t,
        &[
            "Service Account:  web\n",
            "Status:           Terminating (lasts <invalid>)\nTermination Grace Period: 30s",
        ],
    );
    assert!(!t.contains("Deleting:") && !t.contains("Running"), "{t}");
    let overdue = json!({"metadata": {"name": "p", "deletionTimestamp": at(-300)}, "spec": {}, "status": {}});
    assert_has(
        &text(&overdue, BuiltinKind::Pod),
        &["Status:           Terminating (lasts 5m)"],
    );
    // Deleted after it finished, held by a finalizer: the terminal phase (kubectl#1595).
    for phase in ["Succeeded", "Failed"] {
        let done = json!({"metadata": {"name": "p", "deletionTimestamp": at(-11),
                                       "deletionGracePeriodSeconds": 0, "finalizers": ["example.com/keep"]},
            "spec": {}, "status": {"phase": phase}});
        let t = text(&done, BuiltinKind::Pod);
        assert_has(&t, &[&format!("Status:           {phase}\n")]);
        assert!(
            !t.contains("Terminating") && !t.contains("Termination Grace"),
            "{t}"
        );
    }
}

#[test]
fn an_event_shows_what_happened_to_what() {
    let ev = json!({"metadata": {"name": "web.17f", "namespace": "shop"},
        "type": "Warning", "reason": "FailedCreate", "action": "Create", "count": 14,
        "involvedObject": {"kind": "ReplicaSet", "name": "web-5d9c", "namespace": "shop"},
        "related": {"kind": "Pod", "name": "web-5d9c-x"},
        "source": {"component": "replicaset-controller"},
        "firstTimestamp": at(-3000), "lastTimestamp": at(-40),
        "message": "Error creating: pods \"web\" is forbidden: exceeded quota: tiny"});
    let t = text(&ev, BuiltinKind::Event);
    assert_has(
        &t,
        &[
            "Type:             Warning\nReason:           FailedCreate\nAction:           Create\n",
            "Involved Object:  ReplicaSet/web-5d9c -n shop\n",
            "Related:          Pod/web-5d9c-x\n",
            "Count:            14\n",
            "Source:           replicaset-controller\n",
            "Message:\n  Error creating: pods \"web\" is forbidden: exceeded quota: tiny",
        ],
    );
}

#[test]
fn hpa_pv_and_pvc_like_kubectl() {
    let hpa = json!({"metadata": {"name": "web", "namespace": "shop"},
        "spec": {"scaleTargetRef": {"kind": "Deployment", "name": "web"}, "minReplicas": 2, "maxReplicas": 10,
                 "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 80}}},
                             {"type": "Pods", "pods": {"metric": {"name": "rps"}, "target": {"type": "AverageValue", "averageValue": "100"}}}]},
        "status": {"currentReplicas": 3, "desiredReplicas": 4,
                   "currentMetrics": [{"type": "Resource", "resource": {"name": "cpu", "current": {"averageUtilization": 45, "averageValue": "45m"}}}]}});
    assert_has(&text(&hpa, BuiltinKind::HorizontalPodAutoscaler), &[
        "Reference:        Deployment/web\n",
        "Metrics:          ( current / target )\n  resource cpu on pods  (as a percentage of request):  45% (45m) / 80%\n",
        "  \"rps\" on pods:  <unknown> / 100\n",
        "Min replicas:     2\nMax replicas:     10\nDeployment pods:  3 current / 4 desired",
    ]);
    let pv = json!({"metadata": {"name": "pv-1"},
        "spec": {"storageClassName": "standard", "capacity": {"storage": "10Gi"}, "accessModes": ["ReadWriteOnce"],
                 "persistentVolumeReclaimPolicy": "Delete", "claimRef": {"namespace": "shop", "name": "data-web-0"},
                 "hostPath": {"path": "/data/pv-1", "type": ""}},
        "status": {"phase": "Bound"}});
    assert_has(&text(&pv, BuiltinKind::PersistentVolume), &[
        "StorageClass:     standard\nStatus:           Bound\nClaim:            shop/data-web-0\nReclaim Policy:   Delete\nAccess Modes:     RWO\nVolumeMode:       Filesystem\nCapacity:         10Gi\n",
        "Source:\n    Type:  hostPath\n    path:  /data/pv-1",
    ]);
    let pvc = json!({"metadata": {"name": "data-web-0", "namespace": "shop"},
        "spec": {"storageClassName": "standard", "volumeName": "pv-1", "accessModes": ["ReadWriteOnce"]},
        "status": {"phase": "Bound", "capacity": {"storage": "10Gi"}, "accessModes": ["ReadWriteOnce", "ReadWriteMany"]}});
    assert_has(&text(&pvc, BuiltinKind::PersistentVolumeClaim), &[
        "StorageClass:     standard\nStatus:           Bound\nVolume:           pv-1\nCapacity:         10Gi\nAccess Modes:     RWO,RWX\nVolumeMode:       Filesystem",
    ]);
}

#[test]
fn hpa_object_external_and_container_metrics_name_their_source_and_target_kind() {
    let hpa = json!({"metadata": {"name": "web", "namespace": "shop"},
        "spec": {"scaleTargetRef": {"kind": "Deployment", "name": "web"}, "minReplicas": 1, "maxReplicas": 5,
                 "metrics": [
                     {"type": "Object", "object": {"metric": {"name": "requests-per-second"},
                         "describedObject": {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "name": "main-route"},
                         "target": {"type": "Value", "value": "10k"}}},
                     {"type": "External", "external": {"metric": {"name": "queue_messages_ready"},
                         "target": {"type": "AverageValue", "averageValue": "30"}}},
                     {"type": "External", "external": {"metric": {"name": "backlog"},
                         "target": {"type": "Value", "value": "500"}}},
                     {"type": "ContainerResource", "containerResource": {"name": "cpu", "container": "app",
                         "target": {"type": "Utilization", "averageUtilization": 60}}}],
                 "behavior": {"scaleDown": {"stabilizationWindowSeconds": 300,
                     "policies": [{"type": "Percent", "value": 10, "periodSeconds": 60}]}}},
        "status": {"currentReplicas": 2, "desiredReplicas": 2, "currentMetrics": [
            {"type": "Object", "object": {"metric": {"name": "requests-per-second"},
                "describedObject": {"kind": "Ingress", "name": "main-route"}, "current": {"value": "2k"}}},
            {"type": "External", "external": {"metric": {"name": "queue_messages_ready"}, "current": {"averageValue": "12"}}}]}});
    assert_has(&text(&hpa, BuiltinKind::HorizontalPodAutoscaler), &[
        "  \"requests-per-second\" on Ingress/main-route (target value):  2k / 10k\n",
        "  \"queue_messages_ready\" (target average value):  12 / 30\n",
        "  \"backlog\" (target value):  <unknown> / 500\n",
        "  resource cpu of container \"app\" on pods  (as a percentage of request):  <unknown> / 60%\n",
        "Behavior:\n  Scale Down:\n    Stabilization Window: 300 seconds\n    Select Policy: Max\n    Policies:\n      - Type: Percent  Value: 10  Period: 60 seconds\n",
    ]);
}

#[test]
fn deleted_pv_and_pvc_say_terminating_as_kubectl_does() {
    let pvc = json!({"metadata": {"name": "data", "namespace": "shop", "deletionTimestamp": at(-120),
                                  "finalizers": ["kubernetes.io/pvc-protection"]},
        "spec": {"volumeName": "pv-1"}, "status": {"phase": "Bound"}});
    let t = text(&pvc, BuiltinKind::PersistentVolumeClaim);
    assert_has(&t, &["Status:           Terminating (lasts 2m)\n"]);
    assert!(!t.contains("Deleting:"), "{t}");
    let pv = json!({"metadata": {"name": "pv-1", "deletionTimestamp": at(-120)}, "spec": {}, "status": {"phase": "Released"}});
    assert_has(
        &text(&pv, BuiltinKind::PersistentVolume),
        &["Status:           Terminating (lasts 2m)\n"],
    );
}
