//! Per-keystroke cost of `ktui::view` over 100,000 realistic pod rows (50 namespaces,
//! `<app>-<hash10>-<hash5>` names, interned labels, the 8 pod cells of `table::pod`).
//! Run: `cargo bench --bench view`; medians land in `target/criterion/view/*/new/estimates.json`.

use std::collections::HashMap;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use ktui::kube::key::ResourceKey;
use ktui::kube::kind::BuiltinKind;
use ktui::kube::row::{Cell, Health, Row};
use ktui::kube::state::SyncState;
use ktui::kube::store::Snapshot;
use ktui::view::{Query, Sort, SortBy, ViewCache, ViewSpec};

const ROWS: usize = 100_000;
const NOW: i64 = 1_764_460_800;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }

    /// A Kubernetes-style random suffix (consonants and digits without look-alikes).
    fn hash(&mut self, len: usize) -> String {
        let alpha = b"bcdfghjklmnpqrstvwxz2456789";
        (0..len)
            .map(|_| alpha[(self.next() % alpha.len() as u64) as usize] as char)
            .collect()
    }
}

/// Interns like the informer's `Interner`: equal strings share one `Arc`.
fn intern(pool: &mut HashMap<String, Arc<str>>, s: &str) -> Arc<str> {
    pool.entry(s.to_string()).or_insert_with(|| Arc::from(s)).clone()
}

fn pods() -> Snapshot {
    let teams = [
        "payments",
        "checkout",
        "search",
        "identity",
        "billing",
        "catalog",
        "shipping",
        "ads",
        "ml-serving",
        "data",
    ];
    let envs = ["prod", "staging", "dev", "qa", "canary"];
    let apps = [
        "web",
        "api-gateway",
        "worker",
        "redis",
        "postgres",
        "kafka-broker",
        "frontend",
        "auth",
        "cron-sync",
        "metrics",
    ];
    let statuses = [
        "Running",
        "Running",
        "Running",
        "Running",
        "Pending",
        "CrashLoopBackOff",
        "Completed",
        "ContainerCreating",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut pool = HashMap::new();
    let mut rows: Vec<Row> = (0..ROWS)
        .map(|_| {
            let ns = format!("{}-{}", rng.pick(&teams), rng.pick(&envs));
            let app = format!("{}-{}", rng.pick(&apps), rng.next() % 10);
            let template = rng.hash(10);
            let name = format!("{app}-{template}-{}", rng.hash(5));
            let node = format!("node-{}", rng.next() % 200);
            let status = rng.pick(&statuses);
            let mut labels = vec![
                (intern(&mut pool, "app"), intern(&mut pool, &app)),
                (
                    intern(&mut pool, "pod-template-hash"),
                    Arc::from(template.as_str()),
                ),
                (
                    intern(&mut pool, "tier"),
                    intern(
                        &mut pool,
                        if app.starts_with("web") {
                            "frontend"
                        } else {
                            "backend"
                        },
                    ),
                ),
                (
                    intern(&mut pool, "app.kubernetes.io/part-of"),
                    intern(&mut pool, &ns),
                ),
            ];
            labels.sort();
            let created = NOW - (rng.next() % (90 * 86_400)) as i64;
            let restarts = (rng.next() % 7) as i64 / 5;
            Row {
                namespace: Some(intern(&mut pool, &ns)),
                name: name.into(),
                uid: format!("{:032x}", rng.next()).into(),
                created: Some(created),
                labels: labels.into(),
                cells: vec![
                    Cell::Text("1/1".into()),
                    Cell::Static(status),
                    Cell::Restarts {
                        count: restarts,
                        last: (restarts > 0).then_some(NOW - 600),
                    },
                    Cell::Age(Some(created)),
                    Cell::Text(
                        format!(
                            "10.{}.{}.{}",
                            rng.next() % 256,
                            rng.next() % 256,
                            rng.next() % 256
                        )
                        .into(),
                    ),
                    Cell::Text(intern(&mut pool, &node).to_string().into()),
                    Cell::Static("<none>"),
                    Cell::Static("<none>"),
                ]
                .into_boxed_slice(),
                health: Health::Ok,
                drill: None,
                event: None,
            }
        })
        .collect();
    rows.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
    let mut snap = Snapshot::empty(ResourceKey::new(BuiltinKind::Pod, None), 1);
    snap.rows = rows.into_iter().map(Arc::new).collect();
    snap.rev = 1;
    snap.state = SyncState::Live;
    snap.listed = true;
    snap
}

fn spec(query: &Query, sort: Sort) -> ViewSpec<'_> {
    ViewSpec {
        query,
        namespace: None,
        sort,
        all_namespaces: true,
    }
}

fn q(s: &str) -> Query {
    Query::parse(s).unwrap_or_default()
}

/// A cache whose name buffers for `snap` are built (as after any earlier keystroke on this
/// revision) but which holds no result that the measured query could reuse.
fn warm(snap: &Snapshot) -> ViewCache {
    let mut c = ViewCache::new();
    c.view(snap, &spec(&q("zzzzzzzzzzzz"), Sort::default()));
    c
}

fn bench(c: &mut Criterion) {
    let snap = pods();
    let name = Sort::default();
    let age = Sort {
        by: SortBy::Age,
        reverse: false,
    };
    let one = q("a");
    let five = q("web3k");
    let typed: Vec<Query> = ["w", "we", "web", "web3"].iter().map(|s| q(s)).collect();
    let selector = q("-l app=web-3");
    let mut g = c.benchmark_group("view");
    g.sample_size(30).measurement_time(Duration::from_secs(4));
    let fresh = || ViewCache::new();
    g.bench_function("a_unfiltered_name", |b| {
        b.iter_batched(
            fresh,
            |mut c| {
                let r = c.view(&snap, &spec(&Query::default(), name));
                black_box((c, r))
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("b_fuzzy_1char", |b| {
        b.iter_batched(
            || warm(&snap),
            |mut c| {
                let r = c.view(&snap, &spec(&one, name));
                black_box((c, r))
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("b_fuzzy_1char_new_rev", |b| {
        b.iter_batched(
            fresh,
            |mut c| {
                let r = c.view(&snap, &spec(&one, name));
                black_box((c, r))
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("c_fuzzy_5char_last_key", |b| {
        let typed_first = || {
            let mut c = warm(&snap);
            for t in &typed {
                c.view(&snap, &spec(t, name));
            }
            c
        };
        b.iter_batched(
            typed_first,
            |mut c| {
                let r = c.view(&snap, &spec(&five, name));
                black_box((c, r))
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("c_fuzzy_5char_full_scan", |b| {
        b.iter_batched(
            || warm(&snap),
            |mut c| {
                let r = c.view(&snap, &spec(&five, name));
                black_box((c, r))
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("d_sort_age", |b| {
        b.iter_batched(
            fresh,
            |mut c| {
                let r = c.view(&snap, &spec(&Query::default(), age));
                black_box((c, r))
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("e_selector_app_web3", |b| {
        b.iter_batched(
            fresh,
            |mut c| {
                let r = c.view(&snap, &spec(&selector, name));
                black_box((c, r))
            },
            BatchSize::PerIteration,
        )
    });
    // The list changes underneath an active filter: 1% of rows modified (new `Arc`s), the
    // rest shared with the previous snapshot, as the store publishes them.
    let mut next = snap.clone();
    next.rows = snap
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            if i % 100 == 7 {
                Arc::new((**r).clone())
            } else {
                r.clone()
            }
        })
        .collect();
    next.rev = snap.rev + 1;
    g.bench_function("g_fuzzy_1char_next_rev_1pct_churn", |b| {
        let filtered = || {
            let mut c = ViewCache::new();
            c.view(&snap, &spec(&one, name));
            c
        };
        b.iter_batched(
            filtered,
            |mut c| {
                let r = c.view(&next, &spec(&one, name));
                black_box((c, r))
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("f_memo_hit", |b| {
        let mut c = warm(&snap);
        c.view(&snap, &spec(&one, name));
        b.iter(|| black_box(c.view(&snap, &spec(&one, name))))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
