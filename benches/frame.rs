//! Frame cost of a 100,000-row pod table (all namespaces, realistic pods from benches/common
//! decoded through `table::PodObj`) at 160×45 on ratatui's TestBackend: `refresh_top` + one
//! `terminal.draw(ui::draw)`, (a) steady state — the same snapshot again, the view answered
//! from memo (`steady_redraw`); (b) right after a new snapshot with one changed row, so
//! `refresh_top` recomputes the view (`after_new_snapshot`); (c) a steady redraw in wide mode, and
//! with the cursor on the first row instead of the middle; (d) `refresh_top` and the draw alone;
//! (e) keystroke → frame: one character typed into the `/` prompt (fuzzy, `'exact`, a
//! `status:` column term, both) then refresh_top + draw (`keystroke_*`; goal ≤ 16 ms).
//! Goal: (a) under 2 ms. Run: `cargo bench --bench frame` (wall time) or
//! `BENCH_CPU=1 cargo bench --bench frame` (CPU time of the bench thread); medians land in
//! `target/criterion/frame{,_cpu}/*/new/estimates.json`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test and measuring code may panic

#[macro_use]
mod common;

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::measurement::Measurement;
use criterion::{BatchSize, Criterion};
use ktui::app::refresh_top::refresh_top;
use ktui::app::state::{Conn, ListState, Screen, Source, UiState};
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::client::ClusterInfo;
use ktui::kube::key::ResourceKey;
use ktui::kube::row::{IntoRow, Row, RowCtx};
use ktui::kube::store::{Slot, StoreChanged, StoreWriter};
use ktui::table::PodObj;
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use tokio::sync::mpsc::UnboundedReceiver;

const PODS: usize = 100_000;
const NOW: i64 = common::NOW;

fn loaded(ctx: &RowCtx) -> (Arc<Slot>, StoreWriter, UnboundedReceiver<StoreChanged>) {
    common::loaded_store(PODS, ctx)
}

fn state(slot: Arc<Slot>, wide: bool, selected: usize) -> UiState {
    let mut list = ListState::new(ResourceKey::new(BuiltinKind::Pod, None), None);
    list.source = Some(Source::fixed(slot));
    list.wide = wide;
    list.selected = selected;
    let mut state = UiState::new(Screen::List(Box::new(list)), None, false);
    state.conn.status = Conn::Connected(ClusterInfo {
        context: "prod-eu".into(),
        server: "https://10.0.0.1:6443".into(),
        namespace: "default".into(),
        contexts: vec!["prod-eu".into()],
    });
    state
}

/// The render loop's step: page size from the layout, refresh_top, draw.
fn frame(state: &mut UiState, term: &mut Terminal<TestBackend>) {
    state.screens.layout.page_rows = ktui::ui::page_rows(ratatui::layout::Rect::new(0, 0, 160, 45), state);
    refresh_top(state);
    if let Err(e) = term.draw(|f| ktui::ui::draw(f, state, &[], NOW)) {
        panic!("draw: {e}");
    }
}

fn terminal() -> Terminal<TestBackend> {
    match Terminal::new(TestBackend::new(160, 45)) {
        Ok(t) => t,
        Err(e) => panic!("terminal: {e}"),
    }
}

fn bench<M: Measurement + 'static>(c: &mut Criterion<M>, suffix: &str) {
    let ctx = RowCtx::default();
    let (slot, mut w, mut rx) = loaded(&ctx);
    let mut g = c.benchmark_group(format!("frame{suffix}"));
    g.sample_size(60)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(2));

    // The cursor in the middle of the table (as after scrolling), or on the first row.
    let cases = [
        ("steady_redraw", false, PODS / 2),
        ("steady_redraw_top", false, 0),
        ("steady_redraw_wide", true, PODS / 2),
    ];
    for (name, wide, selected) in cases {
        let mut st = state(slot.clone(), wide, selected);
        let mut term = terminal();
        frame(&mut st, &mut term);
        frame(&mut st, &mut term);
        g.bench_function(name, |b| b.iter(|| frame(black_box(&mut st), &mut term)));
        if name == "steady_redraw" {
            let screen = term.backend().to_string();
            eprintln!(
                "frame: first lines of the screen:\n{}",
                screen.lines().take(6).collect::<Vec<_>>().join("\n")
            );
            // The parts alone: refresh_top (memoised view, selection lookup) and the draw.
            g.bench_function("steady_prepare_only", |b| {
                b.iter(|| refresh_top(black_box(&mut st)))
            });
            g.bench_function("steady_draw_only", |b| {
                b.iter(|| {
                    if let Err(e) = term.draw(|f| {
                        ktui::ui::draw(f, black_box(&st), &[], NOW);
                    }) {
                        panic!("draw: {e}");
                    }
                })
            });
        }
    }

    // One changed row per new snapshot, alternating between two versions of pod 0.
    let versions: [Row; 2] = [1, 2].map(|churn| {
        let json = common::pod_json(0, PODS as u64 + 2, churn);
        match serde_json::from_str::<PodObj>(&json) {
            Ok(p) => p.into_row(&ctx),
            Err(e) => panic!("{e}"),
        }
    });
    // Cursor in the middle (a lookup of the selected row across the new view) or on top.
    for (name, selected) in [("after_new_snapshot", PODS / 2), ("after_new_snapshot_top", 0)] {
        let mut st = state(slot.clone(), false, selected);
        let mut term = terminal();
        frame(&mut st, &mut term);
        frame(&mut st, &mut term);
        let mut round = 0usize;
        g.bench_function(name, |b| {
            b.iter_batched(
                || {
                    round ^= 1;
                    w.apply(versions[round].clone());
                    w.publish();
                    while rx.try_recv().is_ok() {}
                },
                |()| frame(black_box(&mut st), &mut term),
                BatchSize::PerIteration,
            )
        });
    }
    // Keystroke → frame: one character typed into the open `/` prompt (the filter is applied
    // at once), then the loop's step (refresh_top + draw) — what a user waits for per key.
    // The prompt holds everything but the last character and its frame was drawn (setup,
    // not timed).
    let keys = [
        ("keystroke_fuzzy", "ap", 'i'),
        ("keystroke_exact", "'web-", '1'),
        ("keystroke_column_term", "status:Runnin", 'g'),
        ("keystroke_column_and_name", "status:Run ap", 'i'),
    ];
    for (name, before, c) in keys {
        let mut st = state(slot.clone(), false, 0);
        let mut term = terminal();
        frame(&mut st, &mut term);
        // Setup and routine take turns with the same state and terminal.
        let both = std::cell::RefCell::new((st, term));
        g.bench_function(name, |b| {
            b.iter_batched(
                || {
                    let (st, term) = &mut *both.borrow_mut();
                    if let Some(l) = st.top_list_mut() {
                        l.filter = before.to_owned();
                    }
                    st.screens.prompt.open = Some(ktui::app::state::Prompt::Filter(before.to_owned()));
                    st.screens.prompt.cursor = None;
                    frame(st, term);
                },
                |()| {
                    let (st, term) = &mut *both.borrow_mut();
                    ktui::app::update::type_char(black_box(st), c);
                    frame(st, term);
                },
                BatchSize::PerIteration,
            )
        });
        let (st, _) = &*both.borrow();
        let l = st.top_list().map(|l| (l.cache.len(), l.cache.total()));
        eprintln!("frame: {name}: {before}{c} → {l:?} (matching, total)");
    }
    g.finish();
}

run_benches!(bench);
