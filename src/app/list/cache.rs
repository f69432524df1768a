//! `ListCache`: the filtered, sorted rows of one list view for its latest snapshot, memoised
//! through [`crate::view::ViewCache`]. Keeps the last valid query while the user types an
//! invalid one. The `col:text` terms of the filter ([`crate::view::col_terms`]) narrow the
//! rows in place (scanned in flat per-snapshot text buffers, [`crate::view::col_text`], and
//! handed to the view cache as its scope); for event timelines the
//! [`EventLens`] (Warning-only, one object, the `type:`/`reason:`/`obj:` terms) and column
//! terms derive a narrowed snapshot. The count's total stays the rows before those terms.
//! A usage sort ([`SortBy::Usage`]) re-sorts the name-ordered view by the list's metrics
//! snapshot (see [`usage`]). Must not draw.

use std::sync::Arc;

use crate::kube::row::{Row, UnixSecs};
use crate::kube::rows::Rows;
use crate::kube::store::{ObjKey, Snapshot};
use crate::view::col_terms::{self, ColTerm, ColTests};
use crate::view::col_text::ColTexts;
use crate::view::event_terms::{lens_keeps, split_scoped, EventLens, Scoped};
use crate::view::{self, Query, Sort, ViewCache, ViewResult, ViewSpec};

use crate::app::list::model::SortBy;
use crate::kube::metrics::MetricsSnapshot;

mod usage;

/// A snapshot narrowed by a lens, with what it was derived from.
struct Lensed {
    rev: u64,
    epoch: u64,
    lens: EventLens,
    scoped: Vec<Scoped>,
    cols: Vec<ColTerm>,
    ns: Option<String>,
    snap: Arc<Snapshot>,
    /// Rows that pass the lens (not the terms) in the namespace scope.
    total: usize,
}

/// The rows of one snapshot that pass the column terms (outside event timelines), memoised
/// per source revision.
#[derive(Debug)]
struct Kept {
    rev: u64,
    epoch: u64,
    cols: Vec<ColTerm>,
    ns: Option<String>,
    /// Names the column terms for the view cache.
    key: String,
    /// Ascending indices into the snapshot's rows, inside the namespace scope.
    rows: Vec<u32>,
    /// Rows in the namespace scope.
    total: usize,
}

/// The memoised view of one list.
#[derive(Default)]
pub struct ListCache {
    cache: ViewCache,
    lens: EventLens,
    /// The lensed snapshot and what it was derived from.
    lensed: Option<Lensed>,
    kept: Option<Kept>,
    /// The laid-out texts the column terms read, for the latest snapshot.
    texts: ColTexts,
    snap: Option<Arc<Snapshot>>,
    result: Option<Arc<ViewResult>>,
    query: Query,
    text: String,
    all_ns: bool,
    /// The last valid column terms.
    cols: Vec<ColTerm>,
    /// The total before the scoped and column terms, while some apply.
    scoped_total: Option<usize>,
    /// The metrics snapshot of the next [`ListCache::update`] (pods and nodes lists).
    metrics: Option<Arc<MetricsSnapshot>>,
    /// The order of a usage sort, memoised.
    usage: Option<usage::UsageOrder>,
}

impl ListCache {
    /// Sets the event lens used by the next [`ListCache::update`].
    pub fn set_lens(&mut self, lens: EventLens) {
        self.lens = lens;
    }

    /// Sets the metrics snapshot used by the next [`ListCache::update`] (a usage sort reads
    /// it) and by the drawing of that view ([`ListCache::metrics`]); `None` for lists without
    /// usage.
    pub fn set_metrics(&mut self, metrics: Option<Arc<MetricsSnapshot>>) {
        self.metrics = metrics;
    }

    /// The metrics snapshot the current view was computed with: drawing uses it so that the
    /// values shown are those sorted by.
    pub fn metrics(&self) -> Option<&Arc<MetricsSnapshot>> {
        self.metrics.as_ref()
    }

    /// Brings the view up to date with `snap` and the list's settings. A filter that does
    /// not parse returns `Err(message)` and the last valid filter stays applied.
    #[allow(clippy::too_many_arguments)]
    pub fn update(
        &mut self,
        snap: &Arc<Snapshot>,
        ns_filter: Option<&str>,
        filter: &str,
        sort: SortBy,
        reverse: bool,
        status_col: Option<usize>,
        all_ns: bool,
    ) -> Result<(), String> {
        let mut error = None;
        let is_events = snap.key.kind.is_timeline();
        let (scoped, generic) = if is_events {
            split_scoped(filter)
        } else {
            (Vec::new(), filter.to_owned())
        };
        let generic = if generic.contains(':') {
            let spec = crate::table::spec(&snap.key.kind);
            match col_terms::split(&generic, &spec.columns).and_then(|(cols, rest)| {
                col_terms::timeless(&cols, &spec.columns, snap).map(|()| (cols, rest))
            }) {
                Ok((cols, rest)) => {
                    self.cols = cols;
                    rest
                }
                Err(e) => {
                    error = Some(e);
                    self.text.clone()
                }
            }
        } else {
            self.cols.clear();
            generic
        };
        // Column terms alone narrow the rows in place (the snapshot's sort orders and name
        // buffers stay memoised); the event lens and scoped terms derive a snapshot.
        let in_place = !is_events && !self.cols.is_empty();
        let snap = if in_place {
            self.keep(snap, ns_filter);
            snap.clone()
        } else {
            self.kept = None;
            self.lensed(snap, scoped, ns_filter)
        };
        let snap = &snap;
        let filter = generic.as_str();
        if filter != self.text {
            match Query::parse(filter) {
                Ok(q) => {
                    self.query = q;
                    self.text = filter.to_owned();
                }
                Err(e) => error = Some(e),
            }
        }
        // A usage sort starts from the name order, then re-sorts by value (below).
        let by = match (sort, status_col) {
            (SortBy::Name | SortBy::Usage(_), _) | (SortBy::Status, None) => view::SortBy::Name,
            (SortBy::Age, _) => view::SortBy::Age,
            (SortBy::Status, Some(i)) => view::SortBy::Column(i),
        };
        let usage_col = match sort {
            SortBy::Usage(col) => Some(col),
            _ => None,
        };
        let spec = ViewSpec {
            query: &self.query,
            namespace: ns_filter,
            sort: Sort {
                by,
                reverse: reverse && usage_col.is_none(),
            },
            all_namespaces: all_ns,
            within: self.kept.as_ref().map(|k| view::Within {
                key: &k.key,
                rows: &k.rows,
            }),
        };
        let result = self.cache.view(snap, &spec);
        self.usage = match usage_col {
            Some(col) => Some(usage::UsageOrder::update(
                self.usage.take(),
                &result,
                snap,
                self.metrics.as_ref(),
                col,
                reverse,
            )),
            None => None,
        };
        self.result = Some(result);
        self.snap = Some(snap.clone());
        self.all_ns = all_ns;
        error.map_or(Ok(()), Err)
    }

    /// The rows of `snap` in namespace `ns` that pass the column terms, memoised per source
    /// revision; sets `scoped_total`.
    fn keep(&mut self, snap: &Arc<Snapshot>, ns: Option<&str>) {
        let ns = ns.map(str::to_owned);
        if let Some(k) = &self.kept {
            if k.rev == snap.rev && k.epoch == snap.epoch && k.cols == self.cols && k.ns == ns {
                self.scoped_total = Some(k.total);
                return;
            }
        }
        let tests = ColTests::new(&self.cols);
        // Flat buffers of the texts the terms read, built once per snapshot: a keystroke
        // scans them instead of every row's heap cells.
        let texts = self.texts.get(snap, &tests.targets());
        // Informer snapshots are ordered by (namespace, name): one namespace is a range.
        let range = match ns.as_deref() {
            None => 0..snap.rows.len(),
            Some(n) => {
                let key = |r: &Arc<Row>| r.namespace.as_deref().map(|x| x.cmp(n));
                let start = snap.rows.partition_point(|r| key(r).is_none_or(|o| o.is_lt()));
                let end = snap.rows.partition_point(|r| key(r).is_none_or(|o| o.is_le()));
                start..end.max(start)
            }
        };
        let total = range.len();
        let rows: Vec<u32> = range
            .filter(|&i| tests.keeps_at(&texts, i))
            .map(|i| u32::try_from(i).unwrap_or(u32::MAX))
            .collect();
        self.scoped_total = Some(total);
        self.kept = Some(Kept {
            rev: snap.rev,
            epoch: snap.epoch,
            key: format!("{:?}", self.cols),
            cols: self.cols.clone(),
            ns,
            rows,
            total,
        });
    }

    /// The snapshot narrowed by the lens, the scoped and the column terms, memoised per
    /// source revision; sets `scoped_total`.
    fn lensed(&mut self, snap: &Arc<Snapshot>, scoped: Vec<Scoped>, ns: Option<&str>) -> Arc<Snapshot> {
        let terms = !scoped.is_empty() || !self.cols.is_empty();
        if self.lens == EventLens::default() && !terms {
            self.scoped_total = None;
            return snap.clone();
        }
        let ns = ns.map(str::to_owned);
        if let Some(l) = &self.lensed {
            if l.rev == snap.rev
                && l.epoch == snap.epoch
                && l.lens == self.lens
                && l.scoped == scoped
                && l.cols == self.cols
                && l.ns == ns
            {
                self.scoped_total = terms.then_some(l.total);
                return l.snap.clone();
            }
        }
        let tests = ColTests::new(&self.cols);
        let mut total = 0;
        let rows: Rows = snap
            .rows
            .iter()
            .filter(|r| {
                if !lens_keeps(&self.lens, &[], r) {
                    return false;
                }
                if ns.as_deref().is_none_or(|n| r.namespace.as_deref() == Some(n)) {
                    total += 1;
                }
                lens_keeps(&EventLens::default(), &scoped, r) && tests.keeps(r)
            })
            .cloned()
            .collect();
        let derived = Arc::new(Snapshot {
            rows,
            ..(**snap).clone()
        });
        self.scoped_total = terms.then_some(total);
        self.lensed = Some(Lensed {
            rev: snap.rev,
            epoch: snap.epoch,
            lens: self.lens.clone(),
            scoped,
            cols: self.cols.clone(),
            ns,
            snap: derived.clone(),
            total,
        });
        derived
    }

    /// The snapshot the current view was computed from (after the event lens, or the
    /// configured fallback namespaces); drawing uses it so one frame is consistent.
    pub fn snapshot(&self) -> Option<&Arc<Snapshot>> {
        self.snap.as_ref()
    }

    /// The rows the view is computed over (after the event lens), in snapshot order.
    pub fn rows(&self) -> Rows {
        self.snap.as_ref().map(|s| s.rows.clone()).unwrap_or_default()
    }

    fn order(&self) -> &[u32] {
        if let Some(u) = &self.usage {
            return &u.rows;
        }
        self.result.as_ref().map_or(&[], |r| r.rows.as_slice())
    }

    /// Rows matching the filter.
    pub fn len(&self) -> usize {
        self.result.as_ref().map_or(0, |r| r.matched)
    }

    /// True when nothing matches.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Rows in scope before filtering (after the namespace filter and the event lens; before
    /// the scoped and column terms, which filter like the rest: `1/92`, not `1/1`).
    pub fn total(&self) -> usize {
        self.scoped_total
            .unwrap_or_else(|| self.result.as_ref().map_or(0, |r| r.total))
    }

    /// The row at display position `i`.
    pub fn selected_row(&self, i: usize) -> Option<Arc<Row>> {
        let snap = self.snap.as_ref()?;
        let idx = *self.order().get(i)? as usize;
        snap.rows.get(idx).cloned()
    }

    /// Display position of the row with identity `key`. `hint` (usually the previous
    /// position) is checked first, so a steady redraw costs one comparison; otherwise a scan
    /// that compares in place, without allocating.
    pub fn position(&self, key: &ObjKey, hint: usize) -> Option<usize> {
        self.position_in(key, None, hint)
    }

    /// [`ListCache::position`] of the row with identity `key` from cluster `origin` (`None`:
    /// any; a union's rows are told apart by it).
    pub fn position_in(&self, key: &ObjKey, origin: Option<u16>, hint: usize) -> Option<usize> {
        let snap = self.snap.as_ref()?;
        let is = |i: &u32| {
            snap.rows.get(*i as usize).is_some_and(|r| {
                r.namespace == key.0 && r.name == key.1 && origin.is_none_or(|o| r.origin == o)
            })
        };
        let order = self.order();
        if order.get(hint).is_some_and(is) {
            return Some(hint);
        }
        order.iter().position(is)
    }

    /// Up to `n` rows from display position `offset`.
    pub fn visible(&self, offset: usize, n: usize) -> Vec<Arc<Row>> {
        let Some(snap) = self.snap.as_ref() else {
            return Vec::new();
        };
        self.order()
            .iter()
            .skip(offset)
            .take(n)
            .filter_map(|&i| snap.rows.get(i as usize).cloned())
            .collect()
    }

    /// The newest creation time among the visible rows (drives the redraw interval).
    pub fn visible_youngest(&self, offset: usize, n: usize) -> Option<UnixSecs> {
        let snap = self.snap.as_ref()?;
        self.order()
            .iter()
            .skip(offset)
            .take(n)
            .filter_map(|&i| snap.rows.get(i as usize)?.created)
            .max()
    }

    /// Char indices of the row's NAME cell matched by the fuzzy filter (for highlighting).
    pub fn highlight(&self, row: &Row) -> Vec<usize> {
        if self.query.is_empty() {
            return Vec::new();
        }
        let shown = view::display_name(row, self.all_ns);
        let skip = if self.all_ns {
            row.namespace.as_deref().map_or(0, |n| n.chars().count() + 1)
        } else {
            0
        };
        view::highlight(&shown, &self.query)
            .into_iter()
            .filter(|&i| i >= skip)
            .map(|i| i - skip)
            .collect()
    }
}
