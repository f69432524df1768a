//! Conformance of the demo API server (`ktui::sim`): kubectl (the test cluster's build, at
//! `$KTUI_TEST_BIN/kubectl`) must list, get and watch against it, and a real `kube::Client`
//! must see the API semantics ktui's informer relies on (paging, continue expiry, 410,
//! bookmarks, selectors). Without kubectl (and CI != "true") the kubectl tests skip with a
//! note.

use std::path::PathBuf;
use std::process::Output;
use std::time::Duration;

use crate::kubectl_bin::kubectl_bin;
use ktui::sim::cli::{start_in_process, DemoHandle};
use ktui::sim::DemoOptions;

pub(crate) struct Kubectl {
    bin: PathBuf,
    pub(crate) demo: DemoHandle,
    cache: PathBuf,
}

impl Kubectl {
    pub(crate) async fn start(opts: DemoOptions) -> Option<Kubectl> {
        let bin = kubectl_bin()?;
        let demo = start_in_process(opts).await.expect("demo server starts");
        let cache = demo.kubeconfig.parent().unwrap().join("kubectl-cache");
        Some(Kubectl { bin, demo, cache })
    }

    fn command(&self, args: &[&str]) -> tokio::process::Command {
        let mut c = tokio::process::Command::new(&self.bin);
        c.arg("--kubeconfig")
            .arg(&self.demo.kubeconfig)
            .arg("--cache-dir")
            .arg(&self.cache)
            .args(args);
        c.kill_on_drop(true).stdin(std::process::Stdio::null());
        c
    }

    pub(crate) async fn run(&self, args: &[&str]) -> Output {
        tokio::time::timeout(Duration::from_secs(30), self.command(args).output())
            .await
            .expect("kubectl finished")
            .expect("kubectl runs")
    }

    pub(crate) async fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args).await;
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(
            out.status.success(),
            "kubectl {args:?} failed: {stderr}\nstdout: {stdout}"
        );
        stdout.into_owned()
    }
}

/// Serves a demo cluster until killed, for trying clients by hand:
/// `KTUI_DEMO_SERVE=1 cargo test --test scenarios -- --ignored --nocapture serve_by_hand`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "by hand: KTUI_DEMO_SERVE=1"]
async fn serve_by_hand() {
    if std::env::var_os("KTUI_DEMO_SERVE").is_none() {
        return;
    }
    let pods = std::env::var("KTUI_DEMO_PODS")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    let churn = std::env::var("KTUI_DEMO_CHURN")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    let demo = start_in_process(DemoOptions {
        pods,
        churn,
        ..DemoOptions::default()
    })
    .await
    .unwrap();
    println!("KUBECONFIG={}", demo.kubeconfig.display());
    tokio::time::sleep(Duration::from_secs(3600)).await;
}

fn quiet() -> DemoOptions {
    DemoOptions {
        live: false,
        ..DemoOptions::default()
    }
}

fn lively() -> DemoOptions {
    DemoOptions {
        tick: Duration::from_millis(100),
        ..DemoOptions::default()
    }
}

fn probe_pod(name: &str) -> serde_json::Value {
    serde_json::json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"namespace": "shop", "name": name, "labels": {"app": "probe"}},
        "spec": {"nodeName": "worker-1", "containers": [{"name": "c", "image": "busybox"}]},
        "status": {"phase": "Pending"}})
}

/// Reads lines of a child's stdout until one contains `want` (or 30 s pass: a hang).
async fn wait_for_line(child: &mut tokio::process::Child, want: &str) -> Vec<String> {
    use tokio::io::AsyncBufReadExt;
    let stdout = child.stdout.take().expect("piped stdout");
    let mut lines = tokio::io::BufReader::new(stdout).lines();
    let mut seen = Vec::new();
    let found = tokio::time::timeout(Duration::from_secs(30), async {
        while let Ok(Some(l)) = lines.next_line().await {
            let hit = l.contains(want);
            seen.push(l);
            if hit {
                return true;
            }
        }
        false
    })
    .await
    .unwrap_or(false);
    assert!(found, "no line with {want:?} in {seen:#?}");
    seen
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_gets_every_kind() {
    let Some(k) = Kubectl::start(quiet()).await else {
        return;
    };
    let pods = k.ok(&["get", "pods", "-A"]).await;
    for want in [
        // Server-side Table: kubectl shows ktui's columns, not just NAME and AGE.
        "READY",
        "STATUS",
        "RESTARTS",
        "CrashLoopBackOff",
        "NAMESPACE",
        "kube-system",
        "coredns-",
        "checkout-",
        "postgres-0",
        "kube-proxy-",
    ] {
        assert!(pods.contains(want), "{want} missing from:\n{pods}");
    }
    let mixed = k.ok(&["get", "deploy,svc,nodes", "-A"]).await;
    for want in ["deployment.apps/frontend", "service/kube-dns", "node/worker-1"] {
        assert!(mixed.contains(want), "{want} missing from:\n{mixed}");
    }
    let all = k
        .ok(&["get", "rs,sts,ds,job,cronjob,cm,secret,pvc,ns", "-A"])
        .await;
    for want in [
        "replicaset.apps/cart-",
        "statefulset.apps/postgres",
        "daemonset.apps/kube-proxy",
        "cronjob.batch/nightly-report",
        "configmap/frontend-config",
        "secret/registry",
        "persistentvolumeclaim/data-postgres-0",
        "namespace/shop",
    ] {
        assert!(all.contains(want), "{want} missing from:\n{all}");
    }
    let gz = k.ok(&["get", "gz", "-n", "demo"]).await;
    assert!(
        gz.contains("sprocket") && gz.contains("widget") && gz.contains("COLOR"),
        "{gz}"
    );
    let wide = k.ok(&["get", "nodes", "-o", "wide"]).await;
    for want in [
        "Ready,SchedulingDisabled",
        "INTERNAL-IP",
        "10.0.0.11",
        "control-plane",
    ] {
        assert!(wide.contains(want), "{want} missing from:\n{wide}");
    }
    let crd = k
        .ok(&[
            "get",
            "crd",
            "gizmos.demo.ktui.dev",
            "-o",
            "jsonpath={.spec.versions[0].additionalPrinterColumns[*].name}",
        ])
        .await;
    assert_eq!(crd, "Color Size Phase Age");
    let one = k
        .ok(&[
            "get",
            "pod",
            "-n",
            "data",
            "postgres-1",
            "-o",
            "jsonpath={.spec.nodeName}",
        ])
        .await;
    assert_eq!(one, "worker-2");
    let sel = k
        .ok(&[
            "get",
            "pods",
            "-A",
            "--field-selector",
            "spec.nodeName=worker-4",
            "-l",
            "app=kube-proxy",
            "-o",
            "name",
        ])
        .await;
    assert_eq!(sel.lines().count(), 1, "{sel}");
    let missing = k.run(&["get", "pod", "-n", "shop", "nope"]).await;
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("pods \"nope\" not found"),
        "{missing:?}"
    );
    let bad = k.run(&["get", "pods", "--field-selector", "spec.bogus=1"]).await;
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("field label not supported: spec.bogus"),
        "{bad:?}"
    );
    let version = k.ok(&["version", "-o", "json"]).await;
    assert!(version.contains("\"gitVersion\": \"v1.37.2\""), "{version}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_get_watch_sees_a_change() {
    let Some(k) = Kubectl::start(quiet()).await else {
        return;
    };
    let mut child = k
        .command(&["get", "pods", "-n", "shop", "-w"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let store = k.demo.server.store.clone();
    let writer = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(1500)).await;
        store
            .apply(ktui::sim::kinds::id::POD, probe_pod("watch-probe"))
            .unwrap();
    });
    let lines = wait_for_line(&mut child, "watch-probe").await;
    assert!(
        lines.iter().any(|l| l.contains("frontend-")),
        "the initial list came first: {lines:#?}"
    );
    writer.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_events_lists_and_watches() {
    let Some(k) = Kubectl::start(lively()).await else {
        return;
    };
    tokio::time::sleep(Duration::from_secs(2)).await;
    let events = k.ok(&["events", "-A"]).await;
    for want in [
        "LAST SEEN",
        "NodeNotReady",
        "Node/worker-4",
        "Scheduled",
        "Started",
    ] {
        assert!(events.contains(want), "{want} missing from:\n{events}");
    }
    let mut child = k
        .command(&["events", "-A", "--watch"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A live tick records new events every 100 ms; BackOff comes from the crash-looping pod.
    wait_for_line(&mut child, "BackOff").await;
}

mod api;
mod controllers;
mod metrics;
mod writes;

/// `DemoServerArgs` works as the `demo-server` subcommand of a clap CLI shaped like ktui's.
#[test]
fn demo_server_flags_parse_as_a_subcommand() {
    use clap::{Parser, Subcommand};
    use ktui::sim::cli::DemoServerArgs;
    #[derive(Parser)]
    struct Cli {
        #[arg(long)]
        demo: bool,
        #[command(subcommand)]
        sub: Option<Sub>,
    }
    #[derive(Subcommand)]
    enum Sub {
        DemoServer(DemoServerArgs),
    }
    let cli = Cli::try_parse_from([
        "ktui",
        "demo-server",
        "--addr",
        "127.0.0.1:7443",
        "--kubeconfig-out",
        "/tmp/kc",
        "--pods",
        "100000",
        "--churn",
        "1000",
        "--seed",
        "7",
        "--faults",
        "drop-watch=10s,gone=0.05,no-bookmarks,error-rate=0.1:500|429,delay=200ms",
    ])
    .unwrap();
    let Some(Sub::DemoServer(args)) = cli.sub else {
        panic!("subcommand not parsed")
    };
    let opts = args.options();
    assert_eq!(
        (opts.addr.port(), opts.pods, opts.churn, opts.seed),
        (7443, 100_000, 1000, 7)
    );
    assert_eq!(opts.faults.error_codes, [500, 429]);
    assert!(Cli::try_parse_from(["ktui", "demo-server", "--faults", "explode"]).is_err());
    assert!(Cli::try_parse_from(["ktui", "--demo"]).unwrap().demo);
}
