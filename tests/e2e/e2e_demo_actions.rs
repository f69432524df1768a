//! The action flows of issue 16 against `ktui --demo` (the demo tier): the real binary in a
//! pty, keys in, and the outcome read off the screen as the demo's controllers react —
//! delete (context named, default no) with the ReplicaSet's replacement, force delete (asked
//! twice), deployments deleted with each propagation policy (the garbage collector's
//! outcome), scale and the READY column, rollout restart with its new ReplicaSet and a
//! rollback to revision 1, cordon and uncordon, a drain a PodDisruptionBudget refuses live
//! (and one cancelled meanwhile), a CronJob trigger whose Job runs to completion and
//! suspend/resume, and a bulk delete of marked pods. The viewer context and read-only mode
//! are in `e2e_demo_access`, edit in `e2e_demo_edit`. Each test runs its own `ktui --demo`
//! (its own demo cluster).

use std::path::Path;

use crate::util::{self, row_of, Ktui, SLOW};

pub(crate) const CTRL_D: &[u8] = b"\x04";
/// Outcomes that go through the demo's controllers (one-second ticks) take a few ticks;
/// under a loaded machine many more.
pub(crate) const CONVERGE: std::time::Duration = std::time::Duration::from_secs(90);

/// `ktui --demo` with `args` in a `rows`×160 pty.
pub(crate) fn demo(args: &[&str], rows: u16) -> Ktui {
    let mut all = vec!["--demo"];
    all.extend_from_slice(args);
    util::ktui_sized(Path::new("/nonexistent/ktui-demo-e2e"), &all, rows, 160)
}

/// The first cells (names) of the table rows starting with `prefix`.
fn names(screen: &str, prefix: &str) -> Vec<String> {
    screen
        .lines()
        .filter_map(|l| l.trim_start_matches('│').split_whitespace().next())
        .filter(|n| n.starts_with(prefix))
        .map(str::to_owned)
        .collect()
}

/// The name a dialog title `delete pod/NAME?` (or any `VERB KIND/NAME?`) names.
fn titled(screen: &str, lead: &str) -> String {
    let at = screen
        .find(lead)
        .unwrap_or_else(|| panic!("{lead} missing\n{screen}"))
        + lead.len();
    screen[at..]
        .split(['?', ' ', '│'])
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// Narrows the list with `/filter` and waits for the filter in the title.
fn narrow(k: &mut Ktui, filter: &str) {
    // Keys typed before the list is up may reach the terminal before raw mode.
    k.wait_for("● live", SLOW);
    k.type_keys("/");
    k.type_keys(filter);
    k.press_enter();
    k.wait_for(&format!("</{filter}>"), SLOW);
}

/// Whether the row of `name` shows `Running` and `1/1`.
fn running(screen: &str, name: &str) -> bool {
    row_of(screen, name).is_some_and(|r| r.contains("Running") && r.contains("1/1"))
}

#[test]
fn delete_a_pod_names_the_context_defaults_to_no_and_the_replicaset_replaces_it() {
    let mut k = demo(&["-n", "shop", "-c", "pods"], 40);
    k.wait_until("two running cart pods", SLOW, |s| {
        names(s, "cart-").iter().filter(|n| running(s, n)).count() == 2
    });
    narrow(&mut k, "^cart-");
    let before = names(&k.screen(), "cart-");
    k.send(CTRL_D);
    k.wait_for("delete pod/cart-", SLOW);
    let victim = titled(&k.screen(), "delete pod/");
    assert!(before.contains(&victim), "{victim} not in {before:?}");
    k.wait_for("context: ktui-demo", SLOW);
    k.wait_for("namespace: shop", SLOW);
    // Enter on the selected button is "no".
    k.press_enter();
    k.wait_for("cancelled: nothing was sent", SLOW);
    assert!(running(&k.screen(), &victim), "\n{}", k.dump());
    k.send(CTRL_D);
    k.wait_for(&format!("delete pod/{victim}?"), SLOW);
    k.type_keys("y");
    k.wait_for(&format!("deleted pod/{victim}"), SLOW);
    k.wait_until("the row Terminating or gone", SLOW, |s| {
        row_of(s, &victim).is_none_or(|r| r.contains("Terminating"))
    });
    k.wait_until("the row gone and a replacement running", CONVERGE, |s| {
        let now = names(s, "cart-");
        !now.contains(&victim) && now.len() == 2 && now.iter().any(|n| !before.contains(n) && running(s, n))
    });
}

#[test]
fn bulk_delete_of_marked_pods_and_their_replacements() {
    let mut k = demo(&["-n", "shop", "-c", "pods"], 40);
    k.wait_until("two running cart pods", SLOW, |s| {
        names(s, "cart-").iter().filter(|n| running(s, n)).count() == 2
    });
    narrow(&mut k, "^cart-");
    let before = names(&k.screen(), "cart-");
    k.type_keys("  ");
    k.wait_for("2 marked", SLOW);
    k.send(CTRL_D);
    k.wait_for("delete 2 pods?", SLOW);
    let s = k.screen();
    for n in &before {
        assert!(s.contains(n.as_str()), "the dialog names {n}\n{s}");
    }
    k.wait_for("context: ktui-demo", SLOW);
    k.press_enter();
    k.wait_for("cancelled: nothing was sent", SLOW);
    k.send(CTRL_D);
    k.wait_for("delete 2 pods?", SLOW);
    k.type_keys("y");
    k.wait_for("deleted 2 pods", SLOW);
    k.wait_until("both replaced by new running pods", CONVERGE, |s| {
        let now = names(s, "cart-");
        now.len() == 2 && now.iter().all(|n| !before.contains(n) && running(s, n))
    });
}

#[test]
fn scale_a_deployment_three_to_five_and_see_ready_follow() {
    let mut k = demo(&["-n", "shop", "-c", "deploy"], 40);
    narrow(&mut k, "^frontend");
    k.wait_until("frontend 3/3", SLOW, |s| {
        row_of(s, "frontend").is_some_and(|r| r.contains("3/3"))
    });
    k.type_keys("s");
    k.wait_for("scale deployment/frontend (now 3)?", SLOW);
    k.wait_for("context: ktui-demo", SLOW);
    k.send(b"\x7f");
    k.type_keys("5");
    k.type_keys("y");
    k.wait_for("scaled deployment/frontend to 5", SLOW);
    k.wait_until("READY reaching 5/5", CONVERGE, |s| {
        row_of(s, "frontend").is_some_and(|r| r.contains("5/5"))
    });
}

#[test]
fn rollout_restart_shows_a_new_replicaset_and_rollback_returns_to_revision_one() {
    let mut k = demo(&["-n", "shop", "-c", "rs"], 40);
    narrow(&mut k, "^cart-");
    k.wait_until("one cart replicaset", SLOW, |s| names(s, "cart-").len() == 1);
    let first = names(&k.screen(), "cart-").remove(0);
    k.command("deploy");
    narrow(&mut k, "^cart");
    k.wait_until("the cart row", SLOW, |s| row_of(s, "cart").is_some());
    k.type_keys("r");
    k.wait_for("rollout restart deployment/cart?", SLOW);
    k.wait_for("context: ktui-demo", SLOW);
    k.type_keys("y");
    k.wait_for("restarted deployment/cart", SLOW);
    k.command("rs");
    narrow(&mut k, "^cart-");
    k.wait_until("a second cart replicaset", CONVERGE, |s| {
        names(s, "cart-").len() == 2
    });
    let second = names(&k.screen(), "cart-")
        .into_iter()
        .find(|n| *n != first)
        .unwrap();
    // The new one takes the pods over (DESIRED CURRENT READY 2 2 2), the old one none.
    let counts = |s: &str, n: &str| {
        row_of(s, n).map(|r| {
            r.trim_matches('│')
                .split_whitespace()
                .skip(1)
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
    };
    k.wait_until("the rollout done", CONVERGE, |s| {
        counts(s, &second).as_deref() == Some("2 2 2") && counts(s, &first).as_deref() == Some("0 0 0")
    });
    k.command("deploy");
    narrow(&mut k, "^cart");
    k.wait_until("the cart row", SLOW, |s| row_of(s, "cart").is_some());
    k.type_keys("u");
    k.wait_for("revisions(deployment/cart)", SLOW);
    k.wait_for("2 (in use)", SLOW);
    // The previous revision is selected: enter opens the dialog on it.
    k.press_enter();
    k.wait_for("roll back deployment/cart?", SLOW);
    k.wait_for("‹ 1  ghcr.io/ktui/cart:2.4.0", SLOW);
    k.wait_for("context: ktui-demo", SLOW);
    k.send(b"\t");
    k.type_keys("y");
    k.wait_for("rolled deployment/cart back to revision 1", SLOW);
    // Revision 1's ReplicaSet takes the pods back (and becomes revision 3): no third one.
    k.press_esc();
    k.command("rs");
    narrow(&mut k, "^cart-");
    k.wait_until("the first replicaset scaled back up", CONVERGE, |s| {
        counts(s, &first).as_deref() == Some("2 2 2") && counts(s, &second).as_deref() == Some("0 0 0")
    });
    assert_eq!(names(&k.screen(), "cart-").len(), 2, "\n{}", k.dump());
    k.command("deploy");
    narrow(&mut k, "^cart");
    k.wait_until("the cart row", SLOW, |s| row_of(s, "cart").is_some());
    k.type_keys("u");
    k.wait_for("revisions(deployment/cart)[2]", SLOW);
    k.wait_for("3 (in use)", SLOW);
}

#[test]
fn cordon_uncordon_and_a_drain_a_disruption_budget_refuses_live() {
    let mut k = demo(&["-c", "nodes"], 45);
    narrow(&mut k, "^worker-1$");
    k.wait_until("worker-1 Ready", SLOW, |s| {
        row_of(s, "worker-1").is_some_and(|r| r.contains("Ready") && !r.contains("SchedulingDisabled"))
    });
    k.type_keys("C");
    k.wait_for("cordon node/worker-1?", SLOW);
    k.wait_for("context: ktui-demo", SLOW);
    k.type_keys("y");
    k.wait_until("worker-1 SchedulingDisabled", SLOW, |s| {
        row_of(s, "worker-1").is_some_and(|r| r.contains("SchedulingDisabled"))
    });
    k.type_keys("U");
    k.wait_for("uncordon node/worker-1?", SLOW);
    k.type_keys("y");
    k.wait_until("worker-1 schedulable again", SLOW, |s| {
        row_of(s, "worker-1").is_some_and(|r| !r.contains("SchedulingDisabled"))
    });
    k.type_keys("r");
    k.wait_for("drain node/worker-1?", SLOW);
    k.wait_for("ignore DaemonSets: [x]", SLOW);
    // Timeout field (the fifth): 8 s, so the refused pod ends the drain soon.
    for _ in 0..5 {
        k.send(b"\t");
    }
    for _ in 0..3 {
        k.send(b"\x7f");
    }
    k.type_keys("8");
    k.wait_for("timeout (s): [8]", SLOW);
    k.send(b"\t");
    k.type_keys("y");
    k.wait_for("draining node/worker-1 (context ktui-demo)", SLOW);
    k.wait_for("node/worker-1 cordoned", SLOW);
    k.wait_for("DaemonSet-managed", SLOW);
    k.wait_for("evicted shop/cart-", CONVERGE);
    // data/postgres allows no disruption (minAvailable 2 of 2): refused while it runs.
    k.wait_for(
        "refused data/postgres-0: Cannot evict pod as it would violate",
        CONVERGE,
    );
    k.wait_for("timed out; not evicted: data/postgres-0", CONVERGE);
    k.press_esc();
    // The overlay closes; the footer keeps the outcome.
    k.wait_gone("any key closes", SLOW);
    assert!(k
        .screen()
        .lines()
        .last()
        .unwrap_or_default()
        .contains("timed out; not evicted"));
    k.wait_until("worker-1 left cordoned", SLOW, |s| {
        row_of(s, "worker-1").is_some_and(|r| r.contains("SchedulingDisabled"))
    });
}

#[test]
fn trigger_a_cronjob_and_its_job_runs_to_completion() {
    let mut k = demo(&["-n", "batch", "-c", "cj"], 40);
    narrow(&mut k, "^nightly-report");
    k.wait_until("the cronjob row", SLOW, |s| row_of(s, "nightly-report").is_some());
    k.type_keys("t");
    k.wait_for("trigger cronjob/nightly-report now?", SLOW);
    k.wait_for("context: ktui-demo", SLOW);
    k.wait_for("namespace: batch", SLOW);
    k.type_keys("y");
    k.wait_for("created job/nightly-report-manual-", SLOW);
    let job = titled(&k.screen(), "created job/");
    k.command("jobs");
    k.wait_until(&format!("{job} listed"), SLOW, |s| row_of(s, &job).is_some());
    k.wait_until(&format!("{job} Complete 1/1"), CONVERGE, |s| {
        row_of(s, &job).is_some_and(|r| r.contains("Complete") && r.contains("1/1"))
    });
    // s on a cronjob suspends it (and again resumes), shown in SUSPEND.
    k.command("cj");
    k.wait_until("the cronjob row", SLOW, |s| row_of(s, "nightly-report").is_some());
    for (verb, done, now) in [("suspend", "suspended", "True"), ("resume", "resumed", "False")] {
        k.type_keys("s");
        k.wait_for(&format!("{verb} cronjob/nightly-report?"), SLOW);
        k.type_keys("y");
        k.wait_for(&format!("{done} cronjob/nightly-report"), SLOW);
        k.wait_until(&format!("SUSPEND {now}"), SLOW, |s| {
            row_of(s, "nightly-report").is_some_and(|r| r.contains(now))
        });
    }
}

#[test]
fn force_delete_warns_asks_twice_and_the_pod_goes_at_once() {
    let mut k = demo(&["-n", "shop", "-c", "pods"], 40);
    k.wait_until("two running cart pods", SLOW, |s| {
        names(s, "cart-").iter().filter(|n| running(s, n)).count() == 2
    });
    narrow(&mut k, "^cart-");
    k.send(b"\x0b");
    k.wait_for("force delete pod/cart-", SLOW);
    let victim = titled(&k.screen(), "force delete pod/");
    k.wait_for("without waiting for the kubelet", SLOW);
    k.wait_for("context: ktui-demo", SLOW);
    k.type_keys("y");
    k.wait_for("really force", SLOW);
    k.type_keys("y");
    k.wait_for(&format!("force deleted pod/{victim}"), SLOW);
    // Grace period 0: no Terminating phase to wait through.
    k.wait_until("the row gone", SLOW, |s| row_of(s, &victim).is_none());
    k.wait_until("a replacement running", CONVERGE, |s| {
        let now = names(s, "cart-");
        now.len() == 2 && now.iter().all(|n| running(s, n))
    });
}

#[test]
fn delete_deployments_with_each_propagation_policy() {
    let mut k = demo(&["-n", "shop", "-c", "deploy"], 40);
    // (deployment, right presses on the propagation field)
    for (name, rights) in [("cart", 0), ("frontend", 1), ("checkout", 2)] {
        narrow(&mut k, &format!("^{name}$"));
        k.wait_until(&format!("the {name} row"), SLOW, |s| row_of(s, name).is_some());
        k.send(CTRL_D);
        k.wait_for(&format!("delete deployment/{name}?"), SLOW);
        k.type_keys("\t");
        for _ in 0..rights {
            k.send(b"\x1b[C");
            std::thread::sleep(std::time::Duration::from_millis(80));
        }
        let word = ["background", "foreground", "orphan"][rights];
        k.wait_for(&format!("‹ {word} ›"), SLOW);
        k.type_keys("y");
        k.wait_for(&format!("deleted deployment/{name}"), SLOW);
        k.wait_until(&format!("{name} gone"), CONVERGE, |s| row_of(s, name).is_none());
        k.press_esc();
        k.wait_gone(&format!("</^{name}$>"), SLOW);
    }
    // Background and foreground took the ReplicaSets and pods along (foreground before the
    // deployment itself went); orphan left checkout's.
    k.command("rs");
    k.wait_until("checkout's replicaset alone", CONVERGE, |s| {
        names(s, "checkout-").len() == 1 && names(s, "cart-").is_empty() && names(s, "frontend-").is_empty()
    });
    k.command("pods");
    k.wait_until("the pods gone but checkout's", CONVERGE, |s| {
        names(s, "checkout-").len() == 1 && names(s, "cart-").is_empty() && names(s, "frontend-").is_empty()
    });
}

/// The overlay lines from `from` on (the drain's stream).
fn stream_after(screen: &str, from: &str) -> Vec<String> {
    screen
        .lines()
        .skip_while(|l| !l.contains(from))
        .map(|l| l.split('│').nth(2).unwrap_or_default().trim().to_owned())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn a_drain_cancelled_while_a_budget_refuses_sends_no_more_evictions() {
    let mut k = demo(&["-c", "nodes"], 45);
    narrow(&mut k, "^worker-1$");
    k.wait_until("worker-1", SLOW, |s| row_of(s, "worker-1").is_some());
    k.type_keys("r");
    k.wait_for("drain node/worker-1?", SLOW);
    k.wait_for("timeout (s): [120]", SLOW);
    k.type_keys("y");
    k.wait_for("refused data/postgres-0", CONVERGE);
    k.press_esc();
    k.wait_for("cancelled: no more evictions are sent", SLOW);
    let at_cancel = stream_after(&k.screen(), "cancelled: no more evictions");
    // Refused pods are retried every 5 s while the drain runs: past one such interval the
    // stream has not grown.
    std::thread::sleep(std::time::Duration::from_secs(7));
    let later = stream_after(&k.screen(), "cancelled: no more evictions");
    assert_eq!(at_cancel, later, "\n{}", k.dump());
    assert!(!k.screen().contains("evicted data/postgres-0"), "\n{}", k.dump());
    k.press_esc();
    k.wait_gone("cancelled: no more evictions", SLOW);
}
