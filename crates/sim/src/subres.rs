//! The `scale` subresource (autoscaling/v1 `Scale`: GET, PUT, PATCH) of deployments,
//! statefulsets and replicasets, and the `eviction` subresource of pods (policy/v1
//! `Eviction`: POST), which refuses with 429 what would break a PodDisruptionBudget, in the
//! API server's words. Must not route or authorize.

use bytes::Bytes;
use http::{Response, StatusCode};
use serde_json::{json, Value};

use super::apierr::{ApiError, ApiResult};
use super::delete::{self, DeleteOptions, Propagation};
use super::http::ServerState;
use super::kinds::{id, KindId};
use super::labels::selector_string;
use super::pdb;
use super::reply::{self, Body};
use super::store::Stored;
use super::write::{self, Part, Payload};

/// Whether `kind` serves `scale`.
pub fn scalable(kind: KindId) -> bool {
    matches!(kind, id::DEPLOYMENT | id::STATEFULSET | id::REPLICASET)
}

/// The Scale of a stored object.
fn scale_of(v: &Value, rv: u64) -> Value {
    let m = &v["metadata"];
    json!({"kind": "Scale", "apiVersion": "autoscaling/v1",
        "metadata": {"name": m["name"], "namespace": m["namespace"], "uid": m["uid"],
                     "resourceVersion": rv.to_string(), "creationTimestamp": m["creationTimestamp"]},
        "spec": {"replicas": v["spec"]["replicas"].as_i64().unwrap_or(1)},
        "status": {"replicas": v["status"]["replicas"].as_i64().unwrap_or(0),
                   "selector": selector_string(&v["spec"]["selector"])}})
}

fn parse(s: &Stored) -> Value {
    serde_json::from_slice(&s.bytes).unwrap_or(Value::Null)
}

fn scale_reply(s: &Stored) -> Response<Body> {
    reply::bytes(
        StatusCode::OK,
        "application/json",
        scale_of(&parse(s), s.rv).to_string(),
    )
}

/// GET `…/NAME/scale`.
pub fn get_scale(state: &ServerState, kind: KindId, ns: &str, name: &str) -> ApiResult<Response<Body>> {
    let s = state
        .store
        .get(kind, ns, name)
        .ok_or_else(|| ApiError::not_found(kind, name))?;
    Ok(scale_reply(&s))
}

fn invalid_scale(name: &str, r: i64) -> ApiError {
    let mut e = ApiError::invalid(
        id::DEPLOYMENT,
        name,
        &[(
            "spec.replicas".into(),
            format!("Invalid value: {r}: must be greater than or equal to 0"),
        )],
    );
    e.message = e.message.replacen("Deployment.apps", "Scale.autoscaling", 1);
    if let Some(d) = e.details.as_mut() {
        d["kind"] = json!("Scale");
        d["group"] = json!("autoscaling");
    }
    e
}

/// PUT (`patch_type` `None`) or PATCH of `…/NAME/scale`: the new `spec.replicas` is written
/// to the object (guarded by the Scale's resourceVersion when it carries one).
pub fn write_scale(
    state: &ServerState,
    kind: KindId,
    ns: &str,
    name: &str,
    is_patch: bool,
    p: Payload<'_>,
) -> ApiResult<Response<Body>> {
    let (ct, body) = (p.content_type, p.body);
    let patch_type = is_patch.then_some(ct);
    let stored = write::update_object(
        &state.store,
        kind,
        ns,
        name,
        Part::Main,
        |old| {
            let cur_rv = old["metadata"]["resourceVersion"]
                .as_str()
                .unwrap_or("")
                .parse()
                .unwrap_or(0);
            let scale = scale_of(old, cur_rv);
            let new_scale = match patch_type {
                None => {
                    let s = write::decode_body(ct, body)?;
                    if s["kind"].as_str().is_some_and(|k| k != "Scale") {
                        return Err(ApiError::bad_request(format!(
                            "the kind in the data ({}) does not match the expected kind (Scale)",
                            s["kind"].as_str().unwrap_or("")
                        )));
                    }
                    s
                }
                Some(pt) => write::apply_patch(kind, pt, &scale, body)?,
            };
            if new_scale["metadata"]["name"].as_str().is_some_and(|n| n != name) {
                return Err(ApiError::bad_request(format!(
                    "the name of the object ({}) does not match the name on the URL ({name})",
                    new_scale["metadata"]["name"].as_str().unwrap_or("")
                )));
            }
            let r = new_scale["spec"]["replicas"].as_i64().unwrap_or(0);
            if r < 0 {
                return Err(invalid_scale(name, r));
            }
            let mut new = old.clone();
            new["spec"]["replicas"] = json!(r);
            let rv = new_scale["metadata"]["resourceVersion"].as_str().unwrap_or("");
            new["metadata"]["resourceVersion"] =
                if patch_type.is_some() && rv == scale["metadata"]["resourceVersion"] {
                    Value::Null
                } else {
                    json!(rv)
                };
            Ok(new)
        },
        write::dry_run(p.query),
    )?;
    Ok(scale_reply(&stored))
}

/// POST `pods/NAME/eviction`: deletes the pod unless a PodDisruptionBudget forbids it.
pub fn evict(state: &ServerState, ns: &str, name: &str, ct: &str, body: &Bytes) -> ApiResult<Response<Body>> {
    let ev = write::decode_body(ct, body)?;
    if ev["metadata"]["name"].as_str().is_some_and(|n| n != name) {
        return Err(ApiError::bad_request(
            "name in URL does not match name in Eviction object",
        ));
    }
    let store = &state.store;
    let pod = store
        .get(id::POD, ns, name)
        .ok_or_else(|| ApiError::not_found(id::POD, name))?;
    let pv = parse(&pod);
    let done =
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 201});
    let created = || reply::bytes(StatusCode::CREATED, "application/json", done.to_string());
    if pv["metadata"]["deletionTimestamp"].is_string() {
        return Ok(created());
    }
    let budgets = pdb::covering(store, &pv);
    if budgets.len() > 1 {
        return Err(ApiError {
            code: 500,
            reason: "InternalError",
            message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.".into(),
            details: None,
        });
    }
    let mut o = DeleteOptions::default();
    let dopts = &ev["deleteOptions"];
    if dopts.is_object() {
        o = DeleteOptions::parse("application/json", dopts.to_string().as_bytes(), "")?;
    }
    o.propagation = o.propagation.or(Some(Propagation::Background));
    if let Some(b) = budgets.first() {
        let budget = pdb::budget(store, b);
        let phase = pv["status"]["phase"].as_str().unwrap_or("");
        let terminal = matches!(phase, "Succeeded" | "Failed" | "Pending");
        if !terminal && budget.allowed <= 0 {
            let pdb_name = b["metadata"]["name"].as_str().unwrap_or("");
            return Err(ApiError::too_many_requests(
                "Cannot evict pod as it would violate the pod's disruption budget.",
                json!([{"reason": "DisruptionBudget", "message": format!(
                    "The disruption budget {pdb_name} needs {} healthy pods and has {} currently",
                    budget.desired_healthy, budget.current_healthy)}]),
            ));
        }
        if o.dry_run {
            return Ok(created());
        }
        pdb::record_disruption(store, b, name);
    }
    delete::delete_object(store, id::POD, ns, name, &o)?;
    Ok(created())
}
