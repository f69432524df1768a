//! ktui's real informer (`kube::informer::run::<PodObj>`) against the demo server with every
//! fault kind on and churn running: once the faults stop (and the churn with them), the
//! informer's published snapshot must equal the server's state within 5 s — no lost objects,
//! no ghosts, no stale versions — after at least 100 fault cycles (watch drops).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ktui::kube::informer::{run, InformerConfig, InformerCtx};
use ktui::kube::key::ResourceKey;
use ktui::kube::kind::BuiltinKind;
use ktui::kube::row::{Row, RowCtx};
use ktui::kube::stats::InformerStats;
use ktui::kube::store::{Slot, StoreWriter};
use ktui::sim::cli::{start_in_process, DemoHandle};
use ktui::sim::faults::FaultSpec;
use ktui::sim::kinds::id;
use ktui::sim::store::StoreConfig;
use ktui::sim::DemoOptions;
use ktui::table::PodObj;

const FAULTS: &str = "drop-watch=150ms,gone=0.05,no-bookmarks,error-rate=0.1:500|429,delay=2ms";
const CYCLES: u64 = 100;

/// The client exactly as ktui builds it for `--demo` (kubeconfig from the handle).
async fn client(demo: &DemoHandle) -> kube::Client {
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

type Key = (String, String);

fn key(r: &Row) -> Key {
    (
        r.namespace.as_deref().unwrap_or("").to_owned(),
        r.name.to_string(),
    )
}

/// The server's pods as ktui would row them.
fn truth(demo: &DemoHandle) -> BTreeMap<Key, Row> {
    let ctx = RowCtx::default();
    let page = demo
        .server
        .store
        .list(id::POD, &Default::default(), 0, None, None);
    page.items
        .iter()
        .map(|b| ktui::table::decode_row(BuiltinKind::Pod, b, &ctx).expect("server pods decode"))
        .map(|r| (key(&r), r))
        .collect()
}

fn seen(slot: &Slot) -> BTreeMap<Key, Row> {
    slot.peek().rows.iter().map(|r| (key(r), Row::clone(r))).collect()
}

fn diff(want: &BTreeMap<Key, Row>, got: &BTreeMap<Key, Row>) -> String {
    let lost: Vec<_> = want.keys().filter(|k| !got.contains_key(*k)).collect();
    let ghosts: Vec<_> = got.keys().filter(|k| !want.contains_key(*k)).collect();
    let stale: Vec<_> = want
        .iter()
        .filter(|(k, r)| got.get(*k).is_some_and(|g| g != *r))
        .map(|(k, _)| k)
        .collect();
    format!("lost {lost:?}\nghosts {ghosts:?}\nstale {stale:?}")
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
    let key = ResourceKey::new(BuiltinKind::Pod, None);
    let slot = Slot::new(key.clone(), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let stats = Arc::new(InformerStats::default());
    let ctx = InformerCtx {
        key,
        client: client(&demo).await,
        writer: StoreWriter::new(slot.clone(), tx),
        stats: stats.clone(),
        rows: RowCtx::default(),
        config: InformerConfig {
            page_size: 50,
            watch_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(5),
            backoff_base: Duration::from_millis(20),
            backoff_cap: Duration::from_millis(200),
            ..InformerConfig::default()
        },
    };
    let task = tokio::spawn(run::<PodObj>(ctx));
    let started = Instant::now();
    let mut compactions = 0;
    while demo.server.faults.drop_rounds() < CYCLES {
        assert!(
            started.elapsed() < Duration::from_secs(40),
            "only {} fault cycles in 40 s",
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
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let got = seen(&slot);
        if got == want {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "informer did not converge within 5 s:\n{}",
            diff(&want, &got)
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let s = &stats;
    eprintln!(
        "converged after {} fault cycles in {:?}: {} pods, lists {}, reconnects {}, events {}",
        demo.server.faults.drop_rounds(),
        started.elapsed(),
        want.len(),
        s.lists.load(std::sync::atomic::Ordering::Relaxed),
        s.reconnects.load(std::sync::atomic::Ordering::Relaxed),
        s.events.load(std::sync::atomic::Ordering::Relaxed)
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
    drop(rx);
}
