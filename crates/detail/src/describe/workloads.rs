//! The kind-specific describe sections of workload controllers — Deployment, ReplicaSet,
//! StatefulSet, DaemonSet, Job, CronJob — as `kubectl describe` lays them out, from the one
//! object alone. Must not claim what only other objects could tell (pods' phases, the
//! Deployment's ReplicaSets): pod counts come from the controller's own status and say so.

use serde_json::Value;

use super::fmt::{
    count, each, field, inline_labels, items, kv, or_none, or_unset, scalar, selector, set_fields, str_of,
    strings, when, Col, TOP,
};
use super::template::pod_template;
use ktui_table::format::human_duration;
use ktui_table::meta::parse_rfc3339;

/// `Pods Status:` from the controller's own `status` counters (`2 Ready / 2 Available`),
/// saying so: kubectl counts the pods' phases, which this view does not have.
fn pods_status(out: &mut Vec<String>, status: &Value, counters: &[(&str, &str)]) {
    let parts: Vec<String> = counters
        .iter()
        .map(|(label, key)| format!("{} {label}", count(&status[key])))
        .collect();
    let text = format!(
        "{}  (from the controller's status; pods not listed)",
        parts.join(" / ")
    );
    field(out, "Pods Status", &text);
}

/// `spec.replicas`, defaulted to 1 as the API server does.
fn desired(spec: &Value) -> i64 {
    spec["replicas"].as_i64().unwrap_or(1)
}

/// Deployment: selector, replica counts, strategy, pod template.
pub(super) fn deployment(out: &mut Vec<String>, obj: &Value) {
    let (spec, status) = (&obj["spec"], &obj["status"]);
    field(out, "Selector", &selector(&spec["selector"]));
    field(
        out,
        "Replicas",
        &format!(
            "{} desired | {} updated | {} total | {} available | {} unavailable",
            desired(spec),
            count(&status["updatedReplicas"]),
            count(&status["replicas"]),
            count(&status["availableReplicas"]),
            count(&status["unavailableReplicas"])
        ),
    );
    field(out, "StrategyType", str_of(&spec["strategy"]["type"]));
    field(
        out,
        "MinReadySeconds",
        &count(&spec["minReadySeconds"]).to_string(),
    );
    let ru = &spec["strategy"]["rollingUpdate"];
    if ru.is_object() {
        let pct = |k: &str| ru.get(k).map_or_else(|| "25%".to_owned(), scalar);
        let text = format!(
            "{} max unavailable, {} max surge",
            pct("maxUnavailable"),
            pct("maxSurge")
        );
        field(out, "RollingUpdateStrategy", &text);
    }
    if spec["paused"].as_bool() == Some(true) {
        field(out, "Paused", "true (rollouts are paused)");
    }
    pod_template(out, &spec["template"]);
}

/// ReplicaSet: selector, replicas, ready/available counts from status, pod template.
pub(super) fn replicaset(out: &mut Vec<String>, obj: &Value) {
    let (spec, status) = (&obj["spec"], &obj["status"]);
    field(out, "Selector", &selector(&spec["selector"]));
    let replicas = format!(
        "{} current / {} desired",
        count(&status["replicas"]),
        desired(spec)
    );
    field(out, "Replicas", &replicas);
    pods_status(
        out,
        status,
        &[("Ready", "readyReplicas"), ("Available", "availableReplicas")],
    );
    pod_template(out, &spec["template"]);
}

/// StatefulSet: selector, service, policies, replicas, update strategy, pod template and
/// volume claim templates.
pub(super) fn statefulset(out: &mut Vec<String>, obj: &Value) {
    let (spec, status) = (&obj["spec"], &obj["status"]);
    field(out, "Selector", &selector(&spec["selector"]));
    if let Some(s) = spec["serviceName"].as_str().filter(|s| !s.is_empty()) {
        field(out, "Service Name", s);
    }
    if let Some(p) = spec["podManagementPolicy"].as_str() {
        field(out, "Pod Management Policy", p);
    }
    let replicas = format!("{} desired | {} total", desired(spec), count(&status["replicas"]));
    field(out, "Replicas", &replicas);
    update_strategy(out, &spec["updateStrategy"]);
    let retention = &spec["persistentVolumeClaimRetentionPolicy"];
    if retention.is_object() {
        out.push("Persistent Volume Claim Retention Policy:".into());
        let policies = [("WhenDeleted", "whenDeleted"), ("WhenScaled", "whenScaled")];
        set_fields(out, Col::new(2, 16), retention, &policies);
    }
    pods_status(
        out,
        status,
        &[
            ("Ready", "readyReplicas"),
            ("Current", "currentReplicas"),
            ("Updated", "updatedReplicas"),
            ("Available", "availableReplicas"),
        ],
    );
    pod_template(out, &spec["template"]);
    let claims = items(&spec["volumeClaimTemplates"]);
    if claims.is_empty() {
        field(out, "Volume Claims", "<none>");
        return;
    }
    out.push("Volume Claims:".into());
    let col = Col::new(2, 16);
    for pvc in claims {
        kv(out, col, "Name", str_of(&pvc["metadata"]["name"]));
        let class = match &pvc["spec"]["storageClassName"] {
            Value::String(s) if s.is_empty() => "<none>".to_owned(),
            Value::Null => "<default>".to_owned(),
            other => scalar(other),
        };
        kv(out, col, "StorageClass", &class);
        let storage = &pvc["spec"]["resources"]["requests"]["storage"];
        kv(
            out,
            col,
            "Capacity",
            &if storage.is_null() {
                "<default>".into()
            } else {
                scalar(storage)
            },
        );
        kv(
            out,
            col,
            "Access Modes",
            &strings(&pvc["spec"]["accessModes"]).join(","),
        );
    }
}

/// `Update Strategy:` of a StatefulSet or DaemonSet with its rolling-update knobs.
fn update_strategy(out: &mut Vec<String>, strategy: &Value) {
    field(out, "Update Strategy", str_of(&strategy["type"]));
    let knobs = [
        ("Partition", "partition"),
        ("MaxUnavailable", "maxUnavailable"),
        ("MaxSurge", "maxSurge"),
    ];
    set_fields(out, Col::new(2, 16), &strategy["rollingUpdate"], &knobs);
}

/// DaemonSet: selector, node selector, scheduling counts, update strategy, pod template
/// (whose `Tolerations` decide where it runs).
pub(super) fn daemonset(out: &mut Vec<String>, obj: &Value) {
    let (spec, status) = (&obj["spec"], &obj["status"]);
    field(out, "Selector", &selector(&spec["selector"]));
    let node_selector = inline_labels(&spec["template"]["spec"]["nodeSelector"]);
    field(out, "Node-Selector", &node_selector);
    for (label, key) in [
        ("Desired Number of Nodes Scheduled", "desiredNumberScheduled"),
        ("Current Number of Nodes Scheduled", "currentNumberScheduled"),
        (
            "Number of Nodes Scheduled with Up-to-date Pods",
            "updatedNumberScheduled",
        ),
        ("Number of Nodes Scheduled with Available Pods", "numberAvailable"),
        ("Number of Nodes Misscheduled", "numberMisscheduled"),
    ] {
        field(out, label, &count(&status[key]).to_string());
    }
    pods_status(
        out,
        status,
        &[("Ready", "numberReady"), ("Unavailable", "numberUnavailable")],
    );
    update_strategy(out, &spec["updateStrategy"]);
    pod_template(out, &spec["template"]);
}

/// A job spec's lines (a Job's own, or a CronJob's job template): selector, parallelism,
/// completions (`<unset>` when absent), then whichever optional knobs are set.
fn job_spec(out: &mut Vec<String>, spec: &Value) {
    let sel = if spec["selector"].is_null() {
        "<unset>".into()
    } else {
        selector(&spec["selector"])
    };
    field(out, "Selector", &sel);
    field(out, "Parallelism", &or_unset(&spec["parallelism"]));
    field(out, "Completions", &or_unset(&spec["completions"]));
    let knobs = [
        ("Completion Mode", "completionMode"),
        ("Suspend", "suspend"),
        ("Backoff Limit", "backoffLimit"),
        ("TTL Seconds After Finished", "ttlSecondsAfterFinished"),
    ];
    set_fields(out, TOP, spec, &knobs);
    if let Some(s) = spec["activeDeadlineSeconds"].as_i64() {
        field(out, "Active Deadline Seconds", &format!("{s}s"));
    }
}

/// Job: its spec, start/completion times and duration, pod counts from status, pod template.
pub(super) fn job(out: &mut Vec<String>, obj: &Value, now: i64) {
    let (spec, status) = (&obj["spec"], &obj["status"]);
    job_spec(out, spec);
    if let Some(t) = when(&status["startTime"], now) {
        field(out, "Start Time", &t);
    }
    if let Some(t) = when(&status["completionTime"], now) {
        field(out, "Completed At", &t);
    }
    let at = |k: &str| status[k].as_str().and_then(parse_rfc3339);
    if let (Some(start), Some(done)) = (at("startTime"), at("completionTime")) {
        field(out, "Duration", &human_duration(done - start));
    }
    let ready = status["ready"]
        .as_i64()
        .map(|r| format!(" ({r} Ready)"))
        .unwrap_or_default();
    let pods = format!(
        "{} Active{ready} / {} Succeeded / {} Failed",
        count(&status["active"]),
        count(&status["succeeded"]),
        count(&status["failed"])
    );
    field(out, "Pods Statuses", &pods);
    if spec["completionMode"] == "Indexed" {
        let done = str_of(&status["completedIndexes"]);
        field(
            out,
            "Completed Indexes",
            if done.is_empty() { "<none>" } else { done },
        );
    }
    pod_template(out, &spec["template"]);
}

/// CronJob: schedule and policies, the job template, last schedule/success, active jobs.
pub(super) fn cronjob(out: &mut Vec<String>, obj: &Value, now: i64) {
    let (spec, status) = (&obj["spec"], &obj["status"]);
    field(out, "Schedule", str_of(&spec["schedule"]));
    field(out, "Concurrency Policy", str_of(&spec["concurrencyPolicy"]));
    field(out, "Suspend", &or_unset(&spec["suspend"]));
    field(out, "Time Zone", &or_unset(&spec["timeZone"]));
    field(
        out,
        "Successful Job History Limit",
        &or_unset(&spec["successfulJobsHistoryLimit"]),
    );
    field(
        out,
        "Failed Job History Limit",
        &or_unset(&spec["failedJobsHistoryLimit"]),
    );
    let deadline = spec["startingDeadlineSeconds"].as_i64().map(|s| format!("{s}s"));
    field(
        out,
        "Starting Deadline Seconds",
        deadline.as_deref().unwrap_or("<unset>"),
    );
    let job_template = &spec["jobTemplate"]["spec"];
    job_spec(out, job_template);
    pod_template(out, &job_template["template"]);
    for (label, key) in [
        ("Last Schedule Time", "lastScheduleTime"),
        ("Last Successful Time", "lastSuccessfulTime"),
    ] {
        field(
            out,
            label,
            &when(&status[key], now).unwrap_or_else(|| "<unset>".into()),
        );
    }
    field(
        out,
        "Active Jobs",
        &or_none(each(&status["active"], "name").join(", ")),
    );
}
