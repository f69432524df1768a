//! Incremental publication: the next [`Rows`] of a store from the previous one, the store's
//! objects and the keys changed since, rebuilding only the chunks those keys fall in and
//! sharing every other chunk by `Arc`. Owns the chunk split/merge rules on update; must not
//! publish or decide when to.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::Arc;

use crate::row::Row;
use crate::rows::{even_pieces, too_big, too_small, Chunk, Rows};

use super::{obj_key, ObjKey};

/// How a row's key compares with `key`, in the store's (namespace, name) order.
fn cmp_key(row: &Row, key: &ObjKey) -> Ordering {
    (row.namespace.as_deref(), &*row.name).cmp(&(key.0.as_deref(), &*key.1))
}

/// The rows of `objects` (all of them, in key order) as chunks of the target size.
pub(super) fn full(objects: &BTreeMap<ObjKey, Arc<Row>>) -> Rows {
    Rows::from(objects.values().cloned().collect::<Vec<_>>())
}

/// The rows of `objects`, given that they equal `prev` except at the keys `changed` (sorted,
/// without duplicates; added, modified or removed). Chunk `c` of `prev` owns the keys from
/// its first row's key up to the next chunk's first row's key (the first and last chunks
/// are open-ended); each chunk owning a changed key is rebuilt from `objects`, then split
/// when it grew past twice the target size or merged into its neighbour when it shrank
/// below a quarter of it. Costs O(k log n + k·CHUNK + n / CHUNK) for k changed keys; when
/// they fall in more than half the chunks, everything is rebuilt instead (one pass).
pub(super) fn patch(prev: &Rows, objects: &BTreeMap<ObjKey, Arc<Row>>, changed: &[ObjKey]) -> Rows {
    let chunks = prev.chunks();
    if chunks.is_empty() {
        return full(objects);
    }
    // The chunk owning each changed key, ascending (the keys are sorted).
    let mut hit: Vec<usize> = changed
        .iter()
        .map(|k| {
            chunks
                .partition_point(|c| c.first().is_some_and(|r| cmp_key(r, k) != Ordering::Greater))
                .saturating_sub(1)
        })
        .collect();
    hit.dedup();
    // Rebuilding most chunks costs more than one pass over the map.
    if hit.len() * 2 > chunks.len() {
        return full(objects);
    }
    let bounds = |c: usize| {
        let lo = match c {
            0 => Bound::Unbounded,
            _ => chunks[c]
                .first()
                .map_or(Bound::Unbounded, |r| Bound::Included(obj_key(r))),
        };
        let hi = match chunks.get(c + 1).and_then(|n| n.first()) {
            Some(r) => Bound::Excluded(obj_key(r)),
            None => Bound::Unbounded,
        };
        (lo, hi)
    };
    let mut out: Vec<Chunk> = Vec::with_capacity(chunks.len() + hit.len());
    // Rows of rebuilt chunks not emitted yet: too few to stand alone, they join the next.
    let mut acc: Vec<Arc<Row>> = Vec::new();
    let mut next_hit = hit.iter().copied().peekable();
    for (c, chunk) in chunks.iter().enumerate() {
        let rebuilt = next_hit.next_if_eq(&c).is_some();
        if !rebuilt && acc.is_empty() {
            out.push(chunk.clone());
            continue;
        }
        if rebuilt {
            acc.extend(objects.range(bounds(c)).map(|(_, r)| r.clone()));
        } else {
            acc.extend(chunk.iter().cloned());
        }
        if !too_small(acc.len()) {
            emit(&mut out, std::mem::take(&mut acc));
        }
    }
    if !acc.is_empty() {
        // The tail is small: merge it into the last chunk emitted, if any.
        let mut rows = out.pop().map(|c| c.to_vec()).unwrap_or_default();
        rows.append(&mut acc);
        emit(&mut out, rows);
    }
    Rows::from_chunks(out)
}

/// Pushes `rows` as one chunk, or as nearly equal pieces of about `CHUNK` rows when too big.
fn emit(out: &mut Vec<Chunk>, rows: Vec<Arc<Row>>) {
    if rows.is_empty() {
        return;
    }
    if !too_big(rows.len()) {
        out.push(Chunk::from(rows));
        return;
    }
    out.extend(even_pieces(&rows).map(Chunk::from));
}

#[cfg(test)]
mod tests;
