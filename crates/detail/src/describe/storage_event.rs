//! The kind-specific describe sections of Events, HorizontalPodAutoscalers,
//! PersistentVolumes and PersistentVolumeClaims, in `kubectl describe`'s wording and order,
//! from the one object alone. Must not claim what only other objects could tell (a claim's
//! `Used By` pods, an HPA's live pod metrics beyond its status).

use serde_json::Value;

use super::fmt::{field, items, or_none, scalar, str_of, strings};

/// `ReadWriteOnce` → `RWO`, as kubectl abbreviates access modes.
fn access_modes(v: &Value) -> String {
    let short: Vec<&str> = strings(v)
        .into_iter()
        .map(|m| match m {
            "ReadWriteOnce" => "RWO",
            "ReadOnlyMany" => "ROX",
            "ReadWriteMany" => "RWX",
            "ReadWriteOncePod" => "RWOP",
            other => other,
        })
        .collect();
    short.join(",")
}

/// Event: what happened to which object, how often, from which component (core/v1 fields,
/// with the events.k8s.io names a v1 Event also carries: action, related, reporting).
pub(super) fn event(out: &mut Vec<String>, obj: &Value) {
    field(out, "Type", str_of(&obj["type"]));
    field(out, "Reason", str_of(&obj["reason"]));
    if let Some(a) = obj["action"].as_str() {
        field(out, "Action", a);
    }
    let o = &obj["involvedObject"];
    let mut about = format!("{}/{}", str_of(&o["kind"]), str_of(&o["name"]));
    if let Some(ns) = o["namespace"].as_str() {
        about = format!("{about} -n {ns}");
    }
    if let Some(path) = o["fieldPath"].as_str() {
        about = format!("{about} ({path})");
    }
    field(out, "Involved Object", &about);
    let r = &obj["related"];
    if r.is_object() {
        field(
            out,
            "Related",
            &format!("{}/{}", str_of(&r["kind"]), str_of(&r["name"])),
        );
    }
    let count = obj["count"]
        .as_i64()
        .or_else(|| obj["series"]["count"].as_i64())
        .unwrap_or(1);
    field(out, "Count", &count.to_string());
    for (label, key) in [
        ("First Timestamp", "firstTimestamp"),
        ("Last Timestamp", "lastTimestamp"),
        ("Event Time", "eventTime"),
    ] {
        if let Some(t) = obj[key].as_str() {
            field(out, label, t);
        }
    }
    let src = &obj["source"];
    let component = src["component"]
        .as_str()
        .or_else(|| obj["reportingComponent"].as_str())
        .unwrap_or("");
    let mut source = component.to_owned();
    if let Some(host) = src["host"].as_str().or_else(|| obj["reportingInstance"].as_str()) {
        source = format!("{source}, {host}");
    }
    field(out, "Source", &or_none(source));
    out.push("Message:".into());
    for l in str_of(&obj["message"]).lines() {
        out.push(format!("  {l}"));
    }
}

/// HorizontalPodAutoscaler (autoscaling/v2): the target, each metric as
/// `current / target`, the replica bounds and counts.
pub(super) fn hpa(out: &mut Vec<String>, obj: &Value) {
    let (spec, status) = (&obj["spec"], &obj["status"]);
    let r = &spec["scaleTargetRef"];
    field(
        out,
        "Reference",
        &format!("{}/{}", str_of(&r["kind"]), str_of(&r["name"])),
    );
    out.push("Metrics:          ( current / target )".into());
    let current = items(&status["currentMetrics"]);
    let metrics = items(&spec["metrics"]);
    if metrics.is_empty() {
        out.push("  <none>".into());
    }
    for (i, m) in metrics.iter().enumerate() {
        let ty = str_of(&m["type"]);
        let key = match ty {
            "Resource" => "resource",
            "ContainerResource" => "containerResource",
            "Pods" => "pods",
            "Object" => "object",
            "External" => "external",
            _ => "",
        };
        let spec_m = &m[key];
        let cur_m = current
            .iter()
            .find(|c| str_of(&c["type"]) == ty && same_metric(&c[key], spec_m))
            .or(current.get(i))
            .map(|c| &c[key]["current"]);
        let target = &spec_m["target"];
        let name = str_of(&spec_m["name"]).to_owned();
        let metric_name = str_of(&spec_m["metric"]["name"]).to_owned();
        // `resource cpu on pods`, `resource cpu of container "web" on pods`.
        let resource = if ty == "ContainerResource" {
            format!(
                "resource {name} of container \"{}\" on pods",
                str_of(&spec_m["container"])
            )
        } else {
            format!("resource {name} on pods")
        };
        // kubectl reads an external metric's average value when one is set, an object
        // metric's when its target type says `AverageValue`.
        let average = match ty {
            "External" => !target["averageValue"].is_null(),
            _ => str_of(&target["type"]) == "AverageValue",
        };
        let (v, wording) = if average {
            ("averageValue", "target average value")
        } else {
            ("value", "target value")
        };
        let (label, cur, tgt) = match (ty, str_of(&target["type"])) {
            ("Resource" | "ContainerResource", "Utilization") => (
                format!("{resource}  (as a percentage of request)"),
                cur_m.map_or_else(unknown, |c| {
                    format!(
                        "{}% ({})",
                        scalar_or(&c["averageUtilization"]),
                        scalar_or(&c["averageValue"])
                    )
                }),
                format!("{}%", scalar(&target["averageUtilization"])),
            ),
            ("Resource" | "ContainerResource", _) => (
                resource,
                cur_m.map_or_else(unknown, |c| scalar_or(&c["averageValue"])),
                scalar(&target["averageValue"]),
            ),
            ("Pods", _) => (
                format!("\"{metric_name}\" on pods"),
                cur_m.map_or_else(unknown, |c| scalar_or(&c["averageValue"])),
                scalar(&target["averageValue"]),
            ),
            ("Object", _) => {
                let o = &spec_m["describedObject"];
                (
                    format!(
                        "\"{metric_name}\" on {}/{} ({wording})",
                        str_of(&o["kind"]),
                        str_of(&o["name"])
                    ),
                    cur_m.map_or_else(unknown, |c| scalar_or(&c[v])),
                    scalar(&target[v]),
                )
            }
            _ => (
                format!("\"{metric_name}\" ({wording})"),
                cur_m.map_or_else(unknown, |c| scalar_or(&c[v])),
                scalar(&target[v]),
            ),
        };
        out.push(format!("  {label}:  {cur} / {tgt}"));
    }
    field(
        out,
        "Min replicas",
        &scalar_or(&spec["minReplicas"]).replace("<unknown>", "1"),
    );
    field(out, "Max replicas", &scalar(&spec["maxReplicas"]));
    behavior(out, &spec["behavior"]);
    field(
        out,
        &format!("{} pods", str_of(&r["kind"])),
        &format!(
            "{} current / {} desired",
            status["currentReplicas"].as_i64().unwrap_or(0),
            status["desiredReplicas"].as_i64().unwrap_or(0)
        ),
    );
}

/// `Behavior:` (`spec.behavior`), when set: per direction the stabilization window, the
/// select policy (`Max` when unset) and each policy, as kubectl prints them.
fn behavior(out: &mut Vec<String>, b: &Value) {
    if !b.is_object() {
        return;
    }
    out.push("Behavior:".into());
    for (label, key) in [("Scale Up", "scaleUp"), ("Scale Down", "scaleDown")] {
        let rules = &b[key];
        if !rules.is_object() {
            continue;
        }
        out.push(format!("  {label}:"));
        if let Some(w) = rules["stabilizationWindowSeconds"].as_i64() {
            out.push(format!("    Stabilization Window: {w} seconds"));
        }
        let policies = items(&rules["policies"]);
        if !policies.is_empty() {
            let select = rules["selectPolicy"].as_str().unwrap_or("Max");
            out.push(format!("    Select Policy: {select}"));
            out.push("    Policies:".into());
            for p in policies {
                out.push(format!(
                    "      - Type: {}  Value: {}  Period: {} seconds",
                    str_of(&p["type"]),
                    scalar(&p["value"]),
                    scalar(&p["periodSeconds"])
                ));
            }
        }
    }
}

fn unknown() -> String {
    "<unknown>".into()
}

fn scalar_or(v: &Value) -> String {
    if v.is_null() {
        unknown()
    } else {
        scalar(v)
    }
}

/// Whether two metric sources name the same metric (resource name or metric name).
fn same_metric(a: &Value, b: &Value) -> bool {
    str_of(&a["name"]) == str_of(&b["name"]) && str_of(&a["metric"]["name"]) == str_of(&b["metric"]["name"])
}

/// `Status:` of a PV or PVC: `Terminating (lasts 5m)` once deleted, else `status.phase`.
fn phase(out: &mut Vec<String>, obj: &Value, now: i64) {
    match obj["metadata"]["deletionTimestamp"].as_str() {
        Some(at) => field(out, "Status", &super::terminating(at, now)),
        None => field(out, "Status", str_of(&obj["status"]["phase"])),
    }
}

/// PersistentVolume: class, phase, claim, reclaim policy, access modes, mode, capacity,
/// message and the volume source's type.
pub(super) fn pv(out: &mut Vec<String>, obj: &Value, now: i64) {
    let (spec, status) = (&obj["spec"], &obj["status"]);
    field(out, "StorageClass", str_of(&spec["storageClassName"]));
    phase(out, obj, now);
    let c = &spec["claimRef"];
    let claim = if c.is_object() {
        format!("{}/{}", str_of(&c["namespace"]), str_of(&c["name"]))
    } else {
        String::new()
    };
    field(out, "Claim", &claim);
    field(
        out,
        "Reclaim Policy",
        str_of(&spec["persistentVolumeReclaimPolicy"]),
    );
    field(out, "Access Modes", &access_modes(&spec["accessModes"]));
    field(
        out,
        "VolumeMode",
        spec["volumeMode"].as_str().unwrap_or("Filesystem"),
    );
    field(out, "Capacity", str_of(&spec["capacity"]["storage"]));
    field(
        out,
        "Node Affinity",
        if spec["nodeAffinity"].is_object() {
            "(set)"
        } else {
            "<none>"
        },
    );
    field(out, "Message", str_of(&status["message"]));
    let known = [
        "accessModes",
        "capacity",
        "claimRef",
        "persistentVolumeReclaimPolicy",
        "storageClassName",
        "volumeMode",
        "nodeAffinity",
        "mountOptions",
        "volumeAttributesClassName",
    ];
    let source = spec
        .as_object()
        .into_iter()
        .flatten()
        .find(|(k, _)| !known.contains(&k.as_str()));
    out.push("Source:".into());
    if let Some((k, v)) = source {
        out.push(format!("    Type:  {k}"));
        for (sk, sv) in v.as_object().into_iter().flatten() {
            if !sv.is_object() && !sv.is_array() {
                out.push(format!("    {sk}:  {}", scalar(sv)));
            }
        }
    }
}

/// PersistentVolumeClaim: class, phase, volume, capacity, access modes, mode.
pub(super) fn pvc(out: &mut Vec<String>, obj: &Value, now: i64) {
    let (spec, status) = (&obj["spec"], &obj["status"]);
    field(out, "StorageClass", str_of(&spec["storageClassName"]));
    phase(out, obj, now);
    field(out, "Volume", str_of(&spec["volumeName"]));
    field(out, "Capacity", str_of(&status["capacity"]["storage"]));
    field(out, "Access Modes", &access_modes(&status["accessModes"]));
    field(
        out,
        "VolumeMode",
        spec["volumeMode"].as_str().unwrap_or("Filesystem"),
    );
}
