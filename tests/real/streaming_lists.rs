//! Streaming lists on the real kube-apiserver v1.37.2 (WatchList on by default): ktui's
//! informer syncs a namespace of configmaps through one `sendInitialEvents` watch (its stats
//! say `streamed`, nothing fell back, every object is there), then sees a change on the same
//! connection; a viewer whose watch is forbidden lists paged and says forbidden without
//! turning streaming off for the context. Run with `bash tests/run.sh --test real
//! streaming_lists::`.
use crate::convergence;
use crate::support;

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ktui::kube::builtin::BuiltinKind;
use ktui::kube::informer::{Encoding, InformerConfig, ListMethod, StreamingLists};
use ktui::kube::key::ResourceKey;
use ktui::kube::stats::ListUse;
use ktui::kube::sync::SyncState;
use ktui::table::ConfigMapObj;

const N: usize = 400;

fn config(memory: &Arc<StreamingLists>) -> InformerConfig {
    InformerConfig {
        // Small pages: a paged list would take many requests (and say so in the stats).
        page_size: 50,
        streaming: Some(memory.clone()),
        ..InformerConfig::default()
    }
}

/// `n` configmaps named `cm-0000`… as one kubectl List.
fn configmaps(ns: &str, n: usize) -> String {
    let items: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": format!("cm-{i:04}"), "namespace": ns},
                "data": {"i": i.to_string()}})
        })
        .collect();
    serde_json::json!({"apiVersion": "v1", "kind": "List", "items": items}).to_string()
}

async fn until(what: &str, limit: Duration, mut ok: impl FnMut() -> bool) {
    let t = Instant::now();
    while !ok() {
        assert!(t.elapsed() < limit, "{what} within {limit:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
#[ignore = "real tier"]
async fn the_real_server_is_synced_by_a_streaming_list_and_watched_on() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("stream");
    let file = std::env::temp_dir().join(format!("{ns}.json"));
    std::fs::write(&file, configmaps(&ns, N)).unwrap();
    cluster.kubectl_ok(&["apply", "-f", file.to_str().unwrap()]);
    let _ = std::fs::remove_file(&file);

    let memory = Arc::new(StreamingLists::default());
    let key = ResourceKey::new(BuiltinKind::ConfigMap, Some(&ns));
    let client = cluster.client(support::ADMIN).await;
    let (slot, stats, task) = convergence::informer::<ConfigMapObj>(key, client, config(&memory));
    // kube-root-ca.crt is not there without kube-controller-manager's publisher; count ours.
    let ours =
        |s: &ktui::kube::store::Slot| s.peek().rows.iter().filter(|r| r.name.starts_with("cm-")).count();
    until("synced", Duration::from_secs(60), || {
        let snap = slot.peek();
        snap.listed && snap.state == SyncState::Live && ours(&slot) == N
    })
    .await;
    assert_eq!(
        stats.last_list(),
        Some(ListUse {
            method: ListMethod::Streamed,
            encoding: Encoding::Protobuf,
            fallback: None
        }),
        "the real server streams the list"
    );
    assert_eq!(memory.refusal(""), None);
    assert_eq!(stats.lists.load(Ordering::Relaxed), 1);
    let names: Vec<String> = slot.peek().rows.iter().map(|r| r.name.to_string()).collect();
    for i in [0, N / 2, N - 1] {
        assert!(names.contains(&format!("cm-{i:04}")), "cm-{i:04} missing");
    }

    // A change after the sync arrives on the same connection.
    cluster.kubectl_ok(&[
        "-n",
        &ns,
        "create",
        "configmap",
        "after-sync",
        "--from-literal=a=b",
    ]);
    until("the change is shown", Duration::from_secs(20), || {
        slot.peek().rows.iter().any(|r| &*r.name == "after-sync")
    })
    .await;
    assert_eq!(
        stats.reconnects.load(Ordering::Relaxed),
        0,
        "no new watch was needed"
    );
    assert_eq!(stats.lists.load(Ordering::Relaxed), 1);
    task.abort();
    cluster.kubectl_ok(&["delete", "namespace", &ns, "--wait=false"]);
}

#[tokio::test]
#[ignore = "real tier"]
async fn a_forbidden_watch_lists_paged_and_leaves_the_context_streaming() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let memory = Arc::new(StreamingLists::default());
    // The viewer may not read configmaps in `default`: list and watch are both forbidden.
    let key = ResourceKey::new(BuiltinKind::ConfigMap, Some("default"));
    let client = cluster.client(support::VIEWER).await;
    let (slot, _stats, task) = convergence::informer::<ConfigMapObj>(key, client, config(&memory));
    until("forbidden shown", Duration::from_secs(30), || {
        matches!(slot.peek().state, SyncState::Forbidden { .. })
    })
    .await;
    assert_eq!(memory.refusal(""), None, "a 403 is RBAC's word, not the server's");
    task.abort();
    // The viewer's own namespace still streams.
    let key = ResourceKey::new(BuiltinKind::ConfigMap, Some(support::VIEWER_NS));
    let client = cluster.client(support::VIEWER).await;
    let (slot, stats, task) = convergence::informer::<ConfigMapObj>(key, client, config(&memory));
    until("team-a synced", Duration::from_secs(30), || {
        slot.peek().state == SyncState::Live
    })
    .await;
    assert_eq!(stats.last_list().map(|l| l.method), Some(ListMethod::Streamed));
    task.abort();
}
