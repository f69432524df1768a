//! End-to-end: logs against `ktui --demo` in a pseudo-terminal — `l` on a pod follows its
//! lines, `p` shows the crash-looping pod's previous instance with its crash trace, `enter`
//! on a multi-container pod lists init/sidecar/app containers and `l` on one opens that
//! container, `l` on a pod without a default container merges all of its containers.
use crate::util;

use std::time::Duration;

use util::*;

fn demo(rows: u16) -> (tempfile::TempDir, Ktui) {
    let dir = tempfile::tempdir().unwrap();
    let k = ktui_with(&dir.path().join("no-kubeconfig"), &["--demo", "-n", "shop"], rows);
    (dir, k)
}

#[test]
fn l_follows_a_pod_and_p_shows_the_previous_crash() {
    let (_d, mut k) = demo(30);
    k.wait_for("frontend-", SLOW);
    k.type_keys("/frontend");
    k.press_enter();
    k.type_keys("l");
    k.wait_until("access log lines, following", SLOW, |s| {
        s.contains("HTTP/1.1") && s.contains("following") && s.contains("logs pod/frontend-")
    });
    // Timestamps on and off keep the view.
    k.type_keys("t");
    k.wait_until("timestamps shown", SLOW, |s| s.contains("Z 10.244."));
    // Back to the list, then clear its filter.
    k.press_esc();
    k.wait_for("pods(shop)", SLOW);
    k.press_esc();
    k.wait_for("CrashLoopBackOff", SLOW);
    k.type_keys("/checkout");
    k.press_enter();
    k.type_keys("l");
    k.wait_for("logs pod/checkout-", SLOW);
    k.type_keys("p");
    k.wait_until("the previous instance's crash trace", SLOW, |s| {
        s.contains("[previous]") && s.contains("panic: runtime error") && s.contains("goroutine 1")
    });
    k.command("q");
    let (status, _) = k.wait_exit(SLOW).expect("ktui exits on :q");
    assert!(status.success(), "{status:?}");
}

/// The body lines of a log view on screen (access log lines of the demo's frontend).
fn access_lines(s: &str) -> Vec<&str> {
    s.lines().filter(|l| l.contains("HTTP/1.1")).collect()
}

#[test]
fn the_filter_hides_other_lines_live_excludes_with_a_bang_and_esc_drops_it() {
    let (_d, mut k) = demo(30);
    k.wait_for("frontend-", SLOW);
    k.type_keys("/frontend");
    k.press_enter();
    k.type_keys("l");
    k.wait_until("access log lines, following", SLOW, |s| {
        access_lines(s).len() > 10 && s.contains("following")
    });
    // Live: every line shown matches while the prompt is still open.
    k.type_keys("/healthz");
    k.wait_until("only /healthz lines", SLOW, |s| {
        let l = access_lines(s);
        l.len() > 3 && l.iter().all(|l| l.contains("/healthz"))
    });
    k.press_esc();
    k.wait_until("every path again", SLOW, |s| {
        access_lines(s).iter().any(|l| !l.contains("/healthz"))
    });
    k.type_keys("/!healthz");
    k.press_enter();
    k.wait_until("no /healthz line, the filter in the title", SLOW, |s| {
        let l = access_lines(s);
        l.len() > 10 && l.iter().all(|l| !l.contains("/healthz")) && s.contains("[/!healthz]")
    });
    k.command("q");
    let (status, _) = k.wait_exit(SLOW).expect("ktui exits on :q");
    assert!(status.success(), "{status:?}");
}

#[test]
fn containers_view_and_container_choice() {
    let dir = tempfile::tempdir().unwrap();
    let mut k = ktui_with(&dir.path().join("no-kubeconfig"), &["--demo", "-n", "data"], 30);
    k.wait_for("postgres-0", SLOW);
    k.type_keys("/postgres-0");
    k.press_enter();
    k.press_enter();
    k.wait_until("init, sidecar and app containers with states", SLOW, |s| {
        s.contains("containers of pod/postgres-0")
            && s.contains("init-perms")
            && s.contains("sidecar")
            && s.contains("Terminated: Completed")
            && s.contains("5432/TCP")
    });
    // The second row is the exporter sidecar.
    k.type_keys("jl");
    k.wait_until("the exporter's lines", SLOW, |s| {
        s.contains("-c exporter") && s.contains("scrape complete")
    });
    k.press_esc();
    k.press_esc();
    k.press_esc();
    // postgres-1 has no default-container annotation: all containers, prefixed.
    k.type_keys("/postgres-1");
    k.press_enter();
    k.type_keys("l");
    k.wait_until("merged containers with prefixes", SLOW, |s| {
        s.contains("postgres-1/exporter") && s.contains("postgres-1/postgres")
    });
    k.command("q");
    let (status, _) = k.wait_exit(SLOW).expect("ktui exits on :q");
    assert!(status.success(), "{status:?}");
}

#[test]
fn a_workload_view_attaches_new_pods_and_marks_gone_ones() {
    let dir = tempfile::tempdir().unwrap();
    let mut k = ktui_with(
        &dir.path().join("no-kubeconfig"),
        &["--demo", "-n", "shop", "-c", "deploy"],
        30,
    );
    k.wait_for("frontend", SLOW);
    k.type_keys("/frontend");
    k.press_enter();
    k.type_keys("l");
    k.wait_until("three frontend pods merged, prefixed", SLOW, |s| {
        s.contains("logs deployment/frontend") && s.contains("of 3 streams") && s.contains("/frontend ")
    });
    // The demo replaces a frontend pod every 25 s: the new one is attached from the pod
    // watch, the old one is marked gone.
    k.wait_until("a fourth source and a gone one", Duration::from_secs(90), |s| {
        s.contains("of 4 streams") && s.contains("1 gone")
    });
    k.command("q");
    let (status, _) = k.wait_exit(SLOW).expect("ktui exits on :q");
    assert!(status.success(), "{status:?}");
}

/// Creates one object given as JSON on the real cluster.
fn create(cluster: &crate::support::Cluster, obj: serde_json::Value) {
    let file = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(file.path(), obj.to_string()).expect("write manifest");
    cluster.kubectl_ok(&["create", "-f", file.path().to_str().unwrap()]);
}

#[test]
#[ignore = "real tier"]
fn real_crash_loop_follows_restarts_and_shows_the_previous_instance() {
    let Some(cluster) = crate::support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-logs");
    let env = serde_json::json!([
        {"name": "HOLLOW_STDOUT", "value": "starting run {attempt}"},
        {"name": "HOLLOW_TICK", "value": "300ms"},
        {"name": "HOLLOW_TICK_LINE", "value": "run {attempt} tick {n}"},
        {"name": "HOLLOW_EXIT_AFTER", "value": "3s"},
        {"name": "HOLLOW_EXIT_CODE", "value": "3"}
    ]);
    create(
        &cluster,
        serde_json::json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "crashy", "namespace": ns},
            "spec": {"containers": [{"name": "app", "image": "example.com/app:1", "env": env}],
                     "terminationGracePeriodSeconds": 1}}),
    );
    let mut k = ktui(&cluster, &["-n", &ns]);
    wait_live(&k);
    k.wait_for("crashy", SLOW);
    k.type_keys("l");
    k.wait_until("the first run's ticks", SLOW, |s| {
        s.contains("run 0 tick") && s.contains("logs pod/crashy")
    });
    // The container exits and restarts: the view reopens the stream on the new instance.
    k.wait_until("the second run, reconnected", Duration::from_secs(60), |s| {
        s.contains("starting run 1") && s.contains("run 0 tick")
    });
    k.type_keys("p");
    k.wait_until("a previous instance", SLOW, |s| {
        s.contains("[previous]") && s.contains("tick")
    });
    k.command("q");
    let (status, _) = k.wait_exit(SLOW).expect("ktui exits on :q");
    assert!(status.success(), "{status:?}");
}

#[test]
#[ignore = "real tier"]
fn real_completed_job_logs() {
    let Some(cluster) = crate::support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-joblogs");
    let env = serde_json::json!([
        {"name": "HOLLOW_STDOUT", "value": "report line one\nreport line two"},
        {"name": "HOLLOW_EXIT_AFTER", "value": "1s"}
    ]);
    create(
        &cluster,
        serde_json::json!({"apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"name": "report", "namespace": ns},
            "spec": {"template": {"spec": {"restartPolicy": "Never",
                "containers": [{"name": "job", "image": "example.com/job:1", "env": env}]}}}}),
    );
    let mut k = ktui(&cluster, &["-n", &ns, "-c", "jobs"]);
    wait_live(&k);
    k.wait_until("the job completes", Duration::from_secs(60), |s| {
        s.contains("report") && s.contains("1/1")
    });
    k.type_keys("l");
    k.wait_until("the completed job's lines", SLOW, |s| {
        s.contains("report line one") && s.contains("report line two")
    });
    k.command("q");
    let (status, _) = k.wait_exit(SLOW).expect("ktui exits on :q");
    assert!(status.success(), "{status:?}");
}

#[test]
#[ignore = "real tier"]
fn real_forbidden_without_pods_log() {
    let Some(cluster) = crate::support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-nolog");
    // The viewer may list and watch pods here, but not get pods/log.
    create(
        &cluster,
        serde_json::json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
            "metadata": {"name": "pods-only", "namespace": ns},
            "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "list", "watch"]}]}),
    );
    create(
        &cluster,
        serde_json::json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
            "metadata": {"name": "pods-only", "namespace": ns},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "pods-only"},
            "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": crate::support::VIEWER}]}),
    );
    let env = serde_json::json!([{"name": "HOLLOW_TICK", "value": "500ms"}]);
    create(
        &cluster,
        serde_json::json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "quiet", "namespace": ns},
            "spec": {"containers": [{"name": "app", "image": "example.com/app:1", "env": env}],
                     "terminationGracePeriodSeconds": 1}}),
    );
    let mut k = ktui(&cluster, &["--context", crate::support::VIEWER, "-n", &ns]);
    k.wait_until("the pod runs", Duration::from_secs(60), |s| {
        s.contains("quiet") && s.contains("Running")
    });
    k.type_keys("l");
    k.wait_for("forbidden: get pods/log", SLOW);
    k.command("q");
    let (status, _) = k.wait_exit(SLOW).expect("ktui exits on :q");
    assert!(status.success(), "{status:?}");
}

/// The `tick N` numbers of a saved log file, in order.
fn ticks(text: &str) -> Vec<u64> {
    text.lines()
        .filter_map(|l| {
            let (_, n) = l.rsplit_once("tick ")?;
            let digits: String = n.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .collect()
}

#[test]
#[ignore = "real tier"]
fn real_reconnect_after_the_apiserver_drops_the_stream_loses_and_repeats_nothing() {
    let Some(cluster) = crate::support::own_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-reconnect");
    let env = serde_json::json!([{"name": "HOLLOW_TICK", "value": "100ms"}]);
    create(
        &cluster,
        serde_json::json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "ticker", "namespace": ns},
            "spec": {"containers": [{"name": "app", "image": "example.com/app:1", "env": env}],
                     "terminationGracePeriodSeconds": 1}}),
    );
    let mut k = ktui(&cluster, &["-n", &ns]);
    wait_live(&k);
    k.wait_until("the pod runs", Duration::from_secs(60), |s| {
        s.contains("ticker") && s.contains("Running")
    });
    k.type_keys("l");
    k.wait_for("tick 20", SLOW);
    // Restarting kube-apiserver drops every stream (and watch) of ktui.
    cluster.force_410();
    let newest = |s: &str| ticks(s).into_iter().max().unwrap_or(0);
    let before = newest(&k.screen());
    k.wait_until("ticks well after the restart", Duration::from_secs(60), |s| {
        newest(s) > before + 80
    });
    k.send("\x13"); // ctrl-s
    k.wait_for("saved", SLOW);
    let saved = k
        .log_file
        .as_ref()
        .unwrap()
        .parent()
        .unwrap()
        .join("ktui")
        .join("saved");
    let file = std::fs::read_dir(&saved).unwrap().next().unwrap().unwrap().path();
    let got = ticks(&std::fs::read_to_string(&file).unwrap());
    assert!(got.len() > 100, "{} lines", got.len());
    for w in got.windows(2) {
        assert_eq!(w[1], w[0] + 1, "a line lost or repeated around tick {}", w[0]);
    }
    k.command("q");
    let (status, _) = k.wait_exit(SLOW).expect("ktui exits on :q");
    assert!(status.success(), "{status:?}");
}
