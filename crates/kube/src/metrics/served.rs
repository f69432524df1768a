//! [`Served`]: whether `metrics.k8s.io/v1beta1` serves a target, as a discovery run found it
//! (the resource listed, its group version broken, or absent). Owns that reading; must not
//! run discovery (the caller passes its result).

use super::{Target, GROUP_VERSION};
use crate::discovery::{BrokenGroup, Discovery};
use crate::registry::{Known, Registry};

/// Whether the server offers a metrics target; the caller passes it to the pool
/// ([`MetricsPool::set_served`](super::MetricsPool::set_served)). While `No`, the pool sends
/// no request for it and shows `NotServed` with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Served {
    /// Served, or not known yet (a poll then finds out: 404 is `NotServed` too).
    #[default]
    Yes,
    /// Not served: why, one line (`no metrics.k8s.io in discovery (no metrics-server)`,
    /// `metrics.k8s.io/v1beta1 is down: 503: service unavailable`).
    No(String),
}

impl Served {
    /// What `discovery` says of `target`: its resource (`pods`/`nodes` in
    /// `metrics.k8s.io/v1beta1`, preferred or not) listed → `Yes`; the group version in
    /// [`Discovery::broken`] (an APIService that is down) → `No` with its reason; else `No`.
    pub fn from_discovery(discovery: &Discovery, target: Target) -> Served {
        let listed = discovery.resources.iter().chain(&discovery.other_versions);
        Served::judge(
            listed.map(|r| (r.group.as_str(), r.version.as_str(), r.plural.as_str())),
            &discovery.broken,
            target,
        )
    }

    /// What a [`Registry`] (the loop's copy of the last discovery run) says of `target`, as
    /// [`Served::from_discovery`]; `None` while the registry holds no discovery result
    /// (before the first run, or after it failed: a poll then finds out).
    pub fn from_registry(registry: &Registry, target: Target) -> Option<Served> {
        if registry.known != Known::Discovered {
            return None;
        }
        let listed = registry.kinds.iter().chain(&registry.other_versions);
        Some(Served::judge(
            listed.map(|k| (k.group(), k.version(), k.plural())),
            &registry.broken,
            target,
        ))
    }

    /// The rule of both: `target` listed (any version order) → `Yes`; the group version
    /// broken → `No` with its reason; else `No` naming what is missing.
    fn judge<'a>(
        mut listed: impl Iterator<Item = (&'a str, &'a str, &'a str)>,
        broken: &[BrokenGroup],
        target: Target,
    ) -> Served {
        let mut group = false;
        let found = listed.any(|(g, v, p)| {
            group |= g == "metrics.k8s.io";
            g == "metrics.k8s.io" && v == "v1beta1" && p == target.plural()
        });
        if found {
            return Served::Yes;
        }
        if let Some(b) = broken.iter().find(|b| b.group_version == GROUP_VERSION) {
            return Served::No(crate::failure::one_line(&format!(
                "{GROUP_VERSION} is down: {}",
                b.reason
            )));
        }
        Served::No(if group {
            format!("{GROUP_VERSION} has no {}", target.plural())
        } else {
            "no metrics.k8s.io in discovery (no metrics-server)".into()
        })
    }
}

/// What the caller last said of each target, shared by a pool and its poll tasks.
#[derive(Debug, Default)]
pub(super) struct ServedMap {
    by_target: std::sync::Mutex<[Served; 2]>,
}

impl ServedMap {
    /// What was last said of `target`.
    pub(super) fn get(&self, target: Target) -> Served {
        let g = match self.by_target.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        g[index(target)].clone()
    }

    /// Records what is now said of `target`.
    pub(super) fn set(&self, target: Target, served: Served) {
        let mut g = match self.by_target.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        g[index(target)] = served;
    }
}

fn index(target: Target) -> usize {
    match target {
        Target::Pods => 0,
        Target::Nodes => 1,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::kind::ApiResource;

    fn resource(group: &str, version: &str, plural: &str) -> Arc<ApiResource> {
        Arc::new(ApiResource {
            group: group.into(),
            version: version.into(),
            plural: plural.into(),
            singular: String::new(),
            kind: String::new(),
            short: Vec::new(),
            categories: Vec::new(),
            namespaced: plural == "pods",
            verbs: vec!["get".into(), "list".into()],
            columns: Arc::from([]),
            from_crd: false,
        })
    }

    #[test]
    fn served_from_discovery() {
        let mut d = Discovery::default();
        d.resources.push(resource("", "v1", "pods"));
        assert_eq!(
            Served::from_discovery(&d, Target::Pods),
            Served::No("no metrics.k8s.io in discovery (no metrics-server)".into())
        );
        d.broken.push(BrokenGroup {
            group_version: "metrics.k8s.io/v1beta1".into(),
            reason: "503: service unavailable".into(),
        });
        assert_eq!(
            Served::from_discovery(&d, Target::Nodes),
            Served::No("metrics.k8s.io/v1beta1 is down: 503: service unavailable".into())
        );
        d.broken.clear();
        d.resources.push(resource("metrics.k8s.io", "v1beta1", "pods"));
        assert_eq!(Served::from_discovery(&d, Target::Pods), Served::Yes);
        assert_eq!(
            Served::from_discovery(&d, Target::Nodes),
            Served::No("metrics.k8s.io/v1beta1 has no nodes".into())
        );
    }

    #[test]
    fn served_from_the_registry_only_after_discovery() {
        use crate::kind::Kind;
        let mut r = Registry::builtins();
        assert_eq!(Served::from_registry(&r, Target::Pods), None, "nothing known yet");
        r.known = Known::Discovered;
        assert_eq!(
            Served::from_registry(&r, Target::Pods),
            Some(Served::No(
                "no metrics.k8s.io in discovery (no metrics-server)".into()
            ))
        );
        r.kinds
            .push(Kind::Api(resource("metrics.k8s.io", "v1beta1", "nodes")));
        assert_eq!(Served::from_registry(&r, Target::Nodes), Some(Served::Yes));
        assert_eq!(
            Served::from_registry(&r, Target::Pods),
            Some(Served::No("metrics.k8s.io/v1beta1 has no pods".into()))
        );
        r.known = Known::Failed("timed out".into());
        assert_eq!(Served::from_registry(&r, Target::Pods), None);
    }
}
