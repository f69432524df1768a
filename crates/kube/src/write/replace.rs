//! Replace (PUT) of a whole object guarded by the resourceVersion the user started from, as
//! `kubectl edit` does: the server answers 409 Conflict when someone changed the object
//! meanwhile, and 422 Invalid for a bad object. Owns that request; must not merge or retry.

use serde_json::Value;

use super::{with_manager, Body, Request, Target, WriteError};

/// `PUT <object path>?fieldManager=ktui` with `object`, whose `metadata.resourceVersion` is
/// set to `resource_version` (the precondition).
pub fn request(target: &Target, mut object: Value, resource_version: &str) -> Request {
    if let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.insert(
            "resourceVersion".into(),
            Value::String(resource_version.to_owned()),
        );
    }
    Request {
        method: http::Method::PUT,
        path: with_manager(&target.path()),
        ty: Body::Json,
        body: Some(object),
    }
}

/// Replaces `target` with `object` if it is still at `resource_version`; the stored object.
pub async fn replace(
    client: &kube::Client,
    target: &Target,
    object: Value,
    resource_version: &str,
) -> Result<Value, WriteError> {
    request(target, object, resource_version).send(client).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::BuiltinKind;
    use serde_json::json;

    #[test]
    fn precondition_is_the_starting_version() {
        let t = Target::new(BuiltinKind::ConfigMap.into(), Some("a"), "cfg");
        let obj = json!({"metadata": {"name": "cfg", "resourceVersion": "99"}, "data": {"k": "v"}});
        let r = request(&t, obj, "42");
        assert_eq!(r.method, http::Method::PUT);
        assert_eq!(r.path, "/api/v1/namespaces/a/configmaps/cfg?fieldManager=ktui");
        assert_eq!(r.body.unwrap()["metadata"]["resourceVersion"], "42");
    }
}
