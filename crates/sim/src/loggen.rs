//! The log generator of `demo-server --log-rate N [--log-pods M]`: M running pods
//! `loggen-0…` in namespace `demo` (label `app=loggen`) whose container prints N numbered
//! lines per second (`seq=K …`), to measure log ingest against ktui and `kubectl logs -f`.
//! Writes the pods once through the store's API.

use super::kinds::id;
use super::logtext::RATE_ANNOTATION;
use super::pods::{Life, PodModel};
use super::store::{now_rfc3339, Store, StoreError};

/// Creates `pods` generator pods printing `rate` lines per second each.
pub fn add(store: &Store, rate: u64, pods: usize) -> Result<(), StoreError> {
    for i in 0..pods {
        let mut p = PodModel::new(
            "demo",
            &format!("loggen-{i}"),
            "loggen",
            "ghcr.io/ktui/loggen:1.0",
        );
        p.node = Some("worker-1".into());
        p.ip = Some(format!("10.244.9.{}", 2 + i % 250));
        p.started = Some(now_rfc3339());
        p.life = Life::Running { ready: true };
        let mut pod = p.to_json(&now_rfc3339());
        pod["metadata"]["annotations"] = serde_json::json!({ RATE_ANNOTATION: rate.to_string() });
        store.apply(id::POD, pod)?;
    }
    Ok(())
}
