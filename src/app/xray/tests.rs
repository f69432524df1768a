//! Unit tests of the xray tree: owner chains, only expanded subtrees built, what a pod uses
//! (missing references flagged, unknown ones not), services by selector, a node's pods, and
//! the view's subscriptions, selection and keys. Rows are decoded from JSON by the real row
//! builders.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::{json, Value};

use crate::kube::builtin::BuiltinKind;
use crate::kube::key::ResourceKey;
use crate::kube::row::{Health, Row, RowCtx};
use crate::kube::rows::{cut, Rows};
use crate::kube::store::Snapshot;
use crate::kube::sync::SyncState;

use super::model::XrayState;
use super::model::{label, Node, Root, What};
use super::tree::{build, Snaps};

fn row(kind: BuiltinKind, v: Value, ctx: &RowCtx) -> Arc<Row> {
    Arc::new(crate::table::decode_row(kind, &serde_json::to_vec(&v).unwrap(), ctx).unwrap())
}

fn snap(kind: BuiltinKind, mut rows: Vec<Arc<Row>>, listed: bool) -> Arc<Snapshot> {
    rows.sort_by(|a, b| (a.namespace.as_deref(), &*a.name).cmp(&(b.namespace.as_deref(), &*b.name)));
    let mut s = Snapshot::empty(ResourceKey::new(kind, None), 1);
    s.rows = Rows::from_chunks(cut(rows));
    s.listed = listed;
    s.rev = 1;
    s.state = if listed {
        SyncState::Live
    } else {
        SyncState::Pending
    };
    Arc::new(s)
}

fn owner(kind: &str, name: &str) -> Value {
    json!([{"apiVersion": "apps/v1", "kind": kind, "name": name, "uid": "u", "controller": true}])
}

fn pod(ns: &str, name: &str, rs: &str, node: &str, extra_spec: Value) -> Value {
    let mut spec = json!({"nodeName": node, "serviceAccountName": "web-sa",
        "containers": [{"name": "app", "envFrom": [{"configMapRef": {"name": "flags"}}],
                        "env": [{"name": "PW", "valueFrom": {"secretKeyRef": {"name": "db", "key": "pw"}}},
                                {"name": "PLAIN", "value": "not-a-ref"}]},
                       {"name": "proxy"}],
        "volumes": [{"name": "c", "configMap": {"name": "app-config"}},
                    {"name": "p", "projected": {"sources": [{"secret": {"name": "tls"}}]}},
                    {"name": "d", "persistentVolumeClaim": {"claimName": "data"}}]});
    if let (Some(s), Some(e)) = (spec.as_object_mut(), extra_spec.as_object()) {
        s.extend(e.clone());
    }
    json!({"metadata": {"namespace": ns, "name": name, "labels": {"app": "web"}, "ownerReferences": owner("ReplicaSet", rs)},
        "spec": spec,
        "status": {"phase": "Running", "containerStatuses": [{"name": "app", "ready": true, "state": {"running": {}}}]}})
}

/// deployment web → rs web-1 (pods web-1-a, web-1-b) and rs web-0 (none); deployment api
/// without replicasets; a service selecting app=web; configmap app-config and secret db
/// exist, `flags` and `tls` do not; claim data bound to pv-1; node n1 NotReady.
pub(super) fn cluster() -> Snaps {
    use BuiltinKind::*;
    let ctx = RowCtx::default();
    let meta = |ns: &str, name: &str| json!({"namespace": ns, "name": name});
    let mut snaps = Snaps::new();
    let deploy = |name: &str| json!({"metadata": meta("shop", name), "spec": {"replicas": 2}, "status": {"readyReplicas": 2}});
    snaps.insert(
        Deployment,
        snap(
            Deployment,
            vec![
                row(Deployment, deploy("web"), &ctx),
                row(Deployment, deploy("api"), &ctx),
            ],
            true,
        ),
    );
    let rs = |name: &str| {
        json!({"metadata": {"namespace": "shop", "name": name, "ownerReferences": owner("Deployment", "web")},
        "spec": {"replicas": 2}, "status": {"replicas": 2, "readyReplicas": 2}})
    };
    snaps.insert(
        ReplicaSet,
        snap(
            ReplicaSet,
            vec![
                row(ReplicaSet, rs("web-1"), &ctx),
                row(ReplicaSet, rs("web-0"), &ctx),
            ],
            true,
        ),
    );
    let pods = vec![
        row(Pod, pod("shop", "web-1-a", "web-1", "n1", json!({})), &ctx),
        row(Pod, pod("shop", "web-1-b", "web-1", "n1", json!({})), &ctx),
        row(Pod, pod("other", "web-1-c", "web-1", "n1", json!({})), &ctx),
    ];
    snaps.insert(Pod, snap(Pod, pods, true));
    snaps.insert(
        ConfigMap,
        snap(
            ConfigMap,
            vec![row(
                ConfigMap,
                json!({"metadata": meta("shop", "app-config")}),
                &ctx,
            )],
            true,
        ),
    );
    snaps.insert(
        Secret,
        snap(
            Secret,
            vec![row(
                Secret,
                json!({"metadata": meta("shop", "db"), "data": {"pw": "c2VjcmV0"}}),
                &ctx,
            )],
            false,
        ),
    );
    let svc = json!({"metadata": meta("shop", "web"), "spec": {"type": "ClusterIP", "clusterIP": "10.0.0.1", "selector": {"app": "web"}}});
    let other =
        json!({"metadata": meta("shop", "db"), "spec": {"type": "ClusterIP", "selector": {"app": "db"}}});
    snaps.insert(
        Service,
        snap(
            Service,
            vec![row(Service, svc, &ctx), row(Service, other, &ctx)],
            true,
        ),
    );
    let pvc = json!({"metadata": meta("shop", "data"), "spec": {"volumeName": "pv-1"}, "status": {"phase": "Bound"}});
    snaps.insert(
        PersistentVolumeClaim,
        snap(
            PersistentVolumeClaim,
            vec![row(PersistentVolumeClaim, pvc, &ctx)],
            true,
        ),
    );
    snaps.insert(PersistentVolume, snap(PersistentVolume, vec![], true));
    let node =
        json!({"metadata": {"name": "n1"}, "status": {"conditions": [{"type": "Ready", "status": "False"}]}});
    snaps.insert(Node, snap(Node, vec![row(Node, node, &ctx)], true));
    snaps
}

fn root(kind: BuiltinKind, ns: Option<&str>) -> Root {
    Root {
        kind,
        namespace: ns.map(str::to_owned),
        only: None,
    }
}

/// `depth`-indented `kind/name`, with ` !` for a missing reference.
fn shape(lines: &[Node]) -> Vec<String> {
    lines
        .iter()
        .map(|n| {
            let bang = if n.missing { " !" } else { "" };
            format!("{}{}/{}{bang}", "  ".repeat(n.depth), label(n.what), n.name)
        })
        .collect()
}

fn open_all(snaps: &Snaps, root: &Root, paths: &[&str]) -> Vec<Node> {
    let mut open: HashSet<Arc<str>> = HashSet::new();
    let mut lines = build(snaps, root, &open);
    for p in paths {
        let n = lines
            .iter()
            .find(|n| n.path.ends_with(p))
            .unwrap_or_else(|| panic!("{p} in {:?}", shape(&lines)));
        open.insert(n.path.clone());
        lines = build(snaps, root, &open);
    }
    lines
}

#[test]
fn collapsed_roots_build_nothing_below_them() {
    let snaps = cluster();
    let lines = build(
        &snaps,
        &root(BuiltinKind::Deployment, Some("shop")),
        &HashSet::new(),
    );
    assert_eq!(shape(&lines), ["deployment/api", "deployment/web"]);
    assert!(lines.iter().all(|n| n.expandable && !n.expanded));
    assert_eq!(lines[1].status, "ready 2/2");
}

#[test]
fn the_owner_chain_reaches_pods_containers_and_what_they_use() {
    let snaps = cluster();
    let lines = open_all(
        &snaps,
        &root(BuiltinKind::Deployment, Some("shop")),
        &["deployment:shop/web", "replicaset:shop/web-1", "pod:shop/web-1-a"],
    );
    assert_eq!(
        shape(&lines),
        [
            "deployment/api",
            "deployment/web",
            "  replicaset/web-0",
            "  replicaset/web-1",
            "    pod/web-1-a",
            "      container/app",
            "      container/proxy",
            "      serviceaccount/web-sa",
            "      configmap/app-config",
            "      configmap/flags !",
            "      secret/db",
            "      secret/tls",
            "      persistentvolumeclaim/data",
            "      service/web",
            "      node/n1",
            "    pod/web-1-b",
        ],
        "the pod of the same name in another namespace is not web-1's"
    );
    let flags = lines.iter().find(|n| &*n.name == "flags").unwrap();
    assert_eq!(
        (flags.status.as_str(), flags.health),
        ("not found", Health::Error)
    );
    // The secrets informer has not listed yet: `tls` is not known missing, only unknown.
    let tls = lines.iter().find(|n| &*n.name == "tls").unwrap();
    assert!(!tls.missing && tls.status.is_empty());
    let node = lines.iter().find(|n| &*n.name == "n1").unwrap();
    assert_eq!((node.status.as_str(), node.health), ("NotReady", Health::Error));
    let c = lines.iter().find(|n| &*n.name == "proxy").unwrap();
    assert_eq!((c.what, c.pod.as_deref()), (What::Container, Some("web-1-a")));
    assert!(
        !format!("{lines:?}").contains("c2VjcmV0"),
        "no secret value anywhere"
    );
    assert!(!format!("{lines:?}").contains("not-a-ref"), "no env value");
}

#[test]
fn a_claim_leads_to_its_volume_flagged_when_gone() {
    let snaps = cluster();
    let lines = open_all(
        &snaps,
        &Root {
            only: Some("web-1-a".into()),
            ..root(BuiltinKind::Pod, Some("shop"))
        },
        &["pod:shop/web-1-a", "persistentvolumeclaim:shop/data"],
    );
    let shape = shape(&lines);
    let i = shape
        .iter()
        .position(|l| l.ends_with("persistentvolumeclaim/data"))
        .unwrap();
    assert_eq!(shape[i + 1], "    persistentvolume/pv-1 !");
    assert_eq!(shape[0], "pod/web-1-a", "only the one pod is a root");
}

#[test]
fn services_show_the_pods_their_selector_matches_and_nodes_their_pods() {
    let snaps = cluster();
    let lines = open_all(
        &snaps,
        &root(BuiltinKind::Service, Some("shop")),
        &["service:shop/web"],
    );
    assert_eq!(
        shape(&lines),
        ["service/db", "service/web", "  pod/web-1-a", "  pod/web-1-b"]
    );
    let lines = open_all(&snaps, &root(BuiltinKind::Node, None), &["node:/n1"]);
    assert_eq!(
        shape(&lines),
        ["node/n1", "  pod/web-1-c", "  pod/web-1-a", "  pod/web-1-b"]
    );
}

#[test]
fn the_view_subscribes_its_owner_chain_then_what_pods_use_and_follows_its_selection() {
    use crate::app::effect::{Effect, ViewId};
    use crate::app::feed::Source;
    use crate::kube::store::Slot;
    let snaps = cluster();
    let mut x = XrayState::new(BuiltinKind::Deployment, Some("shop".into()), None);
    let id = ViewId(4);
    let keys = |fx: Vec<Effect>| -> Vec<String> {
        fx.into_iter()
            .map(|e| match e {
                Effect::Subscribe(_, k) => format!("{}/{}", k.kind.plural(), k.namespace.unwrap_or_default()),
                other => format!("{other:?}"),
            })
            .collect()
    };
    assert_eq!(
        keys(x.feeds(id)),
        ["deployments/shop", "replicasets/shop", "pods/shop"]
    );
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let attach = |x: &mut XrayState, kind: BuiltinKind| {
        let slot = Slot::new(ResourceKey::new(kind, Some("shop")), 1);
        let mut w = crate::kube::store::StoreWriter::new(slot.clone(), tx.clone());
        w.init();
        for r in snaps[&kind].rows.iter() {
            w.init_apply((**r).clone());
        }
        w.init_done(Some("1".into()));
        w.publish();
        assert!(x.attach(Source::fixed(slot)));
    };
    for k in [BuiltinKind::Deployment, BuiltinKind::ReplicaSet, BuiltinKind::Pod] {
        attach(&mut x, k);
    }
    assert_eq!(keys(x.feeds(id)), Vec::<String>::new());
    x.refresh(10);
    assert_eq!(x.lines.len(), 2);
    x.move_by(1);
    assert!(x.toggle());
    x.refresh(10);
    assert_eq!(shape(&x.lines)[2..], ["  replicaset/web-0", "  replicaset/web-1"]);
    x.move_by(2);
    assert!(x.toggle());
    x.refresh(10);
    x.move_by(1);
    assert_eq!(x.selected_node().map(|n| &*n.name), Some("web-1-a"));
    assert!(x.toggle(), "a pod expands");
    assert_eq!(
        keys(x.feeds(id)),
        [
            "configmaps/shop",
            "secrets/shop",
            "persistentvolumeclaims/shop",
            "persistentvolumes/",
            "services/shop",
            "nodes/"
        ],
        "expanding a pod asks for what pods use"
    );
    x.refresh(10);
    // A pod above the selection goes away: the selection stays on web-1-a.
    x.move_by(-1);
    assert_eq!(x.selected_node().map(|n| &*n.name), Some("web-1"));
    x.move_by(1);
    assert_eq!(x.selected_node().map(|n| &*n.name), Some("web-1-a"));
}

#[test]
fn a_configmap_secret_or_claim_shows_the_pods_that_use_it() {
    let snaps = cluster();
    let cm = open_all(
        &snaps,
        &root(BuiltinKind::ConfigMap, Some("shop")),
        &["configmap:shop/app-config"],
    );
    assert_eq!(
        shape(&cm),
        ["configmap/app-config", "  pod/web-1-a", "  pod/web-1-b"]
    );
    assert!(!cm[1].expandable, "a user is a leaf here");
    let claim = open_all(
        &snaps,
        &root(BuiltinKind::PersistentVolumeClaim, Some("shop")),
        &["persistentvolumeclaim:shop/data"],
    );
    assert_eq!(
        shape(&claim),
        [
            "persistentvolumeclaim/data",
            "  persistentvolume/pv-1 !",
            "  pod/web-1-a",
            "  pod/web-1-b"
        ]
    );
}
