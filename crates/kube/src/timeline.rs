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
use super::rows::Rows;
use super::sink::Sink;
use super::store::Publisher;
use super::sync::SyncState;

/// Bounds of one timeline (per context and scope). They keep events the server no longer
/// holds (deleted, or past its `--event-ttl`) from piling up, and never hide one it still
/// holds: only expired events are evicted, by either bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimelineBounds {
    /// Most events kept; beyond it the oldest expired ones by LAST SEEN are evicted (default
    /// 20,000; live events count but are never evicted).
    pub max_events: usize,
    /// Expired events whose LAST SEEN is older than this are evicted (default 24 h).
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

/// Whether the server no longer holds this event (see [`super::row::EventInfo::expired`]).
fn is_expired(row: &Row) -> bool {
    row.event.as_ref().is_some_and(|e| e.expired)
}

/// Order of the timeline: known instants newest first, then events with no time at all;
/// ties by event name, then by first arrival (a sequence number the writer hands out once per
/// uid: a key holds no copy of the uid, which the writer's index keeps once).
type OrderKey = (bool, Reverse<UnixSecs>, Arc<str>, u64);

fn order_key(row: &Row, seq: u64) -> OrderKey {
    let last = row.event.as_ref().and_then(|e| e.last_seen);
    (
        last.is_none(),
        Reverse(last.unwrap_or(UnixSecs::MIN)),
        row.name.clone(),
        seq,
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
    /// Sequence numbers of the events the relist in progress has listed.
    relist_seen: Option<HashSet<u64>>,
    bounds: TimelineBounds,
    clock: Clock,
    /// The next event's tie-breaking sequence number.
    next_seq: u64,
    /// Rows marked expired (gone from the server): the only ones the bounds evict.
    expired: usize,
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
            next_seq: 0,
            expired: 0,
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
        let old = self.by_uid.get(&id).cloned();
        let seq = old.as_ref().map_or(self.next_seq, |k| k.3);
        if let Some(seen) = self.relist_seen.as_mut() {
            seen.insert(seq);
        }
        let key = order_key(&row, seq);
        if let Some(old) = old {
            if let Some(prev) = self.order.get(&old) {
                if old == key && **prev == row {
                    return;
                }
            }
            if self.order.remove(&old).is_some_and(|r| is_expired(&r)) {
                self.expired = self.expired.saturating_sub(1);
            }
        } else {
            self.next_seq += 1;
        }
        self.by_uid.insert(id, key.clone());
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
        self.expired += 1;
        self.publisher.touch();
    }

    /// Past the count bound, drops the oldest expired events until it holds (live ones
    /// stay, however many: the server still has them).
    fn evict(&mut self) {
        if self.order.len() <= self.bounds.max_events || self.expired == 0 {
            return;
        }
        let mut over = self.order.len() - self.bounds.max_events;
        let gone: Vec<OrderKey> = self
            .order
            .iter()
            .rev()
            .filter(|(_, r)| is_expired(r))
            .take(over)
            .map(|(k, _)| k.clone())
            .collect();
        for key in gone {
            self.remove_expired(&key);
            over -= 1;
        }
        debug_assert!(over == 0 || self.expired == 0);
    }

    /// Drops expired events last seen before the age bound (and expired ones with no time at
    /// all); live events are never aged out.
    fn evict_aged(&mut self) {
        if self.expired == 0 {
            return;
        }
        let cutoff = (self.clock)() - self.bounds.max_age.as_secs() as i64;
        // Oldest first: unknown-time events sort last, then the oldest instants.
        let gone: Vec<OrderKey> = self
            .order
            .iter()
            .rev()
            .take_while(|(k, _)| k.0 || k.1 .0 < cutoff)
            .filter(|(_, r)| is_expired(r))
            .map(|(k, _)| k.clone())
            .collect();
        for key in gone {
            self.remove_expired(&key);
        }
    }

    fn remove_expired(&mut self, key: &OrderKey) {
        if let Some(row) = self.order.remove(key) {
            self.by_uid.remove(&Self::identity(&row));
            self.expired = self.expired.saturating_sub(1);
            self.publisher.touch();
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
        // Events expired since (a relist without them, a DELETED) count against the bound.
        self.evict();
        if self.publisher.is_dirty() {
            let rows: Rows = self.order.values().cloned().collect();
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
        self.upsert(self.rows.stamp(obj.into_row(&self.rows)));
        let received = self.relist_seen.as_ref().map_or(0, HashSet::len);
        self.publisher.set_state(SyncState::Syncing { received });
    }

    fn init_done(&mut self, rv: Option<String>) {
        if let Some(seen) = self.relist_seen.take() {
            let missing: Vec<Box<str>> = self
                .by_uid
                .iter()
                .filter(|(_, key)| !seen.contains(&key.3))
                .map(|(id, _)| id.clone())
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

    fn init_delete(&mut self, obj: T) {
        Sink::delete(self, obj);
    }

    fn apply(&mut self, obj: T) {
        self.upsert(self.rows.stamp(obj.into_row(&self.rows)));
    }

    fn delete(&mut self, obj: T) {
        let row = self.rows.stamp(obj.into_row(&self.rows));
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
