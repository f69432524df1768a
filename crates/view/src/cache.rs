//! [`ViewCache`]: memoisation of views per snapshot, narrowing while the user types, and
//! carrying per-row work over to the next snapshot for rows that did not change. Owns cache
//! keys and lifetimes; must not draw or do I/O.

use std::sync::Arc;

use ktui_kube::row::Row;
use ktui_kube::rows::Rows;
use ktui_kube::store::Snapshot;

use super::compute::{self, Known, Scope, NO_MATCH};
use super::names::Names;
use super::order::{Order, Sort, SortBy};
use super::query::Query;
use super::{ViewResult, ViewSpec};

/// Counters of what [`ViewCache::view`] did, for tests and a debug overlay.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Answers served from memory without work.
    pub hits: u64,
    /// Computations that tested every row of the scope.
    pub full: u64,
    /// Computations that tested only a previous result (the query grew).
    pub narrowed: u64,
    /// Computations on a new snapshot that reused the previous snapshot's verdicts for
    /// unchanged rows (same query) and tested only new or modified rows.
    pub carried: u64,
}

/// How many results of one snapshot stay memoised (typing back and forth, toggling sorts).
const RECENT: usize = 8;

/// "No old row" in a new→old row map.
const NONE: u32 = u32::MAX;

/// A computed result and the inputs it depends on, besides the snapshot.
#[derive(Debug)]
struct Entry {
    namespace: Option<Box<str>>,
    /// The key of the restriction the entry was computed within.
    within: Option<Box<str>>,
    all_namespaces: bool,
    query: Query,
    sort: Sort,
    result: Arc<ViewResult>,
    /// Matching rows with their score, for carrying over (empty for an empty query).
    scored: Arc<Vec<(u32, i64)>>,
}

impl Entry {
    fn same_scope(&self, spec: &ViewSpec<'_>) -> bool {
        self.namespace.as_deref() == spec.namespace
            && self.all_namespaces == spec.all_namespaces
            && self.within.as_deref() == spec.within.map(|w| w.key)
    }
}

/// Everything cached for one snapshot.
#[derive(Debug)]
struct Generation {
    rows: Rows,
    /// Rows are ordered by (namespace, name): true for informer snapshots, false for the
    /// event timeline (newest first).
    by_key: bool,
    rev: u64,
    epoch: u64,
    names: Option<(bool, Arc<Names>)>,
    orders: Vec<(SortBy, Arc<Order>)>,
    recent: Vec<Entry>,
}

impl Generation {
    fn of(snap: &Snapshot) -> Generation {
        Generation {
            rows: snap.rows.clone(),
            by_key: !snap.key.kind.is_timeline(),
            rev: snap.rev,
            epoch: snap.epoch,
            names: None,
            orders: Vec::new(),
            recent: Vec::new(),
        }
    }

    fn is(&self, snap: &Snapshot) -> bool {
        Rows::ptr_eq(&self.rows, &snap.rows) && self.rev == snap.rev && self.epoch == snap.epoch
    }
}

/// The previous snapshot's generation and, for each current row, the index of the identical
/// (same `Arc`) row in it, or [`NONE`].
#[derive(Debug)]
struct Carry {
    old: Generation,
    remap: Vec<u32>,
}

/// Memoises views of one list's snapshots; keep one per list view. Results are keyed by
/// snapshot identity (its `rows` allocation, `rev`, `epoch`) plus namespace, query, sort and
/// name mode. Name buffers and sort orders are built once per snapshot and shared by all
/// queries on it. On a new snapshot the old one's work is kept just long enough to be
/// carried over: rows are immutable and shared by `Arc` between snapshots, so an unchanged
/// row keeps its name and its verdict for the same query. Memory: at most two snapshots'
/// work — for 100k rows about 8 MB of names plus ~1 MB per memoised result each.
#[derive(Debug, Default)]
pub struct ViewCache {
    cur: Option<Generation>,
    carry: Option<Carry>,
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
    /// work. A query that only extends a memoised one (typing on) tests that result's rows
    /// only. A new snapshot reuses the previous one's verdicts for the rows it shares with
    /// it. Rows are expected in (namespace, name) order, as informer stores publish them;
    /// event-timeline snapshots (`key.kind.is_timeline()`) may be in any order. Costs for
    /// 100k rows: see `benches/view.rs`.
    pub fn view(&mut self, snap: &Snapshot, spec: &ViewSpec<'_>) -> Arc<ViewResult> {
        if !self.cur.as_ref().is_some_and(|g| g.is(snap)) {
            let old = self.cur.replace(Generation::of(snap));
            self.carry = old
                .filter(|g| g.names.is_some() || !g.recent.is_empty())
                .map(|old| {
                    let remap = if old.by_key && !snap.key.kind.is_timeline() {
                        remap_by_key(&old.rows, &snap.rows)
                    } else {
                        remap_by_ptr(&old.rows, &snap.rows)
                    };
                    Carry { old, remap }
                });
        }
        let carry = &self.carry;
        let cur = self.cur.get_or_insert_with(|| Generation::of(snap));
        if let Some(pos) = cur
            .recent
            .iter()
            .position(|e| e.same_scope(spec) && e.sort == spec.sort && e.query == *spec.query)
        {
            self.stats.hits += 1;
            let entry = cur.recent.remove(pos);
            let result = entry.result.clone();
            cur.recent.push(entry);
            return result;
        }
        let rows: &Rows = &snap.rows;
        let scope = match spec.within {
            Some(w) => Scope::List(w.rows.to_vec()),
            None => scope_of(rows, spec.namespace, cur.by_key),
        };
        let total = scope.len();
        let query = spec.query;
        let needs_names = !query.fuzzy_terms().is_empty()
            || !query.inverse_terms().is_empty()
            || !query.groups().is_empty();
        let names = needs_names.then(|| names_for(cur, carry.as_ref(), spec.all_namespaces));
        let order = order_for(cur, carry.as_ref(), spec.sort.by);
        let base = cur
            .recent
            .iter()
            .rev()
            .find(|e| e.same_scope(spec) && !e.query.is_empty() && query.narrows(&e.query))
            .map(|e| e.result.clone());
        let carried = match (&base, carry.as_ref()) {
            (None, Some(c)) if !query.is_empty() => c
                .old
                .recent
                .iter()
                .rev()
                .find(|e| e.same_scope(spec) && e.query == *query)
                .map(|e| (c, dense(&e.scored, c.old.rows.len()))),
            _ => None,
        };
        // Typing on while a new snapshot arrived: the previous snapshot's result for the
        // query this one narrows, its rows mapped to this snapshot, plus the new or changed
        // rows, contain every match.
        let across = match (&base, &carried, carry.as_ref()) {
            (None, None, Some(c)) if !query.is_empty() => c
                .old
                .recent
                .iter()
                .rev()
                .find(|e| e.same_scope(spec) && !e.query.is_empty() && query.narrows(&e.query))
                .map(|e| candidates_across(&e.result.rows, c, &scope)),
            _ => None,
        };
        match (&base, &carried) {
            (Some(_), _) => self.stats.narrowed += 1,
            (None, Some(_)) => self.stats.carried += 1,
            (None, None) if across.is_some() => self.stats.narrowed += 1,
            (None, None) => self.stats.full += 1,
        }
        let plan = compute::Plan {
            rows,
            scope,
            names: names.as_deref(),
            order: &order,
            query,
            sort: spec.sort,
            candidates: base.as_deref().map(|b| b.rows.as_slice()).or(across.as_deref()),
            known: carried.as_ref().map(|(c, old)| Known { remap: &c.remap, old }),
        };
        let (shown, scored) = compute::run(&plan);
        let result = Arc::new(ViewResult {
            matched: shown.len(),
            rows: shown,
            total,
            rev: snap.rev,
        });
        if cur.recent.len() >= RECENT {
            cur.recent.remove(0);
        }
        cur.recent.push(Entry {
            namespace: spec.namespace.map(Box::from),
            within: spec.within.map(|w| Box::from(w.key)),
            all_namespaces: spec.all_namespaces,
            query: query.clone(),
            sort: spec.sort,
            result: result.clone(),
            scored: Arc::new(scored),
        });
        result
    }
}

/// The name buffers of `cur`, built on first use, copying unchanged rows from the previous
/// snapshot's buffers when they have the same name mode.
fn names_for(cur: &mut Generation, carry: Option<&Carry>, all_namespaces: bool) -> Arc<Names> {
    if let Some((mode, names)) = &cur.names {
        if *mode == all_namespaces {
            return names.clone();
        }
    }
    let from = carry.and_then(|c| match &c.old.names {
        Some((mode, old)) if *mode == all_namespaces => Some((old.as_ref(), c.remap.as_slice())),
        _ => None,
    });
    let names = Arc::new(Names::build(&cur.rows, all_namespaces, from));
    cur.names = Some((all_namespaces, names.clone()));
    names
}

/// The order of `cur` by `by`, built on first use: carried over from the previous
/// snapshot's order when only a few rows changed (see [`Order::carried`]), else sorted.
fn order_for(cur: &mut Generation, carry: Option<&Carry>, by: SortBy) -> Arc<Order> {
    if let Some((_, o)) = cur.orders.iter().find(|(b, _)| *b == by) {
        return o.clone();
    }
    let carried = carry.filter(|c| c.old.by_key && cur.by_key).and_then(|c| {
        let (_, old) = c.old.orders.iter().find(|(b, _)| *b == by)?;
        Order::carried(old, c.old.rows.len(), &c.remap, &cur.rows, by)
    });
    let order = Arc::new(carried.unwrap_or_else(|| Order::build(&cur.rows, by)));
    if cur.orders.len() >= 3 {
        cur.orders.remove(0);
    }
    cur.orders.push((by, order.clone()));
    order
}

/// For each row of `new`, the index of the same `Arc` in `old`, else [`NONE`], for rows in
/// any order (a pointer map).
fn remap_by_ptr(old: &Rows, new: &Rows) -> Vec<u32> {
    let at: std::collections::HashMap<*const Row, u32> = old
        .iter()
        .enumerate()
        .map(|(j, r)| (Arc::as_ptr(r), super::order::idx32(j)))
        .collect();
    new.iter()
        .map(|r| at.get(&Arc::as_ptr(r)).copied().unwrap_or(NONE))
        .collect()
}

/// [`remap_by_ptr`] for rows ordered by (namespace, name). A chunk `new` shares with `old`
/// (the same `Arc`, as the store publishes every chunk without a change) maps 1:1 without
/// visiting its rows; the rows of other chunks are matched by one merge walk, dereferencing
/// rows only where the pointers differ. Costs O(n) plain writes plus O(k·CHUNK) row visits
/// for k changed chunks.
fn remap_by_key(old: &Rows, new: &Rows) -> Vec<u32> {
    let shared: std::collections::HashMap<*const [Arc<Row>], usize> = old
        .chunks()
        .iter()
        .enumerate()
        .map(|(c, chunk)| (Arc::as_ptr(chunk), old.chunk_start(c)))
        .collect();
    let mut out = Vec::with_capacity(new.len());
    let mut j = 0;
    for chunk in new.chunks() {
        if let Some(&start) = shared.get(&Arc::as_ptr(chunk)) {
            out.extend((start..start + chunk.len()).map(super::order::idx32));
            j = start + chunk.len();
            continue;
        }
        for row in chunk.iter() {
            out.push(remap_row(old, &mut j, row));
        }
    }
    out
}

/// One step of [`remap_by_key`]'s merge walk: the index of `row` in `old` from position `j`
/// on (advanced past it), or [`NONE`].
fn remap_row(old: &Rows, j: &mut usize, row: &Arc<Row>) -> u32 {
    while let Some(o) = old.get(*j) {
        if Arc::ptr_eq(o, row) {
            *j += 1;
            return super::order::idx32(*j - 1);
        }
        match (&o.namespace, &o.name).cmp(&(&row.namespace, &row.name)) {
            std::cmp::Ordering::Less => *j += 1,
            std::cmp::Ordering::Equal => {
                *j += 1;
                return NONE;
            }
            std::cmp::Ordering::Greater => return NONE,
        }
    }
    NONE
}

/// Rows of the current snapshot that may match a query narrowing one whose matches on the
/// previous snapshot were `old_matches` (old row indices): those rows where unchanged, and
/// every new or changed row in `scope`. O(n) plain indices, no row visited.
fn candidates_across(old_matches: &[u32], c: &Carry, scope: &Scope) -> Vec<u32> {
    let mut old_to_new = vec![NONE; c.old.rows.len()];
    let mut out = Vec::new();
    for (i, &j) in c.remap.iter().enumerate() {
        let i = super::order::idx32(i);
        match old_to_new.get_mut(j as usize) {
            Some(slot) => *slot = i,
            None if scope.contains(i) => out.push(i),
            None => {}
        }
    }
    out.extend(
        old_matches
            .iter()
            .filter_map(|&j| old_to_new.get(j as usize).copied().filter(|&i| i != NONE)),
    );
    out
}

/// Scores by old row index, [`NO_MATCH`] for rows that did not match.
fn dense(scored: &[(u32, i64)], len: usize) -> Vec<i64> {
    let mut out = vec![NO_MATCH; len];
    for &(i, s) in scored {
        if let Some(slot) = out.get_mut(i as usize) {
            *slot = s;
        }
    }
    out
}

/// The rows in namespace `ns` (all rows for `None`): a binary search when rows are ordered by
/// namespace, else a scan.
fn scope_of(rows: &Rows, ns: Option<&str>, by_key: bool) -> Scope {
    let Some(ns) = ns else {
        return Scope::Range(0..rows.len());
    };
    if !by_key {
        let hits = rows
            .iter()
            .enumerate()
            .filter(|(_, r)| r.namespace.as_deref() == Some(ns));
        return Scope::List(hits.map(|(i, _)| super::order::idx32(i)).collect());
    }
    let key = |r: &Arc<Row>| r.namespace.as_deref().map(|n| n.cmp(ns));
    let start = rows.partition_point(|r| key(r).is_none_or(|o| o.is_lt()));
    let end = rows.partition_point(|r| key(r).is_none_or(|o| o.is_le()));
    Scope::Range(start..end.max(start))
}
