//! The demo server's OpenAPI v3 documents: the `/openapi/v3` index of group-versions and,
//! per group-version, the item paths with their `PATCH` operation tagged with
//! `x-kubernetes-group-version-kind` and the `fieldValidation` query parameter. That is what
//! kubectl (`edit`, `apply`, `create -f`, `replace`) reads to learn the server validates
//! fields itself; without it kubectl falls back to the OpenAPI v2 protobuf document and gives
//! up with "… is invalid". Schemas (`components.schemas`) are not served, so `kubectl
//! explain` says it has none and `apply` computes strategic merge patches from its own types,
//! as against a server without them. Pure; must not read the store.

use serde_json::{json, Map, Value};

use super::kinds::{SimKind, KINDS};

/// The path of the group-version in the index and URLs: `api/v1`, `apis/apps/v1`.
fn gv_path(group: &str, version: &str) -> String {
    if group.is_empty() {
        format!("api/{version}")
    } else {
        format!("apis/{group}/{version}")
    }
}

/// Distinct `(group, version)` of the served kinds, core first, in table order.
fn group_versions() -> Vec<(&'static str, &'static str)> {
    let mut out: Vec<(&'static str, &'static str)> = Vec::new();
    for k in &KINDS {
        let gv = (k.info.group, k.info.version);
        if !out.contains(&gv) {
            out.push(gv);
        }
    }
    out
}

/// `GET /openapi/v3`: `{"paths": {"apis/apps/v1": {"serverRelativeURL": …}}}`. The hash
/// query is the document's version (constant: the documents never change while serving),
/// which clients use as a cache key.
pub fn index() -> Value {
    let mut paths = Map::new();
    for (g, v) in group_versions() {
        let p = gv_path(g, v);
        paths.insert(
            p.clone(),
            json!({"serverRelativeURL": format!("/openapi/v3/{p}?hash={}", hash(g, v))}),
        );
    }
    json!({ "paths": paths })
}

/// A stable, content-derived hash (FNV-1a of the group-version and the kinds' names), upper
/// hex like the API server's.
fn hash(group: &str, version: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |s: &str| {
        for b in s.bytes().chain([0]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    feed(group);
    feed(version);
    for k in KINDS
        .iter()
        .filter(|k| k.info.group == group && k.info.version == version)
    {
        feed(k.info.plural);
    }
    format!("{h:016X}")
}

fn query(name: &str, description: &str) -> Value {
    json!({"name": name, "in": "query", "description": description,
           "schema": {"type": "string", "uniqueItems": true}})
}

/// The `PATCH` operation of one kind's item path.
fn patch_op(k: &SimKind) -> Value {
    let i = &k.info;
    json!({
        "description": format!("partially update the specified {}", i.kind),
        "operationId": format!("patch{}", i.kind),
        "parameters": [
            query("dryRun", "When present, indicates that modifications should not be persisted."),
            query("fieldManager", "fieldManager is a name associated with the actor or entity that is making these changes."),
            query("fieldValidation", "fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore - Warn - Strict"),
            {"name": "force", "in": "query", "schema": {"type": "boolean", "uniqueItems": true}}
        ],
        "requestBody": {"content": {
            "application/apply-patch+yaml": {"schema": {"type": "object"}},
            "application/json-patch+json": {"schema": {"type": "object"}},
            "application/merge-patch+json": {"schema": {"type": "object"}},
            "application/strategic-merge-patch+json": {"schema": {"type": "object"}}
        }, "required": true},
        "responses": {"200": {"description": "OK"}, "201": {"description": "Created"}},
        "x-kubernetes-action": "patch",
        "x-kubernetes-group-version-kind": {"group": i.group, "version": i.version, "kind": i.kind}
    })
}

/// `GET /openapi/v3/<api/v1 | apis/G/V>`, or `None` for a group-version not served.
pub fn document(path: &str) -> Option<Value> {
    let path = path.trim_matches('/');
    let (g, v) = group_versions()
        .into_iter()
        .find(|(g, v)| gv_path(g, v) == path)?;
    let mut paths = Map::new();
    for k in KINDS.iter().filter(|k| k.info.group == g && k.info.version == v) {
        let scope = if k.info.namespaced {
            "namespaces/{namespace}/"
        } else {
            ""
        };
        let item = format!("/{}/{scope}{}/{{name}}", gv_path(g, v), k.info.plural);
        let mut params = vec![json!({"name": "name", "in": "path", "required": true,
                                     "schema": {"type": "string", "uniqueItems": true}})];
        if k.info.namespaced {
            params.push(json!({"name": "namespace", "in": "path", "required": true,
                               "schema": {"type": "string", "uniqueItems": true}}));
        }
        params.push(query("pretty", "If 'true', then the output is pretty printed."));
        paths.insert(item, json!({"parameters": params, "patch": patch_op(k)}));
    }
    Some(json!({
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes", "version": super::discovery::GIT_VERSION},
        "paths": paths,
        "components": {"schemas": {}}
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_names_every_group_version_and_its_document() {
        let idx = index();
        let url = idx["paths"]["apis/apps/v1"]["serverRelativeURL"]
            .as_str()
            .unwrap();
        assert!(url.starts_with("/openapi/v3/apis/apps/v1?hash="), "{url}");
        assert!(idx["paths"]["api/v1"].is_object());
        assert!(idx["paths"]["apis/policy/v1"].is_object());
        assert_eq!(hash("apps", "v1"), hash("apps", "v1"));
        assert_ne!(hash("apps", "v1"), hash("batch", "v1"));
    }

    #[test]
    fn a_document_declares_field_validation_on_each_kinds_patch() {
        let doc = document("apis/apps/v1").unwrap();
        let p = &doc["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"]["patch"];
        assert_eq!(
            p["x-kubernetes-group-version-kind"],
            json!({"group": "apps", "version": "v1", "kind": "Deployment"})
        );
        assert!(p["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .any(|q| q["name"] == "fieldValidation" && q["in"] == "query"));
        let core = document("/api/v1").unwrap();
        assert!(core["paths"]["/api/v1/nodes/{name}"]["patch"].is_object());
        assert!(document("apis/nope/v1").is_none());
    }
}
