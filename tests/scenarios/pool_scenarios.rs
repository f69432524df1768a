//! Informer-pool scenarios against a scripted API server under paused tokio time: lazy
//! start, sharing, grace stop, and which informer may serve a namespace view.

use crate::scripted_api;

use std::time::Duration;

use ktui::kube::builtin::BuiltinKind;
use ktui::kube::key::ResourceKey;
use ktui::kube::sync::SyncState;
use scripted_api::*;

#[tokio::test(start_paused = true)]
async fn pool_starts_lazily_shares_keys_and_stops_after_grace() {
    let (pool, mut handle, _changes) = mock_pool(Duration::from_secs(5));
    assert!(
        pool.informers().is_empty(),
        "nothing starts before a view subscribes"
    );
    let all = pool.subscribe(ResourceKey::new(BuiltinKind::Pod, None));
    let (uri, send) = next(&mut handle).await;
    assert!(uri.starts_with("/api/v1/pods?"), "{uri}");
    respond(send, 200, list_body(vec![pod("a", 1, "Running")], 10, None));
    let (_, _watch) = next(&mut handle).await;
    // A namespace view is served by the running all-namespaces informer.
    let ns = pool.subscribe(ResourceKey::new(BuiltinKind::Pod, Some("default")));
    assert_eq!(ns.served_by, all.served_by);
    assert_eq!(ns.filter_namespace(), Some("default"));
    let again = pool.subscribe(ResourceKey::new(BuiltinKind::Pod, None));
    assert_eq!(pool.informers().len(), 1);
    assert_eq!(pool.informers()[0].subscribers, 3);
    drop((all, ns, again));
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(pool.informers().len(), 1, "still within the grace period");
    assert!(pool.informers()[0].stops_in.is_some());
    tokio::time::sleep(Duration::from_secs(5)).await;
    assert!(pool.informers().is_empty(), "stopped after the grace period");
    pool.shutdown();
}

#[tokio::test(start_paused = true)]
async fn a_forbidden_all_namespaces_informer_does_not_serve_a_namespace() {
    let (pool, mut handle, mut changes) = mock_pool(Duration::from_secs(5));
    // A user allowed one namespace asks for all of them first (`:po all`): forbidden.
    let all = pool.subscribe(ResourceKey::new(BuiltinKind::Pod, None));
    let (uri, send) = next(&mut handle).await;
    assert!(uri.starts_with("/api/v1/pods?"), "{uri}");
    respond(send, 403, serde_json::to_vec(&status(403, "Forbidden")).unwrap());
    wait_until(&all.slot, &mut changes, "the 403 to be published", |s| {
        matches!(s.state, SyncState::Forbidden { .. })
    })
    .await;
    // Their own namespace then gets its own informer, not the forbidden one.
    let ns = pool.subscribe(ResourceKey::new(BuiltinKind::Pod, Some("team-a")));
    assert_eq!(ns.served_by, ResourceKey::new(BuiltinKind::Pod, Some("team-a")));
    let (uri, send) = next(&mut handle).await;
    assert!(uri.starts_with("/api/v1/namespaces/team-a/pods?"), "{uri}");
    respond(send, 200, list_body(vec![pod("a", 1, "Running")], 10, None));
    drop((all, ns));
    pool.shutdown();
}
