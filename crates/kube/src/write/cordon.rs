//! Cordon and uncordon a node: `spec.unschedulable`, as `kubectl cordon`/`uncordon`. Owns
//! that request; must not evict anything (that is `super::drain`).

use serde_json::json;

use super::{with_manager, Body, Request, Target, WriteError};

/// `PATCH /api/v1/nodes/N?fieldManager=ktui`, strategic merge patch
/// `{"spec":{"unschedulable":true|false}}`.
pub fn request(node: &Target, unschedulable: bool) -> Request {
    Request {
        method: http::Method::PATCH,
        path: with_manager(&node.path()),
        ty: Body::StrategicMergePatch,
        body: Some(json!({"spec": {"unschedulable": unschedulable}})),
    }
}

/// Marks `node` unschedulable (`true`) or schedulable again.
pub async fn set_unschedulable(
    client: &kube::Client,
    node: &Target,
    unschedulable: bool,
) -> Result<(), WriteError> {
    request(node, unschedulable).send(client).await.map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::BuiltinKind;

    #[test]
    fn patches_spec_unschedulable() {
        let n = Target::new(BuiltinKind::Node.into(), None, "node-2");
        let r = request(&n, true);
        assert_eq!(r.path, "/api/v1/nodes/node-2?fieldManager=ktui");
        assert_eq!(r.body, Some(json!({"spec": {"unschedulable": true}})));
    }
}
