//! Jobs, gizmos and workload roll-ups of the default scenario: the cronjob's periodic jobs
//! (created, completed, pruned), gizmo phase changes, and Deployment/ReplicaSet status
//! recomputed from their pods. Writes only through the store's API.

use rand::Rng;

use super::events::Source;
use super::kinds::id;
use super::objects::{self as o, Replicas};
use super::pods::{Life, PodModel};
use super::scenario::{image_of, World};
use super::store::now_rfc3339;

/// Ticks between jobs of the cronjob.
pub(crate) const JOB_EVERY: u64 = 30;

impl World {
    pub(crate) fn start_job(&mut self) {
        let name = format!("nightly-report-{}", 29_000_000 + self.tick / JOB_EVERY);
        let now = now_rfc3339();
        let owner = o::owner("batch/v1", "CronJob", "nightly-report", &self.cron_uid);
        let Ok(job) = self
            .store
            .apply(id::JOB, o::job("batch", &name, Some(owner), &now, None, 1))
        else {
            return;
        };
        let job_uid = super::scenario::uid_of(&job);
        let pod_name = self.pod_name(&name, "");
        let mut p = PodModel::new("batch", &pod_name, "report", "busybox:1.37");
        p.labels.push(("job-name".into(), name.clone()));
        p.owner = Some(("batch/v1".into(), "Job".into(), name.clone(), job_uid.clone()));
        p.restart_policy = "Never";
        self.write_pod(p);
        let active = [
            serde_json::json!({"kind": "Job", "namespace": "batch", "name": name, "uid": job_uid, "apiVersion": "batch/v1"}),
        ];
        let _ = self.store.apply(
            id::CRONJOB,
            o::cronjob("batch", "nightly-report", "*/1 * * * *", Some(&now), &active),
        );
        let r = super::events::Involved {
            kind: "CronJob".into(),
            api_version: "batch/v1".into(),
            namespace: "batch".into(),
            name: "nightly-report".into(),
            uid: self.cron_uid.clone(),
            field_path: None,
        };
        let src = Source::Legacy {
            component: "cronjob-controller",
            host: String::new(),
        };
        self.events.record(
            &r,
            "Normal",
            "SuccessfulCreate",
            &format!("Created job {name}"),
            &src,
            &now,
        );
        self.jobs.push((name, false));
    }

    pub(crate) fn finish_jobs(&mut self) {
        for i in 0..self.jobs.len() {
            let (name, done) = self.jobs[i].clone();
            if done {
                continue;
            }
            let finished = self
                .pods
                .values()
                .find(|p| p.labels.iter().any(|(k, v)| k == "job-name" && *v == name))
                .filter(|p| p.life == Life::Completed)
                .cloned();
            if let Some(p) = finished {
                let now = now_rfc3339();
                let start = p.started.clone().unwrap_or_else(|| now.clone());
                let owner = o::owner("batch/v1", "CronJob", "nightly-report", &self.cron_uid);
                if let Ok(job) = self.store.apply(
                    id::JOB,
                    o::job("batch", &name, Some(owner), &start, Some(&now), 0),
                ) {
                    let r = super::events::Involved {
                        kind: "Job".into(),
                        api_version: "batch/v1".into(),
                        namespace: "batch".into(),
                        name: name.clone(),
                        uid: super::scenario::uid_of(&job),
                        field_path: None,
                    };
                    let src = Source::Legacy {
                        component: "job-controller",
                        host: String::new(),
                    };
                    self.events
                        .record(&r, "Normal", "Completed", "Job completed", &src, &now);
                }
                let _ = self.store.apply(
                    id::CRONJOB,
                    o::cronjob("batch", "nightly-report", "*/1 * * * *", Some(&start), &[]),
                );
                self.jobs[i].1 = true;
            }
        }
        while self.jobs.len() > 3 && self.jobs[0].1 {
            let (name, _) = self.jobs.remove(0);
            let _ = self.store.delete(id::JOB, "batch", &name);
            let pods: Vec<String> = self
                .pods
                .iter()
                .filter(|(_, p)| p.labels.iter().any(|(k, v)| k == "job-name" && *v == name))
                .map(|(k, _)| k.clone())
                .collect();
            for k in pods {
                if let Some(p) = self.pods.remove(&k) {
                    let _ = self.store.delete(id::POD, &p.namespace, &p.name);
                }
            }
        }
    }

    pub(crate) fn flip_gizmo(&mut self) {
        let phases = ["Pending", "Ready", "Degraded"];
        let phase = phases[self.rng.random_range(0..phases.len())];
        let name = ["sprocket", "widget", "doohickey"][self.rng.random_range(0..3)];
        let _ = self.store.modify(id::GIZMO, "demo", name, |v| {
            v["status"]["phase"] = serde_json::json!(phase)
        });
    }

    /// Writes Deployment and ReplicaSet status where their pods' counts changed.
    pub(crate) fn flush_workloads(&mut self) {
        for d in 0..self.deploys.len() {
            let dep = &self.deploys[d];
            let count = |hash: &str, ready_only: bool| -> u32 {
                self.pods
                    .values()
                    .filter(|p| {
                        p.namespace == dep.ns
                            && p.deleting.is_none()
                            && p.labels
                                .iter()
                                .any(|(k, v)| k == "pod-template-hash" && v == hash)
                            && (!ready_only || p.life == Life::Running { ready: true })
                    })
                    .count() as u32
            };
            let newest = dep.sets.last().map(|s| s.0.clone()).unwrap_or_default();
            let mut total = Replicas {
                desired: dep.replicas,
                ..Replicas::default()
            };
            let mut per_set = Vec::new();
            for (hash, _, _) in &dep.sets {
                let (cur, ready) = (count(hash, false), count(hash, true));
                total.current += cur;
                total.ready += ready;
                total.available += ready;
                if *hash == newest {
                    total.updated = cur;
                }
                per_set.push(Replicas {
                    desired: if *hash == newest {
                        dep.replicas.min(cur.max(1))
                    } else {
                        cur
                    },
                    current: cur,
                    ready,
                    updated: cur,
                    available: ready,
                });
            }
            if dep.last == Some((total, dep.sets.len())) {
                continue;
            }
            let (ns, app, uid, gen) = (dep.ns, dep.app, dep.uid.clone(), u64::from(dep.version));
            let img = image_of(dep);
            let sets = dep.sets.clone();
            let _ = self
                .store
                .apply(id::DEPLOYMENT, o::deployment(ns, app, &img, total, gen));
            for ((hash, _, image), r) in sets.iter().zip(per_set) {
                let owner = o::owner("apps/v1", "Deployment", app, &uid);
                let _ = self
                    .store
                    .apply(id::REPLICASET, o::replicaset(ns, app, hash, image, r, owner));
            }
            self.deploys[d].last = Some((total, sets.len()));
        }
    }
}
