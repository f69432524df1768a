//! The list-watch loop, ktui's one implementation of it (lists, detail views and the CRD watch
//! all run it): list (a streaming list where the server offers one, see `method`, else paged)
//! then watch from the list's resourceVersion, resume from the last
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
pub mod encoding;
pub mod frames;
pub mod lines;
mod list;
pub mod method;
mod page;
mod stream_list;
mod verify;
mod wait;
mod watch;

pub use config::InformerConfig;
pub use encoding::{Encoding, Encodings};
pub use method::{ListMethod, StreamingLists};
use page::Page;

/// Starts the informer of one kind with the decode type and sink it needs: implemented by
/// `ktui_table`, which owns the slim decode types, so that this module stays free of
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

/// The first delay before a failed page is fetched again mid-list (see `page_backoff`).
pub const PAGE_RETRY_BASE: Duration = Duration::from_millis(250);
/// The longest delay between tries of one page mid-list, unless the server's `Retry-After`
/// asks for more.
pub const PAGE_RETRY_CAP: Duration = Duration::from_secs(4);
/// Failed tries of one page in a row on the short delays; past them the informer's backoff
/// (up to `backoff_cap`) takes over.
pub const PAGE_RETRIES: u32 = 6;

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
    /// Retries of a page the server failed in the middle of a list it has been answering:
    /// short ([`PAGE_RETRY_BASE`] doubling to [`PAGE_RETRY_CAP`]) for [`PAGE_RETRIES`] tries
    /// in a row, then `backoff` takes over (a server that stopped answering is not polled).
    page_backoff: Backoff,
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
    /// Why this informer lists paged although its context streams (its watch is forbidden,
    /// or the server refused the request: see `method`).
    paged: Option<String>,
    /// A 400/422 refusal of a streaming list, remembered for the context once a paged list
    /// of this key succeeds (until then it may be this key's own fault).
    unconfirmed: Option<String>,
    /// Streaming lists in a row that ended cleanly before their end bookmark.
    early_ends: u32,
    /// How the last list or watch answer was encoded.
    encoding: Encoding,
}

/// Where the list-watch loop stands; each step of [`Informer::run`] turns one phase into the
/// next.
#[derive(Debug)]
enum Phase {
    /// Listing into the sink's relist buffer: page by page, `continue_token` being the next
    /// page's; `None` starts a fresh list, a streaming one when the server offers it (then
    /// the same connection goes on as the watch).
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
        let page_backoff = Backoff::new(
            config.backoff_base.min(PAGE_RETRY_BASE),
            config.backoff_cap.min(PAGE_RETRY_CAP),
        );
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
            page_backoff,
            retry_after: None,
            skipped: Vec::new(),
            drift: drift::Newest::default(),
            verified: std::time::Instant::now(),
            ghosts: None,
            paged: None,
            unconfirmed: None,
            early_ends: 0,
            encoding: Encoding::Json,
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
            let streams = self.streams::<T>();
            let spent_in = match phase {
                // A streaming list's step counts its own listing and watching time.
                Phase::Listing { continue_token: None } if streams => None,
                Phase::Listing { .. } | Phase::Verifying { .. } => Some(PhaseTime::Listing),
                Phase::Watching { .. } => Some(PhaseTime::Watching),
                _ => Some(PhaseTime::Waiting),
            };
            phase = match phase {
                Phase::Listing { continue_token: None } if streams => {
                    self.stream_list::<T, S>(&mut sink).await
                }
                Phase::Listing { continue_token } => self.list_page::<T, S>(&mut sink, continue_token).await,
                Phase::Watching { resource_version } => self.watch::<T, S>(&mut sink, resource_version).await,
                Phase::Waiting { reason, resume } => {
                    self.wait(&mut sink, reason).await;
                    match resume {
                        Some(resource_version) => self.resume_after_failure::<T>(resource_version).await,
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
                    self.retry_page(&mut sink, reason).await;
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
            if let Some(spent_in) = spent_in {
                self.stats.spend(spent_in, step.elapsed());
            }
        }
    }

    /// True when the next fresh list is a streaming one: the context streams, its server
    /// has not refused for this key's API group, and this informer neither pages by design
    /// ([`Informer::pages_by_design`]) nor has a reason of its own.
    fn streams<T: Versioned>(&self) -> bool {
        self.paged.is_none()
            && !self.pages_by_design::<T>()
            && self
                .config
                .streaming
                .as_ref()
                .is_some_and(|m| m.refusal(method::group_of(&self.key.url_path())).is_none())
    }

    /// True when this informer's requests ask for protobuf first: its slim type can be
    /// decoded from it, protobuf is on, and the server has not refused it for this key's API
    /// group (see `encoding`).
    fn asks_protobuf<T: Versioned>(&self) -> bool {
        T::PROTOBUF
            && self
                .config
                .protobuf
                .as_ref()
                .is_some_and(|m| m.refusal(method::group_of(&self.key.url_path())).is_none())
    }

    /// Remembers for the context that this key's API group refused protobuf because of `why`.
    fn protobuf_refused(&self, why: &str) {
        if let Some(m) = &self.config.protobuf {
            m.refuse(method::group_of(&self.key.url_path()), why);
        }
    }

    /// Notes the encoding of an answer to a request that asked for protobuf first (`asked`):
    /// a JSON one is the server's refusal.
    fn answered_as(&mut self, asked: bool, answered: Encoding) {
        if asked && answered != Encoding::Protobuf {
            self.protobuf_refused("the server answered JSON to a protobuf Accept");
        }
        self.encoding = answered;
    }

    /// True when this informer asks for the server's printed rows with metadata only
    /// instead of whole objects (its type reads them, see `Versioned::TABLE_ROWS`).
    fn asks_table<T: Versioned>(&self) -> bool {
        T::TABLE_ROWS && !self.metadata_only
    }

    /// True when this informer lists paged whatever its context does, not as a fallback:
    /// it asks for printed rows (how a server shapes a Table's end bookmark varies, and a
    /// misread one would turn streaming off for the whole API group), or it asks for JSON
    /// and `stream_json` is off (`streaming_lists = "auto"`).
    fn pages_by_design<T: Versioned>(&self) -> bool {
        self.asks_table::<T>() || !(self.config.stream_json || self.asks_protobuf::<T>())
    }

    /// Why a list of this informer is paged though its context streams (`None`: it streams,
    /// streaming lists are off, or it pages by design: [`Informer::pages_by_design`]).
    fn paged_because<T: Versioned>(&self) -> Option<String> {
        let memory = self.config.streaming.as_ref()?;
        if self.pages_by_design::<T>() {
            return None;
        }
        self.paged
            .clone()
            .or_else(|| memory.refusal(method::group_of(&self.key.url_path())))
    }

    /// After a failed watch, before watching again from `rv`: probes where the server stands
    /// ([`Informer::probe`]). Older than what was seen: relist from scratch; the probe failed:
    /// back off again (the server is still down); else watch.
    async fn resume_after_failure<T: Versioned>(&mut self, rv: String) -> Phase {
        match self.probe::<T>().await {
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
