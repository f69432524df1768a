//! One tick of the default scenario: pod lifecycles as the scheduler and kubelet drive them
//! (scheduling onto Ready, uncordoned workers, container creation, readiness, crash loops,
//! termination), the scenario's own client writes (a periodic image rollout, a deleted pod),
//! then the controllers (`control`) — each with the events a real cluster would record.
//! Writes only through the store's API.

use rand::Rng;

use super::events::Source;
use super::kinds::id;
use super::pods::Life;
use super::scenario::World;
use super::store::now_rfc3339;

/// Ticks between rollouts of `data/api-gateway`.
const ROLLOUT_EVERY: u64 = 45;

impl World {
    /// Advances the scenario by one tick: the kubelet's informer, each pod's life, the
    /// scenario's own client actions (a rollout of `data/api-gateway`, a deleted `shop/frontend`
    /// pod), then one pass of the controllers.
    pub(crate) fn step(&mut self) {
        self.tick += 1;
        self.sync_pods();
        let keys: Vec<String> = self.pods.keys().cloned().collect();
        for k in keys {
            self.advance_pod(&k);
        }
        if self.tick.is_multiple_of(ROLLOUT_EVERY) {
            self.roll_image("data", "api-gateway");
        }
        if self.tick.is_multiple_of(25) {
            self.delete_random_pod("shop", "frontend");
        }
        self.reconcile();
        if self.tick.is_multiple_of(10) {
            self.flip_gizmo();
        }
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
        let node_down = p.node.as_deref() == Some("worker-4");
        let changed = if p.deleting.is_some() {
            // The demo's containers exit two ticks after SIGTERM (at once for grace 0).
            if p.age_in_stage >= 2 || p.grace <= 0 {
                self.finish_termination(key, &p);
                return;
            }
            false
        } else if node_down {
            // worker-4 is NotReady: its kubelet reports nothing.
            false
        } else {
            match p.life {
                Life::Pending if p.age_in_stage >= 1 => {
                    let Some(node) = p.node.clone().or_else(|| self.schedulable_node()) else {
                        if let Some(m) = self.pods.get_mut(key) {
                            m.age_in_stage = p.age_in_stage;
                        }
                        return;
                    };
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

    /// The scenario as a client: bumps a deployment's image version (`name:1.N.0`) through the
    /// write path, as `kubectl set image` would; the deployment controller rolls it out.
    fn roll_image(&mut self, ns: &str, name: &str) {
        let res = super::write::update_object(
            &self.store,
            id::DEPLOYMENT,
            ns,
            name,
            super::write::Part::Main,
            |old| {
                let mut new = old.clone();
                let img = old["spec"]["template"]["spec"]["containers"][0]["image"]
                    .as_str()
                    .unwrap_or("")
                    .to_owned();
                let next = match img.rsplit_once(":1.") {
                    Some((base, rest)) => {
                        let minor: u64 = rest.split('.').next().and_then(|m| m.parse().ok()).unwrap_or(0);
                        format!("{base}:1.{}.0", minor + 1)
                    }
                    None => format!("{img}-next"),
                };
                new["spec"]["template"]["spec"]["containers"][0]["image"] = serde_json::json!(next);
                Ok(new)
            },
            false,
        );
        if let Err(e) = res {
            tracing::debug!(error = %e.message, "demo scenario: rollout not started");
        }
    }

    /// The scenario as a client: deletes one random pod of `app` (its ReplicaSet replaces it).
    fn delete_random_pod(&mut self, ns: &str, app: &str) {
        let candidates: Vec<(String, String)> = self
            .pods
            .values()
            .filter(|p| p.namespace == ns && p.app == app && p.deleting.is_none())
            .map(|p| (p.namespace.clone(), p.name.clone()))
            .collect();
        if candidates.is_empty() {
            return;
        }
        let (ns, name) = candidates[self.rng.random_range(0..candidates.len())].clone();
        let _ = super::delete::delete_object(
            &self.store,
            id::POD,
            &ns,
            &name,
            &super::delete::DeleteOptions::default(),
        );
    }
}
