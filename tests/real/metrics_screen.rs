//! Issue 33's "Done when" on the real cluster, as a user sees it: the real `ktui` binary in a
//! pseudo-terminal against a kube-apiserver whose `metrics.k8s.io/v1beta1` is served through
//! the aggregation layer (the stand-in backend of `metrics_backend`, registered as
//! `metrics_aggregation` does, set up as `metrics_top` does). The pods view's CPU and MEM
//! cells equal `kubectl top pods` for the test's pods, its percentages a hand computation from
//! `kubectl get pod -o json` and the PodMetrics (the two-container pod's limit-less sidecar
//! must not count in %CPU/L), the nodes view equals `kubectl top nodes`; then `kubectl delete
//! apiservice v1beta1.metrics.k8s.io` and the list's bottom border must say why the columns
//! went, with the columns gone, within one `[metrics] interval` plus slack. Its own cluster:
//! an APIService is cluster-wide.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::metrics_aggregation::{self as aggregation, APISERVICE};
use crate::metrics_top::{self, kubectl};
use crate::support::{self, Cluster};
use crate::usage_screen as us;
use crate::util;

/// ktui's `[metrics] interval` here: "within one interval" is measured against it.
const INTERVAL: Duration = Duration::from_secs(2);
/// What a loaded machine may add: the aggregator's own reaction to the deletion, the poll's
/// request through it, a frame.
const SLACK: Duration = Duration::from_secs(2);
const PODS: [&str; 3] = ["bare", "mixed", "sized"];

fn json(cluster: &Cluster, args: &[&str]) -> Value {
    serde_json::from_str(&kubectl(cluster, args)).expect("kubectl's JSON")
}

/// The figures of pod `name` computed by hand from `kubectl get pod -o json` and its
/// PodMetrics (`kubectl get --raw`), with CPU and MEM as `kubectl top pods` prints them (they
/// must agree: asserted).
fn pod_figures(cluster: &Cluster, ns: &str, name: &str) -> Vec<(&'static str, String)> {
    let pod = json(cluster, &["-n", ns, "get", "pod", name, "-o", "json"]);
    let metrics = json(
        cluster,
        &[
            "get",
            "--raw",
            &format!("/apis/metrics.k8s.io/v1beta1/namespaces/{ns}/pods/{name}"),
        ],
    );
    let figures = us::pod_figures(&pod, &metrics);
    let top = kubectl(cluster, &["-n", ns, "top", "pod", name, "--no-headers"]);
    let words: Vec<&str> = top.split_whitespace().collect();
    assert_eq!(
        words[1..],
        [figures[0].1.as_str(), figures[1].1.as_str()],
        "kubectl top pod {name} (left) and the hand computation (right)"
    );
    figures
}

/// `kubectl top nodes`, as (name, [CPU, %CPU, MEM, %MEM]) in ktui's header names.
fn top_nodes(cluster: &Cluster) -> Vec<(String, Vec<(&'static str, String)>)> {
    kubectl(cluster, &["top", "nodes", "--no-headers"])
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| !w.is_empty())
        .map(|w| {
            assert!(w.len() >= 5, "short kubectl top nodes line: {w:?}");
            let figures = ["CPU", "%CPU", "MEM", "%MEM"]
                .into_iter()
                .zip(&w[1..5])
                .map(|(h, v)| (h, v.to_string()))
                .collect();
            (w[0].to_owned(), figures)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "real tier"]
async fn ktui_shows_kubectl_tops_figures_and_says_why_when_the_apiservice_goes() {
    let Some(cluster) = tokio::task::block_in_place(support::own_cluster) else {
        return;
    };
    let Some(ip) = aggregation::endpoint_ip() else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "no non-loopback IPv4 address (hostname -I): kube-apiserver refuses loopback endpoints"
        );
        eprintln!("note: skipping: no non-loopback IPv4 address for the APIService's endpoint");
        return;
    };
    let started = Instant::now();
    // Held to the end: the aggregator must be able to reach it until the APIService goes.
    let _backend = metrics_top::serve_metrics(&cluster, ip).await;
    let ns = tokio::task::block_in_place(|| cluster.create_ns("metrics-screen"));
    metrics_top::workload(&cluster, &ns);
    // The backend and the cluster run on the runtime's workers; ktui and kubectl block here.
    tokio::task::block_in_place(|| on_screen(&cluster, &ns, started));
}

fn on_screen(cluster: &Cluster, ns: &str, started: Instant) {
    // kubectl top answers before ktui starts, so ktui's first discovery finds the group.
    let top = metrics_top::top_rows(
        &kubectl(cluster, &["-n", ns, "top", "pods", "--no-headers"]),
        1,
        1,
    );
    assert_eq!(top.len(), PODS.len(), "kubectl top pods: {top:?}");
    let config = cluster.dir.join("ktui-metrics.toml");
    std::fs::write(
        &config,
        format!("[metrics]\ninterval = \"{}s\"\n", INTERVAL.as_secs()),
    )
    .expect("write the config");
    let config = config.to_str().expect("UTF-8 path").to_owned();
    let mut k = util::ktui_sized(
        &cluster.kubeconfig,
        &["--config", &config, "--context", support::ADMIN, "-n", ns],
        util::ROWS,
        160,
    );

    // Each pod: CPU and MEM as kubectl top pods prints them, percentages by hand.
    for pod in PODS {
        let (want, _) = us::wait_figures(&k, util::SLOW, pod, || pod_figures(cluster, ns, pod));
        let (cpu, mem) = top[&vec![pod.to_owned()]];
        assert_eq!(
            want[..2],
            [("CPU", format!("{cpu}m")), ("MEM", format!("{mem}Mi"))],
            "kubectl top pods -n {ns}: {top:?}"
        );
        eprintln!("{pod}: screen = kubectl top pods = hand computation {want:?}");
    }
    // The two-container pod: its limit-less sidecar's usage is not in %CPU/L (k9s#1698).
    let t = us::table(&k.screen()).unwrap();
    assert_eq!(t.cell("bare", "%CPU/R").as_deref(), Some("n/a"));
    let mixed = json(
        cluster,
        &[
            "get",
            "--raw",
            &format!("/apis/metrics.k8s.io/v1beta1/namespaces/{ns}/pods/mixed"),
        ],
    );
    let app = mixed["containers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "app")
        .expect("mixed's app");
    let app_cpu = us::quantity(app["usage"]["cpu"].as_str().unwrap());
    let by_app_only = us::pct_cell(us::pct_floor(app_cpu, Some(us::quantity("500m"))));
    assert_eq!(
        t.cell("mixed", "%CPU/L"),
        Some(by_app_only),
        "mixed's %CPU/L is its app's usage over the app's limit\n{}",
        k.dump()
    );

    // Nodes: as kubectl top nodes prints them.
    k.command("nodes");
    let nodes = top_nodes(cluster);
    assert_eq!(nodes.len(), support::NODES.len(), "kubectl top nodes: {nodes:?}");
    for (node, figures) in &nodes {
        us::wait_figures(&k, util::SLOW, node, || figures.clone());
        eprintln!("{node}: screen = kubectl top nodes {figures:?}");
    }

    // Back to the pods, current; then the APIService goes.
    k.command("pods");
    let (sized, _) = us::wait_figures(&k, util::SLOW, "sized", || pod_figures(cluster, ns, "sized"));
    assert_eq!(us::bottom_border(&k.screen()), None, "{}", k.dump());
    let deleting = Instant::now();
    kubectl(cluster, &["delete", "apiservice", APISERVICE]);
    let deleted = Instant::now();
    let columns_gone = |s: &str| {
        us::table(s)
            .is_some_and(|t| t.has("STATUS") && t.row("sized").is_some() && !t.has("CPU") && !t.has("MEM"))
    };
    let why = k
        .try_wait_until(util::SLOW, |s| {
            us::bottom_border(s).is_some_and(|b| b.starts_with("metrics: not served")) && columns_gone(s)
        })
        .unwrap_or_else(|| {
            panic!(
                "no reason on the border {:?} after deleting the APIService\n{}",
                util::SLOW,
                k.dump()
            )
        });
    let border = us::bottom_border(&k.screen()).unwrap();
    eprintln!(
        "`kubectl delete apiservice {APISERVICE}` took {:?}; then {why:?} to {border:?} with the \
         CPU column gone ({:?} after the delete was sent; interval {INTERVAL:?}; sized showed {sized:?})",
        deleted - deleting,
        deleting.elapsed(),
    );
    assert!(
        why <= INTERVAL + SLACK,
        "the border said why after {why:?}, more than one interval ({INTERVAL:?}) plus {SLACK:?}\n{}",
        k.dump()
    );
    assert_eq!(
        border,
        "metrics: not served (the server has no metrics.k8s.io/v1beta1 pods (404))"
    );
    // `:ar` reads discovery again: the pods view then gives discovery's reason.
    k.command("ar");
    k.wait_for("api-resources", util::SLOW);
    k.command("pods");
    let told = k.wait_until("discovery's reason", util::SLOW, |s| {
        us::bottom_border(s).as_deref()
            == Some("metrics: not served (no metrics.k8s.io in discovery (no metrics-server))")
            && columns_gone(s)
    });
    eprintln!("after :ar and :pods, discovery's reason {told:?} later");
    k.command("q");
    k.wait_exit(util::SLOW).expect("ktui exits on :q");
    eprintln!("whole test {:?} (own cluster start excluded)", started.elapsed());
}
