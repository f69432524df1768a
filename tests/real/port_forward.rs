//! Port-forwards through the real API server to the hollow kubelets (which connect a
//! forwarded port P to 127.0.0.1:P on the host, where each test runs its own echo listener):
//! through a pod, through a service surviving its pod being replaced, 100 connections at
//! once, a taken local port refused at start.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use ktui::kube::portforward::{ForwardSpec, ForwardState, ForwardTarget, PortForwards};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::support::{self, Cluster};

const SLOW: Duration = Duration::from_secs(60);

/// An echo server on 127.0.0.1 (any port); returns its port.
async fn echo() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = l.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((mut s, _)) = l.accept().await {
            tokio::spawn(async move {
                let (mut r, mut w) = s.split();
                let _ = tokio::io::copy(&mut r, &mut w).await;
            });
        }
    });
    port
}

fn create(cluster: &Cluster, obj: serde_json::Value) {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), obj.to_string()).unwrap();
    cluster.kubectl_ok(&["create", "-f", file.path().to_str().unwrap()]);
}

fn pod_spec(port: u16) -> serde_json::Value {
    serde_json::json!({"containers": [{"name": "app", "image": "example.com/app:1",
        "ports": [{"name": "echo", "containerPort": port}]}], "terminationGracePeriodSeconds": 0})
}

/// Sends `msg` through `addr` and reads the echo.
async fn round_trip(addr: SocketAddr, msg: &[u8]) -> Vec<u8> {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(msg).await.unwrap();
    let mut got = vec![0u8; msg.len()];
    tokio::time::timeout(SLOW, s.read_exact(&mut got))
        .await
        .expect("echo in time")
        .unwrap();
    got
}

async fn wait_state(pf: &PortForwards, what: &str, pred: impl Fn(&ForwardState) -> bool) -> Duration {
    let start = Instant::now();
    loop {
        let state = pf.list()[0].state.clone();
        if pred(&state) {
            return start.elapsed();
        }
        assert!(start.elapsed() < SLOW, "waiting for {what}: state {state:?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

fn local() -> SocketAddr {
    "127.0.0.1:0".parse().unwrap()
}

async fn manager(cluster: &Cluster) -> PortForwards {
    ktui::kube::client::install_crypto_provider();
    let client = cluster.client(support::ADMIN).await;
    PortForwards::new(pool(client), || {})
}

/// An informer pool as ktui's session builds one (the forwards follow their pods with it).
fn pool(client: kube::Client) -> ktui::kube::pool::InformerPool {
    // Nobody draws here: the UI's notifications go nowhere.
    let (tx, _) = tokio::sync::mpsc::unbounded_channel();
    ktui::kube::pool::InformerPool::new(
        client,
        std::sync::Arc::new(ktui::table::TableDecoders),
        tx,
        ktui::kube::informer::InformerConfig::default(),
        Duration::from_secs(5),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "real tier"]
async fn through_a_pod_and_100_connections_at_once() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("pf-pod");
    let port = echo().await;
    create(
        &cluster,
        serde_json::json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "echo", "namespace": ns}, "spec": pod_spec(port)}),
    );
    cluster.kubectl_ok(&[
        "wait",
        "-n",
        &ns,
        "--for=condition=Ready",
        "pod/echo",
        "--timeout=60s",
    ]);
    let mut pf = manager(&cluster).await;
    let f = pf
        .start(ForwardSpec {
            context: None,
            namespace: ns.clone(),
            target: ForwardTarget::Pod("echo".into()),
            port,
            local: local(),
        })
        .unwrap();
    assert_ne!(f.local.port(), 0, "port 0 took a free port");
    assert_eq!(f.target, format!("pod/echo:{port}"));
    wait_state(&pf, "active", |s| *s == ForwardState::Active).await;
    assert_eq!(
        round_trip(f.local, b"hello through a pod").await,
        b"hello through a pod"
    );
    let start = Instant::now();
    let mut all = tokio::task::JoinSet::new();
    for i in 0..100u32 {
        let addr = f.local;
        all.spawn(async move {
            let msg = format!("connection {i} {}", "x".repeat(4096));
            assert_eq!(round_trip(addr, msg.as_bytes()).await, msg.as_bytes());
        });
    }
    while let Some(r) = all.join_next().await {
        r.unwrap();
    }
    eprintln!(
        "figure: 100 parallel forwarded connections completed in {:.2?}",
        start.elapsed()
    );
    // Counters: 101 connections, at least the bytes sent each way.
    let deadline = Instant::now() + SLOW;
    loop {
        let info = &pf.list()[0];
        if info.open == 0 && info.total == 101 {
            assert!(
                info.bytes_out >= 100 * 4096 && info.bytes_in >= 100 * 4096,
                "{info:?}"
            );
            break;
        }
        assert!(
            Instant::now() < deadline,
            "connections did not all close: {info:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(pf.stop(f.id));
    assert!(pf.list().is_empty());
    // Stopping aborts the forward's task; the runtime drops it (and its listener) at its
    // next turn, so the port closes within moments of stop(), not necessarily before it returns.
    let deadline = Instant::now() + Duration::from_secs(2);
    while TcpStream::connect(f.local).await.is_ok() {
        assert!(Instant::now() < deadline, "the listener closes on stop");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "real tier"]
async fn through_a_service_survives_the_pod_being_replaced() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("pf-svc");
    let port = echo().await;
    let labels = serde_json::json!({"app": "echo"});
    create(
        &cluster,
        serde_json::json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "echo", "namespace": ns},
        "spec": {"replicas": 1, "selector": {"matchLabels": labels},
                 "template": {"metadata": {"labels": labels}, "spec": pod_spec(port)}}}),
    );
    create(
        &cluster,
        serde_json::json!({"apiVersion": "v1", "kind": "Service",
        "metadata": {"name": "echo", "namespace": ns},
        "spec": {"selector": labels, "ports": [{"port": 80, "targetPort": "echo"}]}}),
    );
    cluster.kubectl_ok(&["rollout", "status", "-n", &ns, "deploy/echo", "--timeout=60s"]);
    let mut pf = manager(&cluster).await;
    let f = pf
        .start(ForwardSpec {
            context: None,
            namespace: ns.clone(),
            target: ForwardTarget::Service("echo".into()),
            port: 80,
            local: local(),
        })
        .unwrap();
    assert_eq!(f.target, "svc/echo:80");
    wait_state(&pf, "active", |s| *s == ForwardState::Active).await;
    assert_eq!(round_trip(f.local, b"first pod").await, b"first pod");
    let first = pf.list()[0].pod.clone().unwrap();
    cluster.kubectl_ok(&["delete", "pod", "-n", &ns, &first, "--wait=true"]);
    // The next connection finds the pod gone, says so, and goes to the replacement.
    let addr = f.local;
    let next = tokio::spawn(async move { round_trip(addr, b"second pod").await });
    assert_eq!(next.await.unwrap(), b"second pod");
    let info = &pf.list()[0];
    assert_eq!(info.state, ForwardState::Active);
    assert_ne!(info.pod.as_deref(), Some(first.as_str()), "re-targeted: {info:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "real tier"]
async fn a_taken_local_port_is_refused_at_start_and_never_listed() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let mut pf = manager(&cluster).await;
    let err = pf
        .start(ForwardSpec {
            context: None,
            namespace: "default".into(),
            target: ForwardTarget::Pod("whatever".into()),
            port: 80,
            local: taken.local_addr().unwrap(),
        })
        .unwrap_err();
    assert_eq!(
        err,
        format!("{} is in use by another program", taken.local_addr().unwrap())
    );
    assert!(pf.list().is_empty());
    // A pod that does not exist: listed, but broken with the API's words.
    pf.start(ForwardSpec {
        context: None,
        namespace: "default".into(),
        target: ForwardTarget::Pod("no-such-pod".into()),
        port: 80,
        local: local(),
    })
    .unwrap();
    wait_state(&pf, "broken", |s| matches!(s, ForwardState::Broken(_))).await;
    assert_eq!(
        pf.list()[0].state.words(),
        "broken: pods \"no-such-pod\" not found"
    );
    assert_eq!(pf.running(), 0);
}

/// Polls the API (the test's own view, not ktui's) until a ready pod of `selector` other
/// than `old` exists; returns when it was first seen.
async fn new_pod_ready(client: kube::Client, ns: String, selector: &str, old: String) -> (String, Instant) {
    let api: kube::Api<k8s_openapi::api::core::v1::Pod> = kube::Api::namespaced(client, &ns);
    let start = Instant::now();
    loop {
        let pods = api
            .list(&kube::api::ListParams::default().labels(selector))
            .await
            .unwrap();
        let ready = pods.items.iter().find(|p| {
            p.metadata.name.as_deref() != Some(&old)
                && p.metadata.deletion_timestamp.is_none()
                && p.status
                    .iter()
                    .flat_map(|s| s.conditions.iter().flatten())
                    .any(|c| c.type_ == "Ready" && c.status == "True")
        });
        if let Some(p) = ready {
            return (p.metadata.name.clone().unwrap(), Instant::now());
        }
        assert!(start.elapsed() < SLOW, "no replacement pod became ready");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "real tier"]
async fn an_idle_workload_forward_follows_its_pod_being_replaced_within_2s() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("pf-follow");
    let port = echo().await;
    let labels = serde_json::json!({"app": "echo"});
    create(
        &cluster,
        serde_json::json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "echo", "namespace": ns},
        "spec": {"replicas": 1, "selector": {"matchLabels": labels},
                 "template": {"metadata": {"labels": labels}, "spec": pod_spec(port)}}}),
    );
    cluster.kubectl_ok(&["rollout", "status", "-n", &ns, "deploy/echo", "--timeout=60s"]);
    let mut pf = manager(&cluster).await;
    let f = pf
        .start(ForwardSpec {
            context: None,
            namespace: ns.clone(),
            target: ForwardTarget::Selector {
                label: "deploy/echo".into(),
                selector: "app=echo".into(),
            },
            port,
            local: local(),
        })
        .unwrap();
    assert_eq!(f.target, format!("deploy/echo:{port}"));
    wait_state(&pf, "active", |s| *s == ForwardState::Active).await;
    assert_eq!(round_trip(f.local, b"first pod").await, b"first pod");
    let first = pf.list()[0].pod.clone().unwrap();
    // No connection is open from here on: the forward notices through its informer alone.
    let client = cluster.client(support::ADMIN).await;
    let replacement = tokio::spawn(new_pod_ready(client, ns.clone(), "app=echo", first.clone()));
    cluster.kubectl_ok(&["delete", "pod", "-n", &ns, &first, "--wait=false"]);
    let deleted = Instant::now();
    let mut saw_reconnecting = false;
    let active_at = loop {
        let info = pf.list()[0].clone();
        if info.state.words() == "reconnecting: pod replaced" {
            saw_reconnecting = true;
        }
        if info.state == ForwardState::Active && info.pod.as_deref().is_some_and(|p| p != first) {
            break Instant::now();
        }
        assert!(info.open == 0 && info.total == 1, "idle: {info:?}");
        assert!(deleted.elapsed() < SLOW, "never re-targeted: {info:?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    let (new_pod, ready_at) = replacement.await.unwrap();
    assert!(
        saw_reconnecting,
        "the state said `reconnecting: pod replaced` meanwhile"
    );
    let took = active_at.saturating_duration_since(ready_at);
    eprintln!(
        "figure: after the delete, the new pod seen ready by the test at {:.2?}, the forward active on it at {:.2?}",
        ready_at - deleted,
        active_at - deleted
    );
    assert!(
        took <= Duration::from_secs(2),
        "re-targeted {took:?} after the pod was ready"
    );
    assert_eq!(pf.list()[0].pod.as_deref(), Some(new_pod.as_str()));
    assert_eq!(round_trip(f.local, b"second pod").await, b"second pod");
    assert_eq!(pf.list()[0].state, ForwardState::Active);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "real tier"]
async fn a_pod_forward_whose_pod_is_deleted_is_broken() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("pf-gone");
    let port = echo().await;
    create(
        &cluster,
        serde_json::json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "echo", "namespace": ns}, "spec": pod_spec(port)}),
    );
    cluster.kubectl_ok(&[
        "wait",
        "-n",
        &ns,
        "--for=condition=Ready",
        "pod/echo",
        "--timeout=60s",
    ]);
    let mut pf = manager(&cluster).await;
    let f = pf
        .start(ForwardSpec {
            context: None,
            namespace: ns.clone(),
            target: ForwardTarget::Pod("echo".into()),
            port,
            local: local(),
        })
        .unwrap();
    wait_state(&pf, "active", |s| *s == ForwardState::Active).await;
    assert_eq!(round_trip(f.local, b"hello").await, b"hello");
    cluster.kubectl_ok(&["delete", "pod", "-n", &ns, "echo", "--wait=true"]);
    wait_state(&pf, "broken", |s| matches!(s, ForwardState::Broken(_))).await;
    assert_eq!(pf.list()[0].state.words(), "broken: pod deleted");
    assert_eq!(pf.running(), 0);
}
