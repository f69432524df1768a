//! Carrying work over to a new snapshot revision.

use std::sync::Arc;

use super::*;

/// The next revision after churn: some rows deleted, some modified (new `Arc`, same key),
/// some added; the rest shared by `Arc` as the store shares them.
fn churn(s: &Snapshot, seed: u64) -> Snapshot {
    let extra = pods(60, seed);
    let mut rows: Vec<Arc<Row>> = Vec::new();
    for (i, r) in s.rows.iter().enumerate() {
        match i % 17 {
            0 => {}
            1 => {
                let mut m = (**r).clone();
                m.labels = labels(&[("app", "web-3")]);
                m.created = Some(99);
                rows.push(Arc::new(m));
            }
            _ => rows.push(r.clone()),
        }
    }
    rows.extend(extra.rows.iter().cloned());
    rows.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
    let mut next = s.clone();
    next.rows = rows.into();
    next.rev = s.rev + 1;
    next
}

#[test]
fn new_revision_carries_unchanged_rows_and_equals_full_scan() {
    let mut s = pods(2000, 21);
    let mut c = ViewCache::new();
    let texts = ["web3", "a", "!web", "-l app=web-3", "-l app=web-3 kz !b"];
    for round in 0..3u64 {
        for ns in [None, Some("prod")] {
            for sort in [
                Sort::default(),
                Sort {
                    by: SortBy::Age,
                    reverse: true,
                },
            ] {
                for text in texts {
                    let query = q(text);
                    let sp = spec(&query, sort, ns, true);
                    let got = c.view(&s, &sp);
                    assert_eq!(
                        got.rows,
                        reference(&s, &sp),
                        "round {round} {text:?} {ns:?} {sort:?}"
                    );
                    assert_eq!(got.rev, s.rev);
                }
            }
        }
        s = churn(&s, 100 + round);
    }
    assert!(c.stats().carried > 0, "{:?}", c.stats());
}

#[test]
fn carried_names_follow_the_name_mode() {
    let s = pods(500, 23);
    let mut c = ViewCache::new();
    let query = q("prod/");
    let all = c.view(&s, &spec(&query, Sort::default(), None, true));
    assert!(all.matched > 0);
    let next = churn(&s, 5);
    let one_ns = c.view(&next, &spec(&query, Sort::default(), None, false));
    assert_eq!(one_ns.matched, 0);
    let all = c.view(&next, &spec(&query, Sort::default(), None, true));
    assert_eq!(
        all.rows,
        reference(&next, &spec(&query, Sort::default(), None, true))
    );
}

#[test]
fn event_timeline_rows_in_any_order() {
    let base = pods(400, 31);
    let mut rows: Vec<Arc<Row>> = base.rows.to_vec().into_iter().rev().collect();
    let mut s = base.clone();
    s.key = ResourceKey::new(BuiltinKind::Event, None);
    s.rows = rows.clone().into();
    let mut c = ViewCache::new();
    for round in 0..2u64 {
        for ns in [None, Some("prod"), Some("team-a")] {
            for text in ["", "web", "-l app=web-3", "!a"] {
                let query = q(text);
                let sp = spec(&query, Sort::default(), ns, false);
                let got = c.view(&s, &sp);
                assert_eq!(got.rows, reference(&s, &sp), "round {round} {text:?} {ns:?}");
                assert_eq!(
                    got.total,
                    s.rows
                        .iter()
                        .filter(|r| ns.is_none_or(|n| r.namespace.as_deref() == Some(n)))
                        .count()
                );
            }
        }
        // Newest first: new rows arrive at the top, the oldest fall off the end.
        let fresh = pods(30, 40 + round);
        rows.truncate(rows.len() - 20);
        rows.splice(0..0, fresh.rows.iter().cloned());
        s.rows = rows.clone().into();
        s.rev += 1;
    }
    assert!(c.stats().carried > 0, "{:?}", c.stats());
}
