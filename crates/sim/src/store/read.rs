//! The read side of the store: paged, filtered lists and the start of a watch (backlog plus
//! live receiver taken atomically). Must not write.
//!
//! Simplification: a continued list is served from the current objects (after the token's
//! key), not from a snapshot at the token's revision as etcd would. An object changed between
//! pages shows its newer version; a watch from the list's revision replays those changes, so
//! a list-then-watch client still converges to the true state.

use std::sync::Arc;

use bytes::Bytes;
use tokio::sync::broadcast;

use super::{Change, ChangeType, Gone, Store, Stored};
use crate::kinds::{KindId, KINDS};
use crate::matching::Filter;

/// A page of a list: raw items, the list's revision, and the key to continue after.
#[derive(Debug, Clone)]
pub struct Page {
    /// The objects' JSON, in key order.
    pub items: Vec<Bytes>,
    /// `metadata.resourceVersion` of the list.
    pub revision: u64,
    /// Key of the last item when more may follow (the next page starts after it).
    pub next: Option<String>,
}

/// A watch's backlog (replayed or initial changes) and its receiver of live changes.
pub type WatchStart = (Vec<Arc<Change>>, broadcast::Receiver<Arc<Change>>);

impl Store {
    /// Up to `limit` (0 = all) matching objects with keys after `after`, from the current
    /// state. The page's revision is the current one unless `at` (a continue token's) is given.
    pub fn list(
        &self,
        kind: KindId,
        filter: &Filter,
        limit: usize,
        after: Option<&str>,
        at: Option<u64>,
    ) -> Page {
        let t = self.table(kind);
        let revision = at.unwrap_or_else(|| self.revision());
        let ns = filter.namespace.as_deref().or(filter.fields.namespace());
        let prefix = ns
            .filter(|_| KINDS[kind].info.namespaced)
            .map(|ns| format!("{ns}/"));
        let start = match (after, &prefix) {
            (Some(a), _) => std::ops::Bound::Excluded(a.to_owned()),
            (None, Some(p)) => std::ops::Bound::Included(p.clone()),
            (None, None) => std::ops::Bound::Unbounded,
        };
        let mut items = Vec::new();
        let mut last = None;
        for (k, o) in t.objects.range((start, std::ops::Bound::Unbounded)) {
            if prefix.as_ref().is_some_and(|p| !k.starts_with(p.as_str())) {
                break;
            }
            if !filter.matches(&o.meta) {
                continue;
            }
            if limit > 0 && items.len() == limit {
                return Page {
                    items,
                    revision,
                    next: last,
                };
            }
            items.push(o.bytes.clone());
            last = Some(k.clone());
        }
        Page {
            items,
            revision,
            next: None,
        }
    }

    /// Every object of `kind` the filter selects, whole (revision, bytes, indexed fields), in
    /// key order: one pass under the kind's lock, each a cheap clone (shared bytes). For
    /// readers that need more than the bytes, such as the metrics API.
    pub fn select(&self, kind: KindId, filter: &Filter) -> Vec<Stored> {
        let t = self.table(kind);
        let ns = filter.namespace.as_deref().or(filter.fields.namespace());
        let prefix = ns
            .filter(|_| KINDS[kind].info.namespaced)
            .map(|ns| format!("{ns}/"));
        let start = match &prefix {
            Some(p) => std::ops::Bound::Included(p.clone()),
            None => std::ops::Bound::Unbounded,
        };
        t.objects
            .range((start, std::ops::Bound::Unbounded))
            .take_while(|(k, _)| prefix.as_ref().is_none_or(|p| k.starts_with(p.as_str())))
            .filter(|(_, o)| filter.matches(&o.meta))
            .map(|(_, o)| o.clone())
            .collect()
    }

    /// Starts a watch of `kind`: the changes after `from` (or, with `None`, every current
    /// object as ADDED), plus a receiver of every later change. Both are taken under the
    /// kind's lock, so nothing is missed or doubled.
    pub fn watch(&self, kind: KindId, from: Option<u64>) -> Result<WatchStart, Gone> {
        let t = self.table(kind);
        let backlog = match from {
            Some(r) if r < t.oldest => {
                return Err(Gone {
                    from: r,
                    oldest: t.oldest,
                })
            }
            Some(r) => {
                let skip = t.log.partition_point(|c| c.obj.rv <= r);
                t.log.iter().skip(skip).cloned().collect()
            }
            None => t
                .objects
                .values()
                .map(|o| {
                    Arc::new(Change {
                        kind: ChangeType::Added,
                        obj: o.clone(),
                        prev: None,
                    })
                })
                .collect(),
        };
        Ok((backlog, t.tx.subscribe()))
    }

    /// The revision a bookmark of `kind` may carry: every change of `kind` at or below it has
    /// been sent to the kind's channel (read under the kind's lock).
    pub fn bookmark_revision(&self, kind: KindId) -> u64 {
        let _t = self.table(kind);
        self.revision()
    }
}
