//! Jobs: slim decoder and row (STATUS, COMPLETIONS, DURATION, AGE; wide CONTAINERS, IMAGES,
//! SELECTOR). DURATION is stored as a span and formatted at draw time; must not read a clock.

use std::borrow::Cow;
use serde::Deserialize;

use ktui_kube::row::{Cell, Health, IntoRow, Row, RowCtx, UnixSecs};

use super::{col, wide, KindSpec};
use super::labels::{selector_cell, LabelSelector};
use super::meta::{time, ObjMeta};
use super::workload::{selector_drill, PodTemplate};

/// A job, decoded only as far as its columns need.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct JobObj {
    /// `metadata`.
    pub metadata: ObjMeta,
    /// `spec`.
    pub spec: JobSpec,
    /// `status`.
    pub status: JobStatus,
}

/// The parts of `spec` the columns read.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct JobSpec {
    /// `spec.completions`.
    pub completions: Option<i64>,
    /// `spec.parallelism`.
    pub parallelism: Option<i64>,
    /// `spec.selector`.
    pub selector: Option<LabelSelector>,
    /// `spec.template`.
    pub template: PodTemplate,
}

/// The parts of `status` the columns read.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct JobStatus {
    /// `status.succeeded` (0 when missing).
    pub succeeded: i64,
    /// `status.startTime`.
    #[serde(deserialize_with = "time")]
    pub start_time: Option<UnixSecs>,
    /// `status.completionTime`.
    #[serde(deserialize_with = "time")]
    pub completion_time: Option<UnixSecs>,
    /// `status.conditions` (type and status).
    pub conditions: Vec<JobCondition>,
}

/// One `status.conditions` entry.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct JobCondition {
    /// `type`.
    #[serde(rename = "type")]
    pub type_: String,
    /// `status`.
    pub status: String,
}

impl JobObj {
    /// True when the *first* condition of type `t` has status `True`.
    fn has(&self, t: &str) -> bool {
        self.status
            .conditions
            .iter()
            .find(|c| c.type_ == t)
            .is_some_and(|c| c.status == "True")
    }

    /// STATUS and its colour.
    fn status(&self) -> (&'static str, Health) {
        if self.has("Complete") {
            ("Complete", Health::Done)
        } else if self.has("Failed") {
            ("Failed", Health::Error)
        } else if self.metadata.deletion_timestamp.is_some() {
            ("Terminating", Health::Warn)
        } else if self.has("Suspended") {
            ("Suspended", Health::Warn)
        } else if self.has("FailureTarget") {
            ("FailureTarget", Health::Error)
        } else if self.has("SuccessCriteriaMet") {
            ("SuccessCriteriaMet", Health::Done)
        } else {
            ("Running", Health::Ok)
        }
    }

    /// COMPLETIONS: `succeeded/completions`, `succeeded/1 of parallelism`, or `succeeded/1`.
    fn completions(&self) -> String {
        let done = self.status.succeeded;
        match (self.spec.completions, self.spec.parallelism.unwrap_or(0)) {
            (Some(c), _) => format!("{done}/{c}"),
            (None, p) if p > 1 => format!("{done}/1 of {p}"),
            (None, _) => format!("{done}/1"),
        }
    }
}

/// The columns after NAME, index for index with the row's cells (`kubectl get job`).
pub static SPEC: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        col("STATUS"),
        col("COMPLETIONS"),
        col("DURATION"),
        col("AGE"),
        wide("CONTAINERS"),
        wide("IMAGES"),
        wide("SELECTOR"),
    ]),
    status_col: Some(0),
};

impl IntoRow for JobObj {
    fn into_row(self, ctx: &RowCtx) -> Row {
        let (status, health) = self.status();
        let [containers, images] = self.spec.template.containers_images();
        let cells = vec![
            Cell::Static(status),
            Cell::Text(self.completions().into_boxed_str()),
            Cell::span(self.status.start_time, self.status.completion_time),
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
    use serde_json::{json, Value};

    use ktui_kube::builtin::BuiltinKind;
    use ktui_kube::row::{Drill, Health};
    use crate::testutil::{ago, cells, row};

    fn job(spec: Value, status: Value) -> Value {
        json!({"metadata": {"name": "j", "creationTimestamp": ago(7300)}, "spec": spec, "status": status})
    }

    #[test]
    fn verified_examples() {
        let cond = |t: &str| json!([{"type": t, "status": "True"}]);
        let cases = [
            (
                job(
                    json!({"completions": 1, "parallelism": 1}),
                    json!({"succeeded": 1, "startTime": ago(100), "completionTime": ago(50), "conditions": cond("Complete")}),
                ),
                ["Complete", "1/1", "50s"],
            ),
            (
                job(json!({"parallelism": 3}), json!({"startTime": ago(90)})),
                ["Running", "0/1 of 3", "90s"],
            ),
            (
                job(
                    json!({"completions": 5}),
                    json!({"succeeded": 2, "startTime": ago(7200), "conditions": cond("Failed")}),
                ),
                ["Failed", "2/5", "120m"],
            ),
            (
                job(
                    json!({"completions": 1}),
                    json!({"conditions": cond("Suspended")}),
                ),
                ["Suspended", "0/1", ""],
            ),
            (
                job(
                    json!({"completions": 1, "parallelism": 1}),
                    json!({"succeeded": 1}),
                ),
                ["Running", "1/1", ""],
            ),
            (
                job(json!({}), json!({"conditions": cond("FailureTarget")})),
                ["FailureTarget", "0/1", ""],
            ),
            (
                job(json!({}), json!({"conditions": cond("SuccessCriteriaMet")})),
                ["SuccessCriteriaMet", "0/1", ""],
            ),
            (
                job(
                    json!({}),
                    json!({"conditions": [{"type": "Complete", "status": "False"},
                    {"type": "Complete", "status": "True"}]}),
                ),
                ["Running", "0/1", ""],
            ),
        ];
        for (i, (fixture, want)) in cases.into_iter().enumerate() {
            assert_eq!(cells(BuiltinKind::Job, fixture)[..3], want, "case {i}");
        }
    }

    #[test]
    fn terminating_wide_health_drill() {
        let mut j = job(
            json!({"selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": "abc"}},
                "template": {"spec": {"containers": [{"name": "pi", "image": "perl"}]}}}),
            json!({"conditions": [{"type": "Suspended", "status": "True"}]}),
        );
        j["metadata"]["deletionTimestamp"] = json!(ago(1));
        let r = row(BuiltinKind::Job, j.clone());
        assert_eq!(
            cells(BuiltinKind::Job, j),
            [
                "Terminating",
                "0/1",
                "",
                "121m",
                "pi",
                "perl",
                "batch.kubernetes.io/controller-uid=abc"
            ]
        );
        assert_eq!(r.health, Health::Warn);
        assert_eq!(
            r.drill.map(|d| *d),
            Some(Drill::Selector("batch.kubernetes.io/controller-uid=abc".into()))
        );
        let failed = job(
            json!({}),
            json!({"conditions": [{"type": "Failed", "status": "True"}]}),
        );
        assert_eq!(row(BuiltinKind::Job, failed).health, Health::Error);
    }
}
