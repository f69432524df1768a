//! kubectl's own writes against `ktui demo-server` (real tier: it needs the Go-built kubectl
//! from `$KTUI_TEST_BIN`, default `~/.cache/ktui-test/bin`): scale, rollout restart and undo,
//! delete with each cascade and a grace period, cordon, drain refused by a
//! PodDisruptionBudget, edit through a scripted `KUBE_EDITOR` (kubectl first reads the
//! OpenAPI v3 documents to learn the server validates fields, then patches with
//! `fieldValidation=Strict`), `auth can-i` and a 403 as the viewer (whose context reaches the
//! server under `/viewer`: kubectl sends no token over `http://`), and `create job
//! --from=cronjob/…`, refused 415: kubectl sends that Job as protobuf, and the demo decodes
//! protobuf only for SelfSubjectAccessReviews (a Job's pod template is most of
//! `generated.proto`; no protobuf codec is in the dependency tree). Each test runs its own
//! in-process demo server.

use std::path::PathBuf;
use std::process::Output;
use std::time::{Duration, Instant};

use crate::kubectl_bin::kubectl_bin;
use ktui::sim::cli::{start_in_process, DemoHandle};
use ktui::sim::DemoOptions;

struct Kubectl {
    bin: PathBuf,
    demo: DemoHandle,
}

impl Kubectl {
    async fn start() -> Option<Kubectl> {
        let bin = kubectl_bin()?;
        let demo = start_in_process(DemoOptions {
            tick: Duration::from_millis(100),
            ..DemoOptions::default()
        })
        .await
        .expect("demo server starts");
        Some(Kubectl { bin, demo })
    }

    async fn run_env(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        let mut c = tokio::process::Command::new(&self.bin);
        c.arg("--kubeconfig")
            .arg(&self.demo.kubeconfig)
            .arg("--cache-dir")
            .arg(self.demo.kubeconfig.parent().unwrap().join("cache"))
            .args(args)
            .kill_on_drop(true)
            .stdin(std::process::Stdio::null());
        for (k, v) in env {
            c.env(k, v);
        }
        tokio::time::timeout(Duration::from_secs(90), c.output())
            .await
            .expect("kubectl finished")
            .expect("kubectl runs")
    }

    async fn run(&self, args: &[&str]) -> Output {
        self.run_env(args, &[]).await
    }

    async fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args).await;
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "kubectl {args:?} failed: {}\n{text}",
            String::from_utf8_lossy(&out.stderr)
        );
        text
    }

    async fn wait_for(&self, what: &str, args: &[&str], want: impl Fn(&str) -> bool) -> String {
        let t = Instant::now();
        loop {
            let out = self.run(args).await;
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            if want(&text) {
                return text;
            }
            assert!(
                t.elapsed() < Duration::from_secs(60),
                "timed out waiting for {what}: {text}"
            );
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "real tier"]
async fn kubectl_scale_rollout_restart_and_undo() {
    let Some(k) = Kubectl::start().await else { return };
    assert!(k
        .ok(&["-n", "shop", "scale", "deploy/cart", "--replicas=4"])
        .await
        .contains("deployment.apps/cart scaled"));
    k.wait_for(
        "4 ready cart replicas",
        &[
            "-n",
            "shop",
            "get",
            "deploy/cart",
            "-o",
            "jsonpath={.status.readyReplicas}",
        ],
        |s| s == "4",
    )
    .await;
    assert!(k
        .ok(&["-n", "shop", "rollout", "restart", "deploy/cart"])
        .await
        .contains("deployment.apps/cart restarted"));
    let status = k
        .ok(&["-n", "shop", "rollout", "status", "deploy/cart", "--timeout=60s"])
        .await;
    assert!(status.contains("successfully rolled out"), "{status}");
    let revs = k
        .ok(&[
            "-n",
            "shop",
            "get",
            "rs",
            "-l",
            "app=cart",
            "-o",
            "jsonpath={range .items[*]}{.metadata.annotations.deployment\\.kubernetes\\.io/revision} {end}",
        ])
        .await;
    assert_eq!(revs.split_whitespace().count(), 2, "{revs}");
    let undo = k.ok(&["-n", "shop", "rollout", "undo", "deploy/cart"]).await;
    assert!(undo.contains("deployment.apps/cart rolled back"), "{undo}");
    k.wait_for(
        "revision 3 after the undo",
        &[
            "-n",
            "shop",
            "get",
            "deploy/cart",
            "-o",
            "jsonpath={.metadata.annotations.deployment\\.kubernetes\\.io/revision}",
        ],
        |s| s == "3",
    )
    .await;
    let status = k
        .ok(&["-n", "shop", "rollout", "status", "deploy/cart", "--timeout=60s"])
        .await;
    assert!(status.contains("successfully rolled out"), "{status}");
    // The undo went back to revision 1's ReplicaSet (now revision 3), as the API server's
    // semantic template equality finds it: no third ReplicaSet.
    let revs = k
        .ok(&[
            "-n",
            "shop",
            "get",
            "rs",
            "-l",
            "app=cart",
            "-o",
            "jsonpath={range .items[*]}{.metadata.annotations.deployment\\.kubernetes\\.io/revision} {end}",
        ])
        .await;
    let mut revs: Vec<&str> = revs.split_whitespace().collect();
    revs.sort_unstable();
    assert_eq!(revs, ["2", "3"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "real tier"]
async fn kubectl_delete_with_each_cascade_and_a_grace_period() {
    let Some(k) = Kubectl::start().await else { return };
    let out = k
        .ok(&[
            "-n",
            "shop",
            "delete",
            "deploy/cart",
            "--cascade=foreground",
            "--timeout=60s",
        ])
        .await;
    assert!(out.contains("deleted"), "{out}");
    let left = k
        .ok(&["-n", "shop", "get", "rs,pods", "-l", "app=cart", "-o", "name"])
        .await;
    assert!(
        left.trim().is_empty(),
        "foreground waited for the dependents: {left}"
    );
    k.ok(&["-n", "shop", "delete", "deploy/checkout", "--cascade=orphan"])
        .await;
    let rs = k
        .ok(&[
            "-n",
            "shop",
            "get",
            "rs",
            "-l",
            "app=checkout",
            "-o",
            "jsonpath={.items[0].metadata.ownerReferences}",
        ])
        .await;
    assert!(rs.trim().is_empty(), "orphaned ReplicaSet keeps no owner: {rs}");
    let pod = k
        .ok(&[
            "-n",
            "shop",
            "get",
            "pods",
            "-l",
            "app=frontend",
            "-o",
            "jsonpath={.items[0].metadata.name}",
        ])
        .await;
    let t = Instant::now();
    k.ok(&["-n", "shop", "delete", "pod", &pod, "--grace-period=1"])
        .await;
    assert!(t.elapsed() < Duration::from_secs(30));
    let gone = k.run(&["-n", "shop", "get", "pod", &pod]).await;
    assert!(
        String::from_utf8_lossy(&gone.stderr).contains("not found"),
        "kubectl delete waited for the pod to go"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "real tier"]
async fn kubectl_cordon_and_a_drain_refused_by_a_disruption_budget() {
    let Some(k) = Kubectl::start().await else { return };
    assert!(k
        .ok(&["cordon", "worker-1"])
        .await
        .contains("node/worker-1 cordoned"));
    let flag = k
        .ok(&["get", "node", "worker-1", "-o", "jsonpath={.spec.unschedulable}"])
        .await;
    assert_eq!(flag, "true");
    // postgres-0 runs on worker-1 and data/postgres allows no disruption.
    let out = k
        .run(&[
            "drain",
            "worker-1",
            "--ignore-daemonsets",
            "--delete-emptydir-data",
            "--timeout=8s",
        ])
        .await;
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out.status.success(), "{all}");
    assert!(
        all.contains("Cannot evict pod as it would violate the pod's disruption budget."),
        "{all}"
    );
    assert!(all.contains("evicting pod data/postgres-0"), "{all}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "real tier"]
async fn kubectl_edit_through_a_scripted_editor() {
    let Some(k) = Kubectl::start().await else { return };
    let dir = k.demo.kubeconfig.parent().unwrap().to_owned();
    let script = dir.join("editor.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nsed -i 's/^  replicas: 2$/  replicas: 3/' \"$1\"\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let out = k
        .run_env(
            &["-n", "shop", "edit", "deploy/cart"],
            &[("KUBE_EDITOR", script.to_str().unwrap())],
        )
        .await;
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("deployment.apps/cart edited"),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        k.ok(&[
            "-n",
            "shop",
            "get",
            "deploy/cart",
            "-o",
            "jsonpath={.spec.replicas}"
        ])
        .await,
        "3"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "real tier"]
async fn kubectl_auth_can_i_and_403_as_the_viewer() {
    let Some(k) = Kubectl::start().await else { return };
    let v = ["--context", "ktui-demo-viewer", "-n", "shop"];
    let can = |extra: &'static [&'static str]| [&v[..], extra].concat();
    let out = k.run(&can(&["auth", "can-i", "list", "pods"])).await;
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "yes");
    let out = k.run(&can(&["auth", "can-i", "delete", "pods"])).await;
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "no");
    assert!(!out.status.success());
    let admin = k.run(&["-n", "shop", "auth", "can-i", "delete", "pods"]).await;
    assert_eq!(String::from_utf8_lossy(&admin.stdout).trim(), "yes");
    let out = k.run(&can(&["delete", "configmap", "frontend-config"])).await;
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("configmaps \"frontend-config\" is forbidden: User \"viewer\" cannot delete resource \"configmaps\" in API group \"\" in the namespace \"shop\""),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "real tier"]
async fn kubectl_create_job_from_cronjob_is_refused_as_protobuf() {
    let Some(k) = Kubectl::start().await else { return };
    let out = k
        .run(&[
            "-n",
            "batch",
            "create",
            "job",
            "manual-1",
            "--from=cronjob/nightly-report",
        ])
        .await;
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("accepted media types include: application/json"),
        "{err}"
    );
}
