//! The event timeline: core/v1 Events merged by uid into a bounded buffer ordered newest
//! first by the instant kubectl shows as LAST SEEN, published as immutable snapshots like the
//! lists. A relist (410 is frequent for events: they are not in the API server's watch cache)
//! merges, never clears; events the server deleted or expired stay, marked, until the bound
//! evicts the oldest. Owns ordering, merging and eviction; must not format or draw.

use std::cmp::Reverse;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::marker::PhantomData;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use super::row::{Health, IntoRow, Row, RowCtx, UnixSecs};
use super::sink::Sink;
use super::store::Publisher;
use super::sync::SyncState;

/// Bounds of one timeline (per context and scope).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimelineBounds {
    /// Most events kept; the oldest by LAST SEEN are evicted first (default 20,000).
    pub max_events: usize,
    /// Events whose LAST SEEN is older than this are evicted (default 24 h).
    pub max_age: Duration,
}

impl Default for TimelineBounds {
    fn default() -> Self {
        TimelineBounds {
            max_events: 20_000,
            max_age: Duration::from_secs(24 * 3600),
        }
    }
}

/// Order of the timeline: known instants newest first, then events with no time at all;
/// ties by event name, then uid (stable, never by a formatted string).
type OrderKey = (bool, Reverse<UnixSecs>, Box<str>, Box<str>);

fn order_key(row: &Row) -> OrderKey {
    let last = row.event.as_ref().and_then(|e| e.last_seen);
    (
        last.is_none(),
        Reverse(last.unwrap_or(UnixSecs::MIN)),
        row.name.clone(),
        row.uid.clone(),
    )
}

/// Reads the wall clock in unix seconds; injectable for tests.
pub type Clock = fn() -> UnixSecs;

fn wall_clock() -> UnixSecs {
    jiff::Timestamp::now().as_second()
}

/// The timeline's writer, one per event informer. Implements [`Sink`] for any event type
/// whose rows carry [`EventInfo`].
pub struct TimelineWriter<T> {
    publisher: Publisher,
    rows: RowCtx,
    by_uid: HashMap<Box<str>, OrderKey>,
    order: BTreeMap<OrderKey, Arc<Row>>,
    relist_seen: Option<HashSet<Box<str>>>,
    bounds: TimelineBounds,
    clock: Clock,
    _obj: PhantomData<fn(T)>,
}

impl<T> TimelineWriter<T> {
    /// A timeline publishing through `publisher`, building rows with the interner `rows`.
    pub fn new(publisher: Publisher, rows: RowCtx, bounds: TimelineBounds) -> Self {
        Self::with_clock(publisher, rows, bounds, wall_clock)
    }

    /// Like [`TimelineWriter::new`] with an injected clock (age bound in tests).
    pub fn with_clock(publisher: Publisher, rows: RowCtx, bounds: TimelineBounds, clock: Clock) -> Self {
        TimelineWriter {
            publisher,
            rows,
            by_uid: HashMap::new(),
            order: BTreeMap::new(),
            relist_seen: None,
            bounds,
            clock,
            _obj: PhantomData,
        }
    }

    fn identity(row: &Row) -> Box<str> {
        if row.uid.is_empty() {
            // Events always have a uid from a real server; fall back to namespace/name.
            format!("{}/{}", row.namespace.as_deref().unwrap_or(""), row.name).into_boxed_str()
        } else {
            row.uid.clone()
        }
    }

    /// Inserts or replaces one event; repeated occurrences (a higher count, a later
    /// lastTimestamp) replace the row in place and move it to its new position.
    fn upsert(&mut self, row: Row) {
        let id = Self::identity(&row);
        if let Some(seen) = self.relist_seen.as_mut() {
            seen.insert(id.clone());
        }
        let key = order_key(&row);
        if let Some(old) = self.by_uid.insert(id, key.clone()) {
            if let Some(prev) = self.order.get(&old) {
                if old == key && **prev == row {
                    return;
                }
            }
            self.order.remove(&old);
        }
        self.order.insert(key, Arc::new(row));
        self.publisher.touch();
        self.evict();
    }

    /// Marks one event as gone from the server (kept, dimmed).
    fn expire(&mut self, id: &str) {
        let Some(key) = self.by_uid.get(id) else { return };
        let Some(row) = self.order.get_mut(key) else {
            return;
        };
        if row.event.as_ref().is_some_and(|e| e.expired) {
            return;
        }
        let mut dimmed = (**row).clone();
        dimmed.health = Health::Done;
        if let Some(e) = dimmed.event.as_mut() {
            Arc::make_mut(e).expired = true;
        }
        *row = Arc::new(dimmed);
        self.publisher.touch();
    }

    /// Drops the oldest events past the count bound and those older than the age bound.
    fn evict(&mut self) {
        while self.order.len() > self.bounds.max_events {
            if let Some((_, row)) = self.order.pop_last() {
                self.by_uid.remove(&Self::identity(&row));
            }
        }
    }

    fn evict_aged(&mut self) {
        let cutoff = (self.clock)() - self.bounds.max_age.as_secs() as i64;
        while let Some((key, _)) = self.order.last_key_value() {
            // Unknown-time events sort last and are the first to go once past the bound.
            let stale = match key.0 {
                true => false,
                false => key.1 .0 < cutoff,
            };
            if !stale {
                break;
            }
            if let Some((_, row)) = self.order.pop_last() {
                self.by_uid.remove(&Self::identity(&row));
                self.publisher.touch();
            }
        }
    }

    /// Events held (expired ones included).
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// True when no event is held.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    fn do_publish(&mut self) {
        self.evict_aged();
        if self.publisher.is_dirty() {
            let rows: Arc<[Arc<Row>]> = self.order.values().cloned().collect();
            self.publisher.publish(rows);
        }
    }
}

impl<T: IntoRow> Sink<T> for TimelineWriter<T> {
    fn init(&mut self) {
        self.relist_seen = Some(HashSet::new());
        if self.publisher.set_state(SyncState::Syncing { received: 0 }) {
            self.do_publish();
        }
    }

    fn init_apply(&mut self, obj: T) {
        // Merged at once: a relist only ever adds or updates; what it lacks is expired at
        // the end.
        self.upsert(obj.into_row(&self.rows));
        let received = self.relist_seen.as_ref().map_or(0, HashSet::len);
        self.publisher.set_state(SyncState::Syncing { received });
    }

    fn init_done(&mut self, rv: Option<String>) {
        if let Some(seen) = self.relist_seen.take() {
            let missing: Vec<Box<str>> = self
                .by_uid
                .keys()
                .filter(|id| !seen.contains(*id))
                .cloned()
                .collect();
            for id in missing {
                self.expire(&id);
            }
        }
        self.publisher.set_listed();
        self.publisher.set_resource_version(rv);
        self.publisher.set_state(SyncState::Live);
        self.do_publish();
    }

    fn apply(&mut self, obj: T) {
        self.upsert(obj.into_row(&self.rows));
    }

    fn delete(&mut self, obj: T) {
        let row = obj.into_row(&self.rows);
        self.expire(&Self::identity(&row));
    }

    fn set_resource_version(&mut self, rv: &str) {
        self.publisher.set_resource_version(Some(rv.to_owned()));
    }

    fn set_state(&mut self, state: SyncState) {
        if self.publisher.set_state(state) {
            self.do_publish();
        }
    }

    fn flush(&mut self) -> Option<Instant> {
        if self.publisher.due() {
            self.do_publish();
        }
        self.publisher.deadline()
    }

    fn publish(&mut self) {
        self.do_publish();
    }
}
