//! ktui's real informer (`Informer::run::<PodObj, _>`) against the demo server with every
//! fault kind on and churn running: once the faults stop (and the churn with them), the
//! informer's published snapshot must equal the server's state — no lost objects, no ghosts,
//! no stale versions — after at least 100 fault cycles (watch drops). The time to converge
//! is reported; only a hang (30 s) fails.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ktui::kube::builtin::BuiltinKind;
use ktui::kube::informer::InformerConfig;
use ktui::kube::key::ResourceKey;
use ktui::kube::row::{Row, RowCtx};
use ktui::kube::stats::{InformerStats, PhaseTime};
use ktui::kube::store::Slot;
use ktui::sim::cli::{start_in_process, DemoHandle};
use ktui::sim::faults::FaultSpec;
use ktui::sim::kinds::id;
use ktui::sim::store::StoreConfig;
use ktui::sim::DemoOptions;
use ktui::table::PodObj;

use crate::convergence::keyed;
pub(crate) use crate::convergence::{diff, seen, Key};

const FAULTS: &str = "drop-watch=150ms,gone=0.05,no-bookmarks,error-rate=0.1:500|429,delay=2ms";
const CYCLES: u64 = 100;

/// The client exactly as ktui builds it for `--demo` (kubeconfig from the handle).
pub(crate) async fn client(demo: &DemoHandle) -> kube::Client {
    ktui::kube::client::install_crypto_provider();
    let opts = ktui::kube::client::ConnectOptions {
        kubeconfig: Some(demo.kubeconfig.clone()),
        context: None,
    };
    let (client, info) = ktui::kube::client::connect(&opts)
        .await
        .expect("ktui connects to the demo server");
    assert_eq!(
        (info.context.as_str(), info.namespace.as_str()),
        ("ktui-demo", "default")
    );
    client
}

/// The server's pods as ktui would row them.
pub(crate) fn truth(demo: &DemoHandle) -> BTreeMap<Key, Row> {
    let ctx = RowCtx::default();
    let page = demo
        .server
        .store
        .list(id::POD, &Default::default(), 0, None, None);
    keyed(
        page.items
            .iter()
            .map(|b| ktui::table::decode_row(BuiltinKind::Pod, b, &ctx).expect("server pods decode")),
    )
}

/// ktui's pod informer (all namespaces) over `demo_client`.
pub(crate) fn informer(
    demo_client: kube::Client,
    config: InformerConfig,
) -> (Arc<Slot>, Arc<InformerStats>, tokio::task::JoinHandle<()>) {
    crate::convergence::informer::<PodObj>(ResourceKey::new(BuiltinKind::Pod, None), demo_client, config)
}

fn rss_mib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .unwrap_or(0)
        / 1024
}

/// Scale check, by hand, in release: `KTUI_DEMO_SCALE=100000 cargo test --release --test
/// scenarios -- --ignored --nocapture scale` (1,000 changes/s of churn). Prints the time to
/// full sync and the process RSS (server and informer share the process).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "by hand: KTUI_DEMO_SCALE=N"]
async fn scale_informer_syncs_a_large_churning_cluster() {
    let Some(n) = std::env::var("KTUI_DEMO_SCALE")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
    else {
        return;
    };
    let t0 = Instant::now();
    let demo = start_in_process(DemoOptions {
        pods: n,
        churn: 1000,
        ..DemoOptions::default()
    })
    .await
    .unwrap();
    eprintln!(
        "server: {n} pods ready in {:?}, RSS {} MiB",
        t0.elapsed(),
        rss_mib()
    );
    let t1 = Instant::now();
    let (slot, stats, task) = informer(client(&demo).await, InformerConfig::default());
    while !slot.peek().listed {
        assert!(t1.elapsed() < Duration::from_secs(300), "no full sync in 5 min");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    eprintln!(
        "informer: full sync of {} pods in {:?}, RSS {} MiB",
        slot.peek().rows.len(),
        t1.elapsed(),
        rss_mib()
    );
    tokio::time::sleep(Duration::from_secs(15)).await;
    demo.server.set_live(false);
    let want = truth(&demo);
    let deadline = Instant::now() + Duration::from_secs(10);
    while seen(&slot) != want {
        assert!(
            Instant::now() < deadline,
            "not converged:\n{}",
            diff(&want, &seen(&slot))
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    eprintln!(
        "after 15 s of churn: converged, {} watch events, {} lists, RSS {} MiB",
        stats.events.load(std::sync::atomic::Ordering::Relaxed),
        stats.lists.load(std::sync::atomic::Ordering::Relaxed),
        rss_mib()
    );
    task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn informer_converges_after_every_fault_kind() {
    let faults: FaultSpec = FAULTS.parse().unwrap();
    let opts = DemoOptions {
        pods: 400,
        churn: 200,
        seed: 42,
        faults,
        bookmark_every: Duration::from_millis(100),
        store: StoreConfig {
            history: 400,
            watch_buffer: 256,
        },
        tick: Duration::from_millis(100),
        ..DemoOptions::default()
    };
    let demo = start_in_process(opts).await.unwrap();
    let config = InformerConfig {
        page_size: 50,
        watch_timeout: Duration::from_secs(10),
        request_timeout: Duration::from_secs(5),
        backoff_base: Duration::from_millis(20),
        backoff_cap: Duration::from_millis(200),
        ..InformerConfig::default()
    };
    let (slot, stats, task) = informer(client(&demo).await, config);
    let started = Instant::now();
    let mut compactions = 0;
    // 100 drops every 150 ms take 15 s on an idle machine; only a stalled server reaches 120 s.
    while demo.server.faults.drop_rounds() < CYCLES {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "only {} fault cycles in 120 s",
            demo.server.faults.drop_rounds()
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
        // Like an etcd compaction: resumes and continue tokens from before now get 410.
        if compactions < 8 && demo.server.faults.drop_rounds() % 12 == 0 {
            demo.server.store.compact(id::POD);
            compactions += 1;
        }
    }
    demo.server.faults.set(FaultSpec::default());
    demo.server.set_live(false);
    let want = truth(&demo);
    let faults_off = Instant::now();
    let deadline = faults_off + Duration::from_secs(30);
    loop {
        let got = seen(&slot);
        if got == want {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "informer did not converge within 30 s:\n{}",
            diff(&want, &got)
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let s = &stats;
    eprintln!(
        "timing: converged {:.2?} after the faults stopped",
        faults_off.elapsed()
    );
    eprintln!(
        "converged after {} fault cycles in {:?}: {} pods, lists {}, reconnects {}, events {}",
        demo.server.faults.drop_rounds(),
        started.elapsed(),
        want.len(),
        s.lists.load(std::sync::atomic::Ordering::Relaxed),
        s.reconnects.load(std::sync::atomic::Ordering::Relaxed),
        s.events.load(std::sync::atomic::Ordering::Relaxed)
    );
    eprintln!(
        "time: listing {} ms, watching {} ms, waiting {} ms",
        s.spent_ms(PhaseTime::Listing),
        s.spent_ms(PhaseTime::Watching),
        s.spent_ms(PhaseTime::Waiting)
    );
    assert!(want.len() > 400);
    assert!(
        s.lists.load(std::sync::atomic::Ordering::Relaxed) >= 2,
        "the faults forced relists"
    );
    assert!(
        s.reconnects.load(std::sync::atomic::Ordering::Relaxed) >= 20,
        "the faults broke watches"
    );
    task.abort();
}
