//! ConfigMaps: slim decoder and row (DATA, AGE). Must not keep any value: `data` and
//! `binaryData` are only counted.

use std::borrow::Cow;
use serde::Deserialize;

use ktui_kube::row::{Cell, Health, IntoRow, Row, RowCtx};

use super::{col, KindSpec};
use super::meta::{Count, ObjMeta};

/// A config map: metadata and key counts only.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ConfigMapObj {
    /// `metadata`.
    pub metadata: ObjMeta,
    /// Number of keys in `data`.
    pub data: Count,
    /// Number of keys in `binaryData`.
    pub binary_data: Count,
}

/// The columns after NAME, index for index with the row's cells (`kubectl get configmap`).
pub static SPEC: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[col("DATA"), col("AGE")]),
    status_col: None,
};

impl IntoRow for ConfigMapObj {
    fn into_row(self, ctx: &RowCtx) -> Row {
        let cells = vec![
            Cell::Int((self.data.0 + self.binary_data.0) as i64),
            Cell::Age(self.metadata.creation_timestamp),
        ];
        self.metadata.into_row(ctx, cells, Health::Ok, None)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use ktui_kube::builtin::BuiltinKind;
    use crate::testutil::{ago, cells};

    #[test]
    fn counts_data_and_binary_data() {
        let cm = json!({"metadata": {"name": "c", "creationTimestamp": ago(5)},
            "data": {"a": "x", "b": "y"}, "binaryData": {"c": "AAAA"}});
        assert_eq!(cells(BuiltinKind::ConfigMap, cm), ["3", "5s"]);
        assert_eq!(cells(BuiltinKind::ConfigMap, json!({})), ["0", "<unknown>"]);
    }
}
