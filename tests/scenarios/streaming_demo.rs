//! Streaming lists against the demo server (its watch speaks `sendInitialEvents` with the
//! annotated end bookmark; the `watch-list` fault refuses or ignores it): the streamed path
//! is progressive on a first list and keeps the old table whole during a relist; a refusing
//! server (422), one that ignores the parameter (a plain bookmark first) and one that sends
//! no end bookmark at all (the idle guard) are each listed paged, completely, and live; the
//! refusal is remembered for the context.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ktui::kube::builtin::BuiltinKind;
use ktui::kube::informer::{Encoding, Informer, InformerConfig, ListMethod, StreamingLists};
use ktui::kube::key::ResourceKey;
use ktui::kube::sink::Sink;
use ktui::kube::stats::{InformerStats, ListUse};
use ktui::kube::store::{Slot, StoreWriter};
use ktui::sim::cli::{start_in_process, DemoHandle};
use ktui::sim::kinds::id;
use ktui::sim::DemoOptions;
use ktui::table::PodObj;
use serde_json::Value;

use crate::demo_convergence::{client, diff, seen, truth};

/// Every publication of the slot, as (listed, rows), recorded by [`Recorded`].
type Published = Arc<Mutex<Vec<(bool, usize)>>>;

/// A store writer that records each publication it makes.
struct Recorded {
    inner: StoreWriter,
    slot: Arc<Slot>,
    rev: u64,
    log: Published,
}

impl Recorded {
    fn note(&mut self) {
        let snap = self.slot.peek();
        if snap.rev != self.rev {
            self.rev = snap.rev;
            self.log.lock().unwrap().push((snap.listed, snap.rows.len()));
        }
    }
}

impl Sink<PodObj> for Recorded {
    fn init(&mut self) {
        Sink::<PodObj>::init(&mut self.inner);
        self.note();
    }
    fn init_apply(&mut self, obj: PodObj) {
        Sink::init_apply(&mut self.inner, obj);
    }
    fn init_delete(&mut self, obj: PodObj) {
        Sink::init_delete(&mut self.inner, obj);
    }
    fn init_done(&mut self, rv: Option<String>) {
        Sink::<PodObj>::init_done(&mut self.inner, rv);
        self.note();
    }
    fn apply(&mut self, obj: PodObj) {
        Sink::apply(&mut self.inner, obj);
    }
    fn delete(&mut self, obj: PodObj) {
        Sink::delete(&mut self.inner, obj);
    }
    fn set_state(&mut self, state: ktui::kube::sync::SyncState) {
        Sink::<PodObj>::set_state(&mut self.inner, state);
        self.note();
    }
    fn set_resource_version(&mut self, rv: &str) {
        Sink::<PodObj>::set_resource_version(&mut self.inner, rv);
    }
    fn flush(&mut self) -> Option<tokio::time::Instant> {
        let due = Sink::<PodObj>::flush(&mut self.inner);
        self.note();
        due
    }
    fn publish(&mut self) {
        Sink::<PodObj>::publish(&mut self.inner);
        self.note();
    }
}

struct Pods {
    slot: Arc<Slot>,
    stats: Arc<InformerStats>,
    log: Published,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Pods {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Pods {
    fn last_list(&self) -> Option<ListUse> {
        self.stats.last_list()
    }

    /// Waits until the store equals the server's pods and is live.
    async fn converge(&self, demo: &DemoHandle, what: &str) {
        let t = Instant::now();
        loop {
            let want = truth(demo);
            let got = seen(&self.slot);
            if got == want && self.slot.peek().state.is_live() {
                return;
            }
            assert!(
                t.elapsed() < Duration::from_secs(20),
                "{what}: not converged ({:?}, {:?}):\n{}",
                self.slot.peek().state,
                self.last_list(),
                diff(&want, &got)
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

async fn pods(demo: &DemoHandle, memory: Option<&Arc<StreamingLists>>, idle: Duration) -> Pods {
    let config = InformerConfig {
        request_timeout: Duration::from_secs(5),
        backoff_base: Duration::from_millis(50),
        backoff_cap: Duration::from_millis(500),
        page_size: 200,
        streaming: memory.cloned(),
        streaming_idle: idle,
        ..InformerConfig::default()
    };
    let key = ResourceKey::new(BuiltinKind::Pod, None);
    let slot = Slot::new(key.clone(), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let stats = Arc::new(InformerStats::default());
    let log = Published::default();
    let sink = Recorded {
        inner: StoreWriter::new(slot.clone(), tx),
        slot: slot.clone(),
        rev: 0,
        log: log.clone(),
    };
    let informer = Informer::new(key, client(demo).await, stats.clone(), config);
    let task = tokio::spawn(informer.run::<PodObj, _>(sink));
    Pods {
        slot,
        stats,
        log,
        task,
    }
}

async fn demo(pods: usize, faults: &str) -> DemoHandle {
    start_in_process(DemoOptions {
        pods,
        live: false,
        seed: 11,
        bookmark_every: Duration::from_millis(200),
        faults: faults.parse().unwrap(),
        ..DemoOptions::default()
    })
    .await
    .unwrap()
}

/// Creates one pod like an existing one, as a client would; its name.
fn create_pod(demo: &DemoHandle, name: &str) {
    let store = &demo.server.store;
    let all = store.list(id::POD, &Default::default(), 0, None, None).items;
    let mut p: Value = serde_json::from_slice(&all[0]).unwrap();
    let m = p["metadata"].as_object_mut().unwrap();
    m.insert("name".into(), Value::String(name.into()));
    for f in ["resourceVersion", "uid", "creationTimestamp", "managedFields"] {
        m.remove(f);
    }
    store.create(id::POD, p).unwrap();
}

async fn sees(p: &Pods, name: &str) {
    let t = Instant::now();
    while !p.slot.peek().rows.iter().any(|r| &*r.name == name) {
        assert!(t.elapsed() < Duration::from_secs(10), "{name} never shown");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streamed_lists_are_progressive_and_a_relist_keeps_the_old_table_whole() {
    let demo = demo(3000, "").await;
    let memory = Arc::new(StreamingLists::default());
    let p = pods(&demo, Some(&memory), Duration::from_secs(60)).await;
    p.converge(&demo, "first list").await;
    let n = truth(&demo).len();
    assert!(n >= 3000, "{n}");
    assert_eq!(
        p.last_list(),
        Some(ListUse {
            method: ListMethod::Streamed,
            encoding: Encoding::Json,
            fallback: None
        })
    );
    let log = p.log.lock().unwrap().clone();
    let first_listed = log.iter().position(|(listed, _)| *listed).unwrap();
    assert!(
        log[..first_listed].iter().any(|&(_, rows)| rows > 0 && rows < n),
        "rows shown before the streaming list completed: {log:?}"
    );
    // The watch goes on on the same connection: a change is seen without a reconnect.
    create_pod(&demo, "after-sync");
    sees(&p, "after-sync").await;
    assert_eq!(p.stats.reconnects.load(std::sync::atomic::Ordering::Relaxed), 0);
    // A relist: the watch is cut, and resuming it is answered 410.
    let held = p.slot.peek().rows.len();
    let before = p.log.lock().unwrap().len();
    demo.server.faults.set("gone=1".parse().unwrap());
    demo.server.faults.drop_now();
    let t = Instant::now();
    while p.stats.lists.load(std::sync::atomic::Ordering::Relaxed) < 2 {
        assert!(t.elapsed() < Duration::from_secs(20), "no relist");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    demo.server.faults.set(Default::default());
    p.converge(&demo, "relist").await;
    assert_eq!(p.last_list().unwrap().method, ListMethod::Streamed);
    let during = p.log.lock().unwrap()[before..].to_vec();
    assert!(
        during.iter().all(|&(listed, rows)| listed && rows == held),
        "a relist never shows a half table: {during:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusing_server_is_listed_paged_and_the_refusal_remembered() {
    let demo = demo(500, "watch-list=refuse").await;
    let memory = Arc::new(StreamingLists::default());
    let a = pods(&demo, Some(&memory), Duration::from_secs(60)).await;
    a.converge(&demo, "refused: paged").await;
    let last = a.last_list().unwrap();
    assert_eq!(last.method, ListMethod::Paged);
    assert!(last.fallback.unwrap().contains("refused (422)"));
    assert!(memory.refusal("").is_some());
    create_pod(&demo, "after-refusal");
    sees(&a, "after-refusal").await;
    // The server would stream now; the context remembers and does not ask again.
    demo.server.faults.set(Default::default());
    let b = pods(&demo, Some(&memory), Duration::from_secs(60)).await;
    b.converge(&demo, "remembered").await;
    assert_eq!(b.last_list().unwrap().method, ListMethod::Paged);
    let fresh = Arc::new(StreamingLists::default());
    let c = pods(&demo, Some(&fresh), Duration::from_secs(60)).await;
    c.converge(&demo, "another context").await;
    assert_eq!(c.last_list().unwrap().method, ListMethod::Streamed);
    let off = pods(&demo, None, Duration::from_secs(60)).await;
    off.converge(&demo, "streaming off").await;
    assert_eq!(
        off.last_list(),
        Some(ListUse {
            method: ListMethod::Paged,
            encoding: Encoding::Json,
            fallback: None
        })
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_ignoring_the_parameter_is_found_out_by_its_plain_bookmark() {
    let demo = demo(500, "watch-list=ignore").await;
    let memory = Arc::new(StreamingLists::default());
    // The idle guard is far away: the plain bookmark (every 200 ms here) decides.
    let p = pods(&demo, Some(&memory), Duration::from_secs(60)).await;
    p.converge(&demo, "ignored: paged").await;
    let last = p.last_list().unwrap();
    assert_eq!(last.method, ListMethod::Paged);
    assert!(last.fallback.unwrap().contains("ignored sendInitialEvents"));
    create_pod(&demo, "after-ignore");
    sees(&p, "after-ignore").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_end_bookmark_at_all_falls_back_after_the_idle_guard() {
    let demo = demo(500, "watch-list=ignore,no-bookmarks").await;
    let memory = Arc::new(StreamingLists::default());
    let p = pods(&demo, Some(&memory), Duration::from_millis(400)).await;
    let t = Instant::now();
    p.converge(&demo, "no end bookmark: paged").await;
    let last = p.last_list().unwrap();
    assert_eq!(last.method, ListMethod::Paged, "{last:?}");
    assert!(
        last.fallback
            .as_deref()
            .unwrap()
            .contains("no initial-events-end bookmark (400ms"),
        "{last:?}"
    );
    assert!(t.elapsed() >= Duration::from_millis(400));
    demo.server.faults.set(Default::default());
    create_pod(&demo, "after-guard");
    sees(&p, "after-guard").await;
}
