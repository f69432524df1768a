//! End-to-end on the real tier: `:can delete pods -n NS` in the binary lists the
//! ServiceAccount a RoleBinding to the aggregated `edit` ClusterRole names (with the binding
//! and role), `enter` on it shows what it may do, and a user who may not read RBAC objects
//! is told why there is no answer — at 80 and 200 columns.
use crate::{support, util};

use util::*;

#[test]
#[ignore = "real tier"]
fn can_lists_who_may_delete_pods_and_what_a_subject_may_do() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-can");
    cluster.kubectl_ok(&["-n", &ns, "create", "serviceaccount", "deployer"]);
    cluster.kubectl_ok(&[
        "-n",
        &ns,
        "create",
        "rolebinding",
        "deployer-edits",
        "--clusterrole=edit",
        &format!("--serviceaccount={ns}:deployer"),
    ]);
    for cols in [200, 80] {
        let mut k = ktui_sized(&cluster.kubeconfig, &["-n", &ns], 30, cols);
        k.wait_for("live", SLOW);
        k.command(&format!("can delete pods -n {ns}"));
        k.wait_until("the deployer's grant", SLOW, |s| {
            s.lines()
                .any(|l| l.contains("ServiceAccount") && l.contains("deployer"))
        });
        let s = k.screen();
        assert!(s.contains("who can delete pods in"), "{s}");
        if cols == 200 {
            let row = s
                .lines()
                .find(|l| l.contains("deployer"))
                .unwrap_or_default()
                .to_owned();
            assert!(
                row.contains("deployer-edits") && row.contains("ClusterRole/edit"),
                "{row}"
            );
            // cluster-admin's group is bound cluster-wide by the bootstrap policy.
            assert!(
                s.lines()
                    .any(|l| l.contains("Group") && l.contains("system:masters")),
                "{s}"
            );
        }
        // Select the deployer's row (rows are sorted by subject) and ask what it may do.
        let rows = k.screen();
        let line_of = |needle: &str| rows.lines().position(|l| l.contains(needle));
        let (first, target) = (line_of("KIND").unwrap_or(0) + 1, line_of("deployer").unwrap_or(0));
        for _ in first..target {
            k.type_keys("j");
        }
        k.press_enter();
        k.wait_until("what the deployer may do", SLOW, |s| {
            s.contains("what ServiceAccount") && s.contains("may do")
        });
        k.wait_until("the edit role's pods", SLOW, |s| {
            // The namespace's grants come first; at 80 columns SCOPE gives way to RESOURCE.
            s.lines().any(|l| l.contains("pods ") && l.contains("delete"))
        });
    }
    let mut k = ktui_sized(
        &cluster.kubeconfig,
        &["--context", support::VIEWER, "-n", support::VIEWER_NS],
        30,
        160,
    );
    k.command("can get pods");
    // The viewer may list nothing cluster-wide: none of the four lists answers.
    k.wait_until("the reason there is no answer", SLOW, |s| {
        s.contains("no answer: forbidden: list")
    });
}
