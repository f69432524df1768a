//! Property tests of the incremental paths against the full rebuild as the oracle: random
//! change sequences (deletes, modifications that move rows in every sort, additions, in
//! bursts small and large), after each of which the carried sort orders equal
//! `Order::build` and a long-lived `ViewCache` (carrying names, verdicts and orders over)
//! answers exactly what a fresh cache computes from scratch.

use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::super::order::Order;
use super::*;

/// The next revision: `k` random changes applied to `s`, rows kept in key order and shared
/// by `Arc` where unchanged, as the store publishes them.
fn step(s: &Snapshot, rng: &mut StdRng, k: usize, fresh: &mut u64) -> Snapshot {
    let statuses = ["Running", "Pending", "CrashLoopBackOff", "Error"];
    let mut rows: Vec<Arc<Row>> = s.rows.to_vec();
    for _ in 0..k {
        match rng.random_range(0..3) {
            0 if !rows.is_empty() => {
                rows.remove(rng.random_range(0..rows.len()));
            }
            1 if !rows.is_empty() => {
                let i = rng.random_range(0..rows.len());
                let mut m = (*rows[i]).clone();
                m.created = rng.random_bool(0.8).then(|| rng.random_range(0..60));
                let status = statuses[rng.random_range(0..statuses.len())];
                m.cells = vec![
                    Cell::Static("1/1"),
                    Cell::Static(status),
                    Cell::Int(rng.random_range(0..4)),
                ]
                .into();
                rows[i] = Arc::new(m);
            }
            _ => {
                *fresh += 1;
                let extra = pods(1, *fresh);
                rows.push(extra.rows[0].clone());
            }
        }
    }
    rows.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
    rows.dedup_by(|a, b| (&a.namespace, &a.name) == (&b.namespace, &b.name));
    let mut next = s.clone();
    next.rows = rows.into();
    next.rev = s.rev + 1;
    next
}

/// For each row of `new`, the index of the same `Arc` in `old`, else `u32::MAX`.
fn remap(old: &ktui_kube::rows::Rows, new: &ktui_kube::rows::Rows) -> Vec<u32> {
    new.iter()
        .map(|r| {
            old.iter()
                .position(|o| Arc::ptr_eq(o, r))
                .map_or(u32::MAX, |j| j as u32)
        })
        .collect()
}

const SORTS: [SortBy; 3] = [SortBy::Age, SortBy::Column(1), SortBy::Column(2)];

#[test]
fn carried_orders_equal_a_full_sort_over_random_change_sequences() {
    for seed in 0..12u64 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut fresh = 10_000 * (seed + 1);
        let mut s = pods(rng.random_range(0..600), seed + 1);
        let mut orders: Vec<Order> = SORTS.iter().map(|&by| Order::build(&s.rows, by)).collect();
        for round in 0..25 {
            let k = if rng.random_bool(0.2) {
                rng.random_range(0..400)
            } else {
                rng.random_range(0..8)
            };
            let next = step(&s, &mut rng, k, &mut fresh);
            let map = remap(&s.rows, &next.rows);
            for (o, &by) in orders.iter_mut().zip(&SORTS) {
                let full = Order::build(&next.rows, by);
                match Order::carried(o, s.rows.len(), &map, &next.rows, by) {
                    Some(c) => {
                        assert_eq!(
                            (&c.perm, &c.rank),
                            (&full.perm, &full.rank),
                            "seed {seed} round {round} k {k} {by:?}"
                        );
                        *o = c;
                    }
                    None => *o = full,
                }
            }
            s = next;
        }
    }
}

#[test]
fn a_long_lived_cache_equals_a_fresh_one_over_random_change_sequences() {
    let texts = ["", "web", "-l app=web-3", "!api", "pay 2"];
    for seed in 0..6u64 {
        let mut rng = StdRng::seed_from_u64(100 + seed);
        let mut fresh = 50_000 * (seed + 1);
        let mut s = pods(rng.random_range(100..900), seed + 7);
        let mut live = ViewCache::new();
        for round in 0..15 {
            for by in [SortBy::Name, SortBy::Age, SortBy::Column(1)] {
                for reverse in [false, true] {
                    for ns in [None, Some("prod")] {
                        for text in texts {
                            let query = q(text);
                            let sp = spec(&query, Sort { by, reverse }, ns, true);
                            let got = live.view(&s, &sp);
                            let want = ViewCache::new().view(&s, &sp);
                            assert_eq!(
                                (&got.rows, got.total, got.matched),
                                (&want.rows, want.total, want.matched),
                                "seed {seed} round {round} {by:?} {reverse} {ns:?} {text:?}"
                            );
                        }
                    }
                }
            }
            let k = if rng.random_bool(0.2) {
                rng.random_range(0..300)
            } else {
                rng.random_range(0..6)
            };
            s = step(&s, &mut rng, k, &mut fresh);
        }
    }
}
