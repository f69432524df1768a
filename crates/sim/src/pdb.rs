//! PodDisruptionBudget arithmetic shared by the eviction subresource and the disruption
//! controller: which budgets cover a pod, and a budget's expected, healthy and desired pod
//! counts and the disruptions it allows (as kube-controller-manager's disruption controller
//! computes them: `minAvailable` as a count or a percentage of the expected pods,
//! `maxUnavailable` against the owning controllers' replicas). Reads the store; writes only
//! a budget's status.

use serde_json::{json, Value};

use super::kinds::{id, KindId};
use super::labels::{controller_of, selector_matches};
use super::store::{now_rfc3339, Store, StoreError, Stored};

/// A budget's counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Budget {
    /// `status.expectedPods`.
    pub expected: i64,
    /// `status.currentHealthy`: matching pods Ready and not terminating.
    pub current_healthy: i64,
    /// `status.desiredHealthy`.
    pub desired_healthy: i64,
    /// `status.disruptionsAllowed` (never negative).
    pub allowed: i64,
}

fn objects(store: &Store, kind: KindId, ns: &str) -> Vec<Value> {
    let filter = super::matching::Filter {
        namespace: Some(ns.to_owned()),
        ..Default::default()
    };
    store
        .list(kind, &filter, 0, None, None)
        .items
        .iter()
        .filter_map(|b| serde_json::from_slice(b).ok())
        .collect()
}

/// The budgets in the pod's namespace whose selector matches the pod's labels.
pub fn covering(store: &Store, pod: &Value) -> Vec<Value> {
    let ns = pod["metadata"]["namespace"].as_str().unwrap_or("");
    objects(store, id::PDB, ns)
        .into_iter()
        .filter(|b| selector_matches(&b["spec"]["selector"], &pod["metadata"]["labels"]))
        .collect()
}

fn ready(pod: &Value) -> bool {
    pod["metadata"]["deletionTimestamp"].is_null()
        && pod["status"]["conditions"]
            .as_array()
            .is_some_and(|cs| cs.iter().any(|c| c["type"] == "Ready" && c["status"] == "True"))
}

/// `n` (an int) or `p%` of `of`, rounded up, as intstr.GetScaledValueFromIntOrPercent.
fn scaled(v: &Value, of: i64) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => {
            let p: i64 = s.strip_suffix('%')?.parse().ok()?;
            Some((p * of + 99) / 100)
        }
        _ => None,
    }
}

/// The replicas the controllers of `pods` want (a ReplicaSet owned by a Deployment counts
/// the Deployment's).
fn controllers_scale(store: &Store, ns: &str, pods: &[Value]) -> i64 {
    let mut seen = Vec::new();
    let mut total = 0;
    for p in pods {
        let Some(c) = controller_of(p) else { continue };
        let (kind, name) = (c["kind"].as_str().unwrap_or(""), c["name"].as_str().unwrap_or(""));
        let key = format!("{kind}/{name}");
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        let k = match kind {
            "ReplicaSet" => id::REPLICASET,
            "StatefulSet" => id::STATEFULSET,
            "Job" => id::JOB,
            _ => continue,
        };
        let Some(s) = store.get(k, ns, name) else { continue };
        let v: Value = serde_json::from_slice(&s.bytes).unwrap_or(Value::Null);
        let dep = controller_of(&v)
            .filter(|o| o["kind"] == "Deployment")
            .and_then(|o| store.get(id::DEPLOYMENT, ns, o["name"].as_str().unwrap_or("")))
            .and_then(|d| serde_json::from_slice::<Value>(&d.bytes).ok());
        let src = dep.as_ref().unwrap_or(&v);
        total += src["spec"]["replicas"]
            .as_i64()
            .or(src["spec"]["parallelism"].as_i64())
            .unwrap_or(1);
    }
    total
}

/// The counts of budget `b` now.
pub fn budget(store: &Store, b: &Value) -> Budget {
    let ns = b["metadata"]["namespace"].as_str().unwrap_or("");
    let pods: Vec<Value> = objects(store, id::POD, ns)
        .into_iter()
        .filter(|p| selector_matches(&b["spec"]["selector"], &p["metadata"]["labels"]))
        .collect();
    let healthy = pods.iter().filter(|p| ready(p)).count() as i64;
    let spec = &b["spec"];
    let (expected, desired) = match (&spec["minAvailable"], &spec["maxUnavailable"]) {
        (Value::Number(n), _) => (pods.len() as i64, n.as_i64().unwrap_or(0)),
        (min @ Value::String(_), _) => {
            let e = controllers_scale(store, ns, &pods);
            (e, scaled(min, e).unwrap_or(0))
        }
        (_, max) if !max.is_null() => {
            let e = controllers_scale(store, ns, &pods);
            (e, (e - scaled(max, e).unwrap_or(0)).max(0))
        }
        _ => (pods.len() as i64, 0),
    };
    Budget {
        expected,
        current_healthy: healthy,
        desired_healthy: desired,
        allowed: (healthy - desired).max(0),
    }
}

/// The status the disruption controller writes for `b`.
pub fn status(b: &Value, n: &Budget) -> Value {
    let mut st = b["status"].clone();
    if !st.is_object() {
        st = json!({});
    }
    st["expectedPods"] = json!(n.expected);
    st["currentHealthy"] = json!(n.current_healthy);
    st["desiredHealthy"] = json!(n.desired_healthy);
    st["disruptionsAllowed"] = json!(n.allowed);
    st["observedGeneration"] = b["metadata"]["generation"].clone();
    let (s, reason, msg) = if n.allowed > 0 {
        ("True", "SufficientPods", "")
    } else {
        ("False", "InsufficientPods", "")
    };
    let prev = st["conditions"][0].clone();
    let since = if prev["status"] == s {
        prev["lastTransitionTime"].clone()
    } else {
        json!(now_rfc3339())
    };
    st["conditions"] = json!([{"type": "DisruptionAllowed", "status": s, "reason": reason, "message": msg,
        "observedGeneration": b["metadata"]["generation"], "lastTransitionTime": since}]);
    st
}

/// Records an allowed eviction in the budget's status (`disruptionsAllowed` - 1, the pod in
/// `disruptedPods`), as the eviction subresource does before deleting.
pub fn record_disruption(store: &Store, b: &Value, pod: &str) {
    let ns = b["metadata"]["namespace"].as_str().unwrap_or("");
    let name = b["metadata"]["name"].as_str().unwrap_or("");
    let _ = store.update(
        id::PDB,
        ns,
        name,
        |_: &Stored, v: &mut Value| -> Result<(), StoreError> {
            let allowed = v["status"]["disruptionsAllowed"].as_i64().unwrap_or(0);
            v["status"]["disruptionsAllowed"] = json!((allowed - 1).max(0));
            if !v["status"]["disruptedPods"].is_object() {
                v["status"]["disruptedPods"] = json!({});
            }
            v["status"]["disruptedPods"][pod] = json!(now_rfc3339());
            Ok(())
        },
    );
}
