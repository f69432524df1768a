//! Issue 33 on the real cluster: `metrics.k8s.io/v1beta1` served through kube-apiserver's
//! aggregation layer (an APIService whose backend is the stand-in of `metrics_backend`,
//! registered as `metrics_aggregation` does), then `kubectl top pods -A`, `kubectl top pods
//! -A --containers` and `kubectl top nodes` compared number for number with what ktui's
//! `MetricsPool` reads (CPU in millicores rounded up, memory in whole Mi rounded down, as
//! kubectl prints them), then the APIService deleted: the pool must say why the numbers are
//! gone, in one line, within one interval, without being told (the 404 is enough), and
//! re-reading discovery gives discovery's reason. Its own cluster: an APIService is global,
//! and a half-registered one would break discovery for the other tests.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use ktui::kube::discovery::{discover, Discovery};
use ktui::kube::metrics::{
    MetricsChanged, MetricsConfig, MetricsKey, MetricsPool, MetricsSnapshot, MetricsState,
    MetricsSubscription, Served, Target, Usage,
};
use serde_json::json;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver};

use crate::metrics_aggregation::{self as aggregation, APISERVICE};
use crate::metrics_backend::MetricsBackend;
use crate::support::{self, Cluster};

/// The pool's poll interval: "within one interval" is measured against it.
const INTERVAL: Duration = Duration::from_secs(1);
/// What a loaded machine may add to one interval: the request through the aggregator and
/// the aggregator's own reaction to the deletion.
const SLACK: Duration = Duration::from_millis(1500);

/// (CPU in millicores, memory in Mi) as `kubectl top` prints them.
pub(crate) type Top = (u64, u64);

/// kubectl's rounding: `MilliValue()` (up) and `Value() / (1024 * 1024)` (down).
fn top_of(u: Usage) -> Top {
    (u.cpu_nanos.div_ceil(1_000_000), u.memory_bytes / (1024 * 1024))
}

/// `123m` / `45Mi` → (123, 45).
fn parse_top(cpu: &str, mem: &str) -> Top {
    let n = |s: &str, suffix: &str| {
        s.strip_suffix(suffix)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{s:?} is not a kubectl top figure in {suffix}"))
    };
    (n(cpu, "m"), n(mem, "Mi"))
}

/// Runs kubectl (blocking) off the async workers: the backend and the pool run on them.
pub(crate) fn kubectl(cluster: &Cluster, args: &[&str]) -> String {
    tokio::task::block_in_place(|| cluster.kubectl_ok(args))
}

/// `kubectl top` rows keyed by their leading `key` columns: the CPU figure after them, the
/// memory figure `mem` columns later (nodes have a CPU(%) between).
pub(crate) fn top_rows(out: &str, key: usize, mem: usize) -> BTreeMap<Vec<String>, Top> {
    out.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| !w.is_empty())
        .map(|w| {
            assert!(w.len() > key + mem, "short kubectl top line: {w:?}");
            let keys = w[..key].iter().map(|s| s.to_string()).collect();
            (keys, parse_top(w[key], w[key + mem]))
        })
        .collect()
}

/// The pool's pods as kubectl's rows: per pod, and per container.
type Rows = BTreeMap<Vec<String>, Top>;
fn pool_pods(snap: &MetricsSnapshot) -> (Rows, Rows) {
    let (mut pods, mut containers) = (BTreeMap::new(), BTreeMap::new());
    for (ns, name, series) in snap.iter() {
        let ns = ns.unwrap_or_default().to_owned();
        let latest = series.latest().expect("a listed pod has a sample");
        pods.insert(vec![ns.clone(), name.to_owned()], top_of(latest.usage));
        let usages = series.container_usage(series.len() - 1);
        for (c, u) in series.containers().iter().zip(usages) {
            containers.insert(vec![ns.clone(), name.to_owned(), c.to_string()], top_of(u));
        }
    }
    (pods, containers)
}

fn pool_nodes(snap: &MetricsSnapshot) -> Rows {
    snap.iter()
        .map(|(_, name, s)| (vec![name.to_owned()], top_of(s.latest().expect("a sample").usage)))
        .collect()
}

/// ktui's pool with its two subscriptions (all pods, nodes) and its notifications.
struct Pool {
    pool: MetricsPool,
    pods: MetricsSubscription,
    nodes: MetricsSubscription,
    changes: UnboundedReceiver<MetricsChanged>,
}

impl Pool {
    /// Polls every [`INTERVAL`].
    fn start(client: kube::Client) -> Pool {
        let (tx, changes) = unbounded_channel();
        let config = MetricsConfig {
            interval: INTERVAL,
            request_timeout: Duration::from_secs(5),
            grace: Duration::from_secs(5),
            ..MetricsConfig::default()
        };
        let pool = MetricsPool::new(client, tx, config);
        let pods = pool.subscribe(MetricsKey::pods(None));
        let nodes = pool.subscribe(MetricsKey::nodes());
        Pool {
            pool,
            pods,
            nodes,
            changes,
        }
    }

    /// Waits (on the notifications) until `done` holds for both subscriptions; the time it
    /// took. Panics after `limit` with what they show.
    async fn wait(
        &mut self,
        limit: Duration,
        what: &str,
        done: impl Fn(&MetricsSnapshot) -> bool,
    ) -> Duration {
        let started = Instant::now();
        while !(done(&self.pods.load()) && done(&self.nodes.load())) {
            let left = limit.saturating_sub(started.elapsed());
            let got = tokio::time::timeout(left, self.changes.recv()).await;
            assert!(
                matches!(got, Ok(Some(_))),
                "{what}: not within {limit:?}: pods {} / nodes {}",
                self.pods.load().state,
                self.nodes.load().state
            );
        }
        started.elapsed()
    }
}

/// Pods with declared resources of each kind: requests and limits, a two-container pod whose
/// sidecar has no limits, and a pod with none.
pub(crate) fn workload(cluster: &Cluster, ns: &str) {
    let c = |name: &str, resources: serde_json::Value| json!({"name": name, "image": "example.com/app:1", "resources": resources});
    let sized = json!({"requests": {"cpu": "100m", "memory": "64Mi"},
                       "limits": {"cpu": "200m", "memory": "128Mi"}});
    let app = json!({"requests": {"cpu": "250m", "memory": "256Mi"},
                     "limits": {"cpu": "500m", "memory": "512Mi"}});
    let sidecar = json!({"requests": {"cpu": "20m", "memory": "32Mi"}});
    let pods = [
        ("sized", vec![c("app", sized)]),
        ("mixed", vec![c("app", app), c("sidecar", sidecar)]),
        ("bare", vec![c("app", json!({}))]),
    ];
    let items: Vec<serde_json::Value> = pods
        .into_iter()
        .map(|(name, containers)| {
            json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": ns},
                   "spec": {"containers": containers, "terminationGracePeriodSeconds": 0}})
        })
        .collect();
    let file = cluster.dir.join("metrics-workload.json");
    std::fs::write(
        &file,
        json!({"apiVersion": "v1", "kind": "List", "items": items}).to_string(),
    )
    .expect("write the workload");
    kubectl(cluster, &["create", "-f", file.to_str().expect("UTF-8 path")]);
    kubectl(
        cluster,
        &[
            "-n",
            ns,
            "wait",
            "--for=condition=Ready",
            "pod",
            "--all",
            "--timeout=60s",
        ],
    );
}

/// The backend on `ip`, registered; waits until its APIService is Available.
pub(crate) async fn serve_metrics(cluster: &Cluster, ip: std::net::IpAddr) -> MetricsBackend {
    let (cert, key) = tokio::task::block_in_place(|| aggregation::serving_cert(cluster));
    let ca = cluster.dir.join("pki/ca.crt");
    let backend = MetricsBackend::start(ip, &cert, &key, &ca, cluster.client(support::ADMIN).await).await;
    register(cluster, &backend);
    backend
}

/// Applies the APIService and its Service and EndpointSlice; waits until it is Available.
fn register(cluster: &Cluster, backend: &MetricsBackend) {
    tokio::task::block_in_place(|| {
        aggregation::register(cluster, backend.addr);
        let took = aggregation::wait_available(cluster, Duration::from_secs(60));
        eprintln!(
            "{APISERVICE} Available {took:?} after it was applied (backend at {})",
            backend.addr
        );
    });
}

/// ktui's discovery, read until it lists PodMetrics and NodeMetrics.
async fn discover_served(client: &kube::Client) -> Discovery {
    let started = Instant::now();
    loop {
        let d = discover(client, Duration::from_secs(10))
            .await
            .expect("discovery");
        let served = [Target::Pods, Target::Nodes].map(|t| Served::from_discovery(&d, t));
        if served == [Served::Yes, Served::Yes] {
            eprintln!(
                "ktui's discovery lists metrics.k8s.io/v1beta1 pods and nodes after {:?}",
                started.elapsed()
            );
            return d;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "discovery says {served:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// `kubectl top pods -A`, `--containers` and `kubectl top nodes`, then the pool until it has
/// listed the same objects: the same figures.
async fn compare(cluster: &Cluster, pool: &mut Pool, ns: &str) {
    let k_pods = top_rows(&kubectl(cluster, &["top", "pods", "-A", "--no-headers"]), 2, 1);
    let k_containers = top_rows(
        &kubectl(cluster, &["top", "pods", "-A", "--containers", "--no-headers"]),
        3,
        1,
    );
    let k_nodes = top_rows(&kubectl(cluster, &["top", "nodes", "--no-headers"]), 1, 2);
    assert_eq!(k_pods.len(), 3, "kubectl top pods -A: {k_pods:?}");
    assert_eq!(
        k_containers.len(),
        4,
        "kubectl top pods -A --containers: {k_containers:?}"
    );
    assert_eq!(
        k_nodes.len(),
        support::NODES.len(),
        "kubectl top nodes: {k_nodes:?}"
    );
    let same_objects = |s: &MetricsSnapshot| {
        s.state == MetricsState::Ok
            && match s.key.target {
                Target::Pods => pool_pods(s).0.keys().eq(k_pods.keys()),
                Target::Nodes => pool_nodes(s).keys().eq(k_nodes.keys()),
            }
    };
    pool.wait(Duration::from_secs(20), "the same objects", same_objects)
        .await;
    let (p_pods, p_containers) = pool_pods(&pool.pods.load());
    assert_eq!(p_pods, k_pods, "ktui (left) and kubectl top pods -A (right)");
    assert_eq!(
        p_containers, k_containers,
        "ktui (left) and kubectl top pods -A --containers (right)"
    );
    assert_eq!(
        pool_nodes(&pool.nodes.load()),
        k_nodes,
        "ktui (left) and kubectl top nodes (right)"
    );
    // The model at work: a limit caps the pod that has one, every figure is there.
    let sized = &k_pods[&vec![ns.to_owned(), "sized".to_owned()]];
    assert!(
        sized.0 > 0 && sized.0 <= 200 && sized.1 <= 128,
        "sized: {sized:?}"
    );
    eprintln!("ktui and kubectl top agree: pods {k_pods:?}, containers {k_containers:?}, nodes {k_nodes:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "real tier"]
async fn kubectl_top_and_the_metrics_pool_agree_until_the_apiservice_goes() {
    let Some(cluster) = tokio::task::block_in_place(support::own_cluster) else {
        return;
    };
    let Some(ip) = aggregation::endpoint_ip() else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "no non-loopback IPv4 address (hostname -I): kube-apiserver refuses loopback endpoints"
        );
        eprintln!("note: skipping: no non-loopback IPv4 address for the APIService's endpoint");
        return;
    };
    let started = Instant::now();
    let backend = serve_metrics(&cluster, ip).await;
    let ns = tokio::task::block_in_place(|| cluster.create_ns("metrics-top"));
    workload(&cluster, &ns);

    // ktui's side, built as the app builds it.
    let opts = ktui::kube::client::ConnectOptions {
        kubeconfig: Some(cluster.kubeconfig.clone()),
        context: Some(support::ADMIN.into()),
    };
    let (client, _) = ktui::kube::client::connect(&opts).await.expect("ktui connects");
    let mut pool = Pool::start(client.clone());
    pool.pool.set_discovery(&discover_served(&client).await);
    compare(&cluster, &mut pool, &ns).await;

    // The APIService goes: the next poll's 404 says so, without new discovery.
    let before = pool.pods.load().rev;
    let deleting = Instant::now();
    kubectl(&cluster, &["delete", "apiservice", APISERVICE]);
    let deleted = deleting.elapsed();
    let gone = pool
        .wait(INTERVAL + SLACK * 2, "a failure after the deletion", |s| {
            s.state.is_failure()
        })
        .await;
    let (p, n) = (pool.pods.load(), pool.nodes.load());
    eprintln!(
        "after `kubectl delete apiservice` ({deleted:?}): pods say {:?} and nodes {:?} {gone:?} \
         later ({} poll(s) since the last list)",
        p.state,
        n.state,
        p.rev - before
    );
    for s in [&p, &n] {
        assert!(
            matches!(s.state, MetricsState::NotServed(_) | MetricsState::Error(_)),
            "{:?}",
            s.state
        );
        let line = s.state.to_string();
        assert!(!line.is_empty() && !line.contains('\n'), "one line: {line:?}");
        assert!(
            s.is_stale(tokio::time::Instant::now()),
            "the numbers held are marked stale"
        );
    }
    assert!(
        gone <= INTERVAL + SLACK,
        "the pool said why after {gone:?}, more than one interval"
    );
    // Within a moment the aggregator's answer is a 404: not served.
    let not_served = |s: &MetricsSnapshot| matches!(s.state, MetricsState::NotServed(_));
    pool.wait(INTERVAL * 3, "not served", not_served).await;
    assert_eq!(
        pool.pods.load().state.to_string(),
        "not served (the server has no metrics.k8s.io/v1beta1 pods (404))"
    );

    // Discovery, read again, gives its own reason at the next poll.
    let discovery = discover(&client, Duration::from_secs(10))
        .await
        .expect("discovery");
    let why = "no metrics.k8s.io in discovery (no metrics-server)";
    assert_eq!(
        Served::from_discovery(&discovery, Target::Pods),
        Served::No(why.into())
    );
    pool.pool.set_discovery(&discovery);
    let told = pool
        .wait(INTERVAL + SLACK, "discovery's reason", |s| {
            s.state == MetricsState::NotServed(why.into())
        })
        .await;
    eprintln!(
        "after set_discovery: \"{}\" {told:?} later",
        pool.pods.load().state
    );

    // The APIService is back: discovery read again, the pool lists the same figures again.
    register(&cluster, &backend);
    pool.pool.set_discovery(&discover_served(&client).await);
    compare(&cluster, &mut pool, &ns).await;

    // Its server goes away: the aggregator answers 503, the pool says so within an interval.
    drop(backend);
    let down = pool
        .wait(INTERVAL + SLACK, "the backend down", |s| {
            matches!(s.state, MetricsState::Error(_))
        })
        .await;
    let line = pool.pods.load().state.to_string();
    assert!(line.starts_with("503: ") && !line.contains('\n'), "{line}");
    eprintln!(
        "backend stopped: \"{line}\" {down:?} later; whole test {:?}",
        started.elapsed()
    );
    pool.pool.shutdown();
}
