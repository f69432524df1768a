//! The slim decode types of `metrics.k8s.io/v1beta1` lists (PodMetricsList, NodeMetricsList:
//! only the fields ktui reads) and their reading into [`Item`]s: quantities parsed, names
//! sanitized, items that cannot be read set aside by name. Owns the wire format; must not
//! keep state between polls.

use std::sync::Arc;

use serde::Deserialize;

use super::quantity::{parse_bytes, parse_cpu_nanos, Usage};
use super::series::Sample;
use super::Target;
use crate::sanitize::sanitized_arc;

/// `PodMetricsList` / `NodeMetricsList`: only `items`, each read into an [`Item`] as soon as it
/// is decoded, so a list of 100,000 pods never holds its decoded items twice (about 45 MB at
/// 100,000 pods, kept by the allocator as RSS after the poll).
#[derive(Deserialize)]
#[serde(bound = "T: Listed")]
struct MetricsList<T> {
    #[serde(default)]
    items: Items<T>,
}

/// One list element type: how it names itself in a skip note and becomes an [`Item`].
trait Listed: for<'de> Deserialize<'de> {
    /// `podmetrics/ns/name`, `nodemetrics/name`.
    fn what(&self) -> String;
    /// The item, or why it cannot be read.
    fn item(&self) -> Result<Item, String>;
}

/// The items of a list, read one by one into [`Decoded`].
struct Items<T>(Decoded, std::marker::PhantomData<T>);

impl<T> Default for Items<T> {
    fn default() -> Self {
        Items(Decoded::default(), std::marker::PhantomData)
    }
}

impl<'de, T: Listed> Deserialize<'de> for Items<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit<T>(std::marker::PhantomData<T>);
        impl<'de, T: Listed> serde::de::Visitor<'de> for Visit<T> {
            type Value = Items<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of metrics items")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Items<T>, A::Error> {
                let mut out = Decoded::default();
                out.items.reserve(seq.size_hint().unwrap_or(0));
                while let Some(element) = seq.next_element::<T>()? {
                    match element.item() {
                        Ok(item) => out.items.push(item),
                        Err(why) => out
                            .skipped
                            .push(crate::failure::one_line(&format!("{}: {why}", element.what()))),
                    }
                }
                Ok(Items(out, std::marker::PhantomData))
            }
            fn visit_unit<E>(self) -> Result<Items<T>, E> {
                Ok(Items::default())
            }
        }
        d.deserialize_any(Visit(std::marker::PhantomData))
    }
}

impl Listed for PodMetrics {
    fn what(&self) -> String {
        format!(
            "podmetrics/{}/{}",
            self.metadata.namespace.as_deref().unwrap_or(""),
            self.metadata.name
        )
    }
    fn item(&self) -> Result<Item, String> {
        pod_item(self)
    }
}

impl Listed for NodeMetrics {
    fn what(&self) -> String {
        format!("nodemetrics/{}", self.metadata.name)
    }
    fn item(&self) -> Result<Item, String> {
        node_item(self)
    }
}

/// `PodMetrics`: `metadata`, `timestamp`, `window`, `containers`.
#[derive(Deserialize)]
struct PodMetrics {
    metadata: Meta,
    #[serde(default)]
    timestamp: String,
    #[serde(default)]
    window: String,
    #[serde(default)]
    containers: Vec<ContainerMetrics>,
}

/// `NodeMetrics`: `metadata`, `timestamp`, `window`, `usage`.
#[derive(Deserialize)]
struct NodeMetrics {
    metadata: Meta,
    #[serde(default)]
    timestamp: String,
    #[serde(default)]
    window: String,
    #[serde(default)]
    usage: ResourceUsage,
}

/// `metadata`: only `name` and `namespace`.
#[derive(Deserialize)]
struct Meta {
    #[serde(default)]
    name: String,
    #[serde(default)]
    namespace: Option<String>,
}

/// `containers[]` of a PodMetrics: `name` and `usage`.
#[derive(Deserialize)]
struct ContainerMetrics {
    #[serde(default)]
    name: String,
    #[serde(default)]
    usage: ResourceUsage,
}

/// A `usage` map: only `cpu` and `memory`, as quantities.
#[derive(Deserialize, Default)]
struct ResourceUsage {
    #[serde(default)]
    cpu: Option<String>,
    #[serde(default)]
    memory: Option<String>,
}

/// One object of a metrics list, read.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Item {
    /// `metadata.namespace` (pods), sanitized.
    pub namespace: Option<Arc<str>>,
    /// `metadata.name`, sanitized.
    pub name: Arc<str>,
    /// Its sample (a pod's usage summed over its containers).
    pub sample: Sample,
    /// A pod's `containers[]`: name (sanitized) and usage, in the server's order.
    pub containers: Vec<(Arc<str>, Usage)>,
}

/// A list, read: its items, and one `kind/ns/name: why` per item that could not be.
#[derive(Debug, Default)]
pub(super) struct Decoded {
    pub items: Vec<Item>,
    pub skipped: Vec<String>,
}

/// Reads a `target` list body (JSON). `Err` (one line) when the body is not such a list.
pub(super) fn decode(body: &[u8], target: Target) -> Result<Decoded, String> {
    let list = match target {
        Target::Pods => serde_json::from_slice::<MetricsList<PodMetrics>>(body).map(|l| l.items.0),
        Target::Nodes => serde_json::from_slice::<MetricsList<NodeMetrics>>(body).map(|l| l.items.0),
    };
    list.map_err(|e| e.to_string())
}

fn pod_item(p: &PodMetrics) -> Result<Item, String> {
    let (timestamp, window_ms) = when(&p.timestamp, &p.window)?;
    let namespace = p.metadata.namespace.as_deref().filter(|n| !n.is_empty());
    if namespace.is_none() {
        return Err("no metadata.namespace".into());
    }
    let containers = p
        .containers
        .iter()
        .map(|c| Ok((sanitized_arc(&c.name), usage(&c.usage)?)))
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Item {
        namespace: namespace.map(sanitized_arc),
        name: name(&p.metadata.name)?,
        sample: Sample {
            timestamp,
            window_ms,
            usage: containers.iter().map(|(_, u)| *u).sum(),
        },
        containers,
    })
}

fn node_item(n: &NodeMetrics) -> Result<Item, String> {
    let (timestamp, window_ms) = when(&n.timestamp, &n.window)?;
    Ok(Item {
        namespace: None,
        name: name(&n.metadata.name)?,
        sample: Sample {
            timestamp,
            window_ms,
            usage: usage(&n.usage)?,
        },
        containers: Vec::new(),
    })
}

fn name(s: &str) -> Result<Arc<str>, String> {
    if s.is_empty() {
        return Err("no metadata.name".into());
    }
    Ok(sanitized_arc(s))
}

/// `timestamp` (RFC 3339) as Unix seconds and `window` (a Go duration) in milliseconds; a
/// missing window is 0 (unknown).
fn when(timestamp: &str, window: &str) -> Result<(i64, u32), String> {
    let ts: jiff::Timestamp = timestamp
        .parse()
        .map_err(|_| format!("timestamp {timestamp:?} is not RFC 3339"))?;
    let window_ms = if window.is_empty() {
        0
    } else {
        go_duration_ms(window).ok_or_else(|| format!("window {window:?} is not a duration"))?
    };
    Ok((ts.as_second(), window_ms))
}

fn usage(u: &ResourceUsage) -> Result<Usage, String> {
    let cpu = u.cpu.as_deref().ok_or("no usage.cpu")?;
    let memory = u.memory.as_deref().ok_or("no usage.memory")?;
    Ok(Usage {
        cpu_nanos: parse_cpu_nanos(cpu).ok_or_else(|| format!("usage.cpu {cpu:?} is not a quantity"))?,
        memory_bytes: parse_bytes(memory)
            .ok_or_else(|| format!("usage.memory {memory:?} is not a quantity"))?,
    })
}

/// A Go duration as `metav1.Duration` prints it (`15s`, `1m0s`, `10.5s`, `500ms`, `1h2m3s`)
/// in whole milliseconds (rounded down); `None` when it is not one or past `u32::MAX` ms.
pub(super) fn go_duration_ms(s: &str) -> Option<u32> {
    if s == "0" {
        return Some(0);
    }
    let mut rest = s;
    let mut total_ns: f64 = 0.0;
    if rest.is_empty() {
        return None;
    }
    while !rest.is_empty() {
        let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
        let (number, tail) = rest.split_at(end);
        if number.is_empty() || number == "." || number.matches('.').count() > 1 {
            return None;
        }
        let value: f64 = number.parse().ok()?;
        let unit_end = tail
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(tail.len());
        let (unit, next) = tail.split_at(unit_end);
        let scale = match unit {
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            _ => return None,
        };
        total_ns += value * scale;
        rest = next;
    }
    let ms = (total_ns / 1e6).floor();
    (ms <= f64::from(u32::MAX)).then_some(ms as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_durations() {
        assert_eq!(go_duration_ms("15s"), Some(15_000));
        assert_eq!(go_duration_ms("1m0s"), Some(60_000));
        assert_eq!(go_duration_ms("10.5s"), Some(10_500));
        assert_eq!(go_duration_ms("500ms"), Some(500));
        assert_eq!(go_duration_ms("1h2m3s"), Some(3_723_000));
        assert_eq!(go_duration_ms("1500us"), Some(1));
        assert_eq!(go_duration_ms("0"), Some(0));
        for bad in ["", "15", "s", "1x", "1.2.3s", "-1s", "1s ", "9999h"] {
            assert_eq!(go_duration_ms(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn pod_metrics_sum_their_containers_and_set_bad_items_aside() {
        let body = serde_json::json!({"kind": "PodMetricsList", "apiVersion": "metrics.k8s.io/v1beta1",
            "metadata": {}, "items": [
            {"metadata": {"name": "web\u{1b}[2J", "namespace": "default", "labels": {"a": "b"}},
             "timestamp": "2026-01-01T00:00:15Z", "window": "15s",
             "containers": [{"name": "app", "usage": {"cpu": "250m", "memory": "1Mi"}},
                            {"name": "log", "usage": {"cpu": "1000000n", "memory": "1024Ki"}}]},
            {"metadata": {"name": "bad", "namespace": "default"}, "timestamp": "2026-01-01T00:00:15Z",
             "window": "15s", "containers": [{"name": "app", "usage": {"cpu": "lots", "memory": "1Mi"}}]},
            {"metadata": {"name": "late", "namespace": "default"}, "timestamp": "yesterday",
             "window": "15s", "containers": []}]});
        let d = decode(&serde_json::to_vec(&body).unwrap(), Target::Pods).unwrap();
        assert_eq!(d.items.len(), 1);
        let p = &d.items[0];
        assert_eq!(&*p.name, "web^[[2J", "names are sanitized");
        assert_eq!(p.namespace.as_deref(), Some("default"));
        assert_eq!(p.sample.timestamp, 1_767_225_615);
        assert_eq!(p.sample.window_ms, 15_000);
        assert_eq!(p.sample.usage.cpu_nanos, 251_000_000);
        assert_eq!(p.sample.usage.memory_bytes, 2 << 20);
        assert_eq!(p.containers.len(), 2);
        assert_eq!(d.skipped.len(), 2);
        assert!(
            d.skipped[0].contains("podmetrics/default/bad: usage.cpu \"lots\""),
            "{:?}",
            d.skipped
        );
        assert!(d.skipped[1].contains("not RFC 3339"), "{:?}", d.skipped);
    }

    #[test]
    fn node_metrics() {
        let body = br#"{"kind":"NodeMetricsList","items":[{"metadata":{"name":"node-1"},
            "timestamp":"2026-01-01T00:00:00Z","window":"20.5s","usage":{"cpu":"1500m","memory":"2Gi"}},
            {"metadata":{"name":"node-2"},"timestamp":"2026-01-01T00:00:00Z","usage":{"cpu":"1"}}]}"#;
        let d = decode(body, Target::Nodes).unwrap();
        assert_eq!(d.items.len(), 1);
        assert_eq!(d.items[0].sample.usage.cpu_nanos, 1_500_000_000);
        assert_eq!(d.items[0].sample.window_ms, 20_500);
        assert_eq!(d.skipped, ["nodemetrics/node-2: no usage.memory"]);
        assert!(decode(b"<html>", Target::Nodes).is_err());
        assert!(decode(b"{}", Target::Pods).unwrap().items.is_empty());
    }
}
