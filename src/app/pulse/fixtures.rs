//! Rows built by the real row builders (pods, deployments, nodes, events) for the tests of
//! `:pulse`'s counting and transitions.

use std::sync::Arc;

use serde_json::{json, Value};

use crate::kube::builtin::BuiltinKind;
use crate::kube::row::{Row, RowCtx};
use crate::kube::rows::Rows;

/// The tests' clock: on a minute's start.
pub const NOW: i64 = 1_800_000_000;

/// `secs` as RFC 3339.
pub fn ts(secs: i64) -> String {
    jiff::Timestamp::from_second(secs).unwrap().to_string()
}

/// The row the kind's builder makes of `v`.
pub fn row(kind: BuiltinKind, v: Value) -> Arc<Row> {
    let bytes = serde_json::to_vec(&v).unwrap();
    Arc::new(crate::table::decode_row(kind, &bytes, &RowCtx::default()).unwrap())
}

/// A snapshot's rows of `list`, in that order.
pub fn rows(list: Vec<Arc<Row>>) -> Rows {
    list.into_iter().collect()
}

/// A pod with one container: `phase`, ready or not, `restarts`, or waiting with `reason`.
pub fn pod(ns: &str, name: &str, ready: bool, restarts: i64, waiting: Option<&str>) -> Arc<Row> {
    let state = match waiting {
        Some(r) => json!({"waiting": {"reason": r}}),
        None => json!({"running": {"startedAt": ts(NOW - 600)}}),
    };
    row(
        BuiltinKind::Pod,
        json!({"metadata": {"name": name, "namespace": ns, "uid": format!("uid-{name}"),
                "creationTimestamp": ts(NOW - 3600)},
            "spec": {"containers": [{"name": "c"}]},
            "status": {"phase": "Running", "containerStatuses": [{"name": "c", "ready": ready,
                "restartCount": restarts, "state": state}]}}),
    )
}

/// A pod that ran to completion.
pub fn completed(ns: &str, name: &str) -> Arc<Row> {
    row(
        BuiltinKind::Pod,
        json!({"metadata": {"name": name, "namespace": ns, "uid": format!("uid-{name}")},
            "spec": {"containers": [{"name": "c"}]},
            "status": {"phase": "Succeeded", "containerStatuses": [{"name": "c", "ready": false,
                "restartCount": 0, "state": {"terminated": {"reason": "Completed", "exitCode": 0}}}]}}),
    )
}

/// A deployment of `replicas` with `ready` of them ready and available.
pub fn deploy(ns: &str, name: &str, replicas: i64, ready: i64) -> Arc<Row> {
    row(
        BuiltinKind::Deployment,
        json!({"metadata": {"name": name, "namespace": ns},
            "spec": {"replicas": replicas},
            "status": {"replicas": replicas, "readyReplicas": ready, "availableReplicas": ready,
                "updatedReplicas": replicas}}),
    )
}

/// A node, Ready or not, with more `conds` (pressure conditions).
pub fn node(name: &str, ready: bool, conds: Value) -> Arc<Row> {
    let mut all = vec![json!({"type": "Ready", "status": if ready { "True" } else { "False" }})];
    all.extend(conds.as_array().cloned().unwrap_or_default());
    row(
        BuiltinKind::Node,
        json!({"metadata": {"name": name}, "status": {"conditions": all}}),
    )
}

/// An event in `shop` about pod `web-0`, seen `count` times, last at `last`.
pub fn event(name: &str, warning: bool, count: i64, last: i64) -> Arc<Row> {
    row(
        BuiltinKind::Event,
        json!({"metadata": {"name": name, "namespace": "shop", "uid": format!("u-{name}")},
            "type": if warning { "Warning" } else { "Normal" }, "reason": "R", "message": "m",
            "involvedObject": {"kind": "Pod", "name": "web-0", "namespace": "shop"},
            "count": count, "lastTimestamp": ts(last)}),
    )
}
