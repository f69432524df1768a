//! Tests of the history store: revisions, relists, deletes, budget and per-object eviction.

use serde_json::{json, Value};

use super::record::{History, HistoryConfig, ObjId, Via};

fn deploy(rv: u64, replicas: u64) -> Value {
    json!({"metadata": {"name": "web", "namespace": "shop", "uid": "u1", "resourceVersion": rv.to_string(),
                        "generation": replicas, "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{…}"},
                        "managedFields": [
                            {"manager": "kubectl", "operation": "Update", "subresource": "scale",
                             "time": format!("2026-12-01T10:00:{:02}Z", rv % 60), "fieldsV1": {"f:spec": {"f:replicas": {}}}},
                            {"manager": "kube-controller-manager", "operation": "Update", "subresource": "status",
                             "time": "2026-12-01T09:00:00Z", "fieldsV1": {"f:status": {"f:replicas": {}}}}]},
           "spec": {"replicas": replicas, "template": {"spec": {"containers": [{"name": "web", "image": "web:1.4"}]}}},
           "status": {"replicas": 1}})
}

fn id() -> ObjId {
    ObjId {
        resource: "deployments.apps".into(),
        namespace: Some("shop".into()),
        name: "web".into(),
    }
}

fn history(config: HistoryConfig) -> std::sync::Arc<History> {
    History::new(config, 1_000)
}

#[test]
fn each_change_is_a_revision_with_its_owners_and_bodies_come_back_exactly() {
    let h = history(HistoryConfig::default());
    assert!(h.observe("deployments.apps", deploy(10, 3), true, 1_001));
    assert!(h.observe("deployments.apps", deploy(11, 5), false, 1_002));
    assert!(h.observe("deployments.apps", deploy(12, 7), false, 1_003));
    let r = h.record(&id()).unwrap();
    assert_eq!(r.revisions.len(), 3);
    let newest = &r.revisions[0];
    assert_eq!(&*newest.meta.resource_version, "12");
    assert_eq!(newest.meta.via, Via::Watch);
    assert_eq!(newest.meta.generation, Some(7));
    let owners: Vec<String> = newest
        .meta
        .owners
        .iter()
        .map(|&i| newest.meta.managers[usize::from(i)].label())
        .collect();
    assert_eq!(owners, ["kubectl (Update/scale)"]);
    assert_eq!(r.revisions[2].meta.via, Via::First);
    assert_eq!(r.revisions[2].body["spec"]["replicas"], 3);
    assert_eq!(r.revisions[1].body["spec"]["replicas"], 5);
    let body = &r.revisions[2].body;
    assert!(body["metadata"].get("managedFields").is_none(), "{body}");
    assert!(body["metadata"].get("resourceVersion").is_none());
    assert!(
        body["metadata"].get("annotations").is_none(),
        "last-applied is not kept"
    );
    assert_eq!(r.since, 1_000);
}

#[test]
fn a_relist_or_reconnect_records_no_spurious_revision() {
    let h = history(HistoryConfig::default());
    assert!(h.observe("deployments.apps", deploy(10, 3), true, 1));
    // The relist after a reconnect: the same resourceVersion.
    assert!(!h.observe("deployments.apps", deploy(10, 3), true, 2));
    // A new resourceVersion with the same content (e.g. after an etcd restore).
    let mut same = deploy(40, 3);
    same["metadata"]["managedFields"] = deploy(10, 3)["metadata"]["managedFields"].clone();
    assert!(!h.observe("deployments.apps", same, true, 3));
    assert_eq!(h.record(&id()).unwrap().revisions.len(), 1);
    // Then the version seen last is the one compared.
    assert!(!h.observe("deployments.apps", deploy(40, 3), false, 4));
    // A change seen only at a relist is marked as such.
    assert!(h.observe("deployments.apps", deploy(50, 4), true, 5));
    let r = h.record(&id()).unwrap();
    assert_eq!(r.revisions[0].meta.via, Via::Relist);
    assert_eq!(h.stats().revisions, 2);
}

#[test]
fn deletion_is_remembered_and_a_recreation_is_marked() {
    let h = history(HistoryConfig::default());
    h.observe("deployments.apps", deploy(10, 3), false, 1);
    h.deleted("deployments.apps", &deploy(11, 3), 2);
    assert_eq!(h.record(&id()).unwrap().deleted, Some(2));
    let mut again = deploy(20, 3);
    again["metadata"]["uid"] = json!("u2");
    assert!(h.observe("deployments.apps", again, false, 3));
    let r = h.record(&id()).unwrap();
    assert_eq!((r.deleted, r.revisions[0].meta.recreated), (None, true));
}

#[test]
fn the_per_object_cap_drops_the_oldest_revisions() {
    let h = history(HistoryConfig {
        per_object: 5,
        ..HistoryConfig::default()
    });
    for i in 0..20 {
        h.observe("deployments.apps", deploy(10 + i, i), false, i as i64);
    }
    let r = h.record(&id()).unwrap();
    assert_eq!((r.revisions.len(), r.evicted), (5, 15));
    let replicas: Vec<u64> = r
        .revisions
        .iter()
        .map(|v| v.body["spec"]["replicas"].as_u64().unwrap())
        .collect();
    assert_eq!(replicas, [19, 18, 17, 16, 15]);
}

#[test]
fn the_budget_evicts_oldest_revisions_first_then_quiet_objects() {
    let budget = 40_000;
    let h = history(HistoryConfig {
        budget_bytes: budget,
        per_object: 50,
    });
    let cm = |name: &str, rv: u64, v: &str| json!({"metadata": {"name": name, "namespace": "a", "resourceVersion": rv.to_string()}, "data": {"k": v, "pad": "x".repeat(300)}});
    // An old object that changes once, early.
    h.observe("configmaps", cm("early", 1, "a"), true, 1);
    h.observe("configmaps", cm("early", 2, "b"), false, 2);
    for i in 0..2_000u64 {
        h.observe(
            "configmaps",
            cm(&format!("c{}", i % 40), 10 + i, &i.to_string()),
            false,
            3,
        );
        let s = h.stats();
        assert!(s.bytes <= budget, "{s:?}");
    }
    let s = h.stats();
    assert!(
        s.evicted > 0 && s.bytes <= budget && s.bytes > budget / 2,
        "{s:?}"
    );
    let early = ObjId {
        resource: "configmaps".into(),
        namespace: Some("a".into()),
        name: "early".into(),
    };
    // Its older revision went first; its newest stays while revisions of others remain.
    let r = h.record(&early);
    assert!(
        r.as_ref().is_none_or(|r| r.revisions.len() == 1),
        "{:?}",
        r.map(|r| r.revisions.len())
    );
    let newest = ObjId {
        name: "c39".into(),
        ..early
    };
    assert!(h.record(&newest).unwrap().revisions.len() > 1);
}

/// A Secret's history is its metadata alone, whichever way it came: the list informer's
/// printed row (`PartialObjectMetadata`) and a YAML view's whole object give one body, so
/// switching between them records no change; a value change shows as its manager's new time.
#[test]
fn secrets_are_recorded_as_their_metadata_whichever_way_they_came() {
    let h = history(HistoryConfig::default());
    let managed = |t: &str| {
        json!([{"manager": "kubectl-edit", "operation": "Update", "time": t,
        "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:password": {}}}}])
    };
    let meta = |rv: &str, t: &str| {
        json!({"name": "db", "namespace": "a", "uid": "u1",
        "resourceVersion": rv, "managedFields": managed(t)})
    };
    let whole = |rv: &str, t: &str, v: &str| {
        json!({"apiVersion": "v1", "kind": "Secret",
        "metadata": meta(rv, t), "type": "Opaque", "data": {"password": v}})
    };
    let printed = |rv: &str, t: &str| {
        json!({"apiVersion": "meta.k8s.io/v1",
        "kind": "PartialObjectMetadata", "metadata": meta(rv, t)})
    };
    h.observe("secrets", printed("1", "2026-01-01T00:00:00Z"), true, 1);
    // The YAML view's watch of the same revision, with its values: nothing new.
    h.observe(
        "secrets",
        whole("1", "2026-01-01T00:00:00Z", "aHVudGVyMg=="),
        false,
        2,
    );
    // The value changed: only the manager's time tells.
    h.observe(
        "secrets",
        whole("2", "2026-01-02T00:00:00Z", "c2VjcmV0"),
        false,
        3,
    );
    h.observe("secrets", printed("2", "2026-01-02T00:00:00Z"), false, 4);
    let id = ObjId {
        resource: "secrets".into(),
        namespace: Some("a".into()),
        name: "db".into(),
    };
    let r = h.record(&id).unwrap();
    let all = format!("{:?}", r.revisions);
    assert!(!all.contains("aHVudGVyMg") && !all.contains("c2VjcmV0"), "{all}");
    assert!(!all.contains("password\":") && !all.contains("Opaque"), "{all}");
    assert_eq!(r.revisions.len(), 2, "one revision per change: {all}");
    assert!(r.revisions.iter().all(|v| v.body.get("data").is_none()));
}

#[test]
fn a_zero_budget_records_nothing() {
    let h = history(HistoryConfig {
        budget_bytes: 0,
        per_object: 50,
    });
    assert!(!h.observe("deployments.apps", deploy(1, 1), true, 1));
    assert_eq!(h.stats().objects, 0);
}

#[test]
fn a_relist_marks_what_it_no_longer_lists_deleted_within_its_scope() {
    let h = history(HistoryConfig::default());
    let cm = |ns: &str, name: &str| json!({"metadata": {"name": name, "namespace": ns, "uid": name, "resourceVersion": "1"}, "data": {"k": "v"}});
    for (ns, name) in [("shop", "a"), ("shop", "gone"), ("data", "b")] {
        h.observe("configmaps", cm(ns, name), true, 1_001);
    }
    h.observe("secrets", cm("shop", "gone"), true, 1_001);
    let id = |ns: &str, name: &str| ObjId {
        resource: "configmaps".into(),
        namespace: Some(ns.into()),
        name: name.into(),
    };
    // The namespace `shop` relisted after a watch gap: `gone` is no longer there.
    let seen = std::collections::HashSet::from([id("shop", "a")]);
    assert_eq!(h.relisted("configmaps", Some("shop"), &seen, 1_050), 1);
    let r = h.record(&id("shop", "gone")).unwrap();
    assert_eq!((r.deleted, r.deleted_unseen), (Some(1_050), true));
    assert!(
        h.record(&id("data", "b")).unwrap().deleted.is_none(),
        "another namespace"
    );
    let secret = ObjId {
        resource: "secrets".into(),
        ..id("shop", "gone")
    };
    assert!(h.record(&secret).unwrap().deleted.is_none(), "another resource");
    assert_eq!(
        h.relisted("configmaps", Some("shop"), &seen, 1_060),
        0,
        "marked once"
    );
    // Created again: a new revision, no longer deleted.
    let mut again = cm("shop", "gone");
    again["metadata"]["uid"] = json!("gone-2");
    again["metadata"]["resourceVersion"] = json!("9");
    assert!(h.observe("configmaps", again, false, 1_070));
    let r = h.record(&id("shop", "gone")).unwrap();
    assert!(r.deleted.is_none() && !r.deleted_unseen && r.revisions[0].meta.recreated);
}

#[test]
fn the_same_revisions_from_a_list_and_a_watch_are_recorded_once() {
    let h = history(HistoryConfig::default());
    // The list's informer gets items without apiVersion/kind, the detail view's watch with.
    let from_watch = |rv: u64, replicas: u64| {
        let mut d = deploy(rv, replicas);
        d["apiVersion"] = json!("apps/v1");
        d["kind"] = json!("Deployment");
        d
    };
    assert!(h.observe("deployments.apps", deploy(10, 1), true, 1_001));
    assert!(
        !h.observe("deployments.apps", from_watch(10, 1), true, 1_001),
        "same rv"
    );
    assert!(h.observe("deployments.apps", deploy(11, 3), false, 1_002));
    assert!(h.observe("deployments.apps", deploy(12, 4), false, 1_003));
    // The watch is behind: its copies of 11 and 12 arrive after the list's.
    assert!(!h.observe("deployments.apps", from_watch(11, 3), false, 1_004));
    assert!(!h.observe("deployments.apps", from_watch(12, 4), false, 1_004));
    assert!(h.observe("deployments.apps", from_watch(13, 5), false, 1_005));
    let r = h.record(&id()).unwrap();
    let rvs: Vec<&str> = r.revisions.iter().map(|v| &*v.meta.resource_version).collect();
    assert_eq!(rvs, ["13", "12", "11", "10"]);
    assert!(
        r.revisions[0].body.get("kind").is_none(),
        "apiVersion and kind are not kept"
    );
}
