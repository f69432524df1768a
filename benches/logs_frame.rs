//! In-process cost of a log view's frame while lines pour in (issue 15's ingest goal, without
//! the pty, the demo server or the scheduler): a hub holding 100,000 `loggen` lines (the
//! buffer's default bound, full), one source or a 20-pod merged view, at 160×45 on ratatui's
//! TestBackend. Before each measured step it pushes one frame's worth of new lines (RATE / 60,
//! evicting as many old ones), like the ingest task does between two draws; then it times
//! (a) `follow`: `refresh_top` + draw of the following view; (b) `keystroke`: one character
//! typed into the `/` filter prompt (`seq=`, then esc, round after round) + `refresh_top` +
//! draw — what a user waits for per key, goal ≤ 16 ms; (c) how long the draw step holds the
//! hub's lock (what the ingest task may wait for). Prints p50/p90/p99/max in ms.
//!
//! Run: `cargo bench --bench logs_frame -- --bench [RATE] [PODS] [ROUNDS]` (defaults 50000 1
//! 200). Under `cargo test` it only says how to run it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test and measuring code may panic

use std::sync::Arc;
use std::time::Instant;

use ktui::app::logs::model::{LogSettings, LogsState};
use ktui::app::refresh_top::refresh_top;
use ktui::app::state::{Screen, UiState};
use ktui::keys::Action;
use ktui::kube::logs::pods::Role;
use ktui::kube::logs::{ContainerPick, LogHub, LogTarget, PodPick, SourceInfo, SourceState};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

const NOW: i64 = 1_764_460_800;

/// A `loggen` line as the demo server prints it.
fn line(k: u64) -> Box<str> {
    let r = k.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    format!("seq={k} level=info msg=\"generated line\" payload={r:016x}").into()
}

struct Feed {
    hub: Arc<LogHub>,
    pods: u32,
    next: u64,
}

impl Feed {
    fn push(&mut self, n: u64) {
        let mut s = self.hub.lock();
        for _ in 0..n {
            let k = self.next;
            self.next += 1;
            let ts = jiff::Timestamp::from_second(NOW + (k / 50_000) as i64).ok();
            s.buffer.push((k % u64::from(self.pods)) as u32, ts, line(k));
        }
        drop(s);
        self.hub.changed();
    }
}

fn frame(state: &mut UiState, term: &mut Terminal<TestBackend>) {
    let area = ratatui::layout::Rect::new(0, 0, 160, 45);
    state.screens.layout.page_rows = ktui::ui::page_rows(area, state);
    refresh_top(state);
    term.draw(|f| ktui::ui::draw(f, state, &[], NOW)).expect("draw");
}

fn stats(name: &str, mut ms: Vec<f64>) {
    ms.sort_by(|a, b| a.total_cmp(b));
    let q = |p: f64| ms[((ms.len() - 1) as f64 * p).round() as usize];
    println!(
        "{name}: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} samples)",
        q(0.5),
        q(0.9),
        q(0.99),
        ms[ms.len() - 1],
        ms.len()
    );
}

fn measure(rate: u64, pods: u32, rounds: usize) {
    let hub = Arc::new(LogHub::new(100_000, 64 << 20, 50, Box::new(|| {})));
    {
        let mut s = hub.lock();
        for i in 0..pods {
            s.sources.push(SourceInfo {
                pod: format!("loggen-{i}").into(),
                container: "loggen".into(),
                role: Role::App,
                state: SourceState::Following,
                gone: false,
                last_ts: jiff::Timestamp::from_second(NOW).ok(),
            });
        }
        s.pods_synced = true;
    }
    let mut feed = Feed {
        hub: hub.clone(),
        pods,
        next: 0,
    };
    feed.push(100_000);
    let pick = if pods == 1 {
        PodPick::Named("loggen-0".into())
    } else {
        PodPick::Regex("loggen-".into())
    };
    let target = LogTarget {
        namespace: "demo".into(),
        pods: pick,
        containers: ContainerPick::Default,
    };
    let mut view = LogsState::new(target, "pods ~ loggen-".into(), LogSettings::default());
    view.hub = Some(hub.clone());
    view.clock = jiff::Timestamp::from_second(NOW).ok();
    let mut state = UiState::new(Screen::Logs(Box::new(view)), Some("demo".into()), false);
    let mut term = Terminal::new(TestBackend::new(160, 45)).expect("terminal");
    frame(&mut state, &mut term);
    let per_frame = (rate / 60).max(1);

    let mut follow = Vec::new();
    for _ in 0..rounds {
        feed.push(per_frame);
        let t = Instant::now();
        frame(&mut state, &mut term);
        follow.push(t.elapsed().as_secs_f64() * 1e3);
    }
    stats(
        &format!("follow frame, {rate} lines/s x {pods} source(s)"),
        follow,
    );

    let mut keys = Vec::new();
    let word = "seq=";
    while keys.len() < rounds {
        ktui::app::update::update(&mut state, Action::FilterMode);
        frame(&mut state, &mut term);
        for c in word.chars() {
            feed.push(per_frame);
            let t = Instant::now();
            ktui::app::update::type_char(&mut state, c);
            frame(&mut state, &mut term);
            keys.push(t.elapsed().as_secs_f64() * 1e3);
        }
        feed.push(per_frame);
        ktui::app::update::update(&mut state, Action::Cancel);
        frame(&mut state, &mut term);
    }
    stats(
        &format!("keystroke → frame (/{word}), {rate} lines/s x {pods} source(s)"),
        keys,
    );

    // How long one draw step keeps the lock from the ingest side: a writer thread times
    // each of its lock acquisitions while the UI side draws.
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (hub, stop) = (hub.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut waits = Vec::new();
            let mut k = 1u64 << 40;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let t = Instant::now();
                let mut s = hub.lock();
                waits.push(t.elapsed().as_secs_f64() * 1e3);
                for _ in 0..64 {
                    k += 1;
                    s.buffer.push(0, None, line(k));
                }
                drop(s);
                std::thread::sleep(std::time::Duration::from_micros(1_280));
            }
            waits
        })
    };
    for _ in 0..rounds {
        ktui::app::update::update(&mut state, Action::FilterMode);
        for c in word.chars() {
            ktui::app::update::type_char(&mut state, c);
            frame(&mut state, &mut term);
        }
        ktui::app::update::update(&mut state, Action::Cancel);
        frame(&mut state, &mut term);
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    stats(
        "ingest side's wait for the hub lock while typing",
        writer.join().expect("writer"),
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.iter().any(|a| a == "--bench") {
        println!("logs_frame: run with `cargo bench --bench logs_frame -- --bench [RATE] [PODS] [ROUNDS]`");
        return;
    }
    let nums: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let rate = nums.first().copied().unwrap_or(50_000);
    let pods = nums.get(1).copied().unwrap_or(1).max(1) as u32;
    let rounds = nums.get(2).copied().unwrap_or(200) as usize;
    measure(rate, pods, rounds);
}
