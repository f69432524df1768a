//! One tick of the default scenario: pod lifecycles (scheduling, container creation,
//! readiness, crash loops, deletion), the periodic rollout and pod replacement, jobs from the
//! cronjob, gizmo phases, and workload status roll-ups — each with the events a real cluster
//! would record. Writes only through the store's API.

use rand::Rng;

use super::events::Source;
use super::kinds::id;
use super::objects::{self as o, Replicas};
use super::pods::{Life, PodModel};
use super::scenario::{image_of, World};
use super::store::{key_of, now_rfc3339};

/// Ticks between rollouts of `data/api-gateway`.
const ROLLOUT_EVERY: u64 = 45;
/// Ticks between jobs of the cronjob.
const JOB_EVERY: u64 = 30;

impl World {
    /// Advances the scenario by one tick.
    pub(crate) fn step(&mut self) {
        self.tick += 1;
        let keys: Vec<String> = self.pods.keys().cloned().collect();
        for k in keys {
            self.advance_pod(&k);
        }
        if self.tick % ROLLOUT_EVERY == 0 {
            self.start_rollout("api-gateway");
        }
        if self.tick % 25 == 0 {
            self.replace_random_pod("frontend");
        }
        self.drive_rollouts();
        if self.tick % JOB_EVERY == 5 {
            self.start_job();
        }
        self.finish_jobs();
        if self.tick % 10 == 0 {
            self.flip_gizmo();
        }
        self.flush_workloads();
    }

    fn advance_pod(&mut self, key: &str) {
        let Some(mut p) = self.pods.get(key).cloned() else { return };
        p.age_in_stage += 1;
        let now = now_rfc3339();
        let crashes = self.deploys.iter().any(|d| d.crashes && d.app == p.app && d.ns == p.namespace);
        let changed = if p.deleting.is_some() {
            if p.age_in_stage >= 2 {
                let _ = self.store.delete(id::POD, &p.namespace, &p.name);
                self.pods.remove(key);
                return;
            }
            false
        } else {
            match p.life {
                Life::Pending if p.age_in_stage >= 1 => {
                    let node = p.node.clone().unwrap_or_else(|| self.pick_node());
                    p.node = Some(node.clone());
                    p.set(Life::Creating);
                    let msg = format!("Successfully assigned {}/{} to {node}", p.namespace, p.name);
                    let sched = Source::Series { controller: "default-scheduler", instance: "default-scheduler-control-plane-1".into(), action: "Binding" };
                    self.events.record(&self.pod_ref(&p, false), "Normal", "Scheduled", &msg, &sched, &now);
                    let msg = format!("Pulling image \"{}\"", p.image);
                    self.events.record(&self.pod_ref(&p, true), "Normal", "Pulling", &msg, &World::kubelet(&node), &now);
                    true
                }
                Life::Creating if p.age_in_stage >= 2 => {
                    let node = p.node.clone().unwrap_or_default();
                    p.ip = Some(self.ip());
                    p.started = Some(now.clone());
                    p.set(Life::Running { ready: false });
                    let src = World::kubelet(&node);
                    let r = self.pod_ref(&p, true);
                    let pulled = format!("Successfully pulled image \"{}\" in 1.2s (1.2s including waiting). Image size: 48213504 bytes.", p.image);
                    self.events.record(&r, "Normal", "Pulled", &pulled, &src, &now);
                    self.events.record(&r, "Normal", "Created", &format!("Created container: {}", p.app), &src, &now);
                    self.events.record(&r, "Normal", "Started", &format!("Started container {}", p.app), &src, &now);
                    true
                }
                Life::Running { ready: false } if p.age_in_stage >= 1 => {
                    if crashes {
                        p.last_finished = Some(now.clone());
                        p.set(Life::Failed);
                    } else {
                        p.set(Life::Running { ready: true });
                    }
                    true
                }
                Life::Running { ready: true } if p.restart_policy == "Never" && p.age_in_stage >= 4 => {
                    p.last_finished = Some(now.clone());
                    p.set(Life::Completed);
                    true
                }
                Life::Failed if p.age_in_stage >= 1 => {
                    p.restarts += 1;
                    p.set(Life::CrashLoop);
                    let node = p.node.clone().unwrap_or_default();
                    let msg = format!("Back-off restarting failed container {} in pod {}_{}({})", p.app, p.name, p.namespace, self.pod_ref(&p, false).uid);
                    self.events.record(&self.pod_ref(&p, true), "Warning", "BackOff", &msg, &World::kubelet(&node), &now);
                    true
                }
                Life::CrashLoop if p.age_in_stage >= 3 + (1u32 << p.restarts.min(6)) => {
                    p.started = Some(now.clone());
                    p.set(Life::Running { ready: false });
                    true
                }
                _ => false,
            }
        };
        if changed {
            self.write_pod(p);
        } else if let Some(m) = self.pods.get_mut(key) {
            m.age_in_stage = p.age_in_stage;
        }
    }

    fn deployment_event(&mut self, d: usize, msg: String) {
        let dep = &self.deploys[d];
        let r = super::events::Involved { kind: "Deployment".into(), api_version: "apps/v1".into(), namespace: dep.ns.into(),
                                          name: dep.app.into(), uid: dep.uid.clone(), field_path: None };
        let src = Source::Legacy { component: "deployment-controller", host: String::new() };
        self.events.record(&r, "Normal", "ScalingReplicaSet", &msg, &src, &now_rfc3339());
    }

    fn start_rollout(&mut self, app: &str) {
        let Some(d) = self.deploys.iter().position(|d| d.app == app) else { return };
        if self.deploys[d].sets.len() > 1 {
            return;
        }
        self.deploys[d].version += 1;
        match self.new_replicaset(&self.deploys[d].clone_shallow()) {
            Ok(set) => self.deploys[d].sets.push(set),
            Err(e) => tracing::warn!(error = %e, "demo scenario: rollout not started"),
        }
    }

    /// One step of every rollout in progress: surge one new pod at a time, retire one old
    /// pod per ready new one.
    fn drive_rollouts(&mut self) {
        for d in 0..self.deploys.len() {
            if self.deploys[d].sets.len() < 2 {
                continue;
            }
            let (ns, app, replicas) = (self.deploys[d].ns, self.deploys[d].app, self.deploys[d].replicas);
            let (new_hash, new_uid, new_img) = self.deploys[d].sets.last().cloned().unwrap_or_default();
            let owned = |w: &World, hash: &str| -> Vec<String> {
                w.pods.values().filter(|p| p.namespace == ns && p.deleting.is_none() && p.labels.iter().any(|(k, v)| k == "pod-template-hash" && v == hash))
                    .map(|p| p.name.clone()).collect()
            };
            let new_pods = owned(self, &new_hash);
            let ready_new = new_pods.iter().filter(|n| self.pods.get(&key_of(ns, n)).is_some_and(|p| p.life == Life::Running { ready: true })).count();
            let old_hash = self.deploys[d].sets[0].0.clone();
            let old_pods = owned(self, &old_hash);
            let in_flight = new_pods.len() - ready_new;
            if new_pods.len() < replicas as usize && in_flight == 0 {
                let name = self.pod_name(app, &new_hash);
                let p = self.owned_pod(ns, &name, app, &new_img, &new_hash, &new_uid);
                self.write_pod(p);
                self.deployment_event(d, format!("Scaled up replica set {app}-{new_hash} from {} to {}", new_pods.len(), new_pods.len() + 1));
            }
            if ready_new + old_pods.len() > replicas as usize {
                if let Some(victim) = old_pods.first() {
                    self.retire(&key_of(ns, victim));
                    self.deployment_event(d, format!("Scaled down replica set {app}-{old_hash} from {} to {}", old_pods.len(), old_pods.len() - 1));
                }
            }
            if old_pods.is_empty() && ready_new == replicas as usize {
                let old = self.deploys[d].sets.remove(0);
                let _ = self.store.delete(id::REPLICASET, ns, &format!("{app}-{}", old.0));
            }
        }
    }

    /// Marks a pod Terminating (it disappears two ticks later) and records the kill.
    fn retire(&mut self, key: &str) {
        let Some(mut p) = self.pods.get(key).cloned() else { return };
        if p.deleting.is_some() {
            return;
        }
        p.deleting = Some(now_rfc3339());
        p.age_in_stage = 0;
        let node = p.node.clone().unwrap_or_default();
        let msg = format!("Stopping container {}", p.app);
        self.events.record(&self.pod_ref(&p, true), "Normal", "Killing", &msg, &World::kubelet(&node), &now_rfc3339());
        self.write_pod(p);
    }

    fn replace_random_pod(&mut self, app: &str) {
        let candidates: Vec<String> = self.pods.iter().filter(|(_, p)| p.app == app && p.deleting.is_none()).map(|(k, _)| k.clone()).collect();
        if candidates.is_empty() {
            return;
        }
        let victim = candidates[self.rng.random_range(0..candidates.len())].clone();
        let Some(old) = self.pods.get(&victim).cloned() else { return };
        self.retire(&victim);
        let hash = old.labels.iter().find(|(k, _)| k == "pod-template-hash").map(|(_, v)| v.clone()).unwrap_or_default();
        let rs_uid = old.owner.as_ref().map(|o| o.3.clone()).unwrap_or_default();
        let name = self.pod_name(app, &hash);
        let p = self.owned_pod(&old.namespace, &name, app, &old.image, &hash, &rs_uid);
        self.write_pod(p);
    }

    fn start_job(&mut self) {
        let name = format!("nightly-report-{}", 29_000_000 + self.tick / JOB_EVERY);
        let now = now_rfc3339();
        let owner = o::owner("batch/v1", "CronJob", "nightly-report", &self.cron_uid);
        let Ok(job) = self.store.apply(id::JOB, o::job("batch", &name, Some(owner), &now, None, 1)) else { return };
        let job_uid = super::scenario::uid_of(&job);
        let pod_name = self.pod_name(&name, "");
        let mut p = PodModel::new("batch", &pod_name, "report", "busybox:1.37");
        p.labels.push(("job-name".into(), name.clone()));
        p.owner = Some(("batch/v1".into(), "Job".into(), name.clone(), job_uid.clone()));
        p.restart_policy = "Never";
        self.write_pod(p);
        let active = [serde_json::json!({"kind": "Job", "namespace": "batch", "name": name, "uid": job_uid, "apiVersion": "batch/v1"})];
        let _ = self.store.apply(id::CRONJOB, o::cronjob("batch", "nightly-report", "*/1 * * * *", Some(&now), &active));
        let r = super::events::Involved { kind: "CronJob".into(), api_version: "batch/v1".into(), namespace: "batch".into(),
                                          name: "nightly-report".into(), uid: self.cron_uid.clone(), field_path: None };
        let src = Source::Legacy { component: "cronjob-controller", host: String::new() };
        self.events.record(&r, "Normal", "SuccessfulCreate", &format!("Created job {name}"), &src, &now);
        self.jobs.push((name, false));
    }

    fn finish_jobs(&mut self) {
        for i in 0..self.jobs.len() {
            let (name, done) = self.jobs[i].clone();
            if done {
                continue;
            }
            let finished = self.pods.values().find(|p| p.labels.iter().any(|(k, v)| k == "job-name" && *v == name)).filter(|p| p.life == Life::Completed).cloned();
            if let Some(p) = finished {
                let now = now_rfc3339();
                let start = p.started.clone().unwrap_or_else(|| now.clone());
                let owner = o::owner("batch/v1", "CronJob", "nightly-report", &self.cron_uid);
                if let Ok(job) = self.store.apply(id::JOB, o::job("batch", &name, Some(owner), &start, Some(&now), 0)) {
                    let r = super::events::Involved { kind: "Job".into(), api_version: "batch/v1".into(), namespace: "batch".into(),
                                                      name: name.clone(), uid: super::scenario::uid_of(&job), field_path: None };
                    let src = Source::Legacy { component: "job-controller", host: String::new() };
                    self.events.record(&r, "Normal", "Completed", "Job completed", &src, &now);
                }
                let _ = self.store.apply(id::CRONJOB, o::cronjob("batch", "nightly-report", "*/1 * * * *", Some(&start), &[]));
                self.jobs[i].1 = true;
            }
        }
        while self.jobs.len() > 3 && self.jobs[0].1 {
            let (name, _) = self.jobs.remove(0);
            let _ = self.store.delete(id::JOB, "batch", &name);
            let pods: Vec<String> = self.pods.iter().filter(|(_, p)| p.labels.iter().any(|(k, v)| k == "job-name" && *v == name)).map(|(k, _)| k.clone()).collect();
            for k in pods {
                if let Some(p) = self.pods.remove(&k) {
                    let _ = self.store.delete(id::POD, &p.namespace, &p.name);
                }
            }
        }
    }

    fn flip_gizmo(&mut self) {
        let phases = ["Pending", "Ready", "Degraded"];
        let phase = phases[self.rng.random_range(0..phases.len())];
        let name = ["sprocket", "widget", "doohickey"][self.rng.random_range(0..3)];
        let _ = self.store.modify(id::GIZMO, "demo", name, |v| v["status"]["phase"] = serde_json::json!(phase));
    }

    /// Writes Deployment and ReplicaSet status where their pods' counts changed.
    pub(crate) fn flush_workloads(&mut self) {
        for d in 0..self.deploys.len() {
            let dep = &self.deploys[d];
            let count = |hash: &str, ready_only: bool| -> u32 {
                self.pods.values().filter(|p| p.namespace == dep.ns && p.deleting.is_none()
                    && p.labels.iter().any(|(k, v)| k == "pod-template-hash" && v == hash)
                    && (!ready_only || p.life == Life::Running { ready: true })).count() as u32
            };
            let newest = dep.sets.last().map(|s| s.0.clone()).unwrap_or_default();
            let mut total = Replicas { desired: dep.replicas, ..Replicas::default() };
            let mut per_set = Vec::new();
            for (hash, _, _) in &dep.sets {
                let (cur, ready) = (count(hash, false), count(hash, true));
                total.current += cur;
                total.ready += ready;
                total.available += ready;
                if *hash == newest {
                    total.updated = cur;
                }
                per_set.push(Replicas { desired: if *hash == newest { dep.replicas.min(cur.max(1)) } else { cur }, current: cur, ready, updated: cur, available: ready });
            }
            if dep.last == Some((total, dep.sets.len())) {
                continue;
            }
            let (ns, app, uid, gen) = (dep.ns, dep.app, dep.uid.clone(), u64::from(dep.version));
            let img = image_of(dep);
            let sets = dep.sets.clone();
            let _ = self.store.apply(id::DEPLOYMENT, o::deployment(ns, app, &img, total, gen));
            for ((hash, _, image), r) in sets.iter().zip(per_set) {
                let owner = o::owner("apps/v1", "Deployment", app, &uid);
                let _ = self.store.apply(id::REPLICASET, o::replicaset(ns, app, hash, image, r, owner));
            }
            self.deploys[d].last = Some((total, sets.len()));
        }
    }
}

impl super::scenario::Deploy {
    /// A copy of the fields a new ReplicaSet needs.
    pub(crate) fn clone_shallow(&self) -> super::scenario::Deploy {
        super::scenario::Deploy { ns: self.ns, app: self.app, image: self.image, version: self.version, replicas: self.replicas,
                                  uid: self.uid.clone(), sets: Vec::new(), crashes: self.crashes, last: None }
    }
}
