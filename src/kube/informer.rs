//! The list-watch loop, ktui's one implementation of it (lists, detail views and the CRD watch
//! all run it): list (paged) then watch from the list's resourceVersion, resume from the last
//! event/bookmark after a clean end or a non-410 error, relist after 410 Gone or a
//! resourceVersion that went backwards (`drift`), with ktui's own capped backoff and a visible
//! [`SyncState`]. Its position is an explicit [`Phase`]; what the
//! events become is its [`Sink`]'s business. Must not know about the UI or about kinds.
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
use tokio::time::{sleep, sleep_until, timeout, Instant};

use super::backoff::Backoff;
use super::failure::{self, classify, status_failure, Failure};
use super::key::ResourceKey;
use super::kind::Kind;
use super::row::{RowCtx, Versioned};
use super::sink::Sink;
use super::stats::{InformerStats, PhaseTime};
use super::store::Publisher;
use super::sync::SyncState;

mod config;
mod drift;
pub mod lines;
mod page;
mod verify;
mod wait;
mod watch;

pub use config::InformerConfig;
use page::Page;

/// Starts the informer of one kind with the decode type and sink it needs: implemented by
/// `crate::table`, which owns the slim decode types, so that this module stays free of
/// kind-specific code.
pub trait Decoders: Send + Sync + 'static {
    /// The informer future for `kind`: `informer.run::<KindObj, _>(sink)` with a sink that
    /// publishes through `publisher`, interning with `rows`.
    fn run(
        &self,
        kind: &Kind,
        informer: Informer,
        publisher: Publisher,
        rows: RowCtx,
    ) -> BoxFuture<'static, ()>;
}

/// One informer: what it lists and watches, with what, and the loop's retry memory. The only
/// carrier of the list-watch loop; [`Informer::run`] consumes it.
pub struct Informer {
    key: ResourceKey,
    client: kube::Client,
    stats: Arc<InformerStats>,
    config: InformerConfig,
    /// Ask for `PartialObjectMetadata` only (the CRD watch needs no more).
    metadata_only: bool,
    backoff: Backoff,
    /// The server has answered at least once (a complete list, or an HTTP error): from then
    /// on a connection failure reads "reconnecting", before it "unreachable".
    answered: bool,
    /// Since when the server has said nothing (no event, bookmark or list), once a watch
    /// went silent past [`InformerConfig::stale_after`]; cleared by the next word.
    stale: Option<Instant>,
    /// Watches in a row that went silent; the second one relists.
    silent_ends: u32,
    /// 410s in a row without a watch event between them: the first relists at once, later
    /// ones back off on `gone_backoff` (a server answering every watch with 410 must not
    /// make the loop relist in a tight loop).
    gone_streak: u32,
    gone_backoff: Backoff,
    /// The server's `Retry-After` on the last failed request; the next wait is at least this.
    retry_after: Option<Duration>,
    /// Objects of the list in progress that could not be decoded (`kind/ns/name: error`).
    skipped: Vec<String>,
    /// The newest resourceVersion seen, and a step back waiting for its repairing relist.
    drift: drift::Newest,
    /// When the store was last listed or verified (see `verify`).
    verified: std::time::Instant,
    /// A verification waiting for the watch to pass its list's resourceVersion.
    ghosts: Option<verify::GhostCheck>,
}

/// Where the list-watch loop stands; each step of [`Informer::run`] turns one phase into the
/// next.
#[derive(Debug)]
enum Phase {
    /// Listing page by page into the sink's relist buffer; `continue_token` is the next page's
    /// (`None`: the first page of a fresh list).
    Listing { continue_token: Option<String> },
    /// Watching from `resource_version`: the list's, then the newest event's or bookmark's.
    Watching { resource_version: String },
    /// Backing off because of `reason` (shown as the sync state), then relisting
    /// (`resume: None`) or watching again from `resume`.
    Waiting { reason: Failure, resume: Option<String> },
    /// Pausing silently before watching from `resume` again: the server closed the last
    /// watch at once, and must not make the loop spin.
    Pausing { resume: String },
    /// Backing off before a relist: the server answered 410 again right after a relist.
    Relisting { after: Duration },
    /// Backing off because of `reason`, then fetching the page of `continue_token` again:
    /// a failed page does not restart the list (only an expired token, 410, does).
    RetryingPage { reason: Failure, continue_token: String },
    /// Comparing a fresh paged list with the store between two watches, then watching from
    /// `resume` again (see `verify`).
    Verifying { resume: String },
}

/// How a watch connection ended.
enum WatchEnd {
    /// The server closed the stream (timeoutSeconds) or it went idle: resume.
    Clean,
    /// 410 Gone: relist.
    Gone,
    /// Error: retry after backoff from the same resourceVersion.
    Failed(Failure),
    /// Neither an event nor a bookmark since this instant, for longer than the stale limit.
    Silent(Instant),
    /// An event or bookmark older than the newest resourceVersion seen: relist from scratch.
    Backwards,
}

impl Informer {
    /// An informer of `key` over `client`, counting into `stats`.
    pub fn new(
        key: ResourceKey,
        client: kube::Client,
        stats: Arc<InformerStats>,
        config: InformerConfig,
    ) -> Self {
        let backoff = Backoff::new(config.backoff_base, config.backoff_cap);
        let gone_backoff = Backoff::new(config.backoff_base, config.backoff_cap);
        Informer {
            key,
            client,
            stats,
            config,
            metadata_only: false,
            backoff,
            answered: false,
            stale: None,
            silent_ends: 0,
            gone_streak: 0,
            gone_backoff,
            retry_after: None,
            skipped: Vec::new(),
            drift: drift::Newest::default(),
            verified: std::time::Instant::now(),
            ghosts: None,
        }
    }

    /// The loop's tunables (a sink may need its bounds).
    pub fn config(&self) -> &InformerConfig {
        &self.config
    }

    /// What it lists and watches (a sink may need its scope).
    pub fn key(&self) -> &ResourceKey {
        &self.key
    }

    /// Lists and watches `PartialObjectMetadata` instead of whole objects.
    pub fn metadata_only(mut self) -> Self {
        self.metadata_only = true;
        self
    }

    /// The loop: lists, watches and waits, feeding `sink` with objects decoded as `T`; runs
    /// until its task is aborted.
    pub async fn run<T: Versioned, S: Sink<T>>(mut self, mut sink: S) {
        let mut phase = Phase::Listing { continue_token: None };
        loop {
            let step = Instant::now();
            let spent_in = match phase {
                Phase::Listing { .. } | Phase::Verifying { .. } => PhaseTime::Listing,
                Phase::Watching { .. } => PhaseTime::Watching,
                _ => PhaseTime::Waiting,
            };
            phase = match phase {
                Phase::Listing { continue_token } => self.list_page::<T, S>(&mut sink, continue_token).await,
                Phase::Watching { resource_version } => self.watch::<T, S>(&mut sink, resource_version).await,
                Phase::Waiting { reason, resume } => {
                    self.wait(&mut sink, reason).await;
                    match resume {
                        Some(resource_version) => self.resume_after_failure(resource_version).await,
                        None => Phase::Listing { continue_token: None },
                    }
                }
                Phase::Pausing { resume } => {
                    sleep(self.backoff.next_delay()).await;
                    Phase::Watching {
                        resource_version: resume,
                    }
                }
                Phase::RetryingPage {
                    reason,
                    continue_token,
                } => {
                    self.wait(&mut sink, reason).await;
                    Phase::Listing {
                        continue_token: Some(continue_token),
                    }
                }
                Phase::Verifying { resume } => self.verify::<T, S>(&mut sink, resume).await,
                Phase::Relisting { after } => {
                    let state = SyncState::Reconnecting {
                        attempt: self.gone_streak,
                        retry_in: after,
                        error: "resourceVersion too old (410) again".into(),
                    };
                    sink.set_state(state);
                    sink.publish();
                    sleep(after).await;
                    Phase::Listing { continue_token: None }
                }
            };
            self.stats.spend(spent_in, step.elapsed());
        }
    }

    /// Lists one page into the sink's relist buffer; after the last page, ends the relist at
    /// the list's resourceVersion and watches from it.
    async fn list_page<T: Versioned, S: Sink<T>>(
        &mut self,
        sink: &mut S,
        continue_token: Option<String>,
    ) -> Phase {
        if continue_token.is_none() {
            sink.init();
            self.skipped.clear();
            self.ghosts = None;
        }
        let page = match self.fetch_page::<T>(continue_token.clone()).await {
            Ok(page) => page,
            Err(Failure::Gone) => {
                // Expired continue token: start the list over, gently.
                return Phase::Waiting {
                    reason: Failure::Other("list expired (410)".into()),
                    resume: None,
                };
            }
            Err(f) => {
                self.answered |= !matches!(f, Failure::Unreachable(_));
                return match continue_token {
                    Some(continue_token) => Phase::RetryingPage {
                        reason: f,
                        continue_token,
                    },
                    None => Phase::Waiting {
                        reason: f,
                        resume: None,
                    },
                };
            }
        };
        for item in page.items {
            sink.init_apply(item);
        }
        sink.flush();
        if let Some(c) = page.metadata.continue_.filter(|c| !c.is_empty()) {
            return Phase::Listing {
                continue_token: Some(c),
            };
        }
        let Some(rv) = page.metadata.resource_version.filter(|v| !v.is_empty()) else {
            self.answered = true;
            return Phase::Waiting {
                reason: Failure::Other("list has no metadata.resourceVersion (cannot watch)".into()),
                resume: None,
            };
        };
        if !self.skipped.is_empty() {
            tracing::warn!(key = %self.key, skipped = self.skipped.len(), first = %self.skipped[0], "undecodable objects skipped");
        }
        sink.unreadable(page::unreadable_line(&self.skipped));
        let back = self
            .drift
            .pending
            .take()
            .or_else(|| self.drift.older(&rv, "list"));
        sink.init_done(Some(rv.clone()));
        self.drift.reset(&rv);
        self.verified = std::time::Instant::now();
        if let Some(back) = back {
            self.drift_repaired(&*sink, &back);
        }
        InformerStats::bump(&self.stats.lists);
        self.answered = true;
        self.backoff.reset();
        self.stale = None;
        self.silent_ends = 0;
        Phase::Watching { resource_version: rv }
    }

    /// Fetches one page; objects that cannot be decoded are skipped into `self.skipped`.
    /// A failure's `Retry-After` is kept for the next wait.
    async fn fetch_page<T: Versioned>(&mut self, continue_token: Option<String>) -> Result<Page<T>, Failure> {
        let lp = ListParams {
            label_selector: self.key.labels.as_deref().map(str::to_owned),
            field_selector: self.key.fields.as_deref().map(str::to_owned),
            limit: Some(self.config.page_size),
            continue_token,
            ..ListParams::default()
        };
        let path = Request::new(self.key.url_path());
        let req = if self.metadata_only {
            path.list_metadata(&lp)
        } else {
            path.list(&lp)
        }
        .map_err(|e| Failure::Other(e.to_string()))?;
        let body = self.send_list(req).await?;
        let (page, skipped) = page::decode::<T>(&body, self.key.kind.singular())
            .map_err(|e| Failure::Other(failure::one_line(&format!("list could not be decoded: {e}"))))?;
        self.skipped.extend(skipped);
        Ok(page)
    }

    /// Sends one list request; the body of a successful answer, else the failure (its
    /// `Retry-After` kept for the next wait).
    async fn send_list(&mut self, req: http::Request<Vec<u8>>) -> Result<bytes::Bytes, Failure> {
        let client = self.client.clone();
        let exchange = async move {
            let res = client.send(req.map(kube::client::Body::from)).await?;
            let status = res.status();
            let retry = page::retry_after(res.headers());
            let body = http_body_util::BodyExt::collect(res.into_body())
                .await?
                .to_bytes();
            Ok::<_, kube::Error>((status, retry, body))
        };
        let (status, retry, body) = match timeout(self.config.request_timeout, exchange).await {
            Err(_) => return Err(Failure::Unreachable("list timed out".into())),
            Ok(Err(e)) => return Err(classify(&e, "list")),
            Ok(Ok(answer)) => answer,
        };
        if !status.is_success() {
            self.retry_after = retry;
            let message = serde_json::from_slice::<serde_json::Value>(&body)
                .ok()
                .and_then(|v| v.get("message").and_then(|m| m.as_str()).map(str::to_owned))
                .unwrap_or_else(|| status.canonical_reason().unwrap_or("").to_owned());
            return Err(status_failure(status.as_u16(), &message, "list"));
        }
        Ok(body)
    }

    /// After a failed watch, before watching again from `rv`: probes where the server stands
    /// ([`Informer::probe`]). Older than what was seen: relist from scratch; the probe failed:
    /// back off again (the server is still down); else watch.
    async fn resume_after_failure(&mut self, rv: String) -> Phase {
        match self.probe().await {
            Ok(None) => Phase::Watching { resource_version: rv },
            Ok(Some(back)) => {
                tracing::warn!(key = %self.key, newest = back.newest, server = back.seen, "server's resourceVersion went backwards; relisting");
                self.drift.pending = Some(back);
                Phase::Listing { continue_token: None }
            }
            Err(reason) => {
                self.answered |= !matches!(reason, Failure::Unreachable(_));
                Phase::Waiting {
                    reason,
                    resume: Some(rv),
                }
            }
        }
    }
}
