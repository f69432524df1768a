//! End-to-end on the real tier: a deployment scaled by `kubectl scale` and patched under
//! another field manager while ktui watches shows both revisions in its history (`h`) with
//! the right managers and summaries; `kubectl set image` shows as an image change whose diff
//! is reached by searching its row (status revisions keep arriving and move the rows), and in
//! the rollout history (ReplicaSets, change-cause) with the pod-template diff between its
//! revisions; blame (`b`) of a server-side-applied object names each manager.
use crate::{support, util};

use util::*;

#[test]
#[ignore = "real tier"]
fn history_names_the_managers_of_each_revision() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-hist");
    cluster.kubectl_ok(&[
        "-n",
        &ns,
        "create",
        "deployment",
        "web",
        "--image=web:1.4",
        "--replicas=1",
    ]);
    let mut k = ktui_with(&cluster.kubeconfig, &["-n", &ns, "-c", "deploy"], 40);
    k.wait_for("web", SLOW);
    k.type_keys("h");
    // `1 revision` or `2 revisions`: the controller's status update may not have come yet.
    k.wait_until("the first revision", SLOW, |s| {
        s.contains("history deployment/web") && s.contains(" revision")
    });
    cluster.kubectl_ok(&["-n", &ns, "scale", "deployment", "web", "--replicas=3"]);
    k.wait_until("the scale", SLOW, |s| {
        s.lines()
            .any(|l| l.contains("spec.replicas 1→3") && l.contains("(Update/scale)"))
    });
    cluster.kubectl_ok(&[
        "-n",
        &ns,
        "patch",
        "deployment",
        "web",
        "--field-manager=ops-bot",
        "--type=merge",
        "-p",
        r#"{"metadata":{"labels":{"tier":"db"}}}"#,
    ]);
    k.wait_until("the patch", SLOW, |s| {
        s.lines()
            .any(|l| l.contains("+label tier=db") && l.contains("ops-bot (Update)"))
    });
    cluster.kubectl_ok(&[
        "-n",
        &ns,
        "annotate",
        "deployment/web",
        "kubernetes.io/change-cause=set image web=web:1.5",
    ]);
    cluster.kubectl_ok(&["-n", &ns, "set", "image", "deployment/web", "web=web:1.5"]);
    k.wait_until("the image change", SLOW, |s| {
        s.lines().any(|l| l.contains("image web:1.4→web:1.5"))
    });
    // Status revisions keep arriving and move the rows: the search selects the revision by
    // what its row says, and the selection stays on it.
    k.type_keys("/image web:1.4");
    k.press_enter();
    k.press_enter();
    k.wait_for(
        "~ spec.template.spec.containers[web].image: web:1.4 → web:1.5",
        SLOW,
    );
    k.press_esc();
    k.wait_gone("history diff", SLOW);
    // The cluster's rollout history: the new ReplicaSet is revision 2, with its change-cause.
    k.wait_until("the rollout history", SLOW, |s| {
        s.contains("rollout history · 2 ReplicaSets")
            && s.lines().any(|l| {
                l.contains("2 (in use)") && l.contains("web:1.5") && l.contains("set image web=web:1.5")
            })
            && s.lines().any(|l| l.contains(" 1 ") && l.contains("web:1.4"))
    });
    // Its newest revision is the top row; enter diffs its pod template against revision 1.
    k.type_keys("gg");
    k.press_enter();
    k.wait_until("the template diff", SLOW, |s| {
        s.contains("rollout diff: revision 1 ")
            && s.contains("~ spec.template.spec.containers[web].image: web:1.4 → web:1.5")
    });
    k.press_esc();
    k.command("q");
    k.wait_exit(SLOW).expect("ktui exits on :q");
}

#[test]
#[ignore = "real tier"]
fn blame_of_a_server_side_applied_object_names_each_manager() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-blame");
    let dir = tempfile::tempdir().unwrap();
    let apply = |manager: &str, body: &str| {
        let path = dir.path().join(format!("{manager}.yaml"));
        std::fs::write(
            &path,
            format!(
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: conf\n  namespace: {ns}\ndata:\n{body}"
            ),
        )
        .unwrap();
        cluster.kubectl_ok(&[
            "apply",
            "--server-side",
            &format!("--field-manager={manager}"),
            "-f",
            path.to_str().unwrap(),
        ]);
    };
    apply("team-a", "  colour: blue\n");
    apply("team-b", "  size: large\n");
    let mut k = ktui_with(&cluster.kubeconfig, &["-n", &ns, "-c", "cm"], 40);
    k.wait_for("conf", SLOW);
    k.type_keys("/conf");
    k.press_enter();
    k.type_keys("b");
    k.wait_until("blame", SLOW, |s| {
        s.contains("blame configmap/conf") && s.contains("colour: blue")
    });
    let screen = k.screen();
    let line = |needle: &str| {
        screen
            .lines()
            .find(|l| l.contains(needle))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(line("colour: blue").contains("team-a (Apply)"), "{}", k.dump());
    assert!(line("size: large").contains("team-b (Apply)"), "{}", k.dump());
    k.command("q");
    k.wait_exit(SLOW).expect("ktui exits on :q");
}
