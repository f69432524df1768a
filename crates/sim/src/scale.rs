//! Load for scale runs: `--pods N` realistic pods (labels, owner references, container
//! statuses) in `load-NN` namespaces under Deployments/ReplicaSets, and `--churn` changes per
//! second (restarts, readiness flips, crash loops, replacements). Seeded. Each pod is kept as a
//! few bytes of state and rendered to JSON only when written. Writes only through the store's
//! API.

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
/// 27^5: the number of distinct 5-letter pod name suffixes.
const SUFFIXES: u64 = 14_348_907;

/// The compact state of one load pod; everything else derives from its index.
#[derive(Debug, Clone, Copy)]
struct LoadPod {
    /// Serial of its current incarnation (names the pod).
    serial: u64,
    life: Life,
    restarts: u32,
    /// Unix seconds of the last container start and termination.
    started: i64,
    finished: Option<i64>,
}

/// The load pods and the dice that change them.
pub struct Load {
    store: Arc<Store>,
    rng: StdRng,
    pods: Vec<LoadPod>,
    /// Per deployment: its ReplicaSet's name and uid.
    owners: Vec<(String, String)>,
    serial: u64,
}

fn fmt_secs(t: i64) -> String {
    jiff::Timestamp::from_second(t)
        .unwrap_or_else(|_| jiff::Timestamp::now())
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

/// A unique, stable 5-letter suffix for serial `n` (a bijection on 0..27^5).
fn suffix(n: u64) -> String {
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let mut x = (n % SUFFIXES) * 7_368_787 % SUFFIXES;
    (0..5)
        .map(|_| {
            let c = ALPHABET[(x % 27) as usize] as char;
            x /= 27;
            c
        })
        .collect()
}

impl Load {
    /// Creates `n` running load pods (none when `n` is 0), created about three days ago.
    pub fn populate(store: Arc<Store>, n: usize, seed: u64) -> Result<Load, StoreError> {
        let mut load = Load {
            store,
            rng: StdRng::seed_from_u64(seed ^ 0x10ad),
            pods: Vec::with_capacity(n),
            owners: Vec::new(),
            serial: 0,
        };
        load.store.set_creation_age(3 * 86_400 + 3_600);
        let now = jiff::Timestamp::now().as_second();
        for i in 0..n {
            let (ns, app, hash) = Load::place(i);
            if i % PER_NAMESPACE == 0 {
                load.store.apply(id::NAMESPACE, o::namespace(&ns))?;
            }
            if i % PER_DEPLOYMENT == 0 {
                let k = PER_DEPLOYMENT as u32;
                let full = Replicas {
                    desired: k,
                    current: k,
                    ready: k,
                    updated: k,
                    available: k,
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
                load.owners.push((format!("{app}-{hash}"), uid_of(&rs)));
            }
            load.serial += 1;
            let p = LoadPod {
                serial: load.serial,
                life: Life::Running { ready: true },
                restarts: 0,
                started: now,
                finished: None,
            };
            load.pods.push(p);
            load.store.apply(id::POD, load.model(i).to_json(&now_rfc3339()))?;
        }
        load.store.set_creation_age(0);
        Ok(load)
    }

    /// Namespace, app and pod-template-hash of load pod `i`.
    fn place(i: usize) -> (String, String, String) {
        let ns = format!("load-{:02}", i / PER_NAMESPACE);
        let app = format!("svc-{:03}", (i % PER_NAMESPACE) / PER_DEPLOYMENT);
        let hash = format!("{:x}", 0x5c4f_7d9b_u64 + (i / PER_DEPLOYMENT) as u64);
        (ns, app, hash)
    }

    /// The full pod model of load pod `i`.
    fn model(&self, i: usize) -> PodModel {
        let (ns, app, hash) = Load::place(i);
        let s = self.pods[i];
        let name = format!("{app}-{hash}-{}", suffix(s.serial));
        let mut p = PodModel::new(&ns, &name, &app, &format!("ghcr.io/ktui/{app}:3.1.4"));
        p.labels.push(("pod-template-hash".into(), hash));
        p.labels
            .push(("tier".into(), ["web", "api", "worker"][i % 3].into()));
        if let Some((rs, uid)) = self.owners.get(i / PER_DEPLOYMENT) {
            p.owner = Some(("apps/v1".into(), "ReplicaSet".into(), rs.clone(), uid.clone()));
        }
        if s.life != Life::Pending {
            p.node = Some(WORKERS[i % 2].into());
        }
        if matches!(s.life, Life::Running { .. } | Life::CrashLoop) {
            p.ip = Some(format!("10.{}.{}.{}", 100 + i / 65_536, (i / 256) % 256, i % 256));
        }
        p.life = s.life;
        p.restarts = s.restarts;
        p.started = Some(fmt_secs(s.started));
        p.last_finished = s.finished.map(fmt_secs);
        p
    }

    /// Whether there is no load.
    pub fn is_empty(&self) -> bool {
        self.pods.is_empty()
    }

    /// One change to a random load pod: a readiness flip, a restart, a crash, a recovery, or
    /// a replacement by a new Pending pod (delete + create).
    pub fn change(&mut self) {
        if self.pods.is_empty() {
            return;
        }
        let i = self.rng.random_range(0..self.pods.len());
        let now = jiff::Timestamp::now().as_second();
        let roll = self.rng.random_range(0..100u32);
        let mut p = self.pods[i];
        match (p.life, roll) {
            (Life::Pending, _) => p.life = Life::Creating,
            (Life::Creating, _) => {
                p.started = now;
                p.life = Life::Running { ready: true };
            }
            (Life::CrashLoop, r) if r < 50 => p.life = Life::Running { ready: true },
            (_, r) if r < 20 => {
                let old = self.model(i);
                let _ = self.store.delete(id::POD, &old.namespace, &old.name);
                self.serial += 1;
                p = LoadPod {
                    serial: self.serial,
                    life: Life::Pending,
                    restarts: 0,
                    started: now,
                    finished: None,
                };
            }
            (_, r) if r < 30 => {
                p.restarts += 1;
                p.finished = Some(now);
                p.life = Life::CrashLoop;
            }
            (_, r) if r < 65 => {
                p.restarts += 1;
                p.finished = Some(now);
                p.started = now;
                p.life = Life::Running { ready: true };
            }
            (Life::Running { ready }, _) => p.life = Life::Running { ready: !ready },
            _ => p.life = Life::Running { ready: true },
        }
        self.pods[i] = p;
        if let Err(e) = self.store.apply(id::POD, self.model(i).to_json(&now_rfc3339())) {
            tracing::warn!(error = %e, "demo load: pod not written");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::StoreConfig;

    #[test]
    fn suffixes_are_unique() {
        let all: std::collections::HashSet<String> = (0..100_000).map(suffix).collect();
        assert_eq!(all.len(), 100_000);
    }

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
