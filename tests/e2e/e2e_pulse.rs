//! End-to-end: `:pulse` on the demo cluster — the real binary in a pseudo-terminal against
//! an in-process demo server (static after setup, so the counts hold still): the totals of
//! the pods, deployments and nodes tiles equal what the server lists (a `kube::Client`
//! list, and `kubectl get … --no-headers | wc -l` when the test cluster's kubectl is built),
//! a pod created meanwhile is counted, and `enter` on the pods tile opens the pods list
//! filtered to the pods the tile counts as not healthy.

use std::process::Command;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{Node, Pod};
use kube::api::{Api, ListParams};

use crate::kubectl_bin::kubectl_bin;
use crate::util::*;

/// `(ok, total)` of the tile titled `title`: the first `n/m` on the line under its title,
/// within the tile's columns (`events`: `(total, total)` from `N events`).
fn tile_share(screen: &str, title: &str) -> Option<(u64, u64)> {
    let lines: Vec<Vec<char>> = screen.lines().map(|l| l.chars().collect()).collect();
    let needle: Vec<char> = format!(" {title} ").chars().collect();
    for (y, line) in lines.iter().enumerate() {
        let Some(x) = line.windows(needle.len()).position(|w| w == needle.as_slice()) else {
            continue;
        };
        if !line.contains(&'─') {
            continue;
        }
        let below = lines.get(y + 1)?;
        let end = (x + 24).min(below.len());
        let text: String = below.get(x.saturating_sub(1)..end)?.iter().collect();
        let num = |s: &str| s.replace(',', "").parse::<u64>().ok();
        for word in text.split_whitespace() {
            if let Some((a, b)) = word.split_once('/') {
                if let (Some(a), Some(b)) = (num(a), num(b)) {
                    return Some((a, b));
                }
            }
        }
        let mut words = text.split_whitespace();
        if let (Some(n), Some("events")) = (words.next(), words.next()) {
            return num(n).map(|n| (n, n));
        }
    }
    None
}

/// Lines `kubectl get <kind> -A --no-headers` prints, when kubectl is built.
fn kubectl_count(kubeconfig: &std::path::Path, kind: &str) -> Option<u64> {
    let bin = kubectl_bin()?;
    let out = Command::new(bin)
        .arg("--kubeconfig")
        .arg(kubeconfig)
        .args(["get", kind, "-A", "--no-headers"])
        .output()
        .expect("kubectl runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    Some(String::from_utf8_lossy(&out.stdout).lines().count() as u64)
}

#[test]
fn pulse_counts_equal_what_the_demo_server_lists() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let opts = ktui::sim::DemoOptions {
        live: false,
        ..Default::default()
    };
    let demo = rt.block_on(ktui::sim::cli::start_in_process(opts)).unwrap();
    let client = rt.block_on(async {
        let kc = kube::config::Kubeconfig::read_from(&demo.kubeconfig).unwrap();
        let config = kube::Config::from_custom_kubeconfig(kc, &Default::default())
            .await
            .unwrap();
        kube::Client::try_from(config).unwrap()
    });
    let want = rt.block_on(async {
        let client = client.clone();
        let lp = ListParams::default();
        let pods = Api::<Pod>::all(client.clone())
            .list(&lp)
            .await
            .unwrap()
            .items
            .len();
        let deploys = Api::<Deployment>::all(client.clone())
            .list(&lp)
            .await
            .unwrap()
            .items
            .len();
        let nodes = Api::<Node>::all(client).list(&lp).await.unwrap().items.len();
        [
            ("pods", pods as u64),
            ("deployments", deploys as u64),
            ("nodes", nodes as u64),
        ]
    });
    assert!(
        want.iter().all(|(_, n)| *n > 0),
        "the demo lists nothing: {want:?}"
    );
    for (kind, n) in want {
        if let Some(k) = kubectl_count(&demo.kubeconfig, kind) {
            assert_eq!(k, n, "kubectl and the API disagree on {kind}");
        }
    }
    let mut k = ktui_sized(&demo.kubeconfig, &["-A"], 40, 200);
    k.wait_until("the pods list", SLOW, |s| {
        s.contains("NAME") && s.contains("READY")
    });
    k.command("pulse all");
    // Every tile's informer syncs on its own: wait for all of them, not only the counted ones.
    const TILES: [&str; 5] = ["statefulsets", "daemonsets", "jobs", "cronjobs", "events"];
    k.wait_until("pulse counts equal to the server's lists", SLOW, |s| {
        want.iter()
            .all(|(kind, n)| tile_share(s, kind).map(|(_, t)| t) == Some(*n))
            && TILES.iter().all(|tile| tile_share(s, tile).is_some())
    });
    // A pod created now is counted at once (the tile follows its informer).
    let pods = want[0].1;
    rt.block_on(async {
        let pod: Pod = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "pulse-e2e", "namespace": "default"},
            "spec": {"containers": [{"name": "c", "image": "busybox"}]}
        }))
        .unwrap();
        Api::<Pod>::namespaced(client.clone(), "default")
            .create(&Default::default(), &pod)
            .await
            .unwrap();
    });
    k.wait_until("the new pod counted", SLOW, |s| {
        tile_share(s, "pods").map(|(_, t)| t) == Some(pods + 1)
    });
    let s = k.screen();
    // `enter` on the first tile: the pods list filtered to the pods not healthy, as many as
    // the tile counts (the header says `matching/total`), or all of them.
    let (ok, total) = tile_share(&s, "pods").unwrap();
    let count = match total - ok {
        0 => format!("  {total}  "),
        bad => format!("  {bad}/{total}  "),
    };
    k.press_enter();
    k.wait_until("the pods list, filtered", SLOW, |s| {
        s.contains("NAME") && s.contains("READY") && s.contains(&count)
    });
    // `esc` clears a filter first (as on any list), then goes back to the pulse.
    k.press_esc();
    std::thread::sleep(std::time::Duration::from_millis(500));
    if tile_share(&k.screen(), "pods").is_none() {
        k.press_esc();
    }
    k.wait_until("back on the pulse", SLOW, |s| tile_share(s, "pods").is_some());
    k.command("q");
    let (status, _) = k.wait_exit(SLOW).expect("ktui exits on :q");
    assert!(status.success(), "{status:?}");
}
