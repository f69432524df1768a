//! `SelfSubjectAccessReview`: may the current user do `verb` on a resource (and
//! subresource) in a namespace? The RBAC gate of the UI asks it before offering a write.
//! Owns that request; must not cache (the app keeps the answers with a TTL).

use serde_json::{json, Value};

use super::{Body, Request, WriteError};

/// One permission: what `kubectl auth can-i VERB RESOURCE[/SUB] -n NS` asks.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Permission {
    /// `delete`, `patch`, `update`, `create`.
    pub verb: &'static str,
    /// API group; empty for the core group.
    pub group: String,
    /// Plural resource (`pods`).
    pub resource: String,
    /// Subresource (`scale`, `eviction`, `exec`), empty for none.
    pub subresource: &'static str,
    /// Namespace; empty for cluster-scoped resources or cluster-wide.
    pub namespace: String,
}

impl std::fmt::Display for Permission {
    /// `delete pods in team-a`, `patch deployments/scale in a`, `patch nodes`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.verb, self.resource)?;
        if !self.subresource.is_empty() {
            write!(f, "/{}", self.subresource)?;
        }
        if !self.namespace.is_empty() {
            write!(f, " in {}", self.namespace)?;
        }
        Ok(())
    }
}

/// `POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews` with
/// `{"spec":{"resourceAttributes":{verb, group, resource, subresource, namespace}}}`.
pub fn request(p: &Permission) -> Request {
    let mut attrs = json!({"verb": p.verb, "group": p.group, "resource": p.resource});
    if !p.subresource.is_empty() {
        attrs["subresource"] = json!(p.subresource);
    }
    if !p.namespace.is_empty() {
        attrs["namespace"] = json!(p.namespace);
    }
    Request {
        method: http::Method::POST,
        path: "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews".into(),
        ty: Body::Json,
        body: Some(json!({
            "apiVersion": "authorization.k8s.io/v1",
            "kind": "SelfSubjectAccessReview",
            "spec": {"resourceAttributes": attrs},
        })),
    }
}

/// `status.allowed` of the review (false when absent).
pub fn allowed(answer: &Value) -> bool {
    answer
        .pointer("/status/allowed")
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

/// Asks the server whether `p` is allowed.
pub async fn can_i(client: &kube::Client, p: &Permission) -> Result<bool, WriteError> {
    request(p).send(client).await.map(|v| allowed(&v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn review_names_the_attributes() {
        let p = Permission {
            verb: "patch",
            group: "apps".into(),
            resource: "deployments".into(),
            subresource: "scale",
            namespace: "team-a".into(),
        };
        assert_eq!(p.to_string(), "patch deployments/scale in team-a");
        let b = request(&p).body.unwrap();
        assert_eq!(
            b["spec"]["resourceAttributes"],
            json!({"verb": "patch", "group": "apps", "resource": "deployments", "subresource": "scale", "namespace": "team-a"})
        );
        assert!(allowed(&json!({"status": {"allowed": true}})));
        assert!(!allowed(&json!({"status": {}})));
    }
}
