//! What a pod uses besides its containers, by name: its ServiceAccount, the ConfigMaps and
//! Secrets its volumes and environment reference, its PersistentVolumeClaims. Kept on pod rows
//! (`Row::uses`) so the xray tree can show a pod's dependencies from the pods informer alone.
//! Owns this shape; must not hold any Secret value (names only) nor look anything up.

use std::sync::Arc;

/// The objects one pod references by name (all in the pod's namespace). Every list is
/// sorted and without repeats; names are sanitized and interned. Equal sets are shared
/// through [`crate::intern::Interner::intern_uses`]: the replicas of one workload hold one.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct PodUses {
    /// `spec.serviceAccountName`; `None` when unset (the server defaults it to `default`).
    pub service_account: Option<Arc<str>>,
    /// ConfigMap names from `spec.volumes[].configMap.name`,
    /// `spec.volumes[].projected.sources[].configMap.name`, and every container's (init,
    /// sidecar, app) `envFrom[].configMapRef.name` and `env[].valueFrom.configMapKeyRef.name`.
    pub config_maps: Box<[Arc<str>]>,
    /// Secret names, from the same places (`secret.secretName`, `projected…secret.name`,
    /// `secretRef`, `secretKeyRef`) plus `spec.imagePullSecrets[].name`. Names only.
    pub secrets: Box<[Arc<str>]>,
    /// `spec.volumes[].persistentVolumeClaim.claimName`.
    pub claims: Box<[Arc<str>]>,
}

impl PodUses {
    /// True when the pod references nothing (no row field then: `Row::uses` is `None`).
    pub fn is_empty(&self) -> bool {
        self.service_account.is_none()
            && self.config_maps.is_empty()
            && self.secrets.is_empty()
            && self.claims.is_empty()
    }
}
