//! What the API server's registry strategies do to a new or changed object of the demo's
//! kinds: defaults a client may leave out (replicas, strategies, a pod's restart policy and
//! grace period, a Job's selector and labels), status reset on create, which kinds keep
//! `metadata.generation` and have a `status` subresource, and the validation the write paths
//! answer 422 for (names, replicas, selector vs template labels, containers and images).
//! Pure; must not touch the store.

use rand::Rng;
use serde_json::{json, Value};

use super::kinds::{id, KindId};

/// Kinds whose `status` is written only through `/status` (a main-resource write keeps it).
pub fn has_status_subresource(kind: KindId) -> bool {
    matches!(
        kind,
        id::POD
            | id::DEPLOYMENT
            | id::REPLICASET
            | id::STATEFULSET
            | id::DAEMONSET
            | id::JOB
            | id::CRONJOB
            | id::SERVICE
            | id::NODE
            | id::NAMESPACE
            | id::PVC
            | id::PV
            | id::HPA
            | id::INGRESS
            | id::CRD
            | id::GIZMO
            | id::PDB
    )
}

/// Kinds whose `metadata.generation` counts spec changes.
pub fn has_generation(kind: KindId) -> bool {
    matches!(
        kind,
        id::POD
            | id::DEPLOYMENT
            | id::REPLICASET
            | id::STATEFULSET
            | id::DAEMONSET
            | id::JOB
            | id::CRONJOB
            | id::HPA
            | id::INGRESS
            | id::CRD
            | id::GIZMO
            | id::PDB
    )
}

/// Five characters of the alphabet generated names use (`web-7d4f9c-x2k8q`).
pub fn random_suffix() -> String {
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let mut rng = rand::rng();
    (0..5)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

fn default(v: &mut Value, key: &str, d: Value) {
    if v.get(key).is_none_or(Value::is_null) {
        v[key] = d;
    }
}

fn pod_spec_defaults(spec: &mut Value) {
    if !spec.is_object() {
        return;
    }
    default(spec, "restartPolicy", json!("Always"));
    default(spec, "terminationGracePeriodSeconds", json!(30));
    default(spec, "dnsPolicy", json!("ClusterFirst"));
    default(spec, "schedulerName", json!("default-scheduler"));
    default(spec, "securityContext", json!({}));
    if let Some(cs) = spec.get_mut("containers").and_then(Value::as_array_mut) {
        for c in cs {
            default(c, "terminationMessagePath", json!("/dev/termination-log"));
            default(c, "terminationMessagePolicy", json!("File"));
            let latest = c["image"]
                .as_str()
                .is_some_and(|i| !i.contains(':') || i.ends_with(":latest"));
            default(
                c,
                "imagePullPolicy",
                json!(if latest { "Always" } else { "IfNotPresent" }),
            );
            default(c, "resources", json!({}));
        }
    }
}

/// Defaults and status reset of a create, as the kind's strategy does before validation.
pub fn prepare_create(kind: KindId, obj: &mut Value) {
    if has_generation(kind) {
        obj["metadata"]["generation"] = json!(1);
    }
    for f in [
        "uid",
        "resourceVersion",
        "creationTimestamp",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
    ] {
        if let Some(m) = obj["metadata"].as_object_mut() {
            m.remove(f);
        }
    }
    match kind {
        id::POD => {
            pod_spec_defaults(&mut obj["spec"]);
            obj["status"] = json!({"phase": "Pending", "qosClass": "BestEffort"});
        }
        id::DEPLOYMENT => {
            let s = &mut obj["spec"];
            default(s, "replicas", json!(1));
            default(s, "revisionHistoryLimit", json!(10));
            default(s, "progressDeadlineSeconds", json!(600));
            default(
                s,
                "strategy",
                json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}}),
            );
            pod_spec_defaults(&mut s["template"]["spec"]);
            obj["status"] = json!({});
        }
        id::REPLICASET | id::STATEFULSET | id::DAEMONSET => {
            let s = &mut obj["spec"];
            if kind != id::DAEMONSET {
                default(s, "replicas", json!(1));
            }
            if kind == id::STATEFULSET {
                default(s, "podManagementPolicy", json!("OrderedReady"));
                default(
                    s,
                    "updateStrategy",
                    json!({"type": "RollingUpdate", "rollingUpdate": {"partition": 0}}),
                );
            }
            if kind == id::DAEMONSET {
                default(
                    s,
                    "updateStrategy",
                    json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 0}}),
                );
            }
            pod_spec_defaults(&mut s["template"]["spec"]);
            obj["status"] = json!({});
        }
        id::JOB => job_defaults(obj),
        id::CRONJOB => {
            let s = &mut obj["spec"];
            default(s, "suspend", json!(false));
            default(s, "concurrencyPolicy", json!("Allow"));
            default(s, "successfulJobsHistoryLimit", json!(3));
            default(s, "failedJobsHistoryLimit", json!(1));
            obj["status"] = json!({});
        }
        id::PDB => {
            obj["status"] =
                json!({"disruptionsAllowed": 0, "currentHealthy": 0, "desiredHealthy": 0, "expectedPods": 0})
        }
        _ => {}
    }
}

/// A Job's defaults: the `controller-uid` selector and labels the job strategy adds (the uid
/// is filled in by the job controller's first look, since the store assigns it), counts and
/// policies.
fn job_defaults(obj: &mut Value) {
    let name = obj["metadata"]["name"].as_str().unwrap_or("").to_owned();
    let s = &mut obj["spec"];
    default(s, "parallelism", json!(1));
    default(s, "completions", json!(1));
    default(s, "backoffLimit", json!(6));
    default(s, "completionMode", json!("NonIndexed"));
    default(s, "suspend", json!(false));
    default(s, "podReplacementPolicy", json!("TerminatingOrFailed"));
    if s.get("selector").is_none_or(Value::is_null) {
        s["selector"] = json!({"matchLabels": {"batch.kubernetes.io/job-name": name}});
        let labels = &mut s["template"]["metadata"]["labels"];
        if !labels.is_object() {
            *labels = json!({});
        }
        labels["batch.kubernetes.io/job-name"] = json!(name);
        labels["job-name"] = json!(name);
    }
    default(&mut s["template"]["spec"], "restartPolicy", json!("Never"));
    pod_spec_defaults(&mut s["template"]["spec"]);
    obj["status"] = json!({});
}

const SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

fn subdomain(s: &str) -> bool {
    s.len() <= 253
        && s.split('.').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !part.starts_with('-')
                && !part.ends_with('-')
        })
}

fn labels_match(selector: &Value, labels: &Value) -> bool {
    selector["matchLabels"]
        .as_object()
        .is_none_or(|m| m.iter().all(|(k, v)| labels.get(k) == Some(v)))
}

/// Field errors of `obj` as (field path, message) pairs; empty = valid.
pub fn validate(kind: KindId, obj: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let name = obj["metadata"]["name"].as_str().unwrap_or("");
    if name.is_empty() {
        out.push((
            "metadata.name".into(),
            "Required value: name or generateName is required".into(),
        ));
    } else if kind != id::EVENT && !subdomain(name) {
        out.push((
            "metadata.name".into(),
            format!("Invalid value: \"{name}\": {SUBDOMAIN_MSG}"),
        ));
    }
    let spec = &obj["spec"];
    if matches!(kind, id::DEPLOYMENT | id::REPLICASET | id::STATEFULSET) {
        if let Some(r) = spec["replicas"].as_i64().filter(|r| *r < 0) {
            out.push((
                "spec.replicas".into(),
                format!("Invalid value: {r}: must be greater than or equal to 0"),
            ));
        }
    }
    if matches!(
        kind,
        id::DEPLOYMENT | id::REPLICASET | id::STATEFULSET | id::DAEMONSET
    ) {
        let labels = &spec["template"]["metadata"]["labels"];
        if spec["selector"].is_null() {
            out.push(("spec.selector".into(), "Required value".into()));
        } else if !labels_match(&spec["selector"], labels) {
            out.push((
                "spec.template.metadata.labels".into(),
                format!("Invalid value: {labels}: `selector` does not match template `labels`"),
            ));
        }
    }
    let pod_spec = match kind {
        id::POD => Some(("spec", spec)),
        id::DEPLOYMENT | id::REPLICASET | id::STATEFULSET | id::DAEMONSET | id::JOB => {
            Some(("spec.template.spec", &spec["template"]["spec"]))
        }
        _ => None,
    };
    if let Some((path, ps)) = pod_spec {
        match ps["containers"].as_array() {
            Some(cs) if !cs.is_empty() => {
                for (i, c) in cs.iter().enumerate() {
                    if c["name"].as_str().unwrap_or("").is_empty() {
                        out.push((format!("{path}.containers[{i}].name"), "Required value".into()));
                    }
                    if c["image"].as_str().unwrap_or("").is_empty() {
                        out.push((format!("{path}.containers[{i}].image"), "Required value".into()));
                    }
                }
            }
            _ => out.push((format!("{path}.containers"), "Required value".into())),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_validation_follow_the_strategies() {
        let mut d = json!({"metadata": {"name": "web"}, "spec": {"selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "web", "image": "nginx"}]}}}});
        prepare_create(id::DEPLOYMENT, &mut d);
        assert_eq!(
            (d["spec"]["replicas"].clone(), d["metadata"]["generation"].clone()),
            (json!(1), json!(1))
        );
        assert_eq!(
            d["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"],
            "Always"
        );
        assert!(validate(id::DEPLOYMENT, &d).is_empty());
        d["spec"]["replicas"] = json!(-1);
        d["spec"]["template"]["metadata"]["labels"]["app"] = json!("other");
        let v = validate(id::DEPLOYMENT, &d);
        assert_eq!(
            v[0],
            (
                "spec.replicas".into(),
                "Invalid value: -1: must be greater than or equal to 0".into()
            )
        );
        assert_eq!(v[1].0, "spec.template.metadata.labels");
        let bad = json!({"metadata": {"name": "Bad_Name"}, "spec": {"containers": [{"name": "c"}]}});
        let v = validate(id::POD, &bad);
        assert!(v[0]
            .1
            .starts_with("Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain"));
        assert_eq!(v[1], ("spec.containers[0].image".into(), "Required value".into()));
    }
}
