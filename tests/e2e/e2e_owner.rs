//! End-to-end: `shift-j` follows owner references — pod → ReplicaSet → Deployment, each with
//! the owner selected and `esc` coming back — a bare pod goes to its node, and a service to
//! the pods its selector matches.
use crate::{support, util};

use util::*;

#[test]
#[ignore = "real tier"]
fn shift_j_walks_up_owner_references() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-owner");
    cluster.kubectl_ok(&[
        "-n",
        &ns,
        "create",
        "deployment",
        "web",
        "--image=registry.invalid/web:1",
    ]);
    cluster.kubectl_ok(&[
        "-n",
        &ns,
        "create",
        "service",
        "clusterip",
        "web",
        "--tcp=80:8080",
    ]);
    create_pods(&cluster, &ns, &["loner"]);
    let mut k = ktui_with(&cluster.kubeconfig, &["-n", &ns], 40);
    k.wait_until("the deployment's pod", SLOW, |s| s.contains("web-"));
    k.type_keys("/web-");
    k.press_enter();
    // `J` and `d` act on the selected row, so each step waits for its rows, not only its
    // title; and each ESC is followed by a wait for the screen it leads to (a key typed
    // right after it could be read with it as one Alt chord).
    let pods_list = format!("pods({ns})");
    k.wait_until("the filter to hide loner", SLOW, |s| {
        s.contains("web-") && !has_row(s, "loner")
    });
    k.type_keys("J");
    k.wait_until("the ReplicaSet list", SLOW, |s| {
        s.contains("replicasets — owner of pod/web-") && s.contains("│web-")
    });
    k.type_keys("d");
    k.wait_for("describe replicaset/web-", SLOW);
    k.press_esc();
    k.wait_until("the ReplicaSet list again", SLOW, |s| {
        s.contains("replicasets — owner of pod/web-") && !s.contains("describe replicaset/")
    });
    k.type_keys("J");
    k.wait_until("the Deployment list", SLOW, |s| {
        s.contains("deployments — owner of replicaset/web-") && s.contains("│web ")
    });
    k.type_keys("d");
    k.wait_for("describe deployment/web", SLOW);
    k.press_esc();
    k.wait_until("the Deployment list again", SLOW, |s| {
        s.contains("deployments — owner of replicaset/web-") && !s.contains("describe deployment/")
    });
    k.press_esc();
    k.wait_for("replicasets — owner of pod/web-", SLOW);
    k.press_esc();
    k.wait_until("the filtered pod list", SLOW, |s| {
        s.contains(&pods_list) && !s.contains("replicasets — owner")
    });
    k.press_esc();
    k.wait_until("the unfiltered pod list", SLOW, |s| has_row(s, "loner"));
    k.type_keys("/loner");
    k.press_enter();
    k.wait_until("the filter to leave only loner", SLOW, |s| {
        has_row(s, "loner") && !s.contains("web-")
    });
    k.type_keys("J");
    k.wait_until("the node list", SLOW, |s| {
        s.contains("nodes — owner of pod/loner") && s.contains("│node-")
    });
    k.type_keys("d");
    k.wait_until("the node of the pod", SLOW, |s| s.contains("describe node/node-"));
    k.press_esc();
    k.wait_until("the node list again", SLOW, |s| {
        s.contains("nodes — owner of pod/loner") && !s.contains("describe node/")
    });
    k.press_esc();
    k.wait_until("the pod list again", SLOW, |s| {
        s.contains(&pods_list) && !s.contains("nodes — owner")
    });
    k.command("svc");
    k.wait_for("ClusterIP", SLOW);
    k.type_keys("J");
    k.wait_until("the service's pods", SLOW, |s| s.contains("pods of service/web"));
}
