//! Fixtures of the golden column test: odd-case objects of every built-in kind, the status
//! patches that put them into those states, and what the server is expected to print for the
//! interesting ones (so a fixture that silently stopped producing its case is noticed).

use serde_json::{json, Value};

use ktui::kube::kind::BuiltinKind;

/// RFC 3339 text of `now - ago` seconds.
fn at(now: i64, ago: i64) -> String {
    jiff::Timestamp::from_second(now - ago)
        .map(|t| t.to_string())
        .unwrap_or_default()
}

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
    if FINALIZED_PODS.contains(&name) {
        meta["finalizers"] = json!(["example.com/hold"]);
    }
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec})
}

fn cs(name: &str, ready: bool, state: Value) -> Value {
    json!({"name": name, "image": "busybox", "imageID": "", "ready": ready, "restartCount": 0, "state": state})
}
fn run(n: &str) -> Value {
    cs(
        n,
        false,
        json!({"running": {"startedAt": "2024-01-01T00:00:00Z"}}),
    )
}
fn run_r(n: &str) -> Value {
    cs(n, true, json!({"running": {"startedAt": "2024-01-01T00:00:00Z"}}))
}
fn wait(n: &str, reason: &str) -> Value {
    cs(n, false, json!({"waiting": {"reason": reason}}))
}
fn term(n: &str, code: i64, reason: &str, signal: i64) -> Value {
    let mut t = json!({"exitCode": code});
    if !reason.is_empty() {
        t["reason"] = json!(reason);
    }
    if signal != 0 {
        t["signal"] = json!(signal);
    }
    cs(n, false, json!({"terminated": t}))
}
fn rc(mut v: Value, count: i64, finished: String) -> Value {
    v["restartCount"] = json!(count);
    v["lastState"] = json!({"terminated": {"exitCode": 1, "reason": "Error", "finishedAt": finished}});
    v
}
fn started(mut v: Value, s: bool) -> Value {
    v["started"] = json!(s);
    v
}
fn cond(t: &str, s: &str) -> Value {
    json!({"type": t, "status": s})
}

const FINALIZED_PODS: [&str; 4] = ["term", "term-crash", "done-deleted", "lost"];

/// Every namespaced fixture.
pub fn objects(ns: &str, now: i64) -> Vec<Value> {
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
    for name in ["init12"] {
        items.push(pod(name, &[("i1", false), ("i2", false)], &["app"], no.clone()));
    }
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

    let tmpl = |labels: Value, extra: Value| {
        let mut spec =
            json!({"containers": [{"name": "web", "image": "nginx:1"}, {"name": "log", "image": "busybox"}]});
        if let (Some(s), Some(e)) = (spec.as_object_mut(), extra.as_object()) {
            s.extend(e.clone());
        }
        json!({"metadata": {"labels": labels}, "spec": spec})
    };
    items.extend([
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
            "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}, "matchExpressions": [
                {"key": "env", "operator": "In", "values": ["prod", "dev"]}, {"key": "canary", "operator": "DoesNotExist"}]},
                "template": tmpl(json!({"app": "web", "env": "prod"}), json!({}))}}),
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "zero"},
            "spec": {"replicas": 0, "selector": {"matchLabels": {"app": "zero"}}, "template": tmpl(json!({"app": "zero"}), json!({}))}}),
        json!({"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "rs-solo"},
            "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "solo"}, "matchExpressions": [
                {"key": "tier", "operator": "NotIn", "values": ["db"]}, {"key": "track", "operator": "Exists"}]},
                "template": tmpl(json!({"app": "solo", "tier": "web", "track": "stable"}), json!({}))}}),
        json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db"},
            "spec": {"replicas": 2, "serviceName": "db", "selector": {"matchLabels": {"app": "db"}},
                "template": tmpl(json!({"app": "db"}), json!({}))}}),
        json!({"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "ds"},
            "spec": {"selector": {"matchLabels": {"app": "ds"}}, "template": tmpl(json!({"app": "ds"}), json!({}))}}),
        json!({"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "ds-sel"},
            "spec": {"selector": {"matchLabels": {"app": "ds-sel"}}, "template": tmpl(json!({"app": "ds-sel"}),
                json!({"nodeSelector": {"kubernetes.io/os": "linux", "disk": "ssd"}}))}}),
    ]);

    let job = |name: &str, spec: Value| {
        let mut s = json!({"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "pi", "image": "perl"}]}}});
        if let (Some(o), Some(e)) = (s.as_object_mut(), spec.as_object()) {
            o.extend(e.clone());
        }
        json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": name}, "spec": s})
    };
    items.extend([
        job("j-par", json!({"parallelism": 3})),
        job("j-comp", json!({"completions": 5, "parallelism": 2})),
        job("j-susp", json!({"completions": 1, "suspend": true})),
        job(
            "j-done",
            json!({"completions": 1, "managedBy": "example.com/custom"}),
        ),
        job(
            "j-fail",
            json!({"completions": 5, "managedBy": "example.com/custom"}),
        ),
    ]);
    let cj = |name: &str, schedule: &str, tz: Option<&str>, suspend: bool| {
        let mut spec = json!({"schedule": schedule, "suspend": suspend, "jobTemplate": {"spec": {"template": {"spec": {
            "restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox"}]}}}}});
        if let Some(tz) = tz {
            spec["timeZone"] = json!(tz);
        }
        json!({"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": name}, "spec": spec})
    };
    items.extend([
        cj("cj-tz", "*/5 * * * *", Some("Europe/Paris"), true),
        cj("cj-yearly", "@yearly", None, false),
    ]);

    let svc = |name: &str, spec: Value| json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": name}, "spec": spec});
    items.extend([
        svc("dns", json!({"selector": {"k8s-app": "dns"}, "ports": [{"name": "dns", "port": 53, "protocol": "UDP"},
            {"name": "dns-tcp", "port": 53, "protocol": "TCP"}]})),
        svc("headless", json!({"clusterIP": "None", "selector": {"b": "2", "a": "1"}, "ports": [{"port": 80}]})),
        svc("headless-noports", json!({"clusterIP": "None"})),
        svc("np", json!({"type": "NodePort", "externalIPs": ["1.2.3.4", "5.6.7.8"], "ports": [{"port": 80}]})),
        svc("lb", json!({"type": "LoadBalancer", "externalIPs": ["9.9.9.9"], "ports": [{"name": "http", "port": 80}, {"name": "https", "port": 443}]})),
        svc("lb-pending", json!({"type": "LoadBalancer", "allocateLoadBalancerNodePorts": false,
            "ports": [{"port": 80, "protocol": "SCTP"}]})),
        svc("ext", json!({"type": "ExternalName", "externalName": "db.example.com"})),
    ]);

    items.extend([
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"}, "data": {"a": "1", "b": "2"},
            "binaryData": {"c": "AAAA"}}),
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm-empty"}}),
        json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "opaque"}, "data": {"u": "YQ==", "p": "Yg=="}}),
        json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "tls"}, "type": "kubernetes.io/tls",
            "data": {"tls.crt": "YQ==", "tls.key": "Yg=="}}),
        json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "docker"}, "type": "kubernetes.io/dockerconfigjson",
            "data": {".dockerconfigjson": "eyJhdXRocyI6e319"}}),
        json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "string"}, "stringData": {"x": "y", "z": "w"}}),
    ]);

    let pvc = |name: &str, meta: Value, spec: Value| {
        let mut s = json!({"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}});
        if let (Some(o), Some(e)) = (s.as_object_mut(), spec.as_object()) {
            o.extend(e.clone());
        }
        let mut m = json!({"name": name});
        if let (Some(o), Some(e)) = (m.as_object_mut(), meta.as_object()) {
            o.extend(e.clone());
        }
        json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": m, "spec": s})
    };
    items.extend([
        pvc(
            "pending",
            json!({}),
            json!({"storageClassName": "fast", "volumeAttributesClassName": "gold"}),
        ),
        pvc(
            "bound",
            json!({}),
            json!({"storageClassName": "manual", "volumeName": format!("{ns}-pv")}),
        ),
        pvc(
            "legacy",
            json!({"annotations": {"volume.beta.kubernetes.io/storage-class": "old"}}),
            json!({}),
        ),
        pvc(
            "block",
            json!({}),
            json!({"storageClassName": "", "volumeMode": "Block"}),
        ),
        pvc(
            "doomed",
            json!({"finalizers": ["example.com/hold"]}),
            json!({"storageClassName": "slow"}),
        ),
    ]);

    let involved = |kind: &str, name: &str, field: &str| json!({"kind": kind, "name": name, "namespace": ns, "fieldPath": field});
    items.extend([
        json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e-legacy"}, "type": "Warning", "reason": "BackOff",
            "involvedObject": involved("Pod", "web-1", "spec.containers{web}"),
            "source": {"component": "kubelet", "host": "node-1"},
            "message": "  Back-off restarting failed container\n", "count": 12,
            "firstTimestamp": at(now, 3600), "lastTimestamp": at(now, 65)}),
        json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e-series"}, "type": "Normal", "reason": "Pulled",
            "involvedObject": involved("Pod", "p", ""), "reportingComponent": "kubelet", "reportingInstance": "node-2",
            "action": "Pulling", "eventTime": at(now, 600).replace('Z', ".123456Z"),
            "series": {"count": 4, "lastObservedTime": at(now, 30).replace('Z', ".000001Z")}}),
        json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e-single"}, "type": "Normal", "reason": "Ping",
            "involvedObject": involved("Node", "", ""), "reportingComponent": "c", "reportingInstance": "i",
            "action": "Check", "eventTime": at(now, 200).replace('Z', ".500000Z")}),
        json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e-none"}, "type": "Weird", "reason": "Odd",
            "involvedObject": involved("Deployment", "web", ""), "message": "\u{1b}[31mred\nsecond line"}),
    ]);
    items
}

/// Cluster-scoped fixtures: a node, the PV for the bound claim, a namespace to be deleted.
pub fn cluster_objects(ns: &str, node: &str, doomed_ns: &str) -> Vec<Value> {
    vec![
        json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": node, "labels": {
            "node-role.kubernetes.io/control-plane": "", "kubernetes.io/role": "infra"}},
            "spec": {"unschedulable": true}}),
        json!({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": format!("{ns}-pv")},
            "spec": {"capacity": {"storage": "2Gi"}, "accessModes": ["ReadWriteMany", "ReadWriteOnce", "ReadOnlyMany"],
                "persistentVolumeReclaimPolicy": "Retain", "storageClassName": "manual", "hostPath": {"path": "/tmp/golden"},
                "claimRef": {"namespace": ns, "name": "bound"}}}),
        json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": doomed_ns}}),
    ]
}

/// A config map with a finalizer, so its namespace stays Terminating.
pub fn held_configmap() -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "held", "finalizers": ["example.com/hold"]}})
}

/// `(resource, name, merge patch of the status subresource)`; the node's name is implied.
pub fn status_patches(_ns: &str, now: i64) -> Vec<(&'static str, &'static str, Value)> {
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
    let mut out: Vec<(&'static str, &'static str, Value)> =
        pods.into_iter().map(|(n, v)| ("pods", n, v)).collect();
    let job_cond = |t: &str| json!({"type": t, "status": "True", "lastTransitionTime": ago(50)});
    out.extend([
        ("jobs", "j-done", json!({"status": {"startTime": ago(100), "completionTime": ago(50), "succeeded": 1,
            "conditions": [job_cond("SuccessCriteriaMet"), job_cond("Complete")]}})),
        ("jobs", "j-fail", json!({"status": {"startTime": ago(7200), "succeeded": 2, "failed": 1,
            "conditions": [job_cond("FailureTarget"), job_cond("Failed")]}})),
        ("cronjobs", "cj-tz", json!({"status": {"lastScheduleTime": ago(65)}})),
        ("services", "lb", json!({"status": {"loadBalancer": {"ingress": [{"ip": "34.1.2.3"}, {"ip": "34.1.2.2"},
            {"hostname": "a1b2c3d4e5-123456.elb.example.com"}]}}})),
        ("nodes", "", json!({"status": {"conditions": [{"type": "Ready", "status": "False", "reason": "KubeletNotReady"}],
            "addresses": [{"type": "InternalIP", "address": "10.9.0.1"}, {"type": "ExternalIP", "address": "203.0.113.5"}],
            "nodeInfo": {"kubeletVersion": "v1.37.2", "architecture": "arm64", "machineID": "", "systemUUID": "",
                "bootID": "", "kernelVersion": "", "osImage": "", "containerRuntimeVersion": "", "kubeProxyVersion": "",
                "operatingSystem": "linux"}}})),
    ]);
    out
}

/// Objects deleted while a finalizer holds them (so they show Terminating).
pub fn deletions() -> Vec<(&'static str, &'static str)> {
    let mut d: Vec<(&str, &str)> = FINALIZED_PODS.iter().map(|n| ("pod", *n)).collect();
    d.push(("pvc", "doomed"));
    d
}

/// Objects whose finalizer must be removed at cleanup.
pub fn finalized(_ns: &str) -> Vec<(&'static str, &'static str)> {
    deletions()
}

/// `(kind, object name, header, text the server must print)` for the cases the fixtures
/// exist for.
pub fn expectations(
    _ns: &str,
    node: &str,
    doomed_ns: &str,
) -> Vec<(BuiltinKind, String, &'static str, &'static str)> {
    use BuiltinKind::*;
    let mut e: Vec<(BuiltinKind, &str, &'static str, &'static str)> = vec![
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
        (Deployment, "web", "SELECTOR", "app=web,!canary,env in (dev,prod)"),
        (Deployment, "zero", "READY", "0/0"),
        (
            ReplicaSet,
            "rs-solo",
            "SELECTOR",
            "app=solo,tier notin (db),track",
        ),
        (
            DaemonSet,
            "ds-sel",
            "NODE SELECTOR",
            "disk=ssd,kubernetes.io/os=linux",
        ),
        (Job, "j-done", "STATUS", "Complete"),
        (Job, "j-done", "DURATION", "50s"),
        (Job, "j-done", "COMPLETIONS", "1/1"),
        (Job, "j-fail", "STATUS", "Failed"),
        (Job, "j-fail", "COMPLETIONS", "2/5"),
        (Job, "j-par", "COMPLETIONS", "0/1 of 3"),
        (Job, "j-comp", "COMPLETIONS", "0/5"),
        (CronJob, "cj-tz", "TIMEZONE", "Europe/Paris"),
        (CronJob, "cj-tz", "SUSPEND", "True"),
        (CronJob, "cj-yearly", "TIMEZONE", "<none>"),
        (CronJob, "cj-yearly", "LAST SCHEDULE", "<none>"),
        (Service, "dns", "PORT(S)", "53/UDP,53/TCP"),
        (Service, "headless", "CLUSTER-IP", "None"),
        (Service, "headless", "SELECTOR", "a=1,b=2"),
        (Service, "headless-noports", "PORT(S)", "<none>"),
        (Service, "np", "EXTERNAL-IP", "1.2.3.4,5.6.7.8"),
        (
            Service,
            "lb",
            "EXTERNAL-IP",
            "34.1.2.2,34.1.2.3,a1b2c3d4e5-123456.elb.example.com,9.9.9.9",
        ),
        (Service, "lb-pending", "EXTERNAL-IP", "<pending>"),
        (Service, "lb-pending", "PORT(S)", "80/SCTP"),
        (Service, "ext", "CLUSTER-IP", "<none>"),
        (Service, "ext", "EXTERNAL-IP", "db.example.com"),
        (ConfigMap, "cm", "DATA", "3"),
        (ConfigMap, "cm-empty", "DATA", "0"),
        (Secret, "tls", "TYPE", "kubernetes.io/tls"),
        (Secret, "string", "DATA", "2"),
        (Secret, "opaque", "TYPE", "Opaque"),
        (PersistentVolumeClaim, "bound", "STATUS", "Bound"),
        (PersistentVolumeClaim, "bound", "CAPACITY", "2Gi"),
        (PersistentVolumeClaim, "bound", "ACCESS MODES", "RWO,ROX,RWX"),
        (PersistentVolumeClaim, "pending", "VOLUMEATTRIBUTESCLASS", "gold"),
        (PersistentVolumeClaim, "pending", "CAPACITY", ""),
        (PersistentVolumeClaim, "legacy", "STORAGECLASS", "old"),
        (PersistentVolumeClaim, "block", "VOLUMEMODE", "Block"),
        (PersistentVolumeClaim, "doomed", "STATUS", "Terminating"),
        (Event, "e-legacy", "SOURCE", "kubelet, node-1"),
        (Event, "e-legacy", "COUNT", "12"),
        (
            Event,
            "e-legacy",
            "MESSAGE",
            "Back-off restarting failed container",
        ),
        (Event, "e-legacy", "SUBOBJECT", "spec.containers{web}"),
        (Event, "e-series", "SOURCE", "kubelet, node-2"),
        (Event, "e-series", "COUNT", "4"),
        (Event, "e-single", "OBJECT", "node"),
        (Event, "e-single", "COUNT", "1"),
        (Event, "e-none", "MESSAGE", "^[[31mred..."),
        (Event, "e-none", "LAST SEEN", "<unknown>"),
        (Event, "e-none", "OBJECT", "deployment/web"),
    ];
    e.extend([
        (Node, node, "STATUS", "NotReady,SchedulingDisabled"),
        (Node, node, "ROLES", "control-plane,infra"),
        (Node, node, "KERNEL-VERSION", "<unknown> (arm64)"),
        (Node, node, "EXTERNAL-IP", "203.0.113.5"),
        (Namespace, doomed_ns, "STATUS", "Terminating"),
    ]);
    e.into_iter()
        .map(|(k, n, h, v)| (k, n.to_string(), h, v))
        .collect()
}
