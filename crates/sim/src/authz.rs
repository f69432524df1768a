//! Who is asking and what they may do: the demo server's authentication (a bearer token per
//! identity) and authorization (the admin may do everything; the viewer may get, list and
//! watch every resource and read `pods/log`, nothing else — like a binding to a read-only
//! ClusterRole), plus `SelfSubjectAccessReview` answers. Must not read the store.
//!
//! Tokens other than the viewer's (none, the admin's, anything else) are the admin, so every
//! client that worked against the demo before keeps working.

use serde_json::{json, Value};

use super::apierr::ApiError;

/// The admin's token in the demo kubeconfig.
pub const ADMIN_TOKEN: &str = "ktui-demo-token";
/// The viewer's token (context `ktui-demo-viewer` of the demo kubeconfig).
pub const VIEWER_TOKEN: &str = "ktui-demo-viewer-token";

/// The path prefix of the viewer's server URL in the demo kubeconfig: requests under it are
/// the viewer's whatever their token. kubectl (client-go's clientcmd) sends a kubeconfig's
/// credentials only over TLS, so over the demo's `http://` the token alone cannot tell the
/// viewer apart; a path-prefixed server (as behind a proxy that routes by path) carries the
/// identity for every client.
pub const VIEWER_PREFIX: &str = "/viewer";

/// `(Some(Viewer), rest)` when `path` is under [`VIEWER_PREFIX`], else `(None, path)`.
pub fn strip_viewer_prefix(path: &str) -> (Option<Identity>, &str) {
    match path.strip_prefix(VIEWER_PREFIX) {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => (Some(Identity::Viewer), rest),
        _ => (None, path),
    }
}

/// An authenticated identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Identity {
    /// User `admin`, group `system:masters`: every verb on every resource.
    Admin,
    /// User `viewer`: get, list, watch everywhere (and `pods/log`); no writes, no exec,
    /// no attach, no port-forward.
    Viewer,
}

/// The cluster's RBAC rules that the demo lets change (see `metrics::MetricsMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// Whether the `view` role includes metrics-server's `system:aggregated-metrics-reader`
    /// rules (get, list, watch on `pods` and `nodes` in `metrics.k8s.io`), as its manifest
    /// installs them; false = the viewer gets 403 on that group.
    pub view_reads_metrics: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            view_reads_metrics: true,
        }
    }
}

/// What a request does, in RBAC's terms.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Attributes {
    /// `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`, `deletecollection`.
    pub verb: String,
    /// API group (`""` = core).
    pub group: String,
    /// Resource plural.
    pub resource: String,
    /// Subresource (`log`, `scale`, `status`, `eviction`, `exec`, …), `""` for none.
    pub subresource: String,
    /// Object name, `""` for collection requests.
    pub name: String,
    /// Namespace, `None` when cluster-scoped or across all namespaces.
    pub namespace: Option<String>,
}

impl Identity {
    /// The identity of an `Authorization` header value.
    pub fn from_header(auth: Option<&str>) -> Identity {
        match auth.and_then(|a| a.strip_prefix("Bearer ")).map(str::trim) {
            Some(VIEWER_TOKEN) => Identity::Viewer,
            _ => Identity::Admin,
        }
    }

    /// `metadata.name` of the user, as 403 messages name it.
    pub fn user(self) -> &'static str {
        match self {
            Identity::Admin => "admin",
            Identity::Viewer => "viewer",
        }
    }

    /// Whether the identity may do `a` under `rules`.
    pub fn allows(self, a: &Attributes, rules: Rules) -> bool {
        match self {
            Identity::Admin => true,
            Identity::Viewer if a.group == crate::metrics::GROUP && !rules.view_reads_metrics => false,
            Identity::Viewer => {
                let read = matches!(a.verb.as_str(), "get" | "list" | "watch");
                read && matches!(a.subresource.as_str(), "" | "log" | "status" | "scale")
            }
        }
    }

    /// Why a non-resource request (`/version`, `/healthz`) is allowed: everyone may `get`.
    fn allows_path(self, verb: &str) -> bool {
        self == Identity::Admin || verb == "get"
    }

    /// `Ok` when allowed under `rules`, else the API's 403.
    pub fn check(self, a: &Attributes, rules: Rules) -> Result<(), ApiError> {
        if self.allows(a, rules) {
            return Ok(());
        }
        let resource = if a.subresource.is_empty() {
            a.resource.clone()
        } else {
            format!("{}/{}", a.resource, a.subresource)
        };
        Err(ApiError::forbidden(
            self.user(),
            &a.verb,
            &resource,
            &a.group,
            &a.name,
            a.namespace.as_deref(),
        ))
    }

    /// The answer to a `SelfSubjectAccessReview` whose `spec` is given (JSON, or decoded from
    /// protobuf): the review with `status.allowed` under `rules` (and the RBAC-style reason
    /// when allowed).
    pub fn review(self, spec: &Value, rules: Rules) -> Value {
        let (allowed, what) = if let Some(ra) = spec.get("resourceAttributes") {
            let s = |k: &str| ra[k].as_str().unwrap_or("").to_owned();
            let a = Attributes {
                verb: s("verb"),
                group: s("group"),
                resource: s("resource"),
                subresource: s("subresource"),
                name: s("name"),
                namespace: Some(s("namespace")).filter(|n| !n.is_empty()),
            };
            (
                a.verb == "*" && self == Identity::Admin || self.allows(&a, rules),
                "",
            )
        } else {
            let verb = spec["nonResourceAttributes"]["verb"].as_str().unwrap_or("");
            (self.allows_path(verb), "")
        };
        let reason = match (self, allowed) {
            (Identity::Admin, _) => "",
            (Identity::Viewer, true) => "RBAC: allowed by ClusterRoleBinding \"demo-viewer\" of ClusterRole \"view\" to User \"viewer\"",
            (Identity::Viewer, false) => what,
        };
        let mut status = json!({"allowed": allowed});
        if !reason.is_empty() {
            status["reason"] = json!(reason);
        }
        json!({"kind": "SelfSubjectAccessReview", "apiVersion": "authorization.k8s.io/v1",
               "metadata": {"creationTimestamp": null}, "spec": spec, "status": status})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_viewer_prefix_names_the_viewer() {
        assert_eq!(
            strip_viewer_prefix("/viewer/api/v1/pods"),
            (Some(Identity::Viewer), "/api/v1/pods")
        );
        assert_eq!(strip_viewer_prefix("/viewer"), (Some(Identity::Viewer), ""));
        assert_eq!(strip_viewer_prefix("/viewers/x"), (None, "/viewers/x"));
        assert_eq!(strip_viewer_prefix("/api/v1"), (None, "/api/v1"));
    }

    fn attrs(verb: &str, resource: &str, sub: &str, name: &str, ns: Option<&str>) -> Attributes {
        Attributes {
            verb: verb.into(),
            group: String::new(),
            resource: resource.into(),
            subresource: sub.into(),
            name: name.into(),
            namespace: ns.map(str::to_owned),
        }
    }

    #[test]
    fn viewer_reads_and_is_refused_writes_with_the_real_wording() {
        let v = Identity::from_header(Some("Bearer ktui-demo-viewer-token"));
        assert_eq!(v, Identity::Viewer);
        assert_eq!(Identity::from_header(None), Identity::Admin);
        assert!(v.allows(&attrs("list", "pods", "", "", None), Rules::default()));
        assert!(v.allows(&attrs("get", "pods", "log", "x", Some("shop")), Rules::default()));
        assert!(!v.allows(
            &attrs("create", "pods", "exec", "x", Some("shop")),
            Rules::default()
        ));
        assert!(!v.allows(
            &attrs("get", "pods", "portforward", "x", Some("shop")),
            Rules::default()
        ));
        let e = v
            .check(&attrs("delete", "pods", "", "x", Some("shop")), Rules::default())
            .unwrap_err();
        assert_eq!(
            e.message,
            "pods \"x\" is forbidden: User \"viewer\" cannot delete resource \"pods\" in API group \"\" in the namespace \"shop\""
        );
        assert_eq!((e.code, e.reason), (403, "Forbidden"));
        let mut a = attrs("patch", "nodes", "", "worker-1", None);
        a.group = String::new();
        assert!(v
            .check(&a, Rules::default())
            .unwrap_err()
            .message
            .ends_with("at the cluster scope"));
        let r = v.review(
            &json!({"resourceAttributes": {"verb": "delete", "resource": "pods", "namespace": "shop"}}),
            Rules::default(),
        );
        assert_eq!(r["status"]["allowed"], false);
        let r = Identity::Admin.review(
            &json!({"resourceAttributes": {"verb": "delete", "resource": "pods"}}),
            Rules::default(),
        );
        assert_eq!(r["status"]["allowed"], true);
    }

    #[test]
    fn the_viewer_reads_metrics_unless_the_rules_say_otherwise() {
        let mut a = attrs("list", "pods", "", "", None);
        a.group = crate::metrics::GROUP.into();
        let off = Rules {
            view_reads_metrics: false,
        };
        assert!(Identity::Viewer.allows(&a, Rules::default()));
        assert!(!Identity::Viewer.allows(&a, off) && Identity::Admin.allows(&a, off));
        let e = Identity::Viewer.check(&a, off).unwrap_err();
        assert_eq!(
            e.message,
            "pods.metrics.k8s.io is forbidden: User \"viewer\" cannot list resource \"pods\" in API group \"metrics.k8s.io\" at the cluster scope"
        );
    }
}
