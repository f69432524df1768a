//! `d`: a human summary of one object in the manner of `kubectl describe` — metadata (labels,
//! annotations, owners), then for pods their node, IPs, containers (image, ports, state,
//! readiness, restarts, requests/limits), conditions and volumes, and for every other kind a
//! generic rendering of spec and status with a conditions table. Pure: JSON in, sanitized
//! lines out. Secret values are never rendered here (keys and sizes only).

use serde_json::Value;

use crate::kube::kind::BuiltinKind;
use crate::kube::resource::Kind;
use crate::kube::sanitize::sanitize;
use crate::table::format::human_duration;
use crate::table::meta::parse_rfc3339;

/// The describe lines of `obj` (a `kind` object as the API returned it), ages against `now`.
pub fn describe(obj: &Value, kind: &Kind, now: i64) -> Vec<String> {
    let mut out = Vec::new();
    let meta = &obj["metadata"];
    field(&mut out, "Name", str_of(&meta["name"]));
    if let Some(ns) = meta["namespace"].as_str() {
        field(&mut out, "Namespace", ns);
    }
    if let Some(t) = meta["creationTimestamp"].as_str().and_then(parse_rfc3339) {
        field(
            &mut out,
            "Created",
            &format!(
                "{} ago ({})",
                human_duration(now - t),
                str_of(&meta["creationTimestamp"])
            ),
        );
    }
    map_lines(&mut out, "Labels", &meta["labels"], &[]);
    map_lines(
        &mut out,
        "Annotations",
        &meta["annotations"],
        &["kubectl.kubernetes.io/last-applied-configuration"],
    );
    for o in meta["ownerReferences"].as_array().into_iter().flatten() {
        field(
            &mut out,
            "Controlled By",
            &format!("{}/{}", str_of(&o["kind"]), str_of(&o["name"])),
        );
    }
    if meta["deletionTimestamp"].is_string() {
        field(
            &mut out,
            "Deleting",
            &format!("since {}", str_of(&meta["deletionTimestamp"])),
        );
    }
    match kind.builtin() {
        Some(BuiltinKind::Pod) => pod(&mut out, obj, now),
        Some(BuiltinKind::Secret) => secret(&mut out, obj),
        _ => {
            for part in ["spec", "status"] {
                if obj[part].is_object() {
                    out.push(format!("{}:", capitalise(part)));
                    generic(&mut out, &obj[part], 1);
                }
            }
            if *kind == BuiltinKind::ConfigMap {
                map_lines(&mut out, "Data", &obj["data"], &[]);
            }
        }
    }
    conditions(&mut out, &obj["status"]["conditions"]);
    out.into_iter().map(|l| sanitize(&l).into_owned()).collect()
}

fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// `Label:` padded to a 18-column key, or blank padding for a continuation line.
fn field(out: &mut Vec<String>, label: &str, value: &str) {
    let key = if label.is_empty() {
        String::new()
    } else {
        format!("{label}:")
    };
    out.push(format!("{key:<18}{value}"));
}

fn map_lines(out: &mut Vec<String>, label: &str, map: &Value, skip: &[&str]) {
    let entries: Vec<(&String, &Value)> = map
        .as_object()
        .map(|m| m.iter().filter(|(k, _)| !skip.contains(&k.as_str())).collect())
        .unwrap_or_default();
    if entries.is_empty() {
        field(out, label, "<none>");
        return;
    }
    for (i, (k, v)) in entries.iter().enumerate() {
        let text = match v {
            Value::String(s) => s.lines().next().unwrap_or("").to_owned(),
            other => other.to_string(),
        };
        field(out, if i == 0 { label } else { "" }, &format!("{k}={text}"));
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "<none>".into(),
        other => other.to_string(),
    }
}

/// Nested objects as indented `key: value` lines; arrays of scalars joined, arrays of objects
/// as `- ` items.
fn generic(out: &mut Vec<String>, v: &Value, depth: usize) {
    let pad = "  ".repeat(depth);
    let Some(map) = v.as_object() else { return };
    for (k, val) in map {
        if k == "conditions" {
            continue;
        }
        match val {
            Value::Object(_) => {
                out.push(format!("{pad}{}:", capitalise(k)));
                generic(out, val, depth + 1);
            }
            Value::Array(items) if items.iter().all(|i| !i.is_object()) => {
                let joined: Vec<String> = items.iter().map(scalar).collect();
                out.push(format!("{pad}{}: {}", capitalise(k), joined.join(", ")));
            }
            Value::Array(items) => {
                out.push(format!("{pad}{}:", capitalise(k)));
                for item in items {
                    out.push(format!("{pad}  -"));
                    generic(out, item, depth + 2);
                }
            }
            other => out.push(format!("{pad}{}: {}", capitalise(k), scalar(other))),
        }
    }
}

fn conditions(out: &mut Vec<String>, conds: &Value) {
    let Some(items) = conds.as_array().filter(|a| !a.is_empty()) else {
        return;
    };
    out.push("Conditions:".into());
    out.push(format!(
        "  {:<28} {:<8} {:<24} MESSAGE",
        "TYPE", "STATUS", "REASON"
    ));
    for c in items {
        out.push(format!(
            "  {:<28} {:<8} {:<24} {}",
            str_of(&c["type"]),
            str_of(&c["status"]),
            str_of(&c["reason"]),
            str_of(&c["message"]).lines().next().unwrap_or("")
        ));
    }
}

fn pod(out: &mut Vec<String>, obj: &Value, now: i64) {
    let (spec, status) = (&obj["spec"], &obj["status"]);
    field(out, "Node", spec["nodeName"].as_str().unwrap_or("<none>"));
    field(out, "Service Account", str_of(&spec["serviceAccountName"]));
    field(out, "Status", str_of(&status["phase"]));
    if let Some(r) = status["reason"].as_str() {
        field(out, "Reason", r);
    }
    let ips: Vec<&str> = status["podIPs"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| i["ip"].as_str())
        .collect();
    field(
        out,
        "IPs",
        &if ips.is_empty() {
            "<none>".to_owned()
        } else {
            ips.join(", ")
        },
    );
    for (label, specs, statuses) in [
        (
            "Init Containers",
            &spec["initContainers"],
            &status["initContainerStatuses"],
        ),
        ("Containers", &spec["containers"], &status["containerStatuses"]),
    ] {
        let Some(list) = specs.as_array().filter(|a| !a.is_empty()) else {
            continue;
        };
        out.push(format!("{label}:"));
        for c in list {
            let name = str_of(&c["name"]);
            let st = statuses
                .as_array()
                .into_iter()
                .flatten()
                .find(|s| s["name"] == name);
            out.push(format!("  {name}:"));
            out.push(format!("    Image:          {}", str_of(&c["image"])));
            let ports: Vec<String> = c["ports"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| {
                    format!(
                        "{}/{}",
                        scalar(&p["containerPort"]),
                        p["protocol"].as_str().unwrap_or("TCP")
                    )
                })
                .collect();
            out.push(format!(
                "    Ports:          {}",
                if ports.is_empty() {
                    "<none>".into()
                } else {
                    ports.join(", ")
                }
            ));
            if let Some(s) = st {
                out.push(format!(
                    "    State:          {}",
                    container_state(&s["state"], now)
                ));
                if s["lastState"].as_object().is_some_and(|m| !m.is_empty()) {
                    out.push(format!(
                        "    Last State:     {}",
                        container_state(&s["lastState"], now)
                    ));
                }
                out.push(format!(
                    "    Ready:          {}",
                    s["ready"].as_bool().unwrap_or(false)
                ));
                out.push(format!(
                    "    Restart Count:  {}",
                    s["restartCount"].as_i64().unwrap_or(0)
                ));
            }
            for what in ["requests", "limits"] {
                if let Some(m) = c["resources"][what].as_object().filter(|m| !m.is_empty()) {
                    let parts: Vec<String> = m.iter().map(|(k, v)| format!("{k}={}", scalar(v))).collect();
                    out.push(format!(
                        "    {:<16}{}",
                        format!("{}:", capitalise(what)),
                        parts.join(", ")
                    ));
                }
            }
        }
    }
    let vols: Vec<String> = spec["volumes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|v| {
            let src = v
                .as_object()
                .and_then(|m| m.keys().find(|k| *k != "name"))
                .cloned()
                .unwrap_or_default();
            format!("{} ({src})", str_of(&v["name"]))
        })
        .collect();
    field(
        out,
        "Volumes",
        &if vols.is_empty() {
            "<none>".to_owned()
        } else {
            vols.join(", ")
        },
    );
}

fn container_state(state: &Value, now: i64) -> String {
    let since = |t: &Value| {
        t.as_str()
            .and_then(parse_rfc3339)
            .map(|t| format!(" for {}", human_duration(now - t)))
    };
    if let Some(r) = state.get("running") {
        return format!("Running{}", since(&r["startedAt"]).unwrap_or_default());
    }
    if let Some(w) = state.get("waiting") {
        return format!("Waiting ({})", w["reason"].as_str().unwrap_or("no reason"));
    }
    if let Some(t) = state.get("terminated") {
        return format!(
            "Terminated ({}, exit code {})",
            t["reason"].as_str().unwrap_or("no reason"),
            t["exitCode"].as_i64().unwrap_or(0)
        );
    }
    "<unknown>".into()
}

/// Secrets: type and key names with sizes — never values.
fn secret(out: &mut Vec<String>, obj: &Value) {
    field(out, "Type", obj["type"].as_str().unwrap_or("Opaque"));
    out.push("Data:".into());
    for (k, v) in obj["data"].as_object().into_iter().flatten() {
        let len = v.as_str().map_or(0, |b| b.len() / 4 * 3 - b.matches('=').count());
        out.push(format!("  {k}: {len} bytes"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const NOW: i64 = 1_796_040_000;

    #[test]
    fn pod_sections() {
        let pod = json!({
            "metadata": {"name": "web-0", "namespace": "shop", "creationTimestamp": "2026-11-30T11:00:00Z",
                         "labels": {"app": "web"}, "ownerReferences": [{"kind": "StatefulSet", "name": "web"}]},
            "spec": {"nodeName": "node-1", "containers": [{"name": "app", "image": "nginx:1.27",
                      "ports": [{"containerPort": 80}], "resources": {"limits": {"memory": "128Mi"}}}],
                     "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "d"}}]},
            "status": {"phase": "Running", "podIPs": [{"ip": "10.0.0.5"}],
                       "containerStatuses": [{"name": "app", "ready": true, "restartCount": 3,
                          "state": {"running": {"startedAt": "2026-11-30T11:55:00Z"}}}],
                       "conditions": [{"type": "Ready", "status": "True"}]}
        });
        let text = describe(&pod, &BuiltinKind::Pod.into(), NOW).join("\n");
        for want in [
            "Name:             web-0",
            "Created:          60m ago",
            "Labels:           app=web",
            "Controlled By:    StatefulSet/web",
            "Node:             node-1",
            "IPs:              10.0.0.5",
            "Image:          nginx:1.27",
            "Ports:          80/TCP",
            "State:          Running for 5m",
            "Restart Count:  3",
            "Limits:         memory=128Mi",
            "Volumes:          data (persistentVolumeClaim)",
            "Ready                        True",
        ] {
            assert!(text.contains(want), "missing {want:?} in\n{text}");
        }
    }

    #[test]
    fn secrets_show_sizes_never_values() {
        let s = json!({"metadata": {"name": "db"}, "type": "Opaque", "data": {"password": "aHVudGVyMg=="}});
        let text = describe(&s, &BuiltinKind::Secret.into(), NOW).join("\n");
        assert!(text.contains("password: 7 bytes"), "{text}");
        assert!(!text.contains("aHVudGVyMg") && !text.contains("hunter2"));
    }

    #[test]
    fn generic_kinds_render_spec_status_and_conditions() {
        let d = json!({"metadata": {"name": "web"}, "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}}},
                       "status": {"readyReplicas": 2, "conditions": [{"type": "Available", "status": "False",
                                  "reason": "MinimumReplicasUnavailable", "message": "not enough\nsecond"}]}});
        let text = describe(&d, &BuiltinKind::Deployment.into(), NOW).join("\n");
        assert!(text.contains("Spec:\n  Replicas: 3"), "{text}");
        assert!(
            text.contains("MatchLabels:\n      App: web") || text.contains("App: web"),
            "{text}"
        );
        assert!(
            text.contains("Available                    False    MinimumReplicasUnavailable"),
            "{text}"
        );
        assert!(!text.contains("second"));
    }
}
