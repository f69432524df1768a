//! Cost of a watch burst on a big store: 100,000 realistic pods (benches/common, ~4.8 KB JSON
//! each, decoded through `table::PodObj` into rows) sit in a live `StoreWriter`; one iteration
//! applies 1,000 MODIFIED events and publishes one snapshot. Measured with decode inside
//! (`burst_decode_apply_publish`: watch-line JSON → `WatchEvent<PodObj>` → row → apply, then
//! publish, as the informer does) and outside (`burst_apply_publish`: rows prebuilt), plus the
//! parts alone (`decode_1000`, `decode_row_1000`, `publish_one_change`), and the generic
//! decoder of custom resources with five printer columns (`custom_decode_row_1000`).
//! Run: `cargo bench --bench store` (wall time) or `BENCH_CPU=1 cargo bench --bench store` (CPU
//! time of the bench thread, for a loaded machine); medians land in
//! `target/criterion/store{,_cpu}/*/new/estimates.json`. Publication drops the previous
//! snapshot inside the measured part (nobody else holds it), as the writer does in ktui.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test and measuring code may panic

#[macro_use]
mod common;

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::measurement::Measurement;
use criterion::{BatchSize, Criterion};
use ktui::kube::kind::{ApiResource, PrinterColumn};
use ktui::kube::row::{IntoRow, Row, RowCtx};
use ktui::kube::sink::RowBuilder;
use ktui::kube::store::{Slot, StoreChanged, StoreWriter};
use ktui::table::custom::{CustomObj, CustomRows};
use ktui::table::PodObj;
use kube::api::WatchEvent;
use tokio::sync::mpsc::UnboundedReceiver;

const PODS: usize = 100_000;
const BURST: usize = 1_000;

fn loaded(ctx: &RowCtx) -> (Arc<Slot>, StoreWriter, UnboundedReceiver<StoreChanged>) {
    common::loaded_store(PODS, ctx)
}

/// The watch lines of one burst: pods spread over the whole store, churn round `round`.
fn burst(round: u64) -> Vec<Vec<u8>> {
    (0..BURST)
        .map(|k| {
            let i = (common::mix(k as u64 ^ 0xB0057) % PODS as u64) as usize;
            common::modified_event(i, PODS as u64 + 2 + k as u64, round).into_bytes()
        })
        .collect()
}

fn decode(line: &[u8]) -> PodObj {
    match serde_json::from_slice::<WatchEvent<PodObj>>(line) {
        Ok(WatchEvent::Modified(p)) => p,
        Ok(_) => panic!("not a MODIFIED event"),
        Err(e) => panic!("bad event: {e}"),
    }
}

fn bench<M: Measurement + 'static>(c: &mut Criterion<M>, suffix: &str) {
    let ctx = RowCtx::default();
    let (slot, mut w, mut rx) = loaded(&ctx);
    // Two alternating rounds so that every iteration really changes the rows.
    let lines = [burst(1), burst(2)];
    let rows: [Vec<Row>; 2] = [
        lines[0].iter().map(|l| decode(l).into_row(&ctx)).collect(),
        lines[1].iter().map(|l| decode(l).into_row(&ctx)).collect(),
    ];
    let json_bytes: usize = lines[0].iter().map(Vec::len).sum();
    eprintln!(
        "store: {PODS} pods held, burst of {BURST} events = {} KiB of JSON",
        json_bytes / 1024
    );

    let mut g = c.benchmark_group(format!("store{suffix}"));
    g.sample_size(40)
        .measurement_time(Duration::from_secs(6))
        .warm_up_time(Duration::from_secs(2));

    let mut round = 0usize;
    g.bench_function("burst_decode_apply_publish", |b| {
        b.iter(|| {
            round ^= 1;
            for l in &lines[round] {
                w.apply(decode(l).into_row(&ctx));
            }
            w.publish();
            while rx.try_recv().is_ok() {}
            black_box(slot.load().rev)
        })
    });

    g.bench_function("burst_apply_publish", |b| {
        b.iter_batched(
            || {
                round ^= 1;
                rows[round].clone()
            },
            |batch| {
                for r in batch {
                    w.apply(r);
                }
                w.publish();
                while rx.try_recv().is_ok() {}
                black_box(slot.load().rev)
            },
            BatchSize::LargeInput,
        )
    });

    g.bench_function("publish_one_change", |b| {
        b.iter_batched(
            || {
                round ^= 1;
                rows[round][0].clone()
            },
            |r| {
                w.apply(r);
                w.publish();
                while rx.try_recv().is_ok() {}
                black_box(slot.load().rev)
            },
            BatchSize::SmallInput,
        )
    });

    g.bench_function("decode_1000", |b| {
        b.iter(|| {
            for l in &lines[0] {
                black_box(decode(l));
            }
        })
    });

    g.bench_function("decode_row_1000", |b| {
        b.iter(|| {
            for l in &lines[0] {
                black_box(decode(l).into_row(&ctx));
            }
        })
    });

    // A custom resource through the generic decoder and five printer columns (a filter
    // among them): the path every CRD and non-built-in kind takes.
    let (gizmos, builder) = custom_fixture();
    g.bench_function("custom_decode_row_1000", |b| {
        b.iter(|| {
            for l in &gizmos {
                let obj: CustomObj = serde_json::from_slice(l).expect("gizmo");
                black_box(builder.build(obj, &ctx));
            }
        })
    });
    g.finish();
}

fn custom_fixture() -> (Vec<Vec<u8>>, CustomRows) {
    let col = |name: &str, ty: &str, path: &str| PrinterColumn {
        name: name.into(),
        column_type: ty.into(),
        json_path: path.into(),
        priority: 0,
    };
    let res = ApiResource {
        group: "demo.ktui.dev".into(),
        version: "v1".into(),
        plural: "gizmos".into(),
        kind: "Gizmo".into(),
        namespaced: true,
        columns: vec![
            col("Color", "string", ".spec.color"),
            col("Size", "integer", ".spec.size"),
            col(
                "Ready",
                "string",
                r#".status.conditions[?(@.type=="Ready")].status"#,
            ),
            col("Port", "integer", ".spec.ports[0].port"),
            col("Age", "date", ".metadata.creationTimestamp"),
        ]
        .into(),
        from_crd: true,
        ..Default::default()
    };
    let objects = (0..BURST)
        .map(|i| {
            serde_json::json!({
                "apiVersion": "demo.ktui.dev/v1", "kind": "Gizmo",
                "metadata": {"name": format!("gizmo-{i}"), "namespace": format!("ns-{}", i % 50),
                    "uid": format!("u-{i}"), "resourceVersion": format!("{}", 1000 + i),
                    "creationTimestamp": "2026-11-01T10:00:00Z",
                    "labels": {"app": format!("app-{}", i % 20), "tier": "backend"}},
                "spec": {"color": "red", "size": i, "ports": [{"port": 8443}, {"port": 9090}]},
                "status": {"conditions": [
                    {"type": "Synced", "status": "True", "lastTransitionTime": "2026-11-01T10:00:00Z"},
                    {"type": "Ready", "status": "True", "lastTransitionTime": "2026-11-01T10:00:00Z"}]}
            })
            .to_string()
            .into_bytes()
        })
        .collect();
    (objects, CustomRows::new(&res))
}

run_benches!(bench);
