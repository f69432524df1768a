//! Pure object → row builders per built-in kind, with kubectl's columns (see
//! /work/shared/kubectl-columns.md): one file per kind, `table/<kind>.rs`, holding its slim
//! serde type, its [`IntoRow`] impl and its column spec (`SPEC`); the modules, dispatch by
//! [`BuiltinKind`] and the informer wiring ([`decoders`]) are generated from the one
//! registration line per kind in `ktui_kube::builtin`. No I/O, no clock: time cells are
//! formatted at draw time by [`format::format_cell`].

pub mod custom;
pub mod decoders;
pub mod format;
pub mod join;
pub mod jsonpath;
pub mod labels;
pub mod meta;
pub mod pod_status;
pub mod printer;
pub mod quantity;
pub mod workload;

#[cfg(test)]
mod testutil;

use std::borrow::Cow;

use ktui_kube::builtin::{builtin_kinds, BuiltinKind};
use ktui_kube::kind::Kind;
use ktui_kube::row::{IntoRow, Row, RowCtx, Versioned};

pub use decoders::TableDecoders;

/// Generates, from the registration in `ktui_kube::builtin`: one `pub mod` per kind with its
/// slim type re-exported, the slim type's [`Versioned`] impl (every slim type keeps its
/// `metadata: ObjMeta`), [`builtin_spec`], [`decode_row`] and [`decoders::run_builtin`].
macro_rules! define_tables {
    ($($variant:ident: $module:ident::$obj:ident = $group:literal/$version:literal, $plural:literal,
        $singular:literal, [$($short:literal),*], $scope:ident;)*) => {
        $(
            pub mod $module;
            pub use $module::$obj;

            impl Versioned for $obj {
                // Every field a slim type reads has its JSON name in the protobuf tables; the
                // kinds read from the server's printed rows ask for those (JSON) instead.
                const PROTOBUF: bool = !server_rows(BuiltinKind::$variant);
                const TABLE_ROWS: bool = server_rows(BuiltinKind::$variant);

                fn version(&self) -> Option<&str> {
                    self.metadata.resource_version.as_deref()
                }
            }
        )*

        /// The column spec of a built-in kind (its module's `SPEC`).
        pub fn builtin_spec(kind: BuiltinKind) -> &'static KindSpec {
            match kind {
                $(BuiltinKind::$variant => &$module::SPEC,)*
            }
        }

        /// Decodes one object's JSON with the kind's slim type and builds its row.
        pub fn decode_row(kind: BuiltinKind, json: &[u8], ctx: &RowCtx) -> serde_json::Result<Row> {
            match kind {
                $(BuiltinKind::$variant => decode::<$obj>(json, ctx),)*
            }
        }

        /// Decodes a protobuf list body (`k8s\0` + a `…List`) with the kind's slim type and
        /// builds its rows; the items that did not decode, named (`kind/ns/name: error`).
        /// `Err` when the body is no protobuf list.
        pub fn decode_protobuf_rows(
            kind: BuiltinKind,
            body: &[u8],
            ctx: &RowCtx,
        ) -> Result<(Vec<Row>, Vec<String>), ktui_kube::protobuf::Error> {
            match kind {
                $(BuiltinKind::$variant => protobuf_rows::<$obj>(body, kind, ctx),)*
            }
        }

        /// The informer future of a built-in kind, with its slim type.
        fn dispatch_run(kind: BuiltinKind, start: decoders::Start) -> futures::future::BoxFuture<'static, ()> {
            match kind {
                $(BuiltinKind::$variant => decoders::run_builtin::<$obj>(kind, start),)*
            }
        }
    };
}

builtin_kinds!(define_tables);

/// True for the kinds whose informers read the API server's printed rows with metadata only
/// (`Versioned::TABLE_ROWS`) instead of whole objects: secrets, so their lists never carry
/// their `data`. Their TYPE and DATA are the server printer's cells.
pub const fn server_rows(kind: BuiltinKind) -> bool {
    matches!(kind, BuiltinKind::Secret)
}

/// One column header after NAME.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    /// Header text exactly as kubectl prints it (`NOMINATED NODE`, `PORT(S)`); for custom
    /// resources the printer column's `name`, upper-cased.
    pub header: Cow<'static, str>,
    /// Shown only in wide mode (`-o wide`).
    pub wide: bool,
}

/// The columns of a kind, matching `Row::cells` index for index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindSpec {
    /// Every column after NAME (NAME and NAMESPACE are added by the UI). Wide-only columns
    /// usually come last, but not always (events interleave SUBOBJECT/SOURCE before MESSAGE,
    /// as `kubectl get events -o wide` does): select visible columns by their `wide` flag.
    pub columns: Cow<'static, [Column]>,
    /// Index into `cells` of the STATUS-like column used for the status sort, if any.
    pub status_col: Option<usize>,
}

impl KindSpec {
    /// The columns shown in normal (`wide == false`) or wide mode, with their cell index.
    pub fn visible(&self, wide: bool) -> impl Iterator<Item = (usize, &Column)> {
        self.columns
            .iter()
            .enumerate()
            .filter(move |(_, c)| wide || !c.wide)
    }

    /// The cell index of the column headed `header` (as kubectl prints it: `REASON`,
    /// `PORT(S)`), if the kind has one.
    pub fn index_of(&self, header: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.header == header)
    }
}

/// A column shown by default.
pub const fn col(header: &'static str) -> Column {
    Column {
        header: Cow::Borrowed(header),
        wide: false,
    }
}

/// A column shown only in wide mode.
pub(crate) const fn wide(header: &'static str) -> Column {
    Column {
        header: Cow::Borrowed(header),
        wide: true,
    }
}

/// The columns of `kind` that give way first on a narrow terminal, first dropped first
/// (before any column not listed), so that the one a user came for stays: an event's TYPE,
/// REASON, OBJECT and MESSAGE; a pod's READY and STATUS. Empty for kinds that keep the
/// general order (`view::columns::priority`).
pub fn drop_first(kind: &Kind) -> &'static [&'static str] {
    match kind {
        Kind::Builtin(BuiltinKind::Event) => event::DROP_FIRST,
        Kind::Builtin(BuiltinKind::Pod) => pod::DROP_FIRST,
        _ => &[],
    }
}

/// The column spec of any kind: kubectl's columns for built-ins, the printer columns (or
/// AGE) for other kinds, see [`custom::spec`].
pub fn spec(kind: &Kind) -> Cow<'static, KindSpec> {
    match kind {
        Kind::Builtin(b) => Cow::Borrowed(builtin_spec(*b)),
        Kind::Api(r) => Cow::Owned(custom::spec(r)),
    }
}

fn decode<T: IntoRow>(json: &[u8], ctx: &RowCtx) -> serde_json::Result<Row> {
    serde_json::from_slice::<T>(json).map(|o| o.into_row(ctx))
}

fn protobuf_rows<T: IntoRow>(
    body: &[u8],
    kind: BuiltinKind,
    ctx: &RowCtx,
) -> Result<(Vec<Row>, Vec<String>), ktui_kube::protobuf::Error> {
    let list = ktui_kube::protobuf::list::<T>(body, kind.info().singular)?;
    Ok((
        list.items.into_iter().map(|o| o.into_row(ctx)).collect(),
        list.skipped,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_a_spec_matching_its_cells() {
        for kind in BuiltinKind::ALL {
            let row = decode_row(kind, b"{}", &RowCtx::default()).unwrap();
            assert_eq!(row.cells.len(), builtin_spec(kind).columns.len(), "{kind}");
            if let Some(i) = builtin_spec(kind).status_col {
                assert!(i < builtin_spec(kind).columns.len(), "{kind}");
            }
        }
    }

    #[test]
    fn columns_are_found_by_header() {
        let event = builtin_spec(BuiltinKind::Event);
        assert_eq!(event.index_of("REASON"), Some(2));
        assert_eq!(event.index_of("MESSAGE"), Some(5));
        assert_eq!(event.index_of("NAME"), None, "NAME is not a cell");
        assert_eq!(builtin_spec(BuiltinKind::Service).index_of("PORT(S)"), Some(3));
    }

    #[test]
    fn events_interleave_wide_columns() {
        let normal: Vec<_> = builtin_spec(BuiltinKind::Event)
            .visible(false)
            .map(|(_, c)| c.header.as_ref())
            .collect();
        assert_eq!(
            normal,
            [
                "LAST SEEN",
                "TYPE",
                "REASON",
                "OBJECT",
                "COUNT",
                "MESSAGE",
                "SOURCE"
            ]
        );
    }
}
