//! Heap held per object at the scale limits (issue 14): the demo server's load nodes and
//! events (`--nodes`, `--events`, the same JSON) are decoded as ktui's informers do and kept
//! the way it keeps them — node rows in a list store, node revisions in the history (nodes are
//! a recorded kind), events in the timeline — and a counting allocator reports the bytes and
//! allocations each part holds once built (malloc's own ~8–16 bytes per allocation come on
//! top). Prints one line per part, per object and in total.
//!
//! `cargo run --release --example held_bytes -- [NODES] [EVENTS]` (defaults 5000, 50000).

#![allow(clippy::unwrap_used, clippy::expect_used)] // measuring code may panic

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

use ktui::kube::builtin::BuiltinKind;
use ktui::kube::history::{History, HistoryConfig};
use ktui::kube::key::ResourceKey;
use ktui::kube::row::{IntoRow, RowCtx};
use ktui::kube::sink::Sink;
use ktui::kube::store::{Publisher, Slot, StoreWriter};
use ktui::kube::timeline::{TimelineBounds, TimelineWriter};
use ktui::sim::kinds::id;
use ktui::sim::matching::Filter;
use ktui::sim::store::{Store, StoreConfig};
use ktui::table::{EventObj, NodeObj};

/// Counts live bytes and allocations of everything allocated through it.
struct Counting;

static BYTES: AtomicIsize = AtomicIsize::new(0);
static ALLOCS: AtomicIsize = AtomicIsize::new(0);

// SAFETY: forwards every call to `System` unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        BYTES.fetch_add(l.size() as isize, Ordering::Relaxed);
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same layout contract as the caller's.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        BYTES.fetch_sub(l.size() as isize, Ordering::Relaxed);
        ALLOCS.fetch_sub(1, Ordering::Relaxed);
        // SAFETY: `p` came from `alloc` with layout `l`.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        BYTES.fetch_add(new as isize - l.size() as isize, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(p, l, new) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn held() -> (isize, isize) {
    (BYTES.load(Ordering::Relaxed), ALLOCS.load(Ordering::Relaxed))
}

fn report(part: &str, before: (isize, isize), n: usize) {
    let (b, a) = held();
    let (b, a) = (b - before.0, a - before.1);
    println!(
        "{part:<28} {n:>7} objects  {:>8.1} MB  {:>6.0} B/object  {:>5.1} allocations/object",
        b as f64 / 1e6,
        b as f64 / n.max(1) as f64,
        a as f64 / n.max(1) as f64
    );
}

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let nodes = args.first().copied().unwrap_or(5_000);
    let events = args.get(1).copied().unwrap_or(50_000);
    println!(
        "sizes: Row {} B, EventInfo {} B, Cell {} B",
        std::mem::size_of::<ktui::kube::row::Row>(),
        std::mem::size_of::<ktui::kube::row::EventInfo>(),
        std::mem::size_of::<ktui::kube::row::Cell>()
    );
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let _guard = rt.enter();

    let server = Store::new(StoreConfig::default());
    ktui::sim::scale_cluster::populate(&server, nodes, events).unwrap();
    let node_items = server.list(id::NODE, &Filter::default(), 0, None, None).items;
    let event_items = server.list(id::EVENT, &Filter::default(), 0, None, None).items;
    let ctx = RowCtx::default();
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let total = held();

    let start = held();
    let slot = Slot::new(ResourceKey::new(BuiltinKind::Node, None), 1);
    let mut w = StoreWriter::new(slot.clone(), tx.clone());
    w.init();
    for item in &node_items {
        let node: NodeObj = serde_json::from_slice(item).unwrap();
        w.init_apply(node.into_row(&ctx));
    }
    w.init_done(Some("1".into()));
    report("node rows (list store)", start, node_items.len());

    let start = held();
    let history = History::new(HistoryConfig::default(), 0);
    for item in &node_items {
        let raw: Box<serde_json::value::RawValue> = serde_json::from_slice(item).unwrap();
        history.observe_raw("nodes", &raw, true, 0);
    }
    report("node history (baselines)", start, node_items.len());

    let start = held();
    let slot = Slot::new(ResourceKey::new(BuiltinKind::Event, None), 1);
    let mut t = TimelineWriter::<EventObj>::new(
        Publisher::new(slot.clone(), tx),
        ctx.clone(),
        TimelineBounds::default(),
    );
    Sink::init(&mut t);
    for item in &event_items {
        t.init_apply(serde_json::from_slice::<EventObj>(item).unwrap());
    }
    t.init_done(Some("1".into()));
    report("events (timeline)", start, t.len());

    report("all", total, node_items.len() + event_items.len());
    drop((w, t, history, slot));
}
