//! One uncached computation of a view: scan candidates (prefilter → selectors → score), then
//! order the matches. Owns the per-keystroke hot loop; must not cache, draw or do I/O.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;

use ktui_kube::rows::Rows;

use super::fuzzy::NameFilter;
use super::names::Names;
use super::order::{idx32, Order, Sort, SortBy};
use super::query::Query;
use super::selector::LabelPairs;

/// Below this many candidates the scan runs on the calling thread only.
const PARALLEL_MIN: usize = 16_384;

/// "Did not match" in [`Known::old`].
pub(crate) const NO_MATCH: i64 = i64::MIN;

/// Verdicts carried over from the previous snapshot for the same query.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Known<'a> {
    /// For each current row, the index of the identical row in the previous snapshot, or
    /// `u32::MAX`.
    pub remap: &'a [u32],
    /// Score per previous row, [`NO_MATCH`] where it did not match.
    pub old: &'a [i64],
}

/// The rows of the namespace scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Scope {
    /// A contiguous range of indices (rows ordered by namespace).
    Range(Range<usize>),
    /// Ascending indices (rows in another order, e.g. the event timeline).
    List(Vec<u32>),
}

impl Scope {
    /// Number of rows in scope.
    pub(crate) fn len(&self) -> usize {
        match self {
            Scope::Range(r) => r.len(),
            Scope::List(l) => l.len(),
        }
    }

    /// The indices, ascending.
    pub(crate) fn indices(&self) -> Cow<'_, [u32]> {
        match self {
            Scope::Range(r) => Cow::Owned(r.clone().map(idx32).collect()),
            Scope::List(l) => Cow::Borrowed(l),
        }
    }

    /// True when row `i` is in scope.
    pub(crate) fn contains(&self, i: u32) -> bool {
        match self {
            Scope::Range(r) => r.contains(&(i as usize)),
            Scope::List(l) => l.binary_search(&i).is_ok(),
        }
    }
}

/// Everything one computation reads.
pub(crate) struct Plan<'a> {
    /// The snapshot's rows.
    pub rows: &'a Rows,
    /// The rows in the namespace scope.
    pub scope: Scope,
    /// Display names; required when the query has fuzzy or inverse terms.
    pub names: Option<&'a Names>,
    /// The order for `sort.by`.
    pub order: &'a Order,
    /// The filter.
    pub query: &'a Query,
    /// The sort.
    pub sort: Sort,
    /// Rows known to contain every match (a previous result this query narrows), or `None`
    /// to scan the whole scope.
    pub candidates: Option<&'a [u32]>,
    /// Verdicts of unchanged rows for this very query on the previous snapshot.
    pub known: Option<Known<'a>>,
}

/// The rows to show, as indices into `plan.rows`, in display order, and the matching rows
/// with their scores (empty for an empty query), for carrying over to the next snapshot.
pub(crate) fn run(plan: &Plan<'_>) -> (Vec<u32>, Vec<(u32, i64)>) {
    if plan.query.is_empty() {
        return (plan.order.all_in(&plan.scope, plan.sort.reverse), Vec::new());
    }
    let filter = NameFilter::new(plan.query);
    let cands: Cow<'_, [u32]> = match plan.candidates {
        Some(c) => Cow::Borrowed(c),
        None => plan.scope.indices(),
    };
    let matched = scan(plan, &filter, &cands);
    (order_matches(plan, &matched), matched)
}

fn threads() -> usize {
    static N: OnceLock<usize> = OnceLock::new();
    *N.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get().min(4)))
}

/// Runs [`scan_chunk`] over `cands`, split across threads when there are many.
fn scan(plan: &Plan<'_>, filter: &NameFilter, cands: &[u32]) -> Vec<(u32, i64)> {
    let n = threads();
    if n < 2 || cands.len() < PARALLEL_MIN {
        return scan_chunk(plan, filter, cands);
    }
    let chunk = cands.len().div_ceil(n);
    std::thread::scope(|s| {
        let mut parts = cands.chunks(chunk);
        let first = parts.next().unwrap_or(&[]);
        let handles: Vec<_> = parts
            .map(|part| s.spawn(move || scan_chunk(plan, filter, part)))
            .collect();
        let mut out = scan_chunk(plan, filter, first);
        for h in handles {
            match h.join() {
                Ok(part) => out.extend(part),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        out
    })
}

/// The matching candidates with their summed fuzzy score (0 without fuzzy terms). Cheapest
/// test first: the name prefilter reads flat buffers, selectors touch the row, skim last.
fn scan_chunk(plan: &Plan<'_>, filter: &NameFilter, cands: &[u32]) -> Vec<(u32, i64)> {
    let selectors = plan.query.selectors();
    let Some(names) = plan.names.filter(|_| !filter.is_empty()) else {
        return select_only(plan, cands);
    };
    let mut out = Vec::new();
    for &i in cands {
        if let Some(k) = plan.known {
            let old = k.remap.get(i as usize).and_then(|&j| k.old.get(j as usize));
            if let Some(&s) = old {
                if s != NO_MATCH {
                    out.push((i, s));
                }
                continue;
            }
        }
        let (name, lower) = (names.get(i as usize), names.lower(i as usize));
        if !filter.prefilter(name, lower)
            || !selectors.iter().all(|s| s.matches(&plan.rows[i as usize].labels))
        {
            continue;
        }
        if let Some(s) = filter.score(name, lower) {
            out.push((i, s));
        }
    }
    out
}

/// [`scan_chunk`] for a query of label selectors only. Works in blocks: first gathers the
/// label lists of a block of rows, then matches them, so the cache misses of many rows
/// (each row and its labels live in their own heap allocations) overlap instead of
/// queueing behind each other.
fn select_only(plan: &Plan<'_>, cands: &[u32]) -> Vec<(u32, i64)> {
    const BLOCK: usize = 64;
    let selectors = plan.query.selectors();
    let mut out = Vec::new();
    let mut block: Vec<(u32, &LabelPairs)> = Vec::with_capacity(BLOCK);
    for chunk in cands.chunks(BLOCK) {
        block.clear();
        for &i in chunk {
            let old = plan
                .known
                .and_then(|k| k.old.get(*k.remap.get(i as usize)? as usize));
            match old {
                Some(&s) if s != NO_MATCH => out.push((i, s)),
                Some(_) => {}
                None => block.push((i, &plan.rows[i as usize].labels)),
            }
        }
        // Independent loads of every list's pairs: the misses overlap, and the matching
        // below then finds the lists in cache.
        let touched = block
            .iter()
            .flat_map(|(_, l)| l.iter())
            .fold(0usize, |acc, p| acc ^ p.1.len());
        std::hint::black_box(touched);
        for &(i, labels) in &block {
            if selectors.iter().all(|s| s.matches_pairs(labels)) {
                out.push((i, 0));
            }
        }
    }
    out
}

/// Display order of the matches: by score (best first) then the sort when a fuzzy term is
/// active under [`SortBy::Name`]; otherwise by the sort alone. Sorts plain `u64` keys (score
/// in the high half, position in the low half) and maps positions back to rows.
fn order_matches(plan: &Plan<'_>, matched: &[(u32, i64)]) -> Vec<u32> {
    let reverse = plan.sort.reverse;
    let flip = |r: u32| if reverse { u32::MAX - r } else { r };
    let ranked = plan.query.is_fuzzy() && plan.sort.by == SortBy::Name;
    let worse = |s: i64| {
        let s = if ranked {
            s.clamp(i64::from(i32::MIN), i64::from(i32::MAX))
        } else {
            i64::from(i32::MAX)
        };
        (i64::from(i32::MAX) - s) as u64
    };
    let mut keys: Vec<u64> = matched
        .iter()
        .map(|&(i, s)| (worse(s) << 32) | u64::from(flip(plan.order.rank(i))))
        .collect();
    keys.sort_unstable();
    keys.into_iter().map(|k| plan.order.at(flip(k as u32))).collect()
}
