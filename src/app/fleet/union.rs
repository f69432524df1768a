//! The merge of a union list: each member's latest snapshot (narrowed to the view's namespace
//! when an all-namespaces informer serves it) merged into one snapshot the list's pipeline
//! (filter, sort, selection) reads as if it came from one informer. Rows are shared, not
//! copied: the merge holds `Arc`s. Must not draw nor perform I/O.

use std::cmp::{Ordering, Reverse};
use std::sync::Arc;

use crate::kube::key::ResourceKey;
use crate::kube::row::Row;
use crate::kube::rows::Rows;
use crate::kube::store::Snapshot;
use crate::kube::sync::SyncState;

use super::model::UnionFeed;

/// The epoch merged snapshots carry: no informer hands it out (informer epochs start at 1 and
/// count up), so memoisation never mistakes a merge for an informer's snapshot.
pub const MERGED_EPOCH: u64 = u64::MAX;

/// The filter's `ctx:` terms and the rest of it: `ctx:eu` keeps the members whose context
/// contains `eu` (case-insensitively; several terms: any of them), `ctx:!eu` leaves them out.
pub fn split_ctx(filter: &str) -> (Vec<String>, String) {
    let mut terms = Vec::new();
    let mut rest = Vec::new();
    for w in filter.split_whitespace() {
        match w.strip_prefix("ctx:").or_else(|| w.strip_prefix("context:")) {
            Some(t) if !t.is_empty() => terms.push(t.to_lowercase()),
            _ => rest.push(w),
        }
    }
    (terms, rest.join(" "))
}

/// The origins `terms` keep of `names` (`None`: no terms, every member).
pub fn kept(names: &[(u16, Arc<str>)], terms: &[String]) -> Option<Vec<u16>> {
    if terms.is_empty() {
        return None;
    }
    let (out, keep): (Vec<&String>, Vec<&String>) = terms.iter().partition(|t| t.starts_with('!'));
    Some(
        names
            .iter()
            .filter(|(_, n)| {
                let n = n.to_lowercase();
                let dropped = out.iter().any(|t| n.contains(&t[1..]));
                let wanted = keep.is_empty() || keep.iter().any(|t| n.contains(t.as_str()));
                wanted && !dropped
            })
            .map(|(o, _)| *o)
            .collect(),
    )
}

/// Brings `feed.merged` up to date with its members' latest snapshots, narrowed to the
/// members `only` keeps (`None`: all); a no-op (one atomic load per member) when nothing
/// changed since the last merge. `key` is the list's.
pub fn refresh(feed: &mut UnionFeed, key: &ResourceKey, only: Option<Vec<u16>>) {
    let snaps = feed.snapshots();
    let now: Vec<Option<(u64, u64)>> = snaps
        .iter()
        .map(|(_, s)| s.as_ref().map(|s| (s.epoch, s.rev)))
        .collect();
    if feed.merged.is_some() && now == feed.built_from && only == feed.only {
        return;
    }
    let keeps = |origin: u16| only.as_ref().is_none_or(|o| o.contains(&origin));
    let filters: Vec<Option<String>> = feed
        .members
        .iter()
        .map(|m| m.source.as_ref().and_then(|s| s.filter_ns.clone()))
        .collect();
    let parts: Vec<Vec<Arc<Row>>> = snaps
        .iter()
        .zip(&filters)
        .map(|((origin, s), ns)| match s {
            Some(s) if keeps(*origin) => s
                .rows
                .iter()
                .filter(|r| ns.as_deref().is_none_or(|n| r.namespace.as_deref() == Some(n)))
                .cloned()
                .collect(),
            _ => Vec::new(),
        })
        .collect();
    let timeline = key.kind.is_timeline();
    let rows = merge(parts, if timeline { by_last_seen } else { by_name });
    let listed = snaps.iter().any(|(_, s)| s.as_ref().is_some_and(|s| s.listed));
    feed.rev += 1;
    feed.merged = Some(Arc::new(Snapshot {
        key: key.clone(),
        epoch: MERGED_EPOCH,
        rev: feed.rev,
        rows,
        state: combined(snaps.iter().filter_map(|(_, s)| s.as_ref().map(|s| &s.state))),
        listed,
        resource_version: None,
    }));
    feed.built_from = now;
    feed.only = only;
}

/// The union's state in one: live when every member that answered is live, else the first
/// member's that is not (the header names each member's own).
fn combined<'a>(states: impl Iterator<Item = &'a SyncState>) -> SyncState {
    let mut first_bad = None;
    let mut any = false;
    for s in states {
        any = true;
        if !s.is_live() && first_bad.is_none() {
            first_bad = Some(s.clone());
        }
    }
    match (any, first_bad) {
        (false, _) => SyncState::Pending,
        (true, Some(bad)) => bad,
        (true, None) => SyncState::Live,
    }
}

/// The informers' order, then the member's.
fn by_name(a: &Row, b: &Row) -> Ordering {
    (a.namespace.as_deref(), &*a.name, a.origin).cmp(&(b.namespace.as_deref(), &*b.name, b.origin))
}

/// The timeline's order (newest LAST SEEN first, then name), then the member's.
fn by_last_seen(a: &Row, b: &Row) -> Ordering {
    let key = |r: &Row| {
        let last = r.event.as_ref().and_then(|e| e.last_seen);
        (last.is_none(), Reverse(last.unwrap_or(i64::MIN)))
    };
    key(a)
        .cmp(&key(b))
        .then_with(|| a.name.cmp(&b.name))
        .then(a.origin.cmp(&b.origin))
}

/// The parts merged in `cmp`'s order. Each part is already in that order (a member's
/// snapshot is), so the stable sort finds them as runs and merges them: O(n log k) for k
/// members, no comparison inside a run.
pub fn merge(parts: Vec<Vec<Arc<Row>>>, cmp: fn(&Row, &Row) -> Ordering) -> Rows {
    let mut all: Vec<Arc<Row>> = Vec::with_capacity(parts.iter().map(Vec::len).sum());
    for part in parts {
        all.extend(part);
    }
    all.sort_by(|a, b| cmp(a, b));
    all.into_iter().collect()
}
