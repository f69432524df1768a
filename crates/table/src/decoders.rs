//! Wires each kind to the informer's list-watch loop with its decode type and sink: a built-in
//! kind's slim type (dispatch generated from the kind registration, see `ktui_table`), any
//! other kind's generic printer-column decoder. The pool (which must not know kinds' shapes)
//! calls this through [`Decoders`]. Owns only that choice; must not decode or publish itself.

use futures::future::BoxFuture;
use futures::FutureExt;

use ktui_kube::builtin::BuiltinKind;
use ktui_kube::history::capture::{Captured, Recording};
use ktui_kube::history::{recorded_by_lists, History};
use ktui_kube::informer::{Decoders, Informer};
use ktui_kube::kind::Kind;
use ktui_kube::row::{IntoRow, RowCtx};
use ktui_kube::sink::ByIntoRow;
use ktui_kube::store::{Publisher, StoreWriter};
use ktui_kube::timeline::TimelineWriter;

use super::custom::{CustomObj, CustomRows};

/// What a built-in kind's informer is started with.
pub(super) struct Start {
    pub(super) informer: Informer,
    pub(super) publisher: Publisher,
    pub(super) rows: RowCtx,
}

/// The decoders of every kind: [`Decoders`] for the informer pool.
pub struct TableDecoders;

impl Decoders for TableDecoders {
    fn run(
        &self,
        kind: &Kind,
        informer: Informer,
        publisher: Publisher,
        rows: RowCtx,
    ) -> BoxFuture<'static, ()> {
        match kind {
            Kind::Builtin(b) => super::dispatch_run(
                *b,
                Start {
                    informer,
                    publisher,
                    rows,
                },
            ),
            Kind::Api(r) => {
                // Any other kind: decoded generically, cells from its printer columns.
                let history = recorder(kind, &rows);
                let sink = StoreWriter::with_builder(publisher, rows, CustomRows::new(r));
                match history {
                    Some(h) => {
                        let rec = Recording::new(sink, h, &kind.full_name()).scoped(informer.key());
                        informer.run::<Captured<CustomObj>, _>(rec).boxed()
                    }
                    None => informer.run::<CustomObj, _>(sink).boxed(),
                }
            }
        }
    }
}

/// The informer of built-in `kind` decoding with `T`: the event timeline for timeline kinds
/// (merged by uid, kept past the server's TTL), the row store for the others.
pub(super) fn run_builtin<T: IntoRow>(kind: BuiltinKind, start: Start) -> BoxFuture<'static, ()> {
    let Start {
        informer,
        publisher,
        rows,
    } = start;
    if kind.is_timeline() {
        let bounds = informer.config().timeline;
        let sink = TimelineWriter::<T>::new(publisher, rows, bounds);
        informer.run::<T, _>(sink).boxed()
    } else {
        let history = recorder(&Kind::Builtin(kind), &rows);
        let sink = StoreWriter::with_builder(publisher, rows, ByIntoRow);
        match history {
            // A recorded kind: each item's JSON text is kept for the history, and its slim
            // type decoded from that text (see `kube::history::capture`).
            Some(h) => {
                let rec = Recording::new(sink, h, &Kind::Builtin(kind).full_name()).scoped(informer.key());
                informer.run::<Captured<T>, _>(rec).boxed()
            }
            None => informer.run::<T, _>(sink).boxed(),
        }
    }
}

/// The history informers of `kind` record into, if the pool keeps one and the kind is not
/// high-churn.
fn recorder(kind: &Kind, rows: &RowCtx) -> Option<std::sync::Arc<History>> {
    rows.history
        .clone()
        .filter(|h| h.enabled() && recorded_by_lists(kind))
}
