//! The built-in kinds ktui has hand-written columns for: their one registration line each
//! ([`builtin_kinds`]), API coordinates (GVR) and the names a user may type for them (resolved
//! by `super::registry` with every discovered kind). Must not know columns or how rows look
//! (that is `ktui_table`, which reads the same registration).

use std::fmt;

/// The registration of every built-in kind, one line each, in the order `?` and completion
/// list them:
///
/// `Variant: table_module::SlimType = "group"/"version", "plural", "singular", [short names], scope;`
///
/// kube reads the API coordinates and names (`kubectl api-resources`); `table_module::SlimType`
/// names the file `crates/table/src/<table_module>.rs` that holds the kind's columns and row builder,
/// used only by `ktui_table` (kube never resolves it). The macro hands the list to `$then!`:
/// this module generates [`BuiltinKind`] and [`BuiltinKind::info`] from it, `ktui_table` its
/// modules, column specs, decoders and informer dispatch. Adding a built-in kind is one new
/// `crates/table/src/<kind>.rs` plus one line here.
#[macro_export]
macro_rules! builtin_kinds {
    ($then:ident) => {
        $then! {
            Pod: pod::PodObj = ""/"v1", "pods", "pod", ["po"], namespaced;
            Deployment: deployment::DeploymentObj = "apps"/"v1", "deployments", "deployment", ["deploy"], namespaced;
            ReplicaSet: replicaset::ReplicaSetObj = "apps"/"v1", "replicasets", "replicaset", ["rs"], namespaced;
            StatefulSet: statefulset::StatefulSetObj = "apps"/"v1", "statefulsets", "statefulset", ["sts"], namespaced;
            DaemonSet: daemonset::DaemonSetObj = "apps"/"v1", "daemonsets", "daemonset", ["ds"], namespaced;
            Job: job::JobObj = "batch"/"v1", "jobs", "job", [], namespaced;
            CronJob: cronjob::CronJobObj = "batch"/"v1", "cronjobs", "cronjob", ["cj"], namespaced;
            // autoscaling/v2 is the preferred (and only complete) version since 1.23.
            HorizontalPodAutoscaler: hpa::HpaObj = "autoscaling"/"v2", "horizontalpodautoscalers", "horizontalpodautoscaler", ["hpa"], namespaced;
            Service: service::ServiceObj = ""/"v1", "services", "service", ["svc"], namespaced;
            Ingress: ingress::IngressObj = "networking.k8s.io"/"v1", "ingresses", "ingress", ["ing"], namespaced;
            // Discovery spells the singular of endpoints `endpoints`.
            Endpoints: endpoints::EndpointsObj = ""/"v1", "endpoints", "endpoints", ["ep"], namespaced;
            EndpointSlice: endpointslice::EndpointSliceObj = "discovery.k8s.io"/"v1", "endpointslices", "endpointslice", [], namespaced;
            ConfigMap: configmap::ConfigMapObj = ""/"v1", "configmaps", "configmap", ["cm"], namespaced;
            Secret: secret::SecretObj = ""/"v1", "secrets", "secret", [], namespaced;
            Node: node::NodeObj = ""/"v1", "nodes", "node", ["no"], cluster;
            Namespace: namespace::NamespaceObj = ""/"v1", "namespaces", "namespace", ["ns"], cluster;
            PersistentVolumeClaim: pvc::PvcObj = ""/"v1", "persistentvolumeclaims", "persistentvolumeclaim", ["pvc"], namespaced;
            PersistentVolume: pv::PvObj = ""/"v1", "persistentvolumes", "persistentvolume", ["pv"], cluster;
            Event: event::EventObj = ""/"v1", "events", "event", ["ev"], namespaced;
        }
    };
}
pub use crate::builtin_kinds;

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

/// `namespaced` / `cluster` of a registration line as a bool.
macro_rules! scope_is_namespaced {
    (namespaced) => {
        true
    };
    (cluster) => {
        false
    };
}

/// Generates [`BuiltinKind`], `ALL` and `info` from the registration.
macro_rules! define_builtin_kind {
    ($($variant:ident: $module:ident::$obj:ident = $group:literal/$version:literal, $plural:literal,
        $singular:literal, [$($short:literal),*], $scope:ident;)*) => {
        /// A built-in kind with a hand-written slim decoder and kubectl's columns (see
        /// [`builtin_kinds`] for the registration).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum BuiltinKind {
            $(
                #[doc = concat!("`", $plural, "` (", $group, "/", $version, ").")]
                $variant,
            )*
        }

        impl BuiltinKind {
            /// Every built-in kind, in the order `?`/completion lists them.
            pub const ALL: [BuiltinKind; [$(stringify!($variant)),*].len()] =
                [$(BuiltinKind::$variant),*];

            /// The kind's API coordinates and names.
            pub const fn info(self) -> KindInfo {
                match self {
                    $(BuiltinKind::$variant => KindInfo {
                        kind: stringify!($variant),
                        group: $group,
                        version: $version,
                        plural: $plural,
                        singular: $singular,
                        short: &[$($short),*],
                        namespaced: scope_is_namespaced!($scope),
                    },)*
                }
            }
        }
    };
}

builtin_kinds!(define_builtin_kind);

impl BuiltinKind {
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
        let builtins = crate::registry::Registry::builtins();
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
