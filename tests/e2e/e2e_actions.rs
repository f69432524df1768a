//! Writes end to end against the real API server with hollow kubelets (issue 16): the real
//! binary in a pty, keys in, then the cluster (through kubectl) and the screen checked.
//! Each test uses its own namespace; the drain test its own cluster (it cordons a node).

use std::time::{Duration, Instant};

use crate::support::{self, Cluster};
use crate::util::{has_row, ktui_with, SLOW};

const CTRL_D: &[u8] = b"\x04";
const CTRL_K: &[u8] = b"\x0b";

/// A deployment of `replicas` pods that run on the hollow nodes.
fn deployment(cluster: &Cluster, ns: &str, name: &str, replicas: u32, image: &str) {
    let d = serde_json::json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": name, "namespace": ns},
        "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": name}},
            "template": {"metadata": {"labels": {"app": name}},
                "spec": {"terminationGracePeriodSeconds": 1,
                    "containers": [{"name": "c", "image": image}]}}}
    });
    apply(cluster, &d);
}

fn apply(cluster: &Cluster, obj: &serde_json::Value) {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), obj.to_string()).unwrap();
    cluster.kubectl_ok(&["apply", "-f", file.path().to_str().unwrap()]);
}

/// `kubectl get … -o jsonpath=…` as admin.
fn jsonpath(cluster: &Cluster, ns: &str, what: &[&str], path: &str) -> String {
    let out = cluster.kubectl(&[&["-n", ns, "get"], what, &["-o", &format!("jsonpath={path}")]].concat());
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// Polls `f` until it is true (the cluster converging), failing after [`SLOW`].
fn eventually(what: &str, f: impl Fn() -> bool) {
    let t0 = Instant::now();
    while !f() {
        assert!(t0.elapsed() < SLOW, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// ktui on the admin context in `ns`, showing `view`.
fn ktui(cluster: &Cluster, ns: &str, view: &str) -> crate::util::Ktui {
    ktui_with(&cluster.kubeconfig, &["-n", ns, "-c", view], 40)
}

/// Narrows the list to `name` and waits for its row.
fn select(k: &mut crate::util::Ktui, name: &str) {
    k.wait_until(&format!("row {name}"), SLOW, |s| has_row(s, name));
    k.type_keys("/");
    k.type_keys(name);
    k.press_enter();
    k.wait_for(&format!("</{name}>"), SLOW);
}

#[test]
#[ignore = "real tier"]
fn bulk_delete_of_marked_pods_names_the_context_and_defaults_to_no() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-bulk-delete");
    crate::util::create_pods(&cluster, &ns, &["a1", "a2", "keep"]);
    let mut k = ktui(&cluster, &ns, "pods");
    k.wait_until("three pods", SLOW, |s| {
        has_row(s, "a1") && has_row(s, "a2") && has_row(s, "keep")
    });
    k.type_keys("  ");
    k.wait_for("2 marked", SLOW);
    k.send(CTRL_D);
    k.wait_for("delete 2 pods?", SLOW);
    k.wait_for("pods: a1, a2", SLOW);
    k.wait_for("context: ktui-test", SLOW);
    k.wait_for(&format!("namespace: {ns}"), SLOW);
    // Enter on the selected button is "no".
    k.press_enter();
    k.wait_for("cancelled: nothing was sent", SLOW);
    assert_eq!(
        jsonpath(&cluster, &ns, &["pods"], "{.items[*].metadata.name}"),
        "a1 a2 keep"
    );
    k.send(CTRL_D);
    k.wait_for("delete 2 pods?", SLOW);
    k.type_keys("y");
    k.wait_for("deleted 2 pods", SLOW);
    eventually("a1 and a2 gone", || {
        jsonpath(&cluster, &ns, &["pods"], "{.items[*].metadata.name}") == "keep"
    });
    k.wait_until("the rows gone through the informer", SLOW, |s| {
        !has_row(s, "a1") && !has_row(s, "a2")
    });
    assert!(has_row(&k.screen(), "keep"));
}

#[test]
#[ignore = "real tier"]
fn delete_with_each_propagation_policy() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-propagation");
    for d in ["bg", "fg", "or"] {
        deployment(&cluster, &ns, d, 1, "example.com/app:1");
    }
    eventually("three replicasets", || {
        jsonpath(&cluster, &ns, &["rs"], "{.items[*].metadata.name}")
            .split_whitespace()
            .count()
            == 3
    });
    let mut k = ktui(&cluster, &ns, "deploy");
    // (deployment, right presses on the propagation field)
    for (name, rights) in [("bg", 0), ("fg", 1), ("or", 2)] {
        select(&mut k, name);
        k.send(CTRL_D);
        k.wait_for(&format!("delete deployment/{name}?"), SLOW);
        k.type_keys("\t");
        for _ in 0..rights {
            k.send(b"\x1b[C");
            std::thread::sleep(Duration::from_millis(80));
        }
        let word = ["background", "foreground", "orphan"][rights];
        k.wait_for(&format!("‹ {word} ›"), SLOW);
        k.type_keys("y");
        k.wait_for(&format!("deleted deployment/{name}"), SLOW);
        k.press_esc();
        k.wait_gone(&format!("</{name}>"), SLOW);
    }
    eventually("the deployments gone", || {
        jsonpath(&cluster, &ns, &["deploy"], "{.items[*].metadata.name}").is_empty()
    });
    // Background and foreground took the ReplicaSets along; orphan left its own.
    eventually("only the orphaned replicaset left", || {
        let rs = jsonpath(&cluster, &ns, &["rs"], "{.items[*].metadata.name}");
        rs.split_whitespace().count() == 1 && rs.starts_with("or-")
    });
    let owners = jsonpath(&cluster, &ns, &["rs"], "{.items[0].metadata.ownerReferences}");
    assert!(owners.is_empty(), "orphaned: {owners}");
}

#[test]
#[ignore = "real tier"]
fn force_delete_warns_asks_twice_and_does_not_wait_for_the_kubelet() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-force");
    // A container that takes 60 s to stop: a graceful delete leaves it Terminating.
    let pod = serde_json::json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "stuck", "namespace": ns},
        "spec": {"terminationGracePeriodSeconds": 120, "containers": [{"name": "c",
            "image": "example.com/app:1", "env": [{"name": "HOLLOW_STOP_AFTER", "value": "60s"}]}]}});
    apply(&cluster, &pod);
    eventually("stuck running", || {
        jsonpath(&cluster, &ns, &["pod", "stuck"], "{.status.phase}") == "Running"
    });
    let mut k = ktui(&cluster, &ns, "pods");
    select(&mut k, "stuck");
    k.send(CTRL_K);
    k.wait_for("force delete pod/stuck?", SLOW);
    k.wait_for("without waiting for the kubelet", SLOW);
    k.type_keys("y");
    k.wait_for("really force", SLOW);
    k.type_keys("y");
    k.wait_for("force deleted pod/stuck", SLOW);
    eventually("the pod gone from the API", || {
        !String::from_utf8_lossy(&cluster.kubectl(&["-n", &ns, "get", "pods", "-o", "name"]).stdout)
            .contains("stuck")
    });
}

#[test]
#[ignore = "real tier"]
fn scale_up_and_down_through_the_dialog() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-scale");
    deployment(&cluster, &ns, "web", 1, "example.com/app:1");
    let mut k = ktui(&cluster, &ns, "deploy");
    k.wait_until("web 1/1", SLOW, |s| s.contains("1/1"));
    for (from, to) in [(1, 3), (3, 1)] {
        k.type_keys("s");
        k.wait_for(&format!("scale deployment/web (now {from})?"), SLOW);
        k.send(b"\x7f");
        k.type_keys(&to.to_string());
        k.type_keys("y");
        k.wait_for(&format!("scaled deployment/web to {to}"), SLOW);
        eventually("spec.replicas", || {
            jsonpath(&cluster, &ns, &["deploy", "web"], "{.spec.replicas}") == to.to_string()
        });
        k.wait_for(&format!("{to}/{to}"), SLOW);
    }
    let managers = jsonpath(
        &cluster,
        &ns,
        &["deploy", "web"],
        "{.metadata.managedFields[*].manager}",
    );
    assert!(
        managers.split_whitespace().any(|m| m == "ktui"),
        "field manager: {managers}"
    );
}

#[test]
#[ignore = "real tier"]
fn rollout_restart_rolls_a_new_replicaset_and_rollback_returns_to_revision_one() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-rollout");
    deployment(&cluster, &ns, "web", 1, "example.com/app:1");
    eventually("revision 1", || {
        jsonpath(&cluster, &ns, &["rs"], "{.items[*].metadata.name}")
            .split_whitespace()
            .count()
            == 1
    });
    let mut k = ktui(&cluster, &ns, "deploy");
    select(&mut k, "web");
    k.type_keys("r");
    k.wait_for("rollout restart deployment/web?", SLOW);
    k.type_keys("y");
    k.wait_for("restarted deployment/web", SLOW);
    eventually("a second replicaset", || {
        jsonpath(&cluster, &ns, &["rs"], "{.items[*].metadata.name}")
            .split_whitespace()
            .count()
            == 2
    });
    let at = jsonpath(
        &cluster,
        &ns,
        &["deploy", "web"],
        "{.spec.template.metadata.annotations.kubectl\\.kubernetes\\.io/restartedAt}",
    );
    assert!(at.ends_with('Z') && at.len() == 20, "restartedAt {at:?}");
    // Revision 3: a new image; then roll back to revision 1 from the list of revisions.
    cluster.kubectl_ok(&["-n", &ns, "set", "image", "deployment/web", "c=example.com/app:2"]);
    eventually("three replicasets", || {
        jsonpath(&cluster, &ns, &["rs"], "{.items[*].metadata.name}")
            .split_whitespace()
            .count()
            == 3
    });
    k.type_keys("u");
    // The revisions view: newest first, the one in use marked, the previous one selected.
    k.wait_for("revisions(deployment/web)[3]", SLOW);
    let s = k.screen();
    let line = |n: &str| s.lines().find(|l| l.contains(n)).unwrap_or_default().to_owned();
    assert!(line("3 (in use)").contains("example.com/app:2"), "\n{s}");
    assert!(line("example.com/app:1").contains("<none>"), "\n{s}");
    let order: Vec<usize> = ["3 (in use)", "│2 ", "│1 "]
        .iter()
        .map(|n| s.find(n).unwrap_or_else(|| panic!("{n} missing\n{s}")))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "newest first\n{s}");
    // enter on the one in use is refused in words; on revision 1 the dialog names the context.
    k.type_keys("k");
    k.press_enter();
    k.wait_for("revision 3 is the one deployment/web runs", SLOW);
    k.type_keys("jj");
    k.press_enter();
    k.wait_for("roll back deployment/web?", SLOW);
    k.wait_for("‹ 1  example.com/app:1", SLOW);
    assert!(
        k.screen().contains(support::ADMIN),
        "the dialog names the context"
    );
    k.send(b"\t");
    k.type_keys("y");
    k.wait_for("rolled deployment/web back to revision 1", SLOW);
    eventually("the template of revision 1", || {
        jsonpath(
            &cluster,
            &ns,
            &["deploy", "web"],
            "{.spec.template.spec.containers[0].image}",
        ) == "example.com/app:1"
            && jsonpath(
                &cluster,
                &ns,
                &["deploy", "web"],
                "{.spec.template.metadata.annotations}",
            )
            .is_empty()
    });
}

#[test]
#[ignore = "real tier"]
fn cronjob_trigger_creates_a_job_as_kubectl_does_and_suspend_toggles() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-cronjob");
    let cj = serde_json::json!({"apiVersion": "batch/v1", "kind": "CronJob",
        "metadata": {"name": "backup", "namespace": ns},
        "spec": {"schedule": "0 0 1 1 *", "jobTemplate": {"metadata": {"labels": {"team": "ops"}},
            "spec": {"template": {"spec": {"restartPolicy": "Never",
                "containers": [{"name": "c", "image": "example.com/batch:1",
                    "env": [{"name": "HOLLOW_EXIT_AFTER", "value": "1s"}]}]}}}}}});
    apply(&cluster, &cj);
    let mut k = ktui(&cluster, &ns, "cj");
    select(&mut k, "backup");
    k.type_keys("t");
    k.wait_for("trigger cronjob/backup now?", SLOW);
    k.type_keys("y");
    k.wait_for("created job/backup-manual-", SLOW);
    eventually("the job", || {
        jsonpath(&cluster, &ns, &["jobs"], "{.items[*].metadata.name}").starts_with("backup-manual-")
    });
    let ann = jsonpath(
        &cluster,
        &ns,
        &["jobs"],
        "{.items[0].metadata.annotations.cronjob\\.kubernetes\\.io/instantiate}",
    );
    assert_eq!(ann, "manual");
    assert_eq!(
        jsonpath(
            &cluster,
            &ns,
            &["jobs"],
            "{.items[0].metadata.ownerReferences[0].name}"
        ),
        "backup"
    );
    assert_eq!(
        jsonpath(&cluster, &ns, &["jobs"], "{.items[0].metadata.labels.team}"),
        "ops"
    );
    k.type_keys("s");
    k.wait_for("suspend cronjob/backup?", SLOW);
    k.type_keys("y");
    k.wait_for("suspended cronjob/backup", SLOW);
    eventually("suspended", || {
        jsonpath(&cluster, &ns, &["cj", "backup"], "{.spec.suspend}") == "true"
    });
}

#[test]
#[ignore = "real tier"]
fn the_viewer_is_not_offered_delete_and_the_server_refuses_it_verbatim() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let name = support::unique_ns("victim");
    crate::util::create_pods(&cluster, support::VIEWER_NS, &[&name]);
    let mut k = ktui_with(
        &cluster.kubeconfig,
        &["--context", support::VIEWER, "-c", "pods"],
        40,
    );
    select(&mut k, &name);
    // The gate asks in the background; once it knows, help no longer offers delete.
    let t0 = Instant::now();
    loop {
        k.type_keys("?");
        k.wait_for("Keys", SLOW);
        let offered = k.screen().contains("ctrl-d");
        k.type_keys("?");
        k.wait_gone("Keys", SLOW);
        if !offered {
            break;
        }
        assert!(t0.elapsed() < SLOW, "help still offers delete to the viewer");
        std::thread::sleep(Duration::from_millis(300));
    }
    k.send(CTRL_D);
    k.wait_for("forbidden: delete pods in team-a", SLOW);
    // Elsewhere (without the gate) the server refuses, and ktui says it verbatim.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let err = rt.block_on(async {
        let client = cluster.client(support::VIEWER).await;
        let t = ktui::kube::write::Target::new(
            ktui::kube::builtin::BuiltinKind::Pod.into(),
            Some(support::VIEWER_NS),
            &name,
        );
        ktui::kube::write::delete::delete(&client, &t, &Default::default())
            .await
            .unwrap_err()
    });
    assert_eq!(err.code, 403);
    assert!(
        err.message.contains("cannot delete resource \"pods\"") && err.message.contains("team-a"),
        "{}",
        err.message
    );
    force_delete(&cluster, &name);
}

fn force_delete(cluster: &Cluster, name: &str) {
    crate::util::force_delete_pod(cluster, support::VIEWER_NS, name);
}

#[test]
#[ignore = "real tier"]
fn readonly_offers_no_write_in_any_view() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-readonly");
    deployment(&cluster, &ns, "web", 1, "example.com/app:1");
    let mut k = ktui_with(
        &cluster.kubeconfig,
        &["--readonly", "-n", &ns, "-c", "deploy"],
        40,
    );
    k.wait_for("[read-only]", SLOW);
    for view in ["deploy", "pods", "nodes", "cj", "sts", "ds", "rs", "jobs"] {
        k.command(view);
        k.wait_until(&format!("{view} listed"), SLOW, |s| {
            s.contains(" live") || s.contains("no resources")
        });
        k.type_keys("?");
        k.wait_for("Keys", SLOW);
        let help = k.screen();
        for key in [
            "ctrl-d",
            "ctrl-k",
            "scale",
            "restart",
            "drain",
            "cordon",
            "trigger",
            "roll back",
        ] {
            assert!(!help.contains(key), "{view}: help offers {key}:\n{help}");
        }
        k.type_keys("?");
        k.wait_gone("Keys", SLOW);
    }
    k.command("deploy");
    select(&mut k, "web");
    for key in [CTRL_D, CTRL_K, b"s".as_slice(), b"r", b"u"] {
        k.send(key);
        std::thread::sleep(Duration::from_millis(200));
        assert!(
            !k.screen().contains("y yes · n/esc no"),
            "a dialog opened in read-only:\n{}",
            k.screen()
        );
    }
    assert_eq!(
        jsonpath(&cluster, &ns, &["deploy", "web"], "{.spec.replicas}"),
        "1"
    );
}

#[test]
#[ignore = "real tier"]
fn cordon_then_drain_streams_evictions_and_a_pdb_refusal() {
    let Some(cluster) = support::own_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-drain");
    deployment(&cluster, &ns, "free", 1, "example.com/app:1");
    deployment(&cluster, &ns, "guarded", 1, "example.com/app:1");
    apply(
        &cluster,
        &serde_json::json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
            "metadata": {"name": "guarded", "namespace": ns},
            "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": "guarded"}}}}),
    );
    eventually("both running and the budget at 0 disruptions", || {
        jsonpath(&cluster, &ns, &["pods"], "{.items[*].status.phase}") == "Running Running"
            && jsonpath(&cluster, &ns, &["pdb", "guarded"], "{.status.currentHealthy}") == "1"
    });
    let mut k = ktui_with(&cluster.kubeconfig, &["-c", "nodes"], 40);
    select(&mut k, "node-2");
    k.type_keys("C");
    k.wait_for("cordon node/node-2?", SLOW);
    k.type_keys("y");
    k.wait_for("SchedulingDisabled", SLOW);
    k.type_keys("U");
    k.wait_for("uncordon node/node-2?", SLOW);
    k.type_keys("y");
    k.wait_gone("SchedulingDisabled", SLOW);
    k.type_keys("r");
    k.wait_for("drain node/node-2?", SLOW);
    // Timeout field (the fifth): 8 s, so the refused pod ends the drain soon.
    for _ in 0..5 {
        k.send(b"\t");
    }
    for _ in 0..3 {
        k.send(b"\x7f");
    }
    k.type_keys("8");
    k.send(b"\t");
    k.type_keys("y");
    k.wait_for("node/node-2 cordoned", SLOW);
    k.wait_for(&format!("evicted {ns}/free-"), SLOW);
    k.wait_for(&format!("refused {ns}/guarded-"), SLOW);
    k.wait_for("timed out; not evicted", SLOW);
    assert_eq!(
        jsonpath(&cluster, "default", &["node", "node-2"], "{.spec.unschedulable}"),
        "true"
    );
    k.press_esc();
    // The overlay closes; the footer keeps the outcome.
    k.wait_gone("any key closes", SLOW);
    assert!(k
        .screen()
        .lines()
        .last()
        .unwrap_or_default()
        .contains("timed out; not evicted"));
}

/// `e` with a scripted `$EDITOR`: the first save meets a concurrent `kubectl patch` (409:
/// reopened with the conflict on top), the second is invalid YAML (reopened with the parse
/// error), the third goes through; then an edit saved unchanged sends nothing.
#[test]
#[ignore = "real tier"]
fn edit_round_trip_with_conflict_and_invalid_yaml() {
    use std::os::unix::fs::PermissionsExt;
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-edit");
    cluster.kubectl_ok(&["-n", &ns, "create", "configmap", "cfg", "--from-literal=k=v1"]);
    let dir = tempfile::tempdir().unwrap();
    let calls = dir.path().join("calls");
    let script = dir.path().join("editor.sh");
    let kubectl = format!(
        "{} --kubeconfig {} --context {}",
        cluster.kubectl.display(),
        cluster.kubeconfig.display(),
        support::ADMIN
    );
    std::fs::write(
        &script,
        format!(
            r#"#!/bin/sh
f="$1"; n=$(cat {calls} 2>/dev/null | grep -c '^call'); echo "call $n" >> {calls}
case $n in
0) sed -i 's/k: v1/k: v2/' "$f"; {kubectl} -n {ns} patch configmap cfg -p '{{"data":{{"other":"x"}}}}' >/dev/null ;;
1) grep -q 'changed on the server' "$f" && echo "saw conflict" >> {calls}; echo 'extra: [unclosed' >> "$f" ;;
2) grep -q 'invalid YAML' "$f" && echo "saw invalid" >> {calls}; sed -i '/^extra:/d' "$f" ;;
*) : ;;
esac
"#,
            calls = calls.display(),
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir(&home).unwrap();
    let log = dir.path().join("ktui.log");
    let args: Vec<std::ffi::OsString> = vec![
        "--kubeconfig".into(),
        cluster.kubeconfig.clone().into(),
        "--log-file".into(),
        log.clone().into(),
        "-n".into(),
        ns.clone().into(),
        "-c".into(),
        "cm".into(),
    ];
    // A temp dir of its own: the leftover check below must not see another run's files.
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let envs: [(&str, &std::ffi::OsStr); 7] = [
        ("KUBECONFIG", cluster.kubeconfig.as_os_str()),
        ("TMPDIR", tmp.as_os_str()),
        ("HOME", home.as_os_str()),
        ("XDG_CONFIG_HOME", home.as_os_str()),
        ("XDG_STATE_HOME", home.as_os_str()),
        ("KUBE_EDITOR", script.as_os_str()),
        ("EDITOR", std::ffi::OsStr::new("false")),
    ];
    let mut k = crate::pty::Tui::spawn(env!("CARGO_BIN_EXE_ktui"), &args, &envs, 40, crate::util::COLS);
    k.log_file = Some(log);
    k.wait_until("row cfg", SLOW, |s| has_row(s, "cfg"));
    k.type_keys("/cfg");
    k.press_enter();
    k.wait_for("</cfg>", SLOW);
    k.type_keys("e");
    k.wait_for("edited configmap/cfg", SLOW);
    let log = std::fs::read_to_string(&calls).unwrap();
    assert_eq!(
        log, "call 0\ncall 1\nsaw conflict\ncall 2\nsaw invalid\n",
        "editor calls"
    );
    assert_eq!(jsonpath(&cluster, &ns, &["cm", "cfg"], "{.data.k}"), "v2");
    // The save after the conflict replaced the newer version, as its comment said.
    assert_eq!(jsonpath(&cluster, &ns, &["cm", "cfg"], "{.data.other}"), "");
    let rv = jsonpath(&cluster, &ns, &["cm", "cfg"], "{.metadata.resourceVersion}");
    // Call 3 saves nothing: no request.
    k.type_keys("e");
    k.wait_for("no changes; nothing was sent", SLOW);
    assert_eq!(
        jsonpath(&cluster, &ns, &["cm", "cfg"], "{.metadata.resourceVersion}"),
        rv
    );
    let leftovers: Vec<_> = std::fs::read_dir(&tmp).unwrap().filter_map(|e| e.ok()).collect();
    assert!(leftovers.is_empty(), "temp files left: {leftovers:?}");
}
