//! Unit tests of the snapshot store (crates/kube/src/store.rs); they must not open a network.

use std::sync::Arc;

use tokio::sync::mpsc::unbounded_channel;

use super::*;
use crate::builtin::BuiltinKind;
use crate::row::{Cell, Health, Row};

fn row(ns: &str, name: &str, v: i64) -> Row {
    Row {
        capacity: None,
        uses: None,
        origin: 0,
        namespace: Some(Arc::from(ns)),
        name: name.into(),
        uid: format!("uid-{name}").into(),
        created: Some(0),
        labels: Arc::from(Vec::new()),
        cells: vec![Cell::Int(v)].into(),
        health: Health::Ok,
        drill: None,
        event: None,
        owner: None,
    }
}

fn writer() -> (
    Arc<Slot>,
    StoreWriter,
    tokio::sync::mpsc::UnboundedReceiver<StoreChanged>,
) {
    let key = ResourceKey::new(BuiltinKind::Pod, Some("a"));
    let slot = Slot::new(key, 7);
    let (tx, rx) = unbounded_channel();
    let w = StoreWriter::new(slot.clone(), tx);
    (slot, w, rx)
}

#[test]
fn first_list_is_shown_as_it_arrives_and_a_relist_only_when_complete() {
    let (slot, mut w, _rx) = writer();
    w.init();
    w.init_apply(row("a", "y", 1));
    w.maybe_publish();
    let s = slot.load();
    assert!(!s.listed, "a partial first list is never called complete");
    assert_eq!(
        s.rows.len(),
        1,
        "the first page shows at once, before the interval"
    );
    w.init_apply(row("a", "x", 1));
    w.publish();
    let s = slot.load();
    let names: Vec<&str> = s.rows.iter().map(|r| &*r.name).collect();
    assert_eq!(names, ["x", "y"], "partial rows in key order");
    assert_eq!(s.state, SyncState::Syncing { received: 2 });
    w.init_done(Some("10".into()));
    let s = slot.load();
    assert!(s.listed);
    assert_eq!(s.rows.len(), 2);
    assert_eq!(s.state, SyncState::Live);
    assert_eq!(s.resource_version.as_deref(), Some("10"));
    assert_eq!(s.epoch, 7);
    // A relist: the old complete table stays until the new one is complete.
    w.init();
    w.init_apply(row("a", "z", 1));
    w.maybe_publish();
    w.publish();
    let s = slot.load();
    assert!(s.listed);
    let names: Vec<&str> = s.rows.iter().map(|r| &*r.name).collect();
    assert_eq!(names, ["x", "y"], "a half-replaced table must not be visible");
    w.init_done(Some("11".into()));
    let names: Vec<String> = slot.load().rows.iter().map(|r| r.name.to_string()).collect();
    assert_eq!(names, ["z"]);
}

#[test]
fn a_retried_first_list_replaces_the_partial_rows_of_the_failed_attempt() {
    let (slot, mut w, _rx) = writer();
    w.init();
    w.init_apply(row("a", "x", 1));
    w.maybe_publish();
    w.set_state(SyncState::Unreachable {
        reason: "down".into(),
    });
    let s = slot.load();
    let names: Vec<&str> = s.rows.iter().map(|r| &*r.name).collect();
    assert_eq!(
        (names, s.listed),
        (vec!["x"], false),
        "what is known stays, marked partial"
    );
    w.init();
    w.init_apply(row("a", "y", 1));
    w.publish();
    let names: Vec<String> = slot.load().rows.iter().map(|r| r.name.to_string()).collect();
    assert_eq!(
        names,
        ["y"],
        "the new attempt's rows, not a merge with the failed one"
    );
}

#[test]
fn relist_drops_ghosts_and_keeps_identity_of_unchanged_rows() {
    let (slot, mut w, _rx) = writer();
    w.init();
    w.init_apply(row("a", "keep", 1));
    w.init_apply(row("a", "gone", 1));
    w.init_done(Some("1".into()));
    let before = slot.load();
    w.init();
    w.init_apply(row("a", "keep", 1));
    w.init_apply(row("a", "new", 1));
    // Until the relist ends, the old rows stay visible.
    w.publish();
    assert_eq!(slot.load().rows.len(), 2);
    w.init_done(Some("2".into()));
    let after = slot.load();
    let names: Vec<&str> = after.rows.iter().map(|r| &*r.name).collect();
    assert_eq!(names, ["keep", "new"]);
    let keep_before = before.rows.iter().find(|r| &*r.name == "keep").unwrap();
    assert!(
        Arc::ptr_eq(keep_before, &after.rows[0]),
        "unchanged row keeps its Arc"
    );
}

#[test]
fn notifications_collapse_until_the_reader_loads() {
    let (slot, mut w, mut rx) = writer();
    w.init();
    w.init_done(Some("1".into()));
    for i in 0..5 {
        w.apply(row("a", "x", i));
        w.publish();
    }
    let mut n = 0;
    while rx.try_recv().is_ok() {
        n += 1;
    }
    assert_eq!(n, 1, "one notification until the reader loads");
    assert_eq!(slot.load().rows[0].cells[0], Cell::Int(4));
    w.apply(row("a", "x", 9));
    w.publish();
    assert!(rx.try_recv().is_ok(), "loading re-arms the notification");
}

#[test]
fn delete_and_apply() {
    let (slot, mut w, _rx) = writer();
    w.init();
    w.init_done(Some("1".into()));
    w.apply(row("a", "x", 1));
    w.apply(row("a", "y", 1));
    w.delete(&(Some(Arc::from("a")), "x".into()));
    w.delete(&(Some(Arc::from("a")), "never".into()));
    w.publish();
    let s = slot.load();
    assert_eq!(s.rows.len(), 1);
    assert_eq!(&*s.rows[0].name, "y");
    // init (syncing shown at once), init_done, then one coalesced publication.
    assert_eq!(s.rev, 3);
}

#[tokio::test(start_paused = true)]
async fn coalescing_deadline_is_one_interval_after_the_last_publication() {
    let (_slot, mut w, _rx) = writer();
    w.init();
    w.init_done(Some("1".into()));
    assert_eq!(w.deadline(), None);
    w.apply(row("a", "x", 1));
    let d = w.deadline().expect("dirty");
    assert!(d > Instant::now());
    let before = w.publications();
    w.maybe_publish();
    assert_eq!(w.publications(), before, "too early: not published");
    tokio::time::advance(PUBLISH_INTERVAL).await;
    w.maybe_publish();
    assert_eq!(w.publications(), before + 1);
}

#[test]
fn a_resource_version_alone_updates_the_snapshot_in_place_without_notifying() {
    let key = ResourceKey::new(BuiltinKind::Pod, Some("a"));
    let slot = Slot::new(key, 7);
    let (tx, mut rx) = unbounded_channel();
    let mut p = Publisher::new(slot.clone(), tx);
    p.set_resource_version(Some("5".into()));
    assert_eq!(slot.peek().resource_version, None, "nothing published yet");
    p.touch();
    p.publish(crate::rows::Rows::from(vec![Arc::new(row("a", "x", 1))]));
    assert!(rx.try_recv().is_ok());
    let before = slot.peek();
    assert_eq!(before.resource_version.as_deref(), Some("5"));
    // A bookmark on a quiet watch: `:informers` sees it, views have nothing to redraw.
    p.set_resource_version(Some("9".into()));
    let after = slot.peek();
    assert_eq!(after.resource_version.as_deref(), Some("9"));
    assert_eq!(after.rev, before.rev);
    assert!(crate::rows::Rows::ptr_eq(&after.rows, &before.rows));
    assert!(
        rx.try_recv().is_err(),
        "no notification for a resourceVersion alone"
    );
    // With a change pending, it rides with the next publication instead.
    p.touch();
    p.set_resource_version(Some("11".into()));
    assert_eq!(slot.peek().resource_version.as_deref(), Some("9"));
    p.publish(after.rows.clone());
    assert_eq!(slot.peek().resource_version.as_deref(), Some("11"));
}

#[test]
fn a_streaming_lists_deletion_before_its_end_leaves_the_buffer_only() {
    let (slot, mut w, _rx) = writer();
    w.init();
    w.init_apply(row("a", "x", 1));
    w.init_apply(row("a", "y", 1));
    w.init_remove(&(Some(Arc::from("a")), Arc::from("x")));
    w.publish();
    let s = slot.load();
    let names: Vec<&str> = s.rows.iter().map(|r| &*r.name).collect();
    assert_eq!(names, ["y"], "a first list shows the buffer as it is");
    assert_eq!(s.state, SyncState::Syncing { received: 1 });
    w.init_remove(&(Some(Arc::from("a")), Arc::from("y")));
    w.publish();
    assert!(
        slot.load().rows.is_empty(),
        "the last row removed is not left on screen"
    );
    w.init_apply(row("a", "y", 2));
    w.init_done(Some("10".into()));
    // A relist: deletions touch the buffer, never the complete table on screen.
    w.init();
    w.init_apply(row("a", "z", 1));
    w.init_remove(&(Some(Arc::from("a")), Arc::from("y")));
    w.init_remove(&(Some(Arc::from("a")), Arc::from("z")));
    w.publish();
    let s = slot.load();
    let names: Vec<&str> = s.rows.iter().map(|r| &*r.name).collect();
    assert_eq!(names, ["y"], "the old table stays whole");
    w.init_done(Some("11".into()));
    assert!(slot.load().rows.is_empty());
}
