//! What a list view shows of a snapshot: the `/` filter (fuzzy, `!inverse`, `-l` selectors),
//! the namespace scope and the sort, computed as row indices and memoised per snapshot
//! revision so a 100k-row table is neither re-filtered nor re-sorted per frame or per
//! unchanged keystroke. Pure computation: no drawing, no terminal, no I/O, no clock.
//!
//! Use: parse the prompt with [`query::Query::parse`] (keep the last `Ok` query on error),
//! call [`ViewCache::view`] each frame with the current snapshot, draw `rows[offset..]`, and
//! call [`highlight`] with [`display_name`] for the visible rows only.

pub mod col_terms;
pub mod col_text;
pub mod columns;
pub mod cut;
pub mod event_terms;
pub mod log_lines;
pub mod query;
pub mod selector;
pub mod terms;

mod cache;
mod compute;
mod fuzzy;
mod names;
mod order;
mod order_carry;

pub use cache::{CacheStats, ViewCache};
pub use fuzzy::{highlight, TextFilter};
pub use names::display_name;
pub use order::{Sort, SortBy};
pub use query::Query;

/// What to show of a snapshot. Borrowed, so building one per frame costs nothing.
#[derive(Debug, Clone, Copy)]
pub struct ViewSpec<'a> {
    /// The filter (the last valid one the user typed).
    pub query: &'a Query,
    /// `Some(ns)` shows only rows with `row.namespace == ns` (an all-namespaces informer
    /// serving a namespace view); `None` shows every row.
    pub namespace: Option<&'a str>,
    /// Sort key and direction.
    pub sort: Sort,
    /// Names are `namespace/name` (filtering and highlighting) when true.
    pub all_namespaces: bool,
    /// Rows the view is restricted to before its query (column terms such as
    /// `status:Running`), or `None` for every row in the namespace scope.
    pub within: Option<Within<'a>>,
}

/// A restriction of a view to some rows of its snapshot, computed by the caller in one pass
/// so that the snapshot's memoised sort orders and name buffers stay in use.
#[derive(Debug, Clone, Copy)]
pub struct Within<'a> {
    /// Names the restriction: on one snapshot, equal keys mean equal `rows`.
    pub key: &'a str,
    /// Ascending indices into the snapshot's `rows`, already inside the namespace scope.
    pub rows: &'a [u32],
}

/// One computed view. Shared by `Arc`: the cache hands out the same one until an input changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewResult {
    /// Indices into the snapshot's `rows`, in display order.
    pub rows: Vec<u32>,
    /// Rows that pass the filter (`rows.len()`), the `12` of `12/3,456`.
    pub matched: usize,
    /// Rows in the namespace scope before filtering, the `3,456`.
    pub total: usize,
    /// `Snapshot::rev` this was computed from.
    pub rev: u64,
}

#[cfg(test)]
mod tests;
