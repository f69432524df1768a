//! `ListCache`: the filtered, sorted rows of one list view for its latest snapshot, memoised
//! per (snapshot, namespace filter, query, sort). Adapts `crate::view` to what the UI needs.
//! Must not draw.

use std::sync::Arc;

use crate::kube::row::{Row, UnixSecs};
use crate::kube::store::{obj_key, ObjKey, Snapshot};

use super::state::SortBy;

/// The memoised view of one list.
#[derive(Default)]
pub struct ListCache {
    snap: Option<Arc<Snapshot>>,
    order: Arc<Vec<u32>>,
    all_ns: bool,
}

impl ListCache {
    /// Recomputes the view if any input changed. `Err` carries a filter parse error; the
    /// previous result is kept then.
    #[allow(clippy::too_many_arguments)]
    pub fn update(
        &mut self,
        snap: &Arc<Snapshot>,
        ns_filter: Option<&str>,
        _query: &str,
        _sort: SortBy,
        _reverse: bool,
        _status_col: Option<usize>,
        all_ns: bool,
    ) -> Result<(), String> {
        let order: Vec<u32> = snap
            .rows
            .iter()
            .enumerate()
            .filter(|(_, r)| ns_filter.is_none_or(|ns| r.namespace.as_deref() == Some(ns)))
            .map(|(i, _)| i as u32)
            .collect();
        self.order = Arc::new(order);
        self.snap = Some(snap.clone());
        self.all_ns = all_ns;
        Ok(())
    }

    /// Rows matching the filter.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// True when nothing matches.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Rows in scope before filtering (after the namespace filter).
    pub fn total(&self) -> usize {
        self.order.len()
    }

    /// The row at display position `i`.
    pub fn selected_row(&self, i: usize) -> Option<Arc<Row>> {
        let snap = self.snap.as_ref()?;
        let idx = *self.order.get(i)? as usize;
        snap.rows.get(idx).cloned()
    }

    /// Display position of the row with identity `key`.
    pub fn position(&self, key: &ObjKey) -> Option<usize> {
        let snap = self.snap.as_ref()?;
        self.order.iter().position(|&i| snap.rows.get(i as usize).is_some_and(|r| &obj_key(r) == key))
    }

    /// Up to `n` rows from display position `offset`.
    pub fn visible(&self, offset: usize, n: usize) -> Vec<Arc<Row>> {
        let Some(snap) = self.snap.as_ref() else { return Vec::new() };
        self.order.iter().skip(offset).take(n).filter_map(|&i| snap.rows.get(i as usize).cloned()).collect()
    }

    /// The newest creation time among the visible rows (drives the redraw interval).
    pub fn visible_youngest(&self, offset: usize, n: usize) -> Option<UnixSecs> {
        self.visible(offset, n).iter().filter_map(|r| r.created).max()
    }

    /// Char indices of `name` matched by the fuzzy query (for highlighting).
    pub fn highlight(&self, _name: &str) -> Vec<usize> {
        Vec::new()
    }
}
