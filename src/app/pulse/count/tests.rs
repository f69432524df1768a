//! The counting model on fixed rows built by the real row builders.

use std::sync::Arc;

use serde_json::json;

use super::*;

use crate::app::pulse::fixtures::*;

#[test]
fn pods_count_by_health_in_the_namespace_and_name_the_abnormal_ones() {
    let r = rows(vec![
        pod("shop", "cart-0", true, 0, None),
        pod("shop", "cart-1", false, 0, None),
        pod("shop", "db-0", false, 7, Some("CrashLoopBackOff")),
        pod("shop", "new-0", false, 0, Some("ContainerCreating")),
        completed("shop", "migrate-x"),
        pod("other", "web-0", false, 3, Some("CrashLoopBackOff")),
    ]);
    let c = Counts::of(Tile::Pods, &r, Some("shop"), false);
    assert_eq!((c.total, c.ok, c.warn, c.error, c.done), (5, 1, 2, 1, 1), "{c:?}");
    assert_eq!(c.abnormal, ["cart-1", "db-0", "new-0"]);
    assert_eq!(c.abnormal_count(), 3);
    let all = Counts::of(Tile::Pods, &r, None, true);
    assert_eq!((all.total, all.error), (6, 2));
    assert!(
        all.abnormal.contains(&"other/web-0".to_owned()),
        "{:?}",
        all.abnormal
    );
}

#[test]
fn workloads_nodes_and_events_count_what_their_rows_say() {
    let d = rows(vec![
        deploy("a", "web", 3, 3),
        deploy("a", "api", 2, 1),
        deploy("a", "zero", 0, 0),
    ]);
    let c = Counts::of(Tile::Deployments, &d, None, false);
    assert_eq!(
        (c.total, c.ok, c.warn, c.abnormal.clone()),
        (3, 2, 1, vec!["api".to_owned()])
    );
    let n = rows(vec![
        node("n1", true, json!([])),
        node(
            "n2",
            true,
            json!([{"type": "MemoryPressure", "status": "True"},
            {"type": "DiskPressure", "status": "True"}]),
        ),
        node("n3", false, json!([{"type": "PIDPressure", "status": "True"}])),
    ]);
    let c = Counts::of(Tile::Nodes, &n, None, false);
    assert_eq!(
        (c.total, c.ok, c.error, c.pressure),
        (3, 2, 1, [1, 1, 1]),
        "{c:?}"
    );
    let e = rows(vec![
        event("a", true, 4, NOW - 30),
        event("b", false, 1, NOW - 90),
        event("c", false, 1, NOW - 90),
    ]);
    let c = Counts::of(Tile::Events, &e, None, false);
    assert_eq!((c.total, c.error, c.ok), (3, 1, 2));
}

#[test]
fn a_large_abnormal_set_keeps_its_count_and_a_bounded_filter() {
    let many: Vec<Arc<Row>> = (0..FILTER_MAX + 5)
        .map(|i| deploy("a", &format!("d{i:03}"), 2, 0))
        .collect();
    let c = Counts::of(Tile::Deployments, &rows(many), None, false);
    assert_eq!((c.warn, c.abnormal.len()), (FILTER_MAX + 5, FILTER_MAX));
}

#[test]
fn restarts_rise_only_after_the_first_sighting_and_top_puts_rising_first() {
    let mut w = RestartWatch::default();
    w.update(
        &rows(vec![
            pod("a", "old", true, 50, None),
            pod("a", "flaky", true, 2, None),
            pod("a", "calm", true, 0, None),
        ]),
        None,
    );
    assert_eq!(w.rising, 0, "counts before the view opened are not rising");
    assert_eq!(
        w.top
            .iter()
            .map(|p| (&*p.name, p.count, p.rise))
            .collect::<Vec<_>>(),
        [("old", 50, 0), ("flaky", 2, 0)]
    );
    w.update(
        &rows(vec![
            pod("a", "old", true, 50, None),
            pod("a", "flaky", true, 5, None),
            pod("a", "calm", true, 1, None),
            pod("a", "fresh", true, 4, None),
        ]),
        None,
    );
    assert_eq!(w.rising, 2);
    assert_eq!(
        w.top
            .iter()
            .map(|p| (&*p.name, p.count, p.rise))
            .collect::<Vec<_>>(),
        [("flaky", 5, 3), ("calm", 1, 1), ("old", 50, 0), ("fresh", 4, 0)]
    );
    // A pod that left is forgotten: back with the same uid, its count is a new baseline.
    w.update(&rows(vec![pod("a", "old", true, 50, None)]), None);
    w.update(&rows(vec![pod("a", "flaky", true, 6, None)]), None);
    assert_eq!((w.rising, w.top[0].rise), (0, 0));
    // Only the view's namespace counts.
    w.update(&rows(vec![pod("b", "flaky", true, 9, None)]), Some("a"));
    assert!(w.top.is_empty());
}

#[test]
fn the_event_rate_counts_each_event_once_then_every_occurrence() {
    let mut rate = EventRate::default();
    rate.update(
        &rows(vec![
            event("w", true, 10, NOW - 30),
            event("n", false, 1, NOW - 130),
            event("old", false, 1, NOW - 2 * 86_400),
        ]),
        None,
    );
    let s = rate.series(NOW, 4);
    assert_eq!(s.len(), 4);
    let m = |t: i64| usize::try_from(3 - (NOW.div_euclid(60) - t.div_euclid(60))).unwrap();
    assert_eq!(
        s[m(NOW - 30)].1,
        1,
        "a repeated event counts once when first seen: {s:?}"
    );
    assert_eq!(s[m(NOW - 130)].0, 1, "{s:?}");
    // The warning repeats 3 more times now; a new normal event arrives with count 2.
    rate.update(
        &rows(vec![
            event("w", true, 13, NOW),
            event("n", false, 1, NOW - 130),
            event("x", false, 2, NOW),
        ]),
        None,
    );
    let s = rate.series(NOW, 4);
    // NOW is on a minute's start: NOW - 30 is the minute before, NOW - 130 three before.
    assert_eq!((m(NOW - 30), m(NOW - 130)), (2, 0));
    assert_eq!((s[2].1, s[3]), (1, (2, 3)), "{s:?}");
    assert_eq!(s[m(NOW - 130)].0, 1, "an unchanged event adds nothing: {s:?}");
    let sum: u32 = rate
        .series(NOW, RATE_MINUTES as usize)
        .iter()
        .map(|(n, w)| n + w)
        .sum();
    assert_eq!(
        sum,
        1 + 1 + 3 + 2,
        "the two-day-old minute is beyond the kept day"
    );
}
