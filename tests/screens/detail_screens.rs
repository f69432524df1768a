//! Screen snapshots of the detail views on ratatui's TestBackend with a fixed clock: the YAML
//! view of a Deployment (managedFields hidden, then shown; an escape sequence in a label
//! drawn harmless), a Secret's masked YAML, a deleted object, the describe views of a pod
//! and a node with the object's events at the end, and a CRD list with printer columns.

use std::sync::Arc;

use ktui::app::detail::model::DetailState;
use ktui::app::state::{ListState, ObjectFeed, Screen, Source, UiState};
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::key::ResourceKey;
use ktui::kube::kind::{ApiResource, Kind, PrinterColumn};
use ktui::kube::object::ObjectView;
use ktui::kube::row::RowCtx;
use ktui::kube::sink::RowBuilder;
use ktui::kube::store::{Slot, StoreWriter};
use ktui::kube::sync::SyncState;
use ktui::table::custom::{CustomObj, CustomRows};
use ktui::table::decode_row;
use serde_json::{json, Value};

use crate::screen;

use screen::NOW;

fn ts(secs_ago: i64) -> String {
    jiff::Timestamp::from_second(NOW - secs_ago).unwrap().to_string()
}

fn connected(first: Screen) -> UiState {
    let mut state = screen::ui_state(first, Some("shop".into()), false);
    screen::connect(&mut state, "prod-eu");
    state
}

fn render(state: &mut UiState, w: u16, h: u16) -> String {
    format!("{}", screen::render(state, w, h).backend())
}

fn detail(kind: BuiltinKind, ns: Option<&str>, obj: Value, deleted: bool, describe: bool) -> DetailState {
    let key = ResourceKey::new(kind, ns);
    let name = obj["metadata"]["name"].as_str().unwrap().to_owned();
    let mut y = DetailState::new(key.clone(), &name);
    y.describe = describe;
    y.clock = Some(NOW);
    y.watch = Some(ObjectFeed::fixed(
        key,
        ObjectView {
            object: Some(Arc::new(obj)),
            deleted,
            state: SyncState::Live,
            rev: 1,
        },
    ));
    y
}

fn deployment() -> Value {
    json!({
        "metadata": {"name": "web", "namespace": "shop", "uid": "u-web", "resourceVersion": "812",
            "creationTimestamp": ts(86_400 * 3), "generation": 4,
            "labels": {"app": "web", "evil": "x\u{1b}[2Jy"},
            "managedFields": [{"manager": "kubectl", "operation": "Apply", "apiVersion": "apps/v1"}]},
        "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": "nginx:1.27",
                    "ports": [{"containerPort": 8080, "protocol": "TCP"}]}]}}},
        "status": {"replicas": 3, "readyReplicas": 2, "availableReplicas": 2, "updatedReplicas": 3,
            "conditions": [{"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable",
                "message": "Deployment does not have minimum availability."}]}
    })
}

#[test]
fn yaml_view_hides_managed_fields_until_toggled() {
    let y = detail(BuiltinKind::Deployment, Some("shop"), deployment(), false, false);
    let mut state = connected(Screen::Yaml(Box::new(y)));
    let text = render(&mut state, 100, 30);
    assert!(
        !text.contains("managedFields") && !text.contains('\u{1b}'),
        "{text}"
    );
    insta::assert_snapshot!("yaml_deployment_100x30", text);
    if let Screen::Yaml(y) = state.top_mut() {
        y.show_managed = true;
    }
    let text = render(&mut state, 100, 30);
    assert!(
        text.contains("managedFields:") && text.contains("manager: kubectl"),
        "{text}"
    );
}

#[test]
fn yaml_of_a_secret_masks_values_and_a_deleted_object_says_so() {
    let secret = json!({"metadata": {"name": "db", "namespace": "shop", "creationTimestamp": ts(60)},
        "type": "Opaque", "data": {"password": "aHVudGVyMg==", "user": "YWRtaW4="}});
    let y = detail(BuiltinKind::Secret, Some("shop"), secret, true, false);
    let mut state = connected(Screen::Yaml(Box::new(y)));
    let text = render(&mut state, 80, 16);
    assert!(
        !text.contains("aHVudGVyMg") && !text.contains("hunter2"),
        "{text}"
    );
    insta::assert_snapshot!("yaml_secret_deleted_80x16", text);
}

#[test]
fn describe_of_a_pod_ends_with_its_events() {
    let pod = json!({
        "metadata": {"name": "web-0", "namespace": "shop", "uid": "u-web-0", "creationTimestamp": ts(7200),
            "labels": {"app": "web"},
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "web", "controller": true}]},
        "spec": {"nodeName": "node-1", "serviceAccountName": "default",
            "containers": [{"name": "web", "image": "nginx:1.27", "ports": [{"containerPort": 80}],
                "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}}}],
            "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "data-web-0"}}]},
        "status": {"phase": "Running", "podIPs": [{"ip": "10.1.0.7"}],
            "containerStatuses": [{"name": "web", "ready": false, "restartCount": 4,
                "state": {"waiting": {"reason": "CrashLoopBackOff"}},
                "lastState": {"terminated": {"reason": "Error", "exitCode": 1}}}],
            "conditions": [{"type": "Ready", "status": "False", "reason": "ContainersNotReady"}]}
    });
    let mut y = detail(BuiltinKind::Pod, Some("shop"), pod, false, true);
    let events_key = y.events_key().unwrap();
    let slot = Slot::new(events_key, 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut w = StoreWriter::new(slot.clone(), tx);
    w.init();
    for (name, reason, ty, ago, count, msg) in [
        (
            "e1",
            "Scheduled",
            "Normal",
            7200,
            1,
            "Successfully assigned shop/web-0 to node-1",
        ),
        (
            "e2",
            "BackOff",
            "Warning",
            30,
            42,
            "Back-off restarting failed container web",
        ),
    ] {
        let ev = json!({"metadata": {"name": name, "namespace": "shop", "uid": name, "creationTimestamp": ts(7000)},
            "involvedObject": {"kind": "Pod", "name": "web-0", "namespace": "shop", "uid": "u-web-0"},
            "type": ty, "reason": reason, "message": msg, "count": count, "lastTimestamp": ts(ago), "firstTimestamp": ts(7000),
            "source": {"component": if ty == "Normal" { "default-scheduler" } else { "kubelet" }}});
        let row = decode_row(BuiltinKind::Event, ev.to_string().as_bytes(), &RowCtx::default()).unwrap();
        w.init_apply(row);
    }
    w.init_done(Some("5".into()));
    y.events = Some(Source::fixed(slot));
    let mut state = connected(Screen::Yaml(Box::new(y)));
    let text = render(&mut state, 110, 48);
    for want in [
        "Containers:",
        "CrashLoopBackOff",
        "Events:",
        "BackOff",
        "(x42 over",
    ] {
        assert!(text.contains(want), "{want}\n{text}");
    }
    insta::assert_snapshot!("describe_pod_110x48", text);
}

#[test]
fn describe_of_a_node() {
    let node = json!({
        "metadata": {"name": "node-1", "uid": "u-n1", "creationTimestamp": ts(86_400 * 30),
            "labels": {"node-role.kubernetes.io/control-plane": "", "kubernetes.io/arch": "amd64"}},
        "spec": {"podCIDR": "10.1.0.0/24", "taints": [{"key": "node.kubernetes.io/unreachable", "effect": "NoSchedule"}]},
        "status": {"addresses": [{"type": "InternalIP", "address": "10.0.0.11"}, {"type": "Hostname", "address": "node-1"}],
            "capacity": {"cpu": "4", "memory": "16Gi", "pods": "110"},
            "allocatable": {"cpu": "3800m", "memory": "15Gi", "pods": "110"},
            "nodeInfo": {"kubeletVersion": "v1.37.2", "osImage": "Ubuntu 24.04", "kernelVersion": "6.8.0",
                "containerRuntimeVersion": "containerd://2.0.0", "architecture": "amd64"},
            "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady", "message": "kubelet is posting ready status"}]}
    });
    let y = detail(BuiltinKind::Node, None, node, false, true);
    let mut state = connected(Screen::Yaml(Box::new(y)));
    let text = render(&mut state, 110, 48);
    for want in [
        "Addresses:",
        "Taints:",
        "node.kubernetes.io/unreachable:NoSchedule",
        "Capacity:",
    ] {
        assert!(text.contains(want), "{want}\n{text}");
    }
    insta::assert_snapshot!("describe_node_110x48", text);
}

#[test]
fn crd_list_shows_printer_columns_and_wide_adds_priority_ones() {
    let col = |name: &str, ty: &str, path: &str, priority: i32| PrinterColumn {
        name: name.into(),
        column_type: ty.into(),
        json_path: path.into(),
        priority,
    };
    let res = Arc::new(ApiResource {
        group: "demo.ktui.dev".into(),
        version: "v1".into(),
        plural: "gizmos".into(),
        singular: "gizmo".into(),
        kind: "Gizmo".into(),
        namespaced: true,
        verbs: vec!["list".into(), "watch".into()],
        columns: vec![
            col("Color", "string", ".spec.color", 0),
            col("Size", "integer", ".spec.size", 0),
            col(
                "Ready",
                "string",
                r#".status.conditions[?(@.type=="Ready")].status"#,
                0,
            ),
            col("Owner", "string", ".spec.owner", 1),
            col("Age", "date", ".metadata.creationTimestamp", 0),
        ]
        .into(),
        from_crd: true,
        ..Default::default()
    });
    let key = ResourceKey::new(Kind::Api(res.clone()), Some("shop"));
    let slot = Slot::new(key.clone(), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut w = StoreWriter::new(slot.clone(), tx);
    let rows = CustomRows::new(&res);
    w.init();
    for (name, color, size, ready, age) in [
        ("sprocket", "red", json!(3), "True", 120),
        ("widget", "blue", json!("x"), "False", 86_400),
    ] {
        let obj = json!({"metadata": {"name": name, "namespace": "shop", "creationTimestamp": ts(age)},
            "spec": {"color": color, "size": size, "owner": "team-x"},
            "status": {"conditions": [{"type": "Synced", "status": "True"}, {"type": "Ready", "status": ready}]}});
        w.init_apply(rows.build(CustomObj(obj), &RowCtx::default()));
    }
    w.init_done(Some("9".into()));
    let mut list = ListState::new(key, None);
    list.source = Some(Source::fixed(slot));
    let mut state = connected(Screen::List(Box::new(list)));
    let text = render(&mut state, 80, 12);
    assert!(!text.contains("OWNER"), "{text}");
    insta::assert_snapshot!("crd_gizmos_80x12", text);
    if let Some(l) = state.top_list_mut() {
        l.wide = true;
    }
    let text = render(&mut state, 80, 12);
    assert!(text.contains("OWNER") && text.contains("team-x"), "{text}");
}
