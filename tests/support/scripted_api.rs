//! A scripted API server for informer and pool scenarios: a tower mock service behind a
//! real `kube::Client`, object and list/watch body builders, and an informer harness.

#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;

use http::{Request, Response, StatusCode};
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::informer::{Informer, InformerConfig};
use ktui::kube::key::ResourceKey;
use ktui::kube::pool::InformerPool;
use ktui::kube::stats::{InformerStats, StatsView};
use ktui::kube::store::{Slot, StoreWriter};
use ktui::table::PodObj;
use ktui::table::TableDecoders;
use kube::client::Body;
use serde_json::{json, Value};
use tokio::sync::mpsc::unbounded_channel;
use tower_test::mock::{self, Handle, SendResponse};

/// A pool over a scripted API server; its notifications are dropped.
pub fn mock_pool(grace: Duration) -> (InformerPool, mock::Handle<Request<Body>, Response<Body>>) {
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

pub type ApiHandle = Handle<Request<Body>, Response<Body>>;

pub fn pod(name: &str, rv: u64, phase: &str) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "default", "uid": format!("uid-{name}"),
                     "resourceVersion": rv.to_string(), "creationTimestamp": "2026-01-01T00:00:00Z"},
        "spec": {"containers": [{"name": "app", "image": "nginx"}]},
        "status": {"phase": phase}
    })
}

pub fn list_body(items: Vec<Value>, rv: u64, cont: Option<&str>) -> Vec<u8> {
    let mut meta = json!({"resourceVersion": rv.to_string()});
    if let Some(c) = cont {
        meta["continue"] = json!(c);
    }
    serde_json::to_vec(&json!({"apiVersion": "v1", "kind": "PodList", "metadata": meta, "items": items}))
        .unwrap()
}

pub fn watch_body(events: &[Value]) -> Vec<u8> {
    let mut out = Vec::new();
    for e in events {
        out.extend(serde_json::to_vec(e).unwrap());
        out.push(b'\n');
    }
    out
}

pub fn ev(kind: &str, obj: Value) -> Value {
    json!({"type": kind, "object": obj})
}

pub fn bookmark(rv: u64) -> Value {
    json!({"type": "BOOKMARK", "object": {"kind": "Pod", "apiVersion": "v1", "metadata": {"resourceVersion": rv.to_string()}}})
}

pub fn status(code: u16, reason: &str) -> Value {
    json!({"kind": "Status", "apiVersion": "v1", "status": "Failure", "message": format!("{reason} for test"),
           "reason": reason, "code": code})
}

pub fn respond(send: SendResponse<Response<Body>>, code: u16, body: Vec<u8>) {
    let mut res = Response::new(Body::from(body));
    *res.status_mut() = StatusCode::from_u16(code).unwrap();
    send.send_response(res);
}

pub async fn next(handle: &mut ApiHandle) -> (String, SendResponse<Response<Body>>) {
    let (req, send) = tokio::time::timeout(Duration::from_secs(3600), handle.next_request())
        .await
        .expect("the informer sent no request within an hour")
        .expect("service dropped");
    (req.uri().to_string(), send)
}

pub fn is_watch(uri: &str) -> bool {
    uri.contains("watch=true")
}

pub struct Harness {
    pub slot: Arc<Slot>,
    pub handle: ApiHandle,
    pub stats: Stats,
    pub task: tokio::task::JoinHandle<()>,
}

/// The informer's counters with its slot, read together as `:informers` reads them.
pub struct Stats {
    counters: Arc<InformerStats>,
    slot: Arc<Slot>,
}

impl Stats {
    pub fn view(&self) -> StatsView {
        self.counters.view(&self.slot.peek())
    }
}

pub fn start() -> Harness {
    let (svc, handle) = mock::pair::<Request<Body>, Response<Body>>();
    let client = kube::Client::new(svc, "default");
    let key = ResourceKey::new(BuiltinKind::Pod, Some("default"));
    let slot = Slot::new(key.clone(), 1);
    let (tx, _rx) = unbounded_channel();
    // Keep the receiver alive for the whole test.
    std::mem::forget(_rx);
    let stats = Arc::new(InformerStats::default());
    let informer = Informer::new(key, client, stats.clone(), InformerConfig::default());
    let task = tokio::spawn(informer.run::<PodObj, _>(StoreWriter::new(slot.clone(), tx)));
    Harness {
        stats: Stats {
            counters: stats,
            slot: slot.clone(),
        },
        slot,
        handle,
        task,
    }
}

pub fn names(slot: &Slot) -> Vec<String> {
    slot.peek().rows.iter().map(|r| r.name.to_string()).collect()
}
