//! `Sink`: what an informer feeds. The list-watch loop is the same for every receiver; a sink
//! decides what list/watch events become (the row store for lists, the event timeline, one
//! object for a detail view, a rediscovery trigger for the CRD watch). Owns only that contract
//! and the row builders; must not talk to the network.

use tokio::time::Instant;

use super::row::{IntoRow, Row, RowCtx};
use super::sync::SyncState;

/// The receiving end of one informer. The event methods mirror kube's `watcher::Event`
/// (`Init`, `InitApply`, `InitDone`, `Apply`, `Delete`); the rest have defaults for sinks that
/// publish every change at once and do not show the resume point.
pub trait Sink<T>: Send {
    /// A (re)list starts.
    fn init(&mut self);
    /// One listed object.
    fn init_apply(&mut self, obj: T);
    /// A streaming list's DELETED before its end: `obj` is not part of the state being
    /// listed after all. Sinks that keep nothing by key may leave it.
    fn init_delete(&mut self, _obj: T) {}
    /// The (re)list is complete at resourceVersion `rv`.
    fn init_done(&mut self, rv: Option<String>);
    /// Watch ADDED/MODIFIED.
    fn apply(&mut self, obj: T);
    /// Watch DELETED.
    fn delete(&mut self, obj: T);
    /// The loop's visible state changed (live, reconnecting, forbidden…).
    fn set_state(&mut self, state: SyncState);
    /// The watch's resume point moved (a watch event's or a bookmark's resourceVersion).
    fn set_resource_version(&mut self, _rv: &str) {}
    /// Publishes a pending change whose coalescing interval has passed; returns when the next
    /// pending change is due, if one is.
    fn flush(&mut self) -> Option<Instant> {
        None
    }
    /// Publishes any pending change now (the watch ended or failed).
    fn publish(&mut self) {}
    /// Objects skipped because they could not be decoded, as one line (`None`: none).
    fn unreadable(&mut self, _line: Option<String>) {}
    /// What the last completed relist changed against what the sink held before it (`None`:
    /// the sink does not keep objects by key, or no relist completed yet).
    fn relisted(&self) -> Option<Relisted> {
        None
    }
    /// Periodic verification: `listed` is a complete list taken after the store stood at
    /// resourceVersion `upto`, each object with its resourceVersion as an integer. Objects
    /// listed at or below `upto` must be held exactly so; those missing or different are put
    /// right now. Keys held but not listed are returned as ghost candidates: the watch from
    /// `upto` may still delete them. `None`: this sink cannot be verified.
    fn verify(&mut self, _listed: Vec<(T, Option<u64>)>, _upto: u64) -> Option<Verified> {
        None
    }
    /// Removes those of `keys` still held (ghosts, once the watch passed the verifying
    /// list's resourceVersion); how many were.
    fn remove_ghosts(&mut self, _keys: &[super::store::ObjKey]) -> usize {
        0
    }
}

/// What a periodic verification put right at once, and the keys it suspects.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verified {
    /// Objects listed (unchanged since the store's resourceVersion) but not held.
    pub added: usize,
    /// Objects held in another version than listed.
    pub changed: usize,
    /// Keys held but not listed: ghosts unless the watch deletes them.
    pub candidates: Vec<super::store::ObjKey>,
}

/// What one relist replaced, by object key (`metadata.namespace`/`metadata.name`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Relisted {
    /// Objects held before and absent from the new list (ghosts).
    pub removed: usize,
    /// Objects in the new list not held before (lost).
    pub added: usize,
    /// Objects in both whose rows differ (stale).
    pub changed: usize,
}

/// Turns one decoded object into its row. Built-in kinds use their [`IntoRow`] impl
/// ([`ByIntoRow`]); other kinds carry their printer columns in the builder.
pub trait RowBuilder<T>: Send {
    /// Builds the row of `obj`; pure apart from interning.
    fn build(&self, obj: T, ctx: &RowCtx) -> Row;
}

/// The builder of slim types: `obj.into_row(ctx)`.
#[derive(Debug, Clone, Copy, Default)]
pub struct ByIntoRow;

impl<T: IntoRow> RowBuilder<T> for ByIntoRow {
    fn build(&self, obj: T, ctx: &RowCtx) -> Row {
        obj.into_row(ctx)
    }
}
