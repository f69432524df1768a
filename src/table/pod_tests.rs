//! Pod row tests: every case of kubectl-columns.md §3.5 (P01–P67), the wide cases P39–P62,
//! and health colouring. Test-only.

use serde_json::{json, Value};

use crate::kube::kind::BuiltinKind;
use crate::kube::row::Health;
use crate::table::testutil::{ago, cells, row};

/// A pod fixture: phase Running and one app container `app` unless changed.
struct Pod {
    phase: &'static str,
    reason: &'static str,
    init_spec: Vec<(&'static str, bool)>,
    apps: Vec<&'static str>,
    init_st: Vec<Value>,
    st: Vec<Value>,
    conds: Vec<(&'static str, &'static str, &'static str)>,
    deleting: bool,
}

fn pod() -> Pod {
    Pod {
        phase: "Running",
        reason: "",
        init_spec: vec![],
        apps: vec!["app"],
        init_st: vec![],
        st: vec![],
        conds: vec![],
        deleting: false,
    }
}

impl Pod {
    fn phase(mut self, p: &'static str) -> Self {
        self.phase = p;
        self
    }
    fn reason(mut self, r: &'static str) -> Self {
        self.reason = r;
        self
    }
    fn apps(mut self, a: &[&'static str]) -> Self {
        self.apps = a.to_vec();
        self
    }
    /// Init containers in the spec: (name, is sidecar).
    fn init(mut self, i: &[(&'static str, bool)]) -> Self {
        self.init_spec = i.to_vec();
        self
    }
    fn init_st(mut self, s: Vec<Value>) -> Self {
        self.init_st = s;
        self
    }
    fn st(mut self, s: Vec<Value>) -> Self {
        self.st = s;
        self
    }
    fn cond(mut self, t: &'static str, s: &'static str, r: &'static str) -> Self {
        self.conds.push((t, s, r));
        self
    }
    fn deleting(mut self) -> Self {
        self.deleting = true;
        self
    }
    fn json(&self) -> Value {
        let init: Vec<Value> = self
            .init_spec
            .iter()
            .map(|(n, sc)| {
                if *sc {
                    json!({"name": n, "restartPolicy": "Always"})
                } else {
                    json!({"name": n})
                }
            })
            .collect();
        let apps: Vec<Value> = self
            .apps
            .iter()
            .map(|n| json!({"name": n, "image": "busybox"}))
            .collect();
        let conds: Vec<Value> = self
            .conds
            .iter()
            .map(|(t, s, r)| json!({"type": t, "status": s, "reason": r}))
            .collect();
        let mut meta = json!({"name": "p", "namespace": "ns", "uid": "u1", "creationTimestamp": ago(1000)});
        if self.deleting {
            meta["deletionTimestamp"] = json!(ago(5));
        }
        let mut status = json!({"phase": self.phase, "conditions": conds,
            "initContainerStatuses": self.init_st, "containerStatuses": self.st});
        if !self.reason.is_empty() {
            status["reason"] = json!(self.reason);
        }
        json!({"metadata": meta, "spec": {"initContainers": init, "containers": apps}, "status": status})
    }
}

fn run(n: &str) -> Value {
    json!({"name": n, "ready": false, "restartCount": 0, "state": {"running": {"startedAt": ago(900)}}})
}
fn run_r(n: &str) -> Value {
    let mut v = run(n);
    v["ready"] = json!(true);
    v
}
fn wait(n: &str, reason: &str) -> Value {
    json!({"name": n, "ready": false, "restartCount": 0, "state": {"waiting": {"reason": reason}}})
}
fn term(n: &str, code: i64, reason: &str, signal: i64) -> Value {
    let mut t = json!({"exitCode": code, "finishedAt": ago(50)});
    if !reason.is_empty() {
        t["reason"] = json!(reason);
    }
    if signal != 0 {
        t["signal"] = json!(signal);
    }
    json!({"name": n, "ready": false, "restartCount": 0, "state": {"terminated": t}})
}
fn rc(mut v: Value, count: i64, last_ago: Option<i64>) -> Value {
    v["restartCount"] = json!(count);
    if let Some(a) = last_ago {
        v["lastState"] = json!({"terminated": {"exitCode": 1, "finishedAt": ago(a)}});
    }
    v
}
fn started(mut v: Value, s: bool) -> Value {
    v["started"] = json!(s);
    v
}

#[test]
fn status_ready_restarts_cases() {
    let sc = |n| (n, true);
    let ic = |n| (n, false);
    let cases: Vec<(&str, Pod, &str, &str, &str)> = vec![
        (
            "P01",
            pod().st(vec![run_r("app")]).cond("Ready", "True", ""),
            "1/1",
            "Running",
            "0",
        ),
        (
            "P02",
            pod()
                .phase("Pending")
                .cond("PodScheduled", "False", "Unschedulable"),
            "0/1",
            "Pending",
            "0",
        ),
        (
            "P03",
            pod().phase("Pending").st(vec![wait("app", "ContainerCreating")]),
            "0/1",
            "ContainerCreating",
            "0",
        ),
        (
            "P04",
            pod().st(vec![rc(wait("app", "CrashLoopBackOff"), 5, Some(320))]),
            "0/1",
            "CrashLoopBackOff",
            "5 (5m20s ago)",
        ),
        (
            "P05",
            pod().phase("Pending").st(vec![wait("app", "ImagePullBackOff")]),
            "0/1",
            "ImagePullBackOff",
            "0",
        ),
        (
            "P06",
            pod()
                .phase("Pending")
                .init(&[ic("i1"), ic("i2")])
                .init_st(vec![run("i1"), wait("i2", "PodInitializing")])
                .st(vec![wait("app", "PodInitializing")]),
            "0/1",
            "Init:0/2",
            "0",
        ),
        (
            "P07",
            pod()
                .phase("Pending")
                .init(&[ic("i1"), ic("i2")])
                .init_st(vec![term("i1", 0, "Completed", 0), run("i2")])
                .st(vec![wait("app", "PodInitializing")]),
            "0/1",
            "Init:1/2",
            "0",
        ),
        (
            "P08",
            pod().phase("Pending").init(&[ic("i1")]).init_st(vec![rc(
                wait("i1", "CrashLoopBackOff"),
                3,
                Some(45),
            )]),
            "0/1",
            "Init:CrashLoopBackOff",
            "3 (45s ago)",
        ),
        (
            "P09",
            pod()
                .phase("Failed")
                .init(&[ic("i1")])
                .init_st(vec![term("i1", 1, "Error", 0)]),
            "0/1",
            "Init:Error",
            "0",
        ),
        (
            "P10",
            pod().init(&[ic("i1")]).init_st(vec![term("i1", 137, "", 9)]),
            "0/1",
            "Init:Signal:9",
            "0",
        ),
        (
            "P11",
            pod().init(&[ic("i1")]).init_st(vec![term("i1", 2, "", 0)]),
            "0/1",
            "Init:ExitCode:2",
            "0",
        ),
        (
            "P12",
            pod()
                .phase("Pending")
                .init(&[ic("i1")])
                .init_st(vec![wait("i1", "PodInitializing")]),
            "0/1",
            "Init:0/1",
            "0",
        ),
        (
            "P13",
            pod().phase("Failed").st(vec![term("app", 143, "", 15)]),
            "0/1",
            "Signal:15",
            "0",
        ),
        (
            "P14",
            pod().phase("Failed").st(vec![term("app", 3, "", 0)]),
            "0/1",
            "ExitCode:3",
            "0",
        ),
        (
            "P15",
            pod().phase("Succeeded").st(vec![term("app", 0, "Completed", 0)]),
            "0/1",
            "Completed",
            "0",
        ),
        (
            "P16",
            pod().phase("Failed").st(vec![term("app", 1, "Error", 0)]),
            "0/1",
            "Error",
            "0",
        ),
        (
            "P17",
            pod().st(vec![rc(term("app", 137, "OOMKilled", 0), 1, Some(100))]),
            "0/1",
            "OOMKilled",
            "1 (100s ago)",
        ),
        (
            "P18",
            pod()
                .apps(&["a", "b"])
                .st(vec![term("a", 0, "Completed", 0), run_r("b")])
                .cond("Ready", "False", ""),
            "1/2",
            "NotReady",
            "0",
        ),
        (
            "P19",
            pod()
                .apps(&["a", "b"])
                .st(vec![term("a", 0, "Completed", 0), run_r("b")])
                .cond("Ready", "True", ""),
            "1/2",
            "Running",
            "0",
        ),
        (
            "P20",
            pod()
                .apps(&["a", "b"])
                .st(vec![run("a"), term("b", 0, "Completed", 0)])
                .cond("Ready", "False", ""),
            "0/2",
            "Completed",
            "0",
        ),
        (
            "P21",
            pod().st(vec![run_r("app")]).deleting(),
            "1/1",
            "Terminating",
            "0",
        ),
        (
            "P22",
            pod()
                .phase("Succeeded")
                .st(vec![term("app", 0, "Completed", 0)])
                .deleting(),
            "0/1",
            "Completed",
            "0",
        ),
        (
            "P23",
            pod().reason("NodeLost").st(vec![run_r("app")]).deleting(),
            "1/1",
            "Unknown",
            "0",
        ),
        (
            "P24",
            pod()
                .phase("Pending")
                .cond("PodScheduled", "False", "SchedulingGated"),
            "0/1",
            "SchedulingGated",
            "0",
        ),
        (
            "P25",
            pod().phase("Failed").reason("Evicted"),
            "0/1",
            "Evicted",
            "0",
        ),
        (
            "P26",
            pod()
                .phase("Failed")
                .reason("Evicted")
                .st(vec![term("app", 137, "ContainerStatusUnknown", 0)]),
            "0/1",
            "ContainerStatusUnknown",
            "0",
        ),
        (
            "P27",
            pod()
                .init(&[sc("sc")])
                .init_st(vec![started(run_r("sc"), true)])
                .st(vec![run_r("app")])
                .cond("Initialized", "True", "")
                .cond("Ready", "True", ""),
            "2/2",
            "Running",
            "0",
        ),
        (
            "P28",
            pod()
                .init(&[sc("sc")])
                .init_st(vec![started(run("sc"), true)])
                .st(vec![run_r("app")])
                .cond("Initialized", "True", ""),
            "1/2",
            "Running",
            "0",
        ),
        (
            "P29",
            pod()
                .phase("Pending")
                .init(&[sc("sc")])
                .init_st(vec![started(run("sc"), false)])
                .st(vec![wait("app", "PodInitializing")])
                .cond("Initialized", "False", ""),
            "0/2",
            "Init:0/1",
            "0",
        ),
        (
            "P30",
            pod()
                .phase("Pending")
                .init(&[sc("sc"), ic("i2")])
                .init_st(vec![started(run_r("sc"), true), run("i2")])
                .cond("Initialized", "False", ""),
            "1/2",
            "Init:1/2",
            "0",
        ),
        (
            "P31",
            pod()
                .init(&[sc("sc")])
                .init_st(vec![started(
                    rc(wait("sc", "CrashLoopBackOff"), 4, Some(120)),
                    false,
                )])
                .st(vec![rc(run_r("app"), 1, Some(3600))])
                .cond("Initialized", "True", ""),
            "1/2",
            "Init:CrashLoopBackOff",
            "5 (2m ago)",
        ),
        (
            "P32",
            pod()
                .init(&[ic("i1")])
                .init_st(vec![rc(term("i1", 0, "Completed", 0), 2, Some(600))])
                .st(vec![run_r("app")])
                .cond("Initialized", "True", ""),
            "1/1",
            "Running",
            "0",
        ),
        (
            "P33",
            pod().st(vec![rc(run_r("app"), 3, None)]),
            "1/1",
            "Running",
            "3",
        ),
        (
            "P34",
            pod()
                .phase("Succeeded")
                .init(&[sc("sc")])
                .init_st(vec![started(term("sc", 137, "Error", 0), false)])
                .st(vec![term("app", 0, "Completed", 0)])
                .cond("Initialized", "True", ""),
            "0/2",
            "Completed",
            "0",
        ),
        (
            "P35",
            pod()
                .phase("Succeeded")
                .init(&[sc("sc")])
                .init_st(vec![started(term("sc", 137, "Error", 0), false)])
                .st(vec![term("app", 0, "Completed", 0)]),
            "0/2",
            "Init:Error",
            "0",
        ),
        (
            "P36",
            pod()
                .apps(&["a", "b"])
                .st(vec![wait("a", "CrashLoopBackOff"), wait("b", "ImagePullBackOff")]),
            "0/2",
            "CrashLoopBackOff",
            "0",
        ),
        (
            "P37",
            pod().phase("Failed").reason("NodeAffinity"),
            "0/1",
            "NodeAffinity",
            "0",
        ),
        (
            "P38",
            pod().phase("Pending").st(vec![wait("app", "")]),
            "0/1",
            "Pending",
            "0",
        ),
        (
            "P42",
            pod()
                .init(&[ic("i1"), ic("i2")])
                .init_st(vec![term("i1", 0, "Completed", 0), wait("i2", "ErrImagePull")]),
            "0/1",
            "Init:ErrImagePull",
            "0",
        ),
        (
            "P43",
            pod()
                .init(&[sc("sc")])
                .init_st(vec![started(rc(run_r("sc"), 2, Some(7200)), true)])
                .st(vec![rc(run_r("app"), 1, Some(300))])
                .cond("Initialized", "True", ""),
            "2/2",
            "Running",
            "3 (5m ago)",
        ),
        (
            "P44",
            pod()
                .st(vec![rc(wait("app", "CrashLoopBackOff"), 7, Some(100_000))])
                .deleting(),
            "0/1",
            "Terminating",
            "7 (27h ago)",
        ),
        ("P45", pod().phase("Unknown"), "0/1", "Unknown", "0"),
        (
            "P46",
            pod().init(&[ic("i1"), sc("sc"), ic("i3")]).init_st(vec![
                term("i1", 0, "Completed", 0),
                started(run_r("sc"), true),
                wait("i3", "CreateContainerConfigError"),
            ]),
            "1/2",
            "Init:CreateContainerConfigError",
            "0",
        ),
        (
            "P47",
            pod()
                .phase("Failed")
                .apps(&["a", "b"])
                .st(vec![term("a", 1, "Error", 0), term("b", 0, "Completed", 0)]),
            "0/2",
            "Error",
            "0",
        ),
        (
            "P48",
            pod()
                .phase("Succeeded")
                .apps(&["a", "b"])
                .st(vec![term("a", 0, "Completed", 0), term("b", 0, "Completed", 0)]),
            "0/2",
            "Completed",
            "0",
        ),
        (
            "P49",
            pod().phase("Pending").init(&[ic("i1")]),
            "0/1",
            "Pending",
            "0",
        ),
        (
            "P50",
            pod()
                .phase("Pending")
                .init(&[ic("i1")])
                .st(vec![wait("app", "PodInitializing")]),
            "0/1",
            "PodInitializing",
            "0",
        ),
        (
            "P51",
            pod()
                .apps(&["a", "b", "c"])
                .st(vec![run_r("a"), run("b"), run_r("c")])
                .cond("Ready", "False", ""),
            "2/3",
            "Running",
            "0",
        ),
        (
            "P53",
            pod().phase("Failed").reason("Evicted").deleting(),
            "0/1",
            "Evicted",
            "0",
        ),
        (
            "P54",
            pod().st(vec![rc(term("app", 0, "Completed", 0), 4, Some(11_100))]),
            "0/1",
            "Completed",
            "4 (3h5m ago)",
        ),
        (
            "P56",
            pod().phase("Pending").deleting(),
            "0/1",
            "Terminating",
            "0",
        ),
        (
            "P57",
            pod()
                .phase("Pending")
                .reason("SomeReason")
                .cond("PodScheduled", "False", "SchedulingGated"),
            "0/1",
            "SchedulingGated",
            "0",
        ),
        (
            "P58",
            pod()
                .init(&[ic("i1")])
                .init_st(vec![started(run_r("ghost"), true)])
                .st(vec![run_r("app")])
                .cond("Initialized", "True", ""),
            "1/1",
            "Init:0/1",
            "0",
        ),
        (
            "P59",
            pod()
                .init(&[sc("sc")])
                .init_st(vec![started(term("sc", 0, "Completed", 0), false)])
                .st(vec![run_r("app")])
                .cond("Initialized", "True", ""),
            "1/2",
            "Running",
            "0",
        ),
        (
            "P63",
            pod()
                .phase("Failed")
                .apps(&["a", "z"])
                .st(vec![term("a", 0, "Completed", 0), term("z", 1, "Error", 0)]),
            "0/2",
            "Error",
            "0",
        ),
        (
            "P64",
            pod()
                .apps(&["a", "b", "c"])
                .st(vec![
                    term("a", 0, "Completed", 0),
                    run_r("b"),
                    term("c", 1, "Error", 0),
                ])
                .cond("Ready", "False", ""),
            "1/3",
            "Error",
            "0",
        ),
        (
            "P66",
            pod()
                .phase("Failed")
                .apps(&["a", "b"])
                .st(vec![term("a", 0, "Completed", 0), term("b", 137, "OOMKilled", 0)]),
            "0/2",
            "OOMKilled",
            "0",
        ),
        (
            "P67",
            pod()
                .phase("Failed")
                .apps(&["a", "b"])
                .st(vec![term("a", 0, "Completed", 0), term("b", 2, "", 0)]),
            "0/2",
            "ExitCode:2",
            "0",
        ),
    ];
    let n = cases.len();
    for (id, p, ready, status, restarts) in cases {
        let got = cells(BuiltinKind::Pod, p.json());
        assert_eq!(
            (got[0].as_str(), got[1].as_str(), got[2].as_str()),
            (ready, status, restarts),
            "{id}"
        );
        assert_eq!(got[3], "16m", "{id} AGE");
    }
    assert_eq!(n, 58);
}

#[test]
fn wide_columns() {
    let base = |status: Value, spec: Value| json!({"metadata": {"name": "p", "creationTimestamp": ago(10)}, "spec": spec, "status": status});
    let cases = [
        (
            "P39",
            base(
                json!({"phase": "Running", "podIP": "10.0.0.5", "podIPs": [{"ip": "10.0.0.5"}, {"ip": "fd00::5"}],
                    "conditions": [{"type": "g1", "status": "True"}, {"type": "g2", "status": "False"}]}),
                json!({"nodeName": "node-1", "containers": [{"name": "a"}],
                    "readinessGates": [{"conditionType": "g1"}, {"conditionType": "g2"}]}),
            ),
            ["10.0.0.5", "node-1", "<none>", "1/2"],
        ),
        (
            "P40",
            base(json!({"phase": "Pending"}), json!({})),
            ["<none>", "<none>", "<none>", "<none>"],
        ),
        (
            "P41",
            base(
                json!({"phase": "Pending", "nominatedNodeName": "node-9"}),
                json!({"readinessGates": [{"conditionType": "g1"}]}),
            ),
            ["<none>", "<none>", "node-9", "0/1"],
        ),
        (
            "P60",
            base(
                json!({"phase": "Running", "podIP": "10.9.9.9"}),
                json!({"nodeName": "node-1"}),
            ),
            ["10.9.9.9", "node-1", "<none>", "<none>"],
        ),
        (
            "P61",
            base(
                json!({"phase": "Running", "conditions": [{"type": "g1", "status": "True"}]}),
                json!({"nodeName": "node-1", "readinessGates": [{"conditionType": "g1"}, {"conditionType": "g1"}]}),
            ),
            ["<none>", "node-1", "<none>", "2/2"],
        ),
    ];
    for (id, fixture, want) in cases {
        let got = cells(BuiltinKind::Pod, fixture);
        assert_eq!(got[4..], want, "{id}");
    }
}

#[test]
fn p62_no_creation_timestamp_is_unknown_age() {
    let got = cells(BuiltinKind::Pod, json!({"metadata": {"name": "p"}}));
    assert_eq!(got[3], "<unknown>");
    assert_eq!(got[..3], ["0/0", "", "0"]);
}

#[test]
fn health_classes() {
    let cases = [
        (pod().st(vec![run_r("app")]), Health::Ok),
        (
            pod().apps(&["a", "b"]).st(vec![run_r("a"), run("b")]),
            Health::Warn,
        ),
        (pod().phase("Pending"), Health::Warn),
        (
            pod()
                .phase("Pending")
                .init(&[("i", false)])
                .init_st(vec![run("i")]),
            Health::Warn,
        ),
        (pod().st(vec![run_r("app")]).deleting(), Health::Warn),
        (pod().st(vec![wait("app", "CrashLoopBackOff")]), Health::Error),
        (pod().st(vec![wait("app", "ErrImagePull")]), Health::Error),
        (pod().phase("Failed").reason("Evicted"), Health::Error),
        (
            pod()
                .init(&[("i", false)])
                .init_st(vec![term("i", 1, "Error", 0)]),
            Health::Error,
        ),
        (
            pod().phase("Succeeded").st(vec![term("app", 0, "Completed", 0)]),
            Health::Done,
        ),
    ];
    for (i, (p, want)) in cases.into_iter().enumerate() {
        assert_eq!(row(BuiltinKind::Pod, p.json()).health, want, "case {i}");
    }
}

#[test]
fn row_identity_and_sanitizing() {
    let r = row(
        BuiltinKind::Pod,
        json!({"metadata": {"name": "evil\u{1b}[31m", "namespace": "ns", "uid": "u", "resourceVersion": "42",
            "labels": {"z": "1", "app": "web"}},
            "status": {"phase": "Pending", "reason": "Bad\nReason"}}),
    );
    assert_eq!(&*r.name, "evil^[[31m");
    assert_eq!(r.namespace.as_deref(), Some("ns"));
    assert_eq!(&*r.labels[0].0, "app");
    assert_eq!(crate::table::format::format_cell(&r.cells[1], 0), "Bad Reason");
    assert_eq!(r.drill, None);
}

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

/// Decode cost of 100k realistic pods (run with `--ignored --nocapture`; the budget is 3 s of
/// CPU in release builds).
#[test]
#[ignore]
fn decode_100k_pods_cost() {
    let docs: Vec<Vec<u8>> = (0..100_000).map(|i| serde_json::to_vec(&realistic_pod(i)).unwrap()).collect();
    let ctx = crate::kube::row::RowCtx::default();
    let bytes: usize = docs.iter().map(Vec::len).sum();
    let t = std::time::Instant::now();
    let rows: Vec<_> = docs.iter().map(|d| crate::table::decode_row(BuiltinKind::Pod, d, &ctx).unwrap()).collect();
    eprintln!("decoded {} pods ({} MB) in {:?}", rows.len(), bytes / 1_000_000, t.elapsed());
    assert_eq!(crate::table::testutil::texts(&rows[7])[..2], ["1/1", "Running"]);
}
