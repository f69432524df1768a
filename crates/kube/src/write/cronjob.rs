//! CronJob writes: trigger now (a Job built from the template as `kubectl create job NAME
//! --from=cronjob/CJ` builds it: the template's labels, its annotations plus
//! `cronjob.kubernetes.io/instantiate: manual`, a controller owner reference to the CronJob)
//! and suspend/resume (`spec.suspend`). Owns those requests; must not wait for the Job.

use serde_json::{json, Map, Value};

use super::{get, with_manager, Body, Request, Target, WriteError};
use crate::builtin::BuiltinKind;

/// The annotation kubectl puts on a Job created from a CronJob by hand.
pub const INSTANTIATE: &str = "cronjob.kubernetes.io/instantiate";

/// The Job name for a manual run: `<cronjob>-manual-<suffix>`, the CronJob's name cut so
/// the whole stays a valid 63-character label value (the Job controller puts the Job's name
/// in its pods' `job-name` label).
pub fn job_name(cronjob: &str, suffix: &str) -> String {
    let keep = 63usize.saturating_sub("-manual-".len() + suffix.len());
    let base: String = cronjob.chars().take(keep).collect();
    format!("{}-manual-{suffix}", base.trim_end_matches(['-', '.']))
}

/// A random 5-character suffix of lower-case letters and digits.
pub fn suffix() -> String {
    use rand::Rng;
    const CHARS: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let mut rng = rand::rng();
    (0..5)
        .map(|_| char::from(CHARS[rng.random_range(0..CHARS.len())]))
        .collect()
}

/// The Job `kubectl create job name --from=cronjob/…` creates from `cronjob` (the whole
/// CronJob object as the server sent it); `None` when it has no `spec.jobTemplate`.
pub fn job_from(cronjob: &Value, name: &str) -> Option<Value> {
    let template = cronjob.pointer("/spec/jobTemplate")?;
    let meta = &cronjob["metadata"];
    let mut annotations = Map::new();
    annotations.insert(INSTANTIATE.into(), json!("manual"));
    if let Some(a) = template
        .pointer("/metadata/annotations")
        .and_then(Value::as_object)
    {
        annotations.extend(a.clone());
    }
    let mut metadata = json!({
        "name": name,
        "annotations": annotations,
        "ownerReferences": [{
            "apiVersion": "batch/v1",
            "kind": "CronJob",
            "name": meta["name"],
            "uid": meta["uid"],
            "controller": true,
        }],
    });
    if let Some(ns) = meta.get("namespace") {
        metadata["namespace"] = ns.clone();
    }
    if let Some(l) = template.pointer("/metadata/labels") {
        metadata["labels"] = l.clone();
    }
    Some(json!({
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": metadata,
        "spec": template.get("spec").cloned().unwrap_or_else(|| json!({})),
    }))
}

/// `POST /apis/batch/v1/namespaces/NS/jobs?fieldManager=ktui` with the Job.
pub fn create_request(namespace: &str, job: Value) -> Request {
    Request {
        method: http::Method::POST,
        path: with_manager(&BuiltinKind::Job.url_path(Some(namespace))),
        ty: Body::Json,
        body: Some(job),
    }
}

/// Triggers `cronjob` now: GETs it, creates the Job; returns the Job's name.
pub async fn trigger(client: &kube::Client, cronjob: &Target) -> Result<String, WriteError> {
    let cj = get(client, &cronjob.path()).await?;
    let name = job_name(&cronjob.name, &suffix());
    let job = job_from(&cj, &name).ok_or_else(|| WriteError::local("the CronJob has no spec.jobTemplate"))?;
    let ns = cronjob.namespace.as_deref().unwrap_or("default");
    create_request(ns, job).send(client).await?;
    Ok(name)
}

/// `PATCH <cronjob path>?fieldManager=ktui`, merge patch `{"spec":{"suspend":B}}`.
pub fn suspend_request(cronjob: &Target, suspend: bool) -> Request {
    Request {
        method: http::Method::PATCH,
        path: with_manager(&cronjob.path()),
        ty: Body::MergePatch,
        body: Some(json!({"spec": {"suspend": suspend}})),
    }
}

/// Suspends (`true`) or resumes `cronjob`.
pub async fn set_suspend(client: &kube::Client, cronjob: &Target, suspend: bool) -> Result<(), WriteError> {
    suspend_request(cronjob, suspend).send(client).await.map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_is_built_as_kubectl_builds_it() {
        let cj = json!({
            "metadata": {"name": "backup", "namespace": "a", "uid": "u-1", "labels": {"x": "y"}},
            "spec": {"schedule": "*/5 * * * *", "jobTemplate": {
                "metadata": {"labels": {"app": "backup"}, "annotations": {"team": "ops"}},
                "spec": {"template": {"spec": {"containers": [{"name": "c", "image": "i"}]}}}}}
        });
        let job = job_from(&cj, "backup-manual-abcde").unwrap();
        assert_eq!(job["metadata"]["name"], "backup-manual-abcde");
        assert_eq!(job["metadata"]["namespace"], "a");
        assert_eq!(job["metadata"]["labels"], json!({"app": "backup"}));
        assert_eq!(
            job["metadata"]["annotations"],
            json!({"cronjob.kubernetes.io/instantiate": "manual", "team": "ops"})
        );
        assert_eq!(
            job["metadata"]["ownerReferences"],
            json!([{"apiVersion": "batch/v1", "kind": "CronJob", "name": "backup", "uid": "u-1", "controller": true}])
        );
        assert_eq!(job["spec"]["template"]["spec"]["containers"][0]["image"], "i");
        assert!(job_from(&json!({"metadata": {}}), "x").is_none());
    }

    #[test]
    fn names_stay_valid_labels() {
        assert_eq!(job_name("backup", "abcde"), "backup-manual-abcde");
        let long = "a".repeat(52);
        assert_eq!(job_name(&long, "abcde").len(), 63);
        let s = suffix();
        assert_eq!(s.len(), 5);
        assert!(s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()));
        let r = create_request("a", json!({}));
        assert_eq!(r.path, "/apis/batch/v1/namespaces/a/jobs?fieldManager=ktui");
    }
}
