//! Pod row tests: every case of kubectl-columns.md §3.5 (P01–P67, split over `cases_a` and
//! `cases_b`), the wide cases P39–P62, health colouring, and a decode-cost check. Test-only.

use serde_json::{json, Value};

use ktui_kube::builtin::BuiltinKind;
use ktui_kube::row::Health;
use crate::testutil::{ago, cells, row};

mod cases_a;
mod cases_b;
mod realistic;
mod resources;
mod uses;

/// A pod fixture: phase Running and one app container `app` unless changed.
pub(super) struct Pod {
    phase: &'static str,
    reason: &'static str,
    init_spec: Vec<(&'static str, bool)>,
    apps: Vec<&'static str>,
    init_st: Vec<Value>,
    st: Vec<Value>,
    conds: Vec<(&'static str, &'static str, &'static str)>,
    deleting: bool,
}

pub(super) fn pod() -> Pod {
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
    pub(super) fn phase(mut self, p: &'static str) -> Self {
        self.phase = p;
        self
    }
    pub(super) fn reason(mut self, r: &'static str) -> Self {
        self.reason = r;
        self
    }
    pub(super) fn apps(mut self, a: &[&'static str]) -> Self {
        self.apps = a.to_vec();
        self
    }
    /// Init containers in the spec: (name, is sidecar).
    pub(super) fn init(mut self, i: &[(&'static str, bool)]) -> Self {
        self.init_spec = i.to_vec();
        self
    }
    pub(super) fn init_st(mut self, s: Vec<Value>) -> Self {
        self.init_st = s;
        self
    }
    pub(super) fn st(mut self, s: Vec<Value>) -> Self {
        self.st = s;
        self
    }
    pub(super) fn cond(mut self, t: &'static str, s: &'static str, r: &'static str) -> Self {
        self.conds.push((t, s, r));
        self
    }
    pub(super) fn deleting(mut self) -> Self {
        self.deleting = true;
        self
    }
    pub(super) fn json(&self) -> Value {
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

pub(super) fn run(n: &str) -> Value {
    json!({"name": n, "ready": false, "restartCount": 0, "state": {"running": {"startedAt": ago(900)}}})
}
pub(super) fn run_r(n: &str) -> Value {
    let mut v = run(n);
    v["ready"] = json!(true);
    v
}
pub(super) fn wait(n: &str, reason: &str) -> Value {
    json!({"name": n, "ready": false, "restartCount": 0, "state": {"waiting": {"reason": reason}}})
}
pub(super) fn term(n: &str, code: i64, reason: &str, signal: i64) -> Value {
    let mut t = json!({"exitCode": code, "finishedAt": ago(50)});
    if !reason.is_empty() {
        t["reason"] = json!(reason);
    }
    if signal != 0 {
        t["signal"] = json!(signal);
    }
    json!({"name": n, "ready": false, "restartCount": 0, "state": {"terminated": t}})
}
pub(super) fn rc(mut v: Value, count: i64, last_ago: Option<i64>) -> Value {
    v["restartCount"] = json!(count);
    if let Some(a) = last_ago {
        v["lastState"] = json!({"terminated": {"exitCode": 1, "finishedAt": ago(a)}});
    }
    v
}
pub(super) fn started(mut v: Value, s: bool) -> Value {
    v["started"] = json!(s);
    v
}

#[test]
fn status_ready_restarts_cases() {
    let mut cases = cases_a::cases();
    cases.extend(cases_b::cases());
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
    assert_eq!(crate::format::format_cell(&r.cells[1], 0), "Bad Reason");
    assert_eq!(r.drill, None);
}
