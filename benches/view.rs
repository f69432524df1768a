//! Per-keystroke cost of `ktui::view` over 100,000 realistic pod rows (50 namespaces,
//! `<app>-<hash10>-<hash5>` names, interned labels, the 8 pod cells of `table::pod`).
//! Run: `cargo bench --bench view` (criterion; medians land in
//! `target/criterion/view/*/new/estimates.json`), or `VIEW_CPU=1 cargo bench --bench view`
//! for a quick table of median wall and process-CPU milliseconds.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test and measuring code may panic

use std::collections::HashMap;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, BatchSize, Criterion};
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::key::ResourceKey;
use ktui::kube::row::{Cell, Health, Row};
use ktui::kube::store::Snapshot;
use ktui::kube::sync::SyncState;
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
                capacity: None,
                uses: None,
                origin: 0,
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
                owner: None,
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
        within: None,
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

/// One measured keystroke: a cache prepared by `setup` (not timed), then one `view` call.
struct Scenario<'a> {
    name: &'static str,
    setup: Box<dyn Fn() -> ViewCache + 'a>,
    snap: &'a Snapshot,
    query: Query,
    sort: Sort,
}

impl Scenario<'_> {
    fn run(&self, mut cache: ViewCache) -> ViewCache {
        black_box(cache.view(self.snap, &spec(&self.query, self.sort)));
        cache
    }
}

/// The scenarios: (a) unfiltered name order, (b) a 1-char query, (c) a 5-char query's last
/// keystroke after typing it (narrowing) and without narrowing, (d) age sort, (e) a label
/// selector, (f) a memoised answer, (g) a 1-char query on the next revision after 1% churn,
/// (h)–(j) fzf extended terms: an exact substring, a prefix group with a suffix, a regex,
/// (k) the age sort on the next revision after 1% churn (the order carried over, not rebuilt).
fn scenarios<'a>(snap: &'a Snapshot, next: &'a Snapshot) -> Vec<Scenario<'a>> {
    let name = Sort::default();
    let age = Sort {
        by: SortBy::Age,
        reverse: false,
    };
    let typed = move |c: &mut ViewCache| {
        for t in ["w", "we", "web", "web3"] {
            c.view(snap, &spec(&q(t), name));
        }
    };
    let one = move || {
        let mut c = ViewCache::new();
        c.view(snap, &spec(&q("a"), name));
        c
    };
    let sc =
        |name: &'static str, setup: Box<dyn Fn() -> ViewCache + 'a>, s: &'a Snapshot, query: &str, sort| {
            Scenario {
                name,
                setup,
                snap: s,
                query: q(query),
                sort,
            }
        };
    vec![
        sc("a_unfiltered_name", Box::new(ViewCache::new), snap, "", name),
        sc("b_fuzzy_1char", Box::new(move || warm(snap)), snap, "a", name),
        sc("b_fuzzy_1char_new_rev", Box::new(ViewCache::new), snap, "a", name),
        sc(
            "c_fuzzy_5char_last_key",
            Box::new(move || {
                let mut c = warm(snap);
                typed(&mut c);
                c
            }),
            snap,
            "web3k",
            name,
        ),
        sc(
            "c_fuzzy_5char_full_scan",
            Box::new(move || warm(snap)),
            snap,
            "web3k",
            name,
        ),
        sc("d_sort_age", Box::new(ViewCache::new), snap, "", age),
        sc(
            "e_selector_app_web3",
            Box::new(ViewCache::new),
            snap,
            "-l app=web-3",
            name,
        ),
        sc("f_memo_hit", Box::new(one), snap, "a", name),
        sc(
            "g_fuzzy_1char_next_rev_1pct_churn",
            Box::new(one),
            next,
            "a",
            name,
        ),
        sc(
            "k_sort_age_next_rev_1pct_churn",
            Box::new(move || {
                let mut c = ViewCache::new();
                c.view(snap, &spec(&q(""), age));
                c
            }),
            next,
            "",
            age,
        ),
        sc(
            "h_exact_substring",
            Box::new(move || warm(snap)),
            snap,
            "'web-3",
            name,
        ),
        sc(
            "i_prefix_or_suffix_group",
            Box::new(move || warm(snap)),
            snap,
            "^catalog-prod/web | ^ads-dev/api 7$",
            name,
        ),
        sc(
            "j_regex",
            Box::new(move || warm(snap)),
            snap,
            "re:web-[0-3]-.*k",
            name,
        ),
    ]
}

/// `snap` after 1% of its rows were modified (new `Arc`s); the rest shared, as the store
/// publishes them.
fn churned(snap: &Snapshot) -> Snapshot {
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
    next
}

fn bench(c: &mut Criterion) {
    let snap = pods();
    let next = churned(&snap);
    let mut g = c.benchmark_group("view");
    g.sample_size(30).measurement_time(Duration::from_secs(4));
    for s in scenarios(&snap, &next) {
        g.bench_function(s.name, |b| {
            b.iter_batched(&s.setup, |c| s.run(c), BatchSize::PerIteration)
        });
    }
    g.finish();
}

/// Process CPU time (all threads) in milliseconds.
fn cpu_ms() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` only writes the `timespec` we pass, which outlives the call.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return f64::NAN;
    }
    ts.tv_sec as f64 * 1e3 + ts.tv_nsec as f64 * 1e-6
}

/// `VIEW_CPU=1 cargo bench --bench view`: median wall and process-CPU milliseconds per
/// scenario over 21 runs. CPU time counts the work on all threads; on a busy machine wall
/// time mostly measures waiting for a core.
fn cpu_table() {
    let snap = pods();
    let next = churned(&snap);
    println!(
        "{:<36} {:>9} {:>9}",
        "scenario (100k rows, median of 21)", "wall ms", "cpu ms"
    );
    for s in scenarios(&snap, &next) {
        let (mut wall, mut cpu) = (Vec::new(), Vec::new());
        for _ in 0..21 {
            let cache = (s.setup)();
            let (c0, w0) = (cpu_ms(), std::time::Instant::now());
            let done = s.run(cache);
            wall.push(w0.elapsed().as_secs_f64() * 1e3);
            cpu.push(cpu_ms() - c0);
            drop(done);
        }
        wall.sort_by(f64::total_cmp);
        cpu.sort_by(f64::total_cmp);
        println!("{:<36} {:>9.2} {:>9.2}", s.name, wall[10], cpu[10]);
    }
}

criterion_group!(benches, bench);

fn main() {
    if std::env::var_os("VIEW_CPU").is_some() {
        cpu_table();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
