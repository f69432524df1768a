//! The usage capacity of pod rows (containers' requests and limits, sidecars after them, plain
//! init containers left out), from JSON and from protobuf; and nodes' allocatable through
//! protobuf (the JSON cases are in `node.rs`). Test-only.

use std::sync::Arc;

use serde_json::json;

use crate::decode_protobuf_rows;
use crate::testutil::row;
use ktui_kube::builtin::BuiltinKind;
use ktui_kube::capacity::{Capacity, ContainerDemand};
use ktui_kube::row::{Row, RowCtx};

const MI: u64 = 1 << 20;

fn demand(name: &str, cpu: [Option<u64>; 2], mem: [Option<u64>; 2]) -> ContainerDemand {
    ContainerDemand {
        name: name.into(),
        cpu_request: cpu[0],
        cpu_limit: cpu[1],
        memory_request: mem[0],
        memory_limit: mem[1],
    }
}

fn pod_demands(r: &Row) -> &[ContainerDemand] {
    match r.capacity.as_deref() {
        Some(Capacity::Pod(d)) => d,
        other => panic!("not a pod capacity: {other:?}"),
    }
}

/// The pod every case below reads: `web` sets requests and limits, `log` only requests, the
/// `init` init container is plain and `mesh` a sidecar.
fn expected() -> Vec<ContainerDemand> {
    vec![
        demand(
            "web",
            [Some(250_000_000), Some(1_000_000_000)],
            [Some(512 * MI), Some(1_000_000_000)],
        ),
        demand("log", [Some(1_500_000), None], [Some(64 * MI), None]),
        demand("mesh", [Some(100_000_000), None], [None, Some(128 * MI)]),
    ]
}

#[test]
fn pod_capacity_lists_app_containers_then_sidecars() {
    let p = json!({"metadata": {"name": "p", "namespace": "ns"},
        "spec": {
            "initContainers": [
                {"name": "init", "resources": {"requests": {"cpu": "2", "memory": "1Gi"}}},
                {"name": "mesh", "restartPolicy": "Always",
                    "resources": {"requests": {"cpu": "100m"}, "limits": {"memory": "128Mi"}}},
            ],
            "containers": [
                {"name": "web", "resources": {
                    "requests": {"cpu": "250m", "memory": "512Mi", "ephemeral-storage": "1Gi"},
                    "limits": {"cpu": "1", "memory": "1G", "nvidia.com/gpu": "1"}}},
                {"name": "log", "resources": {"requests": {"cpu": 0.0015, "memory": "64Mi"}, "limits": null}},
            ]},
        "status": {"phase": "Running"}});
    let r = row(BuiltinKind::Pod, p);
    assert_eq!(pod_demands(&r), expected());
    assert_eq!(r.cells.len(), crate::pod::SPEC.columns.len());
}

#[test]
fn containers_without_resources_keep_their_entry() {
    let p = json!({"metadata": {"name": "p"},
        "spec": {"containers": [{"name": "a"}, {"name": "b", "resources": {}},
            {"name": "c\u{1b}[2J", "resources": {"requests": {"cpu": "lots", "memory": "-1"}}}]}});
    let r = row(BuiltinKind::Pod, p);
    assert_eq!(
        pod_demands(&r),
        [
            demand("a", [None; 2], [None; 2]),
            demand("b", [None; 2], [None; 2]),
            demand("c^[[2J", [None; 2], [None; 2])
        ]
    );
    assert_eq!(
        crate::testutil::texts(&r)[0],
        "0/3",
        "READY still counts the containers"
    );
}

#[test]
fn container_names_are_interned_across_pods() {
    let ctx = RowCtx::default();
    let p = json!({"metadata": {"name": "p"}, "spec": {"containers": [{"name": "web"}]}});
    let bytes = serde_json::to_vec(&p).unwrap();
    let a = crate::decode_row(BuiltinKind::Pod, &bytes, &ctx).unwrap();
    let b = crate::decode_row(BuiltinKind::Pod, &bytes, &ctx).unwrap();
    assert!(Arc::ptr_eq(&pod_demands(&a)[0].name, &pod_demands(&b)[0].name));
}

#[test]
fn null_and_absent_containers_read_as_none() {
    for spec in [json!({}), json!({"containers": null})] {
        let r = row(BuiltinKind::Pod, json!({"metadata": {"name": "p"}, "spec": spec}));
        assert!(pod_demands(&r).is_empty());
        assert_eq!(crate::testutil::texts(&r)[0], "0/0");
    }
}

// A minimal protobuf writer: length-delimited fields only (all the fields below are).

fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn field(out: &mut Vec<u8>, number: u32, payload: &[u8]) {
    varint(out, u64::from(number) << 3 | 2);
    varint(out, payload.len() as u64);
    out.extend_from_slice(payload);
}

pub(super) fn msg(fields: &[(u32, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    for (n, p) in fields {
        field(&mut out, *n, p);
    }
    out
}

/// A `map<string, Quantity>` (a `ResourceList`) as the entries of field `number`.
fn resource_list(out: &mut Vec<u8>, number: u32, entries: &[(&str, &str)]) {
    for (k, v) in entries {
        let quantity = msg(&[(1, v.as_bytes())]);
        field(out, number, &msg(&[(1, k.as_bytes()), (2, &quantity)]));
    }
}

/// `ResourceRequirements{limits: 1, requests: 2}`.
fn requirements(requests: &[(&str, &str)], limits: &[(&str, &str)]) -> Vec<u8> {
    let mut out = Vec::new();
    resource_list(&mut out, 1, limits);
    resource_list(&mut out, 2, requests);
    out
}

/// `k8s\0` + `runtime.Unknown{typeMeta: {apiVersion, kind}, raw}` of a one-item list.
pub(super) fn list_body(kind: &str, item: &[u8]) -> Vec<u8> {
    let type_meta = msg(&[(1, b"v1"), (2, kind.as_bytes())]);
    let raw = msg(&[(1, &[]), (2, item)]);
    let mut body = b"k8s\0".to_vec();
    body.extend(msg(&[(1, &type_meta), (2, &raw)]));
    body
}

#[test]
fn pod_capacity_decodes_from_protobuf() {
    // Container: name 1, resources 8, restartPolicy 24; PodSpec: containers 2, initContainers 20.
    let web = requirements(
        &[("cpu", "250m"), ("memory", "512Mi")],
        &[("cpu", "1"), ("memory", "1G")],
    );
    let log = requirements(&[("cpu", "1500u"), ("memory", "64Mi")], &[]);
    let mesh = requirements(&[("cpu", "100m")], &[("memory", "128Mi")]);
    let init = requirements(&[("cpu", "2")], &[]);
    let spec = msg(&[
        (2, &msg(&[(1, b"web"), (8, &web)])),
        (2, &msg(&[(1, b"log"), (8, &log)])),
        (20, &msg(&[(1, b"init"), (8, &init)])),
        (20, &msg(&[(1, b"mesh"), (8, &mesh), (24, b"Always")])),
    ]);
    let pod = msg(&[
        (1, &msg(&[(1, b"p"), (3, b"ns")])),
        (2, &spec),
        (3, &msg(&[(1, b"Running")])),
    ]);
    let (rows, skipped) =
        decode_protobuf_rows(BuiltinKind::Pod, &list_body("PodList", &pod), &RowCtx::default()).unwrap();
    assert!(skipped.is_empty(), "{skipped:?}");
    assert_eq!(pod_demands(&rows[0]), expected());
    assert_eq!(crate::testutil::texts(&rows[0])[0], "0/3");
}

#[test]
fn node_allocatable_decodes_from_protobuf() {
    // NodeStatus: capacity 1, allocatable 2.
    let mut status = Vec::new();
    resource_list(&mut status, 1, &[("cpu", "4"), ("memory", "9Gi")]);
    resource_list(
        &mut status,
        2,
        &[("cpu", "3920m"), ("memory", "8Gi"), ("pods", "110")],
    );
    let node = msg(&[(1, &msg(&[(1, b"n")])), (3, &status)]);
    let (rows, skipped) = decode_protobuf_rows(
        BuiltinKind::Node,
        &list_body("NodeList", &node),
        &RowCtx::default(),
    )
    .unwrap();
    assert!(skipped.is_empty(), "{skipped:?}");
    assert_eq!(
        rows[0].capacity.as_deref(),
        Some(&Capacity::Node {
            cpu_nanos: Some(3_920_000_000),
            memory_bytes: Some(8 << 30),
            pressure: Default::default(),
        })
    );
}

/// What a pod row's capacity holds, unshared (nothing pools capacities): one `Arc` of 16 +
/// 40 bytes and 80 bytes per container — 136 bytes for a one-container pod, 20 MB over
/// 150,000 such pods (plus malloc's own per allocation), on top of the row's 8-byte pointer.
/// (40, not 32: the node variant carries its pressure conditions for `:pulse`.)
#[test]
fn pod_capacity_costs_56_bytes_plus_80_per_container() {
    assert_eq!(std::mem::size_of::<Capacity>(), 40);
    assert_eq!(std::mem::size_of::<ContainerDemand>(), 80);
}

#[test]
fn replicas_share_one_capacity() {
    use ktui_kube::row::IntoRow;
    let ctx = RowCtx::default();
    let pod = |name: &str| {
        serde_json::from_value::<crate::pod::PodObj>(serde_json::json!({
            "metadata": {"name": name, "namespace": "a"},
            "spec": {"containers": [{"name": "app", "resources": {"requests": {"cpu": "100m"}}}]}
        }))
        .expect("pod")
        .into_row(&ctx)
    };
    let (a, b) = (pod("web-1"), pod("web-2"));
    let (a, b) = (a.capacity.expect("a"), b.capacity.expect("b"));
    assert!(Arc::ptr_eq(&a, &b), "equal demands, one allocation");
}
