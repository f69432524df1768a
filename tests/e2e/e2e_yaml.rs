//! End-to-end: `y` opens the live YAML of the selected object — it updates when the object is
//! patched and says when it was deleted; a Secret's values stay hidden until `x` and an
//! explicit `y` confirm; `m` toggles managedFields.
use crate::{support, util};

use util::*;

#[test]
#[ignore = "real tier"]
fn yaml_is_live_and_secrets_are_hidden_until_confirmed() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-yaml");
    cluster.kubectl_ok(&[
        "-n",
        &ns,
        "create",
        "configmap",
        "settings",
        "--from-literal=mode=blue",
    ]);
    cluster.kubectl_ok(&[
        "-n",
        &ns,
        "create",
        "secret",
        "generic",
        "db",
        "--from-literal=password=hunter2",
    ]);
    let mut k = ktui_with(&cluster.kubeconfig, &["-n", &ns, "-c", "cm"], 40);
    k.wait_for("settings", SLOW);
    k.type_keys("/settings");
    k.press_enter();
    k.type_keys("y");
    k.wait_until("the YAML of the configmap", SLOW, |s| {
        s.contains("yaml configmap/settings") && s.contains("mode: blue")
    });
    assert!(
        !k.screen().contains("managedFields"),
        "hidden by default\n{}",
        k.dump()
    );
    k.type_keys("m");
    k.wait_for("managedFields", SLOW);
    cluster.kubectl_ok(&[
        "-n",
        &ns,
        "patch",
        "configmap",
        "settings",
        "--type=merge",
        "-p",
        r#"{"data":{"mode":"green"}}"#,
    ]);
    let took = k.wait_for("mode: green", SLOW);
    report_timing("YAML update after a patch", took, LIVE);
    cluster.kubectl_ok(&["-n", &ns, "delete", "configmap", "settings"]);
    k.wait_for("[deleted]", SLOW);
    k.press_esc();
    k.command("secrets");
    k.wait_for("Opaque", SLOW);
    k.type_keys("/db");
    k.press_enter();
    k.type_keys("y");
    k.wait_until("the secret's YAML", SLOW, |s| {
        s.contains("yaml secret/db") && s.contains("password:")
    });
    assert!(
        !k.raw_contains("hunter2") && !k.raw_contains("aHVudGVyMg"),
        "value never drawn before consent"
    );
    k.type_keys("x");
    k.wait_for("decode and show the values", SLOW);
    k.type_keys("n");
    k.wait_gone("decode and show the values", SLOW);
    assert!(!k.raw_contains("hunter2"), "declined: still hidden");
    k.type_keys("x");
    k.wait_for("decode and show the values", SLOW);
    k.type_keys("y");
    k.wait_for("password: hunter2", SLOW);
}

#[test]
#[ignore = "real tier"]
fn describe_summarises_a_pod_and_a_node() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-describe");
    create_pods(&cluster, &ns, &["described"]);
    let mut k = ktui_with(&cluster.kubeconfig, &["-n", &ns], 40);
    k.wait_for("described", SLOW);
    k.type_keys("d");
    k.wait_until("the pod's describe", SLOW, |s| {
        s.contains("describe pod/described")
            && s.contains("Containers:")
            && s.contains("Image:")
            && s.contains("Conditions:")
    });
    // The node's kubelet tries to pull the image (registry.invalid never resolves): its
    // events end the describe, live.
    // `G` again until they show: events that arrive after a `G` lengthen the text below it.
    let pulled =
        |s: &str| s.contains("kubelet") && ["Pulling", "Failed", "BackOff"].iter().any(|r| s.contains(r));
    let t0 = std::time::Instant::now();
    while !pulled(&k.screen()) && t0.elapsed() < SLOW {
        k.type_keys("G");
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
    k.wait_until("the kubelet's image-pull events at the end", SLOW, pulled);
    k.type_keys("gg");
    k.press_esc();
    k.command("no");
    k.wait_for("node-1", SLOW);
    k.type_keys("d");
    k.wait_until("the node's describe", SLOW, |s| {
        s.contains("describe node/") && s.contains("Addresses:")
    });
}
