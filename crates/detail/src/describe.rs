//! `d`: a human summary of one object in the manner of `kubectl describe` — metadata (labels,
//! annotations, owners), then a kind-specific section: pods (node, IPs, containers, volumes,
//! scheduling), workloads (replicas, strategy, pod template; see `workloads`), services,
//! nodes and namespaces (see `service_node`), events, HPAs, PVs and PVCs (see
//! `storage_event`), secrets (keys and sizes only — never values),
//! and for every other kind a generic rendering of spec and status; then a conditions table.
//! Pure: JSON in, sanitized lines out. Must not do I/O nor show what only other objects
//! (pods, endpoints, events) could tell.

pub(crate) mod fmt;
mod service_node;
mod storage_event;
mod template;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_kinds;
#[cfg(test)]
mod tests_storage_event;
mod workloads;

use serde_json::Value;

use ktui_kube::builtin::BuiltinKind;
use ktui_kube::kind::Kind;
use ktui_kube::sanitize::sanitize;

use fmt::{capitalise, conditions, each, field, generic, items, map_lines, or_none, str_of, when, TOP};
use template::{pod_containers, pod_spec_tail};

/// Where the label of a describe line ends (the byte index of its `:`), for colouring:
/// kubectl's shape only — indented words with single spaces (`Name`, `  Restart Count`,
/// `  web`), then `:` at the end of the line or before a space. A table row (columns
/// separated by two or more spaces, like an event whose message holds a colon) has none.
pub fn label_end(line: &str) -> Option<usize> {
    let i = line.find(':')?;
    let label = line[..i].trim_start();
    let after = &line[i + 1..];
    let ok = !label.is_empty()
        && label.len() <= 48
        && !label.contains("  ")
        && !label.ends_with(' ')
        && (after.is_empty() || after.starts_with(' '));
    ok.then_some(i)
}

/// The describe lines of `obj` (a `kind` object as the API returned it), ages against `now`.
pub fn describe(obj: &Value, kind: &Kind, now: i64) -> Vec<String> {
    let mut out = Vec::new();
    let meta = &obj["metadata"];
    field(&mut out, "Name", str_of(&meta["name"]));
    if let Some(ns) = meta["namespace"].as_str() {
        field(&mut out, "Namespace", ns);
    }
    if let Some(created) = when(&meta["creationTimestamp"], now) {
        field(&mut out, "Created", &created);
    }
    map_lines(&mut out, TOP, "Labels", &meta["labels"], &[]);
    map_lines(
        &mut out,
        TOP,
        "Annotations",
        &meta["annotations"],
        &["kubectl.kubernetes.io/last-applied-configuration"],
    );
    for o in items(&meta["ownerReferences"]) {
        let owner = format!("{}/{}", str_of(&o["kind"]), str_of(&o["name"]));
        field(&mut out, "Controlled By", &owner);
    }
    // A pod, PV or PVC says it in its `Status:` line, as kubectl does.
    let says_status = [
        BuiltinKind::Pod,
        BuiltinKind::PersistentVolume,
        BuiltinKind::PersistentVolumeClaim,
    ];
    if meta["deletionTimestamp"].is_string() && !says_status.iter().any(|k| kind == k) {
        let since = format!("since {}", str_of(&meta["deletionTimestamp"]));
        field(&mut out, "Deleting", &since);
    }
    let o = &mut out;
    match kind.builtin() {
        Some(BuiltinKind::Pod) => pod(o, obj, now),
        Some(BuiltinKind::Secret) => secret(o, obj),
        Some(BuiltinKind::Deployment) => workloads::deployment(o, obj),
        Some(BuiltinKind::ReplicaSet) => workloads::replicaset(o, obj),
        Some(BuiltinKind::StatefulSet) => workloads::statefulset(o, obj),
        Some(BuiltinKind::DaemonSet) => workloads::daemonset(o, obj),
        Some(BuiltinKind::Job) => workloads::job(o, obj, now),
        Some(BuiltinKind::CronJob) => workloads::cronjob(o, obj, now),
        Some(BuiltinKind::Service) => service_node::service(o, obj),
        Some(BuiltinKind::Node) => service_node::node(o, obj),
        Some(BuiltinKind::Namespace) => service_node::namespace(o, obj),
        Some(BuiltinKind::Event) => storage_event::event(o, obj),
        Some(BuiltinKind::HorizontalPodAutoscaler) => storage_event::hpa(o, obj),
        Some(BuiltinKind::PersistentVolume) => storage_event::pv(o, obj, now),
        Some(BuiltinKind::PersistentVolumeClaim) => storage_event::pvc(o, obj, now),
        _ => {
            for part in ["spec", "status"] {
                if obj[part].is_object() {
                    o.push(format!("{}:", capitalise(part)));
                    generic(o, &obj[part], 1);
                }
            }
            if *kind == BuiltinKind::ConfigMap {
                map_lines(o, TOP, "Data", &obj["data"], &[]);
            }
        }
    }
    conditions(&mut out, &obj["status"]["conditions"]);
    out.into_iter().map(|l| sanitize(&l).into_owned()).collect()
}

/// Pods: node, service account, phase, IPs, QoS class, (init) containers with their live
/// status, then volumes and scheduling.
fn pod(out: &mut Vec<String>, obj: &Value, now: i64) {
    let (spec, status) = (&obj["spec"], &obj["status"]);
    if let Some(p) = spec["priority"].as_i64() {
        field(out, "Priority", &p.to_string());
    }
    if let Some(c) = spec["priorityClassName"].as_str().filter(|c| !c.is_empty()) {
        field(out, "Priority Class Name", c);
    }
    if let Some(sa) = spec["serviceAccountName"].as_str().filter(|s| !s.is_empty()) {
        field(out, "Service Account", sa);
    }
    field(out, "Node", spec["nodeName"].as_str().unwrap_or("<none>"));
    let finished = matches!(status["phase"].as_str(), Some("Succeeded" | "Failed"));
    match obj["metadata"]["deletionTimestamp"].as_str() {
        // A pod that already finished (held by a finalizer) keeps its terminal phase, as in
        // kubectl (kubernetes/kubectl#1595) and the list's STATUS.
        Some(at) if !finished => {
            field(out, "Status", &terminating(at, now));
            if let Some(g) = obj["metadata"]["deletionGracePeriodSeconds"].as_i64() {
                field(out, "Termination Grace Period", &format!("{g}s"));
            }
        }
        _ => field(out, "Status", str_of(&status["phase"])),
    }
    if let Some(r) = status["reason"].as_str() {
        field(out, "Reason", r);
    }
    if let Some(m) = status["message"].as_str().filter(|m| !m.is_empty()) {
        field(out, "Message", m);
    }
    field(out, "IPs", &or_none(each(&status["podIPs"], "ip").join(", ")));
    if let Some(q) = status["qosClass"].as_str() {
        field(out, "QoS Class", q);
    }
    pod_containers(out, 0, spec, Some((status, now)));
    pod_spec_tail(out, TOP, spec);
}

/// `Terminating (lasts <time since the deletion timestamp>)`, kubectl's `Status:` of a
/// deleted pod, PV or PVC (`at`: `metadata.deletionTimestamp`); a graceful deletion's
/// timestamp lies ahead (now + grace period), which kubectl prints as `<invalid>`.
fn terminating(at: &str, now: i64) -> String {
    let lasts = at
        .parse::<jiff::Timestamp>()
        .ok()
        .map(|t| now - t.as_second())
        .filter(|d| *d >= 0)
        .map_or_else(|| "<invalid>".to_owned(), ktui_table::format::human_duration);
    format!("Terminating (lasts {lasts})")
}

/// Secrets: type and key names with sizes — never values.
fn secret(out: &mut Vec<String>, obj: &Value) {
    field(out, "Type", obj["type"].as_str().unwrap_or("Opaque"));
    out.push("Data:".into());
    for (k, v) in obj["data"].as_object().into_iter().flatten() {
        let len = v
            .as_str()
            .map_or(0, |b| (b.len() / 4 * 3).saturating_sub(b.matches('=').count()));
        out.push(format!("  {k}: {len} bytes"));
    }
}
