//! Protobuf refused (against a scripted API server under paused tokio time): a 406 to the
//! protobuf Accept is sent again at once as JSON, and a JSON answer to it is read as JSON;
//! both are remembered for the context's API group, so the next requests ask JSON only, and
//! nothing listed or watched is lost. `:informers` says `json`.

use crate::scripted_api;

use std::sync::Arc;

use ktui::kube::informer::{Encoding, Encodings, InformerConfig, ListMethod};

use scripted_api::*;

const PROTOBUF_FIRST: &str = "application/vnd.kubernetes.protobuf, application/json";

fn with_memory(memory: &Arc<Encodings>) -> Harness {
    start_with(InformerConfig {
        protobuf: Some(memory.clone()),
        ..InformerConfig::default()
    })
}

#[tokio::test(start_paused = true)]
async fn a_406_to_protobuf_is_asked_again_as_json_and_remembered() {
    let memory = Arc::new(Encodings::default());
    let mut h = with_memory(&memory);
    let (uri, accept, send) = next_asked(&mut h).await;
    assert!(!is_watch(&uri), "{uri}");
    assert_eq!(accept, PROTOBUF_FIRST);
    respond(
        send,
        406,
        serde_json::to_vec(&status(406, "NotAcceptable")).unwrap(),
    );
    // The same page again, at once (no backoff), as JSON.
    let (again, accept, send) = next_asked(&mut h).await;
    assert_eq!(again, uri);
    assert!(!accept.contains("protobuf"), "{accept}");
    respond(
        send,
        200,
        list_body(vec![pod("a", 5, "Running"), pod("b", 6, "Pending")], 9, None),
    );
    let (uri, accept, send) = next_asked(&mut h).await;
    assert!(is_watch(&uri) && uri.contains("resourceVersion=9"), "{uri}");
    assert!(
        !accept.contains("protobuf"),
        "the refusal is remembered: {accept}"
    );
    respond(send, 200, watch_body(&[ev("ADDED", pod("c", 10, "Running"))]));
    h.wait_until("three pods", |s| s.rows.len() == 3).await;
    assert_eq!(names(&h.slot), ["a", "b", "c"]);
    assert!(
        memory.refusal("").is_some_and(|why| why.starts_with("406")),
        "{:?}",
        memory.refusal("")
    );
    assert_eq!(memory.refusal("apps"), None, "only the core group");
    let used = h.stats.view().last_list.unwrap();
    assert_eq!((used.method, used.encoding), (ListMethod::Paged, Encoding::Json));
}

#[tokio::test(start_paused = true)]
async fn a_json_answer_to_protobuf_is_read_and_remembered() {
    let memory = Arc::new(Encodings::default());
    let mut h = with_memory(&memory);
    let (_, accept, send) = next_asked(&mut h).await;
    assert_eq!(accept, PROTOBUF_FIRST);
    respond(send, 200, list_body(vec![pod("a", 5, "Running")], 9, None));
    let (uri, accept, send) = next_asked(&mut h).await;
    assert!(is_watch(&uri), "{uri}");
    assert!(!accept.contains("protobuf"), "{accept}");
    respond(send, 200, watch_body(&[ev("ADDED", pod("b", 10, "Running"))]));
    h.wait_until("two pods", |s| s.rows.len() == 2).await;
    assert!(memory.refusal("").is_some());
    // Another informer of the context asks JSON only from the start.
    let mut other = with_memory(&memory);
    let (_, accept, _send) = next_asked(&mut other).await;
    assert!(!accept.contains("protobuf"), "{accept}");
}

#[tokio::test(start_paused = true)]
async fn protobuf_off_asks_json_only() {
    let mut h = start_with(InformerConfig {
        protobuf: None,
        ..InformerConfig::default()
    });
    let (_, accept, _send) = next_asked(&mut h).await;
    assert!(!accept.contains("protobuf"), "{accept}");
}
