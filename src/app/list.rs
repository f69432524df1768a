//! `ListCache`: the filtered, sorted rows of one list view for its latest snapshot, memoised
//! through [`crate::view::ViewCache`]. Keeps the last valid query while the user types an
//! invalid one. For event timelines it first applies the [`EventLens`] (Warning-only, one
//! object, and the `type:`/`reason:`/`obj:` terms of the filter). Must not draw.

use std::sync::Arc;

use crate::kube::row::{ObjRef, Row, UnixSecs};
use crate::kube::store::{ObjKey, Snapshot};
use crate::view::{self, Query, Sort, ViewCache, ViewResult, ViewSpec};

use super::state::SortBy;

/// Event-timeline narrowing applied before the filter pipeline.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventLens {
    /// Only `type == Warning`.
    pub warnings_only: bool,
    /// Only events about this object.
    pub object: Option<ObjRef>,
}

/// A `col:text` term of the event filter language.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Scoped {
    /// `type:Warning` — TYPE equals (case-insensitive).
    Type(String),
    /// `reason:BackOff` — REASON contains (case-insensitive).
    Reason(String),
    /// `obj:pod/web-0` — OBJECT contains (case-insensitive).
    Object(String),
}

/// Splits the `type:`, `reason:` and `obj:` terms off an event filter; returns them and the
/// rest of the text for the generic filter.
fn split_scoped(text: &str) -> (Vec<Scoped>, String) {
    let mut scoped = Vec::new();
    let mut rest = Vec::new();
    for word in text.split_whitespace() {
        let lower = word.to_ascii_lowercase();
        let term = [
            ("type:", Scoped::Type as fn(String) -> Scoped),
            ("reason:", Scoped::Reason),
            ("obj:", Scoped::Object),
            ("object:", Scoped::Object),
        ]
        .into_iter()
        .find_map(|(prefix, make)| lower.strip_prefix(prefix).map(|v| make(v.to_owned())));
        match term {
            Some(t) => scoped.push(t),
            None => rest.push(word),
        }
    }
    (scoped, rest.join(" "))
}

fn cell_text(row: &Row, header: &str) -> String {
    crate::table::event::cell(row, header).to_ascii_lowercase()
}

fn lens_keeps(lens: &EventLens, scoped: &[Scoped], row: &Row) -> bool {
    let Some(ev) = row.event.as_deref() else {
        return true;
    };
    if lens.warnings_only && !ev.warning {
        return false;
    }
    if let Some(o) = &lens.object {
        let i = &ev.involved;
        let same = i.kind.eq_ignore_ascii_case(&o.kind)
            && i.name == o.name
            && i.namespace == o.namespace
            && (i.uid.is_empty() || o.uid.is_empty() || i.uid == o.uid);
        if !same {
            return false;
        }
    }
    scoped.iter().all(|t| match t {
        Scoped::Type(v) => cell_text(row, "TYPE") == *v,
        Scoped::Reason(v) => cell_text(row, "REASON").contains(v.as_str()),
        Scoped::Object(v) => cell_text(row, "OBJECT").contains(v.as_str()),
    })
}

/// A snapshot narrowed by a lens, with what it was derived from.
struct Lensed {
    rev: u64,
    epoch: u64,
    lens: EventLens,
    scoped: Vec<Scoped>,
    snap: Arc<Snapshot>,
}

/// The memoised view of one list.
#[derive(Default)]
pub struct ListCache {
    cache: ViewCache,
    lens: EventLens,
    /// The lensed snapshot and what it was derived from.
    lensed: Option<Lensed>,
    snap: Option<Arc<Snapshot>>,
    result: Option<Arc<ViewResult>>,
    query: Query,
    text: String,
    all_ns: bool,
}

impl ListCache {
    /// Sets the event lens used by the next [`ListCache::update`].
    pub fn set_lens(&mut self, lens: EventLens) {
        self.lens = lens;
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
        let snap = if is_events {
            self.lensed(snap, scoped)
        } else {
            snap.clone()
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
        let by = match (sort, status_col) {
            (SortBy::Name, _) | (SortBy::Status, None) => view::SortBy::Name,
            (SortBy::Age, _) => view::SortBy::Age,
            (SortBy::Status, Some(i)) => view::SortBy::Column(i),
        };
        let spec = ViewSpec {
            query: &self.query,
            namespace: ns_filter,
            sort: Sort { by, reverse },
            all_namespaces: all_ns,
        };
        self.result = Some(self.cache.view(snap, &spec));
        self.snap = Some(snap.clone());
        self.all_ns = all_ns;
        error.map_or(Ok(()), Err)
    }

    /// The snapshot narrowed by the lens and scoped terms, memoised per source revision.
    fn lensed(&mut self, snap: &Arc<Snapshot>, scoped: Vec<Scoped>) -> Arc<Snapshot> {
        if self.lens == EventLens::default() && scoped.is_empty() {
            return snap.clone();
        }
        if let Some(l) = &self.lensed {
            if l.rev == snap.rev && l.epoch == snap.epoch && l.lens == self.lens && l.scoped == scoped {
                return l.snap.clone();
            }
        }
        let rows: Arc<[Arc<Row>]> = snap
            .rows
            .iter()
            .filter(|r| lens_keeps(&self.lens, &scoped, r))
            .cloned()
            .collect();
        let derived = Arc::new(Snapshot {
            rows,
            ..(**snap).clone()
        });
        self.lensed = Some(Lensed {
            rev: snap.rev,
            epoch: snap.epoch,
            lens: self.lens.clone(),
            scoped,
            snap: derived.clone(),
        });
        derived
    }

    /// The snapshot the current view was computed from (after the event lens, or the
    /// configured fallback namespaces); drawing uses it so one frame is consistent.
    pub fn snapshot(&self) -> Option<&Arc<Snapshot>> {
        self.snap.as_ref()
    }

    /// The rows the view is computed over (after the event lens), in snapshot order.
    pub fn rows(&self) -> &[Arc<Row>] {
        self.snap.as_ref().map_or(&[], |s| &s.rows)
    }

    fn order(&self) -> &[u32] {
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

    /// Rows in scope before filtering (after the namespace filter).
    pub fn total(&self) -> usize {
        self.result.as_ref().map_or(0, |r| r.total)
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
        let snap = self.snap.as_ref()?;
        let is = |i: &u32| {
            snap.rows
                .get(*i as usize)
                .is_some_and(|r| r.namespace == key.0 && r.name == key.1)
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
