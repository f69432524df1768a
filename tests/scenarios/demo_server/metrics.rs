//! The demo's `metrics.k8s.io/v1beta1` through a real `kube::Client`, as metrics-server serves
//! it: discovery, pod and node lists (all namespaces, one namespace, a label selector), gets,
//! 404s, usage that changes with the window; the API off, down and forbidden to the viewer;
//! and `kubectl top pods -A` / `kubectl top nodes` (when the test cluster's kubectl is built).

use std::time::Duration;

use serde_json::Value;

use super::writes::{client_for, send};
use super::{quiet, Kubectl};
use ktui::sim::cli::start_in_process;
use ktui::sim::metrics::MetricsMode;
use ktui::sim::DemoOptions;

const BASE: &str = "/apis/metrics.k8s.io/v1beta1";

async fn get(c: &kube::Client, path: &str) -> (u16, Value) {
    send(c, "GET", path, "application/json", "").await
}

fn names(list: &Value) -> Vec<String> {
    list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["metadata"]["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_api_serves_pods_and_nodes_like_metrics_server() {
    let demo = start_in_process(DemoOptions {
        metrics_window: Duration::from_millis(700),
        ..quiet()
    })
    .await
    .unwrap();
    let c = client_for(&demo, "ktui-demo").await;
    let (code, apis) = get(&c, "/apis").await;
    assert_eq!(code, 200);
    assert!(apis["groups"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["name"] == "metrics.k8s.io"));
    let (code, res) = get(&c, BASE).await;
    assert_eq!(code, 200, "{res}");
    let kinds: Vec<&str> = res["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["NodeMetrics", "PodMetrics"]);

    let (code, all) = get(&c, &format!("{BASE}/pods")).await;
    assert_eq!(
        (code, all["kind"].as_str()),
        (200, Some("PodMetricsList")),
        "{all}"
    );
    let all_names = names(&all);
    assert!(
        all_names.iter().any(|n| n.starts_with("frontend-")),
        "{all_names:?}"
    );
    assert!(
        !all_names.iter().any(|n| n.starts_with("checkout-")),
        "crash-looping"
    );
    let item = &all["items"][0];
    assert!(
        item["timestamp"].is_string() && item["window"] == "700ms",
        "{item}"
    );
    assert!(item["containers"][0]["usage"]["cpu"].is_string(), "{item}");

    let (_, shop) = get(&c, &format!("{BASE}/namespaces/shop/pods")).await;
    let shop_items = shop["items"].as_array().unwrap();
    assert!(!shop_items.is_empty() && shop_items.iter().all(|i| i["metadata"]["namespace"] == "shop"));
    let (_, carts) = get(&c, &format!("{BASE}/pods?labelSelector=app%3Dcart")).await;
    assert_eq!(names(&carts).len(), 2, "{carts}");
    let cart = names(&carts)[0].clone();
    let (code, one) = get(&c, &format!("{BASE}/namespaces/shop/pods/{cart}")).await;
    assert_eq!((code, one["kind"].as_str()), (200, Some("PodMetrics")), "{one}");
    let (code, missing) = get(&c, &format!("{BASE}/namespaces/shop/pods/nope")).await;
    assert_eq!(
        (code, missing["reason"].as_str()),
        (404, Some("NotFound")),
        "{missing}"
    );
    let (code, _) = get(&c, &format!("{BASE}/pods?watch=true")).await;
    assert_eq!(code, 405, "metrics-server has no watch");

    let (code, nodes) = get(&c, &format!("{BASE}/nodes")).await;
    assert_eq!((code, nodes["kind"].as_str()), (200, Some("NodeMetricsList")));
    assert_eq!(
        names(&nodes),
        ["control-plane-1", "worker-1", "worker-2", "worker-3"]
    );
    let (code, w1) = get(&c, &format!("{BASE}/nodes/worker-1")).await;
    assert_eq!((code, w1["kind"].as_str()), (200, Some("NodeMetrics")), "{w1}");
    let (code, _) = get(&c, &format!("{BASE}/nodes/worker-4")).await;
    assert_eq!(code, 404, "NotReady: no metrics");
    let (code, _) = get(&c, &format!("{BASE}/nodes/nope")).await;
    assert_eq!(code, 404);

    // The next window brings new numbers.
    let usage = |v: &Value| v["containers"].to_string();
    let before = usage(&one);
    let mut changed = false;
    for _ in 0..20 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let (_, again) = get(&c, &format!("{BASE}/namespaces/shop/pods/{cart}")).await;
        if usage(&again) != before {
            changed = true;
            break;
        }
    }
    assert!(changed, "usage never changed: {before}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_api_can_be_off_down_or_forbidden() {
    let demo = start_in_process(quiet()).await.unwrap();
    let admin = client_for(&demo, "ktui-demo").await;
    let viewer = client_for(&demo, "ktui-demo-viewer").await;
    let listed = |apis: &Value| {
        apis["groups"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["name"] == "metrics.k8s.io")
    };
    assert_eq!(get(&viewer, &format!("{BASE}/pods")).await.0, 200);

    demo.server.metrics.set_mode(MetricsMode::Off);
    assert!(!listed(&get(&admin, "/apis").await.1));
    assert_eq!(get(&admin, BASE).await.0, 404);
    assert_eq!(get(&admin, &format!("{BASE}/pods")).await.0, 404);

    demo.server.metrics.set_mode(MetricsMode::Unavailable);
    assert!(listed(&get(&admin, "/apis").await.1));
    let (code, down) = get(&admin, &format!("{BASE}/nodes")).await;
    assert_eq!(
        (code, down["reason"].as_str()),
        (503, Some("ServiceUnavailable")),
        "{down}"
    );

    demo.server.metrics.set_mode(MetricsMode::Forbidden);
    let (code, no) = get(&viewer, &format!("{BASE}/pods")).await;
    assert_eq!(code, 403, "{no}");
    assert!(
        no["message"]
            .as_str()
            .unwrap()
            .contains("cannot list resource \"pods\" in API group \"metrics.k8s.io\""),
        "{no}"
    );
    assert_eq!(
        get(&admin, &format!("{BASE}/pods")).await.0,
        200,
        "system:masters still reads"
    );

    demo.server.metrics.set_mode(MetricsMode::On);
    assert_eq!(get(&viewer, &format!("{BASE}/nodes")).await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_top_reads_the_demo() {
    let Some(k) = Kubectl::start(quiet()).await else {
        return;
    };
    let pods = k.ok(&["top", "pods", "-A"]).await;
    for want in [
        "NAMESPACE",
        "CPU(cores)",
        "MEMORY(bytes)",
        "frontend-",
        "postgres-0",
        "kube-proxy-",
    ] {
        assert!(pods.contains(want), "{want} missing from:\n{pods}");
    }
    let containers = k.ok(&["top", "pods", "-n", "data", "--containers"]).await;
    assert!(containers.contains("exporter"), "{containers}");
    let nodes = k.ok(&["top", "nodes"]).await;
    for want in ["CPU(cores)", "CPU(%)", "worker-1", "control-plane-1"] {
        assert!(nodes.contains(want), "{want} missing from:\n{nodes}");
    }
}
