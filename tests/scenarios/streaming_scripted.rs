//! Streaming lists (`sendInitialEvents=true`) against a scripted API server under paused
//! tokio time: the request's parameters, changes before the end bookmark, the same connection
//! going on as the watch, a stream that ends before its end bookmark (nothing partial swapped
//! in, the old table kept), and the refusal rules (422 remembered for the context once a
//! paged list succeeds, a 400 that the paged list repeats not remembered, 403 paged for this
//! informer only).

use crate::scripted_api;

use std::sync::Arc;

use ktui::kube::informer::{InformerConfig, ListMethod, StreamingLists};
use ktui::kube::sync::SyncState;

use scripted_api::*;

fn streaming(memory: &Arc<StreamingLists>) -> Harness {
    start_with(InformerConfig {
        streaming: Some(memory.clone()),
        ..InformerConfig::default()
    })
}

fn is_streaming_list(uri: &str) -> bool {
    is_watch(uri)
        && uri.contains("sendInitialEvents=true")
        && uri.contains("resourceVersionMatch=NotOlderThan")
        && uri.contains("allowWatchBookmarks=true")
        && (uri.contains("resourceVersion=&") || uri.ends_with("resourceVersion="))
}

/// The end bookmark of a streaming list at `rv`.
fn end(rv: u64) -> serde_json::Value {
    let mut b = bookmark(rv);
    b["object"]["metadata"]["annotations"] = serde_json::json!({"k8s.io/initial-events-end": "true"});
    b
}

#[tokio::test(start_paused = true)]
async fn a_streaming_list_applies_changes_before_its_end_and_watches_on_from_the_bookmark() {
    let memory = Arc::new(StreamingLists::default());
    let mut h = streaming(&memory);
    let (uri, send) = next(&mut h.handle).await;
    assert!(is_streaming_list(&uri), "{uri}");
    respond(
        send,
        200,
        watch_body(&[
            ev("ADDED", pod("a", 5, "Pending")),
            ev("ADDED", pod("b", 6, "Running")),
            ev("ADDED", pod("c", 7, "Running")),
            // Newer than the server's snapshot, before the end: still part of the list.
            ev("MODIFIED", pod("a", 11, "Running")),
            ev("DELETED", pod("b", 12, "Running")),
            end(12),
        ]),
    );
    // The body ended right after the bookmark: the watch resumes from it, no list.
    let (uri, _send) = next(&mut h.handle).await;
    assert!(
        is_watch(&uri) && uri.contains("resourceVersion=12") && !uri.contains("sendInitialEvents"),
        "{uri}"
    );
    let snap = h.slot.peek();
    assert!(snap.listed);
    assert_eq!(snap.state, SyncState::Live);
    assert_eq!(names(&h.slot), ["a", "c"]);
    let a = format!("{:?}", snap.rows[0].cells);
    assert!(
        a.contains("Running") && !a.contains("Pending"),
        "MODIFIED applied: {a}"
    );
    assert_eq!(snap.resource_version.as_deref(), Some("12"));
    let view = h.stats.view();
    assert_eq!(view.lists, 1);
    assert_eq!(
        view.last_list.map(|l| (l.method, l.fallback)),
        Some((ListMethod::Streamed, None))
    );
    assert_eq!(memory.refusal(""), None);
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn a_stream_ending_before_its_end_bookmark_swaps_nothing_in() {
    let memory = Arc::new(StreamingLists::default());
    let mut h = streaming(&memory);
    // First list: rows show as they come, but the list is not called complete.
    let (_, send) = next(&mut h.handle).await;
    respond(
        send,
        200,
        watch_body(&[
            ev("ADDED", pod("a", 5, "Running")),
            ev("ADDED", pod("b", 6, "Running")),
        ]),
    );
    let (uri, send) = next(&mut h.handle).await;
    assert!(is_streaming_list(&uri), "retried as a streaming list: {uri}");
    let mid = h.slot.peek();
    assert!(!mid.listed, "a stream cut before its end is not a complete list");
    assert_eq!(
        names(&h.slot),
        ["a", "b"],
        "a first list shows its rows as they arrive"
    );
    respond(
        send,
        200,
        watch_body(&[
            ev("ADDED", pod("a", 5, "Running")),
            ev("ADDED", pod("b", 6, "Running")),
            end(10),
        ]),
    );
    let (_, send) = next(&mut h.handle).await;
    assert!(h.slot.peek().listed);
    // A relist (410) whose stream ends early: the old table stays, whole.
    respond(send, 200, watch_body(&[ev("ERROR", status(410, "Expired"))]));
    let (uri, send) = next(&mut h.handle).await;
    assert!(is_streaming_list(&uri), "410 relists by streaming: {uri}");
    respond(send, 200, watch_body(&[ev("ADDED", pod("c", 20, "Running"))]));
    let (uri, send) = next(&mut h.handle).await;
    assert!(is_streaming_list(&uri), "{uri}");
    let mid = h.slot.peek();
    assert!(mid.listed);
    assert_eq!(names(&h.slot), ["a", "b"], "no half-replaced table");
    respond(
        send,
        200,
        watch_body(&[ev("ADDED", pod("c", 20, "Running")), end(21)]),
    );
    let (uri, _send) = next(&mut h.handle).await;
    assert!(uri.contains("resourceVersion=21"), "{uri}");
    assert_eq!(names(&h.slot), ["c"]);
    assert_eq!(memory.refusal(""), None, "one early end is no refusal");
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn a_plain_bookmark_first_means_the_parameter_was_ignored() {
    let memory = Arc::new(StreamingLists::default());
    let mut h = streaming(&memory);
    let (_, send) = next(&mut h.handle).await;
    respond(
        send,
        200,
        watch_body(&[ev("ADDED", pod("a", 5, "Running")), bookmark(9)]),
    );
    let (uri, send) = next(&mut h.handle).await;
    assert!(
        !is_watch(&uri) && uri.contains("limit=500"),
        "paged list next: {uri}"
    );
    assert!(memory.refusal("").unwrap().contains("ignored sendInitialEvents"));
    respond(send, 200, list_body(vec![pod("a", 5, "Running")], 10, None));
    let (uri, _send) = next(&mut h.handle).await;
    assert!(uri.contains("resourceVersion=10"), "{uri}");
    let last = h.stats.view().last_list.unwrap();
    assert_eq!(last.method, ListMethod::Paged);
    assert!(last.fallback.unwrap().contains("initial-events-end"));
    h.task.abort();
}

/// Answers the streaming list with `code`, then the paged list with `list_code`; returns the
/// informer and the context's memory.
async fn refused_then_paged(code: u16, reason: &str, list_code: u16) -> (Harness, Arc<StreamingLists>) {
    let memory = Arc::new(StreamingLists::default());
    let mut h = streaming(&memory);
    let (uri, send) = next(&mut h.handle).await;
    assert!(is_streaming_list(&uri), "{uri}");
    respond(send, code, serde_json::to_vec(&status(code, reason)).unwrap());
    let (uri, send) = next(&mut h.handle).await;
    assert!(
        !is_watch(&uri) && uri.contains("limit=500"),
        "paged list at once: {uri}"
    );
    assert_eq!(
        memory.refusal(""),
        None,
        "not remembered before the paged list succeeds"
    );
    if list_code == 200 {
        respond(send, 200, list_body(vec![pod("a", 5, "Running")], 10, None));
    } else {
        respond(
            send,
            list_code,
            serde_json::to_vec(&status(list_code, reason)).unwrap(),
        );
    }
    let _ = next(&mut h.handle).await;
    (h, memory)
}

#[tokio::test(start_paused = true)]
async fn a_422_is_remembered_for_the_context_once_a_paged_list_succeeds() {
    let (h, memory) = refused_then_paged(422, "Invalid", 200).await;
    assert!(
        memory.refusal("").unwrap().contains("422"),
        "{:?}",
        memory.refusal("")
    );
    assert_eq!(memory.refusal("apps"), None, "other API groups still stream");
    let last = h.stats.view().last_list.unwrap();
    assert_eq!(last.method, ListMethod::Paged);
    assert!(last.fallback.unwrap().contains("refused (422)"));
    // The next informer of the context does not ask again.
    let mut other = streaming(&memory);
    let (uri, _send) = next(&mut other.handle).await;
    assert!(!is_watch(&uri), "remembered: {uri}");
    h.task.abort();
    other.task.abort();
}

#[tokio::test(start_paused = true)]
async fn a_400_the_paged_list_repeats_is_the_requests_fault_and_not_remembered() {
    let (h, memory) = refused_then_paged(400, "BadRequest", 400).await;
    assert_eq!(memory.refusal(""), None);
    assert!(matches!(h.slot.peek().state, SyncState::Rejected { .. }));
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn a_403_lists_paged_for_this_informer_only() {
    let (h, memory) = refused_then_paged(403, "Forbidden", 200).await;
    assert_eq!(
        memory.refusal(""),
        None,
        "RBAC is per resource, not the server's say"
    );
    assert_eq!(h.stats.view().last_list.unwrap().method, ListMethod::Paged);
    h.task.abort();
}
