//! Secrets: slim decoder and row (TYPE, DATA, AGE). Must never keep a secret value: `data`
//! is decoded as a key count, values are skipped unread.

use std::borrow::Cow;
use serde::Deserialize;

use ktui_kube::row::{Cell, Health, IntoRow, Row, RowCtx};

use super::{col, KindSpec};
use super::meta::{text, Count, ObjMeta};

/// A secret: metadata, type and the number of data keys — no values.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct SecretObj {
    /// `metadata`.
    pub metadata: ObjMeta,
    /// `type` (the server defaults it to `Opaque`).
    #[serde(rename = "type")]
    pub type_: Option<String>,
    /// Number of keys in `data`.
    pub data: Count,
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
}
