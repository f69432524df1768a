//! Conformance of the demo API server (`ktui::sim`): kubectl (the test cluster's build, at
//! `$KTUI_TEST_BIN/kubectl`) must list, get and watch against it, and a real `kube::Client`
//! must see the API semantics ktui's informer relies on (paging, continue expiry, 410,
//! bookmarks, selectors). Without kubectl (and CI != "true") the kubectl tests skip with a
//! note.

use std::path::PathBuf;
use std::process::Output;
use std::time::Duration;

use ktui::sim::cli::{start_in_process, DemoHandle};
use ktui::sim::DemoOptions;

fn kubectl_bin() -> Option<PathBuf> {
    let dir = std::env::var_os("KTUI_TEST_BIN")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/ktui-test/bin")))?;
    let bin = dir.join("kubectl");
    if bin.exists() {
        return Some(bin);
    }
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{} is missing under CI=true (tests/run.sh builds it)", bin.display());
    eprintln!("note: skipping kubectl conformance test: {} not found (run tests/cluster/build.sh)", bin.display());
    None
}

struct Kubectl {
    bin: PathBuf,
    demo: DemoHandle,
    cache: PathBuf,
}

impl Kubectl {
    async fn start(opts: DemoOptions) -> Option<Kubectl> {
        let bin = kubectl_bin()?;
        let demo = start_in_process(opts).await.expect("demo server starts");
        let cache = demo.kubeconfig.parent().unwrap().join("kubectl-cache");
        Some(Kubectl { bin, demo, cache })
    }

    fn command(&self, args: &[&str]) -> tokio::process::Command {
        let mut c = tokio::process::Command::new(&self.bin);
        c.arg("--kubeconfig").arg(&self.demo.kubeconfig).arg("--cache-dir").arg(&self.cache).args(args);
        c.kill_on_drop(true).stdin(std::process::Stdio::null());
        c
    }

    async fn run(&self, args: &[&str]) -> Output {
        tokio::time::timeout(Duration::from_secs(30), self.command(args).output()).await.expect("kubectl finished").expect("kubectl runs")
    }

    async fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args).await;
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "kubectl {args:?} failed: {stderr}\nstdout: {stdout}");
        stdout.into_owned()
    }
}

/// Serves a demo cluster until killed, for trying clients by hand:
/// `KTUI_DEMO_SERVE=1 cargo test --test demo_server -- --ignored --nocapture serve_by_hand`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn serve_by_hand() {
    if std::env::var_os("KTUI_DEMO_SERVE").is_none() {
        return;
    }
    let pods = std::env::var("KTUI_DEMO_PODS").ok().and_then(|p| p.parse().ok()).unwrap_or(0);
    let churn = std::env::var("KTUI_DEMO_CHURN").ok().and_then(|p| p.parse().ok()).unwrap_or(0);
    let demo = start_in_process(DemoOptions { pods, churn, ..DemoOptions::default() }).await.unwrap();
    println!("KUBECONFIG={}", demo.kubeconfig.display());
    tokio::time::sleep(Duration::from_secs(3600)).await;
}
