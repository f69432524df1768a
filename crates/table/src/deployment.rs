//! Deployments: slim decoder and row (READY, UP-TO-DATE, AVAILABLE, AGE; wide CONTAINERS,
//! IMAGES, SELECTOR). Must not keep the pod template beyond container names and images.

use std::borrow::Cow;
use serde::Deserialize;

use ktui_kube::row::{Cell, Health, IntoRow, Row, RowCtx};

use super::{col, wide, KindSpec};
use super::labels::LabelSelector;
use super::meta::{text, ObjMeta};
use super::workload::{selector_drill, PodTemplate};

/// A deployment, decoded only as far as its columns need.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct DeploymentObj {
    /// `metadata`.
    pub metadata: ObjMeta,
    /// `spec`.
    pub spec: DeploymentSpec,
    /// `status`.
    pub status: DeploymentStatus,
}

/// The parts of `spec` the columns read.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct DeploymentSpec {
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
pub struct DeploymentStatus {
    /// `status.readyReplicas`.
    pub ready_replicas: i64,
    /// `status.updatedReplicas`.
    pub updated_replicas: i64,
    /// `status.availableReplicas`.
    pub available_replicas: i64,
}

/// The columns after NAME, index for index with the row's cells (`kubectl get deployment`).
pub static SPEC: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        col("READY"),
        col("UP-TO-DATE"),
        col("AVAILABLE"),
        col("AGE"),
        wide("CONTAINERS"),
        wide("IMAGES"),
        wide("SELECTOR"),
    ]),
    status_col: None,
};

impl IntoRow for DeploymentObj {
    fn into_row(self, ctx: &RowCtx) -> Row {
        let (spec, st) = (&self.spec, &self.status);
        let desired = spec.replicas.unwrap_or(1);
        let health = if st.ready_replicas >= desired && st.available_replicas >= desired {
            Health::Ok
        } else {
            Health::Warn
        };
        // Deployment SELECTOR: blank when nil/empty, `<invalid>` when invalid.
        let selector = match spec.selector.as_ref().map(LabelSelector::to_query) {
            None => Cell::Static(""),
            Some(Ok(s)) => text(&s),
            Some(Err(_)) => Cell::Static("<invalid>"),
        };
        let [containers, images] = spec.template.containers_images();
        let cells = vec![
            Cell::Text(format!("{}/{desired}", st.ready_replicas).into_boxed_str()),
            Cell::Int(st.updated_replicas),
            Cell::Int(st.available_replicas),
            Cell::Age(self.metadata.creation_timestamp),
            containers,
            images,
            selector,
        ];
        let drill = selector_drill(spec.selector.as_ref());
        self.metadata.into_row(ctx, cells, health, drill)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use ktui_kube::builtin::BuiltinKind;
    use ktui_kube::row::{Drill, Health};
    use crate::testutil::{ago, cells, row};

    fn deploy(replicas: i64, ready: i64, avail: i64) -> serde_json::Value {
        json!({
            "metadata": {"name": "web", "namespace": "ns", "creationTimestamp": ago(3600)},
            "spec": {"replicas": replicas,
                "selector": {"matchLabels": {"app": "x", "tier": "web"},
                    "matchExpressions": [{"key": "env", "operator": "In", "values": ["prod", "dev"]},
                        {"key": "canary", "operator": "DoesNotExist"}]},
                "template": {"spec": {"containers": [{"name": "web", "image": "nginx:1"},
                    {"name": "log", "image": "busybox"}], "initContainers": [{"name": "i", "image": "x"}]}}},
            "status": {"readyReplicas": ready, "updatedReplicas": 3, "availableReplicas": avail}
        })
    }

    #[test]
    fn columns() {
        let got = cells(BuiltinKind::Deployment, deploy(3, 1, 1));
        assert_eq!(
            got,
            [
                "1/3",
                "3",
                "1",
                "60m",
                "web,log",
                "nginx:1,busybox",
                "app=x,!canary,env in (dev,prod),tier=web"
            ]
        );
        let got = cells(BuiltinKind::Deployment, json!({"spec": {}}));
        assert_eq!(got, ["0/1", "0", "0", "<unknown>", "", "", ""]);
        let bad = json!({"spec": {"selector": {"matchExpressions": [{"key": "a", "operator": "Nope"}]}}});
        assert_eq!(cells(BuiltinKind::Deployment, bad)[6], "<invalid>");
    }

    #[test]
    fn health_and_drill() {
        let r = row(BuiltinKind::Deployment, deploy(3, 1, 1));
        assert_eq!(r.health, Health::Warn);
        assert_eq!(
            r.drill.map(|d| *d),
            Some(Drill::Selector("app=x,!canary,env in (dev,prod),tier=web".into()))
        );
        assert_eq!(row(BuiltinKind::Deployment, deploy(3, 3, 3)).health, Health::Ok);
        assert_eq!(row(BuiltinKind::Deployment, json!({})).drill, None);
    }
}
