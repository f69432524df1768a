//! Unit tests of the store: revisions, the bounded log, watch replay and 410, paging.

use super::*;
use crate::kinds::id;
use crate::matching::Filter;
use serde_json::json;

fn pod(ns: &str, name: &str, node: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "Pod",
           "metadata": {"namespace": ns, "name": name, "labels": {"app": name}},
           "spec": {"nodeName": node}})
}

fn small() -> Arc<Store> {
    Store::new(StoreConfig {
        history: 3,
        watch_buffer: 16,
    })
}

#[test]
fn writes_bump_one_cluster_wide_revision_and_stamp_objects() {
    let s = small();
    let a = s.create(id::POD, pod("a", "p1", "n1")).unwrap();
    let b = s
        .create(id::NAMESPACE, json!({"metadata": {"name": "a"}}))
        .unwrap();
    assert_eq!((a.rv, b.rv), (2, 3));
    let v: Value = serde_json::from_slice(&a.bytes).unwrap();
    assert_eq!(v["metadata"]["resourceVersion"], "2");
    assert!(v["metadata"]["uid"].is_string() && v["metadata"]["creationTimestamp"].is_string());
    assert_eq!(
        s.create(id::POD, pod("a", "p1", "n1")).unwrap_err(),
        StoreError::AlreadyExists("a/p1".into())
    );
    let m = s
        .modify(id::POD, "a", "p1", |v| v["spec"]["nodeName"] = json!("n2"))
        .unwrap();
    let mv: Value = serde_json::from_slice(&m.bytes).unwrap();
    assert_eq!(
        mv["metadata"]["uid"], v["metadata"]["uid"],
        "uid survives updates"
    );
    assert_eq!(
        m.meta
            .fields
            .iter()
            .find(|(k, _)| *k == "spec.nodeName")
            .unwrap()
            .1
            .as_ref(),
        "n2"
    );
    assert!(
        s.create(id::POD, json!({"metadata": {"name": "x"}})).is_err(),
        "namespaced kinds need a namespace"
    );
    assert!(s
        .create(id::NODE, json!({"metadata": {"name": "x", "namespace": "a"}}))
        .is_err());
}

#[test]
fn watch_replays_after_a_revision_and_410s_before_the_log() {
    let s = small();
    for i in 0..3 {
        s.create(id::POD, pod("a", &format!("p{i}"), "n")).unwrap();
    }
    let (backlog, _rx) = s.watch(id::POD, Some(2)).unwrap();
    assert_eq!(backlog.iter().map(|c| c.obj.rv).collect::<Vec<_>>(), [3, 4]);
    s.delete(id::POD, "a", "p0").unwrap();
    s.delete(id::POD, "a", "p1").unwrap();
    // History 3: the log holds revisions 4..=6, so a watch from 2 missed revision 3.
    assert_eq!(
        s.watch(id::POD, Some(2)).unwrap_err(),
        Gone { from: 2, oldest: 3 }
    );
    let (backlog, _) = s.watch(id::POD, Some(3)).unwrap();
    assert_eq!(
        backlog.iter().map(|c| c.kind).collect::<Vec<_>>(),
        [ChangeType::Added, ChangeType::Deleted, ChangeType::Deleted]
    );
    let (initial, _) = s.watch(id::POD, None).unwrap();
    assert_eq!(initial.len(), 1, "only p2 is left");
    s.compact(id::POD);
    assert!(s.watch(id::POD, Some(5)).is_err(), "compaction drops the history");
    assert!(
        s.watch(id::POD, Some(6)).is_ok(),
        "watching from the current revision misses nothing"
    );
}

#[tokio::test]
async fn live_changes_reach_subscribers_in_order() {
    let s = small();
    let (_, mut rx) = s.watch(id::POD, Some(1)).unwrap();
    s.create(id::POD, pod("a", "p", "n")).unwrap();
    s.modify(id::POD, "a", "p", |_| {}).unwrap();
    s.delete(id::POD, "a", "p").unwrap();
    let kinds: Vec<_> = [rx.recv().await, rx.recv().await, rx.recv().await]
        .into_iter()
        .map(|c| c.unwrap().kind)
        .collect();
    assert_eq!(
        kinds,
        [ChangeType::Added, ChangeType::Modified, ChangeType::Deleted]
    );
}

#[test]
fn lists_page_in_key_order_and_filter() {
    let s = Store::new(StoreConfig::default());
    for ns in ["b", "a"] {
        for n in ["p2", "p1", "p3"] {
            s.create(id::POD, pod(ns, n, if n == "p2" { "n2" } else { "n1" }))
                .unwrap();
        }
    }
    let names = |p: &Page| -> Vec<String> {
        p.items
            .iter()
            .map(|b| {
                let v: Value = serde_json::from_slice(b).unwrap();
                format!(
                    "{}/{}",
                    v["metadata"]["namespace"].as_str().unwrap(),
                    v["metadata"]["name"].as_str().unwrap()
                )
            })
            .collect()
    };
    let all = Filter::default();
    let p1 = s.list(id::POD, &all, 4, None, None);
    assert_eq!(names(&p1), ["a/p1", "a/p2", "a/p3", "b/p1"]);
    assert_eq!(p1.next.as_deref(), Some("b/p1"));
    let p2 = s.list(id::POD, &all, 4, p1.next.as_deref(), Some(p1.revision));
    assert_eq!(
        (names(&p2), p2.next, p2.revision),
        (vec!["b/p2".to_owned(), "b/p3".into()], None, p1.revision)
    );
    let exact = s.list(id::POD, &all, 6, None, None);
    assert_eq!(
        (exact.items.len(), exact.next),
        (6, None),
        "a full last page has no continue"
    );
    let in_b = Filter {
        namespace: Some("b".into()),
        ..Filter::default()
    };
    assert_eq!(
        names(&s.list(id::POD, &in_b, 0, None, None)),
        ["b/p1", "b/p2", "b/p3"]
    );
    let on_n2 = Filter {
        fields: crate::matching::FieldSelector::parse("spec.nodeName=n2", &KINDS[id::POD]).unwrap(),
        ..Filter::default()
    };
    assert_eq!(names(&s.list(id::POD, &on_n2, 0, None, None)), ["a/p2", "b/p2"]);
}

#[test]
fn storage_compaction_expires_continue_tokens_but_keeps_the_watch_log() {
    let s = small();
    s.create(id::POD, pod("a", "p1", "n")).unwrap();
    let before = s.revision();
    s.create(id::POD, pod("a", "p2", "n")).unwrap();
    assert_eq!(s.compacted(id::POD), 1);
    s.compact_storage(before + 1);
    assert_eq!(
        s.compacted(id::POD),
        before + 1,
        "tokens from `before` are now expired"
    );
    assert!(
        s.watch(id::POD, Some(before)).is_ok(),
        "the watch cache still replays"
    );
    s.compact_storage(1);
    assert_eq!(s.compacted(id::POD), before + 1, "compaction never goes back");
}

#[test]
fn restore_goes_back_to_the_backup_and_cuts_open_watches() {
    let s = small();
    s.create(id::POD, pod("a", "p1", "n1")).unwrap();
    s.create(id::POD, pod("a", "p2", "n1")).unwrap();
    let backup = s.backup();
    assert_eq!(backup.revision, 3);
    s.delete(id::POD, "a", "p1").unwrap();
    s.create(id::POD, pod("a", "p3", "n1")).unwrap();
    let (_, mut open) = s.watch(id::POD, Some(5)).unwrap();
    s.restore(&backup);
    assert_eq!(s.revision(), 3, "the revision goes back");
    let names: Vec<_> = s
        .list(id::POD, &Filter::default(), 0, None, None)
        .items
        .iter()
        .map(|b| serde_json::from_slice::<Value>(b).unwrap()["metadata"]["name"].clone())
        .collect();
    assert_eq!(names, [json!("p1"), json!("p2")]);
    assert!(
        matches!(open.try_recv(), Err(broadcast::error::TryRecvError::Closed)),
        "open watches end"
    );
    assert!(s.watch(id::POD, Some(2)).is_err(), "the history is gone");
    assert!(
        s.watch(id::POD, Some(5)).is_ok(),
        "a watch from a revision not reached yet is accepted (and waits)"
    );
    let again = s.create(id::POD, pod("a", "p4", "n1")).unwrap();
    assert_eq!(again.rv, 4, "revisions are handed out again from the backup's");
}
