//! Answers of the metrics API: its discovery documents (the group in `/apis`, the APIGroup,
//! the APIResourceList), its lists and gets with metrics-server's errors (`pods "x" not found`
//! for a pod that is not there or not Running, `podmetrics.metrics.k8s.io "ns/x" not found`
//! for one without metrics, 405 for a watch), and the modes' answers (404 when off, 503 when
//! down). Authorization is the HTTP layer's; must not write to the store.

use http::StatusCode;
use serde_json::{json, Value};

use super::collect::{self, Missing};
use super::render::{self, Stamp};
use super::{MetricsApi, MetricsMode, MetricsPath, API_VERSION, GROUP, NODES, PODS, VERSION};
use crate::matching::{FieldSelector, Filter, LabelSelector};
use crate::reply::{self, Body};
use crate::store::Store;

/// What the aggregator answers for a registered API whose server is down.
const UNAVAILABLE: &str = "the server is currently unable to handle the request";

fn not_served() -> http::Response<Body> {
    reply::status(404, "the server could not find the requested resource")
}

/// The group's entry in `/apis`.
fn group_entry() -> Value {
    crate::discovery::group_json((GROUP, VERSION))
}

/// `/apis` with the metrics group appended unless the API is off (the aggregator lists
/// registered APIServices, available or not).
pub fn with_group(api: &MetricsApi, mut list: Value) -> Value {
    if api.mode() != MetricsMode::Off {
        if let Some(groups) = list["groups"].as_array_mut() {
            groups.push(group_entry());
        }
    }
    list
}

/// `/apis/metrics.k8s.io/v1beta1` as metrics-server serves it.
pub fn resource_list() -> Value {
    let r = |k: &crate::kinds::SimKind| {
        json!({"name": k.info.plural, "singularName": "", "namespaced": k.info.namespaced,
               "kind": k.info.kind, "verbs": ["get", "list"]})
    };
    json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": API_VERSION,
           "resources": [r(&NODES), r(&PODS)]})
}

/// A duration as Go's `time.Duration.String` prints it (`15s`, `1.5s`, `2m0s`, `500ms`).
pub fn go_duration(d: std::time::Duration) -> String {
    let trim = |x: f64| {
        let s = format!("{x:.9}");
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    };
    if d.is_zero() {
        return "0s".into();
    }
    if d.as_secs() == 0 {
        return format!("{}ms", trim(d.as_secs_f64() * 1000.0));
    }
    let (h, m) = (d.as_secs() / 3600, d.as_secs() % 3600 / 60);
    let s = d.as_secs_f64() - (h * 3600 + m * 60) as f64;
    let mut out = String::new();
    if h > 0 {
        out.push_str(&format!("{h}h"));
    }
    if h > 0 || m > 0 {
        out.push_str(&format!("{m}m"));
    }
    out.push_str(&format!("{}s", trim(s)));
    out
}

/// The current window's number and the stamps of an answer given now.
pub fn stamp(api: &MetricsApi) -> (u64, Stamp) {
    let now = jiff::Timestamp::now();
    let len = i64::try_from(api.window.as_millis()).unwrap_or(i64::MAX).max(1);
    let n = now.as_millisecond().div_euclid(len);
    let end = jiff::Timestamp::from_millisecond(n.saturating_mul(len)).unwrap_or(now);
    let fmt = |t: jiff::Timestamp| t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string();
    let st = Stamp {
        timestamp: fmt(end),
        window: go_duration(api.window),
        created: fmt(now),
    };
    (u64::try_from(n).unwrap_or(0), st)
}

/// A GET on `path` in the API's current mode.
pub fn serve(api: &MetricsApi, store: &Store, path: &MetricsPath, query: &str) -> http::Response<Body> {
    match (api.mode(), path) {
        (MetricsMode::Off, _) => not_served(),
        (_, MetricsPath::Group) => {
            let mut g = group_entry();
            g["kind"] = json!("APIGroup");
            g["apiVersion"] = json!("v1");
            reply::json(&g)
        }
        (MetricsMode::Unavailable, _) => reply::status(503, UNAVAILABLE),
        (_, MetricsPath::Resources(v)) if v == VERSION => reply::json(&resource_list()),
        (_, MetricsPath::Resources(_)) => not_served(),
        (_, p) => objects(api, store, p, query),
    }
}

fn json_bytes(body: Vec<u8>) -> http::Response<Body> {
    reply::bytes(StatusCode::OK, "application/json", body)
}

fn objects(api: &MetricsApi, store: &Store, path: &MetricsPath, query: &str) -> http::Response<Body> {
    let (mut labels, mut fields, mut watch) = (String::new(), String::new(), false);
    for (k, v) in form_urlencoded::parse(query.as_bytes()) {
        match &*k {
            "labelSelector" => labels = v.into_owned(),
            "fieldSelector" => fields = v.into_owned(),
            "watch" => watch = v == "true" || v == "1",
            _ => {}
        }
    }
    let kind = match path {
        MetricsPath::Nodes { .. } => &NODES,
        _ => &PODS,
    };
    if watch && !path.is_item() {
        return reply::status(
            405,
            &format!(
                "watch is not supported on resources of kind \"{}.{GROUP}\"",
                kind.info.plural
            ),
        );
    }
    let (window, st) = stamp(api);
    let filter = |ns: &Option<String>| -> Result<Filter, String> {
        Ok(Filter {
            namespace: ns.clone(),
            labels: LabelSelector::parse(&labels)?,
            fields: FieldSelector::parse(&fields, kind)?,
        })
    };
    match path {
        MetricsPath::Pods { ns, name: None } => match filter(ns) {
            Ok(f) => json_bytes(render::pod_list(&collect::pods(api, store, &f, window), &st)),
            Err(e) => reply::status(400, &e),
        },
        MetricsPath::Pods { ns, name: Some(name) } => {
            let ns = ns.as_deref().unwrap_or("");
            match collect::pod(api, store, ns, name, window) {
                Ok(item) => json_bytes(render::pod(&item, &st)),
                Err(Missing::Object) => reply::not_found("pods", "", name),
                Err(Missing::Metrics) => reply::not_found("podmetrics", GROUP, &format!("{ns}/{name}")),
            }
        }
        MetricsPath::Nodes { name: None } => match filter(&None) {
            Ok(f) => json_bytes(render::node_list(&collect::nodes(api, store, &f, window), &st)),
            Err(e) => reply::status(400, &e),
        },
        MetricsPath::Nodes { name: Some(name) } => match collect::node(api, store, name, window) {
            Ok(item) => json_bytes(render::node(&item, &st)),
            Err(Missing::Object) => reply::not_found("nodes", "", name),
            Err(Missing::Metrics) => reply::not_found("nodemetrics", GROUP, name),
        },
        _ => not_served(),
    }
}
