//! The cluster's own rollout history of a workload — what `kubectl rollout history` reads,
//! the past before ktui started: for a Deployment its ReplicaSets numbered by the
//! `deployment.kubernetes.io/revision` annotation, for a StatefulSet or DaemonSet its
//! ControllerRevisions (`revision`, the pod template in `data`). Owns reading those objects
//! into [`RolloutRevision`]s; must not fetch them (see [`super::rollout_watch`]) nor say how
//! a template diff reads (`ktui_detail::diff`).

use std::sync::Arc;

use serde_json::Value;

use crate::builtin::BuiltinKind;
use crate::kind::{ApiResource, Kind};
use crate::row::UnixSecs;

/// `deployment.kubernetes.io/revision` on a ReplicaSet (and on its Deployment: the one in use).
pub const REVISION: &str = "deployment.kubernetes.io/revision";
/// `kubernetes.io/change-cause`: the command that made the revision, when recorded.
pub const CHANGE_CAUSE: &str = "kubernetes.io/change-cause";

/// Where a workload kind keeps its rollout history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RolloutSource {
    /// A Deployment: the ReplicaSets it controls.
    ReplicaSets,
    /// A StatefulSet or DaemonSet: the ControllerRevisions it controls.
    ControllerRevisions,
}

impl RolloutSource {
    /// The source of `kind`'s rollout history; `None` for kinds without one.
    pub fn of(kind: &Kind) -> Option<RolloutSource> {
        match kind.builtin()? {
            BuiltinKind::Deployment => Some(RolloutSource::ReplicaSets),
            BuiltinKind::StatefulSet | BuiltinKind::DaemonSet => Some(RolloutSource::ControllerRevisions),
            _ => None,
        }
    }

    /// The kind listed: `replicasets.apps`, or `controllerrevisions.apps` (not a built-in
    /// with columns, so described here as discovery would describe it).
    pub fn kind(self) -> Kind {
        match self {
            RolloutSource::ReplicaSets => Kind::from(BuiltinKind::ReplicaSet),
            RolloutSource::ControllerRevisions => Kind::Api(Arc::new(ApiResource {
                group: "apps".into(),
                version: "v1".into(),
                plural: "controllerrevisions".into(),
                singular: "controllerrevision".into(),
                kind: "ControllerRevision".into(),
                namespaced: true,
                verbs: ["get", "list", "watch"].map(String::from).to_vec(),
                ..ApiResource::default()
            })),
        }
    }

    /// `ReplicaSets` / `ControllerRevisions`, as the history view names them.
    pub fn label(self) -> &'static str {
        match self {
            RolloutSource::ReplicaSets => "ReplicaSets",
            RolloutSource::ControllerRevisions => "ControllerRevisions",
        }
    }
}

/// One revision of a workload's rollout history.
#[derive(Debug, Clone, PartialEq)]
pub struct RolloutRevision {
    /// The revision number: the ReplicaSet's `deployment.kubernetes.io/revision`, the
    /// ControllerRevision's `revision`.
    pub number: i64,
    /// `metadata.name` of the ReplicaSet or ControllerRevision.
    pub name: Box<str>,
    /// `metadata.uid` of the controller (`ownerReferences[controller=true].uid`), to leave out
    /// the revisions of an earlier object of the same name.
    pub owner_uid: Box<str>,
    /// `kubernetes.io/change-cause`, when set.
    pub change_cause: Option<Box<str>>,
    /// `image` of each container of the template, in order.
    pub images: Vec<Box<str>>,
    /// `metadata.creationTimestamp` (unix seconds).
    pub created: Option<UnixSecs>,
    /// The pod template (`spec.template` of the ReplicaSet without its `pod-template-hash`
    /// label; `data.spec.template` of the ControllerRevision without `$patch`).
    pub template: Arc<Value>,
}

/// The controller reference of `obj` if it is `kind`/`name`: its uid.
fn controller<'a>(obj: &'a Value, kind: &str, name: &str) -> Option<&'a str> {
    obj.pointer("/metadata/ownerReferences")?
        .as_array()?
        .iter()
        .find(|r| r["controller"].as_bool() == Some(true))
        .filter(|r| r["kind"].as_str() == Some(kind) && r["name"].as_str() == Some(name))
        .map(|r| r["uid"].as_str().unwrap_or(""))
}

/// Reads one ReplicaSet or ControllerRevision (`source`) into a revision of the workload
/// `kind` (`Deployment`, `StatefulSet`, `DaemonSet`) named `name`; `None` when another
/// object controls it or it carries no revision number.
pub fn read(source: RolloutSource, obj: &Value, kind: &str, name: &str) -> Option<RolloutRevision> {
    let owner_uid = controller(obj, kind, name)?;
    let meta = &obj["metadata"];
    let (number, mut template) = match source {
        RolloutSource::ReplicaSets => {
            let number = meta["annotations"][REVISION].as_str()?.trim().parse().ok()?;
            let mut t = obj.pointer("/spec/template").cloned().unwrap_or(Value::Null);
            if let Some(labels) = t.pointer_mut("/metadata/labels").and_then(Value::as_object_mut) {
                labels.remove("pod-template-hash");
            }
            (number, t)
        }
        RolloutSource::ControllerRevisions => {
            let number = obj["revision"].as_i64()?;
            (
                number,
                obj.pointer("/data/spec/template").cloned().unwrap_or(Value::Null),
            )
        }
    };
    if let Some(t) = template.as_object_mut() {
        t.remove("$patch");
    }
    let images = template
        .pointer("/spec/containers")
        .and_then(Value::as_array)
        .map(|cs| {
            cs.iter()
                .filter_map(|c| c["image"].as_str())
                .map(Into::into)
                .collect()
        })
        .unwrap_or_default();
    Some(RolloutRevision {
        number,
        name: meta["name"].as_str().unwrap_or("").into(),
        owner_uid: owner_uid.into(),
        change_cause: meta["annotations"][CHANGE_CAUSE].as_str().map(Into::into),
        images,
        created: meta["creationTimestamp"]
            .as_str()
            .and_then(|t| t.parse::<jiff::Timestamp>().ok())
            .map(|t| t.as_second()),
        template: Arc::new(template),
    })
}

/// The revision the workload `obj` runs, if it says: a Deployment's `deployment.kubernetes.io/
/// revision` annotation, a StatefulSet's `status.updateRevision` (a ControllerRevision's
/// name); `None` for a DaemonSet (its newest revision is the one in use).
pub fn in_use(obj: &Value) -> Option<InUse<'_>> {
    if let Some(n) = obj
        .pointer("/metadata/annotations")
        .and_then(|a| a[REVISION].as_str())
    {
        return n.trim().parse().ok().map(InUse::Number);
    }
    obj.pointer("/status/updateRevision")
        .and_then(Value::as_str)
        .map(InUse::Name)
}

/// How a workload names the revision it runs (see [`in_use`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InUse<'a> {
    /// By number (Deployments).
    Number(i64),
    /// By ControllerRevision name (StatefulSets).
    Name(&'a str),
}

impl InUse<'_> {
    /// Whether `r` is the revision in use.
    pub fn is(&self, r: &RolloutRevision) -> bool {
        match self {
            InUse::Number(n) => r.number == *n,
            InUse::Name(name) => &*r.name == *name,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn rs(name: &str, rev: &str, owner: &str, image: &str) -> Value {
        json!({"metadata": {"name": name, "creationTimestamp": "2026-01-01T00:01:00Z",
            "annotations": {REVISION: rev, CHANGE_CAUSE: format!("kubectl set image {image}")},
            "ownerReferences": [{"kind": "Deployment", "name": owner, "uid": "u1", "controller": true}]},
            "spec": {"template": {"metadata": {"labels": {"app": "web", "pod-template-hash": "abc"}},
                "spec": {"containers": [{"name": "web", "image": image}, {"name": "log", "image": "fluent:2"}]}}}})
    }

    #[test]
    fn a_replicaset_reads_as_a_numbered_revision_of_its_controller_only() {
        let r = read(
            RolloutSource::ReplicaSets,
            &rs("web-abc", "3", "web", "web:1.5"),
            "Deployment",
            "web",
        )
        .unwrap();
        assert_eq!(r.number, 3);
        assert_eq!(&*r.name, "web-abc");
        assert_eq!(&*r.owner_uid, "u1");
        assert_eq!(r.images, ["web:1.5".into(), "fluent:2".into()] as [Box<str>; 2]);
        assert_eq!(r.change_cause.as_deref(), Some("kubectl set image web:1.5"));
        assert_eq!(r.created, Some(1_767_225_660));
        assert_eq!(
            r.template["metadata"]["labels"],
            json!({"app": "web"}),
            "no pod-template-hash"
        );
        assert!(read(
            RolloutSource::ReplicaSets,
            &rs("x", "3", "other", "a"),
            "Deployment",
            "web"
        )
        .is_none());
        assert!(read(
            RolloutSource::ReplicaSets,
            &rs("x", "3", "web", "a"),
            "StatefulSet",
            "web"
        )
        .is_none());
        assert!(read(
            RolloutSource::ReplicaSets,
            &rs("x", "three", "web", "a"),
            "Deployment",
            "web"
        )
        .is_none());
        let mut orphan = rs("x", "3", "web", "a");
        orphan["metadata"]["ownerReferences"][0]["controller"] = json!(false);
        assert!(read(RolloutSource::ReplicaSets, &orphan, "Deployment", "web").is_none());
    }

    #[test]
    fn a_controller_revision_reads_its_template_from_data() {
        let cr = json!({"metadata": {"name": "db-7f9c", "ownerReferences": [
                {"kind": "StatefulSet", "name": "db", "uid": "s1", "controller": true}]},
            "revision": 2,
            "data": {"spec": {"template": {"$patch": "replace", "metadata": {"labels": {"app": "db"}},
                "spec": {"containers": [{"name": "db", "image": "postgres:17"}]}}}}});
        let r = read(RolloutSource::ControllerRevisions, &cr, "StatefulSet", "db").unwrap();
        assert_eq!((r.number, &*r.name), (2, "db-7f9c"));
        assert_eq!(r.images, ["postgres:17".into()] as [Box<str>; 1]);
        assert!(r.template.get("$patch").is_none());
        assert_eq!(r.created, None);
        assert!(read(RolloutSource::ControllerRevisions, &cr, "DaemonSet", "db").is_none());
    }

    #[test]
    fn the_revision_in_use_comes_from_the_workload() {
        let d = json!({"metadata": {"annotations": {REVISION: "4"}}});
        let r = read(
            RolloutSource::ReplicaSets,
            &rs("web-abc", "4", "web", "w"),
            "Deployment",
            "web",
        )
        .unwrap();
        assert!(in_use(&d).unwrap().is(&r));
        let s = json!({"metadata": {}, "status": {"updateRevision": "web-abc"}});
        assert_eq!(in_use(&s), Some(InUse::Name("web-abc")));
        assert!(in_use(&json!({"metadata": {}})).is_none());
        assert_eq!(
            RolloutSource::of(&BuiltinKind::DaemonSet.into()),
            Some(RolloutSource::ControllerRevisions)
        );
        assert_eq!(RolloutSource::of(&BuiltinKind::ConfigMap.into()), None);
        assert_eq!(
            RolloutSource::ControllerRevisions.kind().url_path(Some("a")),
            "/apis/apps/v1/namespaces/a/controllerrevisions"
        );
    }
}
