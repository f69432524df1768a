//! One tick of the default scenario: pod lifecycles (scheduling, container creation,
//! readiness, crash loops, deletion), the periodic rollout and pod replacement (jobs, gizmos
//! and status roll-ups are in `batch`) — each with the events a real cluster would record.
//! Writes only through the store's API.

use rand::Rng;

use super::batch::JOB_EVERY;
use super::events::Source;
use super::kinds::id;
use super::pods::Life;
use super::scenario::World;
use super::store::{key_of, now_rfc3339};

/// Ticks between rollouts of `data/api-gateway`.
const ROLLOUT_EVERY: u64 = 45;

impl World {
    /// Advances the scenario by one tick.
    pub(crate) fn step(&mut self) {
        self.tick += 1;
        let keys: Vec<String> = self.pods.keys().cloned().collect();
        for k in keys {
            self.advance_pod(&k);
        }
        if self.tick.is_multiple_of(ROLLOUT_EVERY) {
            self.start_rollout("api-gateway");
        }
        if self.tick.is_multiple_of(25) {
            self.replace_random_pod("frontend");
        }
        self.drive_rollouts();
        if self.tick % JOB_EVERY == 5 {
            self.start_job();
        }
        self.finish_jobs();
        if self.tick.is_multiple_of(10) {
            self.flip_gizmo();
        }
        self.flush_workloads();
    }

    fn advance_pod(&mut self, key: &str) {
        let Some(mut p) = self.pods.get(key).cloned() else {
            return;
        };
        p.age_in_stage += 1;
        let now = now_rfc3339();
        let crashes = self
            .deploys
            .iter()
            .any(|d| d.crashes && d.app == p.app && d.ns == p.namespace);
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
                    let sched = Source::Series {
                        controller: "default-scheduler",
                        instance: "default-scheduler-control-plane-1".into(),
                        action: "Binding",
                    };
                    self.events.record(
                        &self.pod_ref(&p, false),
                        "Normal",
                        "Scheduled",
                        &msg,
                        &sched,
                        &now,
                    );
                    let msg = format!("Pulling image \"{}\"", p.image);
                    self.events.record(
                        &self.pod_ref(&p, true),
                        "Normal",
                        "Pulling",
                        &msg,
                        &World::kubelet(&node),
                        &now,
                    );
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
                    self.events.record(
                        &r,
                        "Normal",
                        "Created",
                        &format!("Created container: {}", p.app),
                        &src,
                        &now,
                    );
                    self.events.record(
                        &r,
                        "Normal",
                        "Started",
                        &format!("Started container {}", p.app),
                        &src,
                        &now,
                    );
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
                    let msg = format!(
                        "Back-off restarting failed container {} in pod {}_{}({})",
                        p.app,
                        p.name,
                        p.namespace,
                        self.pod_ref(&p, false).uid
                    );
                    self.events.record(
                        &self.pod_ref(&p, true),
                        "Warning",
                        "BackOff",
                        &msg,
                        &World::kubelet(&node),
                        &now,
                    );
                    true
                }
                Life::CrashLoop if p.age_in_stage >= 3 + (1u32 << p.restarts.min(5)) => {
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
        let r = super::events::Involved {
            kind: "Deployment".into(),
            api_version: "apps/v1".into(),
            namespace: dep.ns.into(),
            name: dep.app.into(),
            uid: dep.uid.clone(),
            field_path: None,
        };
        let src = Source::Legacy {
            component: "deployment-controller",
            host: String::new(),
        };
        self.events
            .record(&r, "Normal", "ScalingReplicaSet", &msg, &src, &now_rfc3339());
    }

    fn start_rollout(&mut self, app: &str) {
        let Some(d) = self.deploys.iter().position(|d| d.app == app) else {
            return;
        };
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
                w.pods
                    .values()
                    .filter(|p| {
                        p.namespace == ns
                            && p.deleting.is_none()
                            && p.labels
                                .iter()
                                .any(|(k, v)| k == "pod-template-hash" && v == hash)
                    })
                    .map(|p| p.name.clone())
                    .collect()
            };
            let new_pods = owned(self, &new_hash);
            let ready_new = new_pods
                .iter()
                .filter(|n| {
                    self.pods
                        .get(&key_of(ns, n))
                        .is_some_and(|p| p.life == Life::Running { ready: true })
                })
                .count();
            let old_hash = self.deploys[d].sets[0].0.clone();
            let old_pods = owned(self, &old_hash);
            let in_flight = new_pods.len() - ready_new;
            if new_pods.len() < replicas as usize && in_flight == 0 {
                let name = self.pod_name(app, &new_hash);
                let p = self.owned_pod(ns, &name, app, &new_img, &new_hash, &new_uid);
                self.write_pod(p);
                self.deployment_event(
                    d,
                    format!(
                        "Scaled up replica set {app}-{new_hash} from {} to {}",
                        new_pods.len(),
                        new_pods.len() + 1
                    ),
                );
            }
            if ready_new + old_pods.len() > replicas as usize {
                if let Some(victim) = old_pods.first() {
                    self.retire(&key_of(ns, victim));
                    self.deployment_event(
                        d,
                        format!(
                            "Scaled down replica set {app}-{old_hash} from {} to {}",
                            old_pods.len(),
                            old_pods.len() - 1
                        ),
                    );
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
        let Some(mut p) = self.pods.get(key).cloned() else {
            return;
        };
        if p.deleting.is_some() {
            return;
        }
        p.deleting = Some(now_rfc3339());
        p.age_in_stage = 0;
        let node = p.node.clone().unwrap_or_default();
        let msg = format!("Stopping container {}", p.app);
        self.events.record(
            &self.pod_ref(&p, true),
            "Normal",
            "Killing",
            &msg,
            &World::kubelet(&node),
            &now_rfc3339(),
        );
        self.write_pod(p);
    }

    fn replace_random_pod(&mut self, app: &str) {
        let candidates: Vec<String> = self
            .pods
            .iter()
            .filter(|(_, p)| p.app == app && p.deleting.is_none())
            .map(|(k, _)| k.clone())
            .collect();
        if candidates.is_empty() {
            return;
        }
        let victim = candidates[self.rng.random_range(0..candidates.len())].clone();
        let Some(old) = self.pods.get(&victim).cloned() else {
            return;
        };
        self.retire(&victim);
        let hash = old
            .labels
            .iter()
            .find(|(k, _)| k == "pod-template-hash")
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        let rs_uid = old.owner.as_ref().map(|o| o.3.clone()).unwrap_or_default();
        let name = self.pod_name(app, &hash);
        let p = self.owned_pod(&old.namespace, &name, app, &old.image, &hash, &rs_uid);
        self.write_pod(p);
    }
}

impl super::scenario::Deploy {
    /// A copy of the fields a new ReplicaSet needs.
    pub(crate) fn clone_shallow(&self) -> super::scenario::Deploy {
        super::scenario::Deploy {
            ns: self.ns,
            app: self.app,
            image: self.image,
            version: self.version,
            replicas: self.replicas,
            uid: self.uid.clone(),
            sets: Vec::new(),
            crashes: self.crashes,
            last: None,
        }
    }
}
