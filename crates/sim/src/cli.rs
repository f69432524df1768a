//! Entry points of the demo cluster for the binary: `ktui demo-server` (foreground server
//! plus a kubeconfig file) and `ktui --demo` (an in-process server with a kubeconfig in a
//! temporary directory). Owns flags and kubeconfig files; must not know the UI.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use clap::Args;

use super::faults::FaultSpec;
use super::metrics::MetricsMode;
use super::{DemoOptions, DemoServer};

/// Flags of `ktui demo-server`.
#[derive(Debug, Clone, Args)]
pub struct DemoServerArgs {
    /// Address to listen on (loopback; port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:0")]
    pub addr: SocketAddr,
    /// Where to write a kubeconfig for the server (`http://`, dummy token).
    #[arg(long, value_name = "PATH")]
    pub kubeconfig_out: Option<PathBuf>,
    /// Total pods: the scenario's plus load pods up to this number.
    #[arg(long, default_value_t = 0)]
    pub pods: usize,
    /// Load-pod changes per second.
    #[arg(long, default_value_t = 0)]
    pub churn: u32,
    /// Seed of every random choice: the same seed gives the same cluster.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Faults, e.g. `drop-watch=10s,gone=0.05,no-bookmarks,error-rate=0.1:500|429,delay=200ms`
    /// (also `malformed=PREFIX`, `freeze`, `watch-list=refuse|ignore`).
    #[arg(long, value_name = "SPEC", value_parser = parse_faults)]
    pub faults: Option<FaultSpec>,
    /// Seconds between watch bookmarks.
    #[arg(long, default_value_t = 5.0)]
    pub bookmark_secs: f64,
    /// Log generator: pods `loggen-N` in namespace `demo` print this many lines per second.
    #[arg(long, default_value_t = 0, value_name = "LINES_PER_SEC")]
    pub log_rate: u64,
    /// Log generator: how many `loggen-N` pods (with `--log-rate`).
    #[arg(long, default_value_t = 1)]
    pub log_pods: usize,
    /// Deployments in all (load deployments without pods make up the difference).
    #[arg(long, default_value_t = 0)]
    pub deployments: usize,
    /// Load configmaps; with `--deployments`, a fifth of `--churn` changes these objects.
    #[arg(long, default_value_t = 0)]
    pub configmaps: usize,
    /// Load nodes (`load-node-NNNNN`, 1 in 50 NotReady) beside the demo's own.
    #[arg(long, default_value_t = 0)]
    pub nodes: usize,
    /// Load core/v1 events (old-style count/lastTimestamp) in `events-NN` namespaces.
    #[arg(long, default_value_t = 0)]
    pub events: usize,
    /// `metrics.k8s.io` (what `kubectl top` reads): `on`; `off` (not served, as without
    /// metrics-server); `unavailable` (registered, answers 503); `forbidden` (the viewer gets
    /// 403).
    #[arg(long, value_name = "MODE", default_value = "on", value_parser = parse_metrics)]
    pub metrics: MetricsMode,
    /// Serve no `metrics.k8s.io` (same as `--metrics off`).
    #[arg(long, conflicts_with = "metrics")]
    pub no_metrics: bool,
    /// Length of a metrics window: usage changes once per window (`15s`, `2s`, `500ms`).
    #[arg(long, value_name = "DURATION", default_value = "15s", value_parser = parse_duration)]
    pub metrics_window: std::time::Duration,
}

fn parse_metrics(s: &str) -> Result<MetricsMode, String> {
    s.parse()
}

fn parse_duration(s: &str) -> Result<std::time::Duration, String> {
    super::faults::parse_duration(s)
}

fn parse_faults(s: &str) -> Result<FaultSpec, String> {
    s.parse()
}

impl DemoServerArgs {
    /// The server options these flags describe.
    pub fn options(&self) -> DemoOptions {
        DemoOptions {
            addr: self.addr,
            pods: self.pods,
            churn: self.churn,
            seed: self.seed,
            faults: self.faults.clone().unwrap_or_default(),
            bookmark_every: std::time::Duration::from_secs_f64(self.bookmark_secs.clamp(0.01, 3600.0)),
            log_rate: self.log_rate,
            log_pods: self.log_pods,
            deployments: self.deployments,
            configmaps: self.configmaps,
            nodes: self.nodes,
            events: self.events,
            metrics: if self.no_metrics {
                MetricsMode::Off
            } else {
                self.metrics
            },
            metrics_window: self.metrics_window,
            ..DemoOptions::default()
        }
    }
}

/// Writes the server's kubeconfig to `path` (parent directories created, mode 0600).
pub fn write_kubeconfig(server: &DemoServer, path: &Path) -> anyhow::Result<()> {
    write_text(&server.kubeconfig_yaml(), path)
}

/// Writes a kubeconfig's `text` to `path` (parent directories created, mode 0600).
fn write_text(text: &str, path: &Path) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600));
    }
    Ok(())
}

/// `ktui demo-server`: serves in the foreground until SIGINT or SIGTERM.
pub async fn run_demo_server(args: DemoServerArgs) -> anyhow::Result<()> {
    let server = DemoServer::start(args.options()).await?;
    println!("ktui demo server listening on {}", server.url());
    if let Some(path) = &args.kubeconfig_out {
        write_kubeconfig(&server, path)?;
        println!(
            "kubeconfig written to {}  (try: KUBECONFIG={} kubectl get pods -A)",
            path.display(),
            path.display()
        );
    }
    wait_for_signal().await?;
    server.shutdown();
    if let Some(path) = &args.kubeconfig_out {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

async fn wait_for_signal() -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
        tokio::select! {
            r = tokio::signal::ctrl_c() => r?,
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    tokio::signal::ctrl_c().await?;
    Ok(())
}

/// An in-process demo server and its kubeconfig; dropping it stops the server and removes
/// the temporary directory.
pub struct DemoHandle {
    /// The running server.
    pub server: DemoServer,
    /// Its kubeconfig (context `ktui-demo`, no namespace set: see [`crate::kubeconfig_for`];
    /// then one context per server of `others`: see [`crate::kubeconfig_with`]).
    pub kubeconfig: PathBuf,
    /// More demo clusters with data of their own (`ktui-demo-eu`, `ktui-demo-us`), for a
    /// union of contexts.
    pub others: Vec<(String, DemoServer)>,
    dir: PathBuf,
}

impl DemoHandle {
    /// The address the server listens on.
    pub fn addr(&self) -> SocketAddr {
        self.server.addr
    }

    /// Stops the server now (also done on drop).
    pub fn shutdown(&self) {
        self.server.shutdown();
    }
}

impl DemoHandle {
    /// For a process about to exit: stops the server and removes its kubeconfig, then leaks
    /// the server's objects instead of freeing them one by one (see `ktui::app::quit`).
    pub fn close_for_exit(self) {
        self.server.shutdown();
        for (_, s) in &self.others {
            s.shutdown();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
        std::mem::forget(self);
    }
}

impl Drop for DemoHandle {
    fn drop(&mut self) {
        self.server.shutdown();
        for (_, s) in &self.others {
            s.shutdown();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `ktui --demo`: starts a server on a random loopback port on the current tokio runtime
/// (call it from the network runtime) and writes its kubeconfig into a fresh temporary
/// directory.
pub async fn start_in_process(opts: DemoOptions) -> anyhow::Result<DemoHandle> {
    start_with(opts, false).await
}

/// `ktui --demo`: [`start_in_process`], plus two more clusters (`ktui-demo-eu`,
/// `ktui-demo-us`: other seeds, 12 and 24 more load pods) in the same kubeconfig, so
/// `--all-contexts` and `:ctx all` show a union without a real cluster.
pub async fn start_demo_fleet(opts: DemoOptions) -> anyhow::Result<DemoHandle> {
    start_with(opts, true).await
}

async fn start_with(opts: DemoOptions, fleet: bool) -> anyhow::Result<DemoHandle> {
    let server = DemoServer::start(opts.clone()).await?;
    let dir = std::env::temp_dir().join(format!("ktui-demo-{}-{}", std::process::id(), server.addr.port()));
    let kubeconfig = dir.join("kubeconfig");
    let mut others = Vec::new();
    // Two more clusters with data of their own (other seeds, more load pods), so `:ctx all`
    // has something to unite.
    let more: &[(&str, u64, usize)] = if fleet {
        &[("ktui-demo-eu", 2, 12), ("ktui-demo-us", 3, 24)]
    } else {
        &[]
    };
    for &(name, seed, pods) in more {
        let more = DemoOptions {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            seed: opts.seed.wrapping_add(seed),
            pods: opts.pods + pods,
            ..opts.clone()
        };
        others.push((name.to_owned(), DemoServer::start(more).await?));
    }
    let handle = DemoHandle {
        server,
        kubeconfig,
        others,
        dir,
    };
    let more: Vec<(String, String)> = handle.others.iter().map(|(n, s)| (n.clone(), s.url())).collect();
    write_text(
        &crate::kubeconfig_with(&handle.server.url(), &more),
        &handle.kubeconfig,
    )?;
    Ok(handle)
}
