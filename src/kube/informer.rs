//! One informer task: list (paged) then watch from the list's resourceVersion, resume from
//! the last event/bookmark after a clean end or a non-410 error, relist after 410 Gone, with
//! ktui's own capped backoff and a visible [`SyncState`]. Decodes every object into a slim
//! type and at once into a [`Row`] for its [`StoreWriter`]. Must not know about the UI.
//!
//! Why not `kube_runtime::watcher`: it consumes bookmarks and resourceVersions internally, so
//! `:informers` could not show them, and its backoff resets on every `Ok`. The loop here is
//! the same protocol (see kube-notes.md) with those two things exposed.

use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use futures::StreamExt;
use kube::api::{ListParams, WatchEvent, WatchParams};
use kube::core::Request;
use serde::Deserialize;
use tokio::time::{sleep, sleep_until, timeout, Instant};

use super::backoff::Backoff;
use super::failure::{classify, status_failure, Failure};
use super::key::ResourceKey;
use super::kind::Kind;
use super::row::{IntoRow, RowCtx, Versioned};
use super::sink::{RowSink, Sink};
use super::stats::InformerStats;
use super::store::StoreWriter;
use super::sync::SyncState;

/// Tunables of the list-watch loop.
#[derive(Debug, Clone)]
pub struct InformerConfig {
    /// Objects per list page (`limit`).
    pub page_size: u32,
    /// Server-side watch `timeoutSeconds`; jittered by ±10 % per watch so informers do not
    /// reconnect in lockstep. Cloud load balancers drop idle connections near 240 s.
    pub watch_timeout: Duration,
    /// Deadline for one list page or for a watch to start answering.
    pub request_timeout: Duration,
    /// First and largest retry delay.
    pub backoff_base: Duration,
    /// Largest retry delay.
    pub backoff_cap: Duration,
    /// Bounds of event timelines.
    pub timeline: super::timeline::TimelineBounds,
}

impl Default for InformerConfig {
    fn default() -> Self {
        InformerConfig {
            page_size: 500,
            watch_timeout: Duration::from_secs(180),
            request_timeout: Duration::from_secs(60),
            backoff_base: Duration::from_secs(1),
            backoff_cap: Duration::from_secs(30),
            timeline: super::timeline::TimelineBounds::default(),
        }
    }
}

/// Everything one informer task needs. Built by the pool.
pub struct InformerCtx {
    /// What to list and watch.
    pub key: ResourceKey,
    /// The API client of the current context.
    pub client: kube::Client,
    /// The only writer of this key's slot.
    pub writer: StoreWriter,
    /// Counters shown by `:informers`.
    pub stats: Arc<InformerStats>,
    /// Interner shared across the pool.
    pub rows: RowCtx,
    /// Loop tunables.
    pub config: InformerConfig,
}

/// Runs the informer of one kind: implemented by `crate::table`, which owns the slim decode
/// types, so that this module stays free of kind-specific code.
pub trait Decoders: Send + Sync + 'static {
    /// The informer future for `kind` (usually `run::<KindObj>(ctx)`).
    fn run(&self, kind: &Kind, ctx: InformerCtx) -> BoxFuture<'static, ()>;
}

#[derive(Deserialize)]
#[serde(bound(deserialize = "T: Deserialize<'de>"))]
struct Page<T> {
    #[serde(default)]
    metadata: PageMeta,
    #[serde(default = "Vec::new", deserialize_with = "null_as_empty")]
    items: Vec<T>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct PageMeta {
    #[serde(default)]
    resource_version: Option<String>,
    #[serde(default, rename = "continue")]
    continue_: Option<String>,
}

fn null_as_empty<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Option::<Vec<T>>::deserialize(d)?.unwrap_or_default())
}

/// How a watch connection ended.
enum WatchEnd {
    /// The server closed the stream (timeoutSeconds) or it went idle: resume from `rv`.
    Clean,
    /// 410 Gone: relist.
    Gone,
    /// Error: retry after backoff from the same resourceVersion.
    Failed(Failure),
}

/// The list-watch loop of one key into the row store; runs until its task is aborted by
/// the pool.
pub async fn run<T: IntoRow>(ctx: InformerCtx) {
    let (parts, writer, rows) = ctx.into_parts();
    run_sink::<T, _>(parts, RowSink::<T>::new(writer, rows)).await;
}

impl InformerCtx {
    /// Splits the context into the loop's parts, the slot's writer and the interner, for a
    /// caller that feeds another [`Sink`] (the event timeline).
    pub fn into_parts(self) -> (Loop, StoreWriter, RowCtx) {
        let InformerCtx {
            key,
            client,
            writer,
            stats,
            rows,
            config,
        } = self;
        (
            Loop {
                key,
                client,
                stats,
                config,
            },
            writer,
            rows,
        )
    }
}

/// What the list-watch loop needs besides its sink.
pub struct Loop {
    /// What to list and watch.
    pub key: ResourceKey,
    /// The API client.
    pub client: kube::Client,
    /// Counters shown by `:informers`.
    pub stats: Arc<InformerStats>,
    /// Tunables.
    pub config: InformerConfig,
}

struct Run<S> {
    key: ResourceKey,
    client: kube::Client,
    stats: Arc<InformerStats>,
    config: InformerConfig,
    writer: S,
}

/// The list-watch loop feeding any [`Sink`]; runs until its task is aborted.
pub async fn run_sink<T: Versioned, S: Sink<T>>(parts: Loop, sink: S) {
    let Loop {
        key,
        client,
        stats,
        config,
    } = parts;
    let mut ctx = Run {
        key,
        client,
        stats,
        config,
        writer: sink,
    };
    let mut backoff = Backoff::new(ctx.config.backoff_base, ctx.config.backoff_cap);
    let mut rv: Option<String> = None;
    let mut ever_answered = false;
    loop {
        let resume = match rv.clone() {
            Some(rv) => rv,
            None => match list::<T, S>(&mut ctx).await {
                Ok(list_rv) => {
                    ever_answered = true;
                    backoff.reset();
                    rv = Some(list_rv.clone());
                    list_rv
                }
                Err(Failure::Gone) => {
                    // Expired continue token: start the list over, gently.
                    wait(
                        &mut ctx,
                        &mut backoff,
                        Failure::Other("list expired (410)".into()),
                        true,
                    )
                    .await;
                    continue;
                }
                Err(f) => {
                    ever_answered |= !matches!(f, Failure::Unreachable(_));
                    wait(&mut ctx, &mut backoff, f, ever_answered).await;
                    continue;
                }
            },
        };
        let started = Instant::now();
        match watch::<T, S>(&mut ctx, resume, &mut rv, &mut backoff).await {
            WatchEnd::Clean => {
                InformerStats::bump(&ctx.stats.reconnects);
                if started.elapsed() < Duration::from_secs(1) {
                    // A server that closes watches at once must not make us spin.
                    let d = backoff.next_delay();
                    sleep(d).await;
                }
            }
            WatchEnd::Gone => {
                rv = None;
            }
            WatchEnd::Failed(f) => {
                InformerStats::bump(&ctx.stats.reconnects);
                wait(&mut ctx, &mut backoff, f, true).await;
            }
        }
    }
}

/// Lists every page into the writer's relist buffer and swaps it in; returns the list's
/// resourceVersion.
async fn list<T: Versioned, S: Sink<T>>(ctx: &mut Run<S>) -> Result<String, Failure> {
    ctx.writer.init();
    sync_stats(ctx);
    let path = ctx.key.url_path();
    let mut continue_token: Option<String> = None;
    loop {
        let lp = ListParams {
            label_selector: ctx.key.labels.as_deref().map(str::to_owned),
            field_selector: ctx.key.fields.as_deref().map(str::to_owned),
            limit: Some(ctx.config.page_size),
            continue_token: continue_token.take(),
            ..ListParams::default()
        };
        let req = Request::new(&path)
            .list(&lp)
            .map_err(|e| Failure::Other(e.to_string()))?;
        let page: Page<T> = match timeout(ctx.config.request_timeout, ctx.client.request(req)).await {
            Err(_) => return Err(Failure::Unreachable("list timed out".into())),
            Ok(res) => res.map_err(|e| classify(&e, "list"))?,
        };
        for item in page.items {
            ctx.writer.init_apply(item);
        }
        ctx.writer.maybe_publish();
        sync_stats(ctx);
        match page.metadata.continue_ {
            Some(c) if !c.is_empty() => continue_token = Some(c),
            _ => {
                let rv = page
                    .metadata
                    .resource_version
                    .filter(|v| !v.is_empty())
                    .ok_or_else(|| {
                        Failure::Other("list has no metadata.resourceVersion (cannot watch)".into())
                    })?;
                ctx.writer.init_done(Some(rv.clone()));
                InformerStats::bump(&ctx.stats.lists);
                ctx.stats.set_resource_version(&rv);
                sync_stats(ctx);
                return Ok(rv);
            }
        }
    }
}

/// Watches from `from`; keeps `rv` at the newest resourceVersion seen.
async fn watch<T: Versioned, S: Sink<T>>(
    ctx: &mut Run<S>,
    from: String,
    rv: &mut Option<String>,
    backoff: &mut Backoff,
) -> WatchEnd {
    let base = ctx.config.watch_timeout.as_secs().max(10) as u32;
    let jitter = rand::random_range(0..=base / 10);
    let server_timeout = base - base / 20 + jitter;
    let wp = WatchParams {
        label_selector: ctx.key.labels.as_deref().map(str::to_owned),
        field_selector: ctx.key.fields.as_deref().map(str::to_owned),
        timeout: Some(server_timeout),
        bookmarks: true,
        send_initial_events: false,
    };
    let req = match Request::new(ctx.key.url_path()).watch(&wp, &from) {
        Ok(r) => r,
        Err(e) => return WatchEnd::Failed(Failure::Other(e.to_string())),
    };
    let stream = match timeout(ctx.config.request_timeout, ctx.client.request_events::<T>(req)).await {
        Err(_) => return WatchEnd::Failed(Failure::Unreachable("watch did not start".into())),
        Ok(Err(e)) => {
            let f = classify(&e, "watch");
            return if f == Failure::Gone {
                WatchEnd::Gone
            } else {
                WatchEnd::Failed(f)
            };
        }
        Ok(Ok(s)) => s,
    };
    let mut stream = std::pin::pin!(stream);
    if !ctx.writer.state().is_live() {
        ctx.writer.set_state(SyncState::Live);
        sync_stats(ctx);
    }
    // The server ends the stream after `server_timeout`; silence well past that means a dead
    // connection (a VPN that dropped without a FIN).
    let idle = Duration::from_secs(u64::from(server_timeout) + 15);
    loop {
        let deadline = ctx.writer.deadline();
        let item = tokio::select! {
            _ = sleep_until(deadline.unwrap_or_else(Instant::now)), if deadline.is_some() => {
                ctx.writer.maybe_publish();
                continue;
            }
            item = timeout(idle, stream.next()) => item,
        };
        let event = match item {
            Err(_) | Ok(None) => {
                ctx.writer.publish();
                return WatchEnd::Clean;
            }
            Ok(Some(Err(e))) => {
                ctx.writer.publish();
                return WatchEnd::Failed(classify(&e, "watch"));
            }
            Ok(Some(Ok(ev))) => ev,
        };
        match event {
            WatchEvent::Added(obj) | WatchEvent::Modified(obj) => {
                remember(ctx, rv, obj.version());
                ctx.writer.apply(obj);
                backoff.reset();
                InformerStats::bump(&ctx.stats.events);
            }
            WatchEvent::Deleted(obj) => {
                remember(ctx, rv, obj.version());
                ctx.writer.delete(obj);
                backoff.reset();
                InformerStats::bump(&ctx.stats.events);
            }
            WatchEvent::Bookmark(bm) => {
                ctx.stats.bookmark(&bm.metadata.resource_version);
                ctx.writer
                    .set_resource_version(bm.metadata.resource_version.clone());
                *rv = Some(bm.metadata.resource_version);
            }
            WatchEvent::Error(status) => {
                ctx.writer.publish();
                return if status.code == 410 {
                    WatchEnd::Gone
                } else {
                    WatchEnd::Failed(status_failure(status.code, &status.message, "watch"))
                };
            }
        }
        ctx.stats
            .objects
            .store(ctx.writer.len() as u64, std::sync::atomic::Ordering::Relaxed);
    }
}

fn remember<T, S: Sink<T>>(ctx: &mut Run<S>, rv: &mut Option<String>, seen: Option<&str>) {
    if let Some(v) = seen.filter(|v| !v.is_empty()) {
        *rv = Some(v.to_owned());
        ctx.writer.set_resource_version(v.to_owned());
        ctx.stats.set_resource_version(v);
    }
}

/// Shows why we wait, then sleeps the backoff delay.
async fn wait<T, S: Sink<T>>(ctx: &mut Run<S>, backoff: &mut Backoff, failure: Failure, answered: bool) {
    let mut delay = backoff.next_delay();
    let resource = ctx.key.kind.plural().to_owned();
    let state = match failure {
        Failure::Forbidden(verb) => {
            // RBAC rarely changes: retry slowly, at the cap, without a spinner.
            delay = delay.max(ctx.config.backoff_cap);
            SyncState::Forbidden {
                verb: verb.to_owned(),
                resource,
            }
        }
        Failure::NotFound => {
            delay = delay.max(ctx.config.backoff_cap);
            SyncState::NotFound
        }
        Failure::Rejected(reason) => {
            delay = delay.max(ctx.config.backoff_cap);
            SyncState::Rejected { reason }
        }
        Failure::Unreachable(reason) if !answered => SyncState::Unreachable { reason },
        Failure::Unreachable(error) | Failure::Other(error) => SyncState::Reconnecting {
            attempt: backoff.attempt(),
            retry_in: delay,
            error,
        },
        Failure::Gone => SyncState::Reconnecting {
            attempt: backoff.attempt(),
            retry_in: delay,
            error: "resourceVersion too old (410)".into(),
        },
    };
    tracing::debug!(key = %ctx.key, ?delay, state = %state, "informer waits");
    ctx.writer.set_state(state);
    ctx.writer.publish();
    sync_stats(ctx);
    sleep(delay).await;
}

fn sync_stats<T, S: Sink<T>>(ctx: &Run<S>) {
    ctx.stats.set_state(ctx.writer.state());
    ctx.stats
        .objects
        .store(ctx.writer.len() as u64, std::sync::atomic::Ordering::Relaxed);
}
