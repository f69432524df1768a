//! The demo cluster's event recorder: writes core/v1 Events in both styles a real cluster
//! has (legacy `count`/`lastTimestamp` from the kubelet and controllers, new
//! `eventTime`/`series` from the scheduler and newer writers), aggregating repeats into one
//! object and bounding how many exist. Writes only through the store's API.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use serde_json::{json, Value};

use super::kinds::id;
use super::pods::fxhash;
use super::store::Store;

/// The object an event is about.
#[derive(Debug, Clone)]
pub struct Involved {
    pub kind: String,
    pub api_version: String,
    pub namespace: String,
    pub name: String,
    pub uid: String,
    /// `spec.containers{name}` for container events.
    pub field_path: Option<String>,
}

/// Who writes the event, which decides its style.
#[derive(Debug, Clone)]
pub enum Source {
    /// Legacy writer (`source.component`/`host`, `count`, `first/lastTimestamp`).
    Legacy { component: &'static str, host: String },
    /// events.k8s.io writer (`eventTime`, `series`, `reportingComponent`, `action`).
    Series {
        controller: &'static str,
        instance: String,
        action: &'static str,
    },
}

struct Recorded {
    name: String,
    namespace: String,
    first: String,
    count: u32,
}

/// Aggregating, bounded event writer.
pub struct Recorder {
    store: Arc<Store>,
    seen: HashMap<(String, String, String, String), Recorded>,
    order: VecDeque<(String, String, String, String)>,
    max: usize,
    seq: u64,
}

/// Current time as a MicroTime (`2026-01-01T00:00:00.000000Z`).
pub fn now_micro() -> String {
    jiff::Timestamp::now()
        .strftime("%Y-%m-%dT%H:%M:%S.%6fZ")
        .to_string()
}

impl Recorder {
    /// A recorder keeping at most `max` event objects.
    pub fn new(store: Arc<Store>, max: usize) -> Recorder {
        Recorder {
            store,
            seen: HashMap::new(),
            order: VecDeque::new(),
            max,
            seq: 0,
        }
    }

    /// Records `reason` about `obj`: a new Event, or the repeat of one (count/series + 1).
    pub fn record(
        &mut self,
        obj: &Involved,
        ty: &str,
        reason: &str,
        message: &str,
        source: &Source,
        now: &str,
    ) {
        let ns = if obj.namespace.is_empty() {
            "default".to_owned()
        } else {
            obj.namespace.clone()
        };
        let key = (ns.clone(), obj.kind.clone(), obj.name.clone(), reason.to_owned());
        let (name, first, count) = match self.seen.get_mut(&key) {
            Some(r) => {
                r.count += 1;
                (r.name.clone(), r.first.clone(), r.count)
            }
            None => {
                self.seq += 1;
                let name = format!("{}.{:016x}", obj.name, fxhash(&format!("{reason}{}", self.seq)));
                let first = match source {
                    Source::Legacy { .. } => now.to_owned(),
                    Source::Series { .. } => now_micro(),
                };
                self.seen.insert(
                    key.clone(),
                    Recorded {
                        name: name.clone(),
                        namespace: ns.clone(),
                        first: first.clone(),
                        count: 1,
                    },
                );
                self.order.push_back(key);
                (name, first, 1)
            }
        };
        let ev = event_json(&ns, &name, obj, ty, reason, message, source, &first, count, now);
        if let Err(e) = self.store.apply(id::EVENT, ev) {
            tracing::warn!(error = %e, "demo scenario: event not written");
        }
        while self.order.len() > self.max {
            if let Some(old) = self.order.pop_front() {
                if let Some(r) = self.seen.remove(&old) {
                    let _ = self.store.delete(id::EVENT, &r.namespace, &r.name);
                }
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn event_json(
    ns: &str,
    name: &str,
    obj: &Involved,
    ty: &str,
    reason: &str,
    message: &str,
    source: &Source,
    first: &str,
    count: u32,
    now: &str,
) -> Value {
    let mut involved = json!({"kind": obj.kind, "namespace": obj.namespace, "name": obj.name, "uid": obj.uid, "apiVersion": obj.api_version});
    if obj.namespace.is_empty() {
        involved.as_object_mut().map(|m| m.remove("namespace"));
    }
    if let Some(fp) = &obj.field_path {
        involved["fieldPath"] = json!(fp);
    }
    let mut ev = json!({"apiVersion": "v1", "kind": "Event", "metadata": {"namespace": ns, "name": name},
        "involvedObject": involved, "reason": reason, "message": message, "type": ty});
    match source {
        Source::Legacy { component, host } => {
            ev["source"] = if host.is_empty() {
                json!({"component": component})
            } else {
                json!({"component": component, "host": host})
            };
            ev["firstTimestamp"] = json!(first);
            ev["lastTimestamp"] = json!(now);
            ev["count"] = json!(count);
            ev["eventTime"] = Value::Null;
            ev["reportingComponent"] = json!(component);
            ev["reportingInstance"] = json!(host);
        }
        Source::Series {
            controller,
            instance,
            action,
        } => {
            ev["source"] = json!({});
            ev["firstTimestamp"] = Value::Null;
            ev["lastTimestamp"] = Value::Null;
            ev["eventTime"] = json!(first);
            ev["reportingComponent"] = json!(controller);
            ev["reportingInstance"] = json!(instance);
            ev["action"] = json!(action);
            if count > 1 {
                ev["series"] = json!({"count": count, "lastObservedTime": now_micro()});
            }
        }
    }
    ev
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::StoreConfig;

    fn involved() -> Involved {
        Involved {
            kind: "Pod".into(),
            api_version: "v1".into(),
            namespace: "shop".into(),
            name: "web-1".into(),
            uid: "u1".into(),
            field_path: Some("spec.containers{web}".into()),
        }
    }

    #[test]
    fn repeats_aggregate_in_both_styles_and_the_count_is_bounded() {
        let store = Store::new(StoreConfig::default());
        let mut r = Recorder::new(store.clone(), 2);
        let legacy = Source::Legacy {
            component: "kubelet",
            host: "worker-1".into(),
        };
        let series = Source::Series {
            controller: "default-scheduler",
            instance: "sched-1".into(),
            action: "Binding",
        };
        for _ in 0..3 {
            r.record(
                &involved(),
                "Warning",
                "BackOff",
                "Back-off restarting failed container",
                &legacy,
                "2026-01-01T00:00:00Z",
            );
        }
        r.record(
            &involved(),
            "Normal",
            "Scheduled",
            "Successfully assigned shop/web-1",
            &series,
            "2026-01-01T00:00:00Z",
        );
        r.record(
            &involved(),
            "Normal",
            "Scheduled",
            "Successfully assigned shop/web-1",
            &series,
            "2026-01-01T00:00:00Z",
        );
        let page = store.list(id::EVENT, &Default::default(), 0, None, None);
        let evs: Vec<Value> = page
            .items
            .iter()
            .map(|b| serde_json::from_slice(b).unwrap())
            .collect();
        assert_eq!(evs.len(), 2);
        let backoff = evs.iter().find(|e| e["reason"] == "BackOff").unwrap();
        assert_eq!(
            (backoff["count"].as_u64(), backoff["eventTime"].is_null()),
            (Some(3), true)
        );
        let sched = evs.iter().find(|e| e["reason"] == "Scheduled").unwrap();
        assert_eq!(
            (
                sched["series"]["count"].as_u64(),
                sched["lastTimestamp"].is_null()
            ),
            (Some(2), true)
        );
        r.record(
            &involved(),
            "Normal",
            "Pulled",
            "pulled",
            &legacy,
            "2026-01-01T00:00:00Z",
        );
        assert_eq!(store.len(id::EVENT), 2, "the oldest event was evicted");
    }
}
