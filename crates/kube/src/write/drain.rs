//! Drain of a node, as `kubectl drain`: cordon, list the node's pods, refuse (before
//! evicting anything) pods kubectl would refuse — DaemonSet pods unless ignored, pods with
//! emptyDir data unless its deletion is allowed, pods no controller manages unless forced —
//! skip mirror pods, then evict the rest through the Eviction API, retrying those a
//! PodDisruptionBudget protects until the deadline. Every step is reported as a
//! [`DrainEvent`] while it happens. Owns that sequence; must not draw, and stops when its
//! task is aborted (cancel).

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::Value;
use tokio::sync::mpsc::UnboundedSender;

use super::evict::{evict, Evicted};
use super::{cordon, encode, get, Target, WriteError};
use crate::builtin::BuiltinKind;

/// What the drain dialog chooses (`kubectl drain` flags).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrainOptions {
    /// `--ignore-daemonsets`: leave DaemonSet pods (their controller would recreate them).
    pub ignore_daemonsets: bool,
    /// `--delete-emptydir-data`: evict pods with emptyDir volumes (their data is lost).
    pub delete_emptydir: bool,
    /// `--force`: evict pods no controller manages (they are not recreated).
    pub force: bool,
    /// `--grace-period`: the pods' grace period on eviction; `None` keeps theirs.
    pub grace_seconds: Option<u32>,
    /// `--timeout`: give up on pods still refused after this long.
    pub timeout: Duration,
}

impl Default for DrainOptions {
    fn default() -> Self {
        DrainOptions {
            ignore_daemonsets: true,
            delete_emptydir: false,
            force: false,
            grace_seconds: None,
            timeout: Duration::from_secs(120),
        }
    }
}

/// One step of a drain, sent as it happens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DrainEvent {
    /// The node is unschedulable now.
    Cordoned,
    /// Pods left where they are, with why (`DaemonSet`, `mirror pod`).
    Skipped { pod: String, why: String },
    /// Pods kubectl would refuse to evict with these options, with why; nothing is evicted.
    Blocked { pod: String, why: String },
    /// The pods to evict (`namespace/name`).
    Plan(Vec<String>),
    /// The server accepted the eviction of `pod`.
    Evicted(String),
    /// A PodDisruptionBudget refused the eviction of `pod` for now (the server's message);
    /// it is tried again.
    Refused { pod: String, message: String },
    /// A request failed (the server's message); the drain stops.
    Failed(String),
    /// The deadline passed with these pods not evicted.
    TimedOut(Vec<String>),
    /// Every pod of the plan was evicted (or was gone already).
    Done(usize),
}

/// How long to wait before asking again for a pod a budget protects.
pub const RETRY: Duration = Duration::from_secs(5);

/// Why `pod` must stay or be refused under `opts`: `Ok(None)` evict, `Ok(Some(why))` skip,
/// `Err(why)` block.
pub fn classify(pod: &Value, opts: &DrainOptions) -> Result<Option<String>, String> {
    let meta = &pod["metadata"];
    if meta["annotations"]["kubernetes.io/config.mirror"].is_string() {
        return Ok(Some("mirror pod".into()));
    }
    let phase = pod.pointer("/status/phase").and_then(Value::as_str).unwrap_or("");
    let finished = phase == "Succeeded" || phase == "Failed";
    let controller = meta["ownerReferences"]
        .as_array()
        .and_then(|refs| refs.iter().find(|r| r["controller"].as_bool() == Some(true)));
    if controller.is_some_and(|c| c["kind"] == "DaemonSet") {
        return if opts.ignore_daemonsets {
            Ok(Some("DaemonSet-managed".into()))
        } else {
            Err("DaemonSet-managed (choose ignore DaemonSets)".into())
        };
    }
    if finished {
        return Ok(None);
    }
    let empty_dir = pod
        .pointer("/spec/volumes")
        .and_then(Value::as_array)
        .is_some_and(|vs| vs.iter().any(|v| v.get("emptyDir").is_some()));
    if empty_dir && !opts.delete_emptydir {
        return Err("has emptyDir data (choose delete emptyDir data)".into());
    }
    if controller.is_none() && !opts.force {
        return Err("not managed by a controller (choose force)".into());
    }
    Ok(None)
}

/// Drains `node` under `opts`, reporting to `events`; returns when done, refused, failed or
/// out of time (each also reported).
pub async fn drain(
    client: kube::Client,
    node: Target,
    opts: DrainOptions,
    events: UnboundedSender<DrainEvent>,
) {
    let say = |e: DrainEvent| {
        let _ = events.send(e);
    };
    if let Err(e) = run(&client, &node, &opts, &say).await {
        say(DrainEvent::Failed(e.message));
    }
}

async fn run(
    client: &kube::Client,
    node: &Target,
    opts: &DrainOptions,
    say: &impl Fn(DrainEvent),
) -> Result<(), WriteError> {
    let deadline = tokio::time::Instant::now() + opts.timeout;
    cordon::set_unschedulable(client, node, true).await?;
    say(DrainEvent::Cordoned);
    let selector = encode(&format!("spec.nodeName={}", node.name));
    let list = get(
        client,
        &format!("{}?fieldSelector={selector}", BuiltinKind::Pod.url_path(None)),
    )
    .await?;
    let mut plan: BTreeMap<String, Target> = BTreeMap::new();
    let mut blocked = false;
    for pod in list["items"].as_array().map(Vec::as_slice).unwrap_or_default() {
        let ns = pod["metadata"]["namespace"].as_str().unwrap_or_default();
        let name = pod["metadata"]["name"].as_str().unwrap_or_default();
        let id = format!("{ns}/{name}");
        match classify(pod, opts) {
            Ok(None) => {
                plan.insert(id, Target::new(BuiltinKind::Pod.into(), Some(ns), name));
            }
            Ok(Some(why)) => say(DrainEvent::Skipped { pod: id, why }),
            Err(why) => {
                blocked = true;
                say(DrainEvent::Blocked { pod: id, why });
            }
        }
    }
    if blocked {
        return Err(WriteError::local(
            "some pods cannot be evicted with these options; nothing was evicted",
        ));
    }
    say(DrainEvent::Plan(plan.keys().cloned().collect()));
    let total = plan.len();
    loop {
        let mut refused = BTreeMap::new();
        for (id, pod) in std::mem::take(&mut plan) {
            match evict(client, &pod, opts.grace_seconds).await? {
                Evicted::Yes | Evicted::Gone => say(DrainEvent::Evicted(id)),
                Evicted::Refused(message) => {
                    say(DrainEvent::Refused {
                        pod: id.clone(),
                        message,
                    });
                    refused.insert(id, pod);
                }
            }
        }
        if refused.is_empty() {
            say(DrainEvent::Done(total));
            return Ok(());
        }
        if tokio::time::Instant::now() + RETRY > deadline {
            say(DrainEvent::TimedOut(refused.into_keys().collect()));
            return Ok(());
        }
        tokio::time::sleep(RETRY).await;
        plan = refused;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod(owner: Option<&str>, empty_dir: bool) -> Value {
        let refs = owner.map_or(
            json!([]),
            |k| json!([{"kind": k, "controller": true, "name": "o", "uid": "u"}]),
        );
        let vols = if empty_dir {
            json!([{"name": "tmp", "emptyDir": {}}])
        } else {
            json!([])
        };
        json!({"metadata": {"ownerReferences": refs}, "spec": {"volumes": vols}, "status": {"phase": "Running"}})
    }

    #[test]
    fn classifies_as_kubectl_drain() {
        let o = DrainOptions::default();
        assert_eq!(classify(&pod(Some("ReplicaSet"), false), &o), Ok(None));
        assert_eq!(
            classify(&pod(Some("DaemonSet"), false), &o),
            Ok(Some("DaemonSet-managed".into()))
        );
        let strict = DrainOptions {
            ignore_daemonsets: false,
            ..o
        };
        assert!(classify(&pod(Some("DaemonSet"), false), &strict).is_err());
        assert!(classify(&pod(Some("ReplicaSet"), true), &o).is_err());
        let lax = DrainOptions {
            delete_emptydir: true,
            force: true,
            ..o
        };
        assert_eq!(classify(&pod(Some("ReplicaSet"), true), &lax), Ok(None));
        assert!(classify(&pod(None, false), &o).is_err());
        assert_eq!(classify(&pod(None, false), &lax), Ok(None));
        let mirror = json!({"metadata": {"annotations": {"kubernetes.io/config.mirror": "x"}}});
        assert_eq!(classify(&mirror, &o), Ok(Some("mirror pod".into())));
    }
}
