//! A scripted API server for informer and pool scenarios: a tower mock service behind a
//! real `kube::Client`, object and list/watch body builders, an informer harness, and
//! [`wait_until`], which waits on the store's change notifications (never on sleeps or
//! yields).

#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;

use http::{Request, Response, StatusCode};
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::informer::{Informer, InformerConfig};
use ktui::kube::key::ResourceKey;
use ktui::kube::pool::InformerPool;
use ktui::kube::row::IntoRow;
use ktui::kube::stats::{InformerStats, StatsView};
use ktui::kube::store::{Slot, Snapshot, StoreChanged, StoreWriter};
use ktui::table::PodObj;
use ktui::table::TableDecoders;
use kube::client::Body;
use serde_json::{json, Value};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver};
use tower_test::mock::{self, Handle, SendResponse};

/// A pool over a scripted API server, with the receiver of its change notifications (keep
/// it alive for the whole test; pass it to [`wait_until`]).
pub fn mock_pool(grace: Duration) -> (InformerPool, ApiHandle, Changes) {
    let (svc, handle) = mock::pair::<Request<Body>, Response<Body>>();
    let client = kube::Client::new(svc, "default");
    let (tx, changes) = unbounded_channel();
    let pool = InformerPool::new(
        client,
        Arc::new(TableDecoders),
        tx,
        InformerConfig::default(),
        grace,
    );
    (pool, handle, changes)
}

pub type ApiHandle = Handle<Request<Body>, Response<Body>>;

/// The receiving end of a store's change notifications.
pub type Changes = UnboundedReceiver<StoreChanged>;

/// How long (paused tokio time) [`wait_until`] waits: far beyond every backoff the informer
/// has (its cap is 30 s), so only a publication that never comes reaches it.
pub const WAIT: Duration = Duration::from_secs(3600);

/// Waits until `pred` holds for `slot`'s snapshot, looking again after each notification on
/// `changes`; panics naming `what` and showing the slot when [`WAIT`] passes first or the
/// informer is gone. Returns the snapshot that satisfied `pred`.
pub async fn wait_until(
    slot: &Slot,
    changes: &mut Changes,
    what: &str,
    pred: impl Fn(&Snapshot) -> bool,
) -> Arc<Snapshot> {
    let wait = async {
        loop {
            // `load` re-arms the slot's notification: the next publication sends one.
            let snap = slot.load();
            if pred(&snap) {
                return snap;
            }
            if changes.recv().await.is_none() {
                let snap = slot.peek();
                panic!(
                    "waiting for {what}: every notification sender is gone (the informer \
                     ended); the slot holds rev {} {:?} listed={} rows={:?}",
                    snap.rev,
                    snap.state,
                    snap.listed,
                    names(slot)
                );
            }
        }
    };
    match tokio::time::timeout(WAIT, wait).await {
        Ok(snap) => snap,
        Err(_) => {
            let snap = slot.peek();
            panic!(
                "no publication satisfied `{what}` within {WAIT:?} (paused time); the slot \
                 holds rev {} {:?} listed={} rows={:?}",
                snap.rev,
                snap.state,
                snap.listed,
                names(slot)
            )
        }
    }
}

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

/// The informer's probe of the server's resourceVersion after a failed watch: a list of at
/// most one object.
pub fn is_probe(uri: &str) -> bool {
    !is_watch(uri) && (uri.contains("limit=1&") || uri.ends_with("limit=1"))
}

/// The next request of `h`'s informer: its URI and Accept header.
pub async fn next_asked(h: &mut Harness) -> (String, String, SendResponse<Response<Body>>) {
    let (req, send): (Request<Body>, _) =
        tokio::time::timeout(Duration::from_secs(3600), h.handle.next_request())
            .await
            .expect("no request within an hour")
            .expect("service dropped");
    let accept = req
        .headers()
        .get("accept")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (req.uri().to_string(), accept, send)
}

pub fn is_watch(uri: &str) -> bool {
    uri.contains("watch=true")
}

pub struct Harness {
    pub slot: Arc<Slot>,
    pub handle: ApiHandle,
    pub stats: Stats,
    pub task: tokio::task::JoinHandle<()>,
    /// The slot's change notifications, kept for [`Harness::wait_until`].
    pub changes: Changes,
}

impl Harness {
    /// [`wait_until`] on this informer's slot.
    pub async fn wait_until(&mut self, what: &str, pred: impl Fn(&Snapshot) -> bool) -> Arc<Snapshot> {
        wait_until(&self.slot, &mut self.changes, what, pred).await
    }
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
    start_with(InformerConfig::default())
}

/// [`start`] with the loop's tunables `config`.
pub fn start_with(config: InformerConfig) -> Harness {
    start_kind::<PodObj>(BuiltinKind::Pod, config)
}

/// An informer of `kind` in namespace `default`, decoding with its slim type `T`.
pub fn start_kind<T: IntoRow>(kind: BuiltinKind, config: InformerConfig) -> Harness {
    let (svc, handle) = mock::pair::<Request<Body>, Response<Body>>();
    let client = kube::Client::new(svc, "default");
    let key = ResourceKey::new(kind, Some("default"));
    let slot = Slot::new(key.clone(), 1);
    let (tx, changes) = unbounded_channel();
    let stats = Arc::new(InformerStats::default());
    let informer = Informer::new(key, client, stats.clone(), config);
    let task = tokio::spawn(informer.run::<T, _>(StoreWriter::new(slot.clone(), tx)));
    Harness {
        stats: Stats {
            counters: stats,
            slot: slot.clone(),
        },
        slot,
        handle,
        task,
        changes,
    }
}

pub fn names(slot: &Slot) -> Vec<String> {
    slot.peek().rows.iter().map(|r| r.name.to_string()).collect()
}
