//! Timeline load harness (issue 4): sustained ingestion of events into a 20,000-event
//! timeline while a render loop redraws the timeline view at up to 60 fps on a 160×45
//! TestBackend. Prints events/s handled, frame times (p50/p99/max) and RSS at the bound.
//!
//! `cargo run --release --example timeline_load -- [RATE_PER_SEC] [SECONDS]` (defaults 5000, 10).
//! The writer runs on its own thread through the real `TimelineWriter` (decode → row →
//! merge → coalesced publication); the "UI" thread reads snapshots exactly as ktui does.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test and measuring code may panic

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ktui::app::refresh_top::refresh_top;
use ktui::app::state::{Conn, ListState, Screen, Source, UiState};
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::client::ClusterInfo;
use ktui::kube::key::ResourceKey;
use ktui::kube::row::RowCtx;
use ktui::kube::sink::Sink;
use ktui::kube::store::{Publisher, Slot};
use ktui::kube::timeline::{TimelineBounds, TimelineWriter};
use ktui::table::EventObj;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

const REASONS: [(&str, bool); 8] = [
    ("Scheduled", false),
    ("Pulling", false),
    ("Pulled", false),
    ("Created", false),
    ("Started", false),
    ("BackOff", true),
    ("Unhealthy", true),
    ("FailedScheduling", true),
];

fn event_json(i: u64, now: i64) -> Vec<u8> {
    let (reason, warning) = REASONS[(i % 8) as usize];
    // A quarter of the events repeat an earlier one (count goes up): they collapse.
    let id = if i.is_multiple_of(4) { i / 4 } else { i };
    let ns = format!("team-{}", id % 40);
    let pod = format!(
        "web-{}-{:05x}",
        id % 300,
        id.wrapping_mul(2_654_435_761) % 0xfffff
    );
    let ts = jiff::Timestamp::from_second(now).unwrap().to_string();
    serde_json::to_vec(&serde_json::json!({
        "metadata": {"name": format!("{pod}.{id:x}"), "namespace": ns, "uid": format!("uid-{id}"),
                     "resourceVersion": (i + 1).to_string(), "creationTimestamp": ts},
        "type": if warning { "Warning" } else { "Normal" }, "reason": reason,
        "message": format!("{reason} for pod {pod}: container app in namespace {ns} did something notable"),
        "involvedObject": {"kind": "Pod", "name": pod, "namespace": ns, "uid": format!("pod-{}", id % 5000),
                           "fieldPath": "spec.containers{app}"},
        "source": {"component": "kubelet", "host": format!("node-{}", id % 200)},
        "count": 1 + (i / 4) % 20, "firstTimestamp": ts, "lastTimestamp": ts
    }))
    .unwrap()
}

fn rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rate: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(5000);
    let secs: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(10);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let _guard = rt.enter();
    let key = ResourceKey::new(BuiltinKind::Event, None);
    let slot = Slot::new(key.clone(), 1);
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let rss_before = rss_mb();
    let stop = Arc::new(AtomicBool::new(false));
    let handled = Arc::new(AtomicU64::new(0));
    let writer_slot = slot.clone();
    let (w_stop, w_handled) = (stop.clone(), handled.clone());
    let writer = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let mut w = TimelineWriter::<EventObj>::new(
                Publisher::new(writer_slot, tx),
                RowCtx::default(),
                TimelineBounds::default(),
            );
            w.init();
            w.init_done(Some("0".into()));
            let start = Instant::now();
            let mut i = 0u64;
            while !w_stop.load(Ordering::Relaxed) {
                // Pace to `rate`: feed what is due, then yield a millisecond.
                let due = (start.elapsed().as_secs_f64() * rate as f64) as u64;
                let now = jiff::Timestamp::now().as_second();
                while i < due {
                    let ev: EventObj = serde_json::from_slice(&event_json(i, now)).unwrap();
                    w.apply(ev);
                    i += 1;
                    if i.is_multiple_of(256) {
                        w.flush();
                    }
                }
                w.flush();
                w_handled.store(i, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
            w.publish();
            (w.len(), start.elapsed())
        })
    });
    // The render side: one refresh_top + draw per notification, at most every 16 ms.
    let mut list = ListState::new(key, None);
    list.source = Some(Source::fixed(slot.clone()));
    let mut state = UiState::new(Screen::List(Box::new(list)), None, false);
    state.conn.explicit_all = true;
    state.conn.status = Conn::Connected(ClusterInfo {
        context: "load".into(),
        server: "http://127.0.0.1".into(),
        namespace: "default".into(),
        contexts: vec![],
    });
    let mut term = Terminal::new(TestBackend::new(160, 45)).unwrap();
    let mut frames: Vec<Duration> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(secs);
    let mut last = Instant::now() - Duration::from_millis(16);
    while Instant::now() < deadline {
        let got = rt.block_on(async { tokio::time::timeout(Duration::from_millis(50), rx.recv()).await });
        if got.is_err() {
            continue;
        }
        let wait = Duration::from_millis(16).saturating_sub(last.elapsed());
        std::thread::sleep(wait);
        last = Instant::now();
        let t = Instant::now();
        state.screens.layout.page_rows =
            ktui::ui::page_rows(ratatui::layout::Rect::new(0, 0, 160, 45), &state);
        refresh_top(&mut state);
        let now = jiff::Timestamp::now().as_second();
        term.draw(|f| {
            ktui::ui::draw(f, &state, &[], now);
        })
        .unwrap();
        frames.push(t.elapsed());
    }
    stop.store(true, Ordering::Relaxed);
    let (held, elapsed) = writer.join().unwrap();
    let n = handled.load(Ordering::Relaxed);
    frames.sort();
    let pct = |p: f64| {
        frames
            .get(((frames.len() as f64 - 1.0) * p) as usize)
            .copied()
            .unwrap_or_default()
    };
    println!("target rate        {rate} events/s for {secs} s");
    println!(
        "events handled     {n} in {:.2} s = {:.0} events/s",
        elapsed.as_secs_f64(),
        n as f64 / elapsed.as_secs_f64()
    );
    println!("timeline held      {held} (bound 20,000)");
    println!(
        "frames drawn       {} (prepare + draw, 160x45): p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        frames.len(),
        pct(0.5).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        frames.last().copied().unwrap_or_default().as_secs_f64() * 1e3
    );
    println!(
        "RSS                {rss_before:.1} MB before, {:.1} MB at the bound",
        rss_mb()
    );
}
