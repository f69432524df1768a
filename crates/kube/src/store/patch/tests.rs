//! Unit tests of incremental publication (crates/kube/src/store/patch.rs): published rows always
//! equal the store's objects in key order, chunks stay within their bounds through splits and
//! merges, and chunks without a change are shared by pointer with the previous snapshot.

use std::collections::BTreeMap;
use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::sync::mpsc::unbounded_channel;

use crate::builtin::BuiltinKind;
use crate::key::ResourceKey;
use crate::row::{Cell, Health, Row};
use crate::rows::{Rows, MAX, MIN};
use crate::store::{obj_key, ObjKey, Slot, StoreChanged, StoreWriter};

fn row(i: u32, v: i64) -> Row {
    Row {
        capacity: None,
        uses: None,
        origin: 0,
        namespace: Some(Arc::from(format!("ns-{}", i % 7).as_str())),
        name: format!("pod-{i:07}").into(),
        uid: format!("uid-{i}").into(),
        created: Some(0),
        labels: Arc::from(Vec::new()),
        cells: vec![Cell::Int(v)].into(),
        health: Health::Ok,
        drill: None,
        event: None,
        owner: None,
    }
}

fn listed(
    n: u32,
) -> (
    Arc<Slot>,
    StoreWriter,
    tokio::sync::mpsc::UnboundedReceiver<StoreChanged>,
) {
    let slot = Slot::new(ResourceKey::new(BuiltinKind::Pod, None), 1);
    let (tx, rx) = unbounded_channel();
    let mut w = StoreWriter::new(slot.clone(), tx);
    w.init();
    for i in 0..n {
        w.init_apply(row(i, 0));
    }
    w.init_done(Some("1".into()));
    (slot, w, rx)
}

fn check(rows: &Rows, model: &BTreeMap<ObjKey, i64>) {
    assert_eq!(rows.len(), model.len());
    for (r, (k, v)) in rows.iter().zip(model) {
        assert_eq!(&obj_key(r), k);
        assert_eq!(r.cells.first(), Some(&Cell::Int(*v)), "{k:?}");
    }
    if rows.chunks().len() > 1 {
        let lens: Vec<usize> = rows.chunks().iter().map(|c| c.len()).collect();
        assert!(
            lens.iter().all(|l| (MIN..=MAX).contains(l)),
            "chunk sizes {lens:?}"
        );
    }
}

#[test]
fn random_edits_publish_the_objects_in_key_order() {
    let mut rng = StdRng::seed_from_u64(14);
    let n = 5_000;
    let (slot, mut w, _rx) = listed(n);
    let mut model: BTreeMap<ObjKey, i64> = (0..n).map(|i| (obj_key(&row(i, 0)), 0)).collect();
    check(&slot.peek().rows, &model);
    for round in 0..300i64 {
        // Mostly small bursts; now and then a run of deletions or insertions in one key range
        // (forcing merges and splits), or a burst big enough to rebuild everything.
        let (k, mode) = match round % 10 {
            0 => (400, 1),
            1 => (700, 2),
            2 if round % 50 == 2 => (3_000, 0),
            _ => (rng.random_range(1..40), 0),
        };
        let base = rng.random_range(0..2 * n);
        for j in 0..k {
            let i = match mode {
                0 => rng.random_range(0..2 * n),
                _ => base + j,
            };
            let r = row(i, round + 1);
            let key = obj_key(&r);
            if mode == 1 || (mode == 0 && rng.random_bool(0.3)) {
                w.delete(&key);
                model.remove(&key);
            } else {
                model.insert(key, round + 1);
                w.apply(r);
            }
        }
        w.publish();
        check(&slot.peek().rows, &model);
    }
}

#[test]
fn one_change_rebuilds_one_chunk_and_shares_the_others() {
    let (slot, mut w, _rx) = listed(20_000);
    let before = slot.peek().rows.clone();
    assert!(before.chunks().len() > 10);
    w.apply(row(12_345, 9));
    w.publish();
    let after = slot.peek().rows.clone();
    assert_eq!(after.chunks().len(), before.chunks().len());
    let changed: Vec<usize> = (0..after.chunks().len())
        .filter(|&c| !Arc::ptr_eq(&after.chunks()[c], &before.chunks()[c]))
        .collect();
    assert_eq!(changed.len(), 1, "chunks rebuilt: {changed:?}");
    let c = changed[0];
    assert!(after.chunks()[c].iter().any(|r| *r.name == *"pod-0012345"));

    // A deletion and an insertion elsewhere: again only the chunks they fall in.
    w.delete(&obj_key(&row(3, 0)));
    w.apply(row(30_000, 1));
    w.publish();
    let third = slot.peek().rows.clone();
    let shared = third
        .chunks()
        .iter()
        .filter(|c| after.chunks().iter().any(|o| Arc::ptr_eq(o, c)))
        .count();
    assert!(
        shared + 2 >= after.chunks().len(),
        "{shared} of {} shared",
        after.chunks().len()
    );
    assert_eq!(third.len(), 20_000);
}

#[test]
fn a_deleted_and_reapplied_row_rebuilds_only_its_chunk() {
    let (slot, mut w, _rx) = listed(3_000);
    let before = slot.peek().rows.clone();
    w.apply(row(5, 0));
    w.delete(&obj_key(&row(5, 0)));
    w.apply(row(5, 0));
    w.publish();
    let after = slot.peek().rows.clone();
    assert_eq!(after.len(), 3_000);
    let fresh = after
        .chunks()
        .iter()
        .filter(|c| !before.chunks().iter().any(|o| Arc::ptr_eq(o, c)))
        .count();
    assert_eq!(fresh, 1, "only the chunk of the re-applied row is rebuilt");
}
