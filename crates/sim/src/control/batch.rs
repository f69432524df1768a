//! The job and cronjob controllers of the demo cluster: a Job runs one pod from its template
//! until it succeeds, then completes (`Complete`, `completionTime`, `succeeded`); a CronJob
//! creates a Job from its `jobTemplate` every [`JOB_EVERY`] ticks (the demo's compressed
//! schedule) unless `spec.suspend` is set or `Forbid` finds one active, tracks `active` and
//! `lastScheduleTime`, and prunes completed Jobs beyond `successfulJobsHistoryLimit` (their pods
//! go by garbage collection). Jobs created by hand from the template (`kubectl create job
//! --from=cronjob/…`) run the same way. Writes through the store's write API; must not bypass it.

use serde_json::{json, Value};

use super::{
    controlled_by, create_pod, delete_child, name_of, objects, owner_ref, pod_ready, terminating, uid_of,
    write_status,
};
use crate::defaults::{self, random_suffix};
use crate::kinds::id;
use crate::scenario::World;
use crate::store::now_rfc3339;

/// Ticks between the runs of a CronJob.
pub(crate) const JOB_EVERY: u64 = 30;

fn complete(j: &Value) -> bool {
    j["status"]["conditions"].as_array().is_some_and(|cs| {
        cs.iter()
            .any(|c| c["type"] == "Complete" && c["status"] == "True")
    })
}

impl World {
    pub(crate) fn jobs(&mut self, ns: &str, pods: &[Value]) {
        let store = self.store.clone();
        let jobs = objects(&store, id::JOB, Some(ns));
        if jobs.is_empty() {
            return;
        }
        for j in jobs.iter().filter(|j| !terminating(j) && !complete(j)) {
            let mine: Vec<&Value> = pods.iter().filter(|p| controlled_by(p, uid_of(j))).collect();
            let succeeded = mine
                .iter()
                .filter(|p| p["status"]["phase"] == "Succeeded")
                .count();
            let active: Vec<&&Value> = mine
                .iter()
                .filter(|p| {
                    !terminating(p) && !matches!(p["status"]["phase"].as_str(), Some("Succeeded" | "Failed"))
                })
                .collect();
            let suspended = j["spec"]["suspend"] == json!(true);
            let start = j["status"]["startTime"]
                .as_str()
                .map(str::to_owned)
                .unwrap_or_else(now_rfc3339);
            if succeeded == 0 && active.is_empty() && !suspended {
                let name = format!("{}-{}", name_of(j), random_suffix());
                if create_pod(&store, j, &j["spec"]["template"], &name, &[], None).is_ok() {
                    self.controller_event(
                        j,
                        "Normal",
                        "SuccessfulCreate",
                        &format!("Created pod: {name}"),
                        "job-controller",
                    );
                }
                write_status(
                    &store,
                    id::JOB,
                    j,
                    json!({"startTime": start, "active": 1, "ready": 0, "terminating": 0, "uncountedTerminatedPods": {}}),
                );
                continue;
            }
            if succeeded > 0 {
                let now = now_rfc3339();
                write_status(
                    &store,
                    id::JOB,
                    j,
                    json!({"startTime": start, "completionTime": now, "succeeded": succeeded, "ready": 0, "terminating": 0,
                    "uncountedTerminatedPods": {},
                    "conditions": [{"type": "SuccessCriteriaMet", "status": "True", "reason": "CompletionsReached", "message": "Reached expected number of succeeded pods", "lastProbeTime": now, "lastTransitionTime": now},
                                   {"type": "Complete", "status": "True", "reason": "CompletionsReached", "message": "Reached expected number of succeeded pods", "lastProbeTime": now, "lastTransitionTime": now}]}),
                );
                self.controller_event(j, "Normal", "Completed", "Job completed", "job-controller");
                continue;
            }
            let ready = active.iter().filter(|p| pod_ready(p)).count();
            write_status(
                &store,
                id::JOB,
                j,
                json!({"startTime": start, "active": active.len(), "ready": ready, "terminating": 0, "uncountedTerminatedPods": {}}),
            );
        }
    }

    pub(crate) fn cronjobs(&mut self, ns: &str) {
        let store = self.store.clone();
        let crons = objects(&store, id::CRONJOB, Some(ns));
        if crons.is_empty() {
            return;
        }
        let jobs = objects(&store, id::JOB, Some(ns));
        for c in crons.iter().filter(|c| !terminating(c)) {
            let mine: Vec<&Value> = jobs
                .iter()
                .filter(|j| controlled_by(j, uid_of(c)) && !terminating(j))
                .collect();
            let active: Vec<Value> = mine
                .iter()
                .filter(|j| !complete(j))
                .map(|j| json!({"kind": "Job", "namespace": ns, "name": name_of(j), "uid": uid_of(j), "apiVersion": "batch/v1"}))
                .collect();
            let mut status = c["status"].clone();
            if !status.is_object() {
                status = json!({});
            }
            let due = self.tick > 0 && self.tick % JOB_EVERY == 5;
            let suspended = c["spec"]["suspend"] == json!(true);
            let forbid = c["spec"]["concurrencyPolicy"] == "Forbid" && !active.is_empty();
            let mut active = active;
            if due && !suspended && !forbid {
                let name = format!("{}-{}", name_of(c), 29_000_000 + self.tick / JOB_EVERY);
                let now = now_rfc3339();
                let tpl = &c["spec"]["jobTemplate"];
                let mut meta = json!({"namespace": ns, "name": name, "ownerReferences": [owner_ref(c)],
                    "annotations": {"batch.kubernetes.io/cronjob-scheduled-timestamp": now}});
                if let Some(l) = tpl["metadata"]["labels"].as_object() {
                    meta["labels"] = json!(l);
                }
                let mut job = json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": meta, "spec": tpl["spec"].clone()});
                defaults::prepare_create(id::JOB, &mut job);
                if let Ok(s) = store.create(id::JOB, job) {
                    let v: Value = serde_json::from_slice(&s.bytes).unwrap_or(Value::Null);
                    active.push(json!({"kind": "Job", "namespace": ns, "name": name, "uid": uid_of(&v), "apiVersion": "batch/v1"}));
                    status["lastScheduleTime"] = json!(now);
                    self.controller_event(
                        c,
                        "Normal",
                        "SuccessfulCreate",
                        &format!("Created job {name}"),
                        "cronjob-controller",
                    );
                }
            }
            let mut done: Vec<&&Value> = mine.iter().filter(|j| complete(j)).collect();
            if let Some(last) = done
                .iter()
                .filter_map(|j| j["status"]["completionTime"].as_str())
                .max()
            {
                status["lastSuccessfulTime"] = json!(last);
            }
            done.sort_by_key(|j| j["status"]["completionTime"].as_str().unwrap_or("").to_owned());
            let keep = c["spec"]["successfulJobsHistoryLimit"].as_u64().unwrap_or(3) as usize;
            if done.len() > keep {
                for j in &done[..done.len() - keep] {
                    delete_child(&store, id::JOB, j);
                    self.controller_event(
                        c,
                        "Normal",
                        "SuccessfulDelete",
                        &format!("Deleted job {}", name_of(j)),
                        "cronjob-controller",
                    );
                }
            }
            if active.is_empty() {
                if let Some(m) = status.as_object_mut() {
                    m.remove("active");
                }
            } else {
                status["active"] = json!(active);
            }
            write_status(&store, id::CRONJOB, c, status);
        }
    }
}
