//! Bodies of `/version` and the legacy discovery documents (`/api`, `/api/v1`, `/apis`,
//! `/apis/<group>`, `/apis/<group>/<version>`) built from the kinds table. Aggregated
//! discovery is not offered: clients asking for it get plain JSON and fall back, as against
//! an older server. The `metrics.k8s.io` group's documents are `metrics::serve`'s. Must not serve
//! objects.

use serde_json::{json, Value};

use super::kinds::{groups, KINDS};

/// Version the demo server claims (the version of the test cluster's kubectl).
pub const GIT_VERSION: &str = "v1.37.2";

/// `/version`.
pub fn version() -> Value {
    json!({
        "major": "1", "minor": "37", "gitVersion": GIT_VERSION,
        "gitCommit": "0000000000000000000000000000000000000000", "gitTreeState": "clean",
        "buildDate": "2026-01-01T00:00:00Z", "goVersion": "go1.25.0", "compiler": "gc",
        "platform": "linux/amd64", "emulationMajor": "1", "emulationMinor": "37",
        "minCompatibilityMajor": "1", "minCompatibilityMinor": "36"
    })
}

/// `/api`.
pub fn core_versions() -> Value {
    json!({"kind": "APIVersions", "versions": ["v1"],
           "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1"}]})
}

/// A group's entry in `/apis` (`name`, `versions`, `preferredVersion`).
pub(crate) fn group_json((group, version): (&str, &str)) -> Value {
    let gv = json!({"groupVersion": format!("{group}/{version}"), "version": version});
    json!({"name": group, "versions": [gv.clone()], "preferredVersion": gv})
}

/// The stored kinds' groups plus `authorization.k8s.io/v1` (reviews only, nothing stored).
fn served_groups() -> Vec<(&'static str, &'static str)> {
    let mut g = groups();
    g.push(("authorization.k8s.io", "v1"));
    g
}

/// `/apis`.
pub fn group_list() -> Value {
    let groups: Vec<Value> = served_groups().into_iter().map(group_json).collect();
    json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
}

/// `/apis/<group>`, or `None` for a group not served.
pub fn group(name: &str) -> Option<Value> {
    served_groups().into_iter().find(|(g, _)| *g == name).map(|gv| {
        let mut g = group_json(gv);
        g["kind"] = json!("APIGroup");
        g["apiVersion"] = json!("v1");
        g
    })
}

/// Verbs every stored kind serves.
const VERBS: [&str; 8] = [
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "update",
    "watch",
];

/// The subresources served for the kinds of `group`/`version`: `status` of the kinds that
/// have one, `scale` (autoscaling/v1 Scale), `pods/log` and `pods/eviction` (policy/v1
/// Eviction, which `kubectl drain` looks for before it evicts instead of deleting).
fn subresources(group: &str, version: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for (i, k) in KINDS.iter().enumerate() {
        if k.info.group != group || k.info.version != version {
            continue;
        }
        let sub = |name: &str, kind: &str, verbs: &[&str]| {
            json!({"name": format!("{}/{name}", k.info.plural), "singularName": "", "namespaced": k.info.namespaced,
                   "kind": kind, "verbs": verbs})
        };
        if super::defaults::has_status_subresource(i) {
            out.push(sub("status", k.info.kind, &["get", "patch", "update"]));
        }
        if super::subres::scalable(i) {
            let mut s = sub("scale", "Scale", &["get", "patch", "update"]);
            s["group"] = json!("autoscaling");
            s["version"] = json!("v1");
            out.push(s);
        }
        if i == super::kinds::id::POD {
            out.push(sub("log", "Pod", &["get"]));
            let mut e = sub("eviction", "Eviction", &["create"]);
            e["group"] = json!("policy");
            e["version"] = json!("v1");
            out.push(e);
        }
    }
    out
}

/// `/api/v1` (`group` empty) or `/apis/<group>/<version>`; `None` when not served.
pub fn resource_list(group: &str, version: &str) -> Option<Value> {
    let resources: Vec<Value> = KINDS
        .iter()
        .filter(|k| k.info.group == group && k.info.version == version)
        .map(|k| {
            let mut r = json!({
                "name": k.info.plural, "singularName": k.info.singular,
                "namespaced": k.info.namespaced, "kind": k.info.kind,
                "verbs": VERBS,
            });
            if !k.info.short.is_empty() {
                r["shortNames"] = json!(k.info.short);
            }
            if !k.categories.is_empty() {
                r["categories"] = json!(k.categories);
            }
            r
        })
        .collect();
    let mut resources = resources;
    resources.extend(subresources(group, version));
    if group == "authorization.k8s.io" && version == "v1" {
        resources.push(
            json!({"name": "selfsubjectaccessreviews", "singularName": "selfsubjectaccessreview",
            "namespaced": false, "kind": "SelfSubjectAccessReview", "verbs": ["create"]}),
        );
    }
    if resources.is_empty() {
        return None;
    }
    let gv = if group.is_empty() {
        version.to_owned()
    } else {
        format!("{group}/{version}")
    };
    Some(json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": resources}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_list_every_kind_once() {
        let core = resource_list("", "v1").unwrap();
        let names: Vec<&str> = core["resources"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|r| r["name"].as_str())
            .collect();
        assert!(names.contains(&"pods") && names.contains(&"events") && !names.contains(&"deployments"));
        let gz = resource_list("demo.ktui.dev", "v1").unwrap();
        assert_eq!(gz["resources"][0]["shortNames"], json!(["gz"]));
        assert!(resource_list("nope", "v1").is_none());
        assert_eq!(group_list()["groups"].as_array().unwrap().len(), 10);
        let names: Vec<&str> = core["resources"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|r| r["name"].as_str())
            .collect();
        assert!(names.contains(&"pods/eviction") && names.contains(&"pods/log"));
        let apps = resource_list("apps", "v1").unwrap();
        let scale = apps["resources"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == "deployments/scale")
            .unwrap();
        assert_eq!(
            (scale["group"].as_str(), scale["kind"].as_str()),
            (Some("autoscaling"), Some("Scale"))
        );
        assert!(resource_list("authorization.k8s.io", "v1").is_some());
        assert!(group("apps").is_some() && group("nope").is_none());
        assert_eq!(
            group("autoscaling").unwrap()["preferredVersion"]["groupVersion"],
            "autoscaling/v2"
        );
        let hpa = resource_list("autoscaling", "v2").unwrap();
        assert_eq!(hpa["resources"][0]["shortNames"], json!(["hpa"]));
        assert_eq!(hpa["resources"][0]["categories"], json!(["all"]));
    }
}
