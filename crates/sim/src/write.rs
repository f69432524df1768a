//! The demo server's write paths for whole objects: create (POST on a collection), replace
//! (PUT, guarded by `metadata.resourceVersion`), patch (merge, strategic merge, JSON patch)
//! and the `status` subresource, with the fields the API server sets itself (uid,
//! creationTimestamp, resourceVersion from the one revision counter, `generation` bumped on a
//! spec change) and its error wordings. Every write goes through the store's write API, so
//! watchers and bookmarks see it. Must not route or authorize (see `http` and `authz`).

use bytes::Bytes;
use http::{Response, StatusCode};
use serde_json::{json, Value};

use super::apierr::{ApiError, ApiResult};
use super::defaults;
use super::http::ServerState;
use super::kinds::{id, KindId, KINDS};
use super::patch;
use super::reply::{self, Body};
use super::store::{Store, Stored};

/// Request body media types of whole objects the server decodes.
pub const BODY_TYPES: &[&str] = &["application/json"];
/// Patch media types the server applies (server-side apply is not served: 415).
pub const PATCH_TYPES: &[&str] = &[
    "application/json-patch+json",
    "application/merge-patch+json",
    "application/strategic-merge-patch+json",
];

/// The media type without parameters (`application/json; charset=utf-8` → `application/json`).
pub fn media_type(content_type: &str) -> &str {
    content_type.split(';').next().unwrap_or("").trim()
}

/// Decodes a JSON request body; protobuf, YAML and others get the server's 415.
pub fn decode_body(content_type: &str, body: &[u8]) -> ApiResult<Value> {
    let mt = media_type(content_type);
    if !(mt.is_empty() || mt == "application/json" || mt == "*/*") {
        return Err(ApiError::unsupported_media(BODY_TYPES));
    }
    serde_json::from_slice(body)
        .map_err(|e| ApiError::bad_request(format!("couldn't get version/kind; json parse error: {e}")))
}

/// What a write request carries besides its target: query string, `Content-Type` and body.
#[derive(Debug, Clone, Copy)]
pub struct Payload<'a> {
    /// The raw query string (`dryRun=All`, `fieldManager=…`).
    pub query: &'a str,
    /// The `Content-Type` header.
    pub content_type: &'a str,
    /// The request body.
    pub body: &'a Bytes,
}

fn ok(code: StatusCode, v: &Value) -> Response<Body> {
    reply::bytes(code, "application/json", v.to_string())
}

/// `dryRun=All` in the query: validate and answer, but write nothing.
pub fn dry_run(query: &str) -> bool {
    form_urlencoded::parse(query.as_bytes()).any(|(k, v)| k == "dryRun" && v == "All")
}

/// Checks the object's `apiVersion`/`kind` against the URL's kind (empty = filled in).
fn check_type(kind: KindId, obj: &mut Value) -> ApiResult<()> {
    let k = &KINDS[kind];
    let want_av = k.api_version();
    match obj["apiVersion"].as_str() {
        None | Some("") => obj["apiVersion"] = json!(want_av),
        Some(av) if av == want_av => {}
        Some(av) => {
            return Err(ApiError::bad_request(format!(
                "the API version in the data ({av}) does not match the expected API version ({want_av})"
            )))
        }
    }
    match obj["kind"].as_str() {
        None | Some("") => obj["kind"] = json!(k.info.kind),
        Some(kd) if kd == k.info.kind => {}
        Some(kd) => {
            return Err(ApiError::bad_request(format!(
                "the kind in the data ({kd}) does not match the expected kind ({})",
                k.info.kind
            )))
        }
    }
    if !obj["metadata"].is_object() {
        obj["metadata"] = json!({});
    }
    Ok(())
}

fn check_namespace(store: &Store, kind: KindId, obj: &mut Value, ns: Option<&str>) -> ApiResult<()> {
    if !KINDS[kind].info.namespaced {
        if let Some(m) = obj["metadata"].as_object_mut() {
            m.remove("namespace");
        }
        return Ok(());
    }
    let url_ns = ns.unwrap_or("");
    match obj["metadata"]["namespace"].as_str() {
        None | Some("") => obj["metadata"]["namespace"] = json!(url_ns),
        Some(n) if n == url_ns => {}
        Some(_) => {
            return Err(ApiError::bad_request(
                "the namespace of the provided object does not match the namespace sent on the request",
            ))
        }
    }
    if store.get(id::NAMESPACE, "", url_ns).is_none() {
        return Err(ApiError::namespace_not_found(url_ns));
    }
    Ok(())
}

/// POST on a collection: a new object, 201 with what was stored.
pub fn create(
    state: &ServerState,
    kind: KindId,
    ns: Option<&str>,
    p: Payload<'_>,
) -> ApiResult<Response<Body>> {
    let query = p.query;
    let mut obj = decode_body(p.content_type, p.body)?;
    check_type(kind, &mut obj)?;
    check_namespace(&state.store, kind, &mut obj, ns)?;
    if obj["metadata"]["name"].as_str().unwrap_or("").is_empty() {
        if let Some(prefix) = obj["metadata"]["generateName"].as_str().filter(|g| !g.is_empty()) {
            obj["metadata"]["name"] = json!(format!("{prefix}{}", defaults::random_suffix()));
        }
    }
    let name = obj["metadata"]["name"].as_str().unwrap_or("").to_owned();
    defaults::prepare_create(kind, &mut obj);
    let causes = defaults::validate(kind, &obj);
    if !causes.is_empty() {
        return Err(ApiError::invalid(kind, &name, &causes));
    }
    if dry_run(query) {
        if state.store.get(kind, ns.unwrap_or(""), &name).is_some() {
            return Err(ApiError::already_exists(kind, &name));
        }
        return Ok(ok(StatusCode::CREATED, &obj));
    }
    let stored = state
        .store
        .create(kind, obj)
        .map_err(|e| ApiError::from_store(e, kind, &name))?;
    Ok(stored_reply(StatusCode::CREATED, &stored))
}

/// The answer carrying a stored object.
pub fn stored_reply(code: StatusCode, s: &Stored) -> Response<Body> {
    reply::bytes(code, "application/json", s.bytes.clone())
}

/// Which part of the object a write may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The main resource: everything but `status` (for kinds with a status subresource).
    Main,
    /// The `status` subresource: only `status`.
    Status,
}

/// Carries the server-owned fields of `old` into `new` and applies the part's rule: uid,
/// creationTimestamp, deletionTimestamp, generation (bumped when `spec` changed), and status
/// (kept from `old` on the main resource) or everything but status (kept on `/status`).
pub fn carry_server_fields(kind: KindId, old: &Value, new: &mut Value, part: Part) {
    if part == Part::Status {
        let status = new["status"].clone();
        *new = old.clone();
        new["status"] = status;
        return;
    }
    for f in [
        "uid",
        "creationTimestamp",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "generation",
    ] {
        match old["metadata"].get(f) {
            Some(v) => new["metadata"][f] = v.clone(),
            None => {
                if let Some(m) = new["metadata"].as_object_mut() {
                    m.remove(f);
                }
            }
        }
    }
    if defaults::has_status_subresource(kind) {
        match old.get("status") {
            Some(s) => new["status"] = s.clone(),
            None => {
                if let Some(m) = new.as_object_mut() {
                    m.remove("status");
                }
            }
        }
    }
    if defaults::has_generation(kind) && old.get("spec") != new.get("spec") {
        let g = old["metadata"]["generation"].as_u64().unwrap_or(1);
        new["metadata"]["generation"] = json!(g + 1);
    }
}

/// Runs an update of one object: `change` turns the stored JSON into the wanted one (it may
/// refuse); then the server fields are carried over, the result validated and written under
/// the kind's lock. `expect_rv` (from the body or a patch) must equal the stored revision.
pub fn update_object(
    store: &Store,
    kind: KindId,
    ns: &str,
    name: &str,
    part: Part,
    change: impl FnOnce(&Value) -> ApiResult<Value>,
    dry: bool,
) -> ApiResult<Stored> {
    let mut preview = None;
    let res = store.update(kind, ns, name, |cur: &Stored, v: &mut Value| -> ApiResult<()> {
        let old = v.clone();
        let mut new = change(&old)?;
        if let Some(rv) = new["metadata"]["resourceVersion"]
            .as_str()
            .filter(|r| !r.is_empty())
        {
            if rv != cur.rv.to_string() {
                return Err(ApiError::modified(kind, name));
            }
        }
        if let Some(uid) = new["metadata"]["uid"].as_str().filter(|u| !u.is_empty()) {
            if Some(uid) != old["metadata"]["uid"].as_str() {
                return Err(ApiError::conflict(
                    kind,
                    name,
                    &format!(
                        "Precondition failed: UID in precondition: {uid}, UID in object meta: {}",
                        old["metadata"]["uid"].as_str().unwrap_or("")
                    ),
                ));
            }
        }
        check_type(kind, &mut new)?;
        if new["metadata"]["name"].as_str() != Some(name) {
            return Err(ApiError::bad_request(format!(
                "the name of the object ({}) does not match the name on the URL ({name})",
                new["metadata"]["name"].as_str().unwrap_or("")
            )));
        }
        if KINDS[kind].info.namespaced && new["metadata"]["namespace"].as_str().unwrap_or(ns) != ns {
            return Err(ApiError::bad_request(
                "the namespace of the provided object does not match the namespace sent on the request",
            ));
        }
        if KINDS[kind].info.namespaced {
            new["metadata"]["namespace"] = json!(ns);
        }
        carry_server_fields(kind, &old, &mut new, part);
        let causes = defaults::validate(kind, &new);
        if !causes.is_empty() {
            return Err(ApiError::invalid(kind, name, &causes));
        }
        if dry {
            preview = Some(new);
            return Ok(());
        }
        *v = new;
        Ok(())
    });
    let stored = res.map_err(|e| match e.code {
        404 if e.details.is_none() => ApiError::not_found(kind, name),
        _ => e,
    })?;
    if let Some(p) = preview {
        let bytes = Bytes::from(p.to_string());
        return Ok(Stored { bytes, ..stored });
    }
    super::delete::finish_if_unblocked(store, kind, ns, name, &stored);
    Ok(stored)
}

/// PUT on an object (or its `status`).
pub fn replace(
    state: &ServerState,
    kind: KindId,
    ns: &str,
    name: &str,
    part: Part,
    p: Payload<'_>,
) -> ApiResult<Response<Body>> {
    let new = decode_body(p.content_type, p.body)?;
    let stored = update_object(&state.store, kind, ns, name, part, |_| Ok(new), dry_run(p.query))?;
    Ok(stored_reply(StatusCode::OK, &stored))
}

/// Applies a patch of media type `ct` to `old`; errors are the server's (400, 415, 422).
pub fn apply_patch(kind: KindId, ct: &str, old: &Value, body: &[u8]) -> ApiResult<Value> {
    let mt = media_type(ct);
    let custom = kind == id::GIZMO || kind == id::CRD;
    let accepted: &[&str] = if custom { &PATCH_TYPES[..2] } else { PATCH_TYPES };
    if !accepted.contains(&mt) {
        return Err(ApiError::unsupported_media(accepted));
    }
    let p: Value = serde_json::from_slice(body)
        .map_err(|e| ApiError::bad_request(format!("error decoding patch: {e}")))?;
    let mut v = old.clone();
    match mt {
        "application/merge-patch+json" => {
            if !p.is_object() {
                return Err(ApiError::bad_request(
                    "json: cannot unmarshal into Go value of type map[string]interface {}",
                ));
            }
            patch::merge(&mut v, &p)
        }
        "application/strategic-merge-patch+json" => {
            patch::strategic(&mut v, &p).map_err(ApiError::bad_request)?
        }
        _ => patch::json_patch(&mut v, &p).map_err(|m| ApiError {
            code: 422,
            reason: "Invalid",
            message: m,
            details: None,
        })?,
    }
    Ok(v)
}

/// PATCH on an object (or its `status`).
pub fn patch(
    state: &ServerState,
    kind: KindId,
    ns: &str,
    name: &str,
    part: Part,
    p: Payload<'_>,
) -> ApiResult<Response<Body>> {
    let stored = update_object(
        &state.store,
        kind,
        ns,
        name,
        part,
        |old| {
            let mut new = apply_patch(kind, p.content_type, old, p.body)?;
            // A patch that does not name a resourceVersion is unconditional.
            if new["metadata"]["resourceVersion"] == old["metadata"]["resourceVersion"] {
                if let Some(m) = new["metadata"].as_object_mut() {
                    m.remove("resourceVersion");
                }
            }
            Ok(new)
        },
        dry_run(p.query),
    )?;
    Ok(stored_reply(StatusCode::OK, &stored))
}
