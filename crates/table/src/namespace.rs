//! Namespaces: slim decoder and row (STATUS, AGE); `enter` leads to the namespace's pods.
//! Must not keep spec or finalizers.

use std::borrow::Cow;
use serde::Deserialize;

use ktui_kube::row::{Cell, Drill, Health, IntoRow, Row, RowCtx};

use super::{col, KindSpec};
use super::meta::{text, ObjMeta};
use ktui_kube::sanitize::sanitized_box;

/// A namespace: metadata and phase.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct NamespaceObj {
    /// `metadata`.
    pub metadata: ObjMeta,
    /// `status`.
    pub status: NamespaceStatus,
}

/// `status`.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct NamespaceStatus {
    /// `status.phase` (`Active`, `Terminating`).
    pub phase: String,
}

/// The columns after NAME, index for index with the row's cells (`kubectl get namespace`).
pub static SPEC: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[col("STATUS"), col("AGE")]),
    status_col: Some(0),
};

impl IntoRow for NamespaceObj {
    fn into_row(self, ctx: &RowCtx) -> Row {
        let (status, health) = match self.status.phase.as_str() {
            "Active" => (Cell::Static("Active"), Health::Ok),
            "Terminating" => (Cell::Static("Terminating"), Health::Warn),
            other => (text(other), Health::Warn),
        };
        let cells = vec![status, Cell::Age(self.metadata.creation_timestamp)];
        let drill = Some(Drill::Namespace(sanitized_box(&self.metadata.name)));
        self.metadata.into_row(ctx, cells, health, drill)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use ktui_kube::builtin::BuiltinKind;
    use ktui_kube::row::{Drill, Health};
    use crate::testutil::{ago, cells, row};

    #[test]
    fn status_age_drill() {
        let ns = json!({"metadata": {"name": "team-a", "creationTimestamp": ago(86_400 * 400)},
            "status": {"phase": "Terminating"}});
        assert_eq!(cells(BuiltinKind::Namespace, ns.clone()), ["Terminating", "400d"]);
        let r = row(BuiltinKind::Namespace, ns);
        assert_eq!(
            (r.health, r.drill.map(|d| *d)),
            (Health::Warn, Some(Drill::Namespace("team-a".into())))
        );
        assert_eq!(r.namespace, None);
    }
}
