//! The event timeline's rules: LAST SEEN ordering over every null combination of the time
//! fields, repeated occurrences collapsing, message neutralisation, relist merging with
//! expiry, and both bounds.

use std::sync::Arc;
use std::time::Duration;

use ktui::kube::builtin::BuiltinKind;
use ktui::kube::key::ResourceKey;
use ktui::kube::row::{Health, RowCtx};
use ktui::kube::sink::Sink;
use ktui::kube::store::{Publisher, Slot};
use ktui::kube::timeline::{TimelineBounds, TimelineWriter};
use ktui::table::format::format_cell;
use ktui::table::EventObj;
use serde_json::{json, Value};

const NOW: i64 = 1_796_040_000;

fn ts(secs_ago: i64) -> String {
    jiff::Timestamp::from_second(NOW - secs_ago).unwrap().to_string()
}

fn micro(secs_ago: i64) -> String {
    ts(secs_ago).replace('Z', ".000001Z")
}

fn now() -> i64 {
    NOW
}

fn event(name: &str, fields: Value) -> EventObj {
    let mut v = json!({
        "metadata": {"name": name, "namespace": "shop", "uid": format!("uid-{name}"), "resourceVersion": "1"},
        "type": "Normal", "reason": "Tested", "message": format!("message of {name}"),
        "involvedObject": {"kind": "Pod", "name": "web-0", "namespace": "shop", "uid": "pod-uid-1"},
    });
    for (k, val) in fields.as_object().unwrap() {
        v[k] = val.clone();
    }
    serde_json::from_value(v).unwrap()
}

fn timeline(bounds: TimelineBounds) -> (Arc<Slot>, TimelineWriter<EventObj>) {
    let slot = Slot::new(ResourceKey::new(BuiltinKind::Event, Some("shop")), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let w = TimelineWriter::with_clock(Publisher::new(slot.clone(), tx), RowCtx::default(), bounds, now);
    (slot, w)
}

fn names(slot: &Slot) -> Vec<String> {
    slot.peek().rows.iter().map(|r| r.name.to_string()).collect()
}

fn last_seen_cells(slot: &Slot) -> Vec<String> {
    slot.peek()
        .rows
        .iter()
        .map(|r| format_cell(&r.cells[0], NOW).into_owned())
        .collect()
}

#[test]
fn every_null_combination_of_the_time_fields_orders_by_kubectls_last_seen() {
    // Each combination of {series.lastObservedTime, lastTimestamp, firstTimestamp, eventTime}
    // present/absent; the present ones get distinct ages so the winner is identifiable.
    let (slot, mut w) = timeline(TimelineBounds::default());
    w.init();
    let mut expected: Vec<(Option<i64>, String)> = Vec::new();
    for mask in 0u32..16 {
        let mut f = json!({});
        let (series, last, first, evt) = (mask & 1 != 0, mask & 2 != 0, mask & 4 != 0, mask & 8 != 0);
        let base = i64::from(mask) * 1000;
        if series {
            f["series"] = json!({"count": 3, "lastObservedTime": micro(base + 10)});
        }
        if last {
            f["lastTimestamp"] = json!(ts(base + 20));
        }
        if first {
            f["firstTimestamp"] = json!(ts(base + 30));
        }
        if evt {
            f["eventTime"] = json!(micro(base + 40));
        }
        let winner = if series {
            Some(base + 10)
        } else if last {
            Some(base + 20)
        } else if first {
            Some(base + 30)
        } else if evt {
            Some(base + 40)
        } else {
            None
        };
        let name = format!("e{mask:02}");
        w.init_apply(event(&name, f));
        expected.push((winner, name));
    }
    w.init_done(Some("5".into()));
    // Newest (smallest age) first; the one with no time at all last.
    expected.sort_by_key(|(age, name)| (age.is_none(), age.unwrap_or(0), name.clone()));
    let want: Vec<String> = expected.iter().map(|(_, n)| n.clone()).collect();
    assert_eq!(names(&slot), want);
    let cells = last_seen_cells(&slot);
    assert_eq!(cells.last().unwrap(), "<unknown>");
    for c in &cells {
        assert!(
            !c.contains('y') && !c.starts_with('-') && c != "<invalid>",
            "no age from a missing time: {c}"
        );
    }
    assert_eq!(cells.iter().filter(|c| *c == "<unknown>").count(), 1);
}

#[test]
fn repeated_occurrences_collapse_to_one_row_that_moves_to_the_top() {
    let (slot, mut w) = timeline(TimelineBounds::default());
    w.init();
    w.init_apply(event(
        "backoff",
        json!({"count": 2, "lastTimestamp": ts(600), "type": "Warning"}),
    ));
    w.init_apply(event("pulled", json!({"lastTimestamp": ts(300)})));
    w.init_done(Some("5".into()));
    assert_eq!(names(&slot), ["pulled", "backoff"]);
    w.apply(event(
        "backoff",
        json!({"count": 7, "lastTimestamp": ts(5), "type": "Warning"}),
    ));
    w.apply(event(
        "newstyle",
        json!({"eventTime": micro(900), "series": {"count": 2, "lastObservedTime": micro(100)}}),
    ));
    w.apply(event(
        "newstyle",
        json!({"eventTime": micro(900), "series": {"count": 9, "lastObservedTime": micro(2)}}),
    ));
    w.publish();
    assert_eq!(names(&slot), ["newstyle", "backoff", "pulled"]);
    let rows = slot.peek().rows.clone();
    assert_eq!(format_cell(&rows[0].cells[4], NOW), "9");
    assert_eq!(format_cell(&rows[1].cells[4], NOW), "7");
    assert_eq!(rows[1].health, Health::Warn);
    assert_eq!(rows[1].event.as_ref().unwrap().count, 7);
}

#[test]
fn same_instant_ties_go_by_name_then_first_arrival_and_keep_their_place_when_repeated() {
    let (slot, mut w) = timeline(TimelineBounds::default());
    let at = |uid: &str, count: i64| {
        let mut e = event("same", json!({"lastTimestamp": ts(60), "count": count}));
        e.metadata.uid = uid.into();
        e
    };
    w.init();
    w.init_apply(event("b", json!({"lastTimestamp": ts(60)})));
    // Deleted and created again under one name within the same second: two events.
    w.init_apply(at("uid-first", 1));
    w.init_apply(at("uid-second", 1));
    w.init_apply(event("a", json!({"lastTimestamp": ts(60)})));
    w.init_done(Some("5".into()));
    let uids = |slot: &Slot| -> Vec<String> { slot.peek().rows.iter().map(|r| r.uid.to_string()).collect() };
    assert_eq!(names(&slot), ["a", "b", "same", "same"]);
    assert_eq!(uids(&slot)[2..], ["uid-first", "uid-second"]);
    // A repeat of the first at the same instant replaces it in place, a relist listing only
    // the second expires the first and keeps both rows.
    w.apply(at("uid-first", 4));
    w.publish();
    assert_eq!(uids(&slot)[2..], ["uid-first", "uid-second"]);
    assert_eq!(format_cell(&slot.peek().rows[2].cells[4], NOW), "4");
    w.init();
    for e in [
        event("a", json!({"lastTimestamp": ts(60)})),
        event("b", json!({"lastTimestamp": ts(60)})),
        at("uid-second", 1),
    ] {
        w.init_apply(e);
    }
    w.init_done(Some("9".into()));
    let rows = slot.peek().rows.clone();
    let expired: Vec<bool> = rows.iter().map(|r| r.event.as_ref().unwrap().expired).collect();
    assert_eq!(expired, [false, false, true, false]);
    assert_eq!(&*rows[2].uid, "uid-first");
}

#[test]
fn messages_with_escapes_and_newlines_are_neutralised() {
    let (slot, mut w) = timeline(TimelineBounds::default());
    w.init();
    w.init_apply(event(
        "evil",
        json!({"lastTimestamp": ts(1), "message": "\u{1b}]0;pwned\u{7}boom\nsecond \u{1b}[2J line"}),
    ));
    w.init_done(None);
    let row = slot.peek().rows[0].clone();
    let cell = format_cell(&row.cells[5], NOW).into_owned();
    assert!(
        !cell.contains('\u{1b}') && !cell.contains('\u{7}') && !cell.contains('\n'),
        "{cell:?}"
    );
    assert!(cell.starts_with("^[]0;pwned"), "{cell:?}");
    let detail = &row.event.as_ref().unwrap().message;
    assert!(
        !detail.contains('\u{1b}') && !detail.contains('\u{7}'),
        "{detail:?}"
    );
    assert_eq!(
        detail.lines().count(),
        2,
        "the detail keeps line structure: {detail:?}"
    );
}

#[test]
fn relist_after_410_keeps_old_rows_marks_them_expired_and_adds_new_ones() {
    let (slot, mut w) = timeline(TimelineBounds::default());
    w.init();
    w.init_apply(event("old", json!({"lastTimestamp": ts(3000)})));
    w.init_apply(event("kept", json!({"lastTimestamp": ts(2000)})));
    w.init_done(Some("5".into()));
    // 410 → relist: `old` expired on the server meanwhile, `fresh` is new.
    w.init();
    w.init_apply(event("kept", json!({"lastTimestamp": ts(2000)})));
    w.init_apply(event("fresh", json!({"lastTimestamp": ts(10)})));
    w.init_done(Some("9".into()));
    assert_eq!(names(&slot), ["fresh", "kept", "old"]);
    let rows = slot.peek().rows.clone();
    let old = rows.iter().find(|r| &*r.name == "old").unwrap();
    assert!(old.event.as_ref().unwrap().expired);
    assert_eq!(old.health, Health::Done, "expired events are dimmed");
    assert!(!rows[0].event.as_ref().unwrap().expired);
    // A watch DELETED keeps the row too.
    w.delete(event("kept", json!({"lastTimestamp": ts(2000)})));
    w.publish();
    let kept = slot
        .peek()
        .rows
        .iter()
        .find(|r| &*r.name == "kept")
        .unwrap()
        .clone();
    assert!(kept.event.as_ref().unwrap().expired);
    assert_eq!(slot.peek().rows.len(), 3);
}

#[test]
fn the_count_bound_evicts_the_oldest_expired_events_never_live_ones() {
    let (slot, mut w) = timeline(TimelineBounds {
        max_events: 3,
        max_age: Duration::from_secs(86_400),
    });
    let all = [
        ("a", 50),
        ("b", 40),
        ("c", 30),
        ("none", -1),
        ("d", 20),
        ("e", 10),
    ];
    let obj = |name: &str, age: i64| {
        let f = if age < 0 {
            json!({})
        } else {
            json!({"lastTimestamp": ts(age)})
        };
        event(name, f)
    };
    w.init();
    for (name, age) in all {
        w.init_apply(obj(name, age));
    }
    w.init_done(None);
    // The server holds all six: none is hidden, whatever the bound.
    assert_eq!(names(&slot), ["e", "d", "c", "b", "a", "none"]);
    // A relist without a, b, c and none: they expired on the server; the bound now drops
    // the oldest of them (the one without a time first).
    w.init();
    w.init_apply(obj("d", 20));
    w.init_apply(obj("e", 10));
    w.init_done(None);
    assert_eq!(names(&slot), ["e", "d", "c"]);
}

#[test]
fn the_age_bound_evicts_expired_events_older_than_it_never_live_ones() {
    let (slot, mut w) = timeline(TimelineBounds {
        max_events: 100,
        max_age: Duration::from_secs(3600),
    });
    w.init();
    w.init_apply(event("recent", json!({"lastTimestamp": ts(60)})));
    w.init_apply(event("ancient", json!({"lastTimestamp": ts(7200)})));
    w.init_apply(event("old-gone", json!({"lastTimestamp": ts(5000)})));
    w.init_done(None);
    // Last seen two hours ago but still on the server (kubectl lists it): shown.
    assert_eq!(names(&slot), ["recent", "old-gone", "ancient"]);
    // Deleted on the server and past the bound: gone; a recent deleted one stays, dimmed.
    w.delete(event("old-gone", json!({"lastTimestamp": ts(5000)})));
    w.delete(event("recent", json!({"lastTimestamp": ts(60)})));
    w.publish();
    assert_eq!(names(&slot), ["recent", "ancient"]);
}
