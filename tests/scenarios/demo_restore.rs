//! ktui's real informer against the demo server restored from an older backup, the way an
//! etcd restore without `--bump-revision` looks to a client (issue 13, break 4): the server's
//! revision goes back, 37 objects created after the backup vanish and 3 deleted after it
//! return, open watches are cut, and a watch resumed from the newer revision would be accepted
//! and wait (as kube-apiserver's watch cache does). The informer must find this out itself —
//! long before its stale-watch limit (2 min here) — relist, drop the ghosts and say so.

use std::time::{Duration, Instant};

use ktui::kube::informer::InformerConfig;
use ktui::sim::cli::start_in_process;
use ktui::sim::kinds::id;
use ktui::sim::DemoOptions;
use serde_json::Value;

use crate::demo_convergence::{client, diff, informer, seen, truth};

/// A copy of the server's pod `like` named `name`, as a client would create it.
fn pod_like(like: &Value, name: &str) -> Value {
    let mut p = like.clone();
    let m = &mut p["metadata"];
    m["name"] = Value::String(name.to_owned());
    for f in ["resourceVersion", "uid", "creationTimestamp", "managedFields"] {
        m.as_object_mut().unwrap().remove(f);
    }
    p
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_restored_from_an_older_backup_is_repaired_without_ghosts() {
    let demo = start_in_process(DemoOptions {
        pods: 40,
        live: false,
        seed: 7,
        bookmark_every: Duration::from_millis(200),
        ..DemoOptions::default()
    })
    .await
    .unwrap();
    let config = InformerConfig {
        request_timeout: Duration::from_secs(5),
        backoff_base: Duration::from_millis(50),
        backoff_cap: Duration::from_millis(500),
        // Stale only after 2 minutes: the repair must not wait for the stale-watch restart.
        bookmark_interval: Duration::from_secs(60),
        ..InformerConfig::default()
    };
    let (slot, stats, task) = informer(client(&demo).await, config);
    let store = &demo.server.store;
    let wait_for = |what: &str, deadline: Duration| {
        let what = what.to_owned();
        let slot = slot.clone();
        let want = truth(&demo);
        async move {
            let t = Instant::now();
            while seen(&slot) != want {
                assert!(
                    t.elapsed() < deadline,
                    "{what}: not converged in {deadline:?}:\n{}",
                    diff(&want, &seen(&slot))
                );
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            t.elapsed()
        }
    };
    wait_for("first list", Duration::from_secs(10)).await;
    let backup = store.backup();
    let all = store.list(id::POD, &Default::default(), 0, None, None).items;
    let like: Value = serde_json::from_slice(&all[0]).unwrap();
    for i in 0..37 {
        store
            .create(id::POD, pod_like(&like, &format!("after-backup-{i:02}")))
            .unwrap();
    }
    for b in &all[1..4] {
        let v: Value = serde_json::from_slice(b).unwrap();
        let (ns, name) = (
            v["metadata"]["namespace"].as_str().unwrap(),
            v["metadata"]["name"].as_str().unwrap(),
        );
        store.delete(id::POD, ns, name).unwrap();
    }
    wait_for("the changes after the backup", Duration::from_secs(10)).await;
    let before = slot.peek().rows.len();
    store.restore(&backup);
    assert_eq!(
        truth(&demo).len() + 37 - 3,
        before,
        "the restore took the changes back"
    );
    let repaired = wait_for("after the restore", Duration::from_secs(15)).await;
    let v = stats.view(&slot.peek());
    assert_eq!(v.drift_repairs, 1, "one repair");
    let (_, line) = v.last_drift.expect("the repair is named");
    assert!(
        line.starts_with("drift repaired: 37 removed, 3 added, 0 changed (resourceVersion went back from "),
        "{line}"
    );
    assert!(slot.peek().state.is_live());
    eprintln!("restore repaired in {repaired:.2?}: {line}");
    // The repaired informer follows the restored server's new changes.
    store.create(id::POD, pod_like(&like, "after-restore")).unwrap();
    wait_for("a change after the restore", Duration::from_secs(10)).await;
    task.abort();
}
