//! The xray tree at 100,000 pods: collapsed, it builds its roots only; expanded along one
//! chain, only that chain's lines — whatever the number of pods beside it. Prints the build
//! times (a debug build on a shared machine: figures, not goals). Test-only.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Instant;

use serde_json::json;

use crate::kube::builtin::BuiltinKind;
use crate::kube::key::ResourceKey;
use crate::kube::row::{Owner, Row, RowCtx};
use crate::kube::rows::{cut, Rows};
use crate::kube::store::Snapshot;
use crate::kube::sync::SyncState;

use super::model::Root;
use super::tree::{build, Snaps};

fn snap(kind: BuiltinKind, mut rows: Vec<Arc<Row>>) -> Arc<Snapshot> {
    rows.sort_by(|a, b| (a.namespace.as_deref(), &*a.name).cmp(&(b.namespace.as_deref(), &*b.name)));
    let mut s = Snapshot::empty(ResourceKey::new(kind, None), 1);
    s.rows = Rows::from_chunks(cut(rows));
    (s.listed, s.rev, s.state) = (true, 1, SyncState::Live);
    Arc::new(s)
}

fn decoded(kind: BuiltinKind, v: serde_json::Value, ctx: &RowCtx) -> Row {
    crate::table::decode_row(kind, &serde_json::to_vec(&v).unwrap(), ctx).unwrap()
}

/// One namespace `big`: deployment `web` → 1,000 ReplicaSets `web-<r>` → 100 pods each.
fn big() -> Snaps {
    let ctx = RowCtx::default();
    let ns: Arc<str> = Arc::from("big");
    let deploy = decoded(
        BuiltinKind::Deployment,
        json!({"metadata": {"namespace": "big", "name": "web"}}),
        &ctx,
    );
    let rs_proto = decoded(
        BuiltinKind::ReplicaSet,
        json!({"metadata": {"namespace": "big", "name": "web-0",
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web", "controller": true}]}}),
        &ctx,
    );
    let pod_proto = decoded(
        BuiltinKind::Pod,
        json!({"metadata": {"namespace": "big", "name": "p"},
            "spec": {"nodeName": "n1", "containers": [{"name": "app", "envFrom": [{"configMapRef": {"name": "cfg"}}]}]},
            "status": {"phase": "Running"}}),
        &ctx,
    );
    let mut rss = Vec::new();
    let mut pods = Vec::with_capacity(100_000);
    for r in 0..1_000 {
        let rs_name: Arc<str> = Arc::from(format!("web-{r:04}"));
        rss.push(Arc::new(Row {
            name: rs_name.clone(),
            namespace: Some(ns.clone()),
            ..rs_proto.clone()
        }));
        for p in 0..100 {
            pods.push(Arc::new(Row {
                name: Arc::from(format!("web-{r:04}-{p:03}")),
                namespace: Some(ns.clone()),
                owner: Some(Box::new(Owner {
                    api_version: Arc::from("apps/v1"),
                    kind: Arc::from("ReplicaSet"),
                    name: rs_name.clone(),
                })),
                ..pod_proto.clone()
            }));
        }
    }
    let mut snaps = Snaps::new();
    snaps.insert(
        BuiltinKind::Deployment,
        snap(BuiltinKind::Deployment, vec![Arc::new(deploy)]),
    );
    snaps.insert(BuiltinKind::ReplicaSet, snap(BuiltinKind::ReplicaSet, rss));
    snaps.insert(BuiltinKind::Pod, snap(BuiltinKind::Pod, pods));
    snaps
}

#[test]
fn at_100k_pods_only_the_expanded_chain_is_built() {
    let snaps = big();
    let root = Root {
        kind: BuiltinKind::Deployment,
        namespace: Some("big".into()),
        only: None,
    };
    let mut open: HashSet<Arc<str>> = HashSet::new();
    let t = Instant::now();
    assert_eq!(build(&snaps, &root, &open).len(), 1, "collapsed: the root only");
    let collapsed = t.elapsed();
    for path in [
        "/deployment:big/web",
        "/deployment:big/web/replicaset:big/web-0500",
        "/deployment:big/web/replicaset:big/web-0500/pod:big/web-0500-042",
    ] {
        open.insert(Arc::from(path));
    }
    let t = Instant::now();
    let lines = build(&snaps, &root, &open);
    let expanded = t.elapsed();
    // The deployment, its 1,000 ReplicaSets, web-0500's 100 pods, and web-0500-042's
    // container, ConfigMap (unknown: no configmaps informer here) and node.
    assert_eq!(lines.len(), 1 + 1_000 + 100 + 3, "{:?}", &lines[..5]);
    assert!(lines.iter().any(|n| &*n.name == "cfg"));
    eprintln!("xray at 100k pods (debug build): collapsed {collapsed:?}, one chain expanded {expanded:?}");
}
