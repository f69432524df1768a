//! The demo cluster's controllers react to clients' writes as the real ones do (scenario
//! ticking every 100 ms): a scaled deployment's pods appear and go, a restart rolls to a new
//! ReplicaSet with the next revision and a rollback reuses the old one, a cordoned node gets no
//! new pod and evicted pods come back elsewhere, a Job made from a CronJob's template runs and
//! completes, a suspended CronJob schedules nothing, and deletes cascade (foreground waits for
//! the dependents, orphan keeps them).

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::lively;
use super::writes::{client_for, json_req, send};
use ktui::sim::cli::{start_in_process, DemoHandle};
use ktui::sim::kinds::id;

const MERGE: &str = "application/merge-patch+json";
const STRATEGIC: &str = "application/strategic-merge-patch+json";
const JSON: &str = "application/json";

fn all(demo: &DemoHandle, kind: usize, ns: &str) -> Vec<Value> {
    demo.server
        .store
        .list(kind, &Default::default(), 0, None, None)
        .items
        .iter()
        .map(|b| serde_json::from_slice::<Value>(b).unwrap())
        .filter(|v| v["metadata"]["namespace"] == ns)
        .collect()
}

fn owned_by(v: &Value, name: &str) -> bool {
    v["metadata"]["ownerReferences"][0]["name"] == name
}

async fn wait(what: &str, mut ok: impl FnMut() -> bool) {
    let t = Instant::now();
    while !ok() {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn running(p: &Value) -> bool {
    p["status"]["phase"] == "Running" && p["metadata"]["deletionTimestamp"].is_null()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deployments_scale_restart_and_roll_back() {
    let demo = start_in_process(lively()).await.unwrap();
    let c = client_for(&demo, "ktui-demo").await;
    let cart_pods = |d: &DemoHandle| {
        all(d, id::POD, "shop")
            .into_iter()
            .filter(|p| p["metadata"]["labels"]["app"] == "cart")
            .collect::<Vec<_>>()
    };
    let (code, _) = json_req(
        &c,
        "PATCH",
        "/apis/apps/v1/namespaces/shop/deployments/cart/scale",
        MERGE,
        &json!({"spec": {"replicas": 4}}),
    )
    .await;
    assert_eq!(code, 200);
    wait("4 running cart pods", || {
        cart_pods(&demo).iter().filter(|p| running(p)).count() == 4
    })
    .await;
    let restart = json!({"spec": {"template": {"metadata": {"annotations": {"kubectl.kubernetes.io/restartedAt": "2026-12-01T20:00:00Z"}}}}});
    let (code, _) = json_req(
        &c,
        "PATCH",
        "/apis/apps/v1/namespaces/shop/deployments/cart",
        STRATEGIC,
        &restart,
    )
    .await;
    assert_eq!(code, 200);
    let sets = |d: &DemoHandle| {
        all(d, id::REPLICASET, "shop")
            .into_iter()
            .filter(|r| owned_by(r, "cart"))
            .collect::<Vec<_>>()
    };
    let rev = |r: &Value| {
        r["metadata"]["annotations"]["deployment.kubernetes.io/revision"]
            .as_str()
            .unwrap_or("")
            .to_owned()
    };
    wait("the restart rolled to a second ReplicaSet", || {
        let s = sets(&demo);
        s.len() == 2
            && s.iter()
                .any(|r| rev(r) == "2" && r["status"]["readyReplicas"] == 4)
            && s.iter().any(|r| rev(r) == "1" && r["spec"]["replicas"] == 0)
            && cart_pods(&demo).len() == 4
    })
    .await;
    let new = sets(&demo).into_iter().find(|r| rev(r) == "2").unwrap();
    assert!(cart_pods(&demo)
        .iter()
        .all(|p| owned_by(p, new["metadata"]["name"].as_str().unwrap())));
    let dep = demo.server.store.get(id::DEPLOYMENT, "shop", "cart").unwrap();
    let dep: Value = serde_json::from_slice(&dep.bytes).unwrap();
    assert_eq!(
        dep["metadata"]["annotations"]["deployment.kubernetes.io/revision"],
        "2"
    );
    // Rollback, as `kubectl rollout undo` does: the old template back in the Deployment.
    let old = sets(&demo).into_iter().find(|r| rev(r) == "1").unwrap();
    let mut tpl = old["spec"]["template"].clone();
    tpl["metadata"]["labels"]
        .as_object_mut()
        .unwrap()
        .remove("pod-template-hash");
    let undo = json!([{"op": "replace", "path": "/spec/template", "value": tpl}]);
    let (code, _) = json_req(
        &c,
        "PATCH",
        "/apis/apps/v1/namespaces/shop/deployments/cart",
        "application/json-patch+json",
        &undo,
    )
    .await;
    assert_eq!(code, 200);
    wait("the old ReplicaSet reused at revision 3", || {
        let s = sets(&demo);
        s.len() == 2
            && s.iter().any(|r| {
                r["metadata"]["name"] == old["metadata"]["name"]
                    && rev(r) == "3"
                    && r["status"]["readyReplicas"] == 4
            })
    })
    .await;
    let (code, _) = json_req(
        &c,
        "PATCH",
        "/apis/apps/v1/namespaces/shop/deployments/cart/scale",
        MERGE,
        &json!({"spec": {"replicas": 1}}),
    )
    .await;
    assert_eq!(code, 200);
    wait("scaled down to one pod", || cart_pods(&demo).len() == 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cordon_evict_reschedules_elsewhere_and_jobs_run() {
    let demo = start_in_process(lively()).await.unwrap();
    let c = client_for(&demo, "ktui-demo").await;
    let (code, _) = json_req(
        &c,
        "PATCH",
        "/api/v1/nodes/worker-1",
        STRATEGIC,
        &json!({"spec": {"unschedulable": true}}),
    )
    .await;
    assert_eq!(code, 200);
    let on_w1: Vec<Value> = all(&demo, id::POD, "shop")
        .into_iter()
        .filter(|p| p["spec"]["nodeName"] == "worker-1" && p["metadata"]["labels"]["app"] == "cart")
        .collect();
    for p in &on_w1 {
        let name = p["metadata"]["name"].as_str().unwrap();
        let ev = json!({"apiVersion": "policy/v1", "kind": "Eviction", "metadata": {"name": name, "namespace": "shop"}});
        let (code, v) = json_req(
            &c,
            "POST",
            &format!("/api/v1/namespaces/shop/pods/{name}/eviction"),
            JSON,
            &ev,
        )
        .await;
        assert_eq!(code, 201, "{v}");
    }
    wait("cart back to 2 running pods, none on the cordoned node", || {
        let cart: Vec<Value> = all(&demo, id::POD, "shop")
            .into_iter()
            .filter(|p| p["metadata"]["labels"]["app"] == "cart")
            .collect();
        cart.len() == 2
            && cart
                .iter()
                .all(|p| running(p) && p["spec"]["nodeName"] != "worker-1")
    })
    .await;
    // Suspend the CronJob, then run its template by hand, as `kubectl create job --from` does.
    let (code, _) = json_req(
        &c,
        "PATCH",
        "/apis/batch/v1/namespaces/batch/cronjobs/nightly-report",
        MERGE,
        &json!({"spec": {"suspend": true}}),
    )
    .await;
    assert_eq!(code, 200);
    let before: Vec<String> = all(&demo, id::JOB, "batch")
        .iter()
        .map(|j| j["metadata"]["name"].as_str().unwrap().to_owned())
        .collect();
    let cj: Value = serde_json::from_slice(
        &demo
            .server
            .store
            .get(id::CRONJOB, "batch", "nightly-report")
            .unwrap()
            .bytes,
    )
    .unwrap();
    let job = json!({"apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": "manual-1", "annotations": {"cronjob.kubernetes.io/instantiate": "manual"},
                     "ownerReferences": [{"apiVersion": "batch/v1", "kind": "CronJob", "name": "nightly-report", "uid": cj["metadata"]["uid"], "controller": true}]},
        "spec": cj["spec"]["jobTemplate"]["spec"]});
    let (code, v) = json_req(&c, "POST", "/apis/batch/v1/namespaces/batch/jobs", JSON, &job).await;
    assert_eq!(code, 201, "{v}");
    wait("the manual job completes", || {
        all(&demo, id::JOB, "batch")
            .iter()
            .any(|j| j["metadata"]["name"] == "manual-1" && j["status"]["succeeded"] == 1)
    })
    .await;
    // 4 s = 40 ticks: more than one schedule period, and suspended means no new Job.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let after: Vec<String> = all(&demo, id::JOB, "batch")
        .iter()
        .map(|j| j["metadata"]["name"].as_str().unwrap().to_owned())
        .collect();
    let new: Vec<&String> = after
        .iter()
        .filter(|n| !before.contains(n) && *n != "manual-1")
        .collect();
    assert!(new.is_empty(), "a suspended CronJob created {new:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deletes_cascade_through_the_garbage_collector() {
    let demo = start_in_process(lively()).await.unwrap();
    let c = client_for(&demo, "ktui-demo").await;
    let (code, _) = json_req(
        &c,
        "DELETE",
        "/apis/apps/v1/namespaces/shop/deployments/cart",
        JSON,
        &json!({"propagationPolicy": "Foreground"}),
    )
    .await;
    assert_eq!(code, 200);
    wait("foreground: pods, ReplicaSet, then the Deployment gone", || {
        demo.server.store.get(id::DEPLOYMENT, "shop", "cart").is_none()
            && !all(&demo, id::REPLICASET, "shop")
                .iter()
                .any(|r| owned_by(r, "cart"))
            && !all(&demo, id::POD, "shop")
                .iter()
                .any(|p| p["metadata"]["labels"]["app"] == "cart")
    })
    .await;
    let (code, _) = json_req(
        &c,
        "DELETE",
        "/apis/apps/v1/namespaces/shop/deployments/checkout",
        JSON,
        &json!({"propagationPolicy": "Orphan"}),
    )
    .await;
    assert_eq!(code, 200);
    wait(
        "orphan: the Deployment gone, its ReplicaSet kept without owner",
        || {
            demo.server
                .store
                .get(id::DEPLOYMENT, "shop", "checkout")
                .is_none()
                && all(&demo, id::REPLICASET, "shop").iter().any(|r| {
                    r["metadata"]["name"].as_str().unwrap().starts_with("checkout-")
                        && r["metadata"]["ownerReferences"].is_null()
                })
        },
    )
    .await;
    let (code, _) = send(
        &c,
        "DELETE",
        "/apis/apps/v1/namespaces/data/deployments/api-gateway",
        JSON,
        "",
    )
    .await;
    assert_eq!(code, 200);
    wait("background: the dependents collected", || {
        !all(&demo, id::POD, "data")
            .iter()
            .any(|p| p["metadata"]["labels"]["app"] == "api-gateway")
    })
    .await;
}
