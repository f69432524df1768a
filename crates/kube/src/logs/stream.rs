//! One source's stream task: `GET pods/NAME/log` for one container (kube's
//! `Api::<Pod>::log_stream`), bytes split into lines into the view's hub, resumed after a
//! drop with `sinceTime` of the last line and de-duplicated, reopened on a container restart,
//! paused while the container waits. Must not format for a screen.

use std::sync::Arc;
use std::time::Duration;

use futures::AsyncBufReadExt;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, LogParams};
use tokio::sync::watch;

use super::cursor::Cursor;
use super::hub::{LogHub, SourceState};
use super::lines::{parse, Splitter};
use super::pods::{CState, ContainerInfo};
use crate::backoff::Backoff;
use crate::failure::{classify, one_line, Failure};

/// What to ask the server for; the same for every source of a view.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StreamPlan {
    /// `previous=true`: the last terminated instance (read once).
    pub previous: bool,
    /// `follow=true` (off for previous and head reads).
    pub follow: bool,
    /// `tailLines` of the first request.
    pub tail: Option<i64>,
    /// `sinceSeconds` of the first request.
    pub since_seconds: Option<i64>,
    /// Stop after this many lines (the `head` window).
    pub head: Option<usize>,
    /// `limitBytes` of each request.
    pub limit_bytes: Option<i64>,
    /// Bytes kept of one line; the rest is cut with a marker.
    pub max_line: usize,
}

/// What the pod watch knows of the source's container.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Status {
    /// The container's spec and status (`None` before the pod is seen).
    pub container: Option<ContainerInfo>,
    /// The pod is gone.
    pub deleted: bool,
}

/// Identity of a source's stream.
#[derive(Debug, Clone)]
pub struct SourceSpec {
    /// Namespace of the pod.
    pub namespace: String,
    /// Pod name.
    pub pod: String,
    /// Container name.
    pub container: String,
    /// Its index in the hub's source table.
    pub index: usize,
}

/// Runs until the source is finished (pod deleted, forbidden, a one-shot read done) or the
/// task is aborted.
pub async fn run_source(
    client: kube::Client,
    spec: SourceSpec,
    plan: StreamPlan,
    hub: Arc<LogHub>,
    mut status: watch::Receiver<Status>,
) {
    let api: Api<Pod> = Api::namespaced(client, &spec.namespace);
    let mut cursor = Cursor::default();
    let mut backoff = Backoff::new(Duration::from_millis(300), Duration::from_secs(10));
    let mut connected_restarts: Option<u32> = None;
    let mut delivered = 0usize;
    let i = spec.index;
    loop {
        let now = status.borrow_and_update().clone();
        if now.deleted {
            hub.set_state(i, SourceState::PodDeleted);
            return;
        }
        // Nothing to read yet: wait for the container to start (no request in vain).
        if !plan.previous && cursor.last().is_none() {
            if let Some(reason) = not_started(&now) {
                hub.set_state(i, SourceState::Waiting(reason));
                if status.changed().await.is_err() {
                    return;
                }
                continue;
            }
        }
        let restarts = now.container.as_ref().map_or(0, |c| c.restarts);
        let lp = LogParams {
            container: Some(spec.container.clone()),
            follow: plan.follow,
            previous: plan.previous,
            timestamps: true,
            limit_bytes: plan.limit_bytes,
            since_time: cursor.since_time(),
            tail_lines: if cursor.last().is_none() { plan.tail } else { None },
            since_seconds: if cursor.last().is_none() {
                plan.since_seconds
            } else {
                None
            },
            pretty: false,
        };
        if cursor.last().is_none() && connected_restarts.is_none() {
            hub.set_state(i, SourceState::Connecting);
        }
        let reader = match api.log_stream(&spec.pod, &lp).await {
            Ok(r) => r,
            Err(e) => {
                match classify(&e, "get") {
                    Failure::Forbidden(_) => hub.set_state(i, SourceState::Forbidden),
                    Failure::NotFound => hub.set_state(i, SourceState::PodDeleted),
                    Failure::Rejected(msg) if plan.previous => hub.set_state(i, SourceState::NoPrevious(msg)),
                    Failure::Rejected(msg) => {
                        let state = match msg.split_once("is waiting to start: ") {
                            Some((_, reason)) => SourceState::Waiting(reason.to_owned()),
                            None => SourceState::Failed(msg),
                        };
                        hub.set_state(i, state);
                        // Try again when the pod changes (or after a while).
                        let _ = tokio::time::timeout(Duration::from_secs(10), status.changed()).await;
                        continue;
                    }
                    other => {
                        let why = match other {
                            Failure::Unreachable(w) | Failure::Other(w) => w,
                            _ => one_line(&e.to_string()),
                        };
                        let delay = backoff.next_delay();
                        hub.set_state(
                            i,
                            SourceState::Reconnecting {
                                attempt: backoff.attempt(),
                                why,
                            },
                        );
                        tokio::time::sleep(delay).await;
                        continue;
                    }
                }
                return;
            }
        };
        let state = match connected_restarts {
            Some(before) if restarts > before => SourceState::Restarted,
            _ if plan.follow => SourceState::Following,
            _ => SourceState::Connecting,
        };
        hub.set_state(i, state);
        connected_restarts = Some(restarts);
        let got = read_all(reader, &plan, &hub, i, &mut cursor, &mut delivered).await;
        if got > 0 {
            backoff.reset();
        }
        if !plan.follow || plan.head.is_some_and(|h| delivered >= h) {
            hub.set_state(i, SourceState::Complete);
            return;
        }
        // The stream ended: the container stopped, the pod went away, or the connection
        // dropped. Decide from the pod's latest status.
        let now = status.borrow_and_update().clone();
        if now.deleted {
            hub.set_state(i, SourceState::PodDeleted);
            return;
        }
        match now.container.as_ref().map(|c| (&c.state, c.restarts)) {
            Some((CState::Running(_), r)) if r == restarts => {
                let delay = backoff.next_delay();
                hub.set_state(
                    i,
                    SourceState::Reconnecting {
                        attempt: backoff.attempt(),
                        why: "stream ended".into(),
                    },
                );
                tokio::select! {
                    _ = tokio::time::sleep(delay) => {}
                    _ = status.changed() => {}
                }
            }
            Some((CState::Running(_), _)) => {}
            Some((
                CState::Terminated {
                    reason, exit_code, ..
                },
                _,
            )) => {
                hub.set_state(i, SourceState::Terminated(format!("{reason} (exit {exit_code})")));
                if status.changed().await.is_err() {
                    return;
                }
            }
            Some((CState::Waiting(reason), _)) => {
                hub.set_state(i, SourceState::Waiting(reason.to_string()));
                if status.changed().await.is_err() {
                    return;
                }
            }
            _ => {
                if status.changed().await.is_err() {
                    return;
                }
            }
        }
    }
}

/// Why the container has no log to read yet, if so (`ContainerCreating`, `Pending`).
fn not_started(s: &Status) -> Option<String> {
    let Some(c) = &s.container else {
        return Some("Pending".into());
    };
    match &c.state {
        CState::Unknown => Some("Pending".into()),
        CState::Waiting(r) if !c.has_previous => Some(r.to_string()),
        _ => None,
    }
}

/// Reads one response to its end into the hub; returns how many new lines it delivered.
async fn read_all(
    mut reader: impl futures::AsyncBufRead + Unpin,
    plan: &StreamPlan,
    hub: &LogHub,
    i: usize,
    cursor: &mut Cursor,
    delivered: &mut usize,
) -> usize {
    let mut splitter = Splitter::new(plan.max_line);
    let mut replay = cursor.replay();
    let mut batch = Vec::new();
    let mut got = 0;
    let source = u32::try_from(i).unwrap_or(u32::MAX);
    loop {
        let (n, end) = match reader.fill_buf().await {
            Ok([]) | Err(_) => (0, true),
            Ok(chunk) => {
                splitter.push(chunk, &mut |raw| batch.push(parse(&raw, true)));
                (chunk.len(), false)
            }
        };
        if end {
            batch.extend(splitter.finish().map(|raw| parse(&raw, true)));
        } else {
            reader.consume_unpin(n);
        }
        let mut fresh = Vec::with_capacity(batch.len());
        for line in batch.drain(..) {
            if plan.head.is_some_and(|h| *delivered >= h) {
                break;
            }
            if cursor.accept(&mut replay, line.ts) {
                *delivered += 1;
                fresh.push(line);
            }
        }
        if !fresh.is_empty() {
            got += fresh.len();
            let mut s = hub.lock();
            for line in fresh {
                s.buffer.push(source, line.ts, line.text);
            }
            if let Some(src) = s.sources.get_mut(i) {
                src.last_ts = cursor.last().or(src.last_ts);
            }
            drop(s);
            hub.changed();
        }
        if end || plan.head.is_some_and(|h| *delivered >= h) {
            return got;
        }
    }
}
