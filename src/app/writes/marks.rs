//! Marks of a list: rows the user picked with `space` (one), `ctrl-space` (a range from the
//! last mark) and cleared with `ctrl-\`, keyed by uid so they survive filtering, sorting and
//! live updates, and dropped when their object leaves the snapshot. Actions apply to the
//! marked rows, else to the selected one ([`targets`]). Owns that bookkeeping; must not
//! perform I/O.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::kube::row::Row;
use crate::kube::store::Snapshot;
use crate::kube::write::Target;

use crate::app::state::ListState;

/// A marked object's namespace and name.
type Named = (Option<Arc<str>>, Arc<str>);

/// The marked rows of one list, by `metadata.uid`, with their namespace and name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Marks {
    /// uid → (namespace, name), in uid order; the display order comes from the list.
    by_uid: BTreeMap<Box<str>, Named>,
    /// uid of the row marked last: where `ctrl-space` starts its range.
    anchor: Option<Box<str>>,
    /// (epoch, revision) of the snapshot the marks were last checked against.
    checked: Option<(u64, u64)>,
}

impl Marks {
    /// How many rows are marked.
    pub fn len(&self) -> usize {
        self.by_uid.len()
    }

    /// Whether nothing is marked.
    pub fn is_empty(&self) -> bool {
        self.by_uid.is_empty()
    }

    /// Whether the row with `uid` is marked.
    pub fn contains(&self, uid: &str) -> bool {
        !uid.is_empty() && self.by_uid.contains_key(uid)
    }

    /// Marks `row`, or unmarks it if it was marked; rows without a uid cannot be marked.
    pub fn toggle(&mut self, row: &Row) {
        if row.uid.is_empty() {
            return;
        }
        if self.by_uid.remove(&row.uid).is_none() {
            self.insert(row);
        }
        self.anchor = Some(row.uid.clone());
    }

    fn insert(&mut self, row: &Row) {
        self.by_uid
            .insert(row.uid.clone(), (row.namespace.clone(), row.name.clone()));
    }

    /// Marks every row of `rows` (a display range, anchor and cursor included).
    pub fn mark_all<'a>(&mut self, rows: impl IntoIterator<Item = &'a Arc<Row>>) {
        let mut last = None;
        for r in rows {
            if !r.uid.is_empty() {
                self.insert(r);
                last = Some(r.uid.clone());
            }
        }
        if last.is_some() {
            self.anchor = last;
        }
    }

    /// The uid `ctrl-space` starts from.
    pub fn anchor(&self) -> Option<&str> {
        self.anchor.as_deref()
    }

    /// Unmarks everything.
    pub fn clear(&mut self) {
        self.by_uid.clear();
        self.anchor = None;
    }

    /// Drops the marks of objects no longer in `snap` (once it is a complete list); cheap when
    /// the snapshot did not change since the last call.
    pub fn prune(&mut self, snap: &Snapshot) {
        if self.by_uid.is_empty() || !snap.listed || self.checked == Some((snap.epoch, snap.rev)) {
            return;
        }
        self.checked = Some((snap.epoch, snap.rev));
        let present: std::collections::HashSet<&str> = snap.rows.iter().map(|r| &*r.uid).collect();
        self.by_uid.retain(|uid, _| present.contains(&**uid));
        if self.anchor.as_deref().is_some_and(|a| !present.contains(a)) {
            self.anchor = None;
        }
    }

    /// The marked objects as (namespace, name), sorted by namespace then name.
    pub fn names(&self) -> Vec<Named> {
        let mut v: Vec<_> = self.by_uid.values().cloned().collect();
        v.sort();
        v
    }
}

/// What an action on list `l` applies to: the marked rows, else the selected one; empty
/// when there is neither.
pub fn targets(l: &ListState) -> Vec<Target> {
    let kind = l.key.kind.clone();
    if !l.marks.is_empty() {
        return l
            .marks
            .names()
            .into_iter()
            .map(|(ns, name)| Target::new(kind.clone(), ns.as_deref(), &name))
            .collect();
    }
    l.cache
        .selected_row(l.selected)
        .map(|r| Target::new(kind, r.namespace.as_deref(), &r.name))
        .into_iter()
        .collect()
}

/// `space`: marks or unmarks the selected row and moves down one row.
pub fn toggle(l: &mut ListState) {
    let Some(row) = l.cache.selected_row(l.selected) else {
        return;
    };
    l.marks.toggle(&row);
    if l.selected + 1 < l.cache.len() {
        l.selected += 1;
        l.selected_key = l
            .cache
            .selected_row(l.selected)
            .map(|r| crate::kube::store::obj_key(&r));
    }
}

/// `ctrl-space`: marks every row between the last mark (as displayed now) and the selected
/// one; without a visible last mark, the selected row alone.
pub fn range(l: &mut ListState) {
    let here = l.selected;
    let from = l
        .marks
        .anchor()
        .and_then(|uid| (0..l.cache.len()).find(|&i| l.cache.selected_row(i).is_some_and(|r| &*r.uid == uid)))
        .unwrap_or(here);
    let (a, b) = if from <= here { (from, here) } else { (here, from) };
    let rows = l.cache.visible(a, b - a + 1);
    l.marks.mark_all(&rows);
}
