//! More load for scale runs (the history benchmark): `--deployments N` makes the cluster hold
//! N deployments in all (load deployments without pods are added to those of `--pods`) and
//! `--configmaps M` adds M configmaps (a few keys each) in the `load-NN` namespaces; their
//! churn scales a deployment, rolls its image, edits an annotation or changes a configmap
//! value. Seeded. Writes only through the store's API.

use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::kinds::id;
use super::objects::{self as o, Replicas};
use super::store::{Store, StoreError};

/// Objects per load namespace.
const PER_NAMESPACE: usize = 2_000;

/// The extra deployments and configmaps and the dice that change them.
pub struct MoreLoad {
    store: Arc<Store>,
    rng: StdRng,
    /// Per extra deployment: replicas and image version.
    deployments: Vec<(u32, u32, u64)>,
    configmaps: usize,
}

fn deploy_place(i: usize) -> (String, String) {
    (format!("load-{:02}", i / PER_NAMESPACE), format!("batch-{i:05}"))
}

fn cm_place(i: usize) -> (String, String) {
    (
        format!("load-{:02}", i / PER_NAMESPACE),
        format!("settings-{i:05}"),
    )
}

fn replicas(n: u32) -> Replicas {
    Replicas {
        desired: n,
        current: n,
        ready: n,
        updated: n,
        available: n,
    }
}

impl MoreLoad {
    /// Adds deployments until the store holds `deployments` in all, and `configmaps`
    /// configmaps.
    pub fn populate(
        store: Arc<Store>,
        deployments: usize,
        configmaps: usize,
        seed: u64,
    ) -> Result<MoreLoad, StoreError> {
        let extra = deployments.saturating_sub(store.len(id::DEPLOYMENT));
        let load = MoreLoad {
            store,
            rng: StdRng::seed_from_u64(seed ^ 0x0303),
            deployments: vec![(0, 1, 1); extra],
            configmaps,
        };
        for i in 0..extra {
            load.write_deployment(i)?;
        }
        for i in 0..configmaps {
            let (ns, name) = cm_place(i);
            let conf = format!("listen=8080\nworkers={}\nlog=info\n", 2 + i % 6);
            load.store.apply(
                id::CONFIGMAP,
                o::configmap(
                    &ns,
                    &name,
                    &[("app.conf", &conf), ("mode", "blue"), ("owner", "team-a")],
                ),
            )?;
        }
        Ok(load)
    }

    fn write_deployment(&self, i: usize) -> Result<(), StoreError> {
        let (ns, app) = deploy_place(i);
        let (n, version, generation) = self.deployments[i];
        let image = format!("ghcr.io/ktui/{app}:1.{version}.0");
        let mut d = o::deployment(&ns, &app, &image, replicas(n), generation);
        d["metadata"]["annotations"]["team"] = serde_json::json!(format!("t{}", generation % 3));
        self.store.apply(id::DEPLOYMENT, d).map(|_| ())
    }

    /// Whether there is anything to change.
    pub fn is_empty(&self) -> bool {
        self.deployments.is_empty() && self.configmaps == 0
    }

    /// One change: a deployment scaled, rolled to a new image or re-annotated, or a
    /// configmap value changed (alternately, when both exist).
    pub fn change(&mut self) {
        let deploy = self.configmaps == 0 || (!self.deployments.is_empty() && self.rng.random_bool(0.5));
        let result = if deploy {
            let i = self.rng.random_range(0..self.deployments.len());
            let (n, version, generation) = &mut self.deployments[i];
            match self.rng.random_range(0..3u8) {
                0 => *n = (*n + 1) % 4,
                1 => *version += 1,
                _ => {}
            }
            *generation += 1;
            self.write_deployment(i)
        } else {
            let i = self.rng.random_range(0..self.configmaps);
            let (ns, name) = cm_place(i);
            let workers = self.rng.random_range(1..64u32);
            self.store
                .modify(id::CONFIGMAP, &ns, &name, |cm| {
                    cm["data"]["app.conf"] =
                        serde_json::json!(format!("listen=8080\nworkers={workers}\nlog=info\n"));
                })
                .map(|_| ())
        };
        if let Err(e) = result {
            tracing::warn!(error = %e, "demo load: object not written");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::StoreConfig;

    #[test]
    fn populates_to_the_totals_and_changes_what_it_made() {
        let store = Store::new(StoreConfig::default());
        let mut l = MoreLoad::populate(store.clone(), 30, 20, 1).unwrap();
        assert_eq!((store.len(id::DEPLOYMENT), store.len(id::CONFIGMAP)), (30, 20));
        let before = store.revision();
        for _ in 0..50 {
            l.change();
        }
        assert_eq!(store.revision(), before + 50);
        assert_eq!((store.len(id::DEPLOYMENT), store.len(id::CONFIGMAP)), (30, 20));
    }
}
