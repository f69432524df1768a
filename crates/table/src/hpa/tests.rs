//! HPA row tests: REFERENCE, TARGETS, MINPODS rules of kubectl-columns.md §11. Test-only.

use serde_json::{json, Value};

use super::{target, targets, Metric};
use ktui_kube::builtin::BuiltinKind;
use crate::testutil::{ago, cells};

const HPA: BuiltinKind = BuiltinKind::HorizontalPodAutoscaler;

fn hpa(spec: Value, status: Value) -> Value {
    json!({"metadata": {"name": "h", "namespace": "ns", "creationTimestamp": ago(40)},
        "spec": spec, "status": status})
}

fn metric(v: Value) -> Metric {
    serde_json::from_value(v).unwrap()
}

fn cpu(util: i64) -> Value {
    json!({"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": util}}})
}

fn memory_avg(avg: &str) -> Value {
    json!({"type": "Resource", "resource": {"name": "memory", "target": {"type": "AverageValue", "averageValue": avg}}})
}

#[test]
fn verified_example() {
    let h = hpa(
        json!({"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
            "minReplicas": 2, "maxReplicas": 10, "metrics": [cpu(80), memory_avg("500Mi"),
            {"type": "Pods", "pods": {"metric": {"name": "qps"}, "target": {"type": "AverageValue", "averageValue": "1k"}}}]}),
        json!({"currentReplicas": 3, "currentMetrics": [
            {"type": "Resource", "resource": {"name": "cpu", "current": {"averageUtilization": 45, "averageValue": "150m"}}},
            {"type": "Pods", "pods": {"metric": {"name": "qps"}, "current": {"averageValue": "2k"}}}]}),
    );
    assert_eq!(
        cells(HPA, h),
        [
            "Deployment/web",
            "cpu: 45%/80%, memory: <unknown>/500Mi + 1 more...",
            "2",
            "10",
            "3",
            "40s"
        ]
    );
}

#[test]
fn server_defaults_apply_to_bare_objects() {
    // An HPA created without metrics or minReplicas is defaulted by the server.
    let bare = hpa(
        json!({"scaleTargetRef": {"kind": "Deployment", "name": "web"}, "maxReplicas": 5}),
        json!({}),
    );
    assert_eq!(
        cells(HPA, bare),
        ["Deployment/web", "cpu: <unknown>/80%", "1", "5", "0", "40s"]
    );
    assert_eq!(
        cells(HPA, json!({})),
        ["/", "cpu: <unknown>/80%", "1", "0", "0", "<unknown>"]
    );
    assert_eq!(targets(&[], &[]), "<none>");
}

#[test]
fn each_metric_type() {
    let cases = [
        (
            cpu(80),
            json!({"type": "Resource", "resource": {"name": "cpu", "current": {"averageUtilization": 45}}}),
            "cpu: 45%/80%",
        ),
        (
            memory_avg("0.5Gi"),
            json!({"type": "Resource", "resource": {"name": "memory", "current": {"averageValue": "200Mi"}}}),
            "memory: 200Mi/512Mi",
        ),
        // a status source without the value the target asks for: Go prints a nil *Quantity
        (
            memory_avg("500Mi"),
            json!({"type": "Resource", "resource": {"name": "memory", "current": {"averageUtilization": 3}}}),
            "memory: <nil>/500Mi",
        ),
        (
            json!({"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization"}}}),
            json!(null),
            "cpu: <unknown>/<auto>",
        ),
        (
            json!({"type": "ContainerResource", "containerResource": {"name": "cpu", "container": "app",
            "target": {"type": "Utilization", "averageUtilization": 60}}}),
            json!({"type": "ContainerResource", "containerResource": {"name": "cpu", "container": "app", "current": {"averageUtilization": 75}}}),
            "cpu: 75%/60%",
        ),
        (
            json!({"type": "Pods", "pods": {"metric": {"name": "qps"}, "target": {"type": "AverageValue", "averageValue": "1000"}}}),
            json!({"type": "Pods", "pods": {"metric": {"name": "qps"}, "current": {"averageValue": "1500m"}}}),
            "1500m/1k",
        ),
        (
            json!({"type": "Object", "object": {"metric": {"name": "rps"}, "target": {"type": "Value", "value": "10k"}}}),
            json!({"type": "Object", "object": {"metric": {"name": "rps"}, "current": {"value": "2k"}}}),
            "2k/10k",
        ),
        (
            json!({"type": "Object", "object": {"metric": {"name": "rps"}, "target": {"type": "AverageValue", "averageValue": "5"}}}),
            json!({"type": "Object", "object": {"metric": {"name": "rps"}, "current": {"value": "2k"}}}),
            "<unknown>/5 (avg)",
        ),
        (
            json!({"type": "External", "external": {"metric": {"name": "queue"}, "target": {"type": "AverageValue", "averageValue": "30"}}}),
            json!({"type": "External", "external": {"metric": {"name": "queue"}, "current": {"averageValue": "12"}}}),
            "12/30 (avg)",
        ),
        (
            json!({"type": "External", "external": {"metric": {"name": "queue"}, "target": {"type": "Value", "value": "100"}}}),
            json!({"type": "External", "external": {"metric": {"name": "queue"}, "current": {"averageValue": "12"}}}),
            "<nil>/100",
        ),
        // the status entry of that index has another type: unknown
        (
            json!({"type": "External", "external": {"metric": {"name": "queue"}, "target": {"type": "Value", "value": "100"}}}),
            json!({"type": "Pods", "pods": {"current": {"averageValue": "12"}}}),
            "<unknown>/100",
        ),
        (json!({"type": "Telepathy"}), json!(null), "<unknown type>"),
    ];
    for (i, (spec, status, want)) in cases.into_iter().enumerate() {
        let status = (!status.is_null()).then(|| metric(status));
        assert_eq!(target(&metric(spec), status.as_ref()), want, "case {i}");
    }
}

#[test]
fn two_metrics_are_shown_whole() {
    let specs = [metric(cpu(80)), metric(memory_avg("1Gi"))];
    assert_eq!(targets(&specs, &[]), "cpu: <unknown>/80%, memory: <unknown>/1Gi");
}
