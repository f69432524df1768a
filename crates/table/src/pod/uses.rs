//! A pod's references by name for the xray tree (`Row::uses`): the slim serde shapes of the
//! parts of `spec` that name ConfigMaps, Secrets, claims and the ServiceAccount, and the
//! interned [`PodUses`] built from them. Must not keep values: env `value`s, volume items
//! and every other field are skipped unread.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde::Deserialize;

use ktui_kube::row::RowCtx;
use ktui_kube::sanitize::sanitize;
use ktui_kube::uses::PodUses;

use super::PodSpec;

/// A `{name}` reference (`LocalObjectReference`, `configMapRef`, `secretRef`, key refs,
/// projected sources).
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct NameRef {
    /// `name`.
    pub name: String,
}

/// One `envFrom` entry of a container.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct EnvFrom {
    /// `configMapRef`.
    pub config_map_ref: Option<NameRef>,
    /// `secretRef`.
    pub secret_ref: Option<NameRef>,
}

/// One `env` entry of a container: only where its value comes from (`value` is skipped).
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct EnvVar {
    /// `valueFrom`.
    pub value_from: Option<ValueFrom>,
}

/// `env[].valueFrom`.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ValueFrom {
    /// `configMapKeyRef`.
    pub config_map_key_ref: Option<NameRef>,
    /// `secretKeyRef`.
    pub secret_key_ref: Option<NameRef>,
}

/// One `spec.volumes` entry: only the sources that name another object.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct Volume {
    /// `configMap` (its `name`).
    pub config_map: Option<NameRef>,
    /// `secret`.
    pub secret: Option<SecretVolume>,
    /// `persistentVolumeClaim`.
    pub persistent_volume_claim: Option<ClaimVolume>,
    /// `projected`.
    pub projected: Option<Projected>,
}

/// `volumes[].secret`.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct SecretVolume {
    /// `secretName`.
    pub secret_name: String,
}

/// `volumes[].persistentVolumeClaim`.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ClaimVolume {
    /// `claimName`.
    pub claim_name: String,
}

/// `volumes[].projected`.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct Projected {
    /// `sources`.
    pub sources: Vec<ProjectedSource>,
}

/// One `volumes[].projected.sources` entry.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ProjectedSource {
    /// `configMap`.
    pub config_map: Option<NameRef>,
    /// `secret`.
    pub secret: Option<NameRef>,
}

#[derive(Default)]
struct Names {
    config_maps: BTreeSet<String>,
    secrets: BTreeSet<String>,
    claims: BTreeSet<String>,
}

impl Names {
    fn add(set: &mut BTreeSet<String>, name: &str) {
        if !name.is_empty() {
            set.insert(sanitize(name).into_owned());
        }
    }

    fn env(&mut self, from: &[EnvFrom], env: &[EnvVar]) {
        for f in from {
            if let Some(r) = &f.config_map_ref {
                Self::add(&mut self.config_maps, &r.name);
            }
            if let Some(r) = &f.secret_ref {
                Self::add(&mut self.secrets, &r.name);
            }
        }
        for v in env.iter().filter_map(|v| v.value_from.as_ref()) {
            if let Some(r) = &v.config_map_key_ref {
                Self::add(&mut self.config_maps, &r.name);
            }
            if let Some(r) = &v.secret_key_ref {
                Self::add(&mut self.secrets, &r.name);
            }
        }
    }
}

fn interned(ctx: &RowCtx, set: BTreeSet<String>) -> Box<[Arc<str>]> {
    set.iter().map(|n| ctx.interner.intern(n)).collect()
}

/// The pod's [`PodUses`], interned; `None` when it references nothing.
pub fn pod_uses(ctx: &RowCtx, spec: &PodSpec) -> Option<Arc<PodUses>> {
    let mut n = Names::default();
    for c in &spec.containers {
        n.env(&c.env_from, &c.env);
    }
    for c in &spec.init_containers {
        n.env(&c.env_from, &c.env);
    }
    for v in &spec.volumes {
        if let Some(r) = &v.config_map {
            Names::add(&mut n.config_maps, &r.name);
        }
        if let Some(s) = &v.secret {
            Names::add(&mut n.secrets, &s.secret_name);
        }
        if let Some(c) = &v.persistent_volume_claim {
            Names::add(&mut n.claims, &c.claim_name);
        }
        for s in v.projected.iter().flat_map(|p| &p.sources) {
            if let Some(r) = &s.config_map {
                Names::add(&mut n.config_maps, &r.name);
            }
            if let Some(r) = &s.secret {
                Names::add(&mut n.secrets, &r.name);
            }
        }
    }
    for r in &spec.image_pull_secrets {
        Names::add(&mut n.secrets, &r.name);
    }
    let uses = PodUses {
        service_account: Some(spec.service_account_name.as_str())
            .filter(|s| !s.is_empty())
            .map(|s| ctx.interner.intern(&sanitize(s))),
        config_maps: interned(ctx, n.config_maps),
        secrets: interned(ctx, n.secrets),
        claims: interned(ctx, n.claims),
    };
    (!uses.is_empty()).then(|| ctx.interner.intern_uses(uses))
}
