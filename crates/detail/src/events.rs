//! The end of a describe view: the object's live events, as `kubectl describe` lists them
//! (`Type`, `Reason`, `Age` with `(xN over M)`, `From`, `Message`), oldest first, from the
//! snapshot of the events informer `app::describe_events` keys. Owns that rendering; must not
//! do I/O.

use ktui_kube::row::{Cell, Row};
use ktui_kube::sanitize::sanitize;
use ktui_kube::store::Snapshot;
use ktui_kube::sync::SyncState;
use ktui_table::format::human_duration;

/// TYPE's index in an event row's cells (`ktui_table`'s EVENT columns).
const TYPE: usize = 1;
/// REASON's index.
const REASON: usize = 2;
/// SOURCE's index (`component, host`).
const SOURCE: usize = 6;
/// FIRST SEEN's index (`firstTimestamp`, else `eventTime`).
const FIRST_SEEN: usize = 8;

/// `From`: the reporting component without its host (`kubelet`, not `kubelet, node-1`).
fn from(source: &str) -> &str {
    source.split(", ").next().unwrap_or(source)
}

fn text(row: &Row, i: usize) -> String {
    row.cells.get(i).and_then(Cell::literal).unwrap_or("").to_owned()
}

/// The `Events:` section for `snap` (`None`: not subscribed yet), ages against `now`, only
/// rows whose uid matches `uid` when both are known (a recreated object's old events are
/// left out).
pub fn lines(snap: Option<&Snapshot>, uid: &str, now: i64) -> Vec<String> {
    let mut out = vec![String::new()];
    let Some(snap) = snap else {
        out.push("Events:           (connecting…)".into());
        return out;
    };
    let mut rows: Vec<&Row> = snap
        .rows
        .iter()
        .map(|r| r.as_ref())
        .filter(|r| {
            r.event
                .as_ref()
                .is_some_and(|e| uid.is_empty() || e.involved.uid.is_empty() || *e.involved.uid == *uid)
        })
        .collect();
    if rows.is_empty() {
        let state = match &snap.state {
            SyncState::Live => "<none>".to_owned(),
            // Still coming: none *yet*.
            SyncState::Pending | SyncState::Syncing { .. } => format!("<none yet: {}>", snap.state),
            // Refused: there may well be events, ktui may not read them.
            SyncState::Forbidden { verb, resource } => format!("events: forbidden ({verb} {resource})"),
            other => format!("events: {other}"),
        };
        out.push(format!("Events:           {}", sanitize(&state)));
        return out;
    }
    rows.sort_by_key(|r| r.event.as_ref().and_then(|e| e.last_seen));
    let ago = |t: Option<i64>| t.map_or_else(|| "<unknown>".to_owned(), |t| human_duration(now - t));
    let cells: Vec<([String; 4], &str)> = rows
        .iter()
        .filter_map(|r| {
            let e = r.event.as_ref()?;
            // kubectl: `last (xN over first)` for repeats, else the first sighting.
            let first = match r.cells.get(FIRST_SEEN) {
                Some(Cell::Age(t)) => *t,
                _ => None,
            };
            let age = if e.count > 1 {
                format!("{} (x{} over {})", ago(e.last_seen), e.count, ago(first))
            } else {
                ago(first.or(e.last_seen))
            };
            let source = text(r, SOURCE);
            Some((
                [text(r, TYPE), text(r, REASON), age, from(&source).to_owned()],
                &*e.message,
            ))
        })
        .collect();
    let mut table = vec![
        ["Type", "Reason", "Age", "From", "Message"]
            .map(String::from)
            .to_vec(),
        ["----", "------", "---", "----", "-------"]
            .map(String::from)
            .to_vec(),
    ];
    for (c, message) in &cells {
        let mut lines = message.lines();
        let first = lines.next().unwrap_or("").to_owned();
        table.push([c.to_vec(), vec![first]].concat());
        // The rest of a multi-line message, under the first line.
        table.extend(lines.map(|l| {
            vec![
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                l.to_owned(),
            ]
        }));
    }
    out.push("Events:".into());
    out.extend(super::describe::fmt::aligned(&table));
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use super::*;
    use ktui_kube::builtin::BuiltinKind;
    use ktui_kube::key::ResourceKey;
    use ktui_kube::row::RowCtx;

    fn event(name: &str, uid: &str, reason: &str, last: &str, count: i64) -> Arc<Row> {
        let ev = json!({"metadata": {"name": name, "namespace": "a", "uid": name,
                "creationTimestamp": "2026-11-30T10:00:00Z"},
            "involvedObject": {"kind": "Pod", "name": "web", "namespace": "a", "uid": uid},
            "type": "Warning", "reason": reason, "message": "back-off\nsecond line",
            "source": {"component": "kubelet", "host": "node-1"},
            "firstTimestamp": "2026-11-30T09:50:00Z", "lastTimestamp": last, "count": count});
        let row = ktui_table::decode_row(BuiltinKind::Event, ev.to_string().as_bytes(), &RowCtx::default());
        Arc::new(row.unwrap())
    }

    #[test]
    fn events_of_this_object_oldest_first_with_repeat_counts() {
        let key = ResourceKey::new(BuiltinKind::Event, Some("a"))
            .with_fields("involvedObject.kind=Pod,involvedObject.name=web");
        let mut snap = Snapshot::empty(key, 1);
        snap.state = SyncState::Live;
        snap.rows = vec![
            event("e2", "u1", "BackOff", "2026-11-30T10:09:00Z", 5),
            event("e1", "u1", "Pulled", "2026-11-30T10:01:00Z", 1),
            event("old", "u0", "Killing", "2026-11-30T10:05:00Z", 1),
        ]
        .into();
        let now = parse("2026-11-30T10:10:00Z");
        let text = lines(Some(&snap), "u1", now).join("\n");
        let pulled = text.find("Pulled").unwrap();
        let backoff = text.find("BackOff").unwrap();
        assert!(pulled < backoff, "oldest first\n{text}");
        assert!(
            text.contains("60s (x5 over 20m)"),
            "first seen, not creation\n{text}"
        );
        assert!(
            text.contains("Pulled   20m "),
            "a single event: first seen\n{text}"
        );
        assert!(text.contains("kubelet ") && !text.contains("node-1"), "{text}");
        assert!(!text.contains("Killing"), "another object's events\n{text}");
        assert!(text.lines().any(|l| l.trim() == "second line"), "{text}");
        snap.rows = Vec::new().into();
        assert!(lines(Some(&snap), "u1", now)
            .join("\n")
            .contains("Events:           <none>"));
        snap.state = SyncState::Forbidden {
            verb: "list".into(),
            resource: "events".into(),
        };
        let text = lines(Some(&snap), "u1", now).join("\n");
        assert!(
            text.contains("Events:           events: forbidden (list events)") && !text.contains("none yet"),
            "{text}"
        );
        snap.state = SyncState::Syncing { received: 0 };
        assert!(lines(Some(&snap), "u1", now)
            .join("\n")
            .contains("Events:           <none yet: syncing 0…>"));
    }

    fn parse(s: &str) -> i64 {
        ktui_table::meta::parse_rfc3339(s).unwrap()
    }
}
