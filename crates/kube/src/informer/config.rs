//! [`InformerConfig`]: the tunables of the list-watch loop (page size, timeouts, backoff,
//! timeline bounds, streaming lists). Owns only their defaults; must not run anything.

use std::sync::Arc;
use std::time::Duration;

use super::encoding::Encodings;
use super::method::StreamingLists;

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
    pub timeline: crate::timeline::TimelineBounds,
    /// How often the server is expected to send a watch bookmark (kube-apiserver: about once
    /// a minute; the demo server: `--bookmark-secs`).
    pub bookmark_interval: Duration,
    /// A watch silent (no event, no bookmark) for this many bookmark intervals is stale.
    pub stale_intervals: u32,
    /// How often a long-lived informer is verified against the server (a paged list compared
    /// with the store; drift repaired); `Duration::ZERO`: never.
    pub verify_every: Duration,
    /// Streaming lists (`sendInitialEvents=true`) for every (re)list, with the context's
    /// memory of servers that refused them (one per context, shared by its informers);
    /// `None`: paged lists only (the default: a sink without a context to share the memory
    /// with would probe alone).
    pub streaming: Option<Arc<StreamingLists>>,
    /// With `streaming` on: informers that ask for JSON stream too (`true`, the default), or
    /// only those that ask for protobuf do and JSON ones page (`false`: `[watch]
    /// streaming_lists = "auto"`; a streamed JSON list was live later than a paged one at
    /// 100k pods on kube-apiserver v1.37.2, a streamed protobuf one sooner, `benches/real_sync`).
    pub stream_json: bool,
    /// A streaming list that brings no event for this long before its end bookmark falls
    /// back to a paged list (and the context lists paged from then on). Measured from the
    /// last event, not the start: 150k objects may take longer in all.
    pub streaming_idle: Duration,
    /// Protobuf for built-in kinds (see `encoding`), with the context's memory of API groups
    /// whose server refused it (one per context, shared by its informers); `None`: JSON only.
    pub protobuf: Option<Arc<Encodings>>,
}

impl InformerConfig {
    /// The silence after which a watch is stale: `stale_intervals × bookmark_interval`.
    pub fn stale_after(&self) -> Duration {
        self.bookmark_interval.saturating_mul(self.stale_intervals.max(1))
    }
}

impl Default for InformerConfig {
    fn default() -> Self {
        InformerConfig {
            page_size: 500,
            watch_timeout: Duration::from_secs(180),
            request_timeout: Duration::from_secs(60),
            backoff_base: Duration::from_secs(1),
            backoff_cap: Duration::from_secs(30),
            timeline: crate::timeline::TimelineBounds::default(),
            bookmark_interval: Duration::from_secs(60),
            stale_intervals: 2,
            verify_every: Duration::from_secs(600),
            streaming: None,
            stream_json: true,
            streaming_idle: Duration::from_secs(60),
            protobuf: Some(Arc::default()),
        }
    }
}
