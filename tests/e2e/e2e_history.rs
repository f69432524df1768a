//! End-to-end: revision history (`h`) on the demo cluster — the scenario's rollout of
//! `frontend` shows as revisions with one-line summaries and their managers (the demo
//! server's managedFields), `enter` shows the structural diff,
//! `m` shows heartbeats, `ctrl-s` saves the revisions and diffs (0600); a pod (a high-churn
//! kind) is recorded only from the moment its history view is open.
use crate::util;

use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

use util::*;

const SCENARIO: Duration = Duration::from_secs(90);

/// The count in `recording since … · N revisions`.
/// The count of `recording since … · N revision(s)`.
fn revisions(screen: &str) -> usize {
    screen
        .split(" revision")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

#[test]
fn the_demo_rollout_shows_in_history_with_diff_and_save() {
    let dir = tempfile::tempdir().unwrap();
    let mut k = ktui_with(
        &dir.path().join("no-kubeconfig"),
        &["--demo", "-c", "deploy shop"],
        40,
    );
    k.wait_for("frontend", SLOW);
    k.type_keys("/frontend");
    k.press_enter();
    // The filter applied (its title says so) before `h` acts on the selected row.
    k.wait_until("the list filtered to frontend", SLOW, |s| {
        s.contains("</frontend>") && !s.contains("cart")
    });
    k.type_keys("h");
    k.wait_until("the history view", SLOW, |s| {
        s.contains("history deployment/frontend") && s.contains("recording since")
    });
    k.wait_until("a second revision of the rollout", SCENARIO, |s| {
        revisions(s) >= 2
    });
    let screen = k.screen();
    assert!(screen.contains("first observed"), "{}", k.dump());
    // The demo server keeps managedFields: the status writes name their manager.
    assert!(
        screen.contains("kube-controller-manager (Update/status)"),
        "{}",
        k.dump()
    );
    assert!(
        screen.lines().any(|l| l.contains("status.") && l.contains('→')),
        "a summary with a status change\n{}",
        k.dump()
    );
    k.press_enter();
    k.wait_until("the diff", SLOW, |s| {
        s.contains("history diff") && s.contains("diff rv")
    });
    assert!(
        k.screen().lines().any(|l| l.contains("~ status.")),
        "{}",
        k.dump()
    );
    k.press_esc();
    k.wait_gone("history diff", SLOW);
    k.type_keys("m");
    k.wait_for("heartbeats shown", SLOW);
    k.send("\x13");
    k.wait_for("saved ", SLOW);
    let screen = k.screen();
    let path = screen
        .split("saved ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .unwrap()
        .to_owned();
    assert!(path.ends_with("frontend.history.txt"), "{path}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("first observed") && text.contains("diff rv"),
        "{text}"
    );
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    k.command("q");
    k.wait_exit(SLOW).expect("ktui exits on :q");
}

#[test]
fn a_pod_is_recorded_while_its_history_is_open() {
    let dir = tempfile::tempdir().unwrap();
    let mut k = ktui_with(
        &dir.path().join("no-kubeconfig"),
        &["--demo", "-c", "pods shop"],
        40,
    );
    k.wait_for("CrashLoopBackOff", SLOW);
    k.type_keys("/checkout");
    k.press_enter();
    k.type_keys("h");
    // Nothing was recorded by the pod list: the first revision is the one the view's own
    // watch saw, and the crash loop's restarts follow while the view is open.
    k.wait_until("the first revision", SLOW, |s| {
        revisions(s) == 1 && s.contains("first observed")
    });
    k.wait_until("the next restart", SCENARIO, |s| revisions(s) >= 2);
    assert!(k.screen().lines().any(|l| l.contains("status.")), "{}", k.dump());
    k.command("q");
    k.wait_exit(SLOW).expect("ktui exits on :q");
}
