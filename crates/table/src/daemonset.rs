//! DaemonSets: slim decoder and row (DESIRED, CURRENT, READY, UP-TO-DATE, AVAILABLE, NODE
//! SELECTOR, AGE; wide CONTAINERS, IMAGES, SELECTOR). Must not keep the pod template beyond
//! container names, images and the node selector.

use std::borrow::Cow;
use serde::Deserialize;

use ktui_kube::row::{Cell, Health, IntoRow, Row, RowCtx};

use super::{col, wide, KindSpec};
use super::labels::{labels_cell, selector_cell, LabelSelector};
use super::meta::ObjMeta;
use super::workload::{selector_drill, PodTemplate};

/// A daemon set, decoded only as far as its columns need.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct DaemonSetObj {
    /// `metadata`.
    pub metadata: ObjMeta,
    /// `spec`.
    pub spec: DaemonSetSpec,
    /// `status`.
    pub status: DaemonSetStatus,
}

/// The parts of `spec` the columns read.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct DaemonSetSpec {
    /// `spec.selector`.
    pub selector: Option<LabelSelector>,
    /// `spec.template` (containers and `nodeSelector`).
    pub template: PodTemplate,
}

/// The parts of `status` the columns read (missing counts are 0).
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct DaemonSetStatus {
    /// `status.desiredNumberScheduled`.
    pub desired_number_scheduled: i64,
    /// `status.currentNumberScheduled`.
    pub current_number_scheduled: i64,
    /// `status.numberReady`.
    pub number_ready: i64,
    /// `status.updatedNumberScheduled`.
    pub updated_number_scheduled: i64,
    /// `status.numberAvailable`.
    pub number_available: i64,
}

/// The columns after NAME, index for index with the row's cells (`kubectl get daemonset`).
pub static SPEC: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        col("DESIRED"),
        col("CURRENT"),
        col("READY"),
        col("UP-TO-DATE"),
        col("AVAILABLE"),
        col("NODE SELECTOR"),
        col("AGE"),
        wide("CONTAINERS"),
        wide("IMAGES"),
        wide("SELECTOR"),
    ]),
    status_col: None,
};

impl IntoRow for DaemonSetObj {
    fn into_row(self, ctx: &RowCtx) -> Row {
        let st = &self.status;
        let health = if st.number_ready >= st.desired_number_scheduled {
            Health::Ok
        } else {
            Health::Warn
        };
        let [containers, images] = self.spec.template.containers_images();
        let cells = vec![
            Cell::Int(st.desired_number_scheduled),
            Cell::Int(st.current_number_scheduled),
            Cell::Int(st.number_ready),
            Cell::Int(st.updated_number_scheduled),
            Cell::Int(st.number_available),
            labels_cell(&self.spec.template.spec.node_selector),
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
        let ds = json!({
            "metadata": {"name": "agent", "creationTimestamp": ago(48 * 3600)},
            "spec": {"selector": {"matchLabels": {"app": "agent"}},
                "template": {"spec": {"nodeSelector": {"kubernetes.io/os": "linux", "disk": "ssd"},
                    "containers": [{"name": "a", "image": "agent:2"}]}}},
            "status": {"desiredNumberScheduled": 2, "currentNumberScheduled": 2, "numberReady": 1,
                "updatedNumberScheduled": 2, "numberAvailable": 1}
        });
        assert_eq!(
            cells(BuiltinKind::DaemonSet, ds.clone()),
            [
                "2",
                "2",
                "1",
                "2",
                "1",
                "disk=ssd,kubernetes.io/os=linux",
                "2d",
                "a",
                "agent:2",
                "app=agent"
            ]
        );
        let r = row(BuiltinKind::DaemonSet, ds);
        assert_eq!(r.health, Health::Warn);
        assert_eq!(r.drill.as_deref(), Some(&Drill::Selector("app=agent".into())));
        assert_eq!(
            cells(BuiltinKind::DaemonSet, json!({})),
            ["0", "0", "0", "0", "0", "<none>", "<unknown>", "", "", "<none>"]
        );
    }
}
