//! StatefulSets: slim decoder and row (READY, AGE; wide CONTAINERS, IMAGES — kubectl shows no
//! selector column). Must not keep the pod template beyond container names and images.

use std::borrow::Cow;
use serde::Deserialize;

use ktui_kube::row::{Cell, Health, IntoRow, Row, RowCtx};

use super::{col, wide, KindSpec};
use super::labels::LabelSelector;
use super::meta::ObjMeta;
use super::workload::{selector_drill, PodTemplate};

/// A stateful set, decoded only as far as its columns need.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct StatefulSetObj {
    /// `metadata`.
    pub metadata: ObjMeta,
    /// `spec`.
    pub spec: StatefulSetSpec,
    /// `status`.
    pub status: StatefulSetStatus,
}

/// The parts of `spec` the columns read.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct StatefulSetSpec {
    /// `spec.replicas` (the server defaults it to 1).
    pub replicas: Option<i64>,
    /// `spec.selector` (drill only).
    pub selector: Option<LabelSelector>,
    /// `spec.template`.
    pub template: PodTemplate,
}

/// The parts of `status` the columns read.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct StatefulSetStatus {
    /// `status.readyReplicas` (0 when missing).
    pub ready_replicas: i64,
}

/// The columns after NAME, index for index with the row's cells (`kubectl get statefulset`).
pub static SPEC: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[col("READY"), col("AGE"), wide("CONTAINERS"), wide("IMAGES")]),
    status_col: None,
};

impl IntoRow for StatefulSetObj {
    fn into_row(self, ctx: &RowCtx) -> Row {
        let desired = self.spec.replicas.unwrap_or(1);
        let ready = self.status.ready_replicas;
        let health = if ready >= desired {
            Health::Ok
        } else {
            Health::Warn
        };
        let [containers, images] = self.spec.template.containers_images();
        let cells = vec![
            Cell::Text(format!("{ready}/{desired}").into_boxed_str()),
            Cell::Age(self.metadata.creation_timestamp),
            containers,
            images,
        ];
        let drill = selector_drill(self.spec.selector.as_ref());
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
    fn columns_health_drill() {
        let sts = json!({
            "metadata": {"name": "db", "creationTimestamp": ago(200)},
            "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "db"}},
                "template": {"spec": {"containers": [{"name": "pg", "image": "postgres:16"}]}}},
            "status": {"readyReplicas": 3}
        });
        assert_eq!(
            cells(BuiltinKind::StatefulSet, sts.clone()),
            ["3/3", "3m20s", "pg", "postgres:16"]
        );
        let r = row(BuiltinKind::StatefulSet, sts);
        assert_eq!(r.health, Health::Ok);
        assert_eq!(r.drill.as_deref(), Some(&Drill::Selector("app=db".into())));
        assert_eq!(
            cells(BuiltinKind::StatefulSet, json!({"spec": {"replicas": 2}}))[0],
            "0/2"
        );
    }
}
