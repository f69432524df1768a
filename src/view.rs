//! What a list view shows of a snapshot: the `/` filter (fuzzy, `!inverse`, `-l` selectors),
//! the namespace scope and the sort, computed as row indices and memoised per snapshot
//! revision so a 100k-row table is neither re-filtered nor re-sorted per frame or per
//! unchanged keystroke. Pure computation: no drawing, no terminal, no I/O, no clock.
//!
//! Use: parse the prompt with [`query::Query::parse`] (keep the last `Ok` query on error),
//! call [`ViewCache::view`] each frame with the current snapshot, draw `rows[offset..]`, and
//! call [`highlight`] with [`display_name`] for the visible rows only.

pub mod query;
pub mod selector;

mod compute;
mod fuzzy;
mod names;
mod order;

use std::sync::Arc;

use crate::kube::row::Row;
use crate::kube::store::Snapshot;

pub use fuzzy::highlight;
pub use names::display_name;
pub use order::{Sort, SortBy};
pub use query::Query;

use names::Names;
use order::Order;

/// What to show of a snapshot. Borrowed, so building one per frame costs nothing.
#[derive(Debug, Clone, Copy)]
pub struct ViewSpec<'a> {
    /// The filter (the last valid one the user typed).
    pub query: &'a Query,
    /// `Some(ns)` shows only rows with `row.namespace == ns` (an all-namespaces informer
    /// serving a namespace view); `None` shows every row.
    pub namespace: Option<&'a str>,
    /// Sort key and direction.
    pub sort: Sort,
    /// Names are `namespace/name` (filtering and highlighting) when true.
    pub all_namespaces: bool,
}

/// One computed view. Shared by `Arc`: the cache hands out the same one until an input changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewResult {
    /// Indices into the snapshot's `rows`, in display order.
    pub rows: Vec<u32>,
    /// Rows that pass the filter (`rows.len()`), the `12` of `12/3,456`.
    pub matched: usize,
    /// Rows in the namespace scope before filtering, the `3,456`.
    pub total: usize,
    /// `Snapshot::rev` this was computed from.
    pub rev: u64,
}

/// Counters of what [`ViewCache::view`] did, for tests and a debug overlay.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Answers served from memory without work.
    pub hits: u64,
    /// Computations that scanned the whole scope.
    pub full: u64,
    /// Computations that scanned only a previous result (the query grew).
    pub narrowed: u64,
}

/// How many results of one snapshot stay memoised (typing back and forth, toggling sorts).
const RECENT: usize = 8;

/// A computed result and the inputs it depends on, besides the snapshot identity.
#[derive(Debug)]
struct Entry {
    namespace: Option<Box<str>>,
    all_namespaces: bool,
    query: Query,
    sort: Sort,
    result: Arc<ViewResult>,
}

impl Entry {
    fn same_scope(&self, spec: &ViewSpec<'_>) -> bool {
        self.namespace.as_deref() == spec.namespace && self.all_namespaces == spec.all_namespaces
    }
}

/// Memoises views of one list's snapshots. Keep one per list view. Results are keyed by
/// snapshot identity (its `rows` allocation, `rev` and `epoch`) plus namespace, query, sort
/// and name mode; a new snapshot drops everything cached for the old one. Name buffers and
/// sort orders are built once per snapshot and shared by all queries on it.
#[derive(Debug, Default)]
pub struct ViewCache {
    /// The snapshot everything below belongs to.
    rows: Option<Arc<[Arc<Row>]>>,
    rev: u64,
    epoch: u64,
    names: Option<(bool, Arc<Names>)>,
    orders: Vec<(SortBy, Arc<Order>)>,
    recent: Vec<Entry>,
    stats: CacheStats,
}

impl ViewCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// What has been done so far.
    pub fn stats(&self) -> CacheStats {
        self.stats
    }

    /// The rows of `snap` to show for `spec`. Same snapshot and spec → the same `Arc`, no
    /// work. A query that only extends a memoised one (typing on) scans that result instead
    /// of all rows. Cost of a miss for 100k rows: see `benches/view.rs`. `snap.rows` must be
    /// ordered by (namespace, name), as the store publishes them.
    pub fn view(&mut self, snap: &Snapshot, spec: &ViewSpec<'_>) -> Arc<ViewResult> {
        self.adopt(snap);
        if let Some(pos) = self
            .recent
            .iter()
            .position(|e| e.same_scope(spec) && e.sort == spec.sort && e.query == *spec.query)
        {
            self.stats.hits += 1;
            let entry = self.recent.remove(pos);
            let result = entry.result.clone();
            self.recent.push(entry);
            return result;
        }
        let rows: &[Arc<Row>] = &snap.rows;
        let scope = scope_of(rows, spec.namespace);
        let total = scope.len();
        let needs_names = !spec.query.fuzzy_terms().is_empty() || !spec.query.inverse_terms().is_empty();
        let names = needs_names.then(|| self.names_for(rows, spec.all_namespaces));
        let order = self.order_for(rows, spec.sort.by);
        let base = self
            .recent
            .iter()
            .rev()
            .find(|e| e.same_scope(spec) && !e.query.is_empty() && spec.query.narrows(&e.query))
            .map(|e| e.result.clone());
        match base {
            Some(_) => self.stats.narrowed += 1,
            None => self.stats.full += 1,
        }
        let plan = compute::Plan {
            rows,
            scope,
            names: names.as_deref(),
            order: &order,
            query: spec.query,
            sort: spec.sort,
            candidates: base.as_deref().map(|b| b.rows.as_slice()),
        };
        let shown = compute::run(&plan);
        let result = Arc::new(ViewResult {
            matched: shown.len(),
            rows: shown,
            total,
            rev: snap.rev,
        });
        if self.recent.len() >= RECENT {
            self.recent.remove(0);
        }
        self.recent.push(Entry {
            namespace: spec.namespace.map(Box::from),
            all_namespaces: spec.all_namespaces,
            query: spec.query.clone(),
            sort: spec.sort,
            result: result.clone(),
        });
        result
    }

    /// Switches to `snap`, dropping everything cached for another snapshot.
    fn adopt(&mut self, snap: &Snapshot) {
        let same = self.rows.as_ref().is_some_and(|r| Arc::ptr_eq(r, &snap.rows))
            && self.rev == snap.rev
            && self.epoch == snap.epoch;
        if !same {
            self.rows = Some(snap.rows.clone());
            self.rev = snap.rev;
            self.epoch = snap.epoch;
            self.names = None;
            self.orders.clear();
            self.recent.clear();
        }
    }

    fn names_for(&mut self, rows: &[Arc<Row>], all_namespaces: bool) -> Arc<Names> {
        match &self.names {
            Some((mode, names)) if *mode == all_namespaces => names.clone(),
            _ => {
                let names = Arc::new(Names::build(rows, all_namespaces));
                self.names = Some((all_namespaces, names.clone()));
                names
            }
        }
    }

    fn order_for(&mut self, rows: &[Arc<Row>], by: SortBy) -> Arc<Order> {
        if let Some((_, o)) = self.orders.iter().find(|(b, _)| *b == by) {
            return o.clone();
        }
        let order = Arc::new(Order::build(rows, by));
        if self.orders.len() >= 3 {
            self.orders.remove(0);
        }
        self.orders.push((by, order.clone()));
        order
    }
}

/// The index range of rows in namespace `ns` (all rows for `None`), by binary search over
/// rows ordered by namespace.
fn scope_of(rows: &[Arc<Row>], ns: Option<&str>) -> std::ops::Range<usize> {
    let Some(ns) = ns else { return 0..rows.len() };
    let key = |r: &Arc<Row>| r.namespace.as_deref().map(|n| n.cmp(ns));
    let start = rows.partition_point(|r| key(r).is_none_or(|o| o.is_lt()));
    let end = rows.partition_point(|r| key(r).is_none_or(|o| o.is_le()));
    start..end.max(start)
}

#[cfg(test)]
mod tests;
