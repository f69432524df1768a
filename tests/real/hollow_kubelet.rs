//! The real tier's checks of the hollow kubelets (tests/cluster/kubebins/hollowkubelet):
//! pods really run on the test cluster's nodes, and logs, exec and port-forward work through
//! the real kube-apiserver, driven by kubectl like a user would. Each test has namespaces of
//! its own on the shared cluster (the viewer test uses team-a, with a unique pod name).
//! Container behaviour comes from HOLLOW_* env vars (tests/cluster/README.md).
//! Run with `bash tests/run.sh --test real hollow_kubelet::`.
use crate::support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::Cluster;

// ---------------------------------------------------------------------------------------
// helpers

/// Poll `f` every 100 ms until it returns `Some`, or panic after `timeout` naming `what`
/// and the last thing `last` describes.
fn wait_for<T>(what: &str, timeout: Duration, mut f: impl FnMut() -> Result<T, String>) -> T {
    let deadline = Instant::now() + timeout;
    loop {
        match f() {
            Ok(v) => return v,
            Err(last) if Instant::now() > deadline => {
                panic!("timed out after {timeout:?} waiting for {what}; last: {last}")
            }
            Err(_) => std::thread::sleep(Duration::from_millis(100)),
        }
    }
}

/// `kubectl create -f` of one object given as JSON.
fn create(cluster: &Cluster, obj: Value) {
    let file = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(file.path(), obj.to_string()).expect("write manifest");
    cluster.kubectl_ok(&["create", "-f", file.path().to_str().unwrap()]);
}

/// A pod whose containers are `(name, [(env name, value)])`, image `app:1`.
fn pod(ns: &str, name: &str, containers: &[(&str, &[(&str, &str)])]) -> Value {
    let containers: Vec<Value> = containers
        .iter()
        .map(|(c, env)| {
            let env: Vec<Value> = env.iter().map(|(k, v)| json!({"name": k, "value": v})).collect();
            json!({"name": c, "image": "example.com/app:1", "env": env})
        })
        .collect();
    json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": ns},
        "spec": {"containers": containers, "terminationGracePeriodSeconds": 5}})
}

/// `kubectl get -o json` of one object.
fn get(cluster: &Cluster, ns: &str, what: &str) -> Result<Value, String> {
    let out = cluster.kubectl(&["-n", ns, "get", what, "-o", "json"]);
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())
}

/// Wait until pod `name` is Running with every container ready; returns the pod.
fn wait_running(cluster: &Cluster, ns: &str, name: &str) -> Value {
    wait_for(
        &format!("pod {ns}/{name} Running and Ready"),
        Duration::from_secs(30),
        || {
            let p = get(cluster, ns, &format!("pod/{name}"))?;
            let ready = p["status"]["conditions"]
                .as_array()
                .is_some_and(|cs| cs.iter().any(|c| c["type"] == "Ready" && c["status"] == "True"));
            if p["status"]["phase"] == "Running" && ready {
                Ok(p)
            } else {
                Err(p["status"].to_string())
            }
        },
    )
}

/// kubectl as `context`, with the cluster's kubeconfig, for commands the test spawns.
fn kubectl_cmd(cluster: &Cluster, context: &str) -> Command {
    let mut c = Command::new(&cluster.kubectl);
    c.arg("--kubeconfig")
        .arg(&cluster.kubeconfig)
        .args(["--context", context]);
    c
}

/// The pod's events as "reason" strings, oldest first.
fn event_reasons(cluster: &Cluster, ns: &str, pod: &str) -> Vec<String> {
    let selector = format!("involvedObject.name={pod}");
    let out = cluster.kubectl_ok(&[
        "-n",
        ns,
        "get",
        "events",
        "--field-selector",
        &selector,
        "-o",
        "json",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let mut items: Vec<&Value> = v["items"].as_array().unwrap().iter().collect();
    items.sort_by_key(|e| {
        e["eventTime"]
            .as_str()
            .or(e["firstTimestamp"].as_str())
            .unwrap_or("")
            .to_string()
    });
    items
        .iter()
        .map(|e| e["reason"].as_str().unwrap_or("").to_string())
        .collect()
}

/// `kubectl logs` with extra args; panics unless it succeeds.
fn logs(cluster: &Cluster, ns: &str, args: &[&str]) -> String {
    let mut all = vec!["-n", ns, "logs"];
    all.extend(args);
    cluster.kubectl_ok(&all)
}

/// A spawned process killed on drop (kubectl logs -f, kubectl port-forward).
struct Spawned(Child);
impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Lines of a spawned process's stdout, delivered through a channel by a reader thread.
fn stdout_lines(child: &mut Child) -> mpsc::Receiver<String> {
    let out = child.stdout.take().expect("piped stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

// ---------------------------------------------------------------------------------------
// nodes

/// up.sh's nodes are hollow kubelets: node-1 (control-plane, tainted) and node-2 (worker),
/// Ready, at InternalIP 127.0.0.1 with a kubelet port of their own, no start-up taints left.
#[test]
#[ignore = "real tier"]
fn nodes_are_ready_hollow_kubelets_on_loopback() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let nodes: Value = serde_json::from_str(&cluster.kubectl_ok(&["get", "nodes", "-o", "json"])).unwrap();
    let mut ports = Vec::new();
    for (name, role) in [("node-1", "control-plane"), ("node-2", "worker")] {
        let node = nodes["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["metadata"]["name"] == name)
            .unwrap_or_else(|| panic!("node {name} missing"));
        let status = &node["status"];
        let ready = status["conditions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["type"] == "Ready")
            .unwrap();
        assert_eq!(ready["status"], "True", "{name}: {ready}");
        assert_eq!(ready["reason"], "KubeletReady", "{name}: {ready}");
        let addrs = status["addresses"].as_array().unwrap();
        assert!(
            addrs
                .iter()
                .any(|a| a["type"] == "InternalIP" && a["address"] == "127.0.0.1"),
            "{name}: {addrs:?}"
        );
        assert_eq!(status["nodeInfo"]["kubeletVersion"], "v1.37.2");
        let labels = &node["metadata"]["labels"];
        assert_eq!(
            labels[format!("node-role.kubernetes.io/{role}")],
            "",
            "{name}: {labels}"
        );
        assert_eq!(labels["kubernetes.io/hostname"], name);
        assert!(labels["topology.kubernetes.io/zone"]
            .as_str()
            .unwrap()
            .starts_with("zone-"));
        let taints: Vec<&str> = node["spec"]["taints"]
            .as_array()
            .map(|t| t.iter().map(|t| t["key"].as_str().unwrap()).collect())
            .unwrap_or_default();
        let want: &[&str] = if role == "control-plane" {
            &["node-role.kubernetes.io/control-plane"]
        } else {
            &[]
        };
        assert_eq!(taints, want, "{name} taints");
        ports.push(
            status["daemonEndpoints"]["kubeletEndpoint"]["Port"]
                .as_u64()
                .unwrap(),
        );
        // a real Lease, renewed by the kubelet
        let lease = cluster.kubectl_ok(&[
            "-n",
            "kube-node-lease",
            "get",
            "lease",
            name,
            "-o",
            "jsonpath={.spec.holderIdentity}",
        ]);
        assert_eq!(lease, name);
    }
    assert_ne!(ports[0], ports[1], "each node serves on a port of its own");
    assert!(ports.iter().all(|p| *p != 10250), "{ports:?}");
    // the pid files up.sh wrote name live processes
    for i in 1..=2 {
        let pid = std::fs::read_to_string(cluster.dir.join(format!("hollow-node-{i}.pid"))).unwrap();
        assert!(
            support::process_alive(pid.trim().parse().unwrap()),
            "hollow-node-{i}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// pod lifecycle

/// A pod goes Pending → Running on node-2 with real container statuses, a pod IP of the
/// node's range unique per pod, and the kubelet's events; a graceful delete completes
/// (Killing), and a slow stop (HOLLOW_STOP_AFTER) keeps it Terminating meanwhile.
#[test]
#[ignore = "real tier"]
fn pod_lifecycle_kubelet_events_and_graceful_delete() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("hk-life");
    // watch the phases (and the waiting reason) from before the pod exists
    let mut watch = Spawned(
        kubectl_cmd(&cluster, support::ADMIN)
            .args(["-n", &ns, "get", "pods", "-w", "-o"])
            .arg("jsonpath={.metadata.name} {.status.phase} {.status.containerStatuses[0].state.waiting.reason}{\"\\n\"}")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let seen = stdout_lines(&mut watch.0);
    std::thread::sleep(Duration::from_millis(500));
    let mut web = pod(&ns, "web", &[("app", &[("HOLLOW_STOP_AFTER", "3s")])]);
    // the image is on node-2 already (other pods): Always, so it is pulled again (Pulling)
    web["spec"]["containers"][0]["imagePullPolicy"] = json!("Always");
    create(&cluster, web);
    let p = wait_running(&cluster, &ns, "web");
    assert_eq!(p["spec"]["nodeName"], "node-2");
    assert_eq!(p["status"]["hostIP"], "127.0.0.1");
    let ip = p["status"]["podIP"].as_str().unwrap();
    assert!(ip.starts_with("10.102."), "pod IP {ip} not in node-2's range");
    let cs = &p["status"]["containerStatuses"][0];
    assert_eq!(cs["ready"], true);
    assert_eq!(cs["started"], true);
    assert_eq!(cs["restartCount"], 0);
    assert!(cs["state"]["running"]["startedAt"].is_string(), "{cs}");
    assert!(cs["containerID"].as_str().unwrap().contains("://"), "{cs}");
    assert_eq!(cs["image"], "example.com/app:1");

    // phases in order: Pending (ContainerCreating, if the watch caught it) before Running
    let phases: Vec<String> = seen.try_iter().collect();
    let first_running = phases.iter().position(|l| l.contains(" Running"));
    let first_pending = phases.iter().position(|l| l.contains(" Pending"));
    assert!(
        matches!((first_pending, first_running), (Some(a), Some(b)) if a < b),
        "watched: {phases:?}"
    );
    eprintln!("watched phases: {phases:?}");

    // more pods on the same node get IPs of their own
    for name in ["web-2", "web-3"] {
        create(&cluster, pod(&ns, name, &[("app", &[])]));
    }
    let mut ips = vec![ip.to_string()];
    for name in ["web-2", "web-3"] {
        ips.push(
            wait_running(&cluster, &ns, name)["status"]["podIP"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    let mut unique = ips.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 3, "pod IPs {ips:?}");

    let reasons = event_reasons(&cluster, &ns, "web");
    for want in ["Scheduled", "Pulling", "Pulled", "Created", "Started"] {
        assert!(
            reasons.iter().any(|r| r == want),
            "no {want} event in {reasons:?}"
        );
    }

    // graceful delete: Terminating while the container takes its 3 s to stop, then gone
    let t0 = Instant::now();
    cluster.kubectl_ok(&["-n", &ns, "delete", "pod", "web", "--wait=false"]);
    let p = get(&cluster, &ns, "pod/web").expect("pod still there right after the delete");
    assert!(p["metadata"]["deletionTimestamp"].is_string());
    wait_for("pod web to be gone", Duration::from_secs(30), || {
        match get(&cluster, &ns, "pod/web") {
            Err(e) if e.contains("NotFound") => Ok(()),
            Err(e) => Err(e),
            Ok(p) => Err(p["status"].to_string()),
        }
    });
    let took = t0.elapsed();
    assert!(
        took >= Duration::from_secs(2),
        "deleted in {took:?}, before the 3 s stop"
    );
    let reasons = event_reasons(&cluster, &ns, "web");
    assert!(
        reasons.iter().any(|r| r == "Killing"),
        "no Killing event in {reasons:?}"
    );
}

/// HOLLOW_EXIT_AFTER/HOLLOW_EXIT_CODE: a crash-looping container restarts, shows its
/// last state, goes CrashLoopBackOff with BackOff events, and `--previous` shows the
/// previous run's log.
#[test]
#[ignore = "real tier"]
fn crash_loop_restarts_last_state_and_previous_logs() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("hk-crash");
    create(
        &cluster,
        pod(
            &ns,
            "crasher",
            &[(
                "app",
                &[
                    ("HOLLOW_STDOUT", "run {attempt} of {container}"),
                    ("HOLLOW_EXIT_AFTER", "1s"),
                    ("HOLLOW_EXIT_CODE", "3"),
                ],
            )],
        ),
    );
    // back-off delays 10 s, 20 s, 40 s (the hollow kubelet's --max-restart-backoff): the
    // status shows CrashLoopBackOff from the third crash, ~25 s in
    let cs = wait_for(
        "CrashLoopBackOff after a restart",
        Duration::from_secs(90),
        || {
            let p = get(&cluster, &ns, "pod/crasher")?;
            let cs = p["status"]["containerStatuses"][0].clone();
            if cs["restartCount"].as_u64().unwrap_or(0) >= 1
                && cs["state"]["waiting"]["reason"] == "CrashLoopBackOff"
            {
                Ok(cs)
            } else {
                Err(cs.to_string())
            }
        },
    );
    let last = &cs["lastState"]["terminated"];
    assert_eq!(last["exitCode"], 3, "{cs}");
    assert_eq!(last["reason"], "Error", "{cs}");
    assert!(
        last["startedAt"].is_string() && last["finishedAt"].is_string(),
        "{cs}"
    );
    // The dead container is the previous one while the pod is in back-off.
    let restarts = cs["restartCount"].as_u64().unwrap();
    let previous = logs(&cluster, &ns, &["crasher", "--previous"]);
    assert_eq!(previous, format!("run {restarts} of app\n"));
    let reasons = event_reasons(&cluster, &ns, "crasher");
    assert!(
        reasons.iter().any(|r| r == "BackOff"),
        "no BackOff event in {reasons:?}"
    );
}

/// A Job whose container exits 0 completes; one that exits 1 with backoffLimit 0 fails.
#[test]
#[ignore = "real tier"]
fn jobs_complete_and_fail() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("hk-job");
    let job = |name: &str, code: &str| {
        json!({"apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"name": name, "namespace": ns},
            "spec": {"backoffLimit": 0, "template": {"spec": {"restartPolicy": "Never",
                "containers": [{"name": "work", "image": "example.com/batch:1", "env": [
                    {"name": "HOLLOW_STDOUT", "value": "working"},
                    {"name": "HOLLOW_EXIT_AFTER", "value": "1s"},
                    {"name": "HOLLOW_EXIT_CODE", "value": code}]}]}}}})
    };
    create(&cluster, job("ok", "0"));
    create(&cluster, job("bad", "1"));
    for (name, cond) in [("ok", "condition=Complete"), ("bad", "condition=Failed")] {
        cluster.kubectl_ok(&[
            "-n",
            &ns,
            "wait",
            &format!("job/{name}"),
            &format!("--for={cond}"),
            "--timeout=60s",
        ]);
    }
    let pods: Value =
        serde_json::from_str(&cluster.kubectl_ok(&["-n", &ns, "get", "pods", "-o", "json"])).unwrap();
    let phase_of = |job: &str| {
        pods["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["metadata"]["labels"]["job-name"] == job)
            .map(|p| p["status"]["phase"].as_str().unwrap().to_string())
    };
    assert_eq!(phase_of("ok").as_deref(), Some("Succeeded"));
    assert_eq!(phase_of("bad").as_deref(), Some("Failed"));
    assert_eq!(logs(&cluster, &ns, &["job/ok"]), "working\n");
}

/// HOLLOW_READY=false: the pod runs with one of its two containers not ready (1/2).
#[test]
#[ignore = "real tier"]
fn not_ready_container_makes_one_of_two() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("hk-ready");
    create(
        &cluster,
        pod(&ns, "half", &[("a", &[]), ("b", &[("HOLLOW_READY", "false")])]),
    );
    wait_for("READY 1/2, Running", Duration::from_secs(30), || {
        let out = cluster.kubectl_ok(&["-n", &ns, "get", "pod", "half", "--no-headers"]);
        let cols: Vec<&str> = out.split_whitespace().collect();
        if cols.get(1) == Some(&"1/2") && cols.get(2) == Some(&"Running") {
            Ok(())
        } else {
            Err(out)
        }
    });
    let p = get(&cluster, &ns, "pod/half").unwrap();
    let ready = p["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "Ready")
        .unwrap()
        .clone();
    assert_eq!(ready["status"], "False");
    assert_eq!(ready["reason"], "ContainersNotReady");
}

// ---------------------------------------------------------------------------------------
// logs

/// Every `kubectl logs` option the log view needs, through the apiserver to the kubelet.
#[test]
#[ignore = "real tier"]
fn logs_options_through_the_apiserver() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("hk-logs");
    create(
        &cluster,
        pod(
            &ns,
            "talker",
            &[
                (
                    "main",
                    &[
                        ("HOLLOW_STDOUT", "one\ntwo\nthree\nfour"),
                        ("HOLLOW_STDERR", "oops"),
                    ],
                ),
                (
                    "side",
                    &[
                        ("HOLLOW_STDOUT", "side car"),
                        ("HOLLOW_TICK", "300ms"),
                        ("HOLLOW_TICK_LINE", "side tick {n}"),
                    ],
                ),
            ],
        ),
    );
    wait_running(&cluster, &ns, "talker");
    // stdout and stderr interleave into one stream, stderr included
    assert_eq!(
        logs(&cluster, &ns, &["talker", "-c", "main"]),
        "one\ntwo\nthree\nfour\noops\n"
    );
    assert_eq!(
        logs(&cluster, &ns, &["talker", "-c", "main", "--tail=2"]),
        "four\noops\n"
    );
    assert_eq!(
        logs(&cluster, &ns, &["talker", "-c", "main", "--limit-bytes=6"]),
        "one\ntw"
    );
    let stamped = logs(
        &cluster,
        &ns,
        &["talker", "-c", "main", "--timestamps", "--tail=1"],
    );
    let (ts, text) = stamped.trim_end().split_once(' ').unwrap();
    ts.parse::<jiff::Timestamp>()
        .unwrap_or_else(|e| panic!("{stamped:?}: {e}"));
    assert_eq!(text, "oops");
    // -c picks the container; --all-containers gives both
    assert!(logs(&cluster, &ns, &["talker", "-c", "side"]).starts_with("side car\n"));
    let all = logs(&cluster, &ns, &["talker", "--all-containers"]);
    assert!(all.contains("one\n") && all.contains("side car\n"), "{all}");
    // without -c on a two-container pod kubectl picks the default (first) container
    assert!(logs(&cluster, &ns, &["talker"]).starts_with("one\n"));

    // --since / --since-time on the ticking container
    wait_for("5 side ticks", Duration::from_secs(20), || {
        let l = logs(&cluster, &ns, &["talker", "-c", "side"]);
        if l.contains("side tick 5\n") {
            Ok(())
        } else {
            Err(l)
        }
    });
    let everything = logs(&cluster, &ns, &["talker", "-c", "side", "--since=1h"]);
    assert!(everything.starts_with("side car\n"), "{everything}");
    let recent = logs(&cluster, &ns, &["talker", "-c", "side", "--since=1s"]);
    assert!(
        !recent.contains("side car"),
        "--since=1s still has the start line: {recent}"
    );
    assert!(recent.lines().count() <= 5, "--since=1s: {recent}");
    // --since-time: whole seconds (RFC 3339); every line returned is at or after it
    let since = jiff::Timestamp::now()
        .checked_add(jiff::SignedDuration::from_secs(1))
        .unwrap();
    let since = jiff::Timestamp::from_second(since.as_second()).unwrap();
    std::thread::sleep(Duration::from_millis(2500));
    let after = logs(
        &cluster,
        &ns,
        &[
            "talker",
            "-c",
            "side",
            "--timestamps",
            &format!("--since-time={since}"),
        ],
    );
    assert!(after.lines().count() >= 2, "--since-time={since}: {after}");
    for line in after.lines() {
        let ts: jiff::Timestamp = line.split_once(' ').unwrap().0.parse().unwrap();
        assert!(ts >= since, "{line} is before --since-time={since}");
    }

    // -f follows: lines written after kubectl started arrive
    let last_tick = |s: &str| -> u64 {
        s.lines()
            .filter_map(|l| l.strip_prefix("side tick "))
            .filter_map(|n| n.parse().ok())
            .max()
            .unwrap_or(0)
    };
    let before = last_tick(&logs(&cluster, &ns, &["talker", "-c", "side"]));
    let mut follow = Spawned(
        kubectl_cmd(&cluster, support::ADMIN)
            .args(["-n", &ns, "logs", "-f", "talker", "-c", "side", "--tail=1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let lines = stdout_lines(&mut follow.0);
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut got = Vec::new();
    while last_tick(&got.join("\n")) < before + 3 {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(l) => got.push(l),
            Err(_) => panic!("logs -f: after tick {before}, got only {got:?}"),
        }
    }
}

// ---------------------------------------------------------------------------------------
// exec and port-forward

/// `kubectl exec` runs the command in the container's dir with its env, passes stdin,
/// and returns the command's exit code.
#[test]
#[ignore = "real tier"]
fn exec_exit_code_stdin_and_env() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("hk-exec");
    create(
        &cluster,
        pod(&ns, "box", &[("sh", &[("GREETING", "hello from the pod")])]),
    );
    wait_running(&cluster, &ns, "box");

    let out = cluster.kubectl(&[
        "-n",
        &ns,
        "exec",
        "box",
        "--",
        "sh",
        "-c",
        "echo out; echo err >&2; exit 3",
    ]);
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "out\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains("err\n"), "{out:?}");

    let env = cluster.kubectl_ok(&[
        "-n",
        &ns,
        "exec",
        "box",
        "-c",
        "sh",
        "--",
        "sh",
        "-c",
        "echo \"$GREETING\"",
    ]);
    assert_eq!(env, "hello from the pod\n");

    let mut child = kubectl_cmd(&cluster, support::ADMIN)
        .args([
            "-n",
            &ns,
            "exec",
            "-i",
            "box",
            "--",
            "sh",
            "-c",
            "tr a-z A-Z; exit 7",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"piped through stdin\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "PIPED THROUGH STDIN\n",
        "{out:?}"
    );
    assert_eq!(out.status.code(), Some(7));

    // a file written by one exec is there for the next (per-container working dir)
    cluster.kubectl_ok(&["-n", &ns, "exec", "box", "--", "sh", "-c", "echo kept > note"]);
    assert_eq!(
        cluster.kubectl_ok(&["-n", &ns, "exec", "box", "--", "cat", "note"]),
        "kept\n"
    );
}

/// `kubectl port-forward` reaches a listener the test runs on 127.0.0.1 (the pod's port
/// is the host's port), both directions, through the apiserver and the kubelet.
#[test]
#[ignore = "real tier"]
fn port_forward_round_trip() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("hk-pf");
    create(&cluster, pod(&ns, "srv", &[("app", &[])]));
    wait_running(&cluster, &ns, "srv");

    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut conn) = conn else { break };
            let mut buf = [0u8; 64];
            let n = conn.read(&mut buf).unwrap_or(0);
            let _ = conn.write_all(format!("pong:{}", String::from_utf8_lossy(&buf[..n])).as_bytes());
        }
    });

    let mut pf = Spawned(
        kubectl_cmd(&cluster, support::ADMIN)
            .args(["-n", &ns, "port-forward", "pod/srv", &format!(":{port}")])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let lines = stdout_lines(&mut pf.0);
    // "Forwarding from 127.0.0.1:LOCAL -> PORT"
    let first = lines
        .recv_timeout(Duration::from_secs(20))
        .expect("port-forward started");
    let local: u16 = first
        .strip_prefix("Forwarding from 127.0.0.1:")
        .and_then(|r| r.split_once(' '))
        .and_then(|(p, _)| p.parse().ok())
        .unwrap_or_else(|| panic!("unexpected port-forward output {first:?}"));
    for round in ["ping", "again"] {
        let mut conn = TcpStream::connect(("127.0.0.1", local)).unwrap();
        conn.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        conn.write_all(round.as_bytes()).unwrap();
        let mut got = String::new();
        conn.read_to_string(&mut got).unwrap();
        assert_eq!(got, format!("pong:{round}"));
    }
}

// ---------------------------------------------------------------------------------------
// RBAC

/// The ktui-viewer context may read a pod's logs in team-a, and is refused pods/exec.
#[test]
#[ignore = "real tier"]
fn viewer_reads_logs_but_may_not_exec() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = support::VIEWER_NS;
    let name = support::unique_ns("hk-viewer");
    create(
        &cluster,
        pod(ns, &name, &[("app", &[("HOLLOW_STDOUT", "visible to viewers")])]),
    );
    wait_running(&cluster, ns, &name);
    let out = kubectl_cmd(&cluster, support::VIEWER)
        .args(["logs", &name])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "visible to viewers\n");
    let out = kubectl_cmd(&cluster, support::VIEWER)
        .args(["exec", &name, "--", "true"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("forbidden") && err.contains("\"pods/exec\""),
        "{err}"
    );
    cluster.kubectl_ok(&["-n", ns, "delete", "pod", &name, "--wait=false"]);
}

// ---------------------------------------------------------------------------------------
// teardown

/// On a cluster of its own: down.sh stops the hollow nodes with the rest and leaves
/// nothing of them outside DIR (kubemark alone would leave /tmp/hollow-kubelet.* and
/// /tmp/kubelet_remote_*.sock behind).
#[test]
#[ignore = "real tier"]
fn own_cluster_down_stops_hollow_nodes_and_leaves_no_files() {
    let started = std::time::SystemTime::now();
    let Some(mut cluster) = support::own_cluster() else {
        return;
    };
    let ns = cluster.create_ns("hk-down");
    create(&cluster, pod(&ns, "p", &[("app", &[("HOLLOW_TICK", "100ms")])]));
    wait_running(&cluster, &ns, "p");
    // an exec'd command still running when the cluster goes down
    let _sleeper = Spawned(
        kubectl_cmd(&cluster, support::ADMIN)
            .args(["-n", &ns, "exec", "p", "--", "sleep", "300"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    std::thread::sleep(Duration::from_secs(1));
    let nodes: Vec<u32> = (1..=2)
        .map(|i| {
            std::fs::read_to_string(cluster.dir.join(format!("hollow-node-{i}.pid")))
                .unwrap()
                .trim()
                .parse()
                .unwrap()
        })
        .collect();
    // children of any of the process's threads
    let children = |pid: u32| -> Vec<u32> {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            return vec![];
        };
        tasks
            .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("children")).ok())
            .flat_map(|c| {
                c.split_whitespace()
                    .filter_map(|p| p.parse().ok())
                    .collect::<Vec<u32>>()
            })
            .collect()
    };
    let exec_children: Vec<u32> = nodes.iter().flat_map(|p| children(*p)).collect();
    assert!(
        !exec_children.is_empty(),
        "the exec'd sleep is a child of a hollow node"
    );
    cluster.stop();
    for pid in nodes.iter().chain(&exec_children) {
        assert!(
            !support::process_alive(*pid),
            "pid {pid} still running after down.sh"
        );
    }
    assert!(!cluster.dir.exists());
    // what kubemark's defaults would have made in the temp dir since this test started
    let tmp = std::env::temp_dir();
    let stray: Vec<String> = std::fs::read_dir(&tmp)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| t >= started)
        })
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| {
            n.starts_with("hollow-kubelet.")
                || n.starts_with("kubelet_remote_")
                || n.starts_with("static-pods")
        })
        .collect();
    assert!(stray.is_empty(), "left in {}: {stray:?}", tmp.display());
}
