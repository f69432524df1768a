//! Unit tests of the demo's metrics API: the usage model's promises, which pods and nodes have
//! metrics in the default scenario, the JSON shape, selectors, errors, modes and the memo.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::collect::{self, Missing, PodItem};
use super::serve::{go_duration, resource_list, stamp, with_group};
use super::usage::{container, Resources};
use super::*;
use crate::kinds::id;
use crate::matching::{FieldSelector, Filter, LabelSelector};
use crate::store::{Store, StoreConfig};

const MI: u64 = 1024 * 1024;
const M: u64 = 1_000_000;

/// The default scenario's store, as the demo starts it (no ticks).
fn demo() -> (Arc<Store>, Arc<MetricsApi>) {
    let store = Store::new(StoreConfig::default());
    crate::scenario::World::setup(store.clone(), 1).unwrap();
    (
        store,
        MetricsApi::new(MetricsMode::On, 1, Duration::from_secs(15)),
    )
}

fn find<'a>(items: &'a [PodItem], name: &str) -> Vec<&'a PodItem> {
    items.iter().filter(|p| p.meta.name.starts_with(name)).collect()
}

#[test]
fn usage_is_seeded_changes_per_window_and_keeps_to_its_level() {
    let r = Resources {
        cpu_request: Some(200 * M),
        cpu_limit: Some(400 * M),
        memory_request: Some(256 * MI),
        memory_limit: Some(320 * MI),
    };
    let a = container(1, "shop", "cart-1", "cart", &r, 7);
    assert_eq!(a, container(1, "shop", "cart-1", "cart", &r, 7), "deterministic");
    assert_ne!(
        a,
        container(1, "shop", "cart-1", "cart", &r, 8),
        "a new window, new numbers"
    );
    assert_ne!(
        a,
        container(2, "shop", "cart-1", "cart", &r, 7),
        "another seed, another cluster"
    );
    for w in 0..200 {
        // cart runs near its limits, never over them.
        let u = container(1, "shop", "cart-1", "cart", &r, w);
        assert!(u.cpu_nanos >= 340 * M && u.cpu_nanos <= 400 * M, "{u:?}");
        assert!(u.memory_bytes >= 272 * MI && u.memory_bytes <= 320 * MI, "{u:?}");
        assert_eq!(u.memory_bytes % 4096, 0);
        // frontend runs over its CPU request, under its limit.
        let f = Resources {
            cpu_request: Some(100 * M),
            cpu_limit: Some(500 * M),
            ..r
        };
        let u = container(1, "shop", "frontend-1", "frontend", &f, w);
        assert!(u.cpu_nanos > 100 * M && u.cpu_nanos < 500 * M, "{u:?}");
        // Nothing declared at all: still a plausible, small usage.
        let u = container(1, "x", "p", "unknown", &Resources::default(), w);
        assert!(
            u.cpu_nanos > 0 && u.cpu_nanos < 100 * M && u.memory_bytes < 128 * MI,
            "{u:?}"
        );
    }
}

#[test]
fn the_default_scenario_has_running_pods_with_metrics_and_the_promised_mix() {
    let (store, api) = demo();
    let items = collect::pods(&api, &store, &Filter::default(), 3);
    assert!(
        find(&items, "checkout-").is_empty(),
        "crash-looping: no running container"
    );
    let proxies = find(&items, "kube-proxy-");
    assert_eq!(
        proxies.len(),
        4,
        "worker-4 is NotReady and its kube-proxy not running"
    );
    let limits = |p: &PodItem| p.shape.containers[0].1;
    assert!(proxies
        .iter()
        .all(|p| limits(p).cpu_limit.is_none() && limits(p).memory_limit.is_none()));
    for f in find(&items, "frontend-") {
        assert!(
            f.usage[0].cpu_nanos > limits(f).cpu_request.unwrap(),
            "over its request"
        );
    }
    for c in find(&items, "cart-") {
        let lim = limits(c).memory_limit.unwrap();
        assert!(c.usage[0].memory_bytes * 100 >= lim * 85, "near its limit");
    }
    let pg = find(&items, "postgres-0");
    let names: Vec<&str> = pg[0].shape.containers.iter().map(|c| &*c.0).collect();
    assert_eq!(
        names,
        ["postgres", "exporter"],
        "the running sidecar, not the init container"
    );
    let keys: Vec<(String, String)> = items
        .iter()
        .map(|p| (p.meta.namespace.to_string(), p.meta.name.to_string()))
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted, "by namespace, then name");
}

#[test]
fn lists_honour_namespace_and_selectors_and_gets_say_why_not() {
    let (store, api) = demo();
    let shop = Filter {
        namespace: Some("shop".into()),
        ..Filter::default()
    };
    let items = collect::pods(&api, &store, &shop, 0);
    assert!(!items.is_empty() && items.iter().all(|p| &*p.meta.namespace == "shop"));
    let carts = Filter {
        labels: LabelSelector::parse("app=cart").unwrap(),
        ..Filter::default()
    };
    let items = collect::pods(&api, &store, &carts, 0);
    assert_eq!(items.len(), 2);
    let one = &items[0];
    let got = collect::pod(&api, &store, &one.meta.namespace, &one.meta.name, 0).unwrap();
    assert_eq!(got.usage, one.usage);
    let by_name = Filter {
        fields: FieldSelector::parse(&format!("metadata.name={}", one.meta.name), &PODS).unwrap(),
        ..Filter::default()
    };
    assert_eq!(collect::pods(&api, &store, &by_name, 0).len(), 1);
    assert!(FieldSelector::parse("spec.nodeName=worker-1", &PODS).is_err());
    assert_eq!(
        collect::pod(&api, &store, "shop", "nope", 0).err(),
        Some(Missing::Object)
    );
    let mut p = crate::pods::PodModel::new("shop", "on-worker-4", "probe", "busybox");
    p.node = Some("worker-4".into());
    p.life = crate::pods::Life::Running { ready: true };
    store.apply(id::POD, p.to_json("2026-01-01T00:00:00Z")).unwrap();
    assert_eq!(
        collect::pod(&api, &store, "shop", "on-worker-4", 0).err(),
        Some(Missing::Metrics),
        "its node is NotReady: nobody scrapes it"
    );
    assert_eq!(
        collect::node(&api, &store, "worker-4", 0).err(),
        Some(Missing::Metrics)
    );
    assert_eq!(
        collect::node(&api, &store, "nope", 0).err(),
        Some(Missing::Object)
    );
}

#[test]
fn nodes_use_their_pods_plus_the_system() {
    let (store, api) = demo();
    let nodes = collect::nodes(&api, &store, &Filter::default(), 5);
    let names: Vec<&str> = nodes.iter().map(|n| &*n.meta.name).collect();
    assert_eq!(names, ["control-plane-1", "worker-1", "worker-2", "worker-3"]);
    let pods = collect::pods(&api, &store, &Filter::default(), 5);
    for n in &nodes {
        let mut want = usage::system(api.seed, &n.meta.name, 5);
        for p in pods.iter().filter(|p| *p.shape.node == *n.meta.name) {
            for u in &p.usage {
                want += *u;
            }
        }
        assert_eq!(n.usage, want, "{}", n.meta.name);
        assert!(n.usage.cpu_nanos < 7_800 * M, "under allocatable");
    }
    let w1 = collect::node(&api, &store, "worker-1", 5).unwrap();
    assert_eq!(w1.usage, nodes[1].usage);
}

#[test]
fn answers_have_metrics_servers_json() {
    let (store, api) = demo();
    let (window, st) = stamp(&api);
    assert_eq!(st.window, "15s");
    let items = collect::pods(&api, &store, &Filter::default(), window);
    let list: Value = serde_json::from_slice(&render::pod_list(&items, &st)).unwrap();
    assert_eq!(list["kind"], "PodMetricsList");
    assert_eq!(list["apiVersion"], "metrics.k8s.io/v1beta1");
    assert_eq!(list["metadata"], serde_json::json!({}));
    let first = &list["items"][0];
    assert!(first.get("kind").is_none());
    assert_eq!(first["window"], "15s");
    assert!(first["metadata"]["creationTimestamp"]
        .as_str()
        .unwrap()
        .ends_with('Z'));
    let frontend = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["metadata"]["name"].as_str().unwrap().starts_with("frontend-"))
        .unwrap();
    assert_eq!(frontend["metadata"]["labels"]["app"], "frontend");
    assert_eq!(frontend["metadata"]["namespace"], "shop");
    let usage = &first["containers"][0]["usage"];
    let cpu = usage["cpu"].as_str().unwrap();
    assert_eq!(
        quantity::cpu_nanos(cpu),
        Some(items[0].usage[0].cpu_nanos),
        "{cpu}"
    );
    assert!(
        usage["memory"].as_str().unwrap().ends_with("Ki")
            || usage["memory"].as_str().unwrap().ends_with("Mi")
    );
    let one: Value = serde_json::from_slice(&render::pod(&items[0], &st)).unwrap();
    assert_eq!(
        (one["kind"].as_str(), one["apiVersion"].as_str()),
        (Some("PodMetrics"), Some(API_VERSION))
    );
    let nodes = collect::nodes(&api, &store, &Filter::default(), window);
    let nl: Value = serde_json::from_slice(&render::node_list(&nodes, &st)).unwrap();
    assert_eq!(nl["kind"], "NodeMetricsList");
    assert!(nl["items"][0]["metadata"].get("namespace").is_none());
    assert!(nl["items"][0]["usage"]["cpu"].as_str().unwrap().ends_with('n'));
    assert_eq!(go_duration(Duration::from_millis(1500)), "1.5s");
    assert_eq!(go_duration(Duration::from_millis(500)), "500ms");
    assert_eq!(go_duration(Duration::from_secs(120)), "2m0s");
}

#[test]
fn discovery_and_paths() {
    let api = MetricsApi::new(MetricsMode::On, 1, Duration::from_secs(15));
    let list = crate::discovery::group_list();
    let n = list["groups"].as_array().unwrap().len();
    let with = with_group(&api, list.clone());
    assert_eq!(with["groups"].as_array().unwrap().len(), n + 1);
    assert_eq!(with["groups"][n]["preferredVersion"]["groupVersion"], API_VERSION);
    api.set_mode(MetricsMode::Unavailable);
    assert_eq!(
        with_group(&api, list.clone())["groups"].as_array().unwrap().len(),
        n + 1
    );
    api.set_mode(MetricsMode::Off);
    assert_eq!(with_group(&api, list)["groups"].as_array().unwrap().len(), n);
    let r = resource_list();
    assert_eq!(r["resources"][1]["kind"], "PodMetrics");
    assert_eq!(r["resources"][0]["namespaced"], false);
    assert_eq!(r["resources"][1]["verbs"], serde_json::json!(["get", "list"]));
    use crate::http::{route, Route};
    assert_eq!(route("/apis/metrics.k8s.io"), Route::Metrics(MetricsPath::Group));
    assert_eq!(
        route("/apis/metrics.k8s.io/v1beta1/namespaces/shop/pods/x"),
        Route::Metrics(MetricsPath::Pods {
            ns: Some("shop".into()),
            name: Some("x".into())
        })
    );
    assert_eq!(
        route("/apis/metrics.k8s.io/v1beta1/nodes"),
        Route::Metrics(MetricsPath::Nodes { name: None })
    );
    assert_eq!(route("/apis/metrics.k8s.io/v1beta1/pods/x"), Route::NotFound);
    assert_eq!("forbidden".parse(), Ok(MetricsMode::Forbidden));
    assert!("maybe".parse::<MetricsMode>().is_err());
}

#[test]
fn load_pods_are_decoded_once_and_the_memo_stays_bounded() {
    let store = Store::new(StoreConfig::default());
    crate::scenario::World::setup(store.clone(), 1).unwrap();
    let mut load = crate::scale::Load::populate(store.clone(), 3_000, 1).unwrap();
    let api = MetricsApi::new(MetricsMode::On, 1, Duration::from_secs(15));
    let first = collect::pods(&api, &store, &Filter::default(), 0);
    assert!(first.len() > 3_000);
    let held = api.pods.len();
    for _ in 0..500 {
        load.change();
    }
    let again = collect::pods(&api, &store, &Filter::default(), 0);
    assert!(
        api.pods.len() <= held,
        "only the running pods of the last full list are kept"
    );
    assert!(again.len() > 2_500);
    for _ in 0..20 {
        let ns = Filter {
            namespace: Some("load-01".into()),
            ..Filter::default()
        };
        collect::pods(&api, &store, &ns, 0);
        load.change();
    }
    assert!(api.pods.len() <= 2 * store.len(id::POD) + 1024);
}
