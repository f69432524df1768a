//! The view over snapshots published by the real store writer, whose chunks are shared by
//! pointer with the previous snapshot: a long-lived cache typing on while changes arrive
//! (names copied in runs, old→new maps by chunk, narrowing across snapshots) answers what a
//! fresh cache computes from scratch.

use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::sync::mpsc::unbounded_channel;

use super::*;
use ktui_kube::store::{obj_key, Slot, StoreWriter};

#[test]
fn typing_while_the_store_publishes_equals_a_fresh_cache() {
    let words = [
        "p",
        "pa",
        "pay",
        "pay 2",
        "w",
        "we",
        "web",
        "web -l app=web-3",
        "!api",
    ];
    for seed in 0..4u64 {
        let mut rng = StdRng::seed_from_u64(700 + seed);
        let base = pods(3_000 + 500 * seed as usize, seed + 3);
        let slot = Slot::new(base.key.clone(), 1);
        let (tx, _rx) = unbounded_channel();
        let mut w = StoreWriter::new(slot.clone(), tx);
        w.init();
        for r in base.rows.iter() {
            w.init_apply((**r).clone());
        }
        w.init_done(None);
        let mut extra = pods(400, seed + 90).rows.to_vec().into_iter();
        let mut live = ViewCache::new();
        for round in 0..40 {
            let s = slot.peek();
            // The query of the last round again (its verdicts carry over), then the next.
            let typed = [
                words[(round + words.len() - 1) % words.len()],
                words[round % words.len()],
            ];
            for (word, ns) in typed.iter().flat_map(|w| [(*w, None), (*w, Some("prod"))]) {
                for by in [SortBy::Name, SortBy::Age] {
                    let query = q(word);
                    let sp = spec(&query, Sort { by, reverse: false }, ns, true);
                    let got = live.view(&s, &sp);
                    let want = ViewCache::new().view(&s, &sp);
                    assert_eq!(
                        (&got.rows, got.total, got.matched),
                        (&want.rows, want.total, want.matched),
                        "seed {seed} round {round} {by:?} {ns:?} {word:?}"
                    );
                }
            }
            // A few changes: modifications, deletions, additions.
            let rows = s.rows.to_vec();
            for _ in 0..rng.random_range(1..12) {
                let r = &rows[rng.random_range(0..rows.len())];
                match rng.random_range(0..3) {
                    0 => w.delete(&obj_key(r)),
                    1 => {
                        let mut m = (**r).clone();
                        m.created = Some(rng.random_range(0..60));
                        w.apply(m);
                    }
                    _ => {
                        if let Some(e) = extra.next() {
                            w.apply((*e).clone());
                        }
                    }
                }
            }
            w.publish();
            let next = slot.peek();
            let shared = next
                .rows
                .chunks()
                .iter()
                .filter(|c| s.rows.chunks().iter().any(|o| Arc::ptr_eq(o, c)))
                .count();
            assert!(shared > 0, "the store shares chunks between publications");
        }
        assert!(
            live.stats().narrowed > 0 && live.stats().carried > 0,
            "{:?}",
            live.stats()
        );
    }
}

#[test]
fn carried_column_texts_equal_fresh_ones_while_the_store_publishes() {
    use crate::col_terms::Target;
    use crate::col_text::{ColText, ColTexts};
    let mut rng = StdRng::seed_from_u64(77);
    let base = pods(4_000, 5);
    let slot = Slot::new(base.key.clone(), 1);
    let (tx, _rx) = unbounded_channel();
    let mut w = StoreWriter::new(slot.clone(), tx);
    w.init();
    for r in base.rows.iter() {
        w.init_apply((**r).clone());
    }
    w.init_done(None);
    let targets = [Target::Cell(1), Target::Name, Target::Cell(9)];
    let mut texts = ColTexts::default();
    for round in 0..30 {
        let s = slot.peek();
        // Now and then a snapshot nobody reads texts of: carrying skips it.
        if round % 4 != 3 {
            let got = texts.get(&s, &targets);
            for (t, g) in targets.iter().zip(&got) {
                let want = ColText::build(&s.rows, *t);
                for i in 0..s.rows.len() + 1 {
                    assert_eq!(g.get(i), want.get(i), "round {round} {t:?} row {i}");
                }
            }
        }
        let rows = s.rows.to_vec();
        for _ in 0..rng.random_range(1..20) {
            let r = &rows[rng.random_range(0..rows.len())];
            if rng.random_bool(0.3) {
                w.delete(&obj_key(r));
            } else {
                let mut m = (**r).clone();
                let status = ["Running", "Pending", "Error"][rng.random_range(0..3)];
                m.cells = vec![Cell::Static("1/1"), Cell::Static(status)].into();
                w.apply(m);
            }
        }
        w.publish();
    }
}
