//! Sort orders of a snapshot's rows: by name (the snapshot's own order), by age, or by one
//! column's value, as a rank per row computed once per snapshot revision. Owns comparison
//! rules; must not filter, draw or do I/O.

use std::cmp::Reverse;

use ktui_kube::row::{Cell, Row};
use ktui_kube::rows::Rows;

use super::compute::Scope;

/// What rows are ordered by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SortBy {
    /// Snapshot order: namespace, then name (ascending). While a fuzzy term is active, rows
    /// are ranked by match score instead and this order only breaks ties — the fzf-like
    /// "best match first" people expect from a fuzzy prompt.
    #[default]
    Name,
    /// `Row::created`, newest first; rows without a creation time count as oldest. An active
    /// fuzzy term filters and highlights but does not re-rank: a column sort the user chose
    /// (k9s `shift-A`) keeps holding while they type.
    Age,
    /// The value of `Row::cells[i]` (e.g. the kind's STATUS column), ascending: text cells by
    /// their text (byte order), numeric cells (`Int`, `Age`, `Restarts`, `Span`) by number;
    /// a missing cell sorts first. Like `Age`, not re-ranked by a fuzzy term.
    Column(usize),
}

/// A sort order and its direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Sort {
    /// The key.
    pub by: SortBy,
    /// Flips the whole order (ties included), so a reversed list is exactly the normal list
    /// backwards. For a fuzzy-ranked view only the tie order flips: best match stays first.
    pub reverse: bool,
}

/// A cell reduced to what it sorts by, independent of the clock.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum CellKey<'a> {
    Missing,
    Num(i64),
    Text(&'a str),
}

fn cell_key(cell: Option<&Cell>) -> CellKey<'_> {
    match cell {
        None => CellKey::Missing,
        Some(Cell::Text(s)) => CellKey::Text(s),
        Some(Cell::Static(s)) => CellKey::Text(s),
        Some(Cell::Shared(s)) => CellKey::Text(s),
        Some(Cell::Int(n)) => CellKey::Num(*n),
        Some(Cell::Age(t)) => t.map_or(CellKey::Missing, CellKey::Num),
        Some(Cell::Restarts { count, .. }) => CellKey::Num(*count),
        Some(Cell::Span(s)) => s.start.map_or(CellKey::Missing, CellKey::Num),
    }
}

/// How rows `a` and `b` compare under `by` alone (ties are broken by the caller); the rule
/// [`Order::build`] sorts by.
pub(crate) fn cmp_rows(by: SortBy, a: &Row, b: &Row) -> std::cmp::Ordering {
    match by {
        SortBy::Name => std::cmp::Ordering::Equal,
        SortBy::Age => Reverse(a.created.unwrap_or(i64::MIN)).cmp(&Reverse(b.created.unwrap_or(i64::MIN))),
        SortBy::Column(c) => cell_key(a.cells.get(c)).cmp(&cell_key(b.cells.get(c))),
    }
}

/// A total order of one snapshot's rows for one [`SortBy`] (not reversed): `rank(i)` is the
/// position of row `i`; ties keep snapshot order. `SortBy::Name` needs no tables.
#[derive(Debug)]
pub(crate) struct Order {
    /// Row indices in order; empty for `Name`.
    pub(super) perm: Vec<u32>,
    /// Inverse of `perm`; empty for `Name`.
    pub(super) rank: Vec<u32>,
}

/// Index of a row as `u32` (snapshots stay far below 4 billion rows).
pub(crate) fn idx32(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

impl Order {
    /// Computes the order of `rows` by `by` with a stable sort (ties keep snapshot order).
    pub(crate) fn build(rows: &Rows, by: SortBy) -> Order {
        let mut perm: Vec<u32> = (0..rows.len()).map(idx32).collect();
        match by {
            SortBy::Name => {
                return Order {
                    perm: Vec::new(),
                    rank: Vec::new(),
                }
            }
            SortBy::Age => {
                let keys: Vec<Reverse<i64>> = rows
                    .iter()
                    .map(|r| Reverse(r.created.unwrap_or(i64::MIN)))
                    .collect();
                perm.sort_by_key(|&i| keys[i as usize]);
            }
            SortBy::Column(c) => {
                let keys: Vec<CellKey<'_>> = rows.iter().map(|r| cell_key(r.cells.get(c))).collect();
                perm.sort_by(|&a, &b| keys[a as usize].cmp(&keys[b as usize]));
            }
        }
        let mut rank = vec![0u32; rows.len()];
        for (pos, &i) in perm.iter().enumerate() {
            rank[i as usize] = idx32(pos);
        }
        Order { perm, rank }
    }

    /// Position of row `i` in this order.
    pub(crate) fn rank(&self, i: u32) -> u32 {
        if self.rank.is_empty() {
            i
        } else {
            self.rank[i as usize]
        }
    }

    /// The row at position `rank` (inverse of [`Order::rank`]).
    pub(crate) fn at(&self, rank: u32) -> u32 {
        if self.perm.is_empty() {
            rank
        } else {
            self.perm[rank as usize]
        }
    }

    /// Row indices in this order, restricted to `scope`, then reversed if asked.
    pub(crate) fn all_in(&self, scope: &Scope, reverse: bool) -> Vec<u32> {
        let mut out: Vec<u32> = if self.perm.is_empty() {
            scope.indices().into_owned()
        } else {
            self.perm.iter().copied().filter(|&i| scope.contains(i)).collect()
        };
        if reverse {
            out.reverse();
        }
        out
    }
}
