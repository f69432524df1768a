//! ReplicaSets: slim decoder and row (DESIRED, CURRENT, READY, AGE; wide CONTAINERS, IMAGES,
//! SELECTOR). Must not keep the pod template beyond container names and images.

use std::borrow::Cow;
use serde::Deserialize;

use ktui_kube::row::{Cell, Health, IntoRow, Row, RowCtx};

use super::{col, wide, KindSpec};
use super::labels::{selector_cell, LabelSelector};
use super::meta::ObjMeta;
use super::workload::{selector_drill, PodTemplate};

/// A replica set, decoded only as far as its columns need.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ReplicaSetObj {
    /// `metadata`.
    pub metadata: ObjMeta,
    /// `spec`.
    pub spec: ReplicaSetSpec,
    /// `status`.
    pub status: ReplicaSetStatus,
}

/// The parts of `spec` the columns read.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ReplicaSetSpec {
    /// `spec.replicas` (the server defaults it to 1).
    pub replicas: Option<i64>,
    /// `spec.selector`.
    pub selector: Option<LabelSelector>,
    /// `spec.template`.
    pub template: PodTemplate,
}

/// The parts of `status` the columns read (missing counts are 0).
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ReplicaSetStatus {
    /// `status.replicas`.
    pub replicas: i64,
    /// `status.readyReplicas`.
    pub ready_replicas: i64,
}

/// The columns after NAME, index for index with the row's cells (`kubectl get replicaset`).
pub static SPEC: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        col("DESIRED"),
        col("CURRENT"),
        col("READY"),
        col("AGE"),
        wide("CONTAINERS"),
        wide("IMAGES"),
        wide("SELECTOR"),
    ]),
    status_col: None,
};

impl IntoRow for ReplicaSetObj {
    fn into_row(self, ctx: &RowCtx) -> Row {
        let desired = self.spec.replicas.unwrap_or(1);
        let health = if self.status.ready_replicas >= desired {
            Health::Ok
        } else {
            Health::Warn
        };
        let [containers, images] = self.spec.template.containers_images();
        let cells = vec![
            Cell::Int(desired),
            Cell::Int(self.status.replicas),
            Cell::Int(self.status.ready_replicas),
            Cell::Age(self.metadata.creation_timestamp),
            containers,
            images,
            selector_cell(self.spec.selector.as_ref()),
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
        let rs = json!({
            "metadata": {"name": "web-5d9", "creationTimestamp": ago(90)},
            "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web", "pod-template-hash": "5d9"}},
                "template": {"spec": {"containers": [{"name": "web", "image": "nginx"}]}}},
            "status": {"replicas": 2, "readyReplicas": 1}
        });
        let r = row(BuiltinKind::ReplicaSet, rs.clone());
        assert_eq!(
            cells(BuiltinKind::ReplicaSet, rs),
            [
                "2",
                "2",
                "1",
                "90s",
                "web",
                "nginx",
                "app=web,pod-template-hash=5d9"
            ]
        );
        assert_eq!(r.health, Health::Warn);
        assert_eq!(
            r.drill.map(|d| *d),
            Some(Drill::Selector("app=web,pod-template-hash=5d9".into()))
        );
        assert_eq!(
            cells(BuiltinKind::ReplicaSet, json!({})),
            ["1", "0", "0", "<unknown>", "", "", "<none>"]
        );
        let zero = json!({"spec": {"replicas": 0}});
        assert_eq!(row(BuiltinKind::ReplicaSet, zero).health, Health::Ok);
    }
}
