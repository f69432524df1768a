//! End-to-end tests of the lists: the real `ktui` binary in a pseudo-terminal (portable-pty
//! and vt100) against the real test cluster, asserting on what the screen shows — live
//! updates, the fuzzy filter, kind switching and drill-in, namespaces, RBAC.
//! Run with `bash tests/run.sh --test e2e e2e::` (each test uses its own namespace).
use crate::{support, util};

use std::time::{Duration, Instant};

use support::Cluster;
use util::*;

// ---------------------------------------------------------------------------------------
// 1. live updates

/// A pod created with kubectl appears, a status change shows in the STATUS cell, and a
/// deletion removes the row — each reported against the 2 s goal after kubectl returned.
#[test]
#[ignore = "real tier"]
fn created_changed_and_deleted_pods_show_live() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-live");
    let k = ktui(&cluster, &["-n", &ns]);
    wait_live(&k);
    k.wait_for("no resources", SLOW);
    k.wait_for(&format!("pods({ns})[0]"), SLOW);

    // Unscheduled (a scheduler nobody runs), so no kubelet reacts to the Failed phase the
    // test patches in below: on a hollow node the kubelet would stop the pod and rewrite
    // its container statuses (STATUS ContainerStatusUnknown instead of Evicted).
    let pod = serde_json::json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "e2e-pod-a", "namespace": ns},
        "spec": {"schedulerName": "ktui-e2e-nobody",
                 "containers": [{"name": "c", "image": "registry.invalid/e2e:1"}]}});
    let file = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(file.path(), pod.to_string()).expect("write pod");
    cluster.kubectl_ok(&["create", "-f", file.path().to_str().unwrap()]);
    let took = k.wait_until("e2e-pod-a to appear", SLOW, |s| has_row(s, "e2e-pod-a"));
    report_timing("created pod appeared", took, LIVE);
    k.wait_for(&format!("pods({ns})[1]"), SLOW);

    cluster.kubectl_ok(&[
        "-n",
        &ns,
        "patch",
        "pod",
        "e2e-pod-a",
        "--subresource=status",
        "--type=merge",
        "-p",
        r#"{"status":{"phase":"Failed","reason":"Evicted","message":"e2e"}}"#,
    ]);
    let took = k.wait_until("the STATUS of e2e-pod-a to become Evicted", SLOW, |s| {
        row_of(s, "e2e-pod-a").is_some_and(|r| r.split_whitespace().any(|w| w == "Evicted"))
    });
    report_timing("status change showed", took, LIVE);

    force_delete_pod(&cluster, &ns, "e2e-pod-a");
    let took = k.wait_until("e2e-pod-a to disappear", SLOW, |s| !has_row(s, "e2e-pod-a"));
    report_timing("deleted pod disappeared", took, LIVE);
    k.wait_for(&format!("pods({ns})[0]"), SLOW);
}

// ---------------------------------------------------------------------------------------
// 2. fuzzy filter

/// `/` + letters narrows the list live to the fuzzy matches, the state line and the title
/// show `matched/total`, `enter` keeps the filter and `esc` restores the full list.
#[test]
#[ignore = "real tier"]
fn fuzzy_filter_narrows_and_esc_restores() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-filter");
    let all = ["frontend-1", "frontend-2", "backend-1", "cache-1"];
    create_pods(&cluster, &ns, &all);
    let mut k = ktui(&cluster, &["-n", &ns]);
    wait_live(&k);
    k.wait_until("all four pods", SLOW, |s| all.iter().all(|n| has_row(s, n)));
    k.wait_for(&format!("pods({ns})[4]"), SLOW);

    let narrowed = |s: &str| {
        has_row(s, "frontend-1")
            && has_row(s, "frontend-2")
            && !has_row(s, "backend-1")
            && !has_row(s, "cache-1")
            && state_words(s).get(1) == Some(&"2/4")
            && s.contains(&format!("pods({ns})[2/4]"))
    };
    k.type_keys("/fro");
    k.wait_until(
        "`/fro` to narrow the list to frontend-1, frontend-2 with 2/4 in the state line and title",
        SLOW,
        narrowed,
    );
    k.press_enter();
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        narrowed(&k.screen()),
        "`enter` did not keep the filter\n{}",
        k.dump()
    );

    k.press_esc();
    k.wait_until("`esc` to restore all four pods with count 4", SLOW, |s| {
        all.iter().all(|n| has_row(s, n))
            && state_words(s).get(1) == Some(&"4")
            && s.contains(&format!("pods({ns})[4]"))
    });
}

// ---------------------------------------------------------------------------------------
// 3. kinds and drill-in

/// `:deploy` lists the namespace's deployment (READY 0/3: its image, from registry.invalid,
/// never pulls), `enter` shows
/// just its pods, `esc` goes back to the deployments.
#[test]
#[ignore = "real tier"]
fn deploy_view_drills_into_pods_and_back() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-deploy");
    cluster.kubectl_ok(&[
        "-n",
        &ns,
        "create",
        "deployment",
        "e2e-web",
        "--image=registry.invalid/e2e:1",
        "--replicas=3",
    ]);
    create_pods(&cluster, &ns, &["e2e-loner"]);
    let mut k = ktui(&cluster, &["-n", &ns]);
    wait_live(&k);
    k.wait_until("the bare pod e2e-loner", SLOW, |s| has_row(s, "e2e-loner"));

    k.command("deploy");
    k.wait_for(&format!("deployments({ns})"), SLOW);
    k.wait_until("deployment e2e-web with READY 0/3", SLOW, |s| {
        row_of(s, "e2e-web").is_some_and(|r| r.split_whitespace().nth(1) == Some("0/3"))
    });
    assert_eq!(
        state_words(&k.screen()).first(),
        Some(&"deployments"),
        "\n{}",
        k.dump()
    );

    k.press_enter();
    let pods_of_web = |s: &str| {
        s.lines()
            .filter(|l| l.trim_start_matches('│').starts_with("e2e-web-"))
            .count()
    };
    k.wait_until("the 3 pods of e2e-web after `enter`", SLOW, |s| {
        pods_of_web(s) == 3 && s.contains(&format!("pods({ns})[3]"))
    });
    let screen = k.screen();
    assert!(
        !has_row(&screen, "e2e-loner"),
        "drill-in shows a pod not of e2e-web\n{}",
        k.dump()
    );
    assert!(
        state_line(&screen).contains("e2e-web"),
        "state line does not name the deployment\n{}",
        k.dump()
    );

    k.press_esc();
    k.wait_until("`esc` to go back to the deployments", SLOW, |s| {
        s.contains(&format!("deployments({ns})[1]")) && has_row(s, "e2e-web") && pods_of_web(s) == 0
    });
}

// ---------------------------------------------------------------------------------------
// 4. namespaces

/// `-n <ns>` shows only that namespace; `-A` adds a NAMESPACE column and shows pods of
/// several namespaces. (Namespaces start with "0" so they sort first among all the
/// shared cluster's namespaces.)
#[test]
#[ignore = "real tier"]
fn namespace_flag_and_all_namespaces() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns_a = cluster.create_ns("0e2e-nsa");
    let ns_b = cluster.create_ns("0e2e-nsb");
    create_pods(&cluster, &ns_a, &["pod-in-a"]);
    create_pods(&cluster, &ns_b, &["pod-in-b"]);

    let k = ktui(&cluster, &["-n", &ns_a]);
    wait_live(&k);
    k.wait_until("pod-in-a", SLOW, |s| has_row(s, "pod-in-a"));
    k.wait_for(&format!("pods({ns_a})[1]"), SLOW);
    let screen = k.screen();
    assert!(
        screen
            .lines()
            .next()
            .unwrap_or("")
            .contains(&format!("namespace: {ns_a}")),
        "\n{}",
        k.dump()
    );
    assert!(
        !has_row(&screen, "pod-in-b"),
        "-n {ns_a} shows a pod of {ns_b}\n{}",
        k.dump()
    );
    assert!(
        !screen.contains("NAMESPACE"),
        "-n shows a NAMESPACE column\n{}",
        k.dump()
    );
    drop(k);

    let k = ktui_with(&cluster.kubeconfig, &["-A"], 60);
    wait_live(&k);
    k.wait_until("NAMESPACE column and pods of both namespaces", SLOW, |s| {
        s.lines().any(|l| l.contains("NAMESPACE") && l.contains("NAME"))
            && ns_row(s, &ns_a, "pod-in-a")
            && ns_row(s, &ns_b, "pod-in-b")
    });
    assert!(
        k.line(0).contains("namespace: all"),
        "header does not say all namespaces\n{}",
        k.dump()
    );
}

// ---------------------------------------------------------------------------------------
// 5. RBAC

/// The viewer context lists team-a's pods; in `default` (not allowed) the state line says
/// `forbidden: list pods` and the list never claims "no resources".
#[test]
#[ignore = "real tier"]
fn viewer_sees_team_a_and_forbidden_elsewhere() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let pod = support::unique_ns("e2e-viewer");
    create_pods(&cluster, support::VIEWER_NS, &[&pod]);
    struct Cleanup<'a>(&'a Cluster, &'a str);
    impl Drop for Cleanup<'_> {
        fn drop(&mut self) {
            let _ = self.0.kubectl(&[
                "-n",
                support::VIEWER_NS,
                "delete",
                "pod",
                self.1,
                "--grace-period=0",
                "--force",
            ]);
        }
    }
    let _cleanup = Cleanup(&cluster, &pod);

    let k = ktui(
        &cluster,
        &["--context", support::VIEWER, "-n", support::VIEWER_NS],
    );
    wait_live(&k);
    k.wait_until("the viewer to see its pod in team-a", SLOW, |s| has_row(s, &pod));
    assert!(k.line(0).contains("context: ktui-viewer"), "\n{}", k.dump());
    drop(k);

    let k = ktui(&cluster, &["--context", support::VIEWER, "-n", "default"]);
    let deadline = Instant::now() + SLOW;
    let mut forbidden_since: Option<Instant> = None;
    // Watch from spawn until the state has said forbidden for 2 s: never "no resources".
    loop {
        let s = k.screen();
        assert!(
            !s.contains("no resources"),
            "forbidden list shown as \"no resources\"\n{}",
            k.dump()
        );
        if state_line(&s).contains("forbidden: list pods") {
            let since = *forbidden_since.get_or_insert_with(Instant::now);
            if since.elapsed() > Duration::from_secs(2) {
                break;
            }
        } else if forbidden_since.is_some() {
            panic!("the forbidden state went away again\n{}", k.dump());
        }
        assert!(
            Instant::now() < deadline,
            "no `forbidden: list pods` in the state line\n{}",
            k.dump()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        !k.raw_contains("no resources"),
        "\"no resources\" was drawn at some point\n{}",
        k.dump()
    );
}
