//! The metrics pool against the demo server's `metrics.k8s.io/v1beta1` (real time, ktui's own
//! client): discovery says it is served, pods and nodes are polled into snapshots whose
//! objects are among the server's running pods and its nodes, usage parsed from the wire, samples
//! accumulating to the bound as the demo's windows advance.

use std::collections::BTreeSet;
use std::time::Duration;

use k8s_openapi::api::core::v1::{Node, Pod};
use ktui::kube::discovery::discover;
use ktui::kube::metrics::{MetricsConfig, MetricsKey, MetricsPool, MetricsState, Served, Target};
use ktui::sim::cli::start_in_process;
use ktui::sim::DemoOptions;
use kube::api::{Api, ListParams};
use tokio::sync::mpsc::unbounded_channel;

use crate::demo_convergence::client;

const BOUND: usize = 3;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pool_polls_the_demo_servers_metrics() {
    let demo = start_in_process(DemoOptions {
        live: false,
        // Timestamps are whole seconds (as metrics-server prints them): one window a second.
        metrics_window: Duration::from_secs(1),
        ..DemoOptions::default()
    })
    .await
    .unwrap();
    let client = client(&demo).await;
    let discovery = discover(&client, Duration::from_secs(10)).await.unwrap();
    assert_eq!(Served::from_discovery(&discovery, Target::Pods), Served::Yes);
    assert_eq!(Served::from_discovery(&discovery, Target::Nodes), Served::Yes);

    let (tx, mut changes) = unbounded_channel();
    let pool = MetricsPool::new(
        client.clone(),
        tx,
        MetricsConfig {
            interval: Duration::from_millis(500),
            samples: BOUND,
            request_timeout: Duration::from_secs(5),
            grace: Duration::from_secs(1),
            ..MetricsConfig::default()
        },
    );
    pool.set_discovery(&discovery);
    let pods = pool.subscribe(MetricsKey::pods(None));
    let nodes = pool.subscribe(MetricsKey::nodes());
    let full = |s: &ktui::kube::metrics::MetricsSnapshot| {
        s.state == MetricsState::Ok
            && s.object_count > 0
            && s.iter().all(|(_, _, series)| series.len() == BOUND)
    };
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while !(full(&pods.load()) && full(&nodes.load())) {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let got = tokio::time::timeout(left, changes.recv()).await;
        assert!(
            matches!(got, Ok(Some(_))),
            "no full ring within 30 s: pods {:?} nodes {:?}",
            pool.infos(),
            nodes.load().state
        );
    }

    // Pods: every object a running pod of the server, usage read from the wire.
    let snap = pods.load();
    let running: BTreeSet<(String, String)> = Api::<Pod>::all(client.clone())
        .list(&ListParams::default())
        .await
        .unwrap()
        .items
        .into_iter()
        .filter(|p| p.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Running"))
        .map(|p| {
            (
                p.metadata.namespace.unwrap_or_default(),
                p.metadata.name.unwrap_or_default(),
            )
        })
        .collect();
    let polled: BTreeSet<(String, String)> = snap
        .iter()
        .map(|(ns, name, _)| (ns.unwrap_or_default().to_owned(), name.to_owned()))
        .collect();
    assert!(
        polled.is_subset(&running),
        "not running: {:?}",
        polled.difference(&running).collect::<Vec<_>>()
    );
    for (ns, name, series) in snap.iter() {
        let latest = series.latest().unwrap();
        assert!(latest.usage.memory_bytes > 0, "{ns:?}/{name}: {latest:?}");
        assert!(latest.window_ms > 0, "{ns:?}/{name}: {latest:?}");
        let summed: ktui::kube::metrics::Usage = series.container_usage(series.len() - 1).into_iter().sum();
        assert_eq!(summed, latest.usage, "{ns:?}/{name}: the containers add up");
        let ts: Vec<i64> = series.samples().map(|s| s.timestamp).collect();
        assert!(ts.windows(2).all(|w| w[0] < w[1]), "{ns:?}/{name}: {ts:?}");
    }
    assert!(snap
        .iter()
        .any(|(_, _, s)| s.latest().unwrap().usage.cpu_nanos > 0));
    assert!(!snap.is_stale(tokio::time::Instant::now()));

    // Nodes: the server's (metrics-server leaves out a node whose kubelet it cannot scrape).
    let node_names: BTreeSet<String> = Api::<Node>::all(client.clone())
        .list(&ListParams::default())
        .await
        .unwrap()
        .items
        .into_iter()
        .filter_map(|n| n.metadata.name)
        .collect();
    let polled: BTreeSet<String> = nodes.load().iter().map(|(_, n, _)| n.to_owned()).collect();
    assert!(
        !polled.is_empty() && polled.is_subset(&node_names),
        "{polled:?} of {node_names:?}"
    );

    // A namespace is served by the all-namespaces poll: no second request stream.
    let (ns, _) = running.iter().next().unwrap();
    let one = pool.subscribe(MetricsKey::pods(Some(ns)));
    assert_eq!(one.served_by, MetricsKey::pods(None));
    assert!(one.load().in_namespace(one.filter_namespace()).count() > 0);
    assert_eq!(pool.infos().len(), 2);
    drop((pods, nodes, one));
    pool.shutdown();
}
