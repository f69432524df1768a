//! The history view of one object (`h`): one row per observed revision, newest first — time
//! received, resourceVersion, generation when it changed, the field managers owning the
//! changed fields, a one-line summary — and, for Deployments, StatefulSets and DaemonSets,
//! the cluster's rollout history above them (revision, age, images, change-cause). `enter`
//! shows the structural diff against the previous revision (or between the two marked with
//! `space`): the whole object for observed revisions, the pod template for rollout ones. The
//! selection and the marks hold on to revisions, not positions, so rows arriving meanwhile
//! do not move them. It is a mode of the detail view (`DetailState::history`), sharing its
//! watch (which records high-churn kinds while open), scroll and `ctrl-s`. Pure: reads the
//! context's `History` and the rollout watch's slot; must not do I/O.

use std::sync::Arc;

use arc_swap::ArcSwap;
use serde_json::Value;

use crate::app::history::text::{clock, observed_diff, observed_rows, rollout_diff, rollout_rows};
use crate::kube::history::rollout::{in_use, RolloutRevision, RolloutSource};
use crate::kube::history::rollout_watch::RolloutView;
use crate::kube::history::{ObjId, ObjectRecord, Revision};
use crate::kube::key::ResourceKey;

/// One selectable row of a history view, by identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowId {
    /// A rollout revision, by its number.
    Rollout(i64),
    /// An observed revision, by `Revision::seq`.
    Observed(u64),
}

impl RowId {
    fn same_part(self, other: RowId) -> bool {
        matches!(
            (self, other),
            (RowId::Rollout(_), RowId::Rollout(_)) | (RowId::Observed(_), RowId::Observed(_))
        )
    }
}

/// What the diff shown compares: (newer, older).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffOf {
    /// Two observed revisions, by seq.
    Observed(u64, u64),
    /// Two rollout revisions' pod templates, by number.
    Rollout(i64, i64),
}

/// The UI-local state of a history view.
#[derive(Debug, Default)]
pub struct HistoryState {
    /// Selected row, an index into the rows shown (rollout rows first).
    pub selected: usize,
    /// Rows marked with `space` (at most two, of one part; `enter` diffs them).
    pub marks: Vec<RowId>,
    /// Show heartbeat changes (`m`).
    pub noise: bool,
    /// The diff shown; `None` in the list mode.
    pub diff: Option<DiffOf>,
    /// The rollout watch's slot, attached by the loop (workloads only).
    pub rollout: Option<Arc<ArcSwap<RolloutView>>>,
    /// The row the selection holds on to (set by moving; `None`: the newest observed).
    pinned: Option<RowId>,
    /// The record read at the last refresh.
    record: Option<ObjectRecord>,
    /// The rollout revisions of this object at the last refresh, newest first.
    rollout_revs: Vec<RolloutRevision>,
    /// The rollout lines built at the last refresh.
    rollout_lines: Vec<String>,
    /// The observed part (or the diff) and what it was built from.
    body: Vec<String>,
    stamp: Option<Stamp>,
    /// The selectable rows in order, with their line index.
    rows: Vec<(RowId, usize)>,
}

/// What the cached body was built from: the newest revision's seq, the deletion time, the
/// heartbeat toggle, the diff shown, the marks and the rollout slot's revision.
type Stamp = (Option<(u64, Option<i64>)>, bool, Option<DiffOf>, Vec<RowId>, u64);

/// Which object a detail view's history is about.
pub fn object_id(key: &ResourceKey, name: &str) -> ObjId {
    ObjId {
        resource: key.kind.full_name().into(),
        namespace: key.namespace.as_deref().map(Into::into),
        name: name.into(),
    }
}

impl HistoryState {
    /// Observed revisions known (0 before the first refresh).
    pub fn len(&self) -> usize {
        self.record.as_ref().map_or(0, |r| r.revisions.len())
    }

    /// Whether nothing is known: no observed revision and no rollout revision.
    pub fn is_empty(&self) -> bool {
        self.len() == 0 && self.rollout_revs.is_empty()
    }

    /// The selected row.
    pub fn selected_row(&self) -> Option<RowId> {
        self.rows.get(self.selected).map(|r| r.0)
    }

    /// The line of the selected row (the view highlights it); `None` in a diff or without
    /// rows.
    pub fn selected_line(&self) -> Option<usize> {
        self.diff
            .is_none()
            .then(|| self.rows.get(self.selected).map(|r| r.1))?
    }

    /// The row on `line`, if one is.
    pub fn row_at_line(&self, line: usize) -> Option<usize> {
        self.rows.iter().position(|r| r.1 == line)
    }

    /// Rows shown.
    pub fn rows(&self) -> usize {
        self.rows.len()
    }

    /// Selects row `i` (clamped) and holds on to it.
    pub fn select(&mut self, i: usize) {
        self.selected = i.min(self.rows.len().saturating_sub(1));
        self.pinned = self.selected_row();
    }

    /// The selected observed revision, if an observed row is selected.
    pub fn selected_revision(&self) -> Option<&Revision> {
        let RowId::Observed(seq) = self.selected_row()? else {
            return None;
        };
        self.record
            .as_ref()?
            .revisions
            .iter()
            .map(|r| &r.meta)
            .find(|m| m.seq == seq)
    }

    /// The selected rollout revision (its `number` is what rollback takes), if a rollout row
    /// is selected.
    pub fn selected_rollout(&self) -> Option<&RolloutRevision> {
        let RowId::Rollout(n) = self.selected_row()? else {
            return None;
        };
        self.rollout_revs.iter().find(|r| r.number == n)
    }

    /// The rollout revisions shown, newest first.
    pub fn rollout_revisions(&self) -> &[RolloutRevision] {
        &self.rollout_revs
    }

    /// Re-reads the record of `id` from `history` when it changed and the rollout slot, and
    /// rebuilds `lines` (sanitized). `kind`: the object's (workloads show a rollout part);
    /// `object`: the object as the detail view's watch has it (its uid and revision in use
    /// pick the rollout rows); `now` for ages.
    pub fn refresh(
        &mut self,
        history: Option<&crate::kube::history::History>,
        id: &ObjId,
        kind: &crate::kube::kind::Kind,
        object: Option<&Value>,
        now: i64,
        lines: &mut Vec<String>,
    ) {
        let rollout = self.rollout.as_ref().map(|r| r.load_full());
        let uid = object
            .and_then(|o| o.pointer("/metadata/uid"))
            .and_then(Value::as_str)
            .filter(|u| !u.is_empty());
        self.rollout_revs = rollout.as_deref().map_or_else(Vec::new, |v| {
            v.revisions
                .iter()
                .filter(|r| uid.is_none_or(|u| *r.owner_uid == *u))
                .cloned()
                .collect()
        });
        let rollout_ids: Vec<RowId> = self
            .rollout_revs
            .iter()
            .map(|r| RowId::Rollout(r.number))
            .collect();
        self.rollout_lines = if RolloutSource::of(kind).is_some() {
            let marked = marked_indices(&rollout_ids, &self.marks);
            rollout_rows(
                rollout.as_deref(),
                &self.rollout_revs,
                object.and_then(in_use),
                &marked,
                now,
            )
        } else {
            Vec::new()
        };
        let Some(h) = history else {
            self.record = None;
            self.body = vec!["revision history is off ([history] max_mib = 0) or not connected yet".into()];
            self.stamp = None;
            self.compose(&rollout_ids, lines, now);
            return;
        };
        let latest = h.latest(id);
        let stamp = (
            latest,
            self.noise,
            self.diff,
            self.marks.clone(),
            rollout.as_ref().map_or(0, |r| r.rev),
        );
        if self.stamp.as_ref() != Some(&stamp) {
            if self.stamp.as_ref().map(|s| s.0) != Some(latest) {
                self.record = h.record(id);
            }
            self.stamp = Some(stamp);
            let since = clock(h.since());
            self.body = match &self.record {
                None => vec![format!(
                    "nothing recorded yet (recording since {since}); revisions appear as the object changes"
                )],
                Some(record) => {
                    let ids: Vec<RowId> = record
                        .revisions
                        .iter()
                        .map(|r| RowId::Observed(r.meta.seq))
                        .collect();
                    observed_rows(record, &since, self.noise, &marked_indices(&ids, &self.marks))
                }
            };
        }
        self.compose(&rollout_ids, lines, now);
    }

    /// `lines` from the parts: the diff when one is shown, else the rollout part, a blank
    /// line and the observed part; records where each row is and re-finds the pinned one.
    fn compose(&mut self, rollout_ids: &[RowId], lines: &mut Vec<String>, now: i64) {
        self.rows.clear();
        let observed: Vec<RowId> = self
            .record
            .as_ref()
            .map(|r| r.revisions.iter().map(|r| RowId::Observed(r.meta.seq)).collect())
            .unwrap_or_default();
        // Rows of a part start after its head and column lines.
        let mut out = Vec::new();
        if !self.rollout_lines.is_empty() {
            if !rollout_ids.is_empty() {
                self.rows
                    .extend(rollout_ids.iter().enumerate().map(|(i, r)| (*r, i + 2)));
            }
            out.extend(self.rollout_lines.iter().cloned());
            out.push(String::new());
        }
        let at = out.len();
        if !observed.is_empty() {
            self.rows
                .extend(observed.iter().enumerate().map(|(i, r)| (*r, at + i + 2)));
        }
        out.extend(self.body.iter().cloned());
        self.marks.retain(|m| self.rows.iter().any(|r| r.0 == *m));
        // The selection stays on its revision; without one, on the newest observed one.
        let found = match self.pinned {
            Some(p) => self.rows.iter().position(|r| r.0 == p),
            None => self
                .rows
                .iter()
                .position(|r| matches!(r.0, RowId::Observed(_)))
                .or((!self.rows.is_empty()).then_some(0)),
        };
        match found {
            Some(i) => self.selected = i,
            None => {
                self.selected = self.selected.min(self.rows.len().saturating_sub(1));
                self.pinned = self.selected_row();
            }
        }
        *lines = match self.diff {
            Some(d) => self.diff_lines(d, now),
            None => out,
        };
    }

    /// The lines of diff `d` (sanitized).
    fn diff_lines(&self, d: DiffOf, now: i64) -> Vec<String> {
        match d {
            DiffOf::Observed(newer, older) => {
                let Some(record) = &self.record else {
                    return vec!["no such revision".into()];
                };
                let at = |seq: u64| record.revisions.iter().position(|r| r.meta.seq == seq);
                match (at(newer), at(older)) {
                    (Some(n), Some(o)) => observed_diff(record, n, o, self.noise),
                    _ => vec!["the revision was evicted".into()],
                }
            }
            DiffOf::Rollout(newer, older) => {
                let at = |n: i64| self.rollout_revs.iter().find(|r| r.number == n);
                match (at(newer), at(older)) {
                    (Some(n), Some(o)) => rollout_diff(n, o, now),
                    _ => vec!["the revision is gone from the cluster".into()],
                }
            }
        }
    }

    /// `enter`: the diff of the two marked rows, else of the selected row against the one
    /// before it (the next older revision of its part). `Err` says why there is none.
    pub fn open_diff(&mut self) -> Result<(), String> {
        let pair = match self.marks.as_slice() {
            [a, b] => (*a, *b),
            _ => {
                let Some(sel) = self.selected_row() else {
                    return Err("no revision to diff".into());
                };
                let next = self
                    .rows
                    .iter()
                    .skip(self.selected + 1)
                    .map(|r| r.0)
                    .find(|r| r.same_part(sel));
                match (sel, next) {
                    (_, Some(older)) => (sel, older),
                    (RowId::Rollout(n), None) => {
                        return Err(format!(
                            "revision {n} is the oldest the cluster keeps (spec.revisionHistoryLimit)"
                        ))
                    }
                    (RowId::Observed(_), None) => {
                        return Err("the oldest revision kept has nothing before it to diff".into())
                    }
                }
            }
        };
        self.diff = Some(match pair {
            (RowId::Observed(a), RowId::Observed(b)) => DiffOf::Observed(a.max(b), a.min(b)),
            (RowId::Rollout(a), RowId::Rollout(b)) => DiffOf::Rollout(a.max(b), a.min(b)),
            _ => return Err("mark two revisions of the same part".into()),
        });
        Ok(())
    }

    /// `space`: marks or unmarks the selected row (a third mark replaces the oldest; a mark
    /// in the other part starts over: a template is not diffed against a whole object).
    pub fn toggle_mark(&mut self) {
        let Some(sel) = self.selected_row() else { return };
        if let Some(i) = self.marks.iter().position(|&m| m == sel) {
            self.marks.remove(i);
            return;
        }
        self.marks.retain(|m| m.same_part(sel));
        if self.marks.len() == 2 {
            self.marks.remove(0);
        }
        self.marks.push(sel);
    }

    /// What `ctrl-s` writes: the rollout rows and the observed rows, then each rollout
    /// revision's template diff against the one before it, then each observed revision's
    /// diff against the one before it (heartbeats as toggled).
    pub fn save_text(&self, now: i64) -> String {
        let mut out = self.rollout_lines.clone();
        if !out.is_empty() {
            out.push(String::new());
        }
        if let Some(record) = &self.record {
            out.extend(observed_rows(record, &clock(record.since), self.noise, &[]));
        }
        for w in self.rollout_revs.windows(2) {
            out.push(String::new());
            out.extend(rollout_diff(&w[0], &w[1], now));
        }
        if let Some(record) = &self.record {
            for i in 0..record.revisions.len().saturating_sub(1) {
                out.push(String::new());
                out.extend(observed_diff(record, i, i + 1, self.noise));
            }
        }
        let mut t = out.join("\n");
        t.push('\n');
        t
    }
}

/// The positions in `ids` of the rows `marks` holds.
fn marked_indices(ids: &[RowId], marks: &[RowId]) -> Vec<usize> {
    ids.iter()
        .enumerate()
        .filter(|(_, r)| marks.contains(r))
        .map(|(i, _)| i)
        .collect()
}

/// The state of one revisions view.
#[derive(Debug, Clone)]
pub struct RevisionsState {
    /// The deployment.
    pub target: crate::kube::write::Target,
    /// Its revisions, newest (in use) first.
    pub revisions: Vec<crate::kube::write::rollback::Revision>,
    /// The selected row.
    pub selected: usize,
    /// The live rollout history (the ReplicaSets' list-watch) once the loop started it: the
    /// rows follow it (a rollback, someone else's rollout), as every list does.
    pub rollout: Option<std::sync::Arc<arc_swap::ArcSwap<crate::kube::history::rollout_watch::RolloutView>>>,
    /// The deployment's uid (from the rows first listed) and the `rev` of the rollout view
    /// the rows were last built from.
    pub owner_uid: Option<Box<str>>,
    pub seen: u64,
}

impl RevisionsState {
    /// The selected revision and whether it is the one in use (the newest).
    pub fn selected_revision(&self) -> Option<(&crate::kube::write::rollback::Revision, bool)> {
        self.revisions.get(self.selected).map(|r| (r, self.selected == 0))
    }
}
