//! The embedded demo cluster: a small, honest model of the Kubernetes API server served over
//! HTTP on loopback, so ktui (or kubectl, k9s, any client) reaches it through exactly the
//! same client path as a real cluster. Owns the server's lifecycle and wiring; must not be
//! used by product code for anything but starting it (no test-only shortcuts into ktui).
//!
//! Layout: [`store`] (revisions, objects, change log, fan-out) is written by the [`scenario`]
//! engine and its controllers and by clients' writes, all through the store's write API;
//! [`http`] authenticates and authorizes ([`authz`]) and routes requests to [`discovery`],
//! [`api`] (list/get) or [`watch`], or to the write paths ([`write`]: create, replace, patch,
//! status; [`delete`]; [`subres`]: scale, eviction; [`stream`]: exec, attach and port-forward
//! answered by a labelled simulated responder), or to [`metrics`] (`metrics.k8s.io`, usage
//! derived from the pods' [`sizing`]); [`faults`] decides what goes wrong;
//! [`cli`] is the `--demo` / `demo-server` entry point.
//!
//! What the demo tier can and cannot prove: the server is honest about the protocol (revisions,
//! paging, 410, bookmarks, watch fan-out, faults), so demo-tier tests prove ktui's list-watch
//! loop, store and screens. It is not independent of ktui where it reuses client code: its
//! Table answers build cells with ktui's own row builders ([`table`]) and its selectors parse
//! with ktui's own label-selector code ([`matching`]), so a wrong column or a wrong selector
//! semantic shows up identically on both sides and no demo-tier test can catch it. The real
//! tier covers those: `tests/golden_columns.rs` compares every built-in kind's cells with the
//! real kube-apiserver's printers; server-side label selectors are exercised against the real
//! apiserver by `tests/e2e.rs` (deployment drill-in) and `tests/e2e_owner.rs` (service → its
//! pods). `tests/demo_server.rs` checks hand-written expectations for a label plus field
//! selector against the demo. Not covered by the real tier: field selectors (the node drill-in's
//! `spec.nodeName`) and ktui's client-side `-l` filter against the apiserver's answer for the
//! same set-based selector (`in`, `notin`, `!key`); only unit tests check those semantics.

pub mod agents;
pub mod api;
pub mod apierr;
pub mod authz;
mod batch;
pub mod cli;
mod control;
pub mod defaults;
pub mod delete;
pub mod discovery;
pub mod events;
pub mod faults;
pub mod http;
pub mod kinds;
mod kubelet;
pub mod labels;
mod life;
mod loggen;
pub mod logs;
pub mod logtext;
pub mod managed;
pub mod matching;
pub mod metrics;
mod multi;
pub mod objects;
pub mod openapi;
pub mod patch;
pub mod pdb;
mod pod_refs;
pub mod pods;
pub mod protobuf;
pub mod rbac;
pub mod reply;
pub mod scale;
pub mod scale_cluster;
pub mod scale_more;
pub mod scenario;
mod setup;
pub mod sizing;
pub mod store;
pub mod stream;
pub mod subres;
pub mod table;
pub mod token;
pub mod watch;
pub mod write;
pub mod writes;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use self::faults::{FaultSpec, Faults};
use self::http::{ServerSettings, ServerState};
use self::store::{Store, StoreConfig};

/// How to run the demo cluster.
#[derive(Debug, Clone)]
pub struct DemoOptions {
    /// Where to listen; port 0 = a free port.
    pub addr: SocketAddr,
    /// Extra load pods on top of the lively scenario (0 = just the scenario).
    pub pods: usize,
    /// Load-pod changes per second (0 = none).
    pub churn: u32,
    /// Seed of every random choice (scenario, load, faults).
    pub seed: u64,
    /// Faults in force from the start.
    pub faults: FaultSpec,
    /// Interval between watch bookmarks.
    pub bookmark_every: Duration,
    /// Store bounds (history length per kind, watcher buffer).
    pub store: StoreConfig,
    /// Run the scenario's changes over time (false = a static cluster after setup).
    pub live: bool,
    /// Scenario tick (the scenario's unit of time).
    pub tick: Duration,
    /// Storage compaction interval (kube-apiserver's `--etcd-compaction-interval`, 5 min):
    /// each run expires continue tokens older than the previous run.
    pub compact_every: Duration,
    /// Log generator: lines per second of each `loggen-N` pod (0 = no generator pods).
    pub log_rate: u64,
    /// Log generator: how many `loggen-N` pods (in namespace `demo`).
    pub log_pods: usize,
    /// Deployments in all (load deployments without pods make up the difference; 0 = none).
    pub deployments: usize,
    /// Load configmaps (0 = none).
    pub configmaps: usize,
    /// Load nodes added to the demo's own (0 = none); see `sim::scale_cluster`.
    pub nodes: usize,
    /// Load core/v1 events (0 = none); see `sim::scale_cluster`.
    pub events: usize,
    /// Whether and how `metrics.k8s.io` is served (see [`metrics::MetricsMode`]).
    pub metrics: metrics::MetricsMode,
    /// Length of a metrics window: usage changes once per window (metrics-server's
    /// `--metric-resolution`, 15 s).
    pub metrics_window: Duration,
}

impl Default for DemoOptions {
    fn default() -> Self {
        DemoOptions {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            pods: 0,
            churn: 0,
            seed: 1,
            faults: FaultSpec::default(),
            bookmark_every: Duration::from_secs(5),
            store: StoreConfig::default(),
            live: true,
            tick: Duration::from_secs(1),
            compact_every: Duration::from_secs(300),
            log_rate: 0,
            log_pods: 1,
            deployments: 0,
            configmaps: 0,
            nodes: 0,
            events: 0,
            metrics: metrics::MetricsMode::On,
            metrics_window: Duration::from_secs(15),
        }
    }
}

/// Compacts storage every `every` to the revision of the previous run, like the API server.
async fn compactor(store: Arc<Store>, every: Duration, cancel: CancellationToken) {
    let mut previous = store.revision();
    loop {
        tokio::select! {
            _ = cancel.cancelled() => return,
            _ = tokio::time::sleep(every.max(Duration::from_millis(10))) => {}
        }
        store.compact_storage(previous);
        previous = store.revision();
    }
}

/// A running demo cluster. Dropping it does not stop it; call [`DemoServer::shutdown`].
pub struct DemoServer {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// Its objects (tests read the truth from here).
    pub store: Arc<Store>,
    /// Its fault injector (tests switch faults on and off).
    pub faults: Arc<Faults>,
    /// Its metrics API (tests switch it off, down or forbidden: [`metrics::MetricsApi::set_mode`]).
    pub metrics: Arc<metrics::MetricsApi>,
    /// The `User-Agent`s its requests carried, per request class (tests read it).
    pub agents: Arc<agents::Agents>,
    cancel: CancellationToken,
    scenario: scenario::Control,
}

impl DemoServer {
    /// Binds, fills the store with the scenario (and `pods` load pods) and starts serving,
    /// the scenario, the churn and the fault timers on the current tokio runtime.
    pub async fn start(opts: DemoOptions) -> anyhow::Result<DemoServer> {
        let listener = TcpListener::bind(opts.addr)
            .await
            .with_context(|| format!("cannot listen on {}", opts.addr))?;
        let addr = listener.local_addr()?;
        let store = Store::new(opts.store.clone());
        logs::boot();
        let faults = Faults::new(opts.faults.clone(), opts.seed);
        let cancel = CancellationToken::new();
        let scenario =
            scenario::start(store.clone(), &opts, cancel.clone()).context("demo scenario setup")?;
        if opts.log_rate > 0 {
            loggen::add(&store, opts.log_rate, opts.log_pods).context("log generator pods")?;
        }
        let agents = Arc::new(agents::Agents::default());
        let metrics = metrics::MetricsApi::new(opts.metrics, opts.seed, opts.metrics_window);
        let state = Arc::new(ServerState {
            store: store.clone(),
            faults: faults.clone(),
            metrics: metrics.clone(),
            agents: agents.clone(),
            settings: ServerSettings {
                bookmark_every: opts.bookmark_every,
            },
            cancel: cancel.clone(),
        });
        tokio::spawn(faults.clone().run_dropper(cancel.clone()));
        tokio::spawn(compactor(store.clone(), opts.compact_every, cancel.clone()));
        tokio::spawn(http::serve(listener, state));
        tracing::info!(%addr, pods = opts.pods, churn = opts.churn, seed = opts.seed, "demo server started");
        Ok(DemoServer {
            addr,
            store,
            faults,
            metrics,
            agents,
            cancel,
            scenario,
        })
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Pauses or resumes the scenario and the churn (faults are separate: see [`Faults::set`]).
    /// A pause returns once the tick or churn batch in progress has written: from then on the
    /// store holds still, so its state may be taken as final.
    pub fn set_live(&self, live: bool) {
        self.scenario.set_live(live);
    }

    /// Stops serving: ends the accept loop, open connections, watches and the scenario.
    pub fn shutdown(&self) {
        self.cancel.cancel();
    }

    /// A kubeconfig for this server: see [`kubeconfig_for`].
    pub fn kubeconfig_yaml(&self) -> String {
        kubeconfig_for(&self.url())
    }
}

/// A kubeconfig for the demo server at `url`: `http://` (no TLS); context `ktui-demo`
/// (current, the admin, who may do everything) and context `ktui-demo-viewer` (user
/// `viewer`: get, list, watch and pods/log only; see [`authz`]), whose cluster
/// `ktui-demo-viewer` is the same server under [`authz::VIEWER_PREFIX`] (kubectl sends no
/// token over `http://`). Neither context sets a namespace: kubectl then uses `default`, and
/// `ktui --demo` opens all namespaces (README § Set up).
pub fn kubeconfig_for(url: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: ktui-demo\n  cluster:\n    server: {url}\n\
         - name: ktui-demo-viewer\n  cluster:\n    server: {url}{}\n\
         contexts:\n- name: ktui-demo\n  context:\n    cluster: ktui-demo\n    user: ktui-demo\n\
         - name: ktui-demo-viewer\n  context:\n    cluster: ktui-demo-viewer\n    user: ktui-demo-viewer\n\
         current-context: ktui-demo\nusers:\n- name: ktui-demo\n  user:\n    token: {}\n\
         - name: ktui-demo-viewer\n  user:\n    token: {}\npreferences: {{}}\n",
        authz::VIEWER_PREFIX,
        authz::ADMIN_TOKEN,
        authz::VIEWER_TOKEN
    )
}

/// The demo's kubeconfig with more clusters: [`kubeconfig_for`]'s two contexts on `url`, then
/// one context per `(name, url)` of `more` (the admin's token, no namespace), so a union of
/// contexts (`ktui --demo --all-contexts`) has several clusters to show.
pub fn kubeconfig_with(url: &str, more: &[(String, String)]) -> String {
    let mut yaml = kubeconfig_for(url);
    for (name, server) in more {
        yaml = yaml.replacen(
            "contexts:\n",
            &format!("- name: {name}\n  cluster:\n    server: {server}\ncontexts:\n"),
            1,
        );
        yaml = yaml.replacen(
            "current-context:",
            &format!(
                "- name: {name}\n  context:\n    cluster: {name}\n    user: ktui-demo\ncurrent-context:"
            ),
            1,
        );
    }
    yaml
}

#[cfg(test)]
mod tests {
    /// The demo opens all namespaces; its kubeconfig must not claim a namespace it ignores.
    #[test]
    fn the_demo_kubeconfig_sets_no_namespace() {
        let k = super::kubeconfig_for("http://127.0.0.1:1");
        assert!(k.contains("current-context: ktui-demo\n"), "{k}");
        assert!(k.contains("- name: ktui-demo-viewer\n  context:"), "{k}");
        assert!(!k.contains("namespace:"), "{k}");
    }

    /// README's words about the demo match it: the namespaces it opens, and the error its
    /// shell prints as started by `s` (`ash`, the first of bash, ash, sh it has).
    #[test]
    fn the_readme_describes_the_demo_as_it_is() {
        let readme = include_str!("../../../README.md");
        assert!(readme.contains("`--demo` opens all namespaces"));
        let shell = crate::stream::shell::Shell::new(Default::default(), "/bin/ash", false).run("nope");
        let said = format!("`{}`", shell.err.trim_end().replace("nope", "X"));
        assert!(readme.contains(&said), "README should quote {said}");
    }
}
