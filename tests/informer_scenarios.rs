//! Informer and store scenarios against a scripted API server (a tower mock service behind a
//! real `kube::Client`) under paused tokio time: the edge cases of kube-notes.md.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use http::{Request, Response, StatusCode};
use ktui::app::decoders::TableDecoders;
use ktui::kube::informer::{run, InformerConfig, InformerCtx};
use ktui::kube::key::ResourceKey;
use ktui::kube::kind::BuiltinKind;
use ktui::kube::pool::InformerPool;
use ktui::kube::row::RowCtx;
use ktui::kube::state::SyncState;
use ktui::kube::stats::InformerStats;
use ktui::kube::store::{Slot, StoreWriter};
use ktui::table::PodObj;
use kube::client::Body;
use serde_json::{json, Value};
use tokio::sync::mpsc::unbounded_channel;
use tokio::time::Instant;
use tower_test::mock::{self, Handle, SendResponse};

type ApiHandle = Handle<Request<Body>, Response<Body>>;

fn pod(name: &str, rv: u64, phase: &str) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "default", "uid": format!("uid-{name}"),
                     "resourceVersion": rv.to_string(), "creationTimestamp": "2026-01-01T00:00:00Z"},
        "spec": {"containers": [{"name": "app", "image": "nginx"}]},
        "status": {"phase": phase}
    })
}

fn list_body(items: Vec<Value>, rv: u64, cont: Option<&str>) -> Vec<u8> {
    let mut meta = json!({"resourceVersion": rv.to_string()});
    if let Some(c) = cont {
        meta["continue"] = json!(c);
    }
    serde_json::to_vec(&json!({"apiVersion": "v1", "kind": "PodList", "metadata": meta, "items": items}))
        .unwrap()
}

fn watch_body(events: &[Value]) -> Vec<u8> {
    let mut out = Vec::new();
    for e in events {
        out.extend(serde_json::to_vec(e).unwrap());
        out.push(b'\n');
    }
    out
}

fn ev(kind: &str, obj: Value) -> Value {
    json!({"type": kind, "object": obj})
}

fn bookmark(rv: u64) -> Value {
    json!({"type": "BOOKMARK", "object": {"kind": "Pod", "apiVersion": "v1", "metadata": {"resourceVersion": rv.to_string()}}})
}

fn status(code: u16, reason: &str) -> Value {
    json!({"kind": "Status", "apiVersion": "v1", "status": "Failure", "message": format!("{reason} for test"),
           "reason": reason, "code": code})
}

fn respond(send: SendResponse<Response<Body>>, code: u16, body: Vec<u8>) {
    let mut res = Response::new(Body::from(body));
    *res.status_mut() = StatusCode::from_u16(code).unwrap();
    send.send_response(res);
}

async fn next(handle: &mut ApiHandle) -> (String, SendResponse<Response<Body>>) {
    let (req, send) = tokio::time::timeout(Duration::from_secs(3600), handle.next_request())
        .await
        .expect("the informer sent no request within an hour")
        .expect("service dropped");
    (req.uri().to_string(), send)
}

fn is_watch(uri: &str) -> bool {
    uri.contains("watch=true")
}

struct Harness {
    slot: Arc<Slot>,
    handle: ApiHandle,
    stats: Arc<InformerStats>,
    task: tokio::task::JoinHandle<()>,
}

fn start() -> Harness {
    let (svc, handle) = mock::pair::<Request<Body>, Response<Body>>();
    let client = kube::Client::new(svc, "default");
    let key = ResourceKey::new(BuiltinKind::Pod, Some("default"));
    let slot = Slot::new(key.clone(), 1);
    let (tx, _rx) = unbounded_channel();
    // Keep the receiver alive for the whole test.
    std::mem::forget(_rx);
    let stats = Arc::new(InformerStats::default());
    let ctx = InformerCtx {
        key,
        client,
        writer: StoreWriter::new(slot.clone(), tx),
        stats: stats.clone(),
        rows: RowCtx::default(),
        config: InformerConfig::default(),
    };
    let task = tokio::spawn(run::<PodObj>(ctx));
    Harness {
        slot,
        handle,
        stats,
        task,
    }
}

fn names(slot: &Slot) -> Vec<String> {
    slot.peek().rows.iter().map(|r| r.name.to_string()).collect()
}

#[tokio::test(start_paused = true)]
async fn multi_page_list_publishes_one_complete_snapshot() {
    let mut h = start();
    let (uri, send) = next(&mut h.handle).await;
    assert!(
        !is_watch(&uri) && uri.contains("limit=500") && !uri.contains("continue="),
        "{uri}"
    );
    respond(
        send,
        200,
        list_body(
            vec![pod("a", 5, "Running"), pod("b", 6, "Running")],
            10,
            Some("tok1"),
        ),
    );
    let (uri, send) = next(&mut h.handle).await;
    assert!(uri.contains("continue=tok1"), "{uri}");
    let mid = h.slot.peek();
    assert!(!mid.listed && mid.rows.is_empty(), "no half list is visible");
    assert!(matches!(mid.state, SyncState::Syncing { .. }), "{:?}", mid.state);
    respond(send, 200, list_body(vec![pod("c", 7, "Pending")], 10, None));
    let (uri, _send) = next(&mut h.handle).await;
    assert!(
        is_watch(&uri) && uri.contains("resourceVersion=10") && uri.contains("allowWatchBookmarks=true"),
        "{uri}"
    );
    let snap = h.slot.peek();
    assert!(snap.listed);
    assert_eq!(names(&h.slot), ["a", "b", "c"]);
    assert_eq!(snap.state, SyncState::Live);
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn clean_stream_end_resumes_from_the_last_bookmark_without_a_list() {
    let mut h = start();
    let (_, send) = next(&mut h.handle).await;
    respond(send, 200, list_body(vec![pod("a", 5, "Running")], 10, None));
    let (uri, send) = next(&mut h.handle).await;
    assert!(uri.contains("resourceVersion=10"));
    respond(
        send,
        200,
        watch_body(&[ev("ADDED", pod("b", 11, "Running")), bookmark(15)]),
    );
    let (uri, _send) = next(&mut h.handle).await;
    assert!(is_watch(&uri), "a clean end re-watches, never relists: {uri}");
    assert!(
        uri.contains("resourceVersion=15"),
        "resumes from the bookmark: {uri}"
    );
    assert_eq!(names(&h.slot), ["a", "b"]);
    let stats = h.stats.view();
    assert_eq!(stats.bookmarks, 1);
    assert_eq!(stats.lists, 1);
    assert_eq!(stats.resource_version.as_deref(), Some("15"));
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn gone_relists_without_ghosts_or_lost_rows() {
    let mut h = start();
    let (_, send) = next(&mut h.handle).await;
    respond(
        send,
        200,
        list_body(
            vec![
                pod("a", 1, "Running"),
                pod("b", 2, "Running"),
                pod("c", 3, "Running"),
            ],
            10,
            None,
        ),
    );
    let (_, send) = next(&mut h.handle).await;
    respond(
        send,
        200,
        watch_body(&[
            ev("MODIFIED", pod("a", 11, "Failed")),
            ev("ERROR", status(410, "Expired")),
        ]),
    );
    let (uri, send) = next(&mut h.handle).await;
    assert!(!is_watch(&uri), "410 must relist: {uri}");
    // While relisting, the old rows stay on screen.
    assert_eq!(names(&h.slot), ["a", "b", "c"]);
    // b was deleted and d created during the gap.
    respond(
        send,
        200,
        list_body(
            vec![
                pod("a", 11, "Failed"),
                pod("c", 3, "Running"),
                pod("d", 15, "Running"),
            ],
            20,
            None,
        ),
    );
    let (uri, _send) = next(&mut h.handle).await;
    assert!(is_watch(&uri) && uri.contains("resourceVersion=20"), "{uri}");
    assert_eq!(names(&h.slot), ["a", "c", "d"]);
    assert_eq!(h.stats.view().lists, 2);
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn non_gone_watch_error_keeps_the_resource_version() {
    let mut h = start();
    let (_, send) = next(&mut h.handle).await;
    respond(send, 200, list_body(vec![pod("a", 1, "Running")], 10, None));
    let (_, send) = next(&mut h.handle).await;
    respond(
        send,
        200,
        watch_body(&[
            ev("ADDED", pod("b", 12, "Running")),
            ev("ERROR", status(500, "InternalError")),
        ]),
    );
    let (uri, _send) = next(&mut h.handle).await;
    assert!(is_watch(&uri) && uri.contains("resourceVersion=12"), "{uri}");
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn persistent_503_backs_off_to_the_cap_and_says_why() {
    let mut h = start();
    let mut last = Instant::now();
    let mut gaps = Vec::new();
    for _ in 0..10 {
        let (uri, send) = next(&mut h.handle).await;
        assert!(!is_watch(&uri));
        gaps.push(last.elapsed());
        last = Instant::now();
        respond(
            send,
            503,
            serde_json::to_vec(&status(503, "ServiceUnavailable")).unwrap(),
        );
    }
    tokio::task::yield_now().await;
    let tail = &gaps[6..];
    assert!(
        tail.iter()
            .all(|g| *g >= Duration::from_secs(15) && *g <= Duration::from_secs(30)),
        "{gaps:?}"
    );
    assert!(
        gaps[1] <= Duration::from_secs(1),
        "first retry is quick: {gaps:?}"
    );
    match h.slot.peek().state.clone() {
        SyncState::Reconnecting { attempt, error, .. } => {
            assert_eq!(attempt, 10);
            assert!(error.contains("503"), "{error}");
        }
        other => panic!("unexpected state {other:?}"),
    }
    assert!(
        !h.slot.peek().listed,
        "never listed: the view must not say 'no resources'"
    );
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn forbidden_list_is_shown_and_retried_slowly() {
    let mut h = start();
    let mut last = Instant::now();
    for i in 0..4 {
        let (_, send) = next(&mut h.handle).await;
        if i > 0 {
            assert!(last.elapsed() >= Duration::from_secs(30), "no retry storm on 403");
        }
        last = Instant::now();
        respond(send, 403, serde_json::to_vec(&status(403, "Forbidden")).unwrap());
        tokio::task::yield_now().await;
        tokio::task::yield_now().await;
        assert_eq!(
            h.slot.peek().state,
            SyncState::Forbidden {
                verb: "list".into(),
                resource: "pods".into()
            }
        );
    }
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn a_rejected_request_says_why_and_is_retried_slowly() {
    let mut h = start();
    let mut last = Instant::now();
    for i in 0..3 {
        let (_, send) = next(&mut h.handle).await;
        if i > 0 {
            assert!(last.elapsed() >= Duration::from_secs(30), "no retry storm on 400");
        }
        last = Instant::now();
        let body = status(400, "unable to parse requirement: found '=='");
        respond(send, 400, serde_json::to_vec(&body).unwrap());
        tokio::task::yield_now().await;
        tokio::task::yield_now().await;
        assert_eq!(
            h.slot.peek().state,
            SyncState::Rejected {
                reason: "unable to parse requirement: found '==' for test".into()
            }
        );
    }
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn burst_of_10k_events_gives_few_snapshots_and_the_servers_final_state() {
    let mut h = start();
    let (_, send) = next(&mut h.handle).await;
    respond(send, 200, list_body(vec![], 1, None));
    let (_, send) = next(&mut h.handle).await;
    let rev_before = h.slot.peek().rev;
    let mut expected: BTreeMap<String, String> = BTreeMap::new();
    let mut events = Vec::new();
    for i in 0..10_000u64 {
        let name = format!("p{:04}", i % 1500);
        let phase = if i % 3 == 0 { "Pending" } else { "Running" };
        if i % 7 == 0 && expected.contains_key(&name) {
            expected.remove(&name);
            events.push(ev("DELETED", pod(&name, i + 2, phase)));
        } else {
            expected.insert(name.clone(), phase.to_owned());
            events.push(ev(
                if i % 2 == 0 { "ADDED" } else { "MODIFIED" },
                pod(&name, i + 2, phase),
            ));
        }
    }
    respond(send, 200, watch_body(&events));
    let (uri, _send) = next(&mut h.handle).await;
    assert!(uri.contains("resourceVersion=10001"), "{uri}");
    let snap = h.slot.peek();
    let got: BTreeMap<String, String> = snap
        .rows
        .iter()
        .map(|r| {
            (
                r.name.to_string(),
                ktui::table::format::format_cell(&r.cells[1], 0).into_owned(),
            )
        })
        .collect();
    assert_eq!(got, expected);
    let published = snap.rev - rev_before;
    assert!(
        (1..=5).contains(&published),
        "10k events coalesced into {published} snapshots"
    );
    assert_eq!(h.stats.view().events, 10_000);
    h.task.abort();
}

/// A pool over a scripted API server; its notifications are dropped.
fn mock_pool(grace: Duration) -> (InformerPool, mock::Handle<Request<Body>, Response<Body>>) {
    let (svc, handle) = mock::pair::<Request<Body>, Response<Body>>();
    let client = kube::Client::new(svc, "default");
    let (tx, _rx) = unbounded_channel();
    let pool = InformerPool::new(
        client,
        Arc::new(TableDecoders),
        tx,
        InformerConfig::default(),
        grace,
    );
    (pool, handle)
}

#[tokio::test(start_paused = true)]
async fn pool_starts_lazily_shares_keys_and_stops_after_grace() {
    let (pool, mut handle) = mock_pool(Duration::from_secs(5));
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
    let (pool, mut handle) = mock_pool(Duration::from_secs(5));
    // A user allowed one namespace asks for all of them first (`:po all`): forbidden.
    let all = pool.subscribe(ResourceKey::new(BuiltinKind::Pod, None));
    let (uri, send) = next(&mut handle).await;
    assert!(uri.starts_with("/api/v1/pods?"), "{uri}");
    respond(send, 403, serde_json::to_vec(&status(403, "Forbidden")).unwrap());
    tokio::time::sleep(Duration::from_millis(10)).await;
    // Their own namespace then gets its own informer, not the forbidden one.
    let ns = pool.subscribe(ResourceKey::new(BuiltinKind::Pod, Some("team-a")));
    assert_eq!(ns.served_by, ResourceKey::new(BuiltinKind::Pod, Some("team-a")));
    let (uri, send) = next(&mut handle).await;
    assert!(uri.starts_with("/api/v1/namespaces/team-a/pods?"), "{uri}");
    respond(send, 200, list_body(vec![pod("a", 1, "Running")], 10, None));
    drop((all, ns));
    pool.shutdown();
}
