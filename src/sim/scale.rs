//! Load for scale runs: `--pods N` realistic pods (labels, owner references, container
//! statuses) in `load-NN` namespaces under Deployments/ReplicaSets, and `--churn` changes per
//! second (restarts, readiness flips, crash loops, replacements). Seeded. Writes only through
//! the store's API.

use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::kinds::id;
use super::objects::{self as o, Replicas};
use super::pods::{Life, PodModel};
use super::scenario::{uid_of, WORKERS};
use super::store::{now_rfc3339, Store, StoreError};

/// Pods per load namespace and per load deployment.
const PER_NAMESPACE: usize = 2_000;
const PER_DEPLOYMENT: usize = 50;

/// The load pods and the dice that change them.
pub struct Load {
    store: Arc<Store>,
    rng: StdRng,
    pods: Vec<PodModel>,
    serial: u64,
}

impl Load {
    /// Creates `n` running load pods (none when `n` is 0).
    pub fn populate(store: Arc<Store>, n: usize, seed: u64) -> Result<Load, StoreError> {
        let mut load = Load {
            store,
            rng: StdRng::seed_from_u64(seed ^ 0x10ad),
            pods: Vec::with_capacity(n),
            serial: 0,
        };
        let now = now_rfc3339();
        let mut owner = (String::new(), String::new());
        for i in 0..n {
            let ns = format!("load-{:02}", i / PER_NAMESPACE);
            if i % PER_NAMESPACE == 0 {
                load.store.apply(id::NAMESPACE, o::namespace(&ns))?;
            }
            let app = format!("svc-{:03}", (i % PER_NAMESPACE) / PER_DEPLOYMENT);
            let hash = format!("{:x}", 0x5c4f_7d9b_u64 + (i / PER_DEPLOYMENT) as u64);
            if i % PER_DEPLOYMENT == 0 {
                let full = Replicas {
                    desired: PER_DEPLOYMENT as u32,
                    current: PER_DEPLOYMENT as u32,
                    ready: PER_DEPLOYMENT as u32,
                    updated: PER_DEPLOYMENT as u32,
                    available: PER_DEPLOYMENT as u32,
                };
                let image = format!("ghcr.io/ktui/{app}:3.1.4");
                let dep = load
                    .store
                    .apply(id::DEPLOYMENT, o::deployment(&ns, &app, &image, full, 1))?;
                let rs_owner = o::owner("apps/v1", "Deployment", &app, &uid_of(&dep));
                let rs = load.store.apply(
                    id::REPLICASET,
                    o::replicaset(&ns, &app, &hash, &image, full, rs_owner),
                )?;
                owner = (format!("{app}-{hash}"), uid_of(&rs));
            }
            let name = format!("{app}-{hash}-{}", load.suffix());
            let mut p = PodModel::new(&ns, &name, &app, &format!("ghcr.io/ktui/{app}:3.1.4"));
            p.labels.push(("pod-template-hash".into(), hash));
            p.labels
                .push(("tier".into(), ["web", "api", "worker"][i % 3].into()));
            p.owner = Some((
                "apps/v1".into(),
                "ReplicaSet".into(),
                owner.0.clone(),
                owner.1.clone(),
            ));
            p.node = Some(WORKERS[i % 2].into());
            p.ip = Some(format!("10.{}.{}.{}", 100 + i / 65_536, (i / 256) % 256, i % 256));
            p.started = Some(now.clone());
            p.life = Life::Running { ready: true };
            load.store.apply(id::POD, p.to_json(&now))?;
            load.pods.push(p);
        }
        Ok(load)
    }

    /// Whether there is no load.
    pub fn is_empty(&self) -> bool {
        self.pods.is_empty()
    }

    fn suffix(&mut self) -> String {
        const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
        self.serial += 1;
        (0..5)
            .map(|_| ALPHABET[self.rng.random_range(0..ALPHABET.len())] as char)
            .collect::<String>()
            + &format!("{:x}", self.serial % 16)
    }

    /// One change to a random load pod: a readiness flip, a restart, a crash, a recovery, or
    /// a replacement by a new Pending pod (delete + create).
    pub fn change(&mut self) {
        if self.pods.is_empty() {
            return;
        }
        let i = self.rng.random_range(0..self.pods.len());
        let now = now_rfc3339();
        let roll = self.rng.random_range(0..100u32);
        let p = &mut self.pods[i];
        match (p.life, roll) {
            (Life::Pending, _) => p.set(Life::Creating),
            (Life::Creating, _) => {
                p.started = Some(now.clone());
                p.set(Life::Running { ready: true });
            }
            (Life::CrashLoop, r) if r < 50 => p.set(Life::Running { ready: true }),
            (_, r) if r < 20 => {
                let old = p.clone();
                let _ = self.store.delete(id::POD, &old.namespace, &old.name);
                let hash = old
                    .labels
                    .iter()
                    .find(|(k, _)| k == "pod-template-hash")
                    .map(|(_, v)| v.clone())
                    .unwrap_or_default();
                let name = format!("{}-{hash}-{}", old.app, self.suffix());
                let p = &mut self.pods[i];
                p.name = name;
                p.restarts = 0;
                p.last_finished = None;
                p.set(Life::Pending);
            }
            (_, r) if r < 30 => {
                p.restarts += 1;
                p.last_finished = Some(now.clone());
                p.set(Life::CrashLoop);
            }
            (_, r) if r < 65 => {
                p.restarts += 1;
                p.last_finished = Some(now.clone());
                p.started = Some(now.clone());
                p.set(Life::Running { ready: true });
            }
            (Life::Running { ready }, _) => p.set(Life::Running { ready: !ready }),
            _ => p.set(Life::Running { ready: true }),
        }
        let p = &self.pods[i];
        if let Err(e) = self.store.apply(id::POD, p.to_json(&now)) {
            tracing::warn!(error = %e, "demo load: pod not written");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::store::StoreConfig;

    #[test]
    fn populates_and_churns_deterministically() {
        let names = |seed| {
            let store = Store::new(StoreConfig::default());
            let mut l = Load::populate(store.clone(), 120, seed).unwrap();
            for _ in 0..200 {
                l.change();
            }
            assert_eq!(store.len(id::POD), 120, "replacements keep the count");
            assert_eq!(store.len(id::DEPLOYMENT), 3);
            let page = store.list(id::POD, &Default::default(), 0, None, None);
            page.items
                .iter()
                .map(|b| serde_json::from_slice::<serde_json::Value>(b).unwrap()["metadata"]["name"].clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(3), names(3));
        assert_ne!(names(3), names(4));
    }
}
