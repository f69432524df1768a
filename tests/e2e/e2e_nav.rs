//! End-to-end: getting around as a k9s user does, on `ktui --demo` at 60×15 and 160×45 —
//! `esc` after `:deploy` stays on the deployments (a k9s habit's extra esc must not leave
//! them), `[`/`]` walk the view history, and a
//! namespace typed with a kind (`:pods all`) stays with that view.
use crate::util;

use util::*;

/// The header's second line: kind, count, sync state.
fn kind_line(s: &str) -> String {
    s.lines().nth(1).unwrap_or_default().to_owned()
}

fn walk(rows: u16, cols: u16) {
    let dir = tempfile::tempdir().unwrap();
    let mut k = ktui_sized(
        &dir.path().join("no-kubeconfig"),
        &["--demo", "-n", "shop"],
        rows,
        cols,
    );
    k.wait_until("the demo's pods", SLOW, |s| {
        kind_line(s).contains("pods") && s.contains("Running")
    });
    k.command("deploy");
    k.wait_until("deployments", SLOW, |s| {
        kind_line(s).contains("deployments") && s.contains("READY")
    });
    k.press_esc();
    k.press_esc();
    k.wait_for("[ goes back to the view before", SLOW);
    assert!(kind_line(&k.screen()).contains("deployments"), "{}", k.dump());
    k.type_keys("[");
    k.wait_until("[: back to the pods", SLOW, |s| {
        kind_line(s).contains("pods") && s.contains("Running")
    });
    k.type_keys("]");
    k.wait_until("]: forward to the deployments", SLOW, |s| {
        kind_line(s).contains("deployments")
    });
    k.type_keys("[");
    k.wait_until("[: back to the pods", SLOW, |s| kind_line(s).contains("pods"));
    // `:svc all` is for that view; the next `:deploy` is in the session's namespace again.
    k.command("svc all");
    k.wait_until("services in all namespaces", SLOW, |s| {
        kind_line(s).contains("services")
            && s.lines().next().unwrap_or_default().contains("namespace: all")
            && s.contains("kube-dns")
    });
    k.command("deploy");
    k.wait_until("deployments in the context's namespace", SLOW, |s| {
        kind_line(s).contains("deployments")
            && s.lines().next().unwrap_or_default().contains("namespace: shop")
            && s.contains("deployments(shop)")
    });
    k.command("q");
    let (status, _) = k.wait_exit(SLOW).expect("ktui exits on :q");
    assert!(status.success(), "{status:?}\n{}", k.dump());
}

#[test]
fn esc_stays_after_a_command_and_brackets_walk_history_60x15() {
    walk(15, 60);
}

#[test]
fn esc_stays_after_a_command_and_brackets_walk_history_160x45() {
    walk(45, 160);
}
