//! The history view of one object (`h`): one row per observed revision, newest first — time
//! received, resourceVersion, generation when it changed, the field managers owning the
//! changed fields, a one-line summary — and, on `enter`, the structural diff against the
//! previous revision (or between the two revisions marked with `space`). It is a mode of the
//! detail view (`DetailState::history`), so it shares its watch (which records high-churn
//! kinds while open), scroll and `ctrl-s`. Pure: reads the context's `History` through the
//! view's feed; must not do I/O.

use crate::detail::diff::{diff, text};
use crate::kube::history::{ObjId, ObjectRecord, Revision, Via};
use crate::kube::key::ResourceKey;
use crate::kube::sanitize::sanitize;

/// Lines above the first revision row in the list mode (summary line, column header).
pub const HEADER_LINES: usize = 2;

/// The UI-local state of a history view.
#[derive(Debug, Default)]
pub struct HistoryState {
    /// Selected revision (0 = newest).
    pub selected: usize,
    /// Revisions marked with `space` (at most two; `enter` diffs them).
    pub marks: Vec<usize>,
    /// Show heartbeat changes (`m`).
    pub noise: bool,
    /// The diff shown: (newer, older) revision indices; `None` in the list mode.
    pub diff: Option<(usize, usize)>,
    /// The record read at the last refresh.
    record: Option<ObjectRecord>,
    /// What the lines were built from: newest seq, deletion, noise, diff.
    stamp: Option<Stamp>,
}

/// What a history view's lines were built from: the newest revision's seq, the deletion
/// time, the heartbeat toggle, the diff shown and the marks.
type Stamp = (u64, Option<i64>, bool, Option<(usize, usize)>, Vec<usize>);

/// Which object a detail view's history is about.
pub fn object_id(key: &ResourceKey, name: &str) -> ObjId {
    ObjId {
        resource: key.kind.full_name().into(),
        namespace: key.namespace.as_deref().map(Into::into),
        name: name.into(),
    }
}

fn clock(t: i64) -> String {
    jiff::Timestamp::from_second(t)
        .map(|t| {
            t.to_zoned(jiff::tz::TimeZone::system())
                .strftime("%H:%M:%S")
                .to_string()
        })
        .unwrap_or_else(|_| "?".into())
}

impl HistoryState {
    /// Revisions known (0 before the first refresh).
    pub fn len(&self) -> usize {
        self.record.as_ref().map_or(0, |r| r.revisions.len())
    }

    /// Whether no revision is known.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The selected revision: the hook for rollback (issue 16) and for callers that act on
    /// one revision.
    pub fn selected_revision(&self) -> Option<&Revision> {
        self.record
            .as_ref()?
            .revisions
            .get(self.selected)
            .map(|r| &r.meta)
    }

    /// Re-reads the record of `id` from `history` when it changed and rebuilds `lines`
    /// (sanitized) when anything they show changed.
    pub fn refresh(
        &mut self,
        history: Option<&crate::kube::history::History>,
        id: &ObjId,
        lines: &mut Vec<String>,
    ) {
        let Some(h) = history else {
            *lines = vec!["revision history is off ([history] max_mib = 0) or not connected yet".into()];
            return;
        };
        let latest = h.latest(id);
        let stamp = latest.map(|(seq, deleted)| (seq, deleted, self.noise, self.diff, self.marks.clone()));
        if stamp.is_some() && stamp == self.stamp {
            return;
        }
        if latest.map(|l| l.0) != self.stamp.as_ref().map(|s| s.0) {
            self.record = h.record(id);
        }
        self.stamp = stamp;
        let since = clock(h.since());
        let Some(record) = &self.record else {
            *lines = vec![
                format!(
                    "nothing recorded yet (recording since {since}); revisions appear as the object changes"
                ),
                String::new(),
            ];
            return;
        };
        let n = record.revisions.len();
        self.selected = self.selected.min(n.saturating_sub(1));
        self.marks.retain(|&m| m < n);
        *lines = match self.diff {
            Some((newer, older)) => self.diff_lines(record, newer, older),
            None => self.rows(record, &since),
        };
    }

    fn rows(&self, record: &ObjectRecord, since: &str) -> Vec<String> {
        let mut head = format!("recording since {since} · {} revisions", record.revisions.len());
        if record.evicted > 0 {
            head.push_str(&format!(" · {} older evicted", record.evicted));
        }
        if let Some(t) = record.deleted {
            head.push_str(&format!(" · deleted at {}", clock(t)));
        }
        if self.noise {
            head.push_str(" · heartbeats shown");
        }
        let mut out = vec![
            head,
            format!(
                "  {:<8}  {:<10}  {:>4}  {:<34}  CHANGES",
                "RECEIVED", "RV", "GEN", "MANAGER"
            ),
        ];
        let revs = &record.revisions;
        for (i, r) in revs.iter().enumerate() {
            let m = &r.meta;
            let older = revs.get(i + 1);
            let generation = match (m.generation, older.and_then(|o| o.meta.generation)) {
                (Some(g), Some(p)) if g != p => g.to_string(),
                (Some(g), None) if older.is_none() => g.to_string(),
                _ => String::new(),
            };
            let owners: Vec<String> = m
                .owners
                .iter()
                .filter_map(|&o| m.managers.get(usize::from(o)))
                .map(|e| e.label())
                .collect();
            let mut what = String::new();
            if m.recreated {
                what.push_str("recreated (new uid), ");
            }
            match older {
                Some(o) => what.push_str(&text::summary(&diff(&o.body, &r.body), self.noise)),
                None if record.evicted > 0 => what.push_str("oldest kept (earlier revisions evicted)"),
                None => what.push_str("first observed"),
            }
            if m.via == Via::Relist {
                what.push_str(" (seen at a relist: revisions in between not observed)");
            }
            let mark = if self.marks.contains(&i) { '*' } else { ' ' };
            out.push(format!(
                "{mark} {:<8}  {:<10}  {:>4}  {:<34}  {}",
                clock(m.received),
                m.resource_version,
                generation,
                owners.join(", "),
                what
            ));
        }
        out.into_iter().map(|l| sanitize(&l).into_owned()).collect()
    }

    fn diff_lines(&self, record: &ObjectRecord, newer: usize, older: usize) -> Vec<String> {
        let revs = &record.revisions;
        let (Some(n), Some(o)) = (revs.get(newer), revs.get(older)) else {
            return vec!["no such revision".into()];
        };
        let changes = diff(&o.body, &n.body);
        let mut out = vec![
            sanitize(&format!(
                "diff rv {} ({}) → rv {} ({}){}",
                o.meta.resource_version,
                clock(o.meta.received),
                n.meta.resource_version,
                clock(n.meta.received),
                if self.noise { " · heartbeats shown" } else { "" }
            ))
            .into_owned(),
            String::new(),
        ];
        let body = text::lines(&changes, self.noise);
        if body.is_empty() {
            out.push(text::summary(&changes, self.noise));
        }
        out.extend(body);
        out
    }

    /// `enter`: the diff of the two marked revisions, else of the selected one against the
    /// one before it.
    pub fn open_diff(&mut self) {
        let n = self.len();
        let pair = match self.marks.as_slice() {
            [a, b] => Some(((*a).min(*b), (*a).max(*b))),
            _ if self.selected + 1 < n => Some((self.selected, self.selected + 1)),
            _ => None,
        };
        self.diff = pair;
    }

    /// `space`: marks or unmarks the selected revision (a third mark replaces the oldest).
    pub fn toggle_mark(&mut self) {
        if let Some(i) = self.marks.iter().position(|&m| m == self.selected) {
            self.marks.remove(i);
        } else {
            if self.marks.len() == 2 {
                self.marks.remove(0);
            }
            self.marks.push(self.selected);
        }
    }

    /// What `ctrl-s` writes: every revision row, then each revision's diff against the one
    /// before it (heartbeats as toggled).
    pub fn save_text(&self) -> String {
        let Some(record) = &self.record else {
            return String::new();
        };
        let mut out = self.rows(record, &clock(record.since));
        for i in 0..record.revisions.len().saturating_sub(1) {
            out.push(String::new());
            out.extend(self.diff_lines(record, i, i + 1));
        }
        let mut t = out.join("\n");
        t.push('\n');
        t
    }
}
