//! Unit tests of the list view state (src/app/list/cache.rs); they must not touch a cluster.

use std::sync::Arc;

use super::cache::*;
use crate::app::state::SortBy;
use crate::kube::builtin::BuiltinKind;
use crate::kube::key::ResourceKey;
use crate::kube::row::Row;
use crate::kube::row::{Cell, Health};
use crate::kube::store::Snapshot;
use crate::kube::sync::SyncState;

fn pod(ns: &str, name: &str, status: &'static str) -> Row {
    let mut cells = vec![Cell::Static("1/1"), Cell::Static(status), Cell::Int(0)];
    cells.extend([Cell::Age(None), Cell::Static("10.0.0.1"), Cell::Static("node-1")]);
    cells.extend([Cell::Static("<none>"), Cell::Static("<none>")]);
    Row {
        capacity: None,
        uses: None,
        origin: 0,
        namespace: Some(Arc::from(ns)),
        name: name.into(),
        uid: "".into(),
        created: None,
        labels: Arc::from(Vec::new()),
        cells: cells.into_boxed_slice(),
        health: Health::Ok,
        drill: None,
        event: None,
        owner: None,
    }
}

fn snap(rows: Vec<Row>) -> Arc<Snapshot> {
    let mut s = Snapshot::empty(ResourceKey::new(BuiltinKind::Pod, None), 1);
    s.rows = rows.into_iter().map(Arc::new).collect();
    s.rev = 1;
    s.state = SyncState::Live;
    s.listed = true;
    Arc::new(s)
}

#[test]
fn column_terms_filter_and_the_count_keeps_the_views_total() {
    let mut rows: Vec<Row> = (0..91)
        .map(|i| pod("a", &format!("web-{i:02}"), "Running"))
        .collect();
    rows.push(pod("a", "web-crash", "CrashLoopBackOff"));
    rows.push(pod("b", "db-crash", "CrashLoopBackOff"));
    let snap = snap(rows);
    let mut c = ListCache::default();
    c.update(
        &snap,
        Some("a"),
        "status:Crash",
        SortBy::Name,
        false,
        Some(1),
        false,
    )
    .unwrap();
    assert_eq!((c.len(), c.total()), (1, 92), "1/92, not 1/1");
    assert_eq!(&*c.selected_row(0).unwrap().name, "web-crash");
    // With a name term too; then the terms removed.
    c.update(
        &snap,
        None,
        "status:Crash db",
        SortBy::Name,
        false,
        Some(1),
        false,
    )
    .unwrap();
    assert_eq!((c.len(), c.total()), (1, 93));
    c.update(&snap, None, "", SortBy::Name, false, Some(1), false)
        .unwrap();
    assert_eq!((c.len(), c.total()), (93, 93));
    // An incomplete term is an error, and the last valid filter stays applied.
    c.update(
        &snap,
        None,
        "node:node-1 status:crash",
        SortBy::Name,
        false,
        Some(1),
        false,
    )
    .unwrap();
    let e = c
        .update(
            &snap,
            None,
            "node:node-1 status:",
            SortBy::Name,
            false,
            Some(1),
            false,
        )
        .unwrap_err();
    assert!(e.contains("incomplete"), "{e}");
    assert_eq!((c.len(), c.total()), (2, 93));
}

#[test]
fn column_terms_follow_a_new_revision_and_keep_the_namespace_scope() {
    let rows = |crashing: &str| -> Vec<Row> {
        ["web-1", "web-2", "web-3"]
            .iter()
            .map(|n| {
                pod(
                    "a",
                    n,
                    if *n == crashing {
                        "CrashLoopBackOff"
                    } else {
                        "Running"
                    },
                )
            })
            .chain([pod("b", "web-9", "CrashLoopBackOff")])
            .collect()
    };
    let mut c = ListCache::default();
    let first = snap(rows("web-1"));
    c.update(
        &first,
        Some("a"),
        "status:crash",
        SortBy::Name,
        false,
        Some(1),
        false,
    )
    .unwrap();
    assert_eq!((c.len(), c.total()), (1, 3));
    assert_eq!(&*c.selected_row(0).unwrap().name, "web-1");
    // The next revision: web-1 recovered, web-3 crashes; the other namespace never shows.
    let mut next = (*snap(rows("web-3"))).clone();
    next.rev = 2;
    let next = Arc::new(next);
    c.update(
        &next,
        Some("a"),
        "status:crash",
        SortBy::Name,
        false,
        Some(1),
        false,
    )
    .unwrap();
    assert_eq!((c.len(), c.total()), (1, 3));
    assert_eq!(&*c.selected_row(0).unwrap().name, "web-3");
    // A name term inside the column term's rows, then all namespaces.
    c.update(
        &next,
        None,
        "status:crash web-9",
        SortBy::Name,
        false,
        Some(1),
        true,
    )
    .unwrap();
    assert_eq!((c.len(), c.total()), (1, 4));
}
