//! Secrets: slim decoder and row (TYPE, DATA, AGE). Must never keep a secret value: the
//! informer asks for the API server's printed rows with metadata only (`Versioned::
//! TABLE_ROWS`), so lists do not carry `data`; from a whole object (a server that prints no
//! tables, the golden tests) `data` is decoded as a key count, values skipped unread, as are
//! annotations (a `kubectl apply`'d Secret's last-applied one holds its values).

use std::borrow::Cow;
use serde::Deserialize;

use ktui_kube::row::{Cell, Health, IntoRow, Row, RowCtx};

use super::{col, KindSpec};
use super::meta::{text, Count, ObjMeta};

/// A secret: metadata, type and the number of data keys — no values. Decodes from a whole
/// Secret, from a `meta.k8s.io/v1 Table` row (`cells` as kube-apiserver's printer gives them:
/// Name, Type, Data, Age; `object`: a `PartialObjectMetadata`) and from a Table of one row
/// (a watch event's object).
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(from = "SecretWire")]
pub struct SecretObj {
    /// `metadata` (of the row's `object` for a Table row).
    pub metadata: ObjMeta,
    /// `type` (the server defaults it to `Opaque`); the Table's Type cell.
    pub type_: Option<String>,
    /// Number of keys in `data`; the Table's Data cell.
    pub data: Count,
}

/// Every shape a secret arrives in (see [`SecretObj`]).
#[derive(Deserialize, Default)]
#[serde(default)]
struct SecretWire {
    metadata: ObjMeta,
    #[serde(rename = "type")]
    type_: Option<String>,
    data: Count,
    /// A Table row's cells: Name, Type, Data, Age.
    cells: Option<Vec<serde_json::Value>>,
    /// A Table row's object.
    object: Option<MetaOnly>,
    /// A Table's rows (a watch event carries a Table of one row).
    rows: Vec<SecretWire>,
}

/// A `PartialObjectMetadata`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct MetaOnly {
    metadata: ObjMeta,
}

impl From<SecretWire> for SecretObj {
    fn from(w: SecretWire) -> Self {
        if let Some(row) = w.rows.into_iter().next() {
            return row.into();
        }
        match (w.cells, w.object) {
            (Some(cells), Some(object)) => SecretObj {
                metadata: object.metadata,
                type_: cells.get(1).and_then(|c| c.as_str()).map(str::to_owned),
                data: Count(cells.get(2).and_then(serde_json::Value::as_u64).unwrap_or(0) as usize),
            },
            _ => SecretObj {
                metadata: w.metadata,
                type_: w.type_,
                data: w.data,
            },
        }
    }
}

/// The columns after NAME, index for index with the row's cells (`kubectl get secret`).
pub static SPEC: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[col("TYPE"), col("DATA"), col("AGE")]),
    status_col: None,
};

impl IntoRow for SecretObj {
    fn into_row(self, ctx: &RowCtx) -> Row {
        let cells = vec![
            text(self.type_.as_deref().unwrap_or("Opaque")),
            Cell::Int(self.data.0 as i64),
            Cell::Age(self.metadata.creation_timestamp),
        ];
        self.metadata.into_row(ctx, cells, Health::Ok, None)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use ktui_kube::builtin::BuiltinKind;
    use crate::testutil::{ago, cells, row};

    #[test]
    fn type_and_count_without_values() {
        let s = json!({"metadata": {"name": "tls", "creationTimestamp": ago(7200)}, "type": "kubernetes.io/tls",
            "data": {"tls.crt": "c2VjcmV0", "tls.key": "c2VjcmV0"}});
        assert_eq!(
            cells(BuiltinKind::Secret, s.clone()),
            ["kubernetes.io/tls", "2", "120m"]
        );
        assert!(!format!("{:?}", row(BuiltinKind::Secret, s)).contains("c2VjcmV0"));
        assert_eq!(
            cells(BuiltinKind::Secret, json!({})),
            ["Opaque", "0", "<unknown>"]
        );
    }

    /// What kube-apiserver sends for `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`
    /// with `includeObject=Metadata`: a list's row, and a watch event's Table of one row.
    #[test]
    fn server_printed_rows_give_the_same_cells_without_values() {
        let meta = json!({"name": "tls", "namespace": "shop", "uid": "u1", "resourceVersion": "42",
            "creationTimestamp": ago(7200)});
        let row_json = json!({"cells": ["tls", "kubernetes.io/tls", 2, "2h"],
            "object": {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": meta}});
        assert_eq!(
            cells(BuiltinKind::Secret, row_json.clone()),
            ["kubernetes.io/tls", "2", "120m"]
        );
        let table = json!({"kind": "Table", "apiVersion": "meta.k8s.io/v1",
            "metadata": {"resourceVersion": "43"}, "columnDefinitions": [], "rows": [row_json]});
        let r = row(BuiltinKind::Secret, table);
        assert_eq!(&*r.name, "tls");
        assert_eq!(r.namespace.as_deref(), Some("shop"));
        let s: super::SecretObj = serde_json::from_value(json!({"cells": ["a", "Opaque", 0, "1s"],
            "object": {"metadata": {"name": "a", "resourceVersion": "7"}}}))
        .unwrap();
        use ktui_kube::row::Versioned;
        assert_eq!(s.version(), Some("7"));
        const { assert!(super::SecretObj::TABLE_ROWS && !super::SecretObj::PROTOBUF) };
    }
}
