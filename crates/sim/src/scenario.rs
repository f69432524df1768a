//! The lively default scenario: namespaces, nodes, workloads with their ReplicaSets and pods,
//! services, config, storage, a CRD with gizmos, then, tick by tick, pods moving Pending →
//! ContainerCreating → Running, a rollout, a CrashLoopBackOff with rising restarts, jobs
//! completing and events of both styles. Seeded. Writes only through the store's API.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use rand::rngs::StdRng;
use rand::Rng;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::events::{Involved, Recorder, Source};
use super::kinds::id;
use super::objects::{self as o, Replicas};
use super::pods::{Life, PodModel};
use super::store::{key_of, now_rfc3339, Store, StoreError, Stored};
use super::{scale, DemoOptions};

/// Pauses and resumes the scenario's changes.
#[derive(Clone)]
pub struct Control {
    /// Whether the scenario ticks run; each tick holds this lock while it writes, so a pause
    /// cannot land in the middle of one.
    world: Arc<Mutex<bool>>,
    /// The same for the churn's batches (a lock of its own, so the two tasks never wait
    /// for each other).
    churn: Arc<Mutex<bool>>,
}

impl Control {
    /// Resume (`true`) or pause (`false`) the scenario and the churn. Pausing waits for the
    /// tick or churn batch in progress (milliseconds): once it returns, the store holds still
    /// until the next resume, so a caller may snapshot it as the final state.
    pub fn set_live(&self, live: bool) {
        for gate in [&self.world, &self.churn] {
            *lock(gate) = live;
        }
    }
}

/// The live flag, locked; a panic in a tick leaves the flag itself valid, so poisoning is
/// ignored.
fn lock(live: &Mutex<bool>) -> std::sync::MutexGuard<'_, bool> {
    live.lock().unwrap_or_else(|p| p.into_inner())
}

/// Worker nodes pods are scheduled on.
pub const WORKERS: [&str; 3] = ["worker-1", "worker-2", "worker-3"];

/// A Deployment the scenario drives.
pub(crate) struct Deploy {
    pub ns: &'static str,
    pub app: &'static str,
    pub image: &'static str,
    pub version: u32,
    pub replicas: u32,
    pub uid: String,
    /// ReplicaSets, newest last: (hash, uid, image).
    pub sets: Vec<(String, String, String)>,
    /// Its pods crash (CrashLoopBackOff).
    pub crashes: bool,
}

/// Everything the scenario tracks between ticks.
pub(crate) struct World {
    pub store: Arc<Store>,
    pub rng: StdRng,
    pub events: Recorder,
    pub pods: BTreeMap<String, PodModel>,
    pub deploys: Vec<Deploy>,
    pub tick: u64,
    pub next_ip: u32,
    /// The kubelet's informer: pod changes since the last tick (clients' and controllers'
    /// writes), `None` until setup is done.
    pub pod_changes: Option<tokio::sync::broadcast::Receiver<Arc<super::store::Change>>>,
    /// The controllers' parsed lists, carried from pass to pass (`control::Memo`).
    pub parsed: super::control::Memo,
}

/// The uid the store gave an object.
pub fn uid_of(s: &Stored) -> String {
    serde_json::from_slice::<Value>(&s.bytes)
        .ok()
        .and_then(|v| v["metadata"]["uid"].as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Fills the store and starts the scenario, load and churn tasks (all stop on `cancel`).
pub fn start(
    store: Arc<Store>,
    opts: &DemoOptions,
    cancel: CancellationToken,
) -> Result<Control, StoreError> {
    let mut world = World::setup(store.clone(), opts.seed)?;
    let mut load = scale::Load::populate(
        store.clone(),
        opts.pods.saturating_sub(world.pods.len()),
        opts.seed,
    )?;
    super::scale_cluster::populate(&store, opts.nodes, opts.events)?;
    let mut more =
        super::scale_more::MoreLoad::populate(store, opts.deployments, opts.configmaps, opts.seed)?;
    let control = Control {
        world: Arc::new(Mutex::new(opts.live)),
        churn: Arc::new(Mutex::new(opts.live)),
    };
    let (tick, churn) = (opts.tick, opts.churn);
    let world_live = control.world.clone();
    let churn_live = control.churn.clone();
    // The tick is synchronous work (controllers, kubelet): it runs on a thread of its own so
    // it never holds up a runtime worker serving HTTP. A late tick delays the next one (the
    // scenario's time stretches rather than jumps).
    let c = cancel.clone();
    let spawned = std::thread::Builder::new()
        .name("demo-scenario".into())
        .spawn(move || {
            let every = tick.max(std::time::Duration::from_millis(10));
            while !c.is_cancelled() {
                std::thread::sleep(every);
                if c.is_cancelled() {
                    return;
                }
                let live = lock(&world_live);
                if *live {
                    world.step();
                }
            }
        });
    if let Err(e) = spawned {
        tracing::warn!(error = %e, "demo scenario: no thread for the ticks; the cluster stays still");
    }
    if churn > 0 && !(load.is_empty() && more.is_empty()) {
        tokio::spawn(async move {
            let step = std::time::Duration::from_millis(100);
            let mut every = tokio::time::interval(step);
            let mut owed = 0.0f64;
            let mut turn = 0u64;
            loop {
                tokio::select! { _ = cancel.cancelled() => return, _ = every.tick() => {} }
                owed += f64::from(churn) / 10.0;
                let running = lock(&churn_live);
                if *running {
                    while owed >= 1.0 {
                        owed -= 1.0;
                        // A fifth of the changes go to the extra deployments and configmaps.
                        turn += 1;
                        if !more.is_empty() && (load.is_empty() || turn.is_multiple_of(5)) {
                            more.change();
                        } else {
                            load.change();
                        }
                    }
                }
                drop(running);
                owed = owed.min(f64::from(churn));
            }
        });
    }
    Ok(control)
}

impl World {
    /// A Deployment with its first ReplicaSet and running pods (crashing ones start Pending).
    pub(crate) fn add_deployment(
        &mut self,
        ns: &'static str,
        app: &'static str,
        image: &'static str,
        replicas: u32,
        crashes: bool,
    ) -> Result<(), StoreError> {
        let mut d = Deploy {
            ns,
            app,
            image,
            version: 1,
            replicas,
            uid: String::new(),
            sets: Vec::new(),
            crashes,
        };
        let dep = self.store.apply(
            id::DEPLOYMENT,
            o::deployment(
                ns,
                app,
                &image_of(&d),
                Replicas {
                    desired: replicas,
                    ..Replicas::default()
                },
                1,
            ),
        )?;
        d.uid = uid_of(&dep);
        let (hash, rs_uid, img) = self.new_replicaset(&d)?;
        for _ in 0..replicas {
            let name = self.pod_name(app, &hash);
            let mut p = self.owned_pod(ns, &name, app, &img, &hash, &rs_uid);
            p.node = Some(self.pick_node());
            p.ip = Some(self.ip());
            p.started = Some(now_rfc3339());
            p.life = Life::Running { ready: true };
            if crashes {
                // Crash-looping since long before the demo started.
                p.restarts = 23;
                p.last_finished = Some(now_rfc3339());
                p.life = Life::CrashLoop;
            }
            self.write_pod(p);
        }
        d.sets.push((hash, rs_uid, img));
        self.deploys.push(d);
        Ok(())
    }

    /// The StatefulSet and the DaemonSet, with their pods running.
    pub(crate) fn add_fixed_set(&mut self) -> Result<(), StoreError> {
        let full = Replicas {
            desired: 2,
            current: 2,
            ready: 2,
            updated: 2,
            available: 2,
        };
        let sts = self.store.apply(
            id::STATEFULSET,
            o::statefulset("data", "postgres", "postgres:17.6", full),
        )?;
        let nodes = ["control-plane-1", WORKERS[0], WORKERS[1], WORKERS[2], "worker-4"];
        let n = nodes.len() as u32;
        let ds_r = Replicas {
            desired: n,
            current: n,
            ready: n - 1,
            updated: n,
            available: n - 1,
        };
        let ds = self.store.apply(
            id::DAEMONSET,
            o::daemonset(
                "kube-system",
                "kube-proxy",
                "registry.k8s.io/kube-proxy:v1.37.2",
                ds_r,
            ),
        )?;
        let (sts_uid, ds_uid) = (uid_of(&sts), uid_of(&ds));
        let revision = |s: &Stored| {
            let v: Value = serde_json::from_slice(&s.bytes).unwrap_or(Value::Null);
            super::control::revision_of(&v)
        };
        let (sts_rev, ds_rev) = (revision(&sts), revision(&ds));
        for i in 0..2 {
            let mut p = PodModel::new("data", &format!("postgres-{i}"), "postgres", "postgres:17.6");
            p.owner = Some((
                "apps/v1".into(),
                "StatefulSet".into(),
                "postgres".into(),
                sts_uid.clone(),
            ));
            p.labels
                .push(("statefulset.kubernetes.io/pod-name".into(), p.name.clone()));
            p.labels
                .push(("controller-revision-hash".into(), sts_rev.clone()));
            p.node = Some(WORKERS[i % 2].into());
            p.ip = Some(self.ip());
            p.started = Some(now_rfc3339());
            p.life = Life::Running { ready: true };
            self.write_pod(p);
        }
        for node in nodes {
            let name = format!(
                "kube-proxy-{}",
                &format!("{:016x}", super::pods::fxhash(node))[11..]
            );
            let mut p = PodModel::new(
                "kube-system",
                &name,
                "kube-proxy",
                "registry.k8s.io/kube-proxy:v1.37.2",
            );
            p.owner = Some((
                "apps/v1".into(),
                "DaemonSet".into(),
                "kube-proxy".into(),
                ds_uid.clone(),
            ));
            p.labels.push(("controller-revision-hash".into(), ds_rev.clone()));
            p.node = Some(node.into());
            p.started = Some(now_rfc3339());
            p.life = if node == "worker-4" {
                Life::Creating
            } else {
                Life::Running { ready: true }
            };
            p.ip = (node != "worker-4").then(|| node_ip(node).to_owned());
            self.write_pod(p);
        }
        Ok(())
    }

    /// A new ReplicaSet for the deployment's current version.
    pub(crate) fn new_replicaset(&mut self, d: &Deploy) -> Result<(String, String, String), StoreError> {
        let img = image_of(d);
        let hash = format!("{:010x}", super::pods::fxhash(&img))
            .chars()
            .take(10)
            .collect::<String>();
        let hash: String = hash
            .chars()
            .map(|c| {
                if c.is_ascii_digit() {
                    (b'b' + (c as u8 - b'0')) as char
                } else {
                    c
                }
            })
            .collect();
        let owner = o::owner("apps/v1", "Deployment", d.app, &d.uid);
        let mut rs = o::replicaset(d.ns, d.app, &hash, &img, Replicas::default(), owner);
        rs["metadata"]["annotations"] =
            serde_json::json!({"deployment.kubernetes.io/revision": d.version.to_string()});
        rs["spec"]["replicas"] = serde_json::json!(d.replicas);
        let rs = self.store.apply(id::REPLICASET, rs)?;
        Ok((hash, uid_of(&rs), img))
    }

    pub(crate) fn owned_pod(
        &mut self,
        ns: &str,
        name: &str,
        app: &str,
        image: &str,
        hash: &str,
        rs_uid: &str,
    ) -> PodModel {
        let mut p = PodModel::new(ns, name, app, image);
        p.labels.push(("pod-template-hash".into(), hash.into()));
        p.owner = Some((
            "apps/v1".into(),
            "ReplicaSet".into(),
            format!("{app}-{hash}"),
            rs_uid.into(),
        ));
        p
    }

    pub(crate) fn pod_name(&mut self, app: &str, hash: &str) -> String {
        const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
        let suffix: String = (0..5)
            .map(|_| ALPHABET[self.rng.random_range(0..ALPHABET.len())] as char)
            .collect();
        if hash.is_empty() {
            format!("{app}-{suffix}")
        } else {
            format!("{app}-{hash}-{suffix}")
        }
    }

    /// The scheduler's choice: a Ready worker that is not cordoned (`spec.unschedulable`), read
    /// from the store (so a `kubectl cordon` takes effect at once); `None` = none fits.
    pub(crate) fn schedulable_node(&mut self) -> Option<String> {
        let nodes: Vec<String> = super::control::objects(&self.store, id::NODE, None)
            .iter()
            .filter(|n| n["spec"]["unschedulable"] != serde_json::json!(true))
            .filter(|n| {
                n["metadata"]["labels"]
                    .get("node-role.kubernetes.io/control-plane")
                    .is_none()
            })
            .filter(|n| {
                n["status"]["conditions"]
                    .as_array()
                    .is_some_and(|cs| cs.iter().any(|c| c["type"] == "Ready" && c["status"] == "True"))
            })
            .filter_map(|n| n["metadata"]["name"].as_str().map(str::to_owned))
            .collect();
        if nodes.is_empty() {
            return None;
        }
        Some(nodes[self.rng.random_range(0..nodes.len())].clone())
    }

    pub(crate) fn pick_node(&mut self) -> String {
        // worker-3 is cordoned and worker-4 NotReady: the scheduler avoids them.
        WORKERS[self.rng.random_range(0..2)].to_owned()
    }

    pub(crate) fn ip(&mut self) -> String {
        self.next_ip += 1;
        format!("10.244.{}.{}", self.next_ip / 250, self.next_ip % 250 + 2)
    }

    /// Writes the pod's current state and remembers it. A pod of the scenario's setup (no uid
    /// yet) is created whole; any other is one the kubelet runs and is written as the kubelet
    /// does: its `status`, and `spec.nodeName` when the scheduler bound it (clients' changes to
    /// metadata and spec stay), and only while the stored pod is still the same object (same
    /// uid) — a pod deleted meanwhile is forgotten, never recreated.
    pub(crate) fn write_pod(&mut self, mut p: PodModel) {
        let json = p.to_json(&now_rfc3339());
        let key = key_of(&p.namespace, &p.name);
        let res = if p.uid.is_empty() {
            self.store.create(id::POD, json).map(|s| p.uid = uid_of(&s))
        } else {
            let uid = p.uid.clone();
            self.store
                .update(
                    id::POD,
                    &p.namespace,
                    &p.name,
                    |_: &Stored, v: &mut Value| -> Result<(), StoreError> {
                        if v["metadata"]["uid"] != uid.as_str() {
                            return Err(StoreError::NotFound(format!("pod with uid {uid}")));
                        }
                        // The model knows no ephemeral containers (`stream::ephemeral`
                        // starts them): their statuses stay.
                        let ephemeral = v["status"]["ephemeralContainerStatuses"].take();
                        v["status"] = json["status"].clone();
                        if !ephemeral.is_null() {
                            v["status"]["ephemeralContainerStatuses"] = ephemeral;
                        }
                        if let Some(n) = &p.node {
                            v["spec"]["nodeName"] = serde_json::json!(n);
                        }
                        Ok(())
                    },
                )
                .map(|_| ())
        };
        match res {
            Ok(()) => {
                self.pods.insert(key, p);
            }
            Err(e) => {
                tracing::debug!(error = %e, pod = %p.name, "demo kubelet: pod gone, forgotten");
                self.pods.remove(&key);
            }
        }
    }

    /// The event subject for a pod.
    pub(crate) fn pod_ref(&self, p: &PodModel, container: bool) -> Involved {
        let uid = self
            .store
            .get(id::POD, &p.namespace, &p.name)
            .map(|s| uid_of(&s))
            .unwrap_or_default();
        Involved {
            kind: "Pod".into(),
            api_version: "v1".into(),
            namespace: p.namespace.clone(),
            name: p.name.clone(),
            uid,
            field_path: container.then(|| format!("spec.containers{{{}}}", p.app)),
        }
    }

    pub(crate) fn kubelet(node: &str) -> Source {
        Source::Legacy {
            component: "kubelet",
            host: node.to_owned(),
        }
    }
}

/// The InternalIP of a demo node (host-network pods use it).
pub(crate) fn node_ip(node: &str) -> &'static str {
    match node {
        "control-plane-1" => "10.0.0.10",
        "worker-1" => "10.0.0.11",
        "worker-2" => "10.0.0.12",
        "worker-3" => "10.0.0.13",
        _ => "10.0.0.14",
    }
}

/// The image of a deployment's current version (`name:1.<version>.0` for unversioned bases).
pub(crate) fn image_of(d: &Deploy) -> String {
    if d.image.contains(':') {
        d.image.to_owned()
    } else {
        format!("{}:1.{}.0", d.image, d.version)
    }
}

#[cfg(test)]
mod tests;
