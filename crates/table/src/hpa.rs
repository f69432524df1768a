//! HorizontalPodAutoscalers (autoscaling/v2): slim decoder and row (REFERENCE, TARGETS,
//! MINPODS, MAXPODS, REPLICAS, AGE). Keeps only metric names, targets and current values;
//! must not keep selectors, behavior or conditions.

use std::borrow::Cow;
use serde::Deserialize;

use ktui_kube::row::{Cell, Health, IntoRow, Row, RowCtx};

use super::{col, KindSpec};
use super::join::first_of;
use super::meta::{nullable, text, ObjMeta};
use super::quantity::{or_nil, Quantity};

/// A horizontal pod autoscaler, decoded only as far as its columns need.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct HpaObj {
    /// `metadata`.
    pub metadata: ObjMeta,
    /// `spec`.
    pub spec: HpaSpec,
    /// `status`.
    pub status: HpaStatus,
}

/// The parts of `spec` the columns read.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct HpaSpec {
    /// `spec.scaleTargetRef`.
    pub scale_target_ref: TargetRef,
    /// `spec.minReplicas` (the server defaults it to 1).
    pub min_replicas: Option<i64>,
    /// `spec.maxReplicas`.
    pub max_replicas: i64,
    /// `spec.metrics` (the server defaults an empty list to CPU utilization 80%).
    #[serde(deserialize_with = "nullable")]
    pub metrics: Vec<Metric>,
}

/// `spec.scaleTargetRef`.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct TargetRef {
    /// `kind`.
    pub kind: String,
    /// `name`.
    pub name: String,
}

/// The parts of `status` the columns read.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct HpaStatus {
    /// `status.currentReplicas`.
    pub current_replicas: i64,
    /// `status.currentMetrics`, paired with `spec.metrics` by index.
    #[serde(deserialize_with = "nullable")]
    pub current_metrics: Vec<Metric>,
}

/// One `spec.metrics[]` or `status.currentMetrics[]` entry: its type and the source of that
/// type (a spec source carries `target`, a status source `current`).
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct Metric {
    /// `type`: `Resource`, `ContainerResource`, `Pods`, `Object`, `External`.
    #[serde(rename = "type")]
    pub type_: String,
    /// `resource`.
    pub resource: Option<MetricSource>,
    /// `containerResource`.
    pub container_resource: Option<MetricSource>,
    /// `pods`.
    pub pods: Option<MetricSource>,
    /// `object`.
    pub object: Option<MetricSource>,
    /// `external`.
    pub external: Option<MetricSource>,
}

/// A metric source (`resource`, `pods`...), as far as TARGETS needs it.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct MetricSource {
    /// `name` of a resource or container-resource metric (`cpu`, `memory`).
    pub name: String,
    /// `target` (spec side).
    pub target: MetricValues,
    /// `current` (status side).
    pub current: MetricValues,
}

/// `MetricTarget` / `MetricValueStatus`.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct MetricValues {
    /// `value`.
    pub value: Option<Quantity>,
    /// `averageValue`.
    pub average_value: Option<Quantity>,
    /// `averageUtilization` (percent).
    pub average_utilization: Option<i64>,
}

/// The metric the server puts in place of an empty `spec.metrics`: CPU utilization 80%.
fn default_metric() -> Metric {
    Metric {
        type_: "Resource".into(),
        resource: Some(MetricSource {
            name: "cpu".into(),
            target: MetricValues {
                average_utilization: Some(80),
                ..MetricValues::default()
            },
            ..MetricSource::default()
        }),
        ..Metric::default()
    }
}

impl Metric {
    /// The source a metric of type `type_` carries (`Resource` → `resource`...).
    fn source(&self, type_: &str) -> Option<&MetricSource> {
        match type_ {
            "Resource" => self.resource.as_ref(),
            "ContainerResource" => self.container_resource.as_ref(),
            "Pods" => self.pods.as_ref(),
            "Object" => self.object.as_ref(),
            "External" => self.external.as_ref(),
            _ => None,
        }
    }
}

/// One TARGETS entry: a spec metric and the status entry of the same index, if any (it only
/// counts when it carries a source of the spec's type).
pub fn target(spec: &Metric, status: Option<&Metric>) -> String {
    const UNKNOWN: &str = "<unknown>";
    let Some(src) = spec.source(&spec.type_) else {
        return "<unknown type>".into();
    };
    let cur = status.and_then(|s| s.source(&spec.type_));
    let (t, c) = (&src.target, cur.map(|c| &c.current));
    match (spec.type_.as_str(), &t.average_value) {
        ("Object" | "External", Some(avg)) => {
            let current = c.and_then(|c| c.average_value.as_ref()).map(Quantity::canonical);
            format!(
                "{}/{} (avg)",
                current.as_deref().unwrap_or(UNKNOWN),
                avg.canonical()
            )
        }
        ("Object" | "External", None) => {
            let current = c.map(|c| or_nil(c.value.as_ref()));
            format!(
                "{}/{}",
                current.as_deref().unwrap_or(UNKNOWN),
                or_nil(t.value.as_ref())
            )
        }
        ("Pods", _) => {
            let current = c.map(|c| or_nil(c.average_value.as_ref()));
            let target = or_nil(t.average_value.as_ref());
            format!("{}/{target}", current.as_deref().unwrap_or(UNKNOWN))
        }
        (_, Some(avg)) => {
            let current = c.map(|c| or_nil(c.average_value.as_ref()));
            let current = current.as_deref().unwrap_or(UNKNOWN);
            format!("{}: {current}/{}", src.name, avg.canonical())
        }
        (_, None) => {
            let current = c.and_then(|c| c.average_utilization).map(|u| format!("{u}%"));
            let target = t.average_utilization.map(|u| format!("{u}%"));
            let target = target.as_deref().unwrap_or("<auto>");
            format!("{}: {}/{target}", src.name, current.as_deref().unwrap_or(UNKNOWN))
        }
    }
}

/// TARGETS (`formatHPAMetrics`): one entry per spec metric, joined by `, `; the first two,
/// then ` + N more...`; `<none>` without metrics.
pub fn targets(specs: &[Metric], statuses: &[Metric]) -> String {
    if specs.is_empty() {
        return "<none>".into();
    }
    let entries = specs.iter().enumerate().map(|(i, s)| target(s, statuses.get(i)));
    first_of(entries, 2, ", ")
}

/// The columns after NAME, index for index with the row's cells (`kubectl get hpa`).
pub static SPEC: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        col("REFERENCE"),
        col("TARGETS"),
        col("MINPODS"),
        col("MAXPODS"),
        col("REPLICAS"),
        col("AGE"),
    ]),
    status_col: None,
};

impl IntoRow for HpaObj {
    fn into_row(self, ctx: &RowCtx) -> Row {
        let (spec, st) = (&self.spec, &self.status);
        let defaulted;
        let metrics = if spec.metrics.is_empty() {
            defaulted = [default_metric()];
            &defaulted[..]
        } else {
            &spec.metrics[..]
        };
        let reference = format!("{}/{}", spec.scale_target_ref.kind, spec.scale_target_ref.name);
        let cells = vec![
            text(&reference),
            text(&targets(metrics, &st.current_metrics)),
            text(&spec.min_replicas.unwrap_or(1).to_string()),
            Cell::Int(spec.max_replicas),
            Cell::Int(st.current_replicas),
            Cell::Age(self.metadata.creation_timestamp),
        ];
        self.metadata.into_row(ctx, cells, Health::Ok, None)
    }
}

#[cfg(test)]
mod tests;
