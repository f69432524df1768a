//! The convergence harness shared by the fault suites — `tests/scenarios/fault_suite.rs`
//! (the demo server's fault injector) and `tests/real/fault_cycles.rs` (a real
//! kube-apiserver + etcd): ktui's informer started as the app starts one (`Informer::run`
//! into a `StoreWriter`), its store read back as rows keyed by (namespace, name), compared
//! with the server's truth (lost objects, ghosts, stale rows), and the per-fault-kind tally
//! printed as one table (fault kind × cycles × lost × ghosts × time to detect × time to
//! repair). Must not know which server it runs against nor how the truth was fetched.
//!
//! Declared by each test binary that uses it: `#[path = "../support/convergence.rs"] mod
//! convergence;` in tests/scenarios/main.rs and tests/real/main.rs.
#![allow(dead_code)] // each binary uses part of it

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use ktui::kube::informer::{Informer, InformerConfig};
use ktui::kube::key::ResourceKey;
use ktui::kube::row::{IntoRow, Row};
use ktui::kube::stats::InformerStats;
use ktui::kube::store::{Slot, StoreWriter};

/// An object's identity in a store: (`metadata.namespace` or "", `metadata.name`).
pub type Key = (String, String);

/// The key of a row.
pub fn key(r: &Row) -> Key {
    (
        r.namespace.as_deref().unwrap_or("").to_owned(),
        r.name.to_string(),
    )
}

/// Rows keyed by (namespace, name), e.g. the server's truth decoded as ktui would row it.
pub fn keyed(rows: impl IntoIterator<Item = Row>) -> BTreeMap<Key, Row> {
    rows.into_iter().map(|r| (key(&r), r)).collect()
}

/// What the informer's store holds now.
pub fn seen(slot: &Slot) -> BTreeMap<Key, Row> {
    slot.peek().rows.iter().map(|r| (key(r), Row::clone(r))).collect()
}

/// (lost, ghosts): objects of `want` missing from `got`, objects of `got` not in `want`.
pub fn lost_and_ghosts(want: &BTreeMap<Key, Row>, got: &BTreeMap<Key, Row>) -> (usize, usize) {
    let lost = want.keys().filter(|k| !got.contains_key(*k)).count();
    let ghosts = got.keys().filter(|k| !want.contains_key(*k)).count();
    (lost, ghosts)
}

/// A readable difference (lost, ghosts, stale rows), for assertion messages.
pub fn diff(want: &BTreeMap<Key, Row>, got: &BTreeMap<Key, Row>) -> String {
    let lost: Vec<_> = want.keys().filter(|k| !got.contains_key(*k)).collect();
    let ghosts: Vec<_> = got.keys().filter(|k| !want.contains_key(*k)).collect();
    let stale: Vec<_> = want
        .iter()
        .filter(|(k, r)| got.get(*k).is_some_and(|g| g != *r))
        .map(|(k, _)| k)
        .collect();
    format!("lost {lost:?}\nghosts {ghosts:?}\nstale {stale:?}")
}

/// ktui's informer of `key` over `client`, decoding objects as `T` into a fresh slot; its
/// task runs until aborted.
pub fn informer<T: IntoRow>(
    key: ResourceKey,
    client: kube::Client,
    config: InformerConfig,
) -> (Arc<Slot>, Arc<InformerStats>, tokio::task::JoinHandle<()>) {
    let slot = Slot::new(key.clone(), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    // The receiver must outlive the informer; the notifications are not needed here.
    std::mem::forget(rx);
    let stats = Arc::new(InformerStats::default());
    let informer = Informer::new(key, client, stats.clone(), config);
    let writer = StoreWriter::new(slot.clone(), tx);
    (slot, stats, tokio::spawn(informer.run::<T, _>(writer)))
}

/// What the informer has shown so far: any change means it noticed something.
#[derive(Debug, PartialEq, Eq)]
pub struct Noticed {
    pub lists: u64,
    pub reconnects: u64,
    pub drift: u64,
    pub live: bool,
    pub unreadable: Option<Arc<String>>,
}

/// The informer's counters and state now.
pub fn noticed(slot: &Slot, stats: &InformerStats) -> Noticed {
    Noticed {
        lists: stats.lists.load(Ordering::Relaxed),
        reconnects: stats.reconnects.load(Ordering::Relaxed),
        drift: stats.drift_repairs.load(Ordering::Relaxed),
        live: slot.peek().state.is_live(),
        unreadable: slot.unreadable(),
    }
}

/// One fault kind's results: cycles run, objects lost and ghosts left by the cycles that
/// gave up, and the detect / repair times of the cycles that got there.
#[derive(Default)]
pub struct Tally {
    pub cycles: u64,
    pub lost: usize,
    pub ghosts: usize,
    pub detect: Vec<Duration>,
    pub repair: Vec<Duration>,
}

impl Tally {
    /// Whether every cycle was detected and repaired with nothing lost and no ghost.
    pub fn clean(&self) -> bool {
        self.lost + self.ghosts == 0
            && self.repair.len() as u64 == self.cycles
            && self.detect.len() as u64 == self.cycles
    }
}

/// The `p` quantile (0..=1, nearest rank) of `v`, formatted; "-" when empty.
pub fn pct(v: &mut [Duration], p: f64) -> String {
    if v.is_empty() {
        return "-".into();
    }
    v.sort();
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    format!("{:.0?}", v[i])
}

fn spread(v: &mut [Duration]) -> String {
    format!("{} / {} / {}", pct(v, 0.5), pct(v, 0.99), pct(v, 1.0))
}

/// Prints the table (after `title`) to stderr, one row per `(fault kind, tally)`; returns
/// the kinds that were not detected and repaired cleanly every cycle.
pub fn print_table<'a>(title: &str, rows: impl IntoIterator<Item = (&'a str, &'a mut Tally)>) -> Vec<String> {
    eprintln!("{title}");
    eprintln!(
        "{:<30} {:>6} {:>5} {:>6} {:>24} {:>24}",
        "fault kind", "cycles", "lost", "ghosts", "time to detect", "time to repair"
    );
    let mut failures = Vec::new();
    for (name, t) in rows {
        eprintln!(
            "{:<30} {:>6} {:>5} {:>6} {:>24} {:>24}",
            name,
            t.cycles,
            t.lost,
            t.ghosts,
            spread(&mut t.detect),
            spread(&mut t.repair)
        );
        if !t.clean() {
            failures.push(name.to_owned());
        }
    }
    failures
}

/// Prints the informer's counters (lists, reconnects, probes, drift repairs) to stderr.
pub fn print_stats(s: &InformerStats) {
    eprintln!(
        "informer: lists {}, reconnects {}, probes {}, drift repairs {}",
        s.lists.load(Ordering::Relaxed),
        s.reconnects.load(Ordering::Relaxed),
        s.probes.load(Ordering::Relaxed),
        s.drift_repairs.load(Ordering::Relaxed)
    );
}
