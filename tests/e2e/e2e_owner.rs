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
    k.type_keys("J");
    k.wait_until("the ReplicaSet list", SLOW, |s| {
        s.contains("replicasets — owner of pod/web-")
    });
    k.type_keys("d");
    k.wait_for("describe replicaset/web-", SLOW);
    k.press_esc();
    k.type_keys("J");
    k.wait_until("the Deployment list", SLOW, |s| {
        s.contains("deployments — owner of replicaset/web-")
    });
    k.type_keys("d");
    k.wait_for("describe deployment/web", SLOW);
    k.press_esc();
    k.press_esc();
    k.wait_for("replicasets — owner of pod/web-", SLOW);
    k.press_esc();
    k.press_esc();
    k.type_keys("/loner");
    k.press_enter();
    k.type_keys("J");
    k.wait_until("the node list", SLOW, |s| {
        s.contains("nodes — owner of pod/loner")
    });
    k.type_keys("d");
    k.wait_until("the node of the pod", SLOW, |s| s.contains("describe node/node-"));
    k.press_esc();
    k.press_esc();
    k.command("svc");
    k.wait_for("ClusterIP", SLOW);
    k.type_keys("J");
    k.wait_until("the service's pods", SLOW, |s| s.contains("pods of service/web"));
}
