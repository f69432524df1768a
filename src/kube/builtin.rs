//! The built-in kinds ktui has hand-written columns for, with their API coordinates (GVR) and
//! the names a user may type for them (resolved by `super::registry` with every discovered
//! kind). Must not know columns or how rows look (that is `crate::table`).

use std::fmt;

/// A built-in kind with a hand-written slim decoder and kubectl's columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BuiltinKind {
    Pod,
    Deployment,
    ReplicaSet,
    StatefulSet,
    DaemonSet,
    Job,
    CronJob,
    HorizontalPodAutoscaler,
    Service,
    Ingress,
    Endpoints,
    EndpointSlice,
    ConfigMap,
    Secret,
    Node,
    Namespace,
    PersistentVolumeClaim,
    PersistentVolume,
    Event,
}

/// API coordinates and user-facing names of a kind, as `kubectl api-resources` shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KindInfo {
    /// `kind` (e.g. `Deployment`).
    pub kind: &'static str,
    /// API group; empty for the core group.
    pub group: &'static str,
    /// API version (`v1`).
    pub version: &'static str,
    /// Resource (plural) name, the `R` in GVR (`deployments`).
    pub plural: &'static str,
    /// Singular name (`deployment`).
    pub singular: &'static str,
    /// Short names (`deploy`).
    pub short: &'static [&'static str],
    /// Whether objects live in a namespace.
    pub namespaced: bool,
}

impl BuiltinKind {
    /// Every built-in kind, in the order `?`/completion lists them.
    pub const ALL: [BuiltinKind; 19] = [
        BuiltinKind::Pod,
        BuiltinKind::Deployment,
        BuiltinKind::ReplicaSet,
        BuiltinKind::StatefulSet,
        BuiltinKind::DaemonSet,
        BuiltinKind::Job,
        BuiltinKind::CronJob,
        BuiltinKind::HorizontalPodAutoscaler,
        BuiltinKind::Service,
        BuiltinKind::Ingress,
        BuiltinKind::Endpoints,
        BuiltinKind::EndpointSlice,
        BuiltinKind::ConfigMap,
        BuiltinKind::Secret,
        BuiltinKind::Node,
        BuiltinKind::Namespace,
        BuiltinKind::PersistentVolumeClaim,
        BuiltinKind::PersistentVolume,
        BuiltinKind::Event,
    ];

    /// The kind's API coordinates and names.
    pub const fn info(self) -> KindInfo {
        use BuiltinKind::*;
        const fn k(
            kind: &'static str,
            group: &'static str,
            plural: &'static str,
            singular: &'static str,
            short: &'static [&'static str],
            namespaced: bool,
        ) -> KindInfo {
            KindInfo {
                kind,
                group,
                version: "v1",
                plural,
                singular,
                short,
                namespaced,
            }
        }
        match self {
            Pod => k("Pod", "", "pods", "pod", &["po"], true),
            Deployment => k(
                "Deployment",
                "apps",
                "deployments",
                "deployment",
                &["deploy"],
                true,
            ),
            ReplicaSet => k("ReplicaSet", "apps", "replicasets", "replicaset", &["rs"], true),
            StatefulSet => k(
                "StatefulSet",
                "apps",
                "statefulsets",
                "statefulset",
                &["sts"],
                true,
            ),
            DaemonSet => k("DaemonSet", "apps", "daemonsets", "daemonset", &["ds"], true),
            Job => k("Job", "batch", "jobs", "job", &[], true),
            CronJob => k("CronJob", "batch", "cronjobs", "cronjob", &["cj"], true),
            // autoscaling/v2 is the preferred (and only complete) version since 1.23.
            HorizontalPodAutoscaler => KindInfo {
                version: "v2",
                ..k(
                    "HorizontalPodAutoscaler",
                    "autoscaling",
                    "horizontalpodautoscalers",
                    "horizontalpodautoscaler",
                    &["hpa"],
                    true,
                )
            },
            Service => k("Service", "", "services", "service", &["svc"], true),
            Ingress => k(
                "Ingress",
                "networking.k8s.io",
                "ingresses",
                "ingress",
                &["ing"],
                true,
            ),
            // Discovery spells the singular of endpoints `endpoints`.
            Endpoints => k("Endpoints", "", "endpoints", "endpoints", &["ep"], true),
            EndpointSlice => k(
                "EndpointSlice",
                "discovery.k8s.io",
                "endpointslices",
                "endpointslice",
                &[],
                true,
            ),
            ConfigMap => k("ConfigMap", "", "configmaps", "configmap", &["cm"], true),
            Secret => k("Secret", "", "secrets", "secret", &[], true),
            Node => k("Node", "", "nodes", "node", &["no"], false),
            Namespace => k("Namespace", "", "namespaces", "namespace", &["ns"], false),
            PersistentVolumeClaim => k(
                "PersistentVolumeClaim",
                "",
                "persistentvolumeclaims",
                "persistentvolumeclaim",
                &["pvc"],
                true,
            ),
            PersistentVolume => k(
                "PersistentVolume",
                "",
                "persistentvolumes",
                "persistentvolume",
                &["pv"],
                false,
            ),
            Event => k("Event", "", "events", "event", &["ev"], true),
        }
    }

    /// Whether informers of this kind feed the event timeline (ordered by time, merged by
    /// uid) instead of a row store (ordered by namespace and name).
    pub fn is_timeline(self) -> bool {
        self == BuiltinKind::Event
    }

    /// URL path of the collection: `/api/v1/namespaces/{ns}/pods`, `/apis/apps/v1/deployments`.
    /// `namespace` is ignored for cluster-scoped kinds.
    pub fn url_path(self, namespace: Option<&str>) -> String {
        super::kind::Kind::from(self).url_path(namespace)
    }
}

impl fmt::Display for BuiltinKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.info().plural)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_every_alias_of_the_issue() {
        let cases = [
            ("po", BuiltinKind::Pod),
            ("pods", BuiltinKind::Pod),
            ("Pod", BuiltinKind::Pod),
            ("deploy", BuiltinKind::Deployment),
            ("deployments.apps", BuiltinKind::Deployment),
            ("rs", BuiltinKind::ReplicaSet),
            ("sts", BuiltinKind::StatefulSet),
            ("ds", BuiltinKind::DaemonSet),
            ("job", BuiltinKind::Job),
            ("cj", BuiltinKind::CronJob),
            ("svc", BuiltinKind::Service),
            ("cm", BuiltinKind::ConfigMap),
            ("secret", BuiltinKind::Secret),
            ("no", BuiltinKind::Node),
            ("ns", BuiltinKind::Namespace),
            ("pvc", BuiltinKind::PersistentVolumeClaim),
            ("ev", BuiltinKind::Event),
            ("ing", BuiltinKind::Ingress),
            ("ingresses.networking.k8s.io", BuiltinKind::Ingress),
            ("pv", BuiltinKind::PersistentVolume),
            ("persistentvolume", BuiltinKind::PersistentVolume),
            ("ep", BuiltinKind::Endpoints),
            ("endpoints", BuiltinKind::Endpoints),
            ("endpointslices", BuiltinKind::EndpointSlice),
            ("EndpointSlice", BuiltinKind::EndpointSlice),
            ("hpa", BuiltinKind::HorizontalPodAutoscaler),
            (
                "horizontalpodautoscalers.autoscaling",
                BuiltinKind::HorizontalPodAutoscaler,
            ),
        ];
        // Before discovery answers, the registry knows the built-ins only.
        let builtins = crate::kube::registry::Registry::builtins();
        let resolve = |typed: &str| builtins.resolve(typed).ok().and_then(|k| k.builtin());
        for (typed, want) in cases {
            assert_eq!(resolve(typed), Some(want), "{typed}");
        }
        assert_eq!(resolve("gizmo"), None);
    }

    #[test]
    fn url_paths() {
        assert_eq!(BuiltinKind::Pod.url_path(Some("a")), "/api/v1/namespaces/a/pods");
        assert_eq!(BuiltinKind::Pod.url_path(None), "/api/v1/pods");
        assert_eq!(
            BuiltinKind::Deployment.url_path(None),
            "/apis/apps/v1/deployments"
        );
        assert_eq!(BuiltinKind::Node.url_path(Some("a")), "/api/v1/nodes");
        assert_eq!(
            BuiltinKind::HorizontalPodAutoscaler.url_path(Some("a")),
            "/apis/autoscaling/v2/namespaces/a/horizontalpodautoscalers"
        );
        assert_eq!(
            BuiltinKind::PersistentVolume.url_path(Some("a")),
            "/api/v1/persistentvolumes"
        );
    }
}
