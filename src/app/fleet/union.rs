//! The merge of a union list: each member's latest snapshot (narrowed to the view's namespace
//! when an all-namespaces informer serves it) joined into one snapshot the list's pipeline
//! (filter, sort, selection) reads as if it came from one informer. A list is ordered by
//! member (the union's order: the CONTEXT column first), then namespace and name, and is
//! made of the members' own chunks, shared by pointer: a join costs one pointer per 64 rows,
//! and the view cache carries everything of the members that did not change (as it does
//! between two publications of one informer). An event timeline is merged newest first
//! across members. Rows are never copied. Must not draw nor perform I/O.

use std::cmp::{Ordering, Reverse};
use std::sync::Arc;

use crate::kube::key::ResourceKey;
use crate::kube::row::Row;
use crate::kube::rows::{Chunk, Rows};
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
    let kept: Vec<(&Arc<Snapshot>, Option<&str>)> = snaps
        .iter()
        .zip(&filters)
        .filter_map(|((origin, s), ns)| Some((s.as_ref().filter(|_| keeps(*origin))?, ns.as_deref())))
        .collect();
    let rows = if key.kind.is_timeline() {
        let parts = kept.iter().map(|(s, ns)| in_scope(s, *ns).collect()).collect();
        merge(parts, by_last_seen)
    } else {
        join(&kept)
    };
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

/// The rows of `s` in namespace `ns` (all of them for `None`).
fn in_scope<'a>(s: &'a Snapshot, ns: Option<&'a str>) -> impl Iterator<Item = Arc<Row>> + 'a {
    s.rows
        .iter()
        .filter(move |r| ns.is_none_or(|n| r.namespace.as_deref() == Some(n)))
        .cloned()
}

/// The members' rows one after the other, made of their own chunks (shared, not rebuilt); a
/// member narrowed to a namespace gives new chunks of the rows in it.
fn join(kept: &[(&Arc<Snapshot>, Option<&str>)]) -> Rows {
    let mut chunks: Vec<Chunk> = Vec::new();
    for (s, ns) in kept {
        match ns {
            None => chunks.extend(s.rows.chunks().iter().cloned()),
            Some(_) => chunks.extend(crate::kube::rows::cut(in_scope(s, *ns).collect())),
        }
    }
    Rows::from_chunks(chunks)
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
