//! Scale through the `scale` subresource (deployments, statefulsets, replicasets), as
//! `kubectl scale` does. Owns that request; must not read or wait for replicas.

use serde_json::json;

use super::{with_manager, Body, Request, Target, WriteError};

/// `PATCH <object path>/scale?fieldManager=ktui`, merge patch `{"spec":{"replicas":N}}`.
pub fn request(target: &Target, replicas: u32) -> Request {
    Request {
        method: http::Method::PATCH,
        path: with_manager(&format!("{}/scale", target.path())),
        ty: Body::MergePatch,
        body: Some(json!({"spec": {"replicas": replicas}})),
    }
}

/// Sets `target`'s desired replicas.
pub async fn scale(client: &kube::Client, target: &Target, replicas: u32) -> Result<(), WriteError> {
    request(target, replicas).send(client).await.map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::BuiltinKind;

    #[test]
    fn patches_the_scale_subresource() {
        let t = Target::new(BuiltinKind::StatefulSet.into(), Some("a"), "db");
        let r = request(&t, 5);
        assert_eq!(
            r.path,
            "/apis/apps/v1/namespaces/a/statefulsets/db/scale?fieldManager=ktui"
        );
        assert_eq!(r.body, Some(json!({"spec": {"replicas": 5}})));
        assert_eq!(r.ty, Body::MergePatch);
    }
}
