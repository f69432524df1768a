//! The demo server's HTTP/1.1 front: accepts loopback connections, applies the request
//! faults (delay, injected errors), routes Kubernetes API paths to discovery or to the
//! resource handlers. Must not write to the store except through a client's DELETE.

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

use super::api;
use super::discovery;
use super::faults::Faults;
use super::kinds::{find, KindId, KINDS};
use super::reply::{self, Body};
use super::store::Store;

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
    /// Tunables.
    pub settings: ServerSettings,
    /// Server shutdown: ends the accept loop, connections and watches.
    pub cancel: CancellationToken,
}

/// Where a path leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    Version,
    Health,
    CoreVersions,
    GroupList,
    Group(String),
    Resources(String, String),
    /// A collection: all namespaces (or cluster-scoped) when `ns` is `None`.
    Collection {
        kind: KindId,
        ns: Option<String>,
    },
    /// One object.
    Item {
        kind: KindId,
        ns: Option<String>,
        name: String,
    },
    NotFound,
    /// `pods/NAME/log` of a namespaced pod.
    PodLog {
        ns: String,
        name: String,
    },
}

/// Maps a URL path to a [`Route`].
pub fn route(path: &str) -> Route {
    let segs: Vec<&str> = path
        .trim_matches('/')
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    match segs.as_slice() {
        ["version"] => Route::Version,
        ["healthz" | "livez" | "readyz"] => Route::Health,
        ["api"] => Route::CoreVersions,
        ["api", v] => Route::Resources(String::new(), (*v).to_owned()),
        ["api", v, rest @ ..] => resource_route("", v, rest),
        ["apis"] => Route::GroupList,
        ["apis", g] => Route::Group((*g).to_owned()),
        ["apis", g, v] => Route::Resources((*g).to_owned(), (*v).to_owned()),
        ["apis", g, v, rest @ ..] => resource_route(g, v, rest),
        _ => Route::NotFound,
    }
}

fn resource_route(group: &str, version: &str, rest: &[&str]) -> Route {
    let kind_of = |plural: &str, namespaced: bool| {
        find(group, version, plural).filter(|k| KINDS[*k].info.namespaced == namespaced)
    };
    let (ns, rest) = match rest {
        ["namespaces", ns, plural, more @ ..] if kind_of(plural, true).is_some() => {
            (Some((*ns).to_owned()), {
                let mut r = vec![*plural];
                r.extend_from_slice(more);
                r
            })
        }
        _ => (None, rest.to_vec()),
    };
    let namespaced_ok = |k: KindId| ns.is_some() || !KINDS[k].info.namespaced;
    match rest.as_slice() {
        ["pods", name, "log"] if group.is_empty() && ns.is_some() => Route::PodLog {
            ns: ns.clone().unwrap_or_default(),
            name: (*name).to_owned(),
        },
        [plural] => match find(group, version, plural) {
            Some(kind) if ns.is_none() || KINDS[kind].info.namespaced => Route::Collection { kind, ns },
            _ => Route::NotFound,
        },
        [plural, name] | [plural, name, "status"] => match find(group, version, plural) {
            Some(kind) if namespaced_ok(kind) => Route::Item {
                kind,
                ns,
                name: (*name).to_owned(),
            },
            _ => Route::NotFound,
        },
        _ => Route::NotFound,
    }
}

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
            let conn = http1::Builder::new().serve_connection(TokioIo::new(stream), svc);
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
    let spec = state.faults.spec();
    if !spec.delay.is_zero() {
        tokio::time::sleep(spec.delay).await;
    }
    let path = req.uri().path().to_owned();
    let query = req.uri().query().unwrap_or("").to_owned();
    tracing::debug!(method = %req.method(), %path, %query, "demo server request");
    if !accepts_json(&req) {
        return reply::status(406, "only application/json is served");
    }
    let r = route(&path);
    if matches!(r, Route::Collection { .. } | Route::Item { .. }) {
        if let Some(code) = state.faults.pick_error() {
            return reply::injected(code);
        }
    }
    let method = req.method().clone();
    let table = super::table::wanted(
        req.headers()
            .get(http::header::ACCEPT)
            .and_then(|v| v.to_str().ok()),
    );
    match (method, r) {
        (Method::GET, Route::Version) => reply::json(&discovery::version()),
        (Method::GET, Route::Health) => reply::bytes(http::StatusCode::OK, "text/plain", "ok"),
        (Method::GET, Route::CoreVersions) => reply::json(&discovery::core_versions()),
        (Method::GET, Route::GroupList) => reply::json(&discovery::group_list()),
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
        (Method::DELETE, Route::Item { kind, ns, name }) => api::delete(&state, kind, ns.as_deref(), &name),
        (Method::GET, Route::PodLog { ns, name }) => super::logs::serve(&state, &ns, &name, &query),
        (_, Route::NotFound) => reply::status(404, "the server could not find the requested resource"),
        (m, _) => reply::status(
            405,
            &format!("the server does not allow this method on the requested resource ({m})"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::kinds::id;

    #[test]
    fn routes_kubernetes_paths() {
        let item = |kind, ns: Option<&str>, name: &str| Route::Item {
            kind,
            ns: ns.map(str::to_owned),
            name: name.into(),
        };
        let coll = |kind, ns: Option<&str>| Route::Collection {
            kind,
            ns: ns.map(str::to_owned),
        };
        assert_eq!(route("/api/v1/pods"), coll(id::POD, None));
        assert_eq!(route("/api/v1/namespaces/a/pods"), coll(id::POD, Some("a")));
        assert_eq!(
            route("/api/v1/namespaces/a/pods/p"),
            item(id::POD, Some("a"), "p")
        );
        assert_eq!(
            route("/api/v1/namespaces/a/pods/p/status"),
            item(id::POD, Some("a"), "p")
        );
        assert_eq!(
            route("/api/v1/namespaces/a/pods/p/log"),
            Route::PodLog {
                ns: "a".into(),
                name: "p".into()
            }
        );
        assert_eq!(route("/api/v1/namespaces"), coll(id::NAMESPACE, None));
        assert_eq!(route("/api/v1/namespaces/a"), item(id::NAMESPACE, None, "a"));
        assert_eq!(route("/api/v1/nodes/n1"), item(id::NODE, None, "n1"));
        assert_eq!(route("/api/v1/namespaces/a/nodes"), Route::NotFound);
        assert_eq!(route("/api/v1/pods/p"), Route::NotFound);
        assert_eq!(
            route("/apis/apps/v1/namespaces/a/deployments"),
            coll(id::DEPLOYMENT, Some("a"))
        );
        assert_eq!(route("/apis/demo.ktui.dev/v1/gizmos"), coll(id::GIZMO, None));
        assert_eq!(
            route("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gizmos.demo.ktui.dev"),
            item(id::CRD, None, "gizmos.demo.ktui.dev")
        );
        assert_eq!(
            route("/apis/apps/v1"),
            Route::Resources("apps".into(), "v1".into())
        );
        assert_eq!(route("/api"), Route::CoreVersions);
        assert_eq!(route("/version"), Route::Version);
        assert_eq!(route("/openapi/v2"), Route::NotFound);
        assert_eq!(route("/api/v1/widgets"), Route::NotFound);
    }
}
