//! What pods and pod templates share in a describe: the containers block (image, command,
//! ports, live state for pods, requests/limits, probes, environment names, mounts) and the
//! pod-spec tail (volumes, priority class, node selectors, tolerations), plus the
//! `Pod Template:` section of workloads. Must not render literal environment values (names
//! and references only) nor anything kind-specific beyond the pod spec.

use serde_json::Value;

use super::fmt::{
    capitalise, count, inline_labels, items, kv, list_lines, map_lines, or_none, scalar, str_of, strings, Col,
};
use ktui_table::format::human_duration;
use ktui_table::meta::parse_rfc3339;

/// The `Pod Template:` section of a workload (`spec.template`, or a CronJob's job template's).
pub(super) fn pod_template(out: &mut Vec<String>, template: &Value) {
    out.push("Pod Template:".into());
    let (col, spec) = (Col::new(2, 16), &template["spec"]);
    map_lines(out, col, "Labels", &template["metadata"]["labels"], &[]);
    if template["metadata"]["annotations"]
        .as_object()
        .is_some_and(|m| !m.is_empty())
    {
        map_lines(out, col, "Annotations", &template["metadata"]["annotations"], &[]);
    }
    if let Some(sa) = spec["serviceAccountName"].as_str() {
        kv(out, col, "Service Account", sa);
    }
    pod_containers(out, 2, spec, None);
    pod_spec_tail(out, col, spec);
}

/// A pod spec's `Init Containers:` (when there are any) and `Containers:` blocks at `indent`.
/// `live` is a pod's `status` and the time to age container states against; templates have
/// none.
pub(super) fn pod_containers(
    out: &mut Vec<String>,
    indent: usize,
    spec: &Value,
    live: Option<(&Value, i64)>,
) {
    for (label, key, statuses) in [
        ("Init Containers", "initContainers", "initContainerStatuses"),
        ("Containers", "containers", "containerStatuses"),
    ] {
        if key == "initContainers" && items(&spec[key]).is_empty() {
            continue;
        }
        containers(
            out,
            indent,
            label,
            &spec[key],
            live.map(|(s, now)| (&s[statuses], now)),
        );
    }
}

/// A `Containers:` (or `Init Containers:`) block at `indent`: each container's name, then its
/// details two spaces deeper. `live` is a pod's container statuses and the time to age them
/// against; templates have none.
fn containers(out: &mut Vec<String>, indent: usize, label: &str, specs: &Value, live: Option<(&Value, i64)>) {
    let list = items(specs);
    let none = if list.is_empty() { " <none>" } else { "" };
    out.push(format!("{:indent$}{label}:{none}", ""));
    for c in list {
        let name = str_of(&c["name"]);
        out.push(format!("{:w$}{name}:", "", w = indent + 2));
        let col = Col::new(indent + 4, 16);
        kv(out, col, "Image", str_of(&c["image"]));
        for what in ["command", "args"] {
            let words: Vec<&str> = strings(&c[what]);
            if !words.is_empty() {
                kv(out, col, &capitalise(what), &words.join(" "));
            }
        }
        container_ports(out, col, &c["ports"]);
        if let Some((statuses, now)) = live {
            let st = items(statuses).iter().find(|s| s["name"] == name);
            if let Some(s) = st {
                container_status(out, col, s, now);
            }
        }
        for what in ["requests", "limits"] {
            if let Some(m) = c["resources"][what].as_object().filter(|m| !m.is_empty()) {
                let parts: Vec<String> = m.iter().map(|(k, v)| format!("{k}={}", scalar(v))).collect();
                kv(out, col, &capitalise(what), &parts.join(", "));
            }
        }
        for (label, key) in [
            ("Liveness", "livenessProbe"),
            ("Readiness", "readinessProbe"),
            ("Startup", "startupProbe"),
        ] {
            if c[key].is_object() {
                kv(out, col, label, &probe(&c[key]));
            }
        }
        environment(out, col, c);
        mounts(out, col, &c["volumeMounts"]);
    }
}

/// `Ports: 80/TCP (http), …` and, when any is set, `Host Ports:`.
fn container_ports(out: &mut Vec<String>, col: Col, ports: &Value) {
    let ports = items(ports);
    let render = |key: &str| -> Vec<String> {
        ports
            .iter()
            .map(|p| {
                let proto = p["protocol"].as_str().unwrap_or("TCP");
                match p["name"].as_str() {
                    Some(n) => format!("{}/{proto} ({n})", count(&p[key])),
                    None => format!("{}/{proto}", count(&p[key])),
                }
            })
            .collect()
    };
    kv(out, col, "Ports", &or_none(render("containerPort").join(", ")));
    if ports.iter().any(|p| count(&p["hostPort"]) != 0) {
        kv(out, col, "Host Ports", &render("hostPort").join(", "));
    }
}

/// A pod container's live lines: state, last state, readiness, restarts.
fn container_status(out: &mut Vec<String>, col: Col, s: &Value, now: i64) {
    kv(out, col, "State", &container_state(&s["state"], now));
    if s["lastState"].as_object().is_some_and(|m| !m.is_empty()) {
        kv(out, col, "Last State", &container_state(&s["lastState"], now));
    }
    kv(
        out,
        col,
        "Ready",
        &s["ready"].as_bool().unwrap_or(false).to_string(),
    );
    kv(out, col, "Restart Count", &count(&s["restartCount"]).to_string());
}

/// `Running for 5m`, `Waiting (CrashLoopBackOff)`, `Terminated (Error, exit code 1)`.
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
            count(&t["exitCode"])
        );
    }
    "<unknown>".into()
}

/// A probe as kubectl abbreviates it: `http-get http://:8080/healthz delay=0s timeout=1s
/// period=10s #success=1 #failure=3` (API defaults where a field is absent).
fn probe(p: &Value) -> String {
    let port = |h: &Value| format!("{}:{}", str_of(&h["host"]), scalar(&h["port"]));
    let how = if let Some(h) = p.get("httpGet") {
        let scheme = h["scheme"].as_str().unwrap_or("HTTP").to_lowercase();
        format!("http-get {scheme}://{}{}", port(h), str_of(&h["path"]))
    } else if let Some(t) = p.get("tcpSocket") {
        format!("tcp-socket {}", port(t))
    } else if let Some(g) = p.get("grpc") {
        format!("grpc <pod>:{} {}", scalar(&g["port"]), str_of(&g["service"]))
    } else if let Some(e) = p.get("exec") {
        format!("exec [{}]", strings(&e["command"]).join(" "))
    } else {
        "<unknown>".into()
    };
    let num = |key: &str, default: i64| p[key].as_i64().unwrap_or(default);
    format!(
        "{how} delay={}s timeout={}s period={}s #success={} #failure={}",
        num("initialDelaySeconds", 0),
        num("timeoutSeconds", 1),
        num("periodSeconds", 10),
        num("successThreshold", 1),
        num("failureThreshold", 3)
    )
}

/// `Environment:` names (literal values are not shown; references say where they come
/// from) and `Environment From:` sources.
fn environment(out: &mut Vec<String>, col: Col, c: &Value) {
    let vars: Vec<String> = items(&c["env"])
        .iter()
        .map(|e| {
            let (name, from) = (str_of(&e["name"]), &e["valueFrom"]);
            let key_ref = |what: &str, r: &Value| {
                format!(
                    "{name} <key {} of {what} {}>",
                    str_of(&r["key"]),
                    str_of(&r["name"])
                )
            };
            if let Some(r) = from.get("secretKeyRef") {
                key_ref("secret", r)
            } else if let Some(r) = from.get("configMapKeyRef") {
                key_ref("config map", r)
            } else if let Some(r) = from.get("fieldRef") {
                format!("{name} <field {}>", str_of(&r["fieldPath"]))
            } else if let Some(r) = from.get("resourceFieldRef") {
                format!("{name} <resource {}>", str_of(&r["resource"]))
            } else {
                name.to_owned()
            }
        })
        .collect();
    list_lines(out, col, "Environment", &vars);
    let sources: Vec<String> = items(&c["envFrom"])
        .iter()
        .map(|s| {
            let (what, r) = match s.get("secretRef") {
                Some(r) => ("secret", r),
                None => ("config map", &s["configMapRef"]),
            };
            match s["prefix"].as_str() {
                Some(p) => format!("{what} {} (prefix {p})", str_of(&r["name"])),
                None => format!("{what} {}", str_of(&r["name"])),
            }
        })
        .collect();
    if !sources.is_empty() {
        list_lines(out, col, "Environment From", &sources);
    }
}

/// `Mounts:` as `/path from volume (ro|rw[, subPath=x])`, sorted by path.
fn mounts(out: &mut Vec<String>, col: Col, list: &Value) {
    let mut lines: Vec<String> = items(list)
        .iter()
        .map(|m| {
            let mode = if m["readOnly"].as_bool() == Some(true) {
                "ro"
            } else {
                "rw"
            };
            let sub = m["subPath"]
                .as_str()
                .map(|p| format!(", subPath={p}"))
                .unwrap_or_default();
            format!(
                "{} from {} ({mode}{sub})",
                str_of(&m["mountPath"]),
                str_of(&m["name"])
            )
        })
        .collect();
    lines.sort();
    list_lines(out, col, "Mounts", &lines);
}

/// What pods and templates print after the containers: `Volumes` (name and source type),
/// `Priority Class Name` when set, `Node-Selectors`, `Tolerations`.
pub(super) fn pod_spec_tail(out: &mut Vec<String>, col: Col, spec: &Value) {
    let vols: Vec<String> = items(&spec["volumes"])
        .iter()
        .map(|v| {
            let src = v
                .as_object()
                .and_then(|m| m.keys().find(|k| *k != "name"))
                .cloned();
            format!("{} ({})", str_of(&v["name"]), src.unwrap_or_default())
        })
        .collect();
    kv(out, col, "Volumes", &or_none(vols.join(", ")));
    if let Some(p) = spec["priorityClassName"].as_str() {
        kv(out, col, "Priority Class Name", p);
    }
    kv(out, col, "Node-Selectors", &inline_labels(&spec["nodeSelector"]));
    list_lines(out, col, "Tolerations", &tolerations(&spec["tolerations"]));
}

/// A taint or toleration's `key=value:Effect` (`=value` and `:Effect` only when set).
pub(super) fn key_value_effect(t: &Value) -> String {
    let (key, value, effect) = (str_of(&t["key"]), str_of(&t["value"]), str_of(&t["effect"]));
    let mut s = key.to_owned();
    if !value.is_empty() {
        s = format!("{s}={value}");
    }
    if !effect.is_empty() {
        s = format!("{s}:{effect}");
    }
    s
}

/// Tolerations as kubectl prints them (`key=value:Effect op=Exists for 300s`), sorted by key.
fn tolerations(list: &Value) -> Vec<String> {
    let mut keyed: Vec<(&str, String)> = items(list)
        .iter()
        .map(|t| {
            let mut s = key_value_effect(t);
            if t["operator"] == "Exists" && str_of(&t["value"]).is_empty() {
                s = if s.is_empty() {
                    "op=Exists".into()
                } else {
                    format!("{s} op=Exists")
                };
            }
            if let Some(secs) = t["tolerationSeconds"].as_i64() {
                s = format!("{s} for {secs}s");
            }
            (str_of(&t["key"]), s)
        })
        .collect();
    keyed.sort_by(|a, b| a.0.cmp(b.0));
    keyed.into_iter().map(|(_, s)| s).collect()
}
