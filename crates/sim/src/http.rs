//! The demo server's HTTP/1.1 front: accepts loopback connections, applies the request
//! faults (delay, injected errors), authenticates the bearer token and authorizes the request
//! (`authz`), routes Kubernetes API paths to discovery, the read handlers (`api`, `watch`,
//! `logs`) or the write handlers (`write`, `delete`, `subres`). Must not write to the store
//! itself: writes are the handlers'.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use http::{Method, Request, Response};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use bytes::Bytes;
use http_body_util::BodyExt;

use super::api;
use super::apierr::ApiError;
use super::authz::{self, Attributes, Identity};
use super::discovery;
use super::faults::Faults;
use super::kinds::KINDS;
use super::reply::{self, Body};
use super::store::Store;
use super::writes;

/// Tunables of the HTTP layer.
#[derive(Debug, Clone)]
pub struct ServerSettings {
    /// Interval between watch bookmarks.
    pub bookmark_every: Duration,
}

impl Default for ServerSettings {
    fn default() -> Self {
        ServerSettings {
            bookmark_every: Duration::from_secs(5),
        }
    }
}

/// What the request handlers share.
pub struct ServerState {
    /// The objects.
    pub store: Arc<Store>,
    /// The faults in force.
    pub faults: Arc<Faults>,
    /// The metrics API (`metrics.k8s.io`): its mode and memos.
    pub metrics: Arc<super::metrics::MetricsApi>,
    /// The `User-Agent` of each request, per class.
    pub agents: Arc<super::agents::Agents>,
    /// Tunables.
    pub settings: ServerSettings,
    /// Server shutdown: ends the accept loop, connections and watches.
    pub cancel: CancellationToken,
}

mod route;

pub use route::{route, Route};

/// Serves until `state.cancel` fires.
pub async fn serve(listener: TcpListener, state: Arc<ServerState>) {
    loop {
        let stream = tokio::select! {
            _ = state.cancel.cancelled() => return,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    tracing::warn!(error = %e, "demo server: accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let st = state.clone();
        tokio::spawn(async move {
            let cancel = st.cancel.clone();
            let svc = service_fn(move |req| {
                let st = st.clone();
                async move { Ok::<_, Infallible>(handle(st, req).await) }
            });
            let conn = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), svc)
                .with_upgrades();
            tokio::select! {
                _ = conn => {}
                _ = cancel.cancelled() => {}
            }
        });
    }
}

fn accepts_json(req: &Request<Incoming>) -> bool {
    match req
        .headers()
        .get(http::header::ACCEPT)
        .and_then(|v| v.to_str().ok())
    {
        None => true,
        Some(a) => a.is_empty() || a.contains("json") || a.contains("*/*"),
    }
}

async fn handle(state: Arc<ServerState>, req: Request<Incoming>) -> Response<Body> {
    // A frozen server reads the request and answers nothing until it is thawed.
    state.faults.thawed().await;
    let spec = state.faults.spec();
    if !spec.delay.is_zero() {
        tokio::time::sleep(spec.delay).await;
    }
    // The viewer's context names a server under `/viewer` (see `authz::VIEWER_PREFIX`).
    let (by_path, path) = authz::strip_viewer_prefix(req.uri().path());
    let path = path.to_owned();
    let query = req.uri().query().unwrap_or("").to_owned();
    tracing::debug!(method = %req.method(), %path, %query, "demo server request");
    if !accepts_json(&req) {
        return reply::status(406, "only application/json is served");
    }
    let r = route(&path);
    let agent = req
        .headers()
        .get(http::header::USER_AGENT)
        .and_then(|v| v.to_str().ok());
    state
        .agents
        .record(super::agents::class(req.method(), &r, &query), agent);
    let resource = match &r {
        Route::Collection { .. } | Route::Item { .. } | Route::Sub { .. } => true,
        Route::Metrics(p) => p.is_resource(),
        _ => false,
    };
    if resource {
        if let Some(code) = state.faults.pick_error() {
            return reply::injected(code);
        }
    }
    let method = req.method().clone();
    let header = |h: http::header::HeaderName| {
        req.headers()
            .get(h)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let table = super::table::wanted(header(http::header::ACCEPT).as_deref());
    let who =
        by_path.unwrap_or_else(|| Identity::from_header(header(http::header::AUTHORIZATION).as_deref()));
    let ct = header(http::header::CONTENT_TYPE).unwrap_or_default();
    let rules = authz::Rules {
        view_reads_metrics: state.metrics.view_reads(),
    };
    if let Some(a) = attributes(&method, &r, &query) {
        if let Err(e) = who.check(&a, rules) {
            return e.response();
        }
    }
    if let Route::Sub { kind, ns, name, sub } = &r {
        if *kind == super::kinds::id::POD
            && super::stream::is_stream(sub)
            && matches!(method, Method::GET | Method::POST)
        {
            let (ns, name, sub) = (ns.clone().unwrap_or_default(), name.clone(), sub.clone());
            return super::stream::serve(&state, req, &ns, &name, &sub);
        }
    }
    let sub = match &r {
        Route::Sub { sub, .. } => Some(sub.as_str()),
        _ => None,
    };
    let writer = super::managed::of_request(
        &method,
        &query,
        header(http::header::USER_AGENT).as_deref(),
        &ct,
        sub,
    );
    let body = if matches!(
        method,
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    ) {
        match read_body(req.into_body()).await {
            Ok(b) => b,
            Err(e) => return e.response(),
        }
    } else {
        Bytes::new()
    };
    // Store writes made while answering are this request's (see `managed`).
    super::managed::as_writer(writer, || match (method, r) {
        (Method::GET, Route::OpenApiIndex) => reply::json(&super::openapi::index()),
        (Method::GET, Route::OpenApiDoc(gv)) => match super::openapi::document(&gv) {
            Some(v) => reply::json(&v),
            None => reply::status(404, "the server could not find the requested resource"),
        },
        (Method::GET, Route::Version) => reply::json(&discovery::version()),
        (Method::GET, Route::Health) => reply::bytes(http::StatusCode::OK, "text/plain", "ok"),
        (Method::GET, Route::CoreVersions) => reply::json(&discovery::core_versions()),
        (Method::GET, Route::GroupList) => reply::json(&super::metrics::serve::with_group(
            &state.metrics,
            discovery::group_list(),
        )),
        (Method::GET, Route::Metrics(p)) => {
            super::metrics::serve::serve(&state.metrics, &state.store, &p, &query)
        }
        (Method::GET, Route::Group(g)) => match discovery::group(&g) {
            Some(v) => reply::json(&v),
            None => reply::status(404, "the server could not find the requested resource"),
        },
        (Method::GET, Route::Resources(g, v)) => match discovery::resource_list(&g, &v) {
            Some(v) => reply::json(&v),
            None => reply::status(404, "the server could not find the requested resource"),
        },
        (Method::GET, Route::Collection { kind, ns }) => api::collection(&state, kind, ns, &query, table),
        (Method::GET, Route::Item { kind, ns, name }) => api::get(&state, kind, ns.as_deref(), &name, table),
        (Method::GET, Route::PodLog { ns, name }) => super::logs::serve(&state, &ns, &name, &query),
        (Method::POST, Route::SelfSubjectAccessReview) => review(who, rules, &ct, &body),
        (m, Route::Collection { kind, ns }) => {
            writes::collection(&state, &m, kind, ns.as_deref(), &query, &ct, &body)
        }
        (m, Route::Item { kind, ns, name }) => writes::item(
            &state,
            &m,
            kind,
            ns.as_deref().unwrap_or(""),
            &name,
            &query,
            &ct,
            &body,
        ),
        (m, Route::Sub { kind, ns, name, sub }) => writes::sub(
            &state,
            &m,
            kind,
            ns.as_deref().unwrap_or(""),
            &name,
            &sub,
            &query,
            &ct,
            &body,
            table,
        ),
        (_, Route::NotFound) => reply::status(404, "the server could not find the requested resource"),
        (m, _) => ApiError::method_not_allowed(m.as_str()).response(),
    })
}

/// Largest request body accepted (the API server's limit is 3 MiB).
const MAX_BODY: usize = 3 * 1024 * 1024;

async fn read_body(body: Incoming) -> Result<Bytes, ApiError> {
    let limited = http_body_util::Limited::new(body, MAX_BODY);
    match limited.collect().await {
        Ok(c) => Ok(c.to_bytes()),
        Err(_) => Err(ApiError {
            code: 413,
            reason: "RequestEntityTooLarge",
            message: "Request entity too large: limit is 3145728".into(),
            details: None,
        }),
    }
}

/// The RBAC attributes of a request, `None` for non-resource paths and reviews (which every
/// authenticated user may use).
fn attributes(method: &Method, r: &Route, query: &str) -> Option<Attributes> {
    let watch =
        form_urlencoded::parse(query.as_bytes()).any(|(k, v)| k == "watch" && (v == "true" || v == "1"));
    let (kind, ns, name, sub, item) = match r {
        Route::Collection { kind, ns } => (*kind, ns.clone(), String::new(), String::new(), false),
        Route::Item { kind, ns, name } => (*kind, ns.clone(), name.clone(), String::new(), true),
        Route::Sub { kind, ns, name, sub } => (*kind, ns.clone(), name.clone(), sub.clone(), true),
        Route::Metrics(p) => return p.attributes(method, watch),
        Route::PodLog { ns, name } => (
            super::kinds::id::POD,
            Some(ns.clone()),
            name.clone(),
            "log".into(),
            true,
        ),
        _ => return None,
    };
    let verb = match (method, item) {
        // exec, attach and portforward upgrade a GET (websocket) or POST (SPDY); RBAC asks
        // for `create` on the subresource either way.
        _ if kind == super::kinds::id::POD && super::stream::is_stream(&sub) => "create",
        (&Method::GET, false) if watch => "watch",
        (&Method::GET, false) => "list",
        (&Method::GET, true) => "get",
        (&Method::POST, _) => "create",
        (&Method::PUT, _) => "update",
        (&Method::PATCH, _) => "patch",
        (&Method::DELETE, true) => "delete",
        (&Method::DELETE, false) => "deletecollection",
        _ => return None,
    };
    let info = &KINDS[kind].info;
    Some(Attributes {
        verb: verb.into(),
        group: info.group.into(),
        resource: info.plural.into(),
        subresource: sub,
        name,
        namespace: ns,
    })
}

/// A `SelfSubjectAccessReview` (JSON, or the protobuf generated Go clients send): 201 with
/// the answer for the caller's identity.
fn review(who: Identity, rules: authz::Rules, ct: &str, body: &[u8]) -> Response<Body> {
    let spec = if crate::write::media_type(ct) == "application/vnd.kubernetes.protobuf" {
        let Some((_, kind, raw)) = super::protobuf::envelope(body) else {
            return ApiError::bad_request("the body of the request was not a protobuf envelope").response();
        };
        if kind != "SelfSubjectAccessReview" {
            return ApiError::bad_request(format!("unexpected kind {kind:?}")).response();
        }
        match super::protobuf::self_subject_access_review_spec(raw) {
            Some(s) => s,
            None => return ApiError::bad_request("could not decode SelfSubjectAccessReview").response(),
        }
    } else {
        match crate::write::decode_body(ct, body) {
            Ok(v) => v["spec"].clone(),
            Err(e) => return e.response(),
        }
    };
    reply::bytes(
        http::StatusCode::CREATED,
        "application/json",
        who.review(&spec, rules).to_string(),
    )
}

#[cfg(test)]
mod tests;
