//! Metrics-pool scenarios against a scripted API server under paused tokio time: lazy start
//! and stop after the grace period, one request in flight per key at the interval, a
//! namespace served by the all-namespaces poll, 403/404/503 in words (the last samples kept
//! and marked stale), NotServed from discovery without a request, and the samples' bound.

use crate::scripted_api::{next, respond, status, ApiHandle};

use std::time::Duration;

use http::{Request, Response};
use ktui::kube::metrics::{
    MetricsChanged, MetricsConfig, MetricsKey, MetricsPool, MetricsSlot, MetricsSnapshot, MetricsState,
    Served, Target,
};
use kube::client::Body;
use serde_json::{json, Value};
use std::sync::Arc;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver};
use tokio::time::Instant;
use tower_test::mock;

type Changes = UnboundedReceiver<MetricsChanged>;

const INTERVAL: Duration = Duration::from_secs(15);
const GRACE: Duration = Duration::from_secs(5);

fn config(samples: usize) -> MetricsConfig {
    MetricsConfig {
        interval: INTERVAL,
        samples,
        request_timeout: Duration::from_secs(10),
        grace: GRACE,
        ..MetricsConfig::default()
    }
}

fn mock_metrics(config: MetricsConfig) -> (MetricsPool, ApiHandle, Changes) {
    let (svc, handle) = mock::pair::<Request<Body>, Response<Body>>();
    let client = kube::Client::new(svc, "default");
    let (tx, changes) = unbounded_channel();
    (MetricsPool::new(client, tx, config), handle, changes)
}

/// A PodMetrics item as metrics-server writes it, `ts` seconds into 2026.
fn pod(ns: &str, name: &str, ts: u32, cpu_nanos: u64) -> Value {
    json!({"metadata": {"name": name, "namespace": ns, "creationTimestamp": "2026-01-01T00:00:00Z"},
           "timestamp": at(ts), "window": "15s",
           "containers": [{"name": "app", "usage": {"cpu": format!("{cpu_nanos}n"), "memory": "45678Ki"}}]})
}

fn at(ts: u32) -> String {
    format!("2026-01-01T{:02}:{:02}:{:02}Z", ts / 3600, ts / 60 % 60, ts % 60)
}

fn pod_list(items: Vec<Value>) -> Vec<u8> {
    serde_json::to_vec(
        &json!({"kind": "PodMetricsList", "apiVersion": "metrics.k8s.io/v1beta1",
                               "metadata": {}, "items": items}),
    )
    .unwrap()
}

/// Waits until `pred` holds for `slot`'s snapshot, looking again after each notification.
async fn wait_for(
    slot: &MetricsSlot,
    changes: &mut Changes,
    what: &str,
    pred: impl Fn(&MetricsSnapshot) -> bool,
) -> Arc<MetricsSnapshot> {
    let wait = async {
        loop {
            let snap = slot.load();
            if pred(&snap) {
                return snap;
            }
            changes.recv().await.expect("the pool is gone");
        }
    };
    match tokio::time::timeout(Duration::from_secs(3600), wait).await {
        Ok(snap) => snap,
        Err(_) => panic!(
            "no publication satisfied `{what}`; the slot holds {:?}",
            slot.peek()
        ),
    }
}

/// True when no request arrives within `d` (paused time).
async fn quiet_for(handle: &mut ApiHandle, d: Duration) -> bool {
    tokio::time::timeout(d, handle.next_request()).await.is_err()
}

#[tokio::test(start_paused = true)]
async fn polls_start_lazily_once_per_interval_and_stop_after_grace() {
    let (pool, mut handle, mut changes) = mock_metrics(config(60));
    assert!(pool.infos().is_empty(), "nothing polls before a view subscribes");
    let sub = pool.subscribe(MetricsKey::pods(None));
    let (req, send) = tokio::time::timeout(Duration::from_secs(1), handle.next_request())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(req.uri().to_string(), "/apis/metrics.k8s.io/v1beta1/pods");
    assert_eq!(req.headers()[http::header::ACCEPT], "application/json");
    let t0 = Instant::now();
    respond(send, 200, pod_list(vec![pod("a", "web", 15, 1_000_000)]));
    let snap = wait_for(&sub.slot, &mut changes, "the first list", |s| {
        s.state == MetricsState::Ok
    })
    .await;
    assert_eq!((snap.object_count, snap.samples), (1, 1));
    let info = &pool.infos()[0];
    assert_eq!((info.subscribers, info.objects, info.stops_in), (1, 1, None));
    assert_eq!(info.fetched_at, Some(t0));
    // The next poll one interval later; unanswered, none other is sent meanwhile.
    let (_, held) = next(&mut handle).await;
    assert_eq!(t0.elapsed(), INTERVAL);
    let snap = wait_for(&sub.slot, &mut changes, "the timeout", |s| {
        s.state != MetricsState::Ok
    })
    .await;
    assert_eq!(
        snap.state,
        MetricsState::Error("unreachable: list timed out after 10s".into())
    );
    assert_eq!(t0.elapsed(), INTERVAL + Duration::from_secs(10));
    drop(held);
    let (_, send) = next(&mut handle).await;
    assert_eq!(
        t0.elapsed(),
        INTERVAL * 2,
        "one request in flight, one per interval"
    );
    respond(send, 200, pod_list(vec![pod("a", "web", 45, 2_000_000)]));
    wait_for(&sub.slot, &mut changes, "recovery", |s| {
        s.state == MetricsState::Ok
    })
    .await;
    // Released: polls go on during the grace period, then the task stops.
    drop(sub);
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(pool.infos().len(), 1, "still within the grace period");
    assert!(pool.infos()[0].stops_in.is_some());
    tokio::time::sleep(GRACE).await;
    assert!(pool.infos().is_empty(), "stopped after the grace period");
    assert!(
        quiet_for(&mut handle, INTERVAL * 4).await,
        "a stopped poll sends nothing"
    );
    pool.shutdown();
}

#[tokio::test(start_paused = true)]
async fn a_namespace_is_served_by_the_all_namespaces_poll() {
    let (pool, mut handle, mut changes) = mock_metrics(config(60));
    let all = pool.subscribe(MetricsKey::pods(None));
    let (uri, send) = next(&mut handle).await;
    assert_eq!(uri, "/apis/metrics.k8s.io/v1beta1/pods");
    respond(
        send,
        200,
        pod_list(vec![
            pod("a", "web", 15, 1),
            pod("a", "db", 15, 2),
            pod("b", "api", 15, 3),
        ]),
    );
    wait_for(&all.slot, &mut changes, "the list", |s| {
        s.state == MetricsState::Ok
    })
    .await;
    let ns = pool.subscribe(MetricsKey::pods(Some("a")));
    assert_eq!(ns.served_by, MetricsKey::pods(None));
    assert_eq!(ns.filter_namespace(), Some("a"));
    assert_eq!(pool.infos().len(), 1);
    assert_eq!(pool.infos()[0].subscribers, 2);
    let snap = ns.load();
    let names: Vec<_> = snap
        .in_namespace(ns.filter_namespace())
        .map(|(n, _)| n.to_string())
        .collect();
    assert_eq!(names, ["db", "web"]);
    // Nodes are their own key, without a namespace.
    let nodes = pool.subscribe(MetricsKey {
        target: Target::Nodes,
        namespace: Some("a".into()),
    });
    assert_eq!(nodes.served_by, MetricsKey::nodes());
    let (uri, _send) = next(&mut handle).await;
    assert_eq!(uri, "/apis/metrics.k8s.io/v1beta1/nodes");
    drop((all, ns, nodes));
    pool.shutdown();
}

#[tokio::test(start_paused = true)]
async fn forbidden_is_said_in_words_and_does_not_serve_a_namespace() {
    let (pool, mut handle, mut changes) = mock_metrics(config(60));
    let all = pool.subscribe(MetricsKey::pods(None));
    let (_, send) = next(&mut handle).await;
    respond(send, 403, serde_json::to_vec(&status(403, "Forbidden")).unwrap());
    let snap = wait_for(&all.slot, &mut changes, "the 403", |s| s.state.is_failure()).await;
    assert_eq!(
        snap.state,
        MetricsState::Forbidden("forbidden: list pods.metrics.k8s.io".into())
    );
    assert_eq!(snap.state.to_string(), "forbidden: list pods.metrics.k8s.io");
    assert!(!snap.stale, "nothing was held");
    let ns = pool.subscribe(MetricsKey::pods(Some("team-a")));
    assert_eq!(ns.served_by, MetricsKey::pods(Some("team-a")));
    let (uri, send) = next(&mut handle).await;
    assert_eq!(uri, "/apis/metrics.k8s.io/v1beta1/namespaces/team-a/pods");
    respond(send, 200, pod_list(vec![pod("team-a", "web", 15, 1)]));
    wait_for(&ns.slot, &mut changes, "the namespace's list", |s| {
        s.state == MetricsState::Ok
    })
    .await;
    drop((all, ns));
    pool.shutdown();
}

#[tokio::test(start_paused = true)]
async fn not_found_is_not_served_and_so_is_what_discovery_says() {
    let (pool, mut handle, mut changes) = mock_metrics(config(60));
    let pods = pool.subscribe(MetricsKey::pods(None));
    let (_, send) = next(&mut handle).await;
    respond(send, 404, serde_json::to_vec(&status(404, "NotFound")).unwrap());
    let snap = wait_for(&pods.slot, &mut changes, "the 404", |s| s.state.is_failure()).await;
    assert_eq!(
        snap.state,
        MetricsState::NotServed("the server has no metrics.k8s.io/v1beta1 pods (404)".into())
    );
    // Discovery says no metrics-server: no request at all, the reason shown.
    pool.set_served(
        Target::Nodes,
        Served::No("no metrics.k8s.io in discovery (no metrics-server)".into()),
    );
    let nodes = pool.subscribe(MetricsKey::nodes());
    let snap = wait_for(&nodes.slot, &mut changes, "not served", |s| s.state.is_failure()).await;
    assert_eq!(
        snap.state.to_string(),
        "not served (no metrics.k8s.io in discovery (no metrics-server))"
    );
    // The pods poll keeps its interval; the nodes poll sends nothing.
    let (uri, send) = next(&mut handle).await;
    assert!(uri.ends_with("/pods"), "{uri}");
    drop(send);
    // Served again: the next poll (within one interval) asks.
    pool.set_served(Target::Nodes, Served::Yes);
    let started = Instant::now();
    loop {
        let (uri, send) = next(&mut handle).await;
        if uri.ends_with("/nodes") {
            break;
        }
        drop(send);
    }
    assert!(started.elapsed() <= INTERVAL);
    drop((pods, nodes));
    pool.shutdown();
}

#[tokio::test(start_paused = true)]
async fn unavailable_keeps_the_last_samples_and_marks_them_stale() {
    let (pool, mut handle, mut changes) = mock_metrics(config(60));
    let sub = pool.subscribe(MetricsKey::pods(Some("a")));
    let (_, send) = next(&mut handle).await;
    respond(send, 200, pod_list(vec![pod("a", "web", 15, 7_000_000)]));
    wait_for(&sub.slot, &mut changes, "the list", |s| {
        s.state == MetricsState::Ok
    })
    .await;
    let (_, send) = next(&mut handle).await;
    respond(
        send,
        503,
        serde_json::to_vec(&status(503, "ServiceUnavailable")).unwrap(),
    );
    let snap = wait_for(&sub.slot, &mut changes, "the 503", |s| s.state.is_failure()).await;
    assert_eq!(
        snap.state,
        MetricsState::Error("503: ServiceUnavailable for test".into())
    );
    assert!(snap.stale && snap.is_stale(Instant::now()));
    let web = snap.get(Some("a"), "web").expect("the last sample is kept");
    assert_eq!(web.latest().unwrap().usage.cpu_nanos, 7_000_000);
    assert_eq!(web.latest().unwrap().usage.memory_bytes, 45_678 * 1024);
    assert_eq!(
        pool.infos()[0].last_error.as_deref(),
        Some("503: ServiceUnavailable for test")
    );
    drop(sub);
    pool.shutdown();
}

#[tokio::test(start_paused = true)]
async fn samples_accumulate_up_to_the_bound() {
    let (pool, mut handle, mut changes) = mock_metrics(config(3));
    let sub = pool.subscribe(MetricsKey::pods(None));
    for i in 1..=5u32 {
        let (_, send) = next(&mut handle).await;
        respond(
            send,
            200,
            pod_list(vec![
                pod("a", "web", 15 * i, u64::from(i)),
                pod("b", "db", 15 * i, 1),
            ]),
        );
        wait_for(&sub.slot, &mut changes, "the list", |s| s.rev == u64::from(i)).await;
    }
    let snap = sub.load();
    assert_eq!((snap.object_count, snap.samples), (2, 6));
    let cpu: Vec<u64> = snap
        .get(Some("a"), "web")
        .unwrap()
        .samples()
        .map(|s| s.usage.cpu_nanos)
        .collect();
    assert_eq!(cpu, [3, 4, 5]);
    assert_eq!(pool.infos()[0].samples, 6);
    drop(sub);
    pool.shutdown();
}

/// Discovery's answer arriving after a poll said 404 replaces the 404's wording at once:
/// the user reads why (no metrics-server) without waiting an interval, and nothing is sent.
#[tokio::test(start_paused = true)]
async fn discovery_saying_not_served_shows_at_once_without_a_request() {
    let (pool, mut handle, mut changes) = mock_metrics(config(60));
    let sub = pool.subscribe(MetricsKey::pods(None));
    let (_, send) = next(&mut handle).await;
    respond(send, 404, serde_json::to_vec(&status(404, "NotFound")).unwrap());
    wait_for(&sub.slot, &mut changes, "the 404", |s| s.state.is_failure()).await;
    let t0 = Instant::now();
    pool.set_served(
        Target::Pods,
        Served::No("no metrics.k8s.io in discovery (no metrics-server)".into()),
    );
    let snap = sub.slot.load();
    assert_eq!(
        snap.state,
        MetricsState::NotServed("no metrics.k8s.io in discovery (no metrics-server)".into())
    );
    assert_eq!(t0.elapsed(), Duration::ZERO, "published by set_served itself");
    assert!(
        quiet_for(&mut handle, INTERVAL * 3).await,
        "no request while not served"
    );
}
