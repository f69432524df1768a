//! Unit tests of [`Rows`] (crates/kube/src/rows.rs): every accessor equals the same operation on a
//! flat vector, over random chunkings.

use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::row::{Health, Row};

fn row(i: usize) -> Arc<Row> {
    Arc::new(Row {
        capacity: None,
        uses: None,
        origin: 0,
        namespace: Some(Arc::from(format!("ns-{}", i / 100).as_str())),
        name: format!("r-{i:06}").into(),
        uid: Box::from(""),
        created: None,
        labels: Arc::from(Vec::new()),
        cells: Vec::new().into(),
        health: Health::Ok,
        drill: None,
        event: None,
        owner: None,
    })
}

/// `flat` cut into chunks of random sizes (1 to 3 × CHUNK), some empty ones included.
fn random_chunks(rng: &mut StdRng, flat: &[Arc<Row>]) -> Vec<Chunk> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < flat.len() {
        let len = match rng.random_range(0..4) {
            0 => 0,
            1 => rng.random_range(1..8),
            _ => rng.random_range(1..3 * CHUNK),
        };
        let end = (at + len).min(flat.len());
        out.push(Chunk::from(&flat[at..end]));
        at = end;
    }
    out
}

fn same(a: &Arc<Row>, b: &Arc<Row>) -> bool {
    Arc::ptr_eq(a, b)
}

#[test]
fn accessors_equal_a_flat_vector_over_random_chunkings() {
    let mut rng = StdRng::seed_from_u64(0x005e_ed14);
    for round in 0..60 {
        let n = match round % 4 {
            0 => rng.random_range(0..10),
            1 => rng.random_range(0..2 * CHUNK),
            _ => rng.random_range(0..12 * CHUNK),
        };
        let flat: Vec<Arc<Row>> = (0..n).map(row).collect();
        let rows = if round % 3 == 0 {
            Rows::from(flat.clone())
        } else {
            Rows::from_chunks(random_chunks(&mut rng, &flat))
        };
        assert_eq!(rows.len(), n);
        assert_eq!(rows.is_empty(), n == 0);
        assert!(rows.chunks().iter().all(|c| !c.is_empty()));
        assert_eq!(rows.iter().len(), n);
        assert!(rows.iter().zip(&flat).all(|(a, b)| same(a, b)));
        assert_eq!(rows.iter().count(), n);
        assert!(rows.first().zip(flat.first()).is_none_or(|(a, b)| same(a, b)));
        for i in 0..n + 3 {
            match (rows.get(i), flat.get(i)) {
                (Some(a), Some(b)) => assert!(same(a, b), "row {i} of {n}"),
                (None, None) => {}
                (a, b) => panic!("row {i} of {n}: {} vs {}", a.is_some(), b.is_some()),
            }
            if let Some(c) = rows.chunk_of(i) {
                let start = rows.chunk_start(c);
                assert!(start <= i && i < start + rows.chunks()[c].len());
            }
        }
        for _ in 0..20 {
            let a = rng.random_range(0..n + 2);
            let b = rng.random_range(0..n + 2);
            let got: Vec<usize> = rows
                .range(a..b)
                .map(|(i, r)| {
                    assert!(same(r, &flat[i]));
                    i
                })
                .collect();
            let want: Vec<usize> = (a..b.min(n)).collect();
            assert_eq!(got, want, "range {a}..{b} of {n}");
            // Binary search by key, as namespaces are found.
            let probe = format!("r-{:06}", a);
            let want = flat.partition_point(|r| *r.name < *probe);
            assert_eq!(rows.partition_point(|r| *r.name < *probe), want);
            let probe = format!("r-{:06}", a / 2 * 2 + 1);
            let cmp = |r: &Arc<Row>| {
                if a % 3 == 0 {
                    r.name.cmp(&probe.clone().into())
                } else {
                    (*r.name).cmp(&*format!("{probe}x"))
                }
            };
            assert_eq!(rows.binary_search_by(cmp), flat.binary_search_by(cmp), "{probe}");
        }
        let collected: Rows = flat.iter().cloned().collect();
        assert!(collected.iter().zip(&flat).all(|(a, b)| same(a, b)));
        assert_eq!(rows.to_vec().len(), n);
    }
}

#[test]
fn cut_makes_chunks_within_the_bounds() {
    for n in [0, 1, MIN, CHUNK, MAX, MAX + 1, 5 * CHUNK + 3, 100_000] {
        let rows = Rows::from((0..n).map(row).collect::<Vec<_>>());
        assert_eq!(rows.len(), n);
        if rows.chunks().len() > 1 {
            assert!(
                rows.chunks().iter().all(|c| (MIN..=MAX).contains(&c.len())),
                "{n}"
            );
        }
    }
}

#[test]
fn clones_are_the_same_allocation() {
    let a = Rows::from((0..10).map(row).collect::<Vec<_>>());
    let b = a.clone();
    assert!(Rows::ptr_eq(&a, &b));
    assert_eq!(a.id(), b.id());
    let c = Rows::from(a.to_vec());
    assert!(!Rows::ptr_eq(&a, &c));
}
