//! The demo server's write paths through a real `kube::Client`, each answer and error worded
//! as the real API server words it: create, replace with resourceVersion preconditions and
//! 409, the three patch formats (and 415 for apply), delete with grace periods, propagation
//! finalizers and preconditions, the scale subresource, eviction refused by a
//! PodDisruptionBudget, SelfSubjectAccessReview and 403s for the viewer, and a watcher that
//! sees every write's revision. The scenario is paused (`quiet`), so only these writes happen.

use bytes::Bytes;
use http_body_util::BodyExt;
use serde_json::{json, Value};

use super::quiet;
use ktui::sim::cli::{start_in_process, DemoHandle};
use ktui::sim::kinds::id;

pub(super) async fn client_for(demo: &DemoHandle, context: &str) -> kube::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let kc = kube::config::Kubeconfig::read_from(&demo.kubeconfig).unwrap();
    let opts = kube::config::KubeConfigOptions {
        context: Some(context.into()),
        ..Default::default()
    };
    let mut config = kube::Config::from_custom_kubeconfig(kc, &opts).await.unwrap();
    // kube's default retry layer retries 429 (an eviction refusal) with backoff for minutes.
    config.default_retry = false;
    kube::Client::try_from(config).unwrap()
}

/// One request: (HTTP code, JSON body).
pub(super) async fn send(
    c: &kube::Client,
    method: &str,
    path: &str,
    ct: &str,
    body: impl Into<Bytes>,
) -> (u16, Value) {
    let req = http::Request::builder()
        .method(method)
        .uri(path)
        .header("Content-Type", ct)
        .header("Accept", "application/json")
        .body(body.into().to_vec())
        .unwrap();
    let res = c.send(req.map(kube::client::Body::from)).await.unwrap();
    let code = res.status().as_u16();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (code, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

pub(super) async fn json_req(
    c: &kube::Client,
    method: &str,
    path: &str,
    ct: &str,
    body: &Value,
) -> (u16, Value) {
    send(c, method, path, ct, body.to_string()).await
}

const JSON: &str = "application/json";
const MERGE: &str = "application/merge-patch+json";
const STRATEGIC: &str = "application/strategic-merge-patch+json";
const JSON_PATCH: &str = "application/json-patch+json";
const DEPLOY: &str = "/apis/apps/v1/namespaces/shop/deployments";

fn rv(v: &Value) -> u64 {
    v["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_and_replace_set_server_fields_and_answer_real_errors() {
    let demo = start_in_process(quiet()).await.unwrap();
    let c = client_for(&demo, "ktui-demo").await;
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings"}, "data": {"a": "1"}});
    let before = demo.server.store.revision();
    let (code, made) = json_req(&c, "POST", "/api/v1/namespaces/shop/configmaps", JSON, &cm).await;
    assert_eq!(code, 201, "{made}");
    assert_eq!(
        rv(&made),
        before + 1,
        "the one revision counter stamps the create"
    );
    assert!(made["metadata"]["uid"].is_string() && made["metadata"]["creationTimestamp"].is_string());
    assert_eq!(made["metadata"]["namespace"], "shop");
    let (code, e) = json_req(&c, "POST", "/api/v1/namespaces/shop/configmaps", JSON, &cm).await;
    assert_eq!(
        (code, e["reason"].as_str(), e["message"].as_str()),
        (
            409,
            Some("AlreadyExists"),
            Some("configmaps \"settings\" already exists")
        )
    );
    let (code, e) = json_req(&c, "POST", "/api/v1/namespaces/nope/configmaps", JSON, &cm).await;
    assert_eq!(
        (code, e["message"].as_str()),
        (404, Some("namespaces \"nope\" not found"))
    );

    let (_, dep) = send(&c, "GET", &format!("{DEPLOY}/frontend"), JSON, "").await;
    let generation = dep["metadata"]["generation"].as_u64().unwrap();
    let mut stale = dep.clone();
    stale["metadata"]["labels"]["touched"] = json!("yes");
    let (code, fresh) = json_req(&c, "PUT", &format!("{DEPLOY}/frontend"), JSON, &stale).await;
    assert_eq!(code, 200, "{fresh}");
    assert_eq!(
        fresh["metadata"]["generation"].as_u64(),
        Some(generation),
        "a label change keeps the generation"
    );
    assert_eq!(fresh["metadata"]["uid"], dep["metadata"]["uid"]);
    // The same body again carries the old resourceVersion now: the optimistic lock refuses.
    stale["spec"]["replicas"] = json!(4);
    let (code, e) = json_req(&c, "PUT", &format!("{DEPLOY}/frontend"), JSON, &stale).await;
    assert_eq!(code, 409);
    assert_eq!(e["reason"], "Conflict");
    assert_eq!(
        e["message"],
        "Operation cannot be fulfilled on deployments.apps \"frontend\": the object has been modified; please apply your changes to the latest version and try again"
    );
    assert_eq!(
        e["details"],
        json!({"name": "frontend", "group": "apps", "kind": "deployments"})
    );
    let mut next = fresh.clone();
    next["spec"]["replicas"] = json!(4);
    next["status"] = json!({"replicas": 99});
    let (code, upd) = json_req(&c, "PUT", &format!("{DEPLOY}/frontend"), JSON, &next).await;
    assert_eq!(code, 200);
    assert_eq!(
        upd["metadata"]["generation"].as_u64(),
        Some(generation + 1),
        "a spec change bumps the generation"
    );
    assert_ne!(
        upd["status"]["replicas"], 99,
        "status is written only through /status"
    );
    next["spec"]["replicas"] = json!(-1);
    next["metadata"]["resourceVersion"] = upd["metadata"]["resourceVersion"].clone();
    let (code, e) = json_req(&c, "PUT", &format!("{DEPLOY}/frontend"), JSON, &next).await;
    assert_eq!((code, e["reason"].as_str()), (422, Some("Invalid")));
    assert_eq!(
        e["message"],
        "Deployment.apps \"frontend\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0"
    );
    assert_eq!(e["details"]["causes"][0]["field"], "spec.replicas");
    let (code, e) = json_req(&c, "PUT", &format!("{DEPLOY}/other"), JSON, &next).await;
    assert_eq!(
        (code, e["message"].as_str()),
        (404, Some("deployments.apps \"other\" not found"))
    );
    next["spec"]["replicas"] = json!(2);
    next["metadata"]["name"] = json!("renamed");
    let (code, e) = json_req(&c, "PUT", &format!("{DEPLOY}/frontend"), JSON, &next).await;
    assert_eq!(code, 400);
    assert_eq!(
        e["message"],
        "the name of the object (renamed) does not match the name on the URL (frontend)"
    );
    let (code, e) = send(
        &c,
        "POST",
        "/api/v1/namespaces/shop/configmaps",
        "application/vnd.kubernetes.protobuf",
        &b"k8s\0"[..],
    )
    .await;
    assert_eq!((code, e["reason"].as_str()), (415, Some("UnsupportedMediaType")));
    let stored = demo.server.store.get(id::DEPLOYMENT, "shop", "frontend").unwrap();
    assert_eq!(stored.rv, rv(&upd), "refused writes wrote nothing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_three_patch_formats_apply_and_apply_patch_is_refused() {
    let demo = start_in_process(quiet()).await.unwrap();
    let c = client_for(&demo, "ktui-demo").await;
    let url = format!("{DEPLOY}/frontend");
    let (code, v) = json_req(
        &c,
        "PATCH",
        &url,
        MERGE,
        &json!({"metadata": {"labels": {"tier": "web"}}}),
    )
    .await;
    assert_eq!(
        (code, v["metadata"]["labels"]["tier"].as_str()),
        (200, Some("web"))
    );
    let restart = json!({"spec": {"template": {"metadata": {"annotations": {"kubectl.kubernetes.io/restartedAt": "2026-12-01T20:00:00Z"}},
        "spec": {"$setElementOrder/containers": [{"name": "frontend"}], "containers": [{"name": "frontend", "image": "ghcr.io/ktui/frontend:9.9.9"}]}}}});
    let (code, v) = json_req(&c, "PATCH", &url, STRATEGIC, &restart).await;
    assert_eq!(code, 200, "{v}");
    let tpl = &v["spec"]["template"];
    assert_eq!(
        tpl["metadata"]["annotations"]["kubectl.kubernetes.io/restartedAt"],
        "2026-12-01T20:00:00Z"
    );
    assert_eq!(
        tpl["spec"]["containers"][0]["image"],
        "ghcr.io/ktui/frontend:9.9.9"
    );
    assert_eq!(
        tpl["spec"]["containers"][0]["ports"][0]["containerPort"], 8080,
        "merged by name, not replaced"
    );
    let (code, v) = json_req(
        &c,
        "PATCH",
        &url,
        JSON_PATCH,
        &json!([{"op": "replace", "path": "/spec/replicas", "value": 5}]),
    )
    .await;
    assert_eq!((code, v["spec"]["replicas"].as_i64()), (200, Some(5)));
    let (code, e) = json_req(
        &c,
        "PATCH",
        &url,
        JSON_PATCH,
        &json!([{"op": "test", "path": "/spec/replicas", "value": 1}]),
    )
    .await;
    assert_eq!(
        (code, e["message"].as_str()),
        (422, Some("testing value /spec/replicas failed: test failed"))
    );
    let (code, e) = json_req(
        &c,
        "PATCH",
        &url,
        MERGE,
        &json!({"metadata": {"resourceVersion": "2"}, "spec": {"replicas": 1}}),
    )
    .await;
    assert_eq!(
        (code, e["reason"].as_str()),
        (409, Some("Conflict")),
        "a patch naming an old resourceVersion conflicts"
    );
    let (code, e) = send(&c, "PATCH", &url, "application/apply-patch+yaml", "spec: {}").await;
    assert_eq!(code, 415);
    assert_eq!(
        e["message"],
        "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json"
    );
    let (code, node) = json_req(
        &c,
        "PATCH",
        "/api/v1/nodes/worker-1",
        STRATEGIC,
        &json!({"spec": {"unschedulable": true}}),
    )
    .await;
    assert_eq!((code, node["spec"]["unschedulable"].as_bool()), (200, Some(true)));
    let (code, st) = json_req(
        &c,
        "PATCH",
        "/apis/apps/v1/namespaces/shop/deployments/cart/status",
        MERGE,
        &json!({"status": {"readyReplicas": 7}, "spec": {"replicas": 9}}),
    )
    .await;
    assert_eq!(code, 200);
    assert_eq!(
        (
            st["status"]["readyReplicas"].as_i64(),
            st["spec"]["replicas"].as_i64()
        ),
        (Some(7), Some(2)),
        "/status writes status only"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deletes_honour_grace_propagation_and_preconditions() {
    let demo = start_in_process(quiet()).await.unwrap();
    let c = client_for(&demo, "ktui-demo").await;
    let store = &demo.server.store;
    let (code, v) = send(
        &c,
        "DELETE",
        "/api/v1/namespaces/shop/configmaps/frontend-config",
        JSON,
        "",
    )
    .await;
    assert_eq!(
        (code, v["kind"].as_str(), v["status"].as_str()),
        (200, Some("Status"), Some("Success"))
    );
    assert!(store.get(id::CONFIGMAP, "shop", "frontend-config").is_none());
    let pod = store
        .list(id::POD, &Default::default(), 0, None, None)
        .items
        .iter()
        .map(|b| serde_json::from_slice::<Value>(b).unwrap())
        .find(|p| p["metadata"]["name"].as_str().unwrap().starts_with("cart-"))
        .unwrap();
    let name = pod["metadata"]["name"].as_str().unwrap().to_owned();
    let url = format!("/api/v1/namespaces/shop/pods/{name}");
    let (code, e) = json_req(
        &c,
        "DELETE",
        &url,
        JSON,
        &json!({"preconditions": {"uid": "not-it"}}),
    )
    .await;
    assert_eq!(code, 409);
    assert_eq!(
        e["message"].as_str().unwrap(),
        format!("Operation cannot be fulfilled on pods \"{name}\": Precondition failed: UID in precondition: not-it, UID in object meta: {}", pod["metadata"]["uid"].as_str().unwrap())
    );
    let (code, v) = json_req(&c, "DELETE", &url, JSON, &json!({"gracePeriodSeconds": 30})).await;
    assert_eq!(code, 200);
    assert_eq!(v["metadata"]["deletionGracePeriodSeconds"], 30);
    assert!(
        v["metadata"]["deletionTimestamp"].is_string(),
        "a graceful delete leaves the pod Terminating"
    );
    assert!(store.get(id::POD, "shop", &name).is_some());
    let (code, _) = send(&c, "DELETE", &format!("{url}?gracePeriodSeconds=0"), JSON, "").await;
    assert_eq!(code, 200);
    assert!(
        store.get(id::POD, "shop", &name).is_none(),
        "grace 0 removes at once"
    );
    let (code, v) = json_req(
        &c,
        "DELETE",
        &format!("{DEPLOY}/cart"),
        JSON,
        &json!({"propagationPolicy": "Foreground"}),
    )
    .await;
    assert_eq!(code, 200);
    assert_eq!(v["metadata"]["finalizers"], json!(["foregroundDeletion"]));
    assert!(v["metadata"]["deletionTimestamp"].is_string());
    let (code, v) = json_req(
        &c,
        "DELETE",
        &format!("{DEPLOY}/checkout"),
        JSON,
        &json!({"propagationPolicy": "Orphan"}),
    )
    .await;
    assert_eq!(
        (code, v["metadata"]["finalizers"].clone()),
        (200, json!(["orphan"]))
    );
    let (code, e) = json_req(
        &c,
        "DELETE",
        &format!("{DEPLOY}/checkout"),
        JSON,
        &json!({"propagationPolicy": "Sideways"}),
    )
    .await;
    assert_eq!(code, 400, "{e}");
    // Removing the last finalizer of an object marked for deletion deletes it.
    let (code, _) = json_req(
        &c,
        "PATCH",
        &format!("{DEPLOY}/checkout"),
        MERGE,
        &json!({"metadata": {"finalizers": null}}),
    )
    .await;
    assert_eq!(code, 200);
    assert!(store.get(id::DEPLOYMENT, "shop", "checkout").is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scale_subresource_reads_and_writes_replicas() {
    let demo = start_in_process(quiet()).await.unwrap();
    let c = client_for(&demo, "ktui-demo").await;
    let url = format!("{DEPLOY}/frontend/scale");
    let (code, s) = send(&c, "GET", &url, JSON, "").await;
    assert_eq!(code, 200);
    assert_eq!(
        (s["kind"].as_str(), s["apiVersion"].as_str()),
        (Some("Scale"), Some("autoscaling/v1"))
    );
    assert_eq!(
        (s["spec"]["replicas"].as_i64(), s["status"]["selector"].as_str()),
        (Some(3), Some("app=frontend"))
    );
    let (code, s2) = json_req(&c, "PATCH", &url, MERGE, &json!({"spec": {"replicas": 5}})).await;
    assert_eq!((code, s2["spec"]["replicas"].as_i64()), (200, Some(5)));
    let dep = demo.server.store.get(id::DEPLOYMENT, "shop", "frontend").unwrap();
    let dep: Value = serde_json::from_slice(&dep.bytes).unwrap();
    assert_eq!(dep["spec"]["replicas"], 5);
    let mut put = s.clone();
    put["spec"]["replicas"] = json!(1);
    let (code, e) = json_req(&c, "PUT", &url, JSON, &put).await;
    assert_eq!(
        (code, e["reason"].as_str()),
        (409, Some("Conflict")),
        "the Scale's resourceVersion is a precondition"
    );
    put["metadata"]["resourceVersion"] = s2["metadata"]["resourceVersion"].clone();
    put["spec"]["replicas"] = json!(-2);
    let (code, e) = json_req(&c, "PUT", &url, JSON, &put).await;
    assert_eq!(code, 422);
    assert_eq!(e["message"], "Scale.autoscaling \"frontend\" is invalid: spec.replicas: Invalid value: -2: must be greater than or equal to 0");
    let (code, _) = send(
        &c,
        "GET",
        "/api/v1/namespaces/shop/configmaps/frontend-config/scale",
        JSON,
        "",
    )
    .await;
    assert_eq!(code, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eviction_is_refused_by_a_disruption_budget_with_the_real_words() {
    let demo = start_in_process(quiet()).await.unwrap();
    let c = client_for(&demo, "ktui-demo").await;
    let pdb = json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "cart"},
        "spec": {"minAvailable": 2, "selector": {"matchLabels": {"app": "cart"}}}});
    let (code, v) = json_req(
        &c,
        "POST",
        "/apis/policy/v1/namespaces/shop/poddisruptionbudgets",
        JSON,
        &pdb,
    )
    .await;
    assert_eq!(code, 201, "{v}");
    let cart: Vec<String> = demo
        .server
        .store
        .list(id::POD, &Default::default(), 0, None, None)
        .items
        .iter()
        .map(|b| serde_json::from_slice::<Value>(b).unwrap())
        .filter(|p| p["metadata"]["labels"]["app"] == "cart")
        .map(|p| p["metadata"]["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(cart.len(), 2);
    let ev = |name: &str| json!({"apiVersion": "policy/v1", "kind": "Eviction", "metadata": {"name": name, "namespace": "shop"}});
    let url = format!("/api/v1/namespaces/shop/pods/{}/eviction", cart[0]);
    let (code, e) = json_req(&c, "POST", &url, JSON, &ev(&cart[0])).await;
    assert_eq!((code, e["reason"].as_str()), (429, Some("TooManyRequests")));
    assert_eq!(
        e["message"],
        "Cannot evict pod as it would violate the pod's disruption budget."
    );
    assert_eq!(
        e["details"]["causes"][0],
        json!({"reason": "DisruptionBudget", "message": "The disruption budget cart needs 2 healthy pods and has 2 currently"})
    );
    let (code, _) = json_req(
        &c,
        "PATCH",
        "/apis/policy/v1/namespaces/shop/poddisruptionbudgets/cart",
        MERGE,
        &json!({"spec": {"minAvailable": 1}}),
    )
    .await;
    assert_eq!(code, 200);
    let (code, v) = json_req(&c, "POST", &url, JSON, &ev(&cart[0])).await;
    assert_eq!((code, v["status"].as_str()), (201, Some("Success")));
    let evicted: Value =
        serde_json::from_slice(&demo.server.store.get(id::POD, "shop", &cart[0]).unwrap().bytes).unwrap();
    assert!(
        evicted["metadata"]["deletionTimestamp"].is_string(),
        "an evicted pod terminates gracefully"
    );
    // The first is terminating, so the second would leave fewer than one healthy.
    let url2 = format!("/api/v1/namespaces/shop/pods/{}/eviction", cart[1]);
    let (code, e) = json_req(&c, "POST", &url2, JSON, &ev(&cart[1])).await;
    assert_eq!(code, 429, "{e}");
    assert_eq!(
        e["details"]["causes"][0]["message"],
        "The disruption budget cart needs 1 healthy pods and has 1 currently"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn access_reviews_and_403s_follow_the_identity() {
    let demo = start_in_process(quiet()).await.unwrap();
    let admin = client_for(&demo, "ktui-demo").await;
    let viewer = client_for(&demo, "ktui-demo-viewer").await;
    let ssar = |verb: &str, resource: &str, sub: &str| {
        json!({"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectAccessReview",
               "spec": {"resourceAttributes": {"namespace": "shop", "verb": verb, "resource": resource, "subresource": sub}}})
    };
    let path = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
    for (who, c, verb, resource, sub, allowed) in [
        ("admin", &admin, "delete", "pods", "", true),
        ("admin", &admin, "create", "pods", "exec", true),
        ("viewer", &viewer, "list", "pods", "", true),
        ("viewer", &viewer, "get", "pods", "log", true),
        ("viewer", &viewer, "delete", "pods", "", false),
        ("viewer", &viewer, "patch", "deployments", "scale", false),
        ("viewer", &viewer, "create", "pods", "exec", false),
        ("viewer", &viewer, "get", "pods", "portforward", false),
    ] {
        let (code, r) = json_req(c, "POST", path, JSON, &ssar(verb, resource, sub)).await;
        assert_eq!(code, 201);
        assert_eq!(
            r["status"]["allowed"].as_bool(),
            Some(allowed),
            "{who} {verb} {resource}/{sub}: {r}"
        );
    }
    let name = demo
        .server
        .store
        .list(id::POD, &Default::default(), 0, None, None)
        .items
        .iter()
        .map(|b| serde_json::from_slice::<Value>(b).unwrap())
        .find(|p| p["metadata"]["namespace"] == "shop")
        .map(|p| p["metadata"]["name"].as_str().unwrap().to_owned())
        .unwrap();
    let (code, e) = send(
        &viewer,
        "DELETE",
        &format!("/api/v1/namespaces/shop/pods/{name}"),
        JSON,
        "",
    )
    .await;
    assert_eq!((code, e["reason"].as_str()), (403, Some("Forbidden")));
    assert_eq!(
        e["message"].as_str().unwrap(),
        format!("pods \"{name}\" is forbidden: User \"viewer\" cannot delete resource \"pods\" in API group \"\" in the namespace \"shop\"")
    );
    let (code, e) = json_req(
        &viewer,
        "PATCH",
        "/api/v1/nodes/worker-1",
        STRATEGIC,
        &json!({"spec": {"unschedulable": true}}),
    )
    .await;
    assert_eq!(code, 403);
    assert_eq!(e["message"], "nodes \"worker-1\" is forbidden: User \"viewer\" cannot patch resource \"nodes\" in API group \"\" at the cluster scope");
    let (code, e) = json_req(
        &viewer,
        "POST",
        "/apis/apps/v1/namespaces/shop/deployments",
        JSON,
        &json!({}),
    )
    .await;
    assert_eq!(code, 403);
    assert_eq!(e["message"], "deployments.apps is forbidden: User \"viewer\" cannot create resource \"deployments\" in API group \"apps\" in the namespace \"shop\"");
    let (code, _) = send(&viewer, "GET", "/api/v1/namespaces/shop/pods", JSON, "").await;
    assert_eq!(code, 200, "the viewer reads");
    assert!(demo.server.store.get(id::POD, "shop", &name).is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_sees_every_write_revision_in_order() {
    use futures::{StreamExt, TryStreamExt};
    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::api::{Api, WatchEvent, WatchParams};
    let demo = start_in_process(quiet()).await.unwrap();
    let c = client_for(&demo, "ktui-demo").await;
    let from = demo.server.store.revision();
    let api: Api<ConfigMap> = Api::namespaced(c.clone(), "shop");
    let mut stream = api
        .watch(&WatchParams::default().timeout(10), &from.to_string())
        .await
        .unwrap()
        .boxed();
    let base = "/api/v1/namespaces/shop/configmaps";
    let mut want = Vec::new();
    for i in 0..5 {
        let (_, v) = json_req(
            &c,
            "POST",
            base,
            JSON,
            &json!({"metadata": {"name": format!("w{i}")}}),
        )
        .await;
        want.push(("ADDED", rv(&v)));
        let (_, v) = json_req(
            &c,
            "PATCH",
            &format!("{base}/w{i}"),
            MERGE,
            &json!({"data": {"k": "v"}}),
        )
        .await;
        want.push(("MODIFIED", rv(&v)));
        // A no-op patch writes nothing: no revision, no event.
        let (_, same) = json_req(
            &c,
            "PATCH",
            &format!("{base}/w{i}"),
            MERGE,
            &json!({"data": {"k": "v"}}),
        )
        .await;
        assert_eq!(rv(&same), rv(&v));
    }
    let (_, _) = send(&c, "DELETE", &format!("{base}/w0"), JSON, "").await;
    let mut seen = Vec::new();
    while seen.len() < want.len() + 1 {
        let ev = stream.try_next().await.unwrap().expect("watch open");
        let (ty, cm) = match ev {
            WatchEvent::Added(o) => ("ADDED", o),
            WatchEvent::Modified(o) => ("MODIFIED", o),
            WatchEvent::Deleted(o) => ("DELETED", o),
            _ => continue,
        };
        seen.push((ty, cm.metadata.resource_version.unwrap().parse::<u64>().unwrap()));
    }
    assert_eq!(&seen[..want.len()], &want[..]);
    assert_eq!(seen.last().unwrap().0, "DELETED");
    assert!(seen.windows(2).all(|w| w[0].1 < w[1].1), "{seen:?}");
}
