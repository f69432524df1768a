//! Live counters of one informer, shown by `:informers`. Owns the counters; must not decide
//! anything from them.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::sync::SyncState;

/// Counters updated by the informer task and read by the UI. Atomics for counts; a short
/// mutex for the few strings (never held across an await).
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
    /// Objects currently held.
    pub objects: AtomicU64,
    inner: Mutex<StatsInner>,
}

#[derive(Debug, Default, Clone)]
struct StatsInner {
    resource_version: Option<String>,
    last_bookmark: Option<Instant>,
    state: SyncState,
}

/// A consistent copy of [`InformerStats`] for drawing.
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
    /// Objects held.
    pub objects: u64,
    /// Last resourceVersion seen.
    pub resource_version: Option<String>,
    /// When the last bookmark arrived.
    pub last_bookmark: Option<Instant>,
    /// Current sync state.
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
            objects: AtomicU64::new(0),
            inner: Mutex::new(StatsInner::default()),
        }
    }
}

impl InformerStats {
    fn with_inner(&self, f: impl FnOnce(&mut StatsInner)) {
        match self.inner.lock() {
            Ok(mut g) => f(&mut g),
            Err(p) => f(&mut p.into_inner()),
        }
    }

    /// Adds one to a counter.
    pub fn bump(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Records the resourceVersion the informer would resume from.
    pub fn set_resource_version(&self, rv: &str) {
        self.with_inner(|i| i.resource_version = Some(rv.to_owned()));
    }

    /// Records a bookmark with its resourceVersion.
    pub fn bookmark(&self, rv: &str) {
        Self::bump(&self.bookmarks);
        self.with_inner(|i| {
            i.resource_version = Some(rv.to_owned());
            i.last_bookmark = Some(Instant::now());
        });
    }

    /// Records the sync state.
    pub fn set_state(&self, state: &SyncState) {
        self.with_inner(|i| i.state = state.clone());
    }

    /// A copy for drawing.
    pub fn view(&self) -> StatsView {
        let inner = match self.inner.lock() {
            Ok(g) => g.clone(),
            Err(p) => p.into_inner().clone(),
        };
        StatsView {
            lists: self.lists.load(Ordering::Relaxed),
            reconnects: self.reconnects.load(Ordering::Relaxed),
            events: self.events.load(Ordering::Relaxed),
            bookmarks: self.bookmarks.load(Ordering::Relaxed),
            objects: self.objects.load(Ordering::Relaxed),
            resource_version: inner.resource_version,
            last_bookmark: inner.last_bookmark,
            state: inner.state,
            started: self.started,
        }
    }
}
