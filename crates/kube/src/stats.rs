//! Live counters of one informer, shown by `:informers` next to what its published
//! [`Snapshot`] says (state, resourceVersion, objects). Owns the counters; must not decide
//! anything from them, nor keep copies of what the snapshot already publishes.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::informer::{Encoding, ListMethod};
use super::store::Snapshot;
use super::sync::SyncState;

/// Counters updated by the informer task and read by the UI. Atomics for counts; a short
/// mutex for the bookmark instant (never held across an await).
#[derive(Debug)]
pub struct InformerStats {
    /// When the informer task started.
    pub started: Instant,
    /// Complete lists performed (the first one included).
    pub lists: AtomicU64,
    /// Watch connections re-established after the first (clean end, error or timeout).
    pub reconnects: AtomicU64,
    /// Watch events received (ADDED/MODIFIED/DELETED, bookmarks excluded).
    pub events: AtomicU64,
    /// Bookmarks received.
    pub bookmarks: AtomicU64,
    /// Probes of the server's resourceVersion before resuming a failed watch.
    pub probes: AtomicU64,
    /// Relists that repaired drift (a resourceVersion that went backwards).
    pub drift_repairs: AtomicU64,
    /// Milliseconds the loop spent in each kind of step ([`PhaseTime`]): where an informer
    /// spends its time (a healthy one is nearly always watching).
    pub phase_ms: [AtomicU64; PhaseTime::COUNT],
    last_bookmark: Mutex<Option<Instant>>,
    last_drift: Mutex<Option<(Instant, String)>>,
    last_list: Mutex<Option<ListUse>>,
}

/// How the last complete list was fetched, and why it was paged where the context streams.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListUse {
    /// Streamed or paged.
    pub method: ListMethod,
    /// How the list's answers were encoded (protobuf or JSON).
    pub encoding: Encoding,
    /// Why paged although streaming lists are on (`streaming list refused (422): …`, `no
    /// initial-events-end bookmark (60s without an event)`); `None` when streamed or when
    /// streaming lists are off.
    pub fallback: Option<String>,
}

/// The kinds of step of the list-watch loop whose time [`InformerStats::phase_ms`] adds up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhaseTime {
    /// Fetching list pages.
    Listing = 0,
    /// Inside a watch connection (from the request until it ends).
    Watching = 1,
    /// Backing off after a failure, a 410 or a watch the server closed at once.
    Waiting = 2,
}

impl PhaseTime {
    /// How many kinds there are.
    pub const COUNT: usize = 3;
}

/// A consistent copy of one informer's counters and published snapshot, for drawing.
#[derive(Debug, Clone)]
pub struct StatsView {
    /// Complete lists; relists are `lists - 1`.
    pub lists: u64,
    /// Watch reconnects.
    pub reconnects: u64,
    /// Watch events received.
    pub events: u64,
    /// Bookmarks received.
    pub bookmarks: u64,
    /// Objects held: the published snapshot's rows.
    pub objects: u64,
    /// Last resourceVersion seen: the published snapshot's.
    pub resource_version: Option<String>,
    /// When the last bookmark arrived.
    pub last_bookmark: Option<Instant>,
    /// Drift repairs so far.
    pub drift_repairs: u64,
    /// When the last drift repair happened, and its line (`drift repaired: 37 removed, …`).
    pub last_drift: Option<(Instant, String)>,
    /// How the last complete list was fetched (`None`: none completed yet).
    pub last_list: Option<ListUse>,
    /// Current sync state: the published snapshot's.
    pub state: SyncState,
    /// When the informer started.
    pub started: Instant,
}

impl Default for InformerStats {
    fn default() -> Self {
        InformerStats {
            started: Instant::now(),
            lists: AtomicU64::new(0),
            reconnects: AtomicU64::new(0),
            events: AtomicU64::new(0),
            bookmarks: AtomicU64::new(0),
            probes: AtomicU64::new(0),
            drift_repairs: AtomicU64::new(0),
            phase_ms: Default::default(),
            last_bookmark: Mutex::new(None),
            last_drift: Mutex::new(None),
            last_list: Mutex::new(None),
        }
    }
}

impl InformerStats {
    /// Adds one to a counter.
    pub fn bump(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Adds `spent` to the time of `phase`.
    pub fn spend(&self, phase: PhaseTime, spent: std::time::Duration) {
        let ms = u64::try_from(spent.as_millis()).unwrap_or(u64::MAX);
        self.phase_ms[phase as usize].fetch_add(ms, Ordering::Relaxed);
    }

    /// Milliseconds spent in `phase` so far.
    pub fn spent_ms(&self, phase: PhaseTime) -> u64 {
        self.phase_ms[phase as usize].load(Ordering::Relaxed)
    }

    /// Records a bookmark (its resourceVersion goes to the sink, which publishes it).
    pub fn bookmark(&self) {
        Self::bump(&self.bookmarks);
        match self.last_bookmark.lock() {
            Ok(mut g) => *g = Some(Instant::now()),
            Err(p) => *p.into_inner() = Some(Instant::now()),
        }
    }

    /// Records one drift repair at `at`, described by `line`.
    pub fn drift(&self, at: Instant, line: String) {
        Self::bump(&self.drift_repairs);
        match self.last_drift.lock() {
            Ok(mut g) => *g = Some((at, line)),
            Err(p) => *p.into_inner() = Some((at, line)),
        }
    }

    /// Records how a complete list was fetched.
    pub fn listed(&self, method: ListMethod, encoding: Encoding, fallback: Option<String>) {
        let used = Some(ListUse {
            method,
            encoding,
            fallback,
        });
        match self.last_list.lock() {
            Ok(mut g) => *g = used,
            Err(p) => *p.into_inner() = used,
        }
    }

    /// How the last complete list was fetched.
    pub fn last_list(&self) -> Option<ListUse> {
        match self.last_list.lock() {
            Ok(g) => g.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }

    /// The counters with what `snap` (this informer's latest snapshot) publishes.
    pub fn view(&self, snap: &Snapshot) -> StatsView {
        let last_bookmark = match self.last_bookmark.lock() {
            Ok(g) => *g,
            Err(p) => *p.into_inner(),
        };
        let last_drift = match self.last_drift.lock() {
            Ok(g) => g.clone(),
            Err(p) => p.into_inner().clone(),
        };
        StatsView {
            lists: self.lists.load(Ordering::Relaxed),
            reconnects: self.reconnects.load(Ordering::Relaxed),
            events: self.events.load(Ordering::Relaxed),
            bookmarks: self.bookmarks.load(Ordering::Relaxed),
            objects: snap.rows.len() as u64,
            resource_version: snap.resource_version.clone(),
            last_bookmark,
            drift_repairs: self.drift_repairs.load(Ordering::Relaxed),
            last_drift,
            last_list: self.last_list(),
            state: snap.state.clone(),
            started: self.started,
        }
    }
}
