//! Port-forward throughput, ktui's in-process forward against `kubectl port-forward`, on the
//! same pod of the cluster in `KUBECONFIG` (the test cluster: its hollow kubelets connect a
//! forwarded port P to 127.0.0.1:P on this host, where this program serves the bytes).
//!
//! ```text
//! bash tests/cluster/up.sh /tmp/pf; source /tmp/pf/env
//! cargo run --release --example pf_throughput -- 256     # MiB per run (default 128)
//! ```
//! Prints MB/s pod → local for each (three runs each, best and median).

#![allow(clippy::unwrap_used, clippy::expect_used)] // measuring code may panic

use std::process::Stdio;
use std::time::Instant;

use ktui::kube::portforward::{ForwardSpec, ForwardState, ForwardTarget, PortForwards};
use kube::api::{Api, PostParams};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mib: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(128);
    let bytes = mib << 20;
    ktui::kube::client::install_crypto_provider();
    let client = kube::Client::try_default().await.expect("KUBECONFIG");
    // The source: every connection gets `bytes` bytes, then EOF.
    let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = l.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((mut s, _)) = l.accept().await {
            tokio::spawn(async move {
                let chunk = vec![7u8; 64 << 10];
                let mut left = bytes;
                while left > 0 {
                    let n = left.min(chunk.len());
                    if s.write_all(&chunk[..n]).await.is_err() {
                        return;
                    }
                    left -= n;
                }
                let _ = s.shutdown().await;
            });
        }
    });
    let ns = "default";
    let name = format!("pf-throughput-{port}");
    let pods: Api<k8s_openapi::api::core::v1::Pod> = Api::namespaced(client.clone(), ns);
    let pod = serde_json::from_value(serde_json::json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name},
        "spec": {"containers": [{"name": "app", "image": "example.com/app:1",
                 "ports": [{"containerPort": port}]}], "terminationGracePeriodSeconds": 0}}))
    .unwrap();
    pods.create(&PostParams::default(), &pod).await.unwrap();
    let kubectl = std::env::var("KUBECTL").unwrap_or_else(|_| "kubectl".into());
    let ok = std::process::Command::new(&kubectl)
        .args([
            "wait",
            "-n",
            ns,
            "--for=condition=Ready",
            &format!("pod/{name}"),
            "--timeout=60s",
        ])
        .status()
        .unwrap();
    assert!(ok.success());

    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let pool = ktui::kube::pool::InformerPool::new(
        client.clone(),
        std::sync::Arc::new(ktui::table::TableDecoders),
        tx,
        ktui::kube::informer::InformerConfig::default(),
        std::time::Duration::from_secs(5),
    );
    let mut pf = PortForwards::new(pool, || {});
    let f = pf
        .start(ForwardSpec {
            context: None,
            namespace: ns.into(),
            target: ForwardTarget::Pod(name.clone()),
            port,
            local: "127.0.0.1:0".parse().unwrap(),
        })
        .unwrap();
    while pf.list()[0].state != ForwardState::Active {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let ktui_runs = runs(f.local.port(), bytes).await;

    let mut child = tokio::process::Command::new(&kubectl)
        .args([
            "port-forward",
            "-n",
            ns,
            &format!("pod/{name}"),
            &format!("0:{port}"),
        ])
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let mut local = 0u16;
    while let Some(line) = lines.next_line().await.unwrap() {
        // "Forwarding from 127.0.0.1:PORT -> P"
        if let Some(rest) = line.strip_prefix("Forwarding from 127.0.0.1:") {
            local = rest.split_whitespace().next().unwrap().parse().unwrap();
            break;
        }
    }
    let kubectl_runs = runs(local, bytes).await;
    let _ = child.kill().await;
    let _ = pods.delete(&name, &Default::default()).await;
    println!("pod -> local, {mib} MiB per run, 3 runs (MB/s: best, median)");
    report("ktui (in-process, websocket)", &ktui_runs);
    report("kubectl port-forward", &kubectl_runs);
}

/// Three downloads of `bytes` through 127.0.0.1:`port`; MB/s each.
async fn runs(port: u16, bytes: usize) -> Vec<f64> {
    let mut out = Vec::new();
    for _ in 0..3 {
        let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        let start = Instant::now();
        let mut buf = vec![0u8; 256 << 10];
        let mut got = 0usize;
        while got < bytes {
            let n = s.read(&mut buf).await.unwrap();
            assert!(n > 0, "stream ended after {got} of {bytes} bytes");
            got += n;
        }
        out.push(bytes as f64 / 1e6 / start.elapsed().as_secs_f64());
    }
    out
}

fn report(what: &str, runs: &[f64]) {
    let mut v = runs.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!("{what:32} {:8.1} {:8.1}", v[v.len() - 1], v[v.len() / 2]);
}
