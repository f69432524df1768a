//! Tests of the demo scenario's pause: a pause returns only once the tick or churn batch in
//! progress has finished writing (the convergence harness compares against the paused state);
//! the ages of the demo data agree with each other.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::*;
use crate::store::StoreConfig;

/// A pause lands while a churn batch is writing (a batch of 2,000 load-pod changes is in
/// progress as soon as the revision moves): once `set_live(false)` returns, no further write
/// may reach the store, or a caller's snapshot of the "final" state is already stale.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pausing_waits_for_the_write_in_progress() {
    let store = Store::new(StoreConfig::default());
    let opts = DemoOptions {
        pods: 200,
        churn: 20_000,
        tick: Duration::from_secs(3600),
        ..DemoOptions::default()
    };
    let cancel = CancellationToken::new();
    let setup = store.revision();
    let control = start(store.clone(), &opts, cancel.clone()).unwrap();
    let populated = store.revision();
    assert!(populated > setup);
    while store.revision() == populated {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    control.set_live(false);
    let paused = store.revision();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        store.revision(),
        paused,
        "the store changed after set_live(false) returned"
    );
    cancel.cancel();
}

/// The demo's ages agree with each other over its whole data set (scenario, load pods, load
/// deployments and configmaps, load nodes and events): every namespaced object is younger
/// than its namespace, every owned object than each of its owners (`ownerReferences`, found
/// by uid), every gizmo than the CRD that defines it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_is_older_than_its_namespace_or_its_owners() {
    use std::collections::HashMap;

    use crate::kinds::{id, KINDS};
    use crate::matching::Filter;

    let store = Store::new(StoreConfig::default());
    let opts = DemoOptions {
        pods: 300,
        deployments: 20,
        configmaps: 20,
        nodes: 3,
        events: 20,
        live: false,
        ..DemoOptions::default()
    };
    let cancel = CancellationToken::new();
    let _control = start(store.clone(), &opts, cancel.clone()).unwrap();
    let secs = |v: &serde_json::Value| -> i64 {
        let t = v["metadata"]["creationTimestamp"].as_str().unwrap_or_default();
        t.parse::<jiff::Timestamp>()
            .unwrap_or_else(|e| panic!("creationTimestamp {t:?}: {e}"))
            .as_second()
    };
    let mut all = Vec::new();
    for (kind, k) in KINDS.iter().enumerate() {
        for b in store.list(kind, &Filter::default(), 0, None, None).items {
            let v: serde_json::Value = serde_json::from_slice(&b).unwrap();
            all.push((k.info.kind, v));
        }
    }
    let name = |v: &serde_json::Value| v["metadata"]["name"].as_str().unwrap_or_default().to_owned();
    let by_uid: HashMap<String, (String, i64)> = all
        .iter()
        .map(|(kind, v)| {
            let uid = v["metadata"]["uid"].as_str().unwrap_or_default().to_owned();
            (uid, (format!("{kind}/{}", name(v)), secs(v)))
        })
        .collect();
    let namespaces: HashMap<String, i64> = all
        .iter()
        .filter(|(kind, _)| *kind == "Namespace")
        .map(|(_, v)| (name(v), secs(v)))
        .collect();
    let crd = all
        .iter()
        .find(|(kind, _)| *kind == "CustomResourceDefinition")
        .map(|(_, v)| secs(v))
        .unwrap();
    let mut wrong = Vec::new();
    for (kind, v) in &all {
        let (what, created) = (format!("{kind}/{}", name(v)), secs(v));
        if let Some(ns) = v["metadata"]["namespace"].as_str() {
            match namespaces.get(ns) {
                None => wrong.push(format!("{what}: namespace {ns} missing")),
                Some(t) if *t > created => {
                    wrong.push(format!("{what} older than namespace {ns} by {}s", t - created))
                }
                Some(_) => {}
            }
        }
        for o in v["metadata"]["ownerReferences"].as_array().into_iter().flatten() {
            match by_uid.get(o["uid"].as_str().unwrap_or_default()) {
                None => wrong.push(format!("{what}: owner {} missing", o["name"])),
                Some((owner, t)) if *t > created => {
                    wrong.push(format!("{what} older than its owner {owner} by {}s", t - created))
                }
                Some(_) => {}
            }
        }
        if *kind == KINDS[id::GIZMO].info.kind && crd > created {
            wrong.push(format!("{what} older than its CRD by {}s", crd - created));
        }
    }
    cancel.cancel();
    assert!(all.len() > 400, "{} objects", all.len());
    assert!(
        wrong.is_empty(),
        "{} of {}:\n{}",
        wrong.len(),
        all.len(),
        wrong.join("\n")
    );
}
