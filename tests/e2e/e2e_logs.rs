//! End-to-end: logs against `ktui --demo` in a pseudo-terminal — `l` on a pod follows its
//! lines, `p` shows the crash-looping pod's previous instance with its crash trace, `enter`
//! on a multi-container pod lists init/sidecar/app containers and `l` on one opens that
//! container, `l` on a pod without a default container merges all of its containers.
use crate::util;

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
