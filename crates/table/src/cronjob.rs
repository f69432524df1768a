//! CronJobs: slim decoder and row (SCHEDULE, TIMEZONE, SUSPEND, ACTIVE, LAST SCHEDULE, AGE;
//! wide CONTAINERS, IMAGES, SELECTOR). Must not keep the job template beyond container names
//! and images.

use std::borrow::Cow;
use serde::Deserialize;

use ktui_kube::row::{Cell, Health, IntoRow, Row, RowCtx, UnixSecs};

use super::{col, wide, KindSpec};
use super::labels::{selector_cell, LabelSelector};
use super::meta::{text, time, Count, ObjMeta};
use super::workload::PodTemplate;

/// A cron job, decoded only as far as its columns need.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct CronJobObj {
    /// `metadata`.
    pub metadata: ObjMeta,
    /// `spec`.
    pub spec: CronJobSpec,
    /// `status`.
    pub status: CronJobStatus,
}

/// The parts of `spec` the columns read.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct CronJobSpec {
    /// `spec.schedule`.
    pub schedule: String,
    /// `spec.timeZone`.
    pub time_zone: Option<String>,
    /// `spec.suspend` (the server defaults it to false).
    pub suspend: Option<bool>,
    /// `spec.jobTemplate`.
    pub job_template: JobTemplate,
}

/// `spec.jobTemplate`.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct JobTemplate {
    /// `spec.jobTemplate.spec`.
    pub spec: JobTemplateSpec,
}

/// `spec.jobTemplate.spec`.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct JobTemplateSpec {
    /// `spec.jobTemplate.spec.selector` (normally unset).
    pub selector: Option<LabelSelector>,
    /// `spec.jobTemplate.spec.template`.
    pub template: PodTemplate,
}

/// The parts of `status` the columns read.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct CronJobStatus {
    /// Number of `status.active` entries.
    pub active: Count,
    /// `status.lastScheduleTime`.
    #[serde(deserialize_with = "time")]
    pub last_schedule_time: Option<UnixSecs>,
}

/// The columns after NAME, index for index with the row's cells (`kubectl get cronjob`).
pub static SPEC: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        col("SCHEDULE"),
        col("TIMEZONE"),
        col("SUSPEND"),
        col("ACTIVE"),
        col("LAST SCHEDULE"),
        col("AGE"),
        wide("CONTAINERS"),
        wide("IMAGES"),
        wide("SELECTOR"),
    ]),
    status_col: Some(2),
};

impl IntoRow for CronJobObj {
    fn into_row(self, ctx: &RowCtx) -> Row {
        let spec = &self.spec;
        let (suspend, health) = match spec.suspend {
            Some(true) => ("True", Health::Warn),
            Some(false) => ("False", Health::Ok),
            None => ("<unset>", Health::Ok),
        };
        let tmpl = &spec.job_template.spec;
        let [containers, images] = tmpl.template.containers_images();
        let cells = vec![
            text(&spec.schedule),
            spec.time_zone.as_deref().map_or(Cell::Static("<none>"), text),
            Cell::Static(suspend),
            Cell::Int(self.status.active.0 as i64),
            self.status
                .last_schedule_time
                .map_or(Cell::Static("<none>"), |t| Cell::Age(Some(t))),
            Cell::Age(self.metadata.creation_timestamp),
            containers,
            images,
            selector_cell(tmpl.selector.as_ref()),
        ];
        self.metadata.into_row(ctx, cells, health, None)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use ktui_kube::builtin::BuiltinKind;
    use ktui_kube::row::Health;
    use crate::testutil::{ago, cells, row};

    #[test]
    fn columns() {
        let cj = json!({
            "metadata": {"name": "nightly", "creationTimestamp": ago(86_400 * 3)},
            "spec": {"schedule": "*/5 * * * *", "timeZone": "Europe/Paris", "suspend": false,
                "jobTemplate": {"spec": {"template": {"spec": {"containers": [{"name": "c", "image": "busybox"}]}}}}},
            "status": {"active": [{"name": "nightly-1"}, {"name": "nightly-2"}], "lastScheduleTime": ago(65)}
        });
        assert_eq!(
            cells(BuiltinKind::CronJob, cj),
            [
                "*/5 * * * *",
                "Europe/Paris",
                "False",
                "2",
                "65s",
                "3d",
                "c",
                "busybox",
                "<none>"
            ]
        );
        let bare = json!({"spec": {"schedule": "@daily", "suspend": true}});
        assert_eq!(
            cells(BuiltinKind::CronJob, bare.clone()),
            [
                "@daily",
                "<none>",
                "True",
                "0",
                "<none>",
                "<unknown>",
                "",
                "",
                "<none>"
            ]
        );
        assert_eq!(row(BuiltinKind::CronJob, bare).health, Health::Warn);
        assert_eq!(cells(BuiltinKind::CronJob, json!({}))[2], "<unset>");
    }
}
