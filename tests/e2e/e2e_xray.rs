//! End-to-end: the xray tree (issue 35). On the demo: `:xray deploy shop` lists the
//! deployments; `x` on the frontend deployment's row opens its tree, and `enter` expands a
//! ReplicaSet, then a pod: its containers, ConfigMap, Secrets and the missing optional
//! ConfigMap flagged. On the real tier: deleting a pod with kubectl changes the tree within
//! a second, with no key pressed.
use crate::{support, util};

use std::time::{Duration, Instant};

use util::*;

#[test]
fn demo_xray_shows_deployment_replicaset_pod_containers_and_what_it_uses() {
    let dir = tempfile::tempdir().unwrap();
    let mut k = ktui_with(&dir.path().join("no-kubeconfig"), &["--demo"], 40);
    k.wait_for("Running", SLOW);
    k.command("xray deploy shop");
    k.wait_until("the deployments of shop", SLOW, |s| {
        s.contains("xray: deployments in shop") && s.contains("▸ deployment/frontend")
    });
    k.command("deploy shop");
    k.wait_for("frontend", SLOW);
    k.type_keys("/frontend");
    k.press_enter();
    k.wait_until("the filtered deployments", SLOW, |s| {
        has_row(s, "frontend") && !s.contains("cart ")
    });
    k.type_keys("x");
    k.wait_until("the deployment's tree, expanded", SLOW, |s| {
        s.contains("▾ deployment/frontend") && s.contains("▸ replicaset/frontend-")
    });
    k.type_keys("j");
    k.press_enter();
    k.wait_until("the ReplicaSet's pods", SLOW, |s| {
        s.contains("▾ replicaset/frontend-") && s.contains("▸ pod/frontend-")
    });
    k.type_keys("j");
    k.press_enter();
    let line = |s: &str, what: &str| {
        s.lines()
            .find(|l| l.contains(what))
            .unwrap_or_default()
            .to_owned()
    };
    // The missing optional ConfigMap is flagged once the configmaps informer has listed.
    k.wait_until("the pod's containers and what it uses", SLOW, |s| {
        s.contains("▾ pod/frontend-")
            && s.contains("container/frontend")
            && line(s, "configmap/frontend-config").contains("data 3")
            && line(s, "configmap/frontend-flags").contains("not found")
            && line(s, "secret/frontend-tls").contains("kubernetes.io/tls")
            && s.contains("secret/registry")
            && s.contains("service/frontend")
    });
    // `y` on the pod line: its live YAML, then back to the tree as it was.
    k.type_keys("y");
    k.wait_for("kind: Pod", SLOW);
    k.press_esc();
    k.wait_for("▾ pod/frontend-", SLOW);
    k.command("q");
    let (status, _) = k.wait_exit(SLOW).expect("ktui exits on :q");
    assert!(status.success(), "{status:?}");
}

#[test]
#[ignore = "real tier"]
fn deleting_a_pod_with_kubectl_changes_the_tree_within_a_second() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-xray");
    let manifest = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "app-config", "namespace": ns}, "data": {"a": "b"}},
        {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": ns},
         "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
                  "template": {"metadata": {"labels": {"app": "web"}},
                               "spec": {"containers": [{"name": "app", "image": "registry.invalid/web:1",
                                                        "envFrom": [{"configMapRef": {"name": "app-config"}},
                                                                    {"secretRef": {"name": "web-creds", "optional": true}}]}]}}}}
    ]});
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), manifest.to_string()).unwrap();
    cluster.kubectl_ok(&["create", "-f", file.path().to_str().unwrap()]);
    let mut k = ktui_with(&cluster.kubeconfig, &["-n", &ns], 40);
    k.wait_until("the deployment's pods", SLOW, |s| s.matches("web-").count() >= 2);
    k.command(&format!("xray deploy {ns}"));
    k.wait_for("▸ deployment/web", SLOW);
    k.press_enter();
    k.wait_for("▸ replicaset/web-", SLOW);
    k.type_keys("j");
    k.press_enter();
    let pods = |s: &str| -> Vec<String> {
        s.lines()
            .filter_map(|l| l.split("pod/").nth(1))
            .map(|r| r.split_whitespace().next().unwrap_or_default().to_owned())
            .collect()
    };
    k.wait_until("both pods under the ReplicaSet", SLOW, |s| pods(s).len() == 2);
    k.type_keys("j");
    k.press_enter();
    let line = |s: &str, what: &str| {
        s.lines()
            .find(|l| l.contains(what))
            .unwrap_or_default()
            .to_owned()
    };
    // The missing optional secret is flagged once the secrets informer has listed.
    k.wait_until("the first pod's uses, the missing secret flagged", SLOW, |s| {
        s.contains("container/app")
            && line(s, "configmap/app-config").contains("data 1")
            && line(s, "secret/web-creds").contains("not found")
    });
    let before = pods(&k.screen());
    let victim = before[1].clone();
    let asked = Instant::now();
    force_delete_pod(&cluster, &ns, &victim);
    let took = k.wait_until("the deleted pod to leave the tree", SLOW, |s| {
        !pods(s).contains(&victim)
    });
    let took = took.min(asked.elapsed());
    report_timing(
        "xray: a pod deleted with kubectl leaves the tree",
        took,
        Duration::from_secs(1),
    );
    assert!(took < Duration::from_secs(5), "the tree took {took:?} to change");
    k.wait_until("the replacement pod", SLOW, |s| {
        pods(s).len() == 2 && !pods(s).contains(&victim)
    });
    k.command("q");
    k.wait_exit(SLOW).expect("ktui exits on :q");
}
