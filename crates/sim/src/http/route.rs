//! The demo server's URL router: which Kubernetes API path (discovery, a collection, an item,
//! a subresource, a watch) a request names. Pure; must not read requests or the store.

use crate::kinds::{find, KindId, KINDS};

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
    /// A subresource of one object (`status`, `scale`, `eviction`, …; `log` is [`Route::PodLog`]).
    Sub {
        kind: KindId,
        ns: Option<String>,
        name: String,
        sub: String,
    },
    /// `POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews`.
    SelfSubjectAccessReview,
    NotFound,
    /// `pods/NAME/log` of a namespaced pod.
    PodLog {
        ns: String,
        name: String,
    },
    /// `GET /openapi/v3`: the index of group-versions.
    OpenApiIndex,
    /// `GET /openapi/v3/<api/v1 | apis/G/V>`: one group-version's document.
    OpenApiDoc(String),
    /// A path under `/apis/metrics.k8s.io` (see `crate::metrics`).
    Metrics(crate::metrics::MetricsPath),
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
        ["openapi", "v3"] => Route::OpenApiIndex,
        ["openapi", "v3", gv @ ..] => Route::OpenApiDoc(gv.join("/")),
        ["api"] => Route::CoreVersions,
        ["api", v] => Route::Resources(String::new(), (*v).to_owned()),
        ["api", v, rest @ ..] => resource_route("", v, rest),
        ["apis"] => Route::GroupList,
        ["apis", crate::metrics::GROUP, rest @ ..] => {
            crate::metrics::path(rest).map_or(Route::NotFound, Route::Metrics)
        }
        ["apis", g] => Route::Group((*g).to_owned()),
        ["apis", "authorization.k8s.io", "v1", "selfsubjectaccessreviews"] => Route::SelfSubjectAccessReview,
        ["apis", g, v] => Route::Resources((*g).to_owned(), (*v).to_owned()),
        ["apis", g, v, rest @ ..] => resource_route(g, v, rest),
        _ => Route::NotFound,
    }
}

/// Subresource names the API server has (served or not, they route to [`Route::Sub`]).
const SUBRESOURCES: &[&str] = &[
    "status",
    "scale",
    "eviction",
    "binding",
    "exec",
    "attach",
    "portforward",
    "proxy",
    "finalize",
    "ephemeralcontainers",
    "resize",
];

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
        [plural, name] => match find(group, version, plural) {
            Some(kind) if namespaced_ok(kind) => Route::Item {
                kind,
                ns,
                name: (*name).to_owned(),
            },
            _ => Route::NotFound,
        },
        [plural, name, sub] if SUBRESOURCES.contains(sub) => match find(group, version, plural) {
            Some(kind) if namespaced_ok(kind) => Route::Sub {
                kind,
                ns,
                name: (*name).to_owned(),
                sub: (*sub).to_owned(),
            },
            _ => Route::NotFound,
        },
        _ => Route::NotFound,
    }
}
