//! Who is asking (issue 37): every request ktui's client sends names it — `ktui/<version>
//! (<os>/<arch>)` — discovery, lists and watches (the informer), gets, writes, a
//! SelfSubjectAccessReview, logs, and the websocket upgrades of exec, attach and port-forward.
//! The demo server tallies the `User-Agent` of each request by class; an audit log of 30
//! minutes of use had shown 59,143 requests with an empty one.

use std::time::Duration;

use futures::{AsyncBufReadExt, StreamExt};
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, AttachParams, LogParams, Patch, PatchParams};
use tokio::io::AsyncWriteExt;

use ktui::kube::informer::InformerConfig;
use ktui::sim::cli::start_in_process;
use ktui::sim::DemoOptions;

use crate::demo_convergence::{client, informer};

/// What ktui must send, from the ktui package's own version.
fn expected() -> String {
    format!(
        "ktui/{} ({}/{})",
        env!("CARGO_PKG_VERSION"),
        std::env::consts::OS,
        std::env::consts::ARCH
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_kind_of_request_carries_ktuis_user_agent() {
    let demo = start_in_process(DemoOptions {
        live: false,
        ..DemoOptions::default()
    })
    .await
    .unwrap();
    let client = client(&demo).await;
    // Discovery, then an informer's list and watch.
    ktui::kube::discovery::discover(&client, Duration::from_secs(10))
        .await
        .unwrap();
    let (slot, _stats, task) = informer(client.clone(), InformerConfig::default());
    let t = std::time::Instant::now();
    while !slot.peek().state.is_live() {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "the informer never went live"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    task.abort();
    // A get, a write and an access review.
    ktui::kube::write::get(&client, "/api/v1/namespaces/data/pods/postgres-0")
        .await
        .unwrap();
    let pods: Api<Pod> = Api::namespaced(client.clone(), "data");
    pods.patch(
        "postgres-0",
        &PatchParams::default(),
        &Patch::Merge(serde_json::json!({"metadata": {"labels": {"ua": "test"}}})),
    )
    .await
    .unwrap();
    let p = ktui::kube::write::access::Permission {
        verb: "delete",
        group: String::new(),
        resource: "pods".into(),
        subresource: "",
        namespace: "data".into(),
    };
    assert!(ktui::kube::write::access::can_i(&client, &p).await.unwrap());
    // Logs, exec, attach and port-forward (websocket upgrades).
    let mut lines = pods
        .log_stream(
            "postgres-0",
            &LogParams {
                container: Some("postgres".into()),
                tail_lines: Some(1),
                ..LogParams::default()
            },
        )
        .await
        .unwrap()
        .lines();
    let _ = tokio::time::timeout(Duration::from_secs(5), lines.next()).await;
    drop(lines);
    let ap = AttachParams::default().container("postgres").stderr(false);
    let mut proc = pods.exec("postgres-0", ["hostname"], &ap).await.unwrap();
    let _ = proc.take_status().unwrap().await;
    let proc = pods.attach("postgres-0", &ap).await.unwrap();
    proc.abort();
    let mut pf = pods.portforward("postgres-0", &[5432]).await.unwrap();
    let mut s = pf.take_stream(5432).unwrap();
    s.write_all(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n").await.unwrap();
    drop(s);
    drop(pf);
    tokio::time::sleep(Duration::from_millis(100)).await;

    let seen = demo.server.agents.seen();
    let want = expected();
    for class in [
        "discovery",
        "list",
        "watch",
        "get",
        "write",
        "review",
        "log",
        "exec",
        "attach",
        "portforward",
    ] {
        let agents = seen
            .get(class)
            .unwrap_or_else(|| panic!("no {class} request was seen: {seen:?}"));
        assert_eq!(
            agents.keys().collect::<Vec<_>>(),
            [&want],
            "{class} requests carried these user agents: {agents:?}"
        );
    }
    for (class, agents) in &seen {
        assert!(
            agents.keys().all(|a| *a == want),
            "{class}: {agents:?} (want only {want:?})"
        );
    }
}
