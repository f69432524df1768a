//! `Sink`: what an informer feeds. The list-watch loop is the same for every writer shape;
//! a sink decides how objects become published rows (the row store for lists, the event
//! timeline). Owns only the contract and the row-store adapter.

use std::marker::PhantomData;

use tokio::time::Instant;

use super::row::{IntoRow, Row, RowCtx};
use super::store::{obj_key, StoreWriter};
use super::sync::SyncState;

/// The receiving end of one informer: list/watch events in, snapshots out.
pub trait Sink<T>: Send {
    /// A (re)list starts.
    fn init(&mut self);
    /// One listed object.
    fn init_apply(&mut self, obj: T);
    /// The (re)list is complete at `rv`.
    fn init_done(&mut self, rv: Option<String>);
    /// Watch ADDED/MODIFIED.
    fn apply(&mut self, obj: T);
    /// Watch DELETED.
    fn delete(&mut self, obj: T);
    /// Resume point (event or bookmark resourceVersion).
    fn set_resource_version(&mut self, rv: String);
    /// Visible state; a change of kind publishes at once.
    fn set_state(&mut self, state: SyncState);
    /// The state last set.
    fn state(&self) -> &SyncState;
    /// Objects held.
    fn len(&self) -> usize;
    /// True when no object is held.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// When a pending change must be published.
    fn deadline(&self) -> Option<Instant>;
    /// Publishes if a pending change is due.
    fn maybe_publish(&mut self);
    /// Publishes a pending change now.
    fn publish(&mut self);
}

/// Turns one decoded object into its row. Built-in kinds use their [`IntoRow`] impl
/// ([`ByIntoRow`]); other kinds carry their printer columns in the builder.
pub trait RowBuilder<T>: Send {
    /// Builds the row of `obj`; pure apart from interning.
    fn build(&self, obj: T, ctx: &RowCtx) -> Row;
}

/// The builder of slim types: `obj.into_row(ctx)`.
pub struct ByIntoRow;

impl<T: IntoRow> RowBuilder<T> for ByIntoRow {
    fn build(&self, obj: T, ctx: &RowCtx) -> Row {
        obj.into_row(ctx)
    }
}

/// The list-view sink: decodes each object into a row and keeps them in a [`StoreWriter`].
pub struct RowSink<T, B = ByIntoRow> {
    writer: StoreWriter,
    rows: RowCtx,
    build: B,
    _obj: PhantomData<fn(T)>,
}

impl<T> RowSink<T> {
    /// A sink writing rows built with `rows` into `writer`.
    pub fn new(writer: StoreWriter, rows: RowCtx) -> Self {
        Self::with_builder(writer, rows, ByIntoRow)
    }
}

impl<T, B> RowSink<T, B> {
    /// A sink whose rows are built by `build`.
    pub fn with_builder(writer: StoreWriter, rows: RowCtx, build: B) -> Self {
        RowSink {
            writer,
            rows,
            build,
            _obj: PhantomData,
        }
    }
}

impl<T, B: RowBuilder<T>> Sink<T> for RowSink<T, B> {
    fn init(&mut self) {
        self.writer.init();
    }
    fn init_apply(&mut self, obj: T) {
        self.writer.init_apply(self.build.build(obj, &self.rows));
    }
    fn init_done(&mut self, rv: Option<String>) {
        self.writer.init_done(rv);
    }
    fn apply(&mut self, obj: T) {
        self.writer.apply(self.build.build(obj, &self.rows));
    }
    fn delete(&mut self, obj: T) {
        let row = self.build.build(obj, &self.rows);
        self.writer.delete(&obj_key(&row));
    }
    fn set_resource_version(&mut self, rv: String) {
        self.writer.set_resource_version(rv);
    }
    fn set_state(&mut self, state: SyncState) {
        self.writer.set_state(state);
    }
    fn state(&self) -> &SyncState {
        self.writer.state()
    }
    fn len(&self) -> usize {
        self.writer.len()
    }
    fn deadline(&self) -> Option<Instant> {
        self.writer.deadline()
    }
    fn maybe_publish(&mut self) {
        self.writer.maybe_publish();
    }
    fn publish(&mut self) {
        self.writer.publish();
    }
}
