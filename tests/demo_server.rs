//! Conformance of the demo API server (`ktui::sim`): kubectl (the test cluster's build, at
//! `$KTUI_TEST_BIN/kubectl`) must list, get and watch against it, and a real `kube::Client`
//! must see the API semantics ktui's informer relies on (paging, continue expiry, 410,
//! bookmarks, selectors). Without kubectl (and CI != "true") the kubectl tests skip with a
//! note.

use std::path::PathBuf;
use std::process::Output;
use std::time::Duration;

use ktui::sim::cli::{start_in_process, DemoHandle};
use ktui::sim::DemoOptions;

fn kubectl_bin() -> Option<PathBuf> {
    let dir = std::env::var_os("KTUI_TEST_BIN")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/ktui-test/bin")))?;
    let bin = dir.join("kubectl");
    if bin.exists() {
        return Some(bin);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{} is missing under CI=true (tests/run.sh builds it)",
        bin.display()
    );
    eprintln!(
        "note: skipping kubectl conformance test: {} not found (run tests/cluster/build.sh)",
        bin.display()
    );
    None
}

struct Kubectl {
    bin: PathBuf,
    demo: DemoHandle,
    cache: PathBuf,
}

impl Kubectl {
    async fn start(opts: DemoOptions) -> Option<Kubectl> {
        let bin = kubectl_bin()?;
        let demo = start_in_process(opts).await.expect("demo server starts");
        let cache = demo.kubeconfig.parent().unwrap().join("kubectl-cache");
        Some(Kubectl { bin, demo, cache })
    }

    fn command(&self, args: &[&str]) -> tokio::process::Command {
        let mut c = tokio::process::Command::new(&self.bin);
        c.arg("--kubeconfig")
            .arg(&self.demo.kubeconfig)
            .arg("--cache-dir")
            .arg(&self.cache)
            .args(args);
        c.kill_on_drop(true).stdin(std::process::Stdio::null());
        c
    }

    async fn run(&self, args: &[&str]) -> Output {
        tokio::time::timeout(Duration::from_secs(30), self.command(args).output())
            .await
            .expect("kubectl finished")
            .expect("kubectl runs")
    }

    async fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args).await;
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(
            out.status.success(),
            "kubectl {args:?} failed: {stderr}\nstdout: {stdout}"
        );
        stdout.into_owned()
    }
}

/// Serves a demo cluster until killed, for trying clients by hand:
/// `KTUI_DEMO_SERVE=1 cargo test --test demo_server -- --ignored --nocapture serve_by_hand`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn serve_by_hand() {
    if std::env::var_os("KTUI_DEMO_SERVE").is_none() {
        return;
    }
    let pods = std::env::var("KTUI_DEMO_PODS")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    let churn = std::env::var("KTUI_DEMO_CHURN")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    let demo = start_in_process(DemoOptions {
        pods,
        churn,
        ..DemoOptions::default()
    })
    .await
    .unwrap();
    println!("KUBECONFIG={}", demo.kubeconfig.display());
    tokio::time::sleep(Duration::from_secs(3600)).await;
}

fn quiet() -> DemoOptions {
    DemoOptions {
        live: false,
        ..DemoOptions::default()
    }
}

fn lively() -> DemoOptions {
    DemoOptions {
        tick: Duration::from_millis(100),
        ..DemoOptions::default()
    }
}

fn probe_pod(name: &str) -> serde_json::Value {
    serde_json::json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"namespace": "shop", "name": name, "labels": {"app": "probe"}},
        "spec": {"nodeName": "worker-1", "containers": [{"name": "c", "image": "busybox"}]},
        "status": {"phase": "Pending"}})
}

/// Reads lines of a child's stdout until one contains `want` (or 20 s pass).
async fn wait_for_line(child: &mut tokio::process::Child, want: &str) -> Vec<String> {
    use tokio::io::AsyncBufReadExt;
    let stdout = child.stdout.take().expect("piped stdout");
    let mut lines = tokio::io::BufReader::new(stdout).lines();
    let mut seen = Vec::new();
    let found = tokio::time::timeout(Duration::from_secs(20), async {
        while let Ok(Some(l)) = lines.next_line().await {
            let hit = l.contains(want);
            seen.push(l);
            if hit {
                return true;
            }
        }
        false
    })
    .await
    .unwrap_or(false);
    assert!(found, "no line with {want:?} in {seen:#?}");
    seen
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_gets_every_kind() {
    let Some(k) = Kubectl::start(quiet()).await else {
        return;
    };
    let pods = k.ok(&["get", "pods", "-A"]).await;
    for want in [
        // Server-side Table: kubectl shows ktui's columns, not just NAME and AGE.
        "READY",
        "STATUS",
        "RESTARTS",
        "CrashLoopBackOff",
        "NAMESPACE",
        "kube-system",
        "coredns-",
        "checkout-",
        "postgres-0",
        "kube-proxy-",
    ] {
        assert!(pods.contains(want), "{want} missing from:\n{pods}");
    }
    let mixed = k.ok(&["get", "deploy,svc,nodes", "-A"]).await;
    for want in ["deployment.apps/frontend", "service/kube-dns", "node/worker-1"] {
        assert!(mixed.contains(want), "{want} missing from:\n{mixed}");
    }
    let all = k
        .ok(&["get", "rs,sts,ds,job,cronjob,cm,secret,pvc,ns", "-A"])
        .await;
    for want in [
        "replicaset.apps/cart-",
        "statefulset.apps/postgres",
        "daemonset.apps/kube-proxy",
        "cronjob.batch/nightly-report",
        "configmap/frontend-config",
        "secret/registry",
        "persistentvolumeclaim/data-postgres-0",
        "namespace/shop",
    ] {
        assert!(all.contains(want), "{want} missing from:\n{all}");
    }
    let gz = k.ok(&["get", "gz", "-n", "demo"]).await;
    assert!(
        gz.contains("sprocket") && gz.contains("widget") && gz.contains("COLOR"),
        "{gz}"
    );
    let wide = k.ok(&["get", "nodes", "-o", "wide"]).await;
    for want in [
        "Ready,SchedulingDisabled",
        "INTERNAL-IP",
        "10.0.0.11",
        "control-plane",
    ] {
        assert!(wide.contains(want), "{want} missing from:\n{wide}");
    }
    let crd = k
        .ok(&[
            "get",
            "crd",
            "gizmos.demo.ktui.dev",
            "-o",
            "jsonpath={.spec.versions[0].additionalPrinterColumns[*].name}",
        ])
        .await;
    assert_eq!(crd, "Color Size Phase Age");
    let one = k
        .ok(&[
            "get",
            "pod",
            "-n",
            "data",
            "postgres-1",
            "-o",
            "jsonpath={.spec.nodeName}",
        ])
        .await;
    assert_eq!(one, "worker-2");
    let sel = k
        .ok(&[
            "get",
            "pods",
            "-A",
            "--field-selector",
            "spec.nodeName=worker-4",
            "-l",
            "app=kube-proxy",
            "-o",
            "name",
        ])
        .await;
    assert_eq!(sel.lines().count(), 1, "{sel}");
    let missing = k.run(&["get", "pod", "-n", "shop", "nope"]).await;
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("pods \"nope\" not found"),
        "{missing:?}"
    );
    let bad = k.run(&["get", "pods", "--field-selector", "spec.bogus=1"]).await;
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("field label not supported: spec.bogus"),
        "{bad:?}"
    );
    let version = k.ok(&["version", "-o", "json"]).await;
    assert!(version.contains("\"gitVersion\": \"v1.37.2\""), "{version}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_get_watch_sees_a_change() {
    let Some(k) = Kubectl::start(quiet()).await else {
        return;
    };
    let mut child = k
        .command(&["get", "pods", "-n", "shop", "-w"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let store = k.demo.server.store.clone();
    let writer = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(1500)).await;
        store
            .apply(ktui::sim::kinds::id::POD, probe_pod("watch-probe"))
            .unwrap();
    });
    let lines = wait_for_line(&mut child, "watch-probe").await;
    assert!(
        lines.iter().any(|l| l.contains("frontend-")),
        "the initial list came first: {lines:#?}"
    );
    writer.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_events_lists_and_watches() {
    let Some(k) = Kubectl::start(lively()).await else {
        return;
    };
    tokio::time::sleep(Duration::from_secs(2)).await;
    let events = k.ok(&["events", "-A"]).await;
    for want in [
        "LAST SEEN",
        "NodeNotReady",
        "Node/worker-4",
        "Scheduled",
        "Started",
    ] {
        assert!(events.contains(want), "{want} missing from:\n{events}");
    }
    let mut child = k
        .command(&["events", "-A", "--watch"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A live tick records new events every 100 ms; BackOff comes from the crash-looping pod.
    wait_for_line(&mut child, "BackOff").await;
}

// ---- API semantics through a real kube::Client ----

use futures::{StreamExt, TryStreamExt};
use k8s_openapi::api::core::v1::{Event, Pod};
use ktui::sim::kinds::id;
use kube::api::{Api, ListParams, WatchEvent, WatchParams};

async fn client(demo: &DemoHandle) -> kube::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let kc = kube::config::Kubeconfig::read_from(&demo.kubeconfig).unwrap();
    let config = kube::Config::from_custom_kubeconfig(kc, &kube::config::KubeConfigOptions::default())
        .await
        .unwrap();
    kube::Client::try_from(config).unwrap()
}

fn names(pods: &[Pod]) -> Vec<String> {
    pods.iter()
        .map(|p| {
            format!(
                "{}/{}",
                p.metadata.namespace.as_deref().unwrap_or(""),
                p.metadata.name.as_deref().unwrap_or("")
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paged_lists_are_complete_and_expired_tokens_get_410() {
    let demo = start_in_process(DemoOptions { pods: 60, ..quiet() })
        .await
        .unwrap();
    let pods: Api<Pod> = Api::all(client(&demo).await);
    let whole = pods.list(&ListParams::default()).await.unwrap();
    let mut paged = Vec::new();
    let mut lp = ListParams::default().limit(7);
    let mut rvs = Vec::new();
    loop {
        let page = pods.list(&lp).await.unwrap();
        rvs.push(page.metadata.resource_version.clone().unwrap());
        paged.extend(page.items);
        match page.metadata.continue_ {
            Some(c) if !c.is_empty() => lp = lp.continue_token(&c),
            _ => break,
        }
    }
    assert_eq!(names(&paged), names(&whole.items));
    assert!(
        paged.len() >= 60 && rvs.iter().all(|rv| *rv == rvs[0]),
        "one revision for all pages: {rvs:?}"
    );

    let first = pods.list(&ListParams::default().limit(5)).await.unwrap();
    let token = first.metadata.continue_.clone().unwrap();
    demo.server
        .store
        .create(id::POD, probe_pod("after-first-page"))
        .unwrap();
    demo.server.store.compact(id::POD);
    let err = pods
        .list(&ListParams::default().limit(5).continue_token(&token))
        .await
        .unwrap_err();
    match err {
        kube::Error::Api(s) => assert_eq!((s.code, s.reason.as_str()), (410, "Expired"), "{s:?}"),
        other => panic!("want 410, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watches_resume_replay_and_410_when_too_old() {
    let demo = start_in_process(quiet()).await.unwrap();
    let pods: Api<Pod> = Api::namespaced(client(&demo).await, "shop");
    let list = pods.list(&ListParams::default()).await.unwrap();
    let rv = list.metadata.resource_version.unwrap();
    let store = demo.server.store.clone();
    store.create(id::POD, probe_pod("p1")).unwrap();
    store
        .modify(id::POD, "shop", "p1", |v| v["status"]["phase"] = "Running".into())
        .unwrap();
    store.delete(id::POD, "shop", "p1").unwrap();
    // Replay from the list's revision: exactly the three changes, in order.
    let wp = WatchParams::default().timeout(2);
    let events: Vec<_> = pods
        .watch(&wp, &rv)
        .await
        .unwrap()
        .take(3)
        .try_collect()
        .await
        .unwrap();
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| match e {
            WatchEvent::Added(_) => "ADDED",
            WatchEvent::Modified(_) => "MODIFIED",
            WatchEvent::Deleted(_) => "DELETED",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["ADDED", "MODIFIED", "DELETED"]);
    // timeoutSeconds ends the stream cleanly.
    let started = std::time::Instant::now();
    let rest: Vec<_> = pods
        .watch(&WatchParams::default().timeout(1), &store.revision().to_string())
        .await
        .unwrap()
        .collect()
        .await;
    assert!(
        rest.is_empty() && started.elapsed() < Duration::from_secs(3),
        "{rest:?}"
    );
    // After a compaction the old revision is gone: an ERROR event with 410.
    store.compact(id::POD);
    let first = pods
        .watch(&wp, &rv)
        .await
        .unwrap()
        .boxed()
        .next()
        .await
        .unwrap()
        .unwrap();
    match first {
        WatchEvent::Error(s) => assert_eq!((s.code, s.reason.as_str()), (410, "Expired")),
        other => panic!("want a 410 ERROR event, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bookmarks_come_periodically_when_asked() {
    let demo = start_in_process(DemoOptions {
        bookmark_every: Duration::from_millis(200),
        ..quiet()
    })
    .await
    .unwrap();
    let pods: Api<Pod> = Api::all(client(&demo).await);
    let rv = pods
        .list(&ListParams::default().limit(1))
        .await
        .unwrap()
        .metadata
        .resource_version
        .unwrap();
    let with: Vec<_> = pods
        .watch(
            &WatchParams {
                bookmarks: true,
                ..WatchParams::default().timeout(1)
            },
            &rv,
        )
        .await
        .unwrap()
        .try_collect()
        .await
        .unwrap();
    let marks: Vec<String> = with
        .iter()
        .filter_map(|e| match e {
            WatchEvent::Bookmark(b) => Some(b.metadata.resource_version.clone()),
            _ => None,
        })
        .collect();
    assert!(marks.len() >= 3, "{with:?}");
    assert!(marks
        .iter()
        .all(|m| m.parse::<u64>().unwrap() >= rv.parse::<u64>().unwrap()));
    let without: Vec<_> = pods
        .watch(
            &WatchParams {
                bookmarks: false,
                ..WatchParams::default().timeout(1)
            },
            &rv,
        )
        .await
        .unwrap()
        .try_collect()
        .await
        .unwrap();
    assert!(without.is_empty(), "{without:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn selectors_filter_lists_and_watches() {
    let demo = start_in_process(quiet()).await.unwrap();
    let c = client(&demo).await;
    let pods: Api<Pod> = Api::all(c.clone());
    let on_w1 = pods
        .list(&ListParams::default().fields("spec.nodeName=worker-1"))
        .await
        .unwrap();
    assert!(!on_w1.items.is_empty());
    assert!(on_w1
        .items
        .iter()
        .all(|p| p.spec.as_ref().unwrap().node_name.as_deref() == Some("worker-1")));
    let not_sys = pods
        .list(
            &ListParams::default()
                .fields("metadata.namespace!=kube-system")
                .labels("app in (frontend,cart)"),
        )
        .await
        .unwrap();
    assert_eq!(not_sys.items.len(), 5, "{:?}", names(&not_sys.items));
    let bad = pods
        .list(&ListParams::default().fields("spec.bogus=x"))
        .await
        .unwrap_err();
    assert!(matches!(bad, kube::Error::Api(ref s) if s.code == 400), "{bad:?}");
    let events: Api<Event> = Api::all(c);
    let about = events
        .list(&ListParams::default().fields("involvedObject.kind=Node,involvedObject.name=worker-4"))
        .await
        .unwrap();
    assert_eq!(about.items.len(), 1);
    assert_eq!(about.items[0].reason.as_deref(), Some("NodeNotReady"));
    // A watch with a selector sees an object leaving it as DELETED.
    let rv = pods
        .list(&ListParams::default().limit(1))
        .await
        .unwrap()
        .metadata
        .resource_version
        .unwrap();
    let store = demo.server.store.clone();
    store.create(id::POD, probe_pod("mover")).unwrap();
    store
        .modify(id::POD, "shop", "mover", |v| {
            v["spec"]["nodeName"] = "worker-2".into()
        })
        .unwrap();
    let wp = WatchParams::default().fields("spec.nodeName=worker-1").timeout(1);
    let seen: Vec<_> = pods
        .watch(&wp, &rv)
        .await
        .unwrap()
        .take(2)
        .try_collect()
        .await
        .unwrap();
    assert!(
        matches!(seen[0], WatchEvent::Added(_)) && matches!(seen[1], WatchEvent::Deleted(_)),
        "{seen:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_are_status_objects_and_unknown_paths_404() {
    let demo = start_in_process(quiet()).await.unwrap();
    let c = client(&demo).await;
    let pods: Api<Pod> = Api::namespaced(c.clone(), "shop");
    match pods.get("nope").await.unwrap_err() {
        kube::Error::Api(s) => assert_eq!(
            (s.code, s.reason.as_str(), s.message.as_str()),
            (404, "NotFound", "pods \"nope\" not found")
        ),
        other => panic!("{other:?}"),
    }
    let req = http::Request::get("/apis/nope.example/v1/things")
        .body(Vec::new())
        .unwrap();
    let err = c.request_text(req).await.unwrap_err();
    assert!(matches!(err, kube::Error::Api(ref s) if s.code == 404), "{err:?}");
    let v = c.apiserver_version().await.unwrap();
    assert_eq!(v.git_version, "v1.37.2");
}

/// `DemoServerArgs` works as the `demo-server` subcommand of a clap CLI shaped like ktui's.
#[test]
fn demo_server_flags_parse_as_a_subcommand() {
    use clap::{Parser, Subcommand};
    use ktui::sim::cli::DemoServerArgs;
    #[derive(Parser)]
    struct Cli {
        #[arg(long)]
        demo: bool,
        #[command(subcommand)]
        sub: Option<Sub>,
    }
    #[derive(Subcommand)]
    enum Sub {
        DemoServer(DemoServerArgs),
    }
    let cli = Cli::try_parse_from([
        "ktui",
        "demo-server",
        "--addr",
        "127.0.0.1:7443",
        "--kubeconfig-out",
        "/tmp/kc",
        "--pods",
        "100000",
        "--churn",
        "1000",
        "--seed",
        "7",
        "--faults",
        "drop-watch=10s,gone=0.05,no-bookmarks,error-rate=0.1:500|429,delay=200ms",
    ])
    .unwrap();
    let Some(Sub::DemoServer(args)) = cli.sub else {
        panic!("subcommand not parsed")
    };
    let opts = args.options();
    assert_eq!(
        (opts.addr.port(), opts.pods, opts.churn, opts.seed),
        (7443, 100_000, 1000, 7)
    );
    assert_eq!(opts.faults.error_codes, [500, 429]);
    assert!(Cli::try_parse_from(["ktui", "demo-server", "--faults", "explode"]).is_err());
    assert!(Cli::try_parse_from(["ktui", "--demo"]).unwrap().demo);
}
