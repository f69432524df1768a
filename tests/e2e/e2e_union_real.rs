//! End-to-end on the real tier: a union of contexts over the real test cluster and two
//! `ktui demo-server` processes (seeds 2 and 3) behind one kubeconfig the test writes (the real
//! cluster's cluster and user entries copied as they are: CA data and bearer token). Contexts,
//! in the union's order: `demo-a`, `ktui-test` (the real cluster), `demo-b`.
//!
//! Two pods run on the real cluster (hollow kubelets) in a namespace of the test's own, and
//! the pod to delete also exists, same namespace and name, in both demo clusters: the union's
//! pods view shows the three copies, one per CONTEXT; `y` on the real row opens its YAML in the
//! real cluster (`@ ktui-test`, the real uid); `ctrl-d`, `y` deletes it there — checked with
//! kubectl — while the demo copies keep their uids and the demo servers their pod counts
//! (plain HTTP). Then one demo server is SIGKILLed mid-view: within 15 s the header says in
//! words that its member is not live (`reconnecting …`), the real cluster's member stays live
//! (its bare row count, or `COUNT ● live`), and the filter still finds the real pod that is
//! left. The namespace (deleted with `--wait=false`), the demo servers and ktui are cleaned
//! up on drop, a panic included.
use crate::support::{self, Cluster};
use crate::union_support::*;
use crate::usage_screen as us;
use crate::util::*;

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const WIDE: u16 = 200;
const TALL: u16 = 50;
const CTRL_D: &[u8] = b"\x04";
/// The demo members' contexts (seeds 2 and 3); the real one is [`support::ADMIN`].
const DEMO_A: &str = "demo-a";
const DEMO_B: &str = "demo-b";
/// How long a killed member may still read `live`.
const NOTICE: Duration = Duration::from_secs(15);

/// Makes a file path in a kubeconfig entry absolute (relative paths are relative to the
/// kubeconfig they came from, which the merged one does not sit beside).
fn absolute(entry: &mut Value, key: &str, base: &Path) {
    if let Some(p) = entry.get(key).and_then(Value::as_str) {
        if Path::new(p).is_relative() {
            entry[key] = json!(base.join(p).display().to_string());
        }
    }
}

/// One kubeconfig (mode 0600) with contexts `demo-a`, `ktui-test`, `demo-b`: the real
/// cluster's context with its cluster and user entries copied from its kubeconfig as they
/// are (CA data, token; file paths made absolute), the demo servers' admin URL and token.
/// Written as JSON (a kubeconfig is YAML, and JSON is YAML).
fn merged_kubeconfig(cluster: &Cluster, a: &Server, b: &Server, path: &Path) {
    let real = kube::config::Kubeconfig::read_from(&cluster.kubeconfig)
        .unwrap_or_else(|e| panic!("read {}: {e}", cluster.kubeconfig.display()));
    let context = real
        .contexts
        .iter()
        .find(|c| c.name == support::ADMIN)
        .and_then(|c| c.context.clone())
        .unwrap_or_else(|| panic!("no context {} in the real kubeconfig", support::ADMIN));
    let base = cluster.kubeconfig.parent().unwrap();
    let mut real_cluster = serde_json::to_value(
        real.clusters
            .iter()
            .find(|c| c.name == context.cluster)
            .expect("the real context's cluster"),
    )
    .unwrap();
    absolute(&mut real_cluster["cluster"], "certificate-authority", base);
    let user = context.user.clone().expect("the real context's user");
    let mut real_user = serde_json::to_value(
        real.auth_infos
            .iter()
            .find(|u| u.name == user)
            .expect("the real context's user entry"),
    )
    .unwrap();
    for key in ["client-certificate", "client-key", "tokenFile"] {
        absolute(&mut real_user["user"], key, base);
    }
    assert!(
        real_user["user"].get("token").is_some_and(Value::is_string)
            || real_user["user"].get("client-certificate-data").is_some(),
        "the real user's credentials did not survive the copy: {}",
        real_user["user"]
            .as_object()
            .map(|o| o.keys().cloned().collect::<Vec<_>>().join(","))
            .unwrap_or_default()
    );
    let demo = |name: &str, s: &Server| {
        (
            json!({"name": name, "cluster": {"server": s.url}}),
            json!({"name": name, "user": {"token": s.token}}),
            json!({"name": name, "context": {"cluster": name, "user": name}}),
        )
    };
    let (a_cluster, a_user, a_context) = demo(DEMO_A, a);
    let (b_cluster, b_user, b_context) = demo(DEMO_B, b);
    let config = json!({
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [a_cluster, real_cluster, b_cluster],
        "users": [a_user, real_user, b_user],
        "contexts": [
            a_context,
            {"name": support::ADMIN, "context": {"cluster": context.cluster, "user": user}},
            b_context,
        ],
        "current-context": support::ADMIN,
        "preferences": {},
    });
    write_kubeconfig(path, &serde_json::to_string_pretty(&config).unwrap());
}

/// Deletes the test's namespace on the real cluster (and so its pods) on drop, a panic
/// included.
struct NsGuard<'a> {
    cluster: &'a Cluster,
    ns: String,
}

impl Drop for NsGuard<'_> {
    fn drop(&mut self) {
        let _ = self.cluster.kubectl(&[
            "delete",
            "namespace",
            &self.ns,
            "--ignore-not-found",
            "--wait=false",
        ]);
    }
}

/// A pod that runs on the hollow nodes (any image not from a `*.invalid` registry pulls).
fn running_pod(ns: &str, name: &str) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": ns, "labels": {"e2e": "union-real"}},
        "spec": {"containers": [{"name": "app", "image": "example.com/app:1"}],
                 "terminationGracePeriodSeconds": 1}
    })
}

/// The real pod `ns/name` through kubectl: `None` when gone, else `(uid, deletionTimestamp)`.
fn real_pod(cluster: &Cluster, ns: &str, name: &str) -> Option<(String, Option<String>)> {
    let out = cluster.kubectl_ok(&["-n", ns, "get", "pod", name, "-o", "json", "--ignore-not-found"]);
    if out.trim().is_empty() {
        return None;
    }
    let pod: Value = serde_json::from_str(&out).expect("kubectl's JSON");
    Some(uid_and_deletion(&pod))
}

/// `(CONTEXT, STATUS)` of every row of the table named `name`, top to bottom.
fn rows_named(screen: &str, name: &str) -> Vec<(String, String)> {
    let Some(t) = us::table(screen) else {
        return Vec::new();
    };
    t.rows
        .iter()
        .filter(|r| t.cell_of(r, "NAME").as_deref() == Some(name))
        .map(|r| {
            (
                t.cell_of(r, "CONTEXT").unwrap_or_default(),
                t.cell_of(r, "STATUS").unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
#[ignore = "real tier"]
fn a_union_with_the_real_cluster_deletes_there_alone_and_outlives_a_killed_member() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let real = support::ADMIN;
    let started = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (
        Server::start(dir.path(), 2, &[]),
        Server::start(dir.path(), 3, &[]),
    );
    let kubeconfig = dir.path().join("merged.kubeconfig");
    merged_kubeconfig(&cluster, &a, &b, &kubeconfig);

    // Two running pods on the real cluster, in a namespace of the test's own.
    let guard = NsGuard {
        ns: cluster.create_ns("e2e-union-real"),
        cluster: &cluster,
    };
    let ns = guard.ns.clone();
    let suffix = ns.rsplit('-').next().unwrap().to_owned();
    let doomed = format!("union-del-{suffix}");
    let keeper = format!("union-keep-{suffix}");
    let file = dir.path().join("pods.json");
    std::fs::write(
        &file,
        json!({"apiVersion": "v1", "kind": "List",
               "items": [running_pod(&ns, &doomed), running_pod(&ns, &keeper)]})
        .to_string(),
    )
    .unwrap();
    cluster.kubectl_ok(&["create", "-f", file.to_str().unwrap()]);
    cluster.kubectl_ok(&[
        "-n",
        &ns,
        "wait",
        "--for=condition=Ready",
        &format!("pod/{doomed}"),
        &format!("pod/{keeper}"),
        "--timeout=60s",
    ]);
    let (real_uid, _) = real_pod(&cluster, &ns, &doomed).expect("the pod to delete");
    // The same namespace and pod in both demo clusters: a delete sent to the wrong cluster
    // would find an object there too.
    let demo_uids: Vec<String> = [&a, &b]
        .iter()
        .map(|s| {
            s.create(
                "/api/v1/namespaces",
                json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}),
            );
            let pod = s.create(
                &format!("/api/v1/namespaces/{ns}/pods"),
                running_pod(&ns, &doomed),
            );
            pod["metadata"]["uid"].as_str().expect("a uid").to_owned()
        })
        .collect();
    eprintln!("real {doomed} uid {real_uid}; demo copies {demo_uids:?}");

    let union = format!("{DEMO_A},{real},{DEMO_B}");
    let mut k = ktui_sized(&kubeconfig, &["--context", &union, "-A"], TALL, WIDE);
    let took = k.wait_until(
        "the union's header, all three members live, rows of the union",
        SLOW,
        |s| {
            s.lines()
                .next()
                .is_some_and(|l| l.contains(&format!("context: union of 3: {DEMO_A}, {real}, {DEMO_B}")))
                && [DEMO_A, real, DEMO_B].iter().all(|c| member_live(s, c))
                && union_live(s)
                && context_column_first(s)
                // Rows are ordered by cluster: a page shows one or two clusters' (the filter
                // below shows all three's).
                && !shown_contexts(s).is_empty()
        },
    );
    eprintln!("union up after {took:.2?}: {:?}", state_line(&k.screen()));

    // The real pods' rows: the real context in CONTEXT, Running.
    // Two terms (fzf style): the prefix and the suffix of the test's pod names.
    k.type_keys(&format!("/^union- -{suffix}$"));
    k.press_enter();
    k.wait_until("the test's pods: the real two and the demo copies", SLOW, |s| {
        rows_named(s, &keeper) == [(real.to_owned(), "Running".to_owned())]
            && rows_named(s, &doomed).len() == 3
            && rows_named(s, &doomed)
                .iter()
                .any(|(c, st)| c == real && st == "Running")
    });
    let screen = k.screen();
    let t = us::table(&screen).unwrap();
    let doomed_rows = rows_named(&screen, &doomed);
    let mut contexts: Vec<&str> = doomed_rows.iter().map(|(c, _)| c.as_str()).collect();
    contexts.sort();
    assert_eq!(contexts, [DEMO_A, DEMO_B, real], "{}", k.dump());
    // Select the real copy of the pod to delete (the selection starts on the first row).
    let at = t
        .rows
        .iter()
        .position(|r| {
            t.cell_of(r, "NAME").as_deref() == Some(doomed.as_str())
                && t.cell_of(r, "CONTEXT").as_deref() == Some(real)
        })
        .unwrap();
    k.type_keys(&"j".repeat(at));

    // `y`: its YAML, read from the real cluster.
    k.type_keys("y");
    k.wait_until("the real pod's YAML, pinned to the real cluster", SLOW, |s| {
        s.lines().nth(1).is_some_and(|l| l.contains(&format!("@ {real}")))
            && s.contains(&format!("name: {doomed}"))
            && s.contains(&real_uid)
    });
    assert!(
        demo_uids.iter().all(|u| !k.screen().contains(u.as_str())),
        "the YAML shows a demo copy's uid\n{}",
        k.dump()
    );
    k.press_esc();
    k.wait_until("the list again", SLOW, |s| rows_named(s, &doomed).len() == 3);

    // Demo pod counts before the delete.
    let counts_before = [a.pod_count(), b.pod_count()];
    k.send(CTRL_D);
    k.wait_until("the delete dialog of the real pod", SLOW, |s| {
        s.contains(&format!("delete pod/{doomed}?")) && s.contains(&format!("context: {real}"))
    });
    let dialog = k.screen();
    assert!(
        !dialog.contains(&format!("context: {DEMO_A}")) && !dialog.contains(&format!("context: {DEMO_B}")),
        "the dialog names a demo context\n{}",
        k.dump()
    );
    k.type_keys("y");
    let t0 = Instant::now();
    k.wait_for(&format!("deleted pod/{doomed} (context {real})"), SLOW);

    // Through kubectl: gone or going on the real cluster; the other real pod untouched.
    let what = format!("the real {doomed}");
    let every = Duration::from_millis(200);
    wait_deleted(&k, &what, &real_uid, false, t0, every, || {
        real_pod(&cluster, &ns, &doomed)
    });
    eprintln!(
        "real {doomed}: {:?} {:.2?} after the confirm",
        real_pod(&cluster, &ns, &doomed),
        t0.elapsed()
    );
    assert!(
        matches!(real_pod(&cluster, &ns, &keeper), Some((_, None))),
        "the real {keeper} was touched"
    );
    // Through each demo server: its copy the same object, not being deleted; its pods all
    // there (the scenario's own churn — a replaced frontend pod, a rollout, a job — may move
    // the count by a pod or two meanwhile).
    for ((name, s), uid) in [(DEMO_A, &a), (DEMO_B, &b)].iter().zip(&demo_uids) {
        assert_eq!(
            s.pod(&ns, &doomed),
            Some((uid.clone(), None)),
            "{name}'s copy of {doomed} was touched\n{}",
            k.dump()
        );
    }
    let counts_after = [a.pod_count(), b.pod_count()];
    eprintln!("demo pod counts before {counts_before:?}, after {counts_after:?}");
    for (i, name) in [DEMO_A, DEMO_B].iter().enumerate() {
        assert!(
            counts_before[i].abs_diff(counts_after[i]) <= 3,
            "{name}: {} pods before the delete, {} after",
            counts_before[i],
            counts_after[i]
        );
    }
    // The screen follows: the real row Terminating or gone, the demo copies Running.
    k.wait_until(
        "the real row Terminating or gone, the copies as they were",
        SLOW,
        |s| {
            let rows = rows_named(s, &doomed);
            rows.iter().filter(|(c, st)| c != real && st == "Running").count() == 2
                && rows.iter().all(|(c, st)| c != real || st != "Running")
        },
    );
    k.press_esc();
    k.wait_until("the whole list again", SLOW, |s| {
        us::table(s).is_some_and(|t| t.names().iter().any(|n| !n.contains(&suffix)))
            && [DEMO_A, real, DEMO_B].iter().all(|c| member_live(s, c))
    });

    // Kill demo-b mid-view.
    b.kill();
    let killed = Instant::now();
    let not_live = |s: &str| {
        member(s, DEMO_B).is_some_and(|w| !is_live(&w)) && member_live(s, real) && member_live(s, DEMO_A)
    };
    let shown = k.try_wait_until(NOTICE, not_live);
    assert!(
        shown.is_some(),
        "{DEMO_B} SIGKILLed {:.2?} ago: the header should say it is not live, the others \
         live\n{}",
        killed.elapsed(),
        k.dump()
    );
    let said = member(&k.screen(), DEMO_B).unwrap_or_default();
    eprintln!(
        "SIGKILL → header says {DEMO_B} {said:?} after {:.2?}: {:?}",
        killed.elapsed(),
        state_line(&k.screen())
    );
    assert_state_in_words(&k, DEMO_B, &said);
    // A while later: still not live, the real member still live.
    std::thread::sleep(Duration::from_secs(3));
    k.wait_until(
        "the killed member still not live, the real one live",
        Duration::from_secs(5),
        not_live,
    );

    // The keys still work: the filter finds the real pod that is left.
    let narrowed = |s: &str| {
        us::table(s).is_some_and(|t| t.names() == [keeper.clone()])
            && rows_named(s, &keeper) == [(real.to_owned(), "Running".to_owned())]
    };
    filter_and_restore(
        &mut k,
        &format!("/^{keeper}$"),
        "the filter to narrow to the real pod left",
        narrowed,
        "filter with a killed member",
        |n| n == keeper,
    );
    k.command("q");
    k.wait_exit(SLOW).expect("ktui exits on :q");
    eprintln!("test took {:.2?}", started.elapsed());
}
