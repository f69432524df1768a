//! Cost proportional to change (issue 14), timed per call rather than averaged, to give
//! p50/p99: (a) `publish` after k = 1, 100, 1,000 applied changes on a live store of
//! n = 100,000 and 150,000 realistic pods (benches/common; the k rows are decoded and applied
//! outside the timed part, the previous snapshot is dropped inside it as in ktui); (b) frames
//! of an all-namespaces pod table at n = 100,000 / 150,000 while 1,000 changes/s arrive —
//! with PUBLISH_INTERVAL (100 ms) that is one snapshot of 100 changes per interval: each
//! iteration publishes such a snapshot (untimed: the writer runs on its own task) and times
//! the next frame (`snapshot_frame`), or a character typed into the `/` prompt and its frame
//! (`keystroke_*`, the first letter of a filter among them; goal ≤ 16 ms p99). Run: `cargo
//! bench --bench churn` (wall time); it prints one line per case; under `cargo test` it only
//! says how to run it. `CHURN_ITERS` overrides the iteration count (default 200).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test and measuring code may panic

#[macro_use]
#[allow(unused_macros)]
mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use ktui::app::refresh_top::refresh_top;
use ktui::app::state::{ListState, Prompt, Screen, Source, UiState};
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::key::ResourceKey;
use ktui::kube::row::{IntoRow, Row, RowCtx};
use ktui::kube::store::StoreWriter;
use ktui::table::PodObj;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

/// Changes per publication at 1,000 changes/s and a 100 ms publication interval.
const PER_SNAPSHOT: usize = 100;

fn iters() -> usize {
    std::env::var("CHURN_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200)
}

/// `k` changed rows of a store of `n`, spread over it, at churn round `round`.
fn changes(n: usize, k: usize, round: u64, ctx: &RowCtx) -> Vec<Row> {
    (0..k)
        .map(|j| {
            let i = (common::mix(j as u64 ^ (round << 32) ^ 0xC4A7) % n as u64) as usize;
            let json = common::pod_json(i, n as u64 + 2 + j as u64, round);
            serde_json::from_str::<PodObj>(&json)
                .expect("pod decodes")
                .into_row(ctx)
        })
        .collect()
}

/// p50, p99 and max of `samples`, in milliseconds.
fn report(name: &str, samples: &mut [Duration]) {
    samples.sort_unstable();
    let at = |q: f64| {
        let i = ((samples.len() as f64 - 1.0) * q).round() as usize;
        samples[i].as_secs_f64() * 1e3
    };
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load = load.split(' ').next().unwrap_or("?").to_owned();
    println!(
        "{name:<40} n={:<4} p50 {:>8.3} ms  p99 {:>8.3} ms  max {:>8.3} ms  (load {load})",
        samples.len(),
        at(0.5),
        at(0.99),
        at(1.0)
    );
}

/// Rounds of changes to alternate between, so every application really changes rows.
fn rounds(n: usize, k: usize, ctx: &RowCtx) -> Vec<Vec<Row>> {
    (1..=4).map(|r| changes(n, k, r, ctx)).collect()
}

fn apply_all(w: &mut StoreWriter, rows: &[Row]) {
    for r in rows {
        w.apply(r.clone());
    }
}

fn publish_cases(n: usize, ctx: &RowCtx) {
    let (slot, mut w, mut rx) = common::loaded_store(n, ctx);
    for k in [1, 100, 1000] {
        let rounds = rounds(n, k, ctx);
        let mut samples = Vec::new();
        for it in 0..iters() {
            apply_all(&mut w, &rounds[it % rounds.len()]);
            let t = Instant::now();
            w.publish();
            samples.push(t.elapsed());
            while rx.try_recv().is_ok() {}
            black_box(slot.load().rev);
        }
        report(&format!("publish_after_{k}_changes/{}k", n / 1000), &mut samples);
    }
}

fn state(slot: std::sync::Arc<ktui::kube::store::Slot>) -> UiState {
    let mut list = ListState::new(ResourceKey::new(BuiltinKind::Pod, None), None);
    list.source = Some(Source::fixed(slot));
    UiState::new(Screen::List(Box::new(list)), None, false)
}

fn frame(state: &mut UiState, term: &mut Terminal<TestBackend>) {
    state.screens.layout.page_rows = ktui::ui::page_rows(ratatui::layout::Rect::new(0, 0, 160, 45), state);
    refresh_top(state);
    term.draw(|f| ktui::ui::draw(f, state, &[], common::NOW))
        .expect("draw");
}

fn frame_cases(n: usize, ctx: &RowCtx) {
    let (slot, mut w, mut rx) = common::loaded_store(n, ctx);
    let rounds = rounds(n, PER_SNAPSHOT, ctx);
    let mut publish = |w: &mut StoreWriter, it: usize| {
        apply_all(w, &rounds[it % rounds.len()]);
        w.publish();
        while rx.try_recv().is_ok() {}
    };
    // A new snapshot, then the frame that shows it (no filter, then a fuzzy filter).
    for (name, filter) in [("snapshot_frame", ""), ("snapshot_frame_fuzzy", "api")] {
        let mut st = state(slot.clone());
        if let Some(l) = st.top_list_mut() {
            l.filter = filter.to_owned();
        }
        let mut term = Terminal::new(TestBackend::new(160, 45)).expect("terminal");
        frame(&mut st, &mut term);
        let mut samples = Vec::new();
        for it in 0..iters() {
            publish(&mut w, it);
            let t = Instant::now();
            frame(&mut st, &mut term);
            samples.push(t.elapsed());
        }
        report(&format!("{name}/{}k", n / 1000), &mut samples);
    }
    // A new snapshot arrived, then one character typed into the open `/` prompt.
    // The first letter typed (nothing to narrow from: every row is tested) is the worst case.
    let keys = [
        ("keystroke_first_letter", "", 'q'),
        ("keystroke_fuzzy", "ap", 'i'),
        ("keystroke_column_and_name", "status:Run ap", 'i'),
    ];
    for (name, before, c) in keys {
        let mut st = state(slot.clone());
        let mut term = Terminal::new(TestBackend::new(160, 45)).expect("terminal");
        frame(&mut st, &mut term);
        let mut samples = Vec::new();
        for it in 0..iters() {
            if let Some(l) = st.top_list_mut() {
                l.filter = before.to_owned();
            }
            st.screens.prompt.open = Some(Prompt::Filter(before.to_owned()));
            st.screens.prompt.cursor = None;
            frame(&mut st, &mut term);
            publish(&mut w, it);
            let t = Instant::now();
            ktui::app::update::type_char(black_box(&mut st), c);
            frame(&mut st, &mut term);
            samples.push(t.elapsed());
        }
        report(&format!("{name}/{}k", n / 1000), &mut samples);
    }
}

fn main() {
    // `cargo bench` passes `--bench`; under `cargo test` (CI's `--all-targets`) the debug
    // build would time 150k-pod tables for nothing, so it only says how to run it, as the
    // other harness benches do. A name filter selects the cases ("publish", "frame").
    if !std::env::args().any(|a| a == "--bench") {
        println!("churn: run with `cargo bench --bench churn -- --bench [publish|frame]`");
        return;
    }
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let want = |s: &str| filter.as_deref().is_none_or(|f| s.contains(f));
    let ctx = RowCtx::default();
    for n in [100_000, 150_000] {
        if want("publish") {
            publish_cases(n, &ctx);
        }
        if want("frame") {
            frame_cases(n, &ctx);
        }
    }
}
