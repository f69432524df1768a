//! API discovery: which resources the server offers (`/api/v1`, `/apis`, then one request
//! per group's preferred version, concurrently) and the printer columns of its CRDs. A group
//! that fails (an aggregated APIService that is down) is recorded by name and the rest still
//! work. Owns the requests and their decoding; must not decide what the UI shows.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use futures::stream::{self, StreamExt};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use tokio::time::timeout;

use super::failure::one_line;
use super::kind::{ApiResource, PrinterColumn};

/// Concurrent group-version requests.
const PARALLEL: usize = 8;

/// A group version whose discovery failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenGroup {
    /// `group/version` (`metrics.k8s.io/v1beta1`).
    pub group_version: String,
    /// Why, one line (`503: service unavailable`, `timed out after 10s`).
    pub reason: String,
}

/// What one discovery run found.
#[derive(Debug, Clone, Default)]
pub struct Discovery {
    /// Every resource (no subresources) of every group's preferred version, core first,
    /// then groups in the server's order.
    pub resources: Vec<Arc<ApiResource>>,
    /// The same resources in the groups' other versions (`:deployments.v1beta1.apps`); a
    /// resource served only in a non-preferred version is in `resources` instead.
    pub other_versions: Vec<Arc<ApiResource>>,
    /// Groups that could not be read.
    pub broken: Vec<BrokenGroup>,
    /// Why CRD printer columns are unknown (`forbidden: list customresourcedefinitions`),
    /// when they are; custom kinds then show NAME and AGE.
    pub crd_error: Option<String>,
}

#[derive(Deserialize)]
struct GroupList {
    #[serde(default)]
    groups: Vec<Group>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Group {
    #[serde(default)]
    preferred_version: Option<GroupVersion>,
    #[serde(default)]
    versions: Vec<GroupVersion>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
struct GroupVersion {
    group_version: String,
    version: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ResourceList {
    #[serde(default)]
    resources: Vec<ResourceEntry>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ResourceEntry {
    name: String,
    #[serde(default)]
    singular_name: String,
    #[serde(default)]
    namespaced: bool,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    verbs: Vec<String>,
    #[serde(default)]
    short_names: Vec<String>,
    #[serde(default)]
    categories: Vec<String>,
}

#[derive(Deserialize)]
struct CrdList {
    #[serde(default)]
    items: Vec<Crd>,
}

#[derive(Deserialize)]
struct Crd {
    spec: CrdSpec,
}

#[derive(Deserialize)]
struct CrdSpec {
    group: String,
    names: CrdNames,
    #[serde(default)]
    versions: Vec<CrdVersion>,
}

#[derive(Deserialize)]
struct CrdNames {
    plural: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CrdVersion {
    name: String,
    #[serde(default)]
    additional_printer_columns: Vec<CrdColumn>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CrdColumn {
    name: String,
    #[serde(rename = "type", default)]
    column_type: String,
    #[serde(default)]
    json_path: String,
    #[serde(default)]
    priority: i32,
}

/// Printer columns per (group, plural, version), from the CRD list.
type CrdColumns = HashMap<(String, String, String), Arc<[PrinterColumn]>>;

/// Runs discovery against `client`, each request bounded by `deadline`. `Err` only when
/// neither `/api/v1` nor `/apis` could be read (one line, for the UI); a failing group is
/// recorded in [`Discovery::broken`] instead.
pub async fn discover(client: &kube::Client, deadline: Duration) -> Result<Discovery, String> {
    let started = std::time::Instant::now();
    let found = discover_all(client, deadline).await;
    if let Ok(d) = &found {
        tracing::info!(
            resources = d.resources.len(),
            broken = d.broken.len(),
            crd_columns = d.crd_error.is_none(),
            took_ms = started.elapsed().as_millis() as u64,
            "discovery"
        );
    }
    found
}

async fn discover_all(client: &kube::Client, deadline: Duration) -> Result<Discovery, String> {
    let core = get::<ResourceList>(client, "/api/v1", deadline).await;
    let groups = get::<GroupList>(client, "/apis", deadline).await;
    if let (Err(a), Err(b)) = (&core, &groups) {
        return Err(format!("discovery failed: /api/v1: {a}; /apis: {b}"));
    }
    let mut out = Discovery::default();
    match core {
        Ok(list) => out.resources.extend(resources_of("", "v1", list)),
        Err(reason) => out.broken.push(BrokenGroup {
            group_version: "v1".into(),
            reason,
        }),
    }
    // Every version of every group, each group's preferred one first.
    let versions: Vec<(GroupVersion, bool)> = groups
        .map(|g| g.groups)
        .unwrap_or_default()
        .into_iter()
        .flat_map(|g| {
            let preferred = g.preferred_version.or_else(|| g.versions.first().cloned());
            let others: Vec<(GroupVersion, bool)> = g
                .versions
                .into_iter()
                .filter(|v| Some(&v.group_version) != preferred.as_ref().map(|p| &p.group_version))
                .map(|v| (v, false))
                .collect();
            preferred.map(|p| (p, true)).into_iter().chain(others)
        })
        .collect();
    let has_crds = versions
        .iter()
        .any(|(v, _)| v.group_version == "apiextensions.k8s.io/v1");
    let mut lists: Vec<(GroupVersion, bool, Result<ResourceList, String>)> = stream::iter(versions)
        .map(|(gv, preferred)| async move {
            let list = get::<ResourceList>(client, &format!("/apis/{}", gv.group_version), deadline).await;
            (gv, preferred, list)
        })
        .buffered(PARALLEL)
        .collect()
        .await;
    // Preferred versions first: a resource found there is the one views use.
    lists.sort_by_key(|(_, preferred, _)| !preferred);
    for (gv, _, list) in lists {
        let group = gv
            .group_version
            .strip_suffix(&format!("/{}", gv.version))
            .unwrap_or(&gv.group_version)
            .to_owned();
        match list {
            Ok(list) => {
                for r in resources_of(&group, &gv.version, list) {
                    let known = out
                        .resources
                        .iter()
                        .any(|k| k.group == r.group && k.plural == r.plural);
                    if known {
                        out.other_versions.push(r);
                    } else {
                        out.resources.push(r);
                    }
                }
            }
            Err(reason) => out.broken.push(BrokenGroup {
                group_version: gv.group_version,
                reason,
            }),
        }
    }
    if has_crds {
        let path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
        match get::<CrdList>(client, path, deadline).await {
            Ok(list) => {
                let columns = crd_columns(list);
                apply_crd_columns(&mut out.resources, &columns);
                apply_crd_columns(&mut out.other_versions, &columns);
            }
            Err(e) => out.crd_error = Some(format!("{e} (list customresourcedefinitions)")),
        }
    }
    Ok(out)
}

/// Whether `s` is a DNS-style name (`[a-z0-9]`, inner `-` and `.`): what Kubernetes allows
/// for groups, versions, resource and short names. Discovery answers are untrusted (an
/// aggregated API can say anything) and these names end up in URL paths and on screen.
fn dns_like(s: &str) -> bool {
    let ok = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    s.len() <= 253
        && s.starts_with(ok)
        && s.ends_with(ok)
        && s.chars().all(|c| ok(c) || c == '-' || c == '.')
        && !s.contains("..")
}

fn resources_of(group: &str, version: &str, list: ResourceList) -> Vec<Arc<ApiResource>> {
    if !(group.is_empty() || dns_like(group)) || !dns_like(version) {
        return Vec::new();
    }
    list.resources
        .into_iter()
        .filter(|r| dns_like(&r.name))
        .filter(|r| r.kind.chars().all(|c| c.is_ascii_alphanumeric()))
        .map(move |r| {
            let singular = if !dns_like(&r.singular_name) {
                r.kind.to_ascii_lowercase()
            } else {
                r.singular_name
            };
            Arc::new(ApiResource {
                group: group.to_owned(),
                version: version.to_owned(),
                plural: r.name,
                singular,
                kind: r.kind,
                short: r.short_names.into_iter().filter(|s| dns_like(s)).collect(),
                categories: r.categories,
                namespaced: r.namespaced,
                verbs: r.verbs,
                columns: Arc::from([]),
                from_crd: false,
            })
        })
        .collect()
}

fn crd_columns(list: CrdList) -> CrdColumns {
    let mut out = CrdColumns::new();
    for crd in list.items {
        for v in crd.spec.versions {
            let cols: Vec<PrinterColumn> = v
                .additional_printer_columns
                .into_iter()
                .map(|c| PrinterColumn {
                    name: c.name,
                    column_type: c.column_type,
                    json_path: c.json_path,
                    priority: c.priority,
                })
                .collect();
            let key = (crd.spec.group.clone(), crd.spec.names.plural.clone(), v.name);
            out.insert(key, cols.into());
        }
    }
    out
}

/// Gives every discovered resource that a CRD defines its printer columns.
fn apply_crd_columns(resources: &mut [Arc<ApiResource>], columns: &CrdColumns) {
    for r in resources.iter_mut() {
        let key = (r.group.clone(), r.plural.clone(), r.version.clone());
        if let Some(cols) = columns.get(&key) {
            let res = Arc::make_mut(r);
            res.columns = cols.clone();
            res.from_crd = true;
        }
    }
}

/// GETs `path` and decodes it; errors as one line (`403 forbidden`, `timed out after 10s`).
async fn get<T: DeserializeOwned>(
    client: &kube::Client,
    path: &str,
    deadline: Duration,
) -> Result<T, String> {
    let req = http::Request::get(path)
        .body(Vec::new())
        .map_err(|e| e.to_string())?;
    match timeout(deadline, client.request::<T>(req)).await {
        Err(_) => Err(format!("timed out after {}s", deadline.as_secs())),
        Ok(Ok(v)) => Ok(v),
        Ok(Err(kube::Error::Api(s))) => Err(one_line(&format!("{}: {}", s.code, s.message))),
        Ok(Err(e)) => Err(crate::failure::words(&e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crd_columns_go_to_the_matching_version_only() {
        let list: CrdList = serde_json::from_value(serde_json::json!({"items": [{"spec": {
            "group": "demo.ktui.dev", "names": {"plural": "gizmos"},
            "versions": [
                {"name": "v1", "additionalPrinterColumns": [
                    {"name": "Color", "type": "string", "jsonPath": ".spec.color"},
                    {"name": "Size", "type": "integer", "jsonPath": ".spec.size", "priority": 1}]},
                {"name": "v2"}]}}]}))
        .unwrap();
        let list_v1: ResourceList = serde_json::from_value(serde_json::json!({"resources": [
            {"name": "gizmos", "singularName": "", "namespaced": true, "kind": "Gizmo",
             "verbs": ["list", "watch"], "shortNames": ["gz"]},
            {"name": "gizmos/status", "namespaced": true, "kind": "Gizmo", "verbs": ["get"]}]}))
        .unwrap();
        let mut res = resources_of("demo.ktui.dev", "v1", list_v1);
        apply_crd_columns(&mut res, &crd_columns(list));
        assert_eq!(res.len(), 1, "subresources are dropped");
        for bad in ["a/b", "../secrets", "x\u{1b}[2J", "", "-a", "A"] {
            assert!(!dns_like(bad), "{bad:?}");
        }
        assert!(dns_like("metrics.k8s.io") && dns_like("v1beta1") && dns_like("gz"));
        let g = &res[0];
        assert_eq!(
            (g.singular.as_str(), g.from_crd, g.listable()),
            ("gizmo", true, true)
        );
        let names: Vec<_> = g.columns.iter().map(|c| (c.name.as_str(), c.priority)).collect();
        assert_eq!(names, [("Color", 0), ("Size", 1)]);
    }
}
