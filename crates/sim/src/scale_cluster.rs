//! Cluster-scale load up to the limits Kubernetes documents (150,000 pods, 5,000 nodes):
//! `--nodes N` adds N load nodes (`load-node-NNNNN`, one in 50 NotReady, one in 100 cordoned)
//! beside the demo's own, and `--events M` adds M core/v1 events about load pods in
//! `events-NN` namespaces (2,000 per namespace, old-style `count`/`lastTimestamp`, one in
//! eight a Warning, spread over the last hour). Static: the churn of `--churn` does not touch
//! them. Writes only through the store's API.

use serde_json::json;

use super::kinds::id;
use super::objects as o;
use super::store::{Store, StoreError};

/// Events per `events-NN` namespace.
const PER_NAMESPACE: usize = 2_000;

/// Reasons and messages of load events, (type, reason, message).
const KINDS: [(&str, &str, &str); 8] = [
    ("Normal", "Scheduled", "Successfully assigned pod to node"),
    (
        "Normal",
        "Pulled",
        "Container image \"nginx:1.27\" already present on machine",
    ),
    ("Normal", "Created", "Created container app"),
    ("Normal", "Started", "Started container app"),
    ("Warning", "BackOff", "Back-off restarting failed container app"),
    ("Normal", "Killing", "Stopping container app"),
    ("Normal", "SuccessfulCreate", "Created pod"),
    ("Normal", "ScalingReplicaSet", "Scaled up replica set"),
];

/// Adds `nodes` load nodes and `events` load events to `store`.
pub fn populate(store: &Store, nodes: usize, events: usize) -> Result<(), StoreError> {
    for i in 0..nodes {
        let name = format!("load-node-{i:05}");
        let ip = format!("10.{}.{}.{}", 64 + i / 65_536, (i / 256) % 256, i % 256);
        let arch = if i % 4 == 3 { "arm64" } else { "amd64" };
        store.apply(
            id::NODE,
            o::node(&name, &["worker"], &ip, i % 50 != 49, i % 100 == 7, arch),
        )?;
    }
    let now = jiff::Timestamp::now().as_second();
    for ns in 0..events.div_ceil(PER_NAMESPACE) {
        store.apply(id::NAMESPACE, o::namespace(&format!("events-{ns:02}")))?;
    }
    for i in 0..events {
        let ns = format!("events-{:02}", i / PER_NAMESPACE);
        let (ty, reason, message) = KINDS[i % KINDS.len()];
        let pod = format!("load-{:06}", i / 4);
        let last = now - (i as i64 * 3_600 / events.max(1) as i64);
        let first = last - (i % 300) as i64;
        let stamp = |t: i64| {
            jiff::Timestamp::from_second(t)
                .map(|t| t.to_string())
                .unwrap_or_default()
        };
        store.apply(
            id::EVENT,
            json!({"apiVersion": "v1", "kind": "Event",
                "metadata": {"namespace": ns, "name": format!("{pod}.{i:x}")},
                "involvedObject": {"kind": "Pod", "namespace": ns, "name": pod, "apiVersion": "v1"},
                "reason": reason, "message": message, "type": ty,
                "source": {"component": "kubelet", "host": format!("load-node-{:05}", i % 5_000)},
                "firstTimestamp": stamp(first), "lastTimestamp": stamp(last),
                "count": 1 + (i % 7), "eventTime": null,
                "reportingComponent": "kubelet", "reportingInstance": ""}),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::store::StoreConfig;
    use super::*;

    #[test]
    fn adds_the_asked_nodes_and_events_with_their_namespaces() {
        let s = Store::new(StoreConfig::default());
        populate(&s, 120, 4_001).unwrap();
        assert_eq!(s.len(id::NODE), 120);
        assert_eq!(s.len(id::EVENT), 4_001);
        assert_eq!(s.len(id::NAMESPACE), 3, "events-00..events-02");
    }
}
