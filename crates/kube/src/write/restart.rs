//! Rollout restart of a deployment, statefulset or daemonset: the pod template gets the
//! annotation `kubectl.kubernetes.io/restartedAt` with the current time, exactly as
//! `kubectl rollout restart` patches it, so the controller rolls new pods. Owns that
//! request; must not watch the rollout.

use serde_json::json;

use super::{with_manager, Body, Request, Target, WriteError};

/// The pod-template annotation kubectl sets.
pub const RESTARTED_AT: &str = "kubectl.kubernetes.io/restartedAt";

/// `PATCH <object path>?fieldManager=ktui`, strategic merge patch
/// `{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":T}}}}}`
/// where `T` is `at` in RFC 3339 (whole seconds).
pub fn request(target: &Target, at: jiff::Timestamp) -> Request {
    let t = at.round(jiff::Unit::Second).unwrap_or(at).to_string();
    Request {
        method: http::Method::PATCH,
        path: with_manager(&target.path()),
        ty: Body::StrategicMergePatch,
        body: Some(json!({"spec": {"template": {"metadata": {"annotations": {RESTARTED_AT: t}}}}})),
    }
}

/// Restarts `target`'s rollout now.
pub async fn restart(client: &kube::Client, target: &Target) -> Result<(), WriteError> {
    request(target, jiff::Timestamp::now())
        .send(client)
        .await
        .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::BuiltinKind;

    #[test]
    fn annotates_the_template() {
        let t = Target::new(BuiltinKind::DaemonSet.into(), Some("a"), "agent");
        let at: jiff::Timestamp = "2026-12-01T19:40:00.4Z".parse().unwrap();
        let r = request(&t, at);
        assert_eq!(
            r.path,
            "/apis/apps/v1/namespaces/a/daemonsets/agent?fieldManager=ktui"
        );
        assert_eq!(
            r.body.unwrap()["spec"]["template"]["metadata"]["annotations"][RESTARTED_AT],
            "2026-12-01T19:40:00Z"
        );
    }
}
