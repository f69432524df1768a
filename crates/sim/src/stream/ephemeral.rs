//! The demo's `pods/NAME/ephemeralcontainers` subresource: a patch (strategic merge, merge
//! or JSON patch, as for the pod) that may change only `spec.ephemeralContainers`, after
//! which the demo kubelet reports each new ephemeral container running at once
//! (`status.ephemeralContainerStatuses`). Attaching to one gets the simulated shell (see
//! `stream`). Must not route or authorize.

use bytes::Bytes;
use http::Response;
use serde_json::{json, Value};

use crate::apierr::{ApiError, ApiResult};
use crate::http::ServerState;
use crate::kinds::id;
use crate::reply::Body;
use crate::store::now_rfc3339;
use crate::write::{self, Part, Payload};

/// PATCH `…/pods/NAME/ephemeralcontainers`.
pub fn patch(
    state: &ServerState,
    ns: &str,
    name: &str,
    query: &str,
    ct: &str,
    body: &Bytes,
) -> ApiResult<Response<Body>> {
    let before = state
        .store
        .get(id::POD, ns, name)
        .ok_or_else(|| ApiError::not_found(id::POD, name))?;
    let old: Value = serde_json::from_slice(&before.bytes).unwrap_or(Value::Null);
    let payload = Payload {
        query,
        content_type: ct,
        body,
    };
    // Applied to a copy first: only the ephemeral containers may change, none may go.
    let new = write::apply_patch(id::POD, ct, &old, body)?;
    check(name, &old, &new)?;
    write::patch(state, id::POD, ns, name, Part::Main, payload)?;
    let _ = state.store.modify(id::POD, ns, name, start_all);
    Ok(crate::api::get(state, id::POD, Some(ns), name, false))
}

fn names(v: &Value) -> Vec<&str> {
    v["spec"]["ephemeralContainers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["name"].as_str())
        .collect()
}

/// The API server's rules for this subresource, in its words.
fn check(name: &str, old: &Value, new: &Value) -> Result<(), ApiError> {
    let invalid =
        |field: &str, why: &str| ApiError::invalid(id::POD, name, &[(field.to_owned(), why.to_owned())]);
    let strip = |v: &Value| {
        let mut s = v["spec"].clone();
        if let Some(m) = s.as_object_mut() {
            m.remove("ephemeralContainers");
        }
        s
    };
    if strip(old) != strip(new) {
        return Err(invalid(
            "spec",
            "Forbidden: pod updates may not change fields other than `spec.ephemeralContainers`",
        ));
    }
    let (was, now) = (names(old), names(new));
    if let Some(gone) = was.iter().find(|n| !now.contains(n)) {
        return Err(invalid(
            "spec.ephemeralContainers",
            &format!("Forbidden: existing ephemeral containers \"{gone}\" may not be removed"),
        ));
    }
    for c in new["spec"]["ephemeralContainers"]
        .as_array()
        .into_iter()
        .flatten()
    {
        if c["image"].as_str().is_none_or(str::is_empty) {
            return Err(invalid("spec.ephemeralContainers[].image", "Required value"));
        }
    }
    Ok(())
}

/// The demo kubelet starts every ephemeral container that has no status yet.
fn start_all(pod: &mut Value) {
    let specs: Vec<(String, String)> = pod["spec"]["ephemeralContainers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| Some((c["name"].as_str()?.to_owned(), c["image"].as_str()?.to_owned())))
        .collect();
    let mut statuses = pod["status"]["ephemeralContainerStatuses"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for (name, image) in specs {
        if !statuses.iter().any(|s| s["name"] == name.as_str()) {
            statuses.push(
                json!({"name": name, "image": image, "imageID": image, "ready": false,
                "restartCount": 0, "state": {"running": {"startedAt": now_rfc3339()}}}),
            );
        }
    }
    pod["status"]["ephemeralContainerStatuses"] = Value::Array(statuses);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_new_ephemeral_containers_are_allowed_and_they_start() {
        let old = json!({"spec": {"containers": [{"name": "app", "image": "a"}]}});
        let mut new = old.clone();
        new["spec"]["ephemeralContainers"] = json!([{"name": "debugger-x", "image": "busybox:1.36"}]);
        assert!(check("p", &old, &new).is_ok());
        let mut changed = new.clone();
        changed["spec"]["containers"][0]["image"] = json!("b");
        assert_eq!(check("p", &old, &changed).unwrap_err().code, 422);
        let e = check("p", &new, &old).unwrap_err();
        assert!(e.message.contains("may not be removed"), "{}", e.message);
        start_all(&mut new);
        assert!(new["status"]["ephemeralContainerStatuses"][0]["state"]["running"].is_object());
    }
}
