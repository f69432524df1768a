//! The text of a history view: the observed revisions' rows (time received, resourceVersion,
//! generation, managers, summary), the rollout history's rows (revision, age, images,
//! change-cause) and the two kinds of diff (an observed revision against another; one
//! revision's pod template against another's). Every line is sanitized. Pure; must not keep
//! state (that is `crate::app::history::model`).

use serde_json::{json, Value};

use crate::detail::diff::{diff, text};
use crate::kube::history::rollout::{InUse, RolloutRevision};
use crate::kube::history::rollout_watch::RolloutView;
use crate::kube::history::{ObjectRecord, Via};
use crate::kube::sanitize::sanitize;
use crate::table::format::age;

/// `HH:MM:SS` of unix seconds `t` in the local time zone.
pub fn clock(t: i64) -> String {
    jiff::Timestamp::from_second(t)
        .map(|t| {
            t.to_zoned(jiff::tz::TimeZone::system())
                .strftime("%H:%M:%S")
                .to_string()
        })
        .unwrap_or_else(|_| "?".into())
}

/// Widest MANAGER column of the observed rows; longer owner lists are cut with `…`.
const MANAGER_WIDTH: usize = 40;
/// Widest IMAGES column of the rollout rows.
const IMAGES_WIDTH: usize = 40;

/// `s` cut to `width` characters, the last one `…` when cut.
fn cut(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(width.saturating_sub(1)).collect();
    out.push('…');
    out
}

fn clean(lines: Vec<String>) -> Vec<String> {
    lines.into_iter().map(|l| sanitize(&l).into_owned()).collect()
}

/// The observed part: a head line (since when, how many, evictions, deletion), the column
/// header, then one row per revision, newest first, `*` before those `marked` (indices).
pub fn observed_rows(record: &ObjectRecord, since: &str, noise: bool, marked: &[usize]) -> Vec<String> {
    let n = record.revisions.len();
    let mut head = format!(
        "recording since {since} · {n} revision{}",
        if n == 1 { "" } else { "s" }
    );
    if record.evicted > 0 {
        head.push_str(&format!(" · {} older evicted", record.evicted));
    }
    match record.deleted {
        Some(t) if record.deleted_unseen => {
            head.push_str(&format!(" · deleted in a watch gap (relist {})", clock(t)))
        }
        Some(t) => head.push_str(&format!(" · deleted at {}", clock(t))),
        None => {}
    }
    if noise {
        head.push_str(" · heartbeats shown");
    }
    let revs = &record.revisions;
    let owners_of = |m: &crate::kube::history::Revision| -> String {
        let owners: Vec<String> = m
            .owners
            .iter()
            .filter_map(|&o| m.managers.get(usize::from(o)))
            .map(|e| e.label())
            .collect();
        owners.join(", ")
    };
    // Columns as wide as their widest value (managers at most MANAGER_WIDTH, then cut).
    let rv_width = revs
        .iter()
        .map(|r| r.meta.resource_version.chars().count())
        .max()
        .unwrap_or(0)
        .max(2);
    let manager_width = revs
        .iter()
        .map(|r| owners_of(&r.meta).chars().count())
        .max()
        .unwrap_or(0)
        .clamp(7, MANAGER_WIDTH);
    let mut out = vec![
        head,
        format!(
            "  {:<8}  {:<rv_width$}  {:>4}  {:<manager_width$}  CHANGES",
            "RECEIVED", "RV", "GEN", "MANAGER"
        ),
    ];
    for (i, r) in revs.iter().enumerate() {
        let m = &r.meta;
        let older = revs.get(i + 1);
        let generation = match (m.generation, older.and_then(|o| o.meta.generation)) {
            (Some(g), Some(p)) if g != p => g.to_string(),
            (Some(g), None) if older.is_none() => g.to_string(),
            _ => String::new(),
        };
        let owners = cut(&owners_of(m), manager_width);
        let mut what = String::new();
        if m.recreated {
            what.push_str("recreated (new uid), ");
        }
        match older {
            Some(o) => what.push_str(&summary(record, &diff(&o.body, &r.body), noise)),
            None if record.evicted > 0 => what.push_str("oldest kept (earlier revisions evicted)"),
            None => what.push_str("first observed"),
        }
        if m.via == Via::Relist {
            what.push_str(" (seen at a relist: revisions in between not observed)");
        }
        let mark = if marked.contains(&i) { '*' } else { ' ' };
        out.push(format!(
            "{mark} {:<8}  {:<rv_width$}  {:>4}  {:<manager_width$}  {}",
            clock(m.received),
            m.resource_version,
            generation,
            owners,
            what
        ));
    }
    clean(out)
}

/// A revision's summary (`text::summary`); a Secret's revision without a change in its
/// recorded body (its metadata alone) was a write to its data, which is not recorded.
fn summary(record: &ObjectRecord, changes: &[crate::detail::diff::Change], noise: bool) -> String {
    if changes.is_empty() && &*record.id.resource == "secrets" {
        return "data written (a Secret's data is not recorded)".into();
    }
    text::summary(changes, noise)
}

/// The diff of observed revisions `newer` and `older` (indices, newest first).
pub fn observed_diff(record: &ObjectRecord, newer: usize, older: usize, noise: bool) -> Vec<String> {
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
            if noise { " · heartbeats shown" } else { "" }
        ))
        .into_owned(),
        String::new(),
    ];
    let body = text::lines(&changes, noise);
    if body.is_empty() {
        out.push(summary(record, &changes, noise));
    }
    out.extend(body);
    out
}

/// The rollout part of `kind_name`'s history (a Deployment, StatefulSet or DaemonSet): a
/// head line, and when there are revisions the column header and one row per revision of
/// `revisions` (newest first), `*` before those `marked` (indices), the one `in_use` said.
/// `view` is `None` while the loop has not started the watch.
pub fn rollout_rows(
    view: Option<&RolloutView>,
    revisions: &[RolloutRevision],
    in_use: Option<InUse<'_>>,
    marked: &[usize],
    now: i64,
) -> Vec<String> {
    let Some(view) = view else {
        return vec!["rollout history: waiting for the connection".into()];
    };
    let source = view.source.label();
    if !view.listed {
        return clean(vec![if view.state.is_failure() {
            format!("rollout history: {source}: {}", view.state)
        } else {
            format!("rollout history: reading {source}…")
        }]);
    }
    if revisions.is_empty() {
        return vec![format!("rollout history: no {source} with a revision number")];
    }
    let mut head = format!(
        "rollout history · {} {source} (the cluster's own record)",
        revisions.len()
    );
    if view.state.is_failure() {
        head.push_str(&format!(" · {}", view.state));
    }
    let images_of = |r: &RolloutRevision| r.images.iter().map(|s| &**s).collect::<Vec<&str>>().join(",");
    let images_width = revisions
        .iter()
        .map(|r| images_of(r).chars().count())
        .max()
        .unwrap_or(0)
        .clamp(6, IMAGES_WIDTH);
    let mut out = vec![
        head,
        format!(
            "  {:<10}  {:<5}  {:<images_width$}  CHANGE-CAUSE",
            "REVISION", "AGE", "IMAGES"
        ),
    ];
    // A DaemonSet says nothing: its newest revision is the one in use.
    let newest = revisions.first().map(|r| r.number);
    for (i, r) in revisions.iter().enumerate() {
        let used = match in_use {
            Some(u) => u.is(r),
            None => Some(r.number) == newest,
        };
        let number = if used {
            format!("{} (in use)", r.number)
        } else {
            r.number.to_string()
        };
        let mark = if marked.contains(&i) { '*' } else { ' ' };
        out.push(format!(
            "{mark} {number:<10}  {:<5}  {:<images_width$}  {}",
            age(r.created, now),
            cut(&images_of(r), images_width),
            r.change_cause.as_deref().unwrap_or("<none>")
        ));
    }
    clean(out)
}

/// `{"spec": {"template": T}}`, so that a template diff reads with the paths of the
/// workload (`spec.template.spec.containers[web].image`).
fn as_workload(template: &Value) -> Value {
    json!({"spec": {"template": template}})
}

/// The pod-template diff from rollout revision `older` to `newer`.
pub fn rollout_diff(newer: &RolloutRevision, older: &RolloutRevision, now: i64) -> Vec<String> {
    let changes = diff(&as_workload(&older.template), &as_workload(&newer.template));
    let mut out = clean(vec![
        format!(
            "rollout diff: revision {} ({}, {} old) → revision {} ({}, {} old) · pod template",
            older.number,
            older.name,
            age(older.created, now),
            newer.number,
            newer.name,
            age(newer.created, now),
        ),
        String::new(),
    ]);
    let body = text::lines(&changes, true);
    if body.is_empty() {
        out.push("the two pod templates are the same".into());
    }
    out.extend(body);
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::kube::history::{History, HistoryConfig, ObjId};

    /// A Secret's history is its metadata: a write to its data (only its manager's time
    /// moved) reads as such, not as `no change`.
    #[test]
    fn a_secrets_data_write_is_named() {
        let h = History::new(HistoryConfig::default(), 1_000);
        let secret = |rv: &str, t: &str| {
            json!({"kind": "PartialObjectMetadata", "metadata": {"name": "db", "namespace": "a", "uid": "u",
                "resourceVersion": rv, "managedFields": [{"manager": "kubectl-patch", "operation": "Update", "time": t}]}})
        };
        h.observe("secrets", secret("1", "2026-01-01T00:00:00Z"), true, 1_001);
        h.observe("secrets", secret("2", "2026-01-02T00:00:00Z"), false, 1_002);
        let record = h
            .record(&ObjId {
                resource: "secrets".into(),
                namespace: Some("a".into()),
                name: "db".into(),
            })
            .unwrap();
        let rows = super::observed_rows(&record, "", false, &[]);
        assert!(
            rows.iter()
                .any(|r| r.contains("kubectl-patch") && r.contains("data written")),
            "{rows:#?}"
        );
        let diff = super::observed_diff(&record, 0, 1, false);
        assert!(diff.iter().any(|l| l.contains("data written")), "{diff:#?}");
    }
}
