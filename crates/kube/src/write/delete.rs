//! DELETE of one object with `DeleteOptions` (propagation policy, grace period; force is a
//! grace period of 0, as `kubectl delete --force --grace-period=0`). Owns that request; must
//! not wait for the object to go (the informer shows `Terminating`, then the row leaves).

use serde_json::json;

use super::{Body, Request, Target, WriteError};

/// `propagationPolicy`: what happens to the object's dependents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Propagation {
    /// The object goes now; the garbage collector removes dependents afterwards.
    #[default]
    Background,
    /// Dependents are removed first; the object stays (with a `foregroundDeletion`
    /// finalizer) until they are gone.
    Foreground,
    /// Dependents are kept (their owner references removed).
    Orphan,
}

impl Propagation {
    /// Every policy, in the order the dialog cycles through them.
    pub const ALL: [Propagation; 3] = [
        Propagation::Background,
        Propagation::Foreground,
        Propagation::Orphan,
    ];

    /// The API's spelling (`Background`, `Foreground`, `Orphan`).
    pub fn api_name(self) -> &'static str {
        match self {
            Propagation::Background => "Background",
            Propagation::Foreground => "Foreground",
            Propagation::Orphan => "Orphan",
        }
    }

    /// The word shown in the dialog (`background`).
    pub fn word(self) -> &'static str {
        match self {
            Propagation::Background => "background",
            Propagation::Foreground => "foreground",
            Propagation::Orphan => "orphan",
        }
    }
}

/// How to delete.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DeleteOptions {
    /// `propagationPolicy`.
    pub propagation: Propagation,
    /// `gracePeriodSeconds`; `None` leaves the object's own (a pod's
    /// `terminationGracePeriodSeconds`, 30 s by default).
    pub grace_seconds: Option<u32>,
    /// Force: grace period 0 — the API forgets the object at once, without waiting for the
    /// kubelet to confirm that the containers stopped (they may keep running).
    pub force: bool,
}

impl DeleteOptions {
    /// The grace period sent: 0 when forced, else the chosen one.
    pub fn grace(&self) -> Option<u32> {
        if self.force {
            Some(0)
        } else {
            self.grace_seconds
        }
    }
}

/// `DELETE <object path>` with body `{"kind":"DeleteOptions","apiVersion":"v1",
/// "propagationPolicy":P[,"gracePeriodSeconds":N]}`.
pub fn request(target: &Target, opts: &DeleteOptions) -> Request {
    let mut body = json!({
        "kind": "DeleteOptions",
        "apiVersion": "v1",
        "propagationPolicy": opts.propagation.api_name(),
    });
    if let Some(g) = opts.grace() {
        body["gracePeriodSeconds"] = json!(g);
    }
    Request {
        method: http::Method::DELETE,
        path: target.path(),
        ty: Body::Json,
        body: Some(body),
    }
}

/// Deletes `target`.
pub async fn delete(client: &kube::Client, target: &Target, opts: &DeleteOptions) -> Result<(), WriteError> {
    request(target, opts).send(client).await.map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::BuiltinKind;

    #[test]
    fn body_carries_policy_and_grace() {
        let t = Target::new(BuiltinKind::Deployment.into(), Some("a"), "web");
        let r = request(&t, &DeleteOptions::default());
        assert_eq!(r.method, http::Method::DELETE);
        assert_eq!(r.path, "/apis/apps/v1/namespaces/a/deployments/web");
        assert_eq!(
            r.body.unwrap(),
            json!({"kind": "DeleteOptions", "apiVersion": "v1", "propagationPolicy": "Background"})
        );
        let forced = DeleteOptions {
            propagation: Propagation::Orphan,
            grace_seconds: Some(30),
            force: true,
        };
        let b = request(&t, &forced).body.unwrap();
        assert_eq!(
            (b["propagationPolicy"].as_str(), b["gracePeriodSeconds"].as_u64()),
            (Some("Orphan"), Some(0))
        );
    }
}
