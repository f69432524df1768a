//! Support for the real test tier: a real etcd + kube-apiserver + controller-manager +
//! scheduler on 127.0.0.1, started by `tests/cluster/up.sh` (see tests/cluster/README.md).
//!
//! Declared once per test binary that needs it (`#[path = "../support/mod.rs"] mod support;`
//! in tests/e2e/main.rs and tests/real/main.rs); its modules `use crate::support;`. Every
//! test that uses a cluster is `#[ignore = "real tier"]`, so a plain `cargo test` lists it as
//! ignored; `bash tests/run.sh` runs it (`--include-ignored`), starts one shared cluster for
//! the whole run and exports `KTUI_TEST_CLUSTER_DIR`; [`shared_cluster`] returns it. Tests
//! that must disturb a cluster (restart its API server, stop it) take their own with
//! [`own_cluster`] / [`start_cluster`]. Run without `KTUI_TEST_CLUSTER_DIR` (e.g. `cargo test
//! -- --include-ignored`), a real-tier test skips with a note — except under `CI=true`, where
//! it panics, so the tier can never be skipped silently in CI.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use kube::config::{KubeConfigOptions, Kubeconfig};

/// Context of the admin user (group system:masters); the kubeconfig's current context.
pub const ADMIN: &str = "ktui-test";
/// Context of a user that may only get/list/watch in namespace [`VIEWER_NS`].
pub const VIEWER: &str = "ktui-viewer";
pub const VIEWER_NS: &str = "team-a";
/// up.sh's default nodes: hollow kubelets (node-1 tainted control-plane, pods run on node-2).
pub const NODES: [&str; 2] = ["node-1", "node-2"];
/// Components up.sh starts, in start order; each has DIR/<name>.pid and DIR/<name>.log.
pub const COMPONENTS: [&str; 4] = [
    "etcd",
    "kube-apiserver",
    "kube-controller-manager",
    "kube-scheduler",
];

/// A running test cluster, described by the directory up.sh filled.
#[derive(Debug, Clone)]
pub struct Cluster {
    pub dir: PathBuf,
    pub kubeconfig: PathBuf,
    pub kubectl: PathBuf,
}

/// The repository root (where Cargo.toml is).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Path of a script in tests/cluster/ (up.sh, down.sh, force-410.sh, build.sh).
pub fn cluster_script(name: &str) -> PathBuf {
    repo_root().join("tests/cluster").join(name)
}

/// Whether the real tier is on; prints a skip note (or panics under CI=true) when it is not.
fn real_tier_enabled(test_kind: &str) -> bool {
    if std::env::var_os("KTUI_TEST_CLUSTER_DIR").is_some_and(|d| !d.is_empty()) {
        return true;
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!(
            "KTUI_TEST_CLUSTER_DIR is not set but CI=true: real-tier tests must not be skipped \
             in CI. Run the suite with `bash tests/run.sh`, which starts the test cluster."
        );
    }
    eprintln!(
        "note: skipping {test_kind} real-cluster test: KTUI_TEST_CLUSTER_DIR is not set \
         (run `bash tests/run.sh` to include the real tier)"
    );
    false
}

/// The cluster shared by the whole test run (started by tests/run.sh), or `None` (with a
/// note on stderr) when the real tier is off. Panics under `CI=true` when it is off.
/// Isolate tests on it with [`Cluster::create_ns`] / [`unique_ns`]; never restart or stop it.
pub fn shared_cluster() -> Option<Cluster> {
    if !real_tier_enabled("shared") {
        return None;
    }
    let dir = PathBuf::from(std::env::var_os("KTUI_TEST_CLUSTER_DIR").unwrap());
    Some(Cluster::from_dir(&dir))
}

/// A private cluster for a test that disturbs it, or `None` when the real tier is off
/// (same rule as [`shared_cluster`]). Stopped when the returned value is dropped.
pub fn own_cluster() -> Option<OwnedCluster> {
    own_cluster_with(&[])
}

/// [`own_cluster`] with environment variables for up.sh, e.g. `("KTUI_TEST_MINIMAL", "1")`
/// (etcd and kube-apiserver only) or `("KTUI_TEST_APISERVER_ARGS", "…")`.
pub fn own_cluster_with(env: &[(&str, &str)]) -> Option<OwnedCluster> {
    real_tier_enabled("own").then(|| start_cluster_with(env))
}

/// Start a private cluster with up.sh in a fresh temp dir (builds the binaries first if the
/// cache lacks them). `Drop` runs down.sh. Panics with up.sh's output if it fails.
pub fn start_cluster() -> OwnedCluster {
    start_cluster_with(&[])
}

/// [`start_cluster`] with environment variables for up.sh (see [`own_cluster_with`]).
pub fn start_cluster_with(env: &[(&str, &str)]) -> OwnedCluster {
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    let dir = std::env::temp_dir().join(format!(
        "ktui-own-cluster-{}-{}-{nanos:x}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let out = Command::new("bash")
        .arg(cluster_script("up.sh"))
        .arg(&dir)
        .envs(env.iter().copied())
        .output()
        .expect("run tests/cluster/up.sh");
    if !out.status.success() {
        panic!(
            "tests/cluster/up.sh {} failed ({}):\n{}{}",
            dir.display(),
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    OwnedCluster {
        cluster: Cluster::from_dir(&dir),
        stopped: false,
    }
}

impl Cluster {
    /// Describe the cluster up.sh started in `dir` (reads DIR/env for the kubectl path).
    pub fn from_dir(dir: &Path) -> Cluster {
        let env = std::fs::read_to_string(dir.join("env"))
            .unwrap_or_else(|e| panic!("read {}/env (did up.sh succeed?): {e}", dir.display()));
        let kubectl = env
            .lines()
            .find_map(|l| l.strip_prefix("export KUBECTL="))
            .map(unquote)
            .unwrap_or_else(|| panic!("no KUBECTL line in {}/env", dir.display()));
        Cluster {
            dir: dir.to_path_buf(),
            kubeconfig: dir.join("kubeconfig"),
            kubectl: kubectl.into(),
        }
    }

    /// A `kube::Client` for one of the kubeconfig's contexts ([`ADMIN`] or [`VIEWER`]).
    pub async fn client(&self, context: &str) -> kube::Client {
        let kubeconfig = Kubeconfig::read_from(&self.kubeconfig)
            .unwrap_or_else(|e| panic!("read {}: {e}", self.kubeconfig.display()));
        let options = KubeConfigOptions {
            context: Some(context.to_string()),
            ..Default::default()
        };
        let config = kube::Config::from_custom_kubeconfig(kubeconfig, &options)
            .await
            .unwrap_or_else(|e| panic!("kubeconfig context {context}: {e}"));
        kube::Client::try_from(config).expect("build kube::Client")
    }

    /// Run kubectl as the admin context; returns its output whatever the exit status.
    pub fn kubectl(&self, args: &[&str]) -> Output {
        self.kubectl_as(ADMIN, args)
    }

    /// Run kubectl with the given kubeconfig context.
    pub fn kubectl_as(&self, context: &str, args: &[&str]) -> Output {
        Command::new(&self.kubectl)
            .arg("--kubeconfig")
            .arg(&self.kubeconfig)
            .args(["--context", context, "--request-timeout", "30s"])
            .args(args)
            .output()
            .expect("run kubectl")
    }

    /// Run kubectl as admin, panic with its stderr unless it succeeds; returns stdout.
    pub fn kubectl_ok(&self, args: &[&str]) -> String {
        let out = self.kubectl(args);
        assert!(
            out.status.success(),
            "kubectl {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("kubectl output is UTF-8")
    }

    /// Create a fresh namespace named `<prefix>-<unique suffix>` and return its name.
    pub fn create_ns(&self, prefix: &str) -> String {
        let ns = unique_ns(prefix);
        self.kubectl_ok(&["create", "namespace", &ns]);
        ns
    }

    /// Run tests/cluster/force-410.sh on this cluster (compacts etcd and restarts the API
    /// server): watches from older resourceVersions then get 410 Gone. Own clusters only.
    pub fn force_410(&self) {
        let out = Command::new("bash")
            .arg(cluster_script("force-410.sh"))
            .arg(&self.dir)
            .output()
            .expect("run force-410.sh");
        assert!(
            out.status.success(),
            "force-410.sh failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// `(component, pid)` for every pid file in the cluster dir.
    pub fn pids(&self) -> Vec<(String, u32)> {
        COMPONENTS
            .iter()
            .filter_map(|name| {
                let text = std::fs::read_to_string(self.dir.join(format!("{name}.pid"))).ok()?;
                Some((name.to_string(), text.trim().parse().ok()?))
            })
            .collect()
    }

    /// The last `lines` lines of a component's log (for assertion messages).
    pub fn log_tail(&self, component: &str, lines: usize) -> String {
        let text = std::fs::read_to_string(self.dir.join(format!("{component}.log"))).unwrap_or_default();
        let all: Vec<&str> = text.lines().collect();
        all[all.len().saturating_sub(lines)..].join("\n")
    }
}

/// A cluster owned by one test; stopped (down.sh) on drop or by [`OwnedCluster::stop`].
pub struct OwnedCluster {
    cluster: Cluster,
    stopped: bool,
}

impl OwnedCluster {
    /// Run down.sh now; panics if it fails. Idempotent.
    pub fn stop(&mut self) {
        if std::mem::replace(&mut self.stopped, true) {
            return;
        }
        let out = run_down(&self.cluster.dir);
        assert!(
            out.status.success(),
            "down.sh failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

impl std::ops::Deref for OwnedCluster {
    type Target = Cluster;
    fn deref(&self) -> &Cluster {
        &self.cluster
    }
}

impl Drop for OwnedCluster {
    fn drop(&mut self) {
        if !std::mem::replace(&mut self.stopped, true) {
            let _ = run_down(&self.cluster.dir);
        }
    }
}

fn run_down(dir: &Path) -> Output {
    Command::new("bash")
        .arg(cluster_script("down.sh"))
        .arg(dir)
        .output()
        .expect("run tests/cluster/down.sh")
}

/// True while `pid` names a live process (a zombie counts as gone).
pub fn process_alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // the state letter follows the ")" that closes the command name
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

/// A namespace name unique to this process and call: `<prefix>-<pid>-<n>-<time>`, cut to a
/// valid DNS label (63 chars).
pub fn unique_ns(prefix: &str) -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let t = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis() % 1_000_000;
    let prefix: String = prefix
        .to_ascii_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .take(30)
        .collect();
    let name = format!("{}-{}-{n}-{t}", prefix.trim_matches('-'), std::process::id());
    name.trim_start_matches('-').to_string()
}

/// Undo the `%q` quoting up.sh writes in DIR/env (plain paths need none).
fn unquote(s: &str) -> String {
    let s = s.trim();
    if let Some(inner) = s.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')) {
        return inner.to_string();
    }
    s.replace('\\', "")
}
