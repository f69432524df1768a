//! Pod fixtures of the golden column test: one pod per odd STATUS/READY/RESTARTS case of
//! kubectl-columns.md §3.5, the `/status` patches that produce them, and what the server must
//! print for them.

use serde_json::{json, Value};

use ktui::kube::builtin::BuiltinKind;

use super::fixtures::at;

fn pod(name: &str, inits: &[(&str, bool)], apps: &[&str], extra_spec: Value) -> Value {
    let inits: Vec<Value> = inits
        .iter()
        .map(|(n, sidecar)| {
            let mut c = json!({"name": n, "image": "busybox"});
            if *sidecar {
                c["restartPolicy"] = json!("Always");
            }
            c
        })
        .collect();
    let apps: Vec<Value> = apps
        .iter()
        .map(|n| json!({"name": n, "image": "busybox"}))
        .collect();
    let mut spec = json!({"restartPolicy": "Never", "initContainers": inits, "containers": apps});
    if let (Some(s), Some(extra)) = (spec.as_object_mut(), extra_spec.as_object()) {
        s.extend(extra.clone());
    }
    let mut meta = json!({"name": name});
    // Hollow kubelets run whatever lands on node-1..node-N and would overwrite the /status
    // patches: no scheduler binds these pods, and the finalized ones are bound to the test's
    // own kubelet-less node.
    spec["schedulerName"] = json!(NO_SCHEDULER);
    if FINALIZED_PODS.contains(&name) {
        meta["finalizers"] = json!(["example.com/hold"]);
        // bound, so the pod GC does not fail it as an unscheduled terminating pod
        spec["nodeName"] = json!(NODE_PLACEHOLDER);
    }
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec})
}

pub fn cs(name: &str, ready: bool, state: Value) -> Value {
    json!({"name": name, "image": "busybox", "imageID": "", "ready": ready, "restartCount": 0, "state": state})
}
pub fn run(n: &str) -> Value {
    cs(
        n,
        false,
        json!({"running": {"startedAt": "2024-01-01T00:00:00Z"}}),
    )
}
pub fn run_r(n: &str) -> Value {
    cs(n, true, json!({"running": {"startedAt": "2024-01-01T00:00:00Z"}}))
}
pub fn wait(n: &str, reason: &str) -> Value {
    cs(n, false, json!({"waiting": {"reason": reason}}))
}
pub fn term(n: &str, code: i64, reason: &str, signal: i64) -> Value {
    let mut t = json!({"exitCode": code});
    if !reason.is_empty() {
        t["reason"] = json!(reason);
    }
    if signal != 0 {
        t["signal"] = json!(signal);
    }
    cs(n, false, json!({"terminated": t}))
}
pub fn rc(mut v: Value, count: i64, finished: String) -> Value {
    v["restartCount"] = json!(count);
    v["lastState"] = json!({"terminated": {"exitCode": 1, "reason": "Error", "finishedAt": finished}});
    v
}
pub fn started(mut v: Value, s: bool) -> Value {
    v["started"] = json!(s);
    v
}
pub fn cond(t: &str, s: &str) -> Value {
    json!({"type": t, "status": s})
}

/// Pods deleted while a finalizer holds them.
/// A scheduler nobody runs: pods that name it stay unscheduled.
const NO_SCHEDULER: &str = "ktui-golden-nobody";
/// Stands for the test's own node in [`objects`]' pods until `fixtures::objects` names it.
pub const NODE_PLACEHOLDER: &str = "golden-node-placeholder";

pub const FINALIZED_PODS: [&str; 4] = ["term", "term-crash", "done-deleted", "lost"];

/// The pods.
pub fn objects() -> Vec<Value> {
    let no = json!({});
    let mut items = vec![
        pod(
            "run",
            &[],
            &["app"],
            json!({"readinessGates": [{"conditionType": "example.com/g1"},
            {"conditionType": "example.com/g2"}]}),
        ),
        pod(
            "gated",
            &[],
            &["app"],
            json!({"schedulingGates": [{"name": "example.com/gate"}]}),
        ),
        pod("pending", &[], &["app"], no.clone()),
    ];
    for name in [
        "crash",
        "done",
        "oom",
        "sig",
        "evicted",
        "evicted-cs",
        "term",
        "term-crash",
        "done-deleted",
        "lost",
    ] {
        items.push(pod(name, &[], &["app"], no.clone()));
    }
    items.push(pod(
        "init12",
        &[("i1", false), ("i2", false)],
        &["app"],
        no.clone(),
    ));
    for name in ["init01", "initcrash", "initsig"] {
        items.push(pod(name, &[("i1", false)], &["app"], no.clone()));
    }
    for name in ["sc-ok", "sc-crash", "sc-stop"] {
        items.push(pod(name, &[("sc", true)], &["app"], no.clone()));
    }
    items.push(pod(
        "sc-init",
        &[("sc", true), ("i2", false)],
        &["app"],
        no.clone(),
    ));
    for name in ["err-beats", "oom-beats", "exit-beats", "notready", "two-waits"] {
        items.push(pod(name, &[], &["a", "b"], no.clone()));
    }
    items.push(pod("err-ready", &[], &["a", "b", "c"], no.clone()));
    items
}

/// `(resource, name, merge patch of the status subresource)` of the pods.
pub fn status_patches(now: i64) -> Vec<(&'static str, &'static str, Value)> {
    let p = |phase: &str, extra: Value| {
        let mut s = json!({"phase": phase});
        if let (Some(o), Some(e)) = (s.as_object_mut(), extra.as_object()) {
            o.extend(e.clone());
        }
        json!({"status": s})
    };
    let apps = |v: Vec<Value>| json!({"containerStatuses": v});
    let ago = |s: i64| at(now, s);
    let pods: Vec<(&'static str, Value)> = vec![
        (
            "run",
            p(
                "Running",
                json!({"podIP": "10.244.0.5", "podIPs": [{"ip": "10.244.0.5"}, {"ip": "fd00::5"}],
            "conditions": [cond("Ready", "True"), cond("example.com/g1", "True"),
            cond("example.com/g2", "False")], "containerStatuses": [run_r("app")]}),
            ),
        ),
        ("gated", p("Pending", json!({"nominatedNodeName": "node-9"}))),
        (
            "crash",
            p(
                "Running",
                apps(vec![rc(wait("app", "CrashLoopBackOff"), 5, ago(320))]),
            ),
        ),
        (
            "init12",
            p(
                "Pending",
                json!({"initContainerStatuses": [term("i1", 0, "Completed", 0), run("i2")],
            "containerStatuses": [wait("app", "PodInitializing")]}),
            ),
        ),
        (
            "init01",
            p(
                "Pending",
                json!({"initContainerStatuses": [wait("i1", "PodInitializing")]}),
            ),
        ),
        (
            "initcrash",
            p(
                "Pending",
                json!({"initContainerStatuses": [rc(wait("i1", "CrashLoopBackOff"), 3, ago(45))]}),
            ),
        ),
        (
            "initsig",
            p(
                "Pending",
                json!({"initContainerStatuses": [term("i1", 137, "", 9)]}),
            ),
        ),
        ("done", p("Succeeded", apps(vec![term("app", 0, "Completed", 0)]))),
        (
            "oom",
            p(
                "Running",
                apps(vec![rc(term("app", 137, "OOMKilled", 0), 1, ago(100))]),
            ),
        ),
        (
            "sc-ok",
            p(
                "Running",
                json!({"conditions": [cond("Initialized", "True"), cond("Ready", "True")],
            "initContainerStatuses": [started(run_r("sc"), true)], "containerStatuses": [run_r("app")]}),
            ),
        ),
        (
            "sc-crash",
            p(
                "Running",
                json!({"conditions": [cond("Initialized", "True")],
            "initContainerStatuses": [started(rc(wait("sc", "CrashLoopBackOff"), 4, ago(120)), false)],
            "containerStatuses": [rc(run_r("app"), 1, ago(3600))]}),
            ),
        ),
        (
            "sc-init",
            p(
                "Pending",
                json!({"conditions": [cond("Initialized", "False")],
            "initContainerStatuses": [started(run_r("sc"), true), run("i2")]}),
            ),
        ),
        (
            "sc-stop",
            p(
                "Running",
                json!({"conditions": [cond("Initialized", "True")],
            "initContainerStatuses": [started(term("sc", 0, "Completed", 0), false)], "containerStatuses": [run_r("app")]}),
            ),
        ),
        (
            "err-beats",
            p(
                "Failed",
                apps(vec![term("a", 0, "Completed", 0), term("b", 1, "Error", 0)]),
            ),
        ),
        (
            "err-ready",
            p(
                "Running",
                json!({"conditions": [cond("Ready", "False")], "containerStatuses":
            [term("a", 0, "Completed", 0), run_r("b"), term("c", 1, "Error", 0)]}),
            ),
        ),
        (
            "oom-beats",
            p(
                "Failed",
                apps(vec![term("a", 0, "Completed", 0), term("b", 137, "OOMKilled", 0)]),
            ),
        ),
        (
            "exit-beats",
            p(
                "Failed",
                apps(vec![term("a", 0, "Completed", 0), term("b", 2, "", 0)]),
            ),
        ),
        (
            "notready",
            p(
                "Running",
                json!({"conditions": [cond("Ready", "False")],
            "containerStatuses": [term("a", 0, "Completed", 0), run_r("b")]}),
            ),
        ),
        (
            "two-waits",
            p(
                "Running",
                apps(vec![wait("a", "CrashLoopBackOff"), wait("b", "ImagePullBackOff")]),
            ),
        ),
        ("sig", p("Failed", apps(vec![term("app", 143, "", 15)]))),
        (
            "evicted",
            p("Failed", json!({"reason": "Evicted", "message": "low on memory"})),
        ),
        (
            "evicted-cs",
            p(
                "Failed",
                json!({"reason": "Evicted",
            "containerStatuses": [term("app", 137, "ContainerStatusUnknown", 0)]}),
            ),
        ),
        ("term", p("Running", apps(vec![run_r("app")]))),
        (
            "term-crash",
            p(
                "Running",
                apps(vec![rc(wait("app", "CrashLoopBackOff"), 7, ago(100_000))]),
            ),
        ),
        (
            "done-deleted",
            p("Succeeded", apps(vec![term("app", 0, "Completed", 0)])),
        ),
        (
            "lost",
            p(
                "Running",
                json!({"reason": "NodeLost", "containerStatuses": [run_r("app")]}),
            ),
        ),
    ];
    pods.into_iter().map(|(n, v)| ("pods", n, v)).collect()
}

/// What the server must print for the pods.
pub fn expectations() -> Vec<(BuiltinKind, &'static str, &'static str, &'static str)> {
    use BuiltinKind::Pod;
    vec![
        (Pod, "run", "STATUS", "Running"),
        (Pod, "run", "READY", "1/1"),
        (Pod, "run", "IP", "10.244.0.5"),
        (Pod, "gated", "NOMINATED NODE", "node-9"),
        (Pod, "run", "READINESS GATES", "1/2"),
        (Pod, "crash", "STATUS", "CrashLoopBackOff"),
        (Pod, "init12", "STATUS", "Init:1/2"),
        (Pod, "init01", "STATUS", "Init:0/1"),
        (Pod, "initcrash", "STATUS", "Init:CrashLoopBackOff"),
        (Pod, "initsig", "STATUS", "Init:Signal:9"),
        (Pod, "done", "STATUS", "Completed"),
        (Pod, "oom", "STATUS", "OOMKilled"),
        (Pod, "sc-ok", "READY", "2/2"),
        (Pod, "sc-ok", "STATUS", "Running"),
        (Pod, "sc-crash", "STATUS", "Init:CrashLoopBackOff"),
        (Pod, "sc-crash", "READY", "1/2"),
        (Pod, "sc-init", "STATUS", "Init:1/2"),
        (Pod, "sc-init", "READY", "1/2"),
        (Pod, "sc-stop", "STATUS", "Running"),
        (Pod, "err-beats", "STATUS", "Error"),
        (Pod, "err-ready", "STATUS", "Error"),
        (Pod, "oom-beats", "STATUS", "OOMKilled"),
        (Pod, "exit-beats", "STATUS", "ExitCode:2"),
        (Pod, "notready", "STATUS", "NotReady"),
        (Pod, "two-waits", "STATUS", "CrashLoopBackOff"),
        (Pod, "sig", "STATUS", "Signal:15"),
        (Pod, "evicted", "STATUS", "Evicted"),
        (Pod, "evicted-cs", "STATUS", "ContainerStatusUnknown"),
        (Pod, "term", "STATUS", "Terminating"),
        (Pod, "term-crash", "STATUS", "Terminating"),
        (Pod, "done-deleted", "STATUS", "Completed"),
        (Pod, "lost", "STATUS", "Unknown"),
        (Pod, "gated", "STATUS", "SchedulingGated"),
        (Pod, "pending", "STATUS", "Pending"),
    ]
}
