//! End-to-end: switching contexts live with `:ctx` in one run — the admin context, then the
//! RBAC-limited viewer (sees team-a, gets a forbidden state elsewhere), and back; nothing
//! stale from the old context stays on screen.
use crate::{support, util};

use util::*;

#[test]
#[ignore = "real tier"]
fn ctx_switches_between_admin_and_viewer_in_one_run() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-ctx");
    create_pods(&cluster, &ns, &["admin-only-pod"]);
    let mut k = ktui(&cluster, &["-n", &ns]);
    k.wait_for("admin-only-pod", SLOW);
    k.command("ctx");
    k.wait_until("the context list", SLOW, |s| {
        s.contains("(*)") && s.contains("ktui-viewer")
    });
    k.type_keys("j");
    k.press_enter();
    k.wait_until("the viewer context in team-a", SLOW, |s| {
        s.contains("context: ktui-viewer")
            && s.contains("namespace: team-a")
            && state_words(s).contains(&"live")
    });
    assert!(
        !k.screen().contains("admin-only-pod"),
        "nothing stale after a switch\n{}",
        k.dump()
    );
    k.command(&format!("pods {ns}"));
    k.wait_until("forbidden outside team-a", SLOW, |s| {
        state_line(s).contains("forbidden: list pods")
    });
    assert!(!k.screen().contains("no resources"), "{}", k.dump());
    k.command("ctx ktui-test");
    // Back where the admin context was left: its namespace, without retyping it.
    k.wait_until("back on the admin context, in its namespace", SLOW, |s| {
        s.contains("context: ktui-test") && s.contains(&format!("namespace: {ns}"))
    });
    k.wait_for("admin-only-pod", SLOW);
}
