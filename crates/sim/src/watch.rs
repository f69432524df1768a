//! One WATCH response of the demo server: replays the kind's log after the requested
//! revision (or the current objects as ADDED), then streams live changes through the
//! selector, with periodic bookmarks, `timeoutSeconds`, a 410 ERROR event for revisions older
//! than the log, and the watch faults. A watcher that falls behind is cut off; a watch from a
//! revision not reached yet waits for it. Must not write to the store.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::StreamBody;
use hyper::body::Frame;
use serde_json::json;
use tokio::sync::{broadcast, mpsc};
use tokio::time::{interval_at, sleep_until, Instant};
use tokio_util::sync::CancellationToken;

use super::faults::Faults;
use super::kinds::{KindId, KINDS};
use super::matching::Filter;
use super::store::{Change, ChangeType, Store};
use super::table::Include;

type Chunk = Result<Frame<Bytes>, std::io::Error>;

/// What the client asked for.
#[derive(Debug, Clone)]
pub struct WatchRequest {
    /// The kind watched.
    pub kind: KindId,
    /// Namespace and selectors.
    pub filter: Filter,
    /// `resourceVersion`; `None` ("" or "0") = send the current objects as ADDED first.
    pub from: Option<u64>,
    /// `allowWatchBookmarks=true`.
    pub bookmarks: bool,
    /// `sendInitialEvents=true`: end the initial ADDED events with an annotated bookmark.
    pub initial_events_end: bool,
    /// `timeoutSeconds`, or the server's default.
    pub timeout: Duration,
    /// Interval between bookmarks.
    pub bookmark_every: Duration,
    /// Answer each object as a one-row Table (kubectl's `as=Table`), with what it includes.
    pub table: Option<Include>,
}

/// Everything a watch task shares with the server.
#[derive(Clone)]
pub struct WatchEnv {
    /// The objects.
    pub store: Arc<Store>,
    /// The faults in force.
    pub faults: Arc<Faults>,
    /// Server shutdown.
    pub cancel: CancellationToken,
}

/// Starts the watch task and returns the response body stream it feeds.
pub fn start(
    env: WatchEnv,
    req: WatchRequest,
) -> StreamBody<impl futures::Stream<Item = Chunk> + Send + 'static> {
    let (tx, mut rx) = mpsc::channel::<Chunk>(64);
    tokio::spawn(pump(env, req, tx));
    StreamBody::new(futures::stream::poll_fn(move |cx| rx.poll_recv(cx)))
}

fn line(kind: &str, object: &[u8]) -> Bytes {
    let mut out = Vec::with_capacity(object.len() + 32);
    out.extend_from_slice(b"{\"type\":\"");
    out.extend_from_slice(kind.as_bytes());
    out.extend_from_slice(b"\",\"object\":");
    out.extend_from_slice(object);
    out.extend_from_slice(b"}\n");
    Bytes::from(out)
}

/// How one watcher renders objects; Table watches send column definitions once.
struct Renderer {
    kind: KindId,
    table: Option<Include>,
    columns_sent: bool,
    faults: Arc<Faults>,
}

impl Renderer {
    fn line(&mut self, change: &Change, filter: &Filter) -> Option<Bytes> {
        let (ty, obj) = classify(change, filter)?;
        match self.table {
            None => Some(line(ty, &self.faults.malform(obj))),
            Some(include) => {
                let t = super::table::table(
                    self.kind,
                    std::slice::from_ref(&change.obj.bytes),
                    json!({"resourceVersion": change.obj.rv.to_string()}),
                    include,
                    !self.columns_sent,
                );
                self.columns_sent = true;
                Some(line(ty, t.to_string().as_bytes()))
            }
        }
    }
}

/// The event type a watcher with `filter` sees for `change`, if any, and the object.
fn classify<'a>(change: &'a Change, filter: &Filter) -> Option<(&'static str, &'a [u8])> {
    let now = filter.matches(&change.obj.meta);
    let kind = match change.kind {
        ChangeType::Added if now => "ADDED",
        ChangeType::Deleted if now => "DELETED",
        ChangeType::Modified => match (change.prev.as_ref().is_some_and(|p| filter.matches(p)), now) {
            (true, true) => "MODIFIED",
            (false, true) => "ADDED",
            (true, false) => "DELETED",
            (false, false) => return None,
        },
        _ => return None,
    };
    Some((kind, &change.obj.bytes))
}

fn bookmark(kind: KindId, rv: u64, initial_end: bool) -> Bytes {
    let k = &KINDS[kind];
    let mut meta = json!({"resourceVersion": rv.to_string(), "creationTimestamp": null});
    if initial_end {
        meta["annotations"] = json!({"k8s.io/initial-events-end": "true"});
    }
    let obj = json!({"kind": k.info.kind, "apiVersion": k.api_version(), "metadata": meta});
    line("BOOKMARK", obj.to_string().as_bytes())
}

/// The ERROR event of a watch whose revision is too old.
pub fn gone_event(from: u64, oldest: u64) -> Bytes {
    let status = json!({
        "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": format!("too old resource version: {from} ({oldest})"), "reason": "Expired", "code": 410
    });
    line("ERROR", status.to_string().as_bytes())
}

async fn pump(env: WatchEnv, req: WatchRequest, tx: mpsc::Sender<Chunk>) {
    let send = |b: Bytes| {
        let tx = tx.clone();
        async move { tx.send(Ok(Frame::data(b))).await.is_ok() }
    };
    if req.from.is_some() && env.faults.roll(env.faults.spec().gone) {
        let rev = env.store.revision();
        send(gone_event(req.from.unwrap_or(0), rev)).await;
        return;
    }
    let (backlog, mut live) = match env.store.watch(req.kind, req.from) {
        Ok(w) => w,
        Err(g) => {
            send(gone_event(g.from, g.oldest)).await;
            return;
        }
    };
    // Drops count from the start: a connection cut does not wait for the replay to end.
    let mut drops = env.faults.drops();
    drops.borrow_and_update();
    // Like kube-apiserver's watch cache, a watch from a revision the store has not reached
    // (it was restored from an older backup) is accepted and waits: only changes after `from`
    // are sent, and no bookmark older than `from`.
    let from = req.from.unwrap_or(0);
    let mut sent_rv = from;
    let mut out = Renderer {
        kind: req.kind,
        table: req.table,
        columns_sent: false,
        faults: env.faults.clone(),
    };
    for change in &backlog {
        sent_rv = sent_rv.max(change.obj.rv);
        if let Some(l) = out.line(change, &req.filter) {
            tokio::select! {
                sent = send(l) => if !sent { return },
                changed = drops.changed() => {
                    if changed.is_ok() {
                        cut(&tx).await;
                    }
                    return;
                }
            }
        }
    }
    drop(backlog);
    if req.from.is_none() && req.initial_events_end {
        let rv = env.store.bookmark_revision(req.kind).max(sent_rv);
        if !drain(&tx, &mut live, &req, &mut out, &send, &mut sent_rv).await
            || !send(bookmark(req.kind, rv.max(sent_rv), true)).await
        {
            return;
        }
    }
    let deadline = Instant::now() + req.timeout;
    let every = req.bookmark_every.max(Duration::from_millis(10));
    let mut ticks = interval_at(Instant::now() + every, every);
    loop {
        if env.faults.spec().freeze {
            // Frozen: nothing is sent (changes queue up, as in a stopped server's socket).
            tokio::select! {
                _ = env.faults.thawed() => {}
                _ = env.cancel.cancelled() => return,
                _ = tx.closed() => return,
            }
            continue;
        }
        tokio::select! {
            _ = sleep_until(deadline) => return,
            _ = env.cancel.cancelled() => return,
            _ = tx.closed() => return,
            changed = drops.changed() => {
                if changed.is_ok() {
                    cut(&tx).await;
                }
                return;
            }
            _ = ticks.tick(), if req.bookmarks => {
                if env.faults.spec().no_bookmarks || env.faults.spec().freeze {
                    continue;
                }
                let rv = env.store.bookmark_revision(req.kind);
                if rv < from {
                    continue;
                }
                if !drain(&tx, &mut live, &req, &mut out, &send, &mut sent_rv).await || !send(bookmark(req.kind, rv.max(sent_rv), false)).await {
                    return;
                }
            }
            change = live.recv() => match change {
                Ok(change) if change.obj.rv <= from => {}
                Ok(change) => {
                    sent_rv = sent_rv.max(change.obj.rv);
                    env.faults.thawed().await;
                    if let Some(l) = out.line(&change, &req.filter) {
                        // A client that reads slowly is still cut on time.
                        tokio::select! {
                            sent = send(l) => if !sent { return },
                            changed = drops.changed() => {
                                if changed.is_ok() {
                                    cut(&tx).await;
                                }
                                return;
                            }
                        }
                    }
                }
                // The store was restored from a backup: the server restarted.
                Err(broadcast::error::RecvError::Closed) => {
                    cut(&tx).await;
                    return;
                }
                // Lagged: a slow watcher is cut off, like the real server does; the client
                // resumes from the last revision it saw.
                Err(_) => return,
            },
        }
    }
}

/// Ends the response body with an error: hyper aborts the connection mid-chunk, the way a
/// dropped connection looks to the client. Waits behind what is already queued.
async fn cut(tx: &mpsc::Sender<Chunk>) {
    let _ = tx
        .send(Err(std::io::Error::other("watch dropped by fault injection")))
        .await;
}

/// Sends every change already queued for this watcher; false when the watch must end.
async fn drain<F, Fut>(
    tx: &mpsc::Sender<Chunk>,
    live: &mut broadcast::Receiver<Arc<Change>>,
    req: &WatchRequest,
    out: &mut Renderer,
    send: &F,
    sent_rv: &mut u64,
) -> bool
where
    F: Fn(Bytes) -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    loop {
        match live.try_recv() {
            Ok(change) if change.obj.rv <= req.from.unwrap_or(0) => {}
            Ok(change) => {
                *sent_rv = (*sent_rv).max(change.obj.rv);
                if let Some(l) = out.line(&change, &req.filter) {
                    if !send(l).await {
                        return false;
                    }
                }
            }
            Err(broadcast::error::TryRecvError::Empty) => return true,
            // Restored from a backup: the server restarted, the connection breaks.
            Err(broadcast::error::TryRecvError::Closed) => {
                cut(tx).await;
                return false;
            }
            Err(_) => return false,
        }
    }
}
