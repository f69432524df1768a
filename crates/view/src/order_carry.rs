//! Carrying a sort [`Order`] over to the next snapshot: the previous order with the rows that
//! left dropped and the new or changed ones inserted by binary search, instead of sorting
//! every row again. Owns that update and when it pays; must not filter, cache or do I/O.

use ktui_kube::rows::Rows;
use std::cmp::Ordering;

use super::order::{cmp_rows, idx32, Order, SortBy};

/// "No old row" in a new→old row map.
const NONE: u32 = u32::MAX;

impl Order {
    /// The order of `rows` by `by`, derived from `old` (the same `by` over the previous
    /// snapshot of `old_len` rows) and `remap` (for each row of `rows`, the index of the
    /// identical row in the previous snapshot, or `u32::MAX`). Equal to [`Order::build`]
    /// when rows shared with the previous snapshot keep their relative order (true for
    /// informer snapshots, which are ordered by key). Costs `O(k log n)` comparisons for `k`
    /// new or changed rows plus one `O(n)` pass over plain indices; `None` when more than
    /// about an eighth of the rows changed (a full sort is then as cheap) or `old` has no
    /// tables (`SortBy::Name`).
    pub(crate) fn carried(
        old: &Order,
        old_len: usize,
        remap: &[u32],
        rows: &Rows,
        by: SortBy,
    ) -> Option<Order> {
        if by == SortBy::Name || old.perm.len() != old_len || remap.len() != rows.len() {
            return None;
        }
        let mut old_to_new = vec![NONE; old_len];
        let mut fresh = Vec::new();
        for (i, &j) in remap.iter().enumerate() {
            match old_to_new.get_mut(j as usize) {
                Some(slot) => *slot = idx32(i),
                None => fresh.push(idx32(i)),
            }
        }
        if fresh.len() > rows.len() / 8 + 64 {
            return None;
        }
        let cmp = |a: u32, b: u32| cmp_rows(by, &rows[a as usize], &rows[b as usize]).then(a.cmp(&b));
        let kept: Vec<u32> = old
            .perm
            .iter()
            .filter_map(|&j| old_to_new.get(j as usize).copied().filter(|&i| i != NONE))
            .collect();
        fresh.sort_unstable_by(|&a, &b| cmp(a, b));
        let mut perm = Vec::with_capacity(rows.len());
        let mut from = 0;
        for &f in &fresh {
            let at = from + kept[from..].partition_point(|&k| cmp(k, f) == Ordering::Less);
            perm.extend_from_slice(&kept[from..at]);
            perm.push(f);
            from = at;
        }
        perm.extend_from_slice(&kept[from..]);
        let mut rank = vec![0u32; perm.len()];
        for (pos, &i) in perm.iter().enumerate() {
            rank[i as usize] = idx32(pos);
        }
        Some(Order { perm, rank })
    }
}
