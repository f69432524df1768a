//! Dispatch of the demo server's write requests (and subresource reads) to their handlers:
//! POST/DELETE on collections, PUT/PATCH/DELETE on objects, and the `status`, `scale` and
//! `eviction` subresources. Must not decide semantics (the handlers do) or authorize (`http`
//! did).

use bytes::Bytes;
use http::{Method, Response};

use super::apierr::{ApiError, ApiResult};
use super::delete;
use super::http::ServerState;
use super::kinds::{id, KindId, KINDS};
use super::reply::Body;
use super::subres;
use super::write::{self, Part, Payload};

fn payload<'a>(query: &'a str, content_type: &'a str, body: &'a Bytes) -> Payload<'a> {
    Payload {
        query,
        content_type,
        body,
    }
}

fn answer(r: ApiResult<Response<Body>>) -> Response<Body> {
    r.unwrap_or_else(|e| e.response())
}

/// A write on a collection: POST creates, DELETE deletes the matching objects.
pub fn collection(
    state: &ServerState,
    m: &Method,
    kind: KindId,
    ns: Option<&str>,
    query: &str,
    ct: &str,
    body: &Bytes,
) -> Response<Body> {
    answer(match *m {
        Method::POST if ns.is_none() && KINDS[kind].info.namespaced => {
            Err(ApiError::method_not_allowed(m.as_str()))
        }
        Method::POST => write::create(state, kind, ns, payload(query, ct, body)),
        Method::DELETE => delete::delete_collection(&state.store, kind, ns, ct, body, query),
        _ => Err(ApiError::method_not_allowed(m.as_str())),
    })
}

/// A write on one object: PUT replaces, PATCH patches, DELETE deletes.
#[allow(clippy::too_many_arguments)]
pub fn item(
    state: &ServerState,
    m: &Method,
    kind: KindId,
    ns: &str,
    name: &str,
    query: &str,
    ct: &str,
    body: &Bytes,
) -> Response<Body> {
    answer(match *m {
        Method::PUT => write::replace(state, kind, ns, name, Part::Main, payload(query, ct, body)),
        Method::PATCH => write::patch(state, kind, ns, name, Part::Main, payload(query, ct, body)),
        Method::DELETE => delete::delete(&state.store, kind, ns, name, ct, body, query),
        _ => Err(ApiError::method_not_allowed(m.as_str())),
    })
}

/// A request on a subresource.
#[allow(clippy::too_many_arguments)]
pub fn sub(
    state: &ServerState,
    m: &Method,
    kind: KindId,
    ns: &str,
    name: &str,
    sub: &str,
    query: &str,
    ct: &str,
    body: &Bytes,
    table: bool,
) -> Response<Body> {
    let not_found = || {
        Err(ApiError {
            code: 404,
            reason: "NotFound",
            message: "the server could not find the requested resource".into(),
            details: None,
        })
    };
    answer(match (sub, m) {
        ("status", &Method::GET) => Ok(super::api::get(
            state,
            kind,
            Some(ns).filter(|n| !n.is_empty()),
            name,
            table,
        )),
        ("status", &Method::PUT) => {
            write::replace(state, kind, ns, name, Part::Status, payload(query, ct, body))
        }
        ("status", &Method::PATCH) => {
            write::patch(state, kind, ns, name, Part::Status, payload(query, ct, body))
        }
        ("scale", _) if !subres::scalable(kind) => not_found(),
        ("scale", &Method::GET) => subres::get_scale(state, kind, ns, name),
        ("scale", &Method::PUT) => {
            subres::write_scale(state, kind, ns, name, false, payload(query, ct, body))
        }
        ("scale", &Method::PATCH) => {
            subres::write_scale(state, kind, ns, name, true, payload(query, ct, body))
        }
        ("eviction", &Method::POST) if kind == id::POD => subres::evict(state, ns, name, ct, body),
        ("ephemeralcontainers", &Method::PATCH) if kind == id::POD => {
            super::stream::ephemeral::patch(state, ns, name, query, ct, body)
        }
        ("ephemeralcontainers", &Method::GET) if kind == id::POD => {
            Ok(super::api::get(state, kind, Some(ns), name, false))
        }
        ("status" | "scale" | "eviction", _) => Err(ApiError::method_not_allowed(m.as_str())),
        _ => not_found(),
    })
}
