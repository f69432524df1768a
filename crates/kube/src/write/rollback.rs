//! Rollback of a deployment to one of its ReplicaSets' revisions, what `kubectl rollout
//! undo --to-revision=N` does: the ReplicaSet's pod template (without its
//! `pod-template-hash` label) and annotations replace the deployment's by a JSON patch.
//! Also lists the revisions to choose from (revision, change-cause, images). Owns those
//! requests; must not watch the rollout.

use serde_json::{json, Map, Value};

use super::{encode, get, with_manager, Body, Request, Target, WriteError};
use crate::builtin::BuiltinKind;

/// `deployment.kubernetes.io/revision` on a ReplicaSet.
pub const REVISION: &str = "deployment.kubernetes.io/revision";
/// `kubernetes.io/change-cause`.
pub const CHANGE_CAUSE: &str = "kubernetes.io/change-cause";

/// Annotations of the deployment kubectl keeps, and of the ReplicaSet it does not copy.
const SKIP: [&str; 6] = [
    "kubectl.kubernetes.io/last-applied-configuration",
    REVISION,
    "deployment.kubernetes.io/revision-history",
    "deployment.kubernetes.io/desired-replicas",
    "deployment.kubernetes.io/max-replicas",
    "deprecated.deployment.rollback.to",
];

/// One revision of a deployment: a ReplicaSet it controls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revision {
    /// `deployment.kubernetes.io/revision`.
    pub number: u64,
    /// The ReplicaSet's name.
    pub replicaset: String,
    /// `kubernetes.io/change-cause`, if set.
    pub change_cause: Option<String>,
    /// Images of the template's containers, in order.
    pub images: Vec<String>,
    /// The ReplicaSet's `metadata.creationTimestamp`, unix seconds.
    pub created: Option<i64>,
}

/// The revisions among `replicasets` (a ReplicaSetList's items) controlled by the
/// deployment with `uid`, newest first.
pub fn revisions(replicasets: &[Value], uid: &str) -> Vec<Revision> {
    let mut out: Vec<Revision> = replicasets
        .iter()
        .filter(|rs| controlled_by(rs, uid))
        .filter_map(|rs| {
            let meta = &rs["metadata"];
            let number = meta["annotations"][REVISION].as_str()?.parse().ok()?;
            Some(Revision {
                number,
                replicaset: meta["name"].as_str()?.to_owned(),
                change_cause: meta["annotations"][CHANGE_CAUSE].as_str().map(str::to_owned),
                images: rs
                    .pointer("/spec/template/spec/containers")
                    .and_then(Value::as_array)
                    .map(|cs| {
                        cs.iter()
                            .filter_map(|c| c["image"].as_str().map(str::to_owned))
                            .collect()
                    })
                    .unwrap_or_default(),
                created: meta["creationTimestamp"]
                    .as_str()
                    .and_then(|t| t.parse::<jiff::Timestamp>().ok())
                    .map(|t| t.as_second()),
            })
        })
        .collect();
    out.sort_by_key(|r| std::cmp::Reverse(r.number));
    out
}

fn controlled_by(rs: &Value, uid: &str) -> bool {
    rs.pointer("/metadata/ownerReferences")
        .and_then(Value::as_array)
        .is_some_and(|refs| {
            refs.iter()
                .any(|r| r["uid"].as_str() == Some(uid) && r["controller"].as_bool() == Some(true))
        })
}

/// The JSON patch rolling `deployment` back to `replicaset`'s template: `[{"op":"replace",
/// "path":"/spec/template","value":T},{"op":"replace","path":"/metadata/annotations",
/// "value":A}]`, T without the `pod-template-hash` label, A the deployment's kept
/// annotations plus the ReplicaSet's others.
pub fn patch(deployment: &Value, replicaset: &Value) -> Result<Value, WriteError> {
    let mut template = replicaset
        .pointer("/spec/template")
        .cloned()
        .ok_or_else(|| WriteError::local("the ReplicaSet has no pod template"))?;
    if let Some(labels) = template
        .pointer_mut("/metadata/labels")
        .and_then(Value::as_object_mut)
    {
        labels.remove("pod-template-hash");
    }
    let mut annotations = Map::new();
    if let Some(a) = deployment
        .pointer("/metadata/annotations")
        .and_then(Value::as_object)
    {
        for k in SKIP {
            if let Some(v) = a.get(k) {
                annotations.insert(k.to_owned(), v.clone());
            }
        }
    }
    if let Some(a) = replicaset
        .pointer("/metadata/annotations")
        .and_then(Value::as_object)
    {
        for (k, v) in a {
            if !SKIP.contains(&k.as_str()) {
                annotations.insert(k.clone(), v.clone());
            }
        }
    }
    Ok(json!([
        {"op": "replace", "path": "/spec/template", "value": template},
        {"op": "replace", "path": "/metadata/annotations", "value": annotations},
    ]))
}

/// The ReplicaSets of the deployment's namespace matching its `spec.selector.matchLabels`.
async fn replicasets(client: &kube::Client, deploy: &Target, d: &Value) -> Result<Vec<Value>, WriteError> {
    let selector: Vec<String> = d
        .pointer("/spec/selector/matchLabels")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
                .collect()
        })
        .unwrap_or_default();
    let mut path = BuiltinKind::ReplicaSet.url_path(deploy.namespace.as_deref());
    if !selector.is_empty() {
        path = format!("{path}?labelSelector={}", encode(&selector.join(",")));
    }
    let list = get(client, &path).await?;
    Ok(list["items"].as_array().cloned().unwrap_or_default())
}

/// The revisions of `deploy`, newest first.
pub async fn list(client: &kube::Client, deploy: &Target) -> Result<Vec<Revision>, WriteError> {
    let d = get(client, &deploy.path()).await?;
    let uid = d["metadata"]["uid"].as_str().unwrap_or_default().to_owned();
    Ok(revisions(&replicasets(client, deploy, &d).await?, &uid))
}

/// Rolls `deploy` back to revision `number` (as `kubectl rollout undo --to-revision`);
/// refuses a paused deployment and the revision in use, as kubectl does.
pub async fn rollback(client: &kube::Client, deploy: &Target, number: u64) -> Result<(), WriteError> {
    let d = get(client, &deploy.path()).await?;
    if d.pointer("/spec/paused").and_then(Value::as_bool) == Some(true) {
        return Err(WriteError::local(format!(
            "you cannot rollback a paused deployment; resume it first with kubectl rollout resume deployment/{}",
            deploy.name
        )));
    }
    let uid = d["metadata"]["uid"].as_str().unwrap_or_default().to_owned();
    let all = replicasets(client, deploy, &d).await?;
    let rs = all
        .iter()
        .filter(|rs| controlled_by(rs, &uid))
        .find(|rs| rs["metadata"]["annotations"][REVISION].as_str() == Some(number.to_string().as_str()))
        .ok_or_else(|| WriteError::local(format!("unable to find specified revision {number} in history")))?;
    if d["metadata"]["annotations"][REVISION].as_str() == Some(number.to_string().as_str()) {
        return Err(WriteError::local(format!(
            "revision {number} is the one in use; nothing to roll back"
        )));
    }
    let req = Request {
        method: http::Method::PATCH,
        path: with_manager(&deploy.path()),
        ty: Body::JsonPatch,
        body: Some(patch(&d, rs)?),
    };
    req.send(client).await.map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rs(name: &str, rev: &str, owner: &str, image: &str) -> Value {
        json!({"metadata": {"name": name,
            "annotations": {REVISION: rev, CHANGE_CAUSE: format!("set image {image}"), "x": "1"},
            "ownerReferences": [{"uid": owner, "controller": true}]},
            "spec": {"template": {"metadata": {"labels": {"app": "web", "pod-template-hash": "abc"}},
                "spec": {"containers": [{"name": "c", "image": image}]}}}})
    }

    #[test]
    fn revisions_are_the_controlled_replicasets_newest_first() {
        let all = [
            rs("web-1", "1", "d", "nginx:1"),
            rs("web-2", "2", "d", "nginx:2"),
            rs("other", "3", "e", "x"),
        ];
        let r = revisions(&all, "d");
        assert_eq!(r.iter().map(|r| r.number).collect::<Vec<_>>(), [2, 1]);
        assert_eq!(r[1].images, ["nginx:1"]);
        assert_eq!(r[1].change_cause.as_deref(), Some("set image nginx:1"));
    }

    #[test]
    fn patch_replaces_template_and_annotations_as_kubectl() {
        let d = json!({"metadata": {"annotations": {REVISION: "2", "mine": "kept?"}}});
        let p = patch(&d, &rs("web-1", "1", "d", "nginx:1")).unwrap();
        assert_eq!(p[0]["path"], "/spec/template");
        assert_eq!(p[0]["value"]["metadata"]["labels"], json!({"app": "web"}));
        assert_eq!(p[1]["path"], "/metadata/annotations");
        // The deployment's revision stays; the ReplicaSet's own annotations come along.
        assert_eq!(
            p[1]["value"],
            json!({REVISION: "2", CHANGE_CAUSE: "set image nginx:1", "x": "1"})
        );
    }
}
