//! The order of a usage sort ([`SortBy::Usage`](crate::app::list::model::SortBy::Usage)):
//! the view in name order, re-sorted stably by one usage figure of each row from the list's
//! metrics snapshot — highest first, lowest first when reversed, rows without a value (no
//! sample, `n/a`, columns not shown) last either way, in name order. Memoised on (the view
//! result, the metrics snapshot's key, epoch and rev, the column, the direction): a redraw
//! without a new poll or a new snapshot costs a comparison. Must not draw.

use std::sync::Arc;

use crate::app::list::model::UsageCol;
use crate::app::usage::compute::{self, Share};
use crate::kube::metrics::{MetricsKey, MetricsSnapshot, Series};
use crate::kube::row::Row;
use crate::kube::store::Snapshot;
use crate::view::ViewResult;

/// A usage sort's rows and what they were computed from.
pub(super) struct UsageOrder {
    result: Arc<ViewResult>,
    metrics: Option<(MetricsKey, u64, u64)>,
    col: UsageCol,
    reverse: bool,
    /// Indices into the snapshot's rows, in display order.
    pub(super) rows: Vec<u32>,
}

impl UsageOrder {
    /// The order of `result` (over `snap`) by `col` with `metrics`: `prev` again when it was
    /// computed from the same inputs.
    pub(super) fn update(
        prev: Option<UsageOrder>,
        result: &Arc<ViewResult>,
        snap: &Snapshot,
        metrics: Option<&Arc<MetricsSnapshot>>,
        col: UsageCol,
        reverse: bool,
    ) -> UsageOrder {
        let id = metrics.map(|m| (m.key.clone(), m.epoch, m.rev));
        if let Some(p) = prev {
            if Arc::ptr_eq(&p.result, result) && p.metrics == id && p.col == col && p.reverse == reverse {
                return p;
            }
        }
        UsageOrder {
            rows: order(&result.rows, snap, metrics.map(|m| &**m), col, reverse),
            result: result.clone(),
            metrics: id,
            col,
            reverse,
        }
    }
}

/// The value `row`, whose series is `series`, sorts by in column `col`: nanocores, bytes,
/// or thousandths of a percent; `None` without a sample or a denominator.
fn value(series: &Series, row: &Row, col: UsageCol) -> Option<u64> {
    let latest = series.latest()?;
    let share = match col {
        UsageCol::Cpu => return Some(latest.usage.cpu_nanos),
        UsageCol::Mem => return Some(latest.usage.memory_bytes),
        UsageCol::CpuPct => Share::Cpu,
        UsageCol::MemPct => Share::Memory,
        UsageCol::CpuLimitPct => Share::CpuLimit,
        UsageCol::MemLimitPct => Share::MemoryLimit,
    };
    compute::share(series, row.capacity.as_deref(), share).map(|p| p.milli)
}

/// The series of each row of `view` (indices into `snap.rows`), by position. Informer
/// snapshots are ordered by (namespace, name) as the metrics objects are, so one pass over
/// both finds them without a lookup per row (a lookup compares a key on every B-tree node it
/// visits, each a cache miss at 150,000 rows); a row out of that order, or a view much
/// smaller than the objects, is looked up instead.
fn series_of<'m>(view: &[u32], snap: &Snapshot, m: &'m MetricsSnapshot) -> Vec<Option<&'m Series>> {
    let mut visit: Vec<usize> = (0..view.len()).collect();
    if !view.is_sorted() {
        visit.sort_unstable_by_key(|&p| view[p]);
    }
    let lookups = view.len().saturating_mul(8) < m.object_count;
    let mut objects = m
        .objects
        .iter()
        .flat_map(|(ns, names)| names.iter().map(move |(n, s)| ((&**ns, &**n), &**s)))
        .peekable();
    let mut found = vec![None; view.len()];
    let mut last: Option<(&str, &str)> = None;
    for p in visit {
        let Some(row) = snap.rows.get(view[p] as usize) else {
            continue;
        };
        let key = (row.namespace.as_deref().unwrap_or(""), &*row.name);
        found[p] = if lookups || last.is_some_and(|l| key < l) {
            m.get(row.namespace.as_deref(), &row.name).map(|s| &**s)
        } else {
            last = Some(key);
            while objects.next_if(|(k, _)| *k < key).is_some() {}
            objects.peek().filter(|(k, _)| *k == key).map(|(_, s)| *s)
        };
    }
    found
}

/// `view` (indices into `snap.rows`, in name order) sorted by `col`, highest first unless
/// `reverse`, rows without a value last; unchanged when the columns are not shown.
fn order(
    view: &[u32],
    snap: &Snapshot,
    metrics: Option<&MetricsSnapshot>,
    col: UsageCol,
    reverse: bool,
) -> Vec<u32> {
    let Some(m) = metrics.filter(|m| compute::shows_columns(m)) else {
        return view.to_vec();
    };
    let mut valued: Vec<(u64, u32)> = Vec::with_capacity(view.len());
    let mut rest: Vec<u32> = Vec::new();
    for (&i, series) in view.iter().zip(series_of(view, snap, m)) {
        let row = snap.rows.get(i as usize);
        match series.zip(row).and_then(|(s, r)| value(s, r, col)) {
            Some(v) => valued.push((v, i)),
            None => rest.push(i),
        }
    }
    // Stable: equal values keep the name order.
    if reverse {
        valued.sort_by_key(|&(v, _)| v);
    } else {
        valued.sort_by_key(|&(v, _)| std::cmp::Reverse(v));
    }
    valued.into_iter().map(|(_, i)| i).chain(rest).collect()
}

#[cfg(test)]
mod tests;
