//! The kind-specific describe sections of Services, Nodes and Namespaces, as `kubectl
//! describe` lays them out, from the one object alone. Must not claim what only other objects
//! could tell: no `Endpoints` (EndpointSlices), no node's pods or allocated resources, no
//! namespace quotas or limit ranges.

use serde_json::Value;

use super::fmt::{
    field, inline_labels, items, kv, list_lines, or_none, resource_lines, scalar, set_fields, str_of,
    strings, Col, TOP,
};
use super::template::key_value_effect;

/// Service: selector, type, IP families and addresses, external addresses, one
/// `Port`/`TargetPort`/`NodePort` group per port, affinity and traffic policies.
pub(super) fn service(out: &mut Vec<String>, obj: &Value) {
    let (spec, status) = (&obj["spec"], &obj["status"]);
    field(out, "Selector", &inline_labels(&spec["selector"]));
    field(out, "Type", str_of(&spec["type"]));
    if let Some(p) = spec["ipFamilyPolicy"].as_str() {
        field(out, "IP Family Policy", p);
    }
    field(
        out,
        "IP Families",
        &or_none(strings(&spec["ipFamilies"]).join(",")),
    );
    field(out, "IP", &or_none(str_of(&spec["clusterIP"]).to_owned()));
    field(out, "IPs", &or_none(strings(&spec["clusterIPs"]).join(",")));
    let joined = |key: &str| strings(&spec[key]).join(",");
    for (label, value) in [
        ("External IPs", joined("externalIPs")),
        (
            "Desired LoadBalancer IP",
            str_of(&spec["loadBalancerIP"]).to_owned(),
        ),
        ("External Name", str_of(&spec["externalName"]).to_owned()),
    ] {
        if !value.is_empty() {
            field(out, label, &value);
        }
    }
    let ingress: Vec<&str> = items(&status["loadBalancer"]["ingress"])
        .iter()
        .filter_map(|i| i["ip"].as_str().or_else(|| i["hostname"].as_str()))
        .collect();
    if !ingress.is_empty() {
        field(out, "LoadBalancer Ingress", &ingress.join(", "));
    }
    for p in items(&spec["ports"]) {
        let name = p["name"].as_str().filter(|n| !n.is_empty()).unwrap_or("<unset>");
        let proto = p["protocol"].as_str().unwrap_or("TCP");
        field(out, "Port", &format!("{name} {}/{proto}", scalar(&p["port"])));
        let target = p.get("targetPort").unwrap_or(&p["port"]);
        field(out, "TargetPort", &format!("{}/{proto}", scalar(target)));
        if let Some(a) = p["appProtocol"].as_str() {
            field(out, "AppProtocol", a);
        }
        if let Some(np) = p["nodePort"].as_i64().filter(|n| *n != 0) {
            field(out, "NodePort", &format!("{name} {np}/{proto}"));
        }
    }
    field(
        out,
        "Session Affinity",
        spec["sessionAffinity"].as_str().unwrap_or("None"),
    );
    let policies = [
        ("External Traffic Policy", "externalTrafficPolicy"),
        ("Internal Traffic Policy", "internalTrafficPolicy"),
        ("HealthCheck NodePort", "healthCheckNodePort"),
        ("Traffic Distribution", "trafficDistribution"),
    ];
    set_fields(out, TOP, spec, &policies);
    let ranges = joined("loadBalancerSourceRanges");
    if !ranges.is_empty() {
        field(out, "LoadBalancer Source Ranges", &ranges);
    }
}

/// Roles from `node-role.kubernetes.io/<role>` label keys and the `kubernetes.io/role`
/// value, sorted and de-duplicated.
fn node_roles(labels: &Value) -> String {
    let mut roles: Vec<&str> = labels
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| match k.strip_prefix("node-role.kubernetes.io/") {
            Some(role) => Some(role),
            None if k == "kubernetes.io/role" => v.as_str(),
            None => None,
        })
        .filter(|r| !r.is_empty())
        .collect();
    roles.sort_unstable();
    roles.dedup();
    or_none(roles.join(","))
}

/// Node: roles, taints, cordon, addresses, capacity and allocatable, system info, pod
/// CIDRs, provider ID. (Conditions come from the common table.)
pub(super) fn node(out: &mut Vec<String>, obj: &Value) {
    let (spec, status) = (&obj["spec"], &obj["status"]);
    field(out, "Roles", &node_roles(&obj["metadata"]["labels"]));
    let mut taints: Vec<(String, String)> = items(&spec["taints"])
        .iter()
        .map(|t| {
            (
                format!("{},{}", str_of(&t["effect"]), str_of(&t["key"])),
                key_value_effect(t),
            )
        })
        .collect();
    taints.sort();
    let taints: Vec<String> = taints.into_iter().map(|(_, t)| t).collect();
    list_lines(out, TOP, "Taints", &taints);
    let cordoned = spec["unschedulable"].as_bool().unwrap_or(false);
    field(out, "Unschedulable", &cordoned.to_string());
    let addresses = items(&status["addresses"]);
    if addresses.is_empty() {
        field(out, "Addresses", "<none>");
    } else {
        out.push("Addresses:".into());
    }
    for a in addresses {
        kv(out, Col::new(2, 16), str_of(&a["type"]), str_of(&a["address"]));
    }
    resource_lines(out, "Capacity", &status["capacity"]);
    resource_lines(out, "Allocatable", &status["allocatable"]);
    let info = &status["nodeInfo"];
    out.push("System Info:".into());
    for (label, key) in [
        ("Machine ID", "machineID"),
        ("System UUID", "systemUUID"),
        ("Boot ID", "bootID"),
        ("Kernel Version", "kernelVersion"),
        ("OS Image", "osImage"),
        ("Operating System", "operatingSystem"),
        ("Architecture", "architecture"),
        ("Container Runtime Version", "containerRuntimeVersion"),
        ("Kubelet Version", "kubeletVersion"),
    ] {
        kv(out, Col::new(2, 28), label, str_of(&info[key]));
    }
    if let Some(cidr) = spec["podCIDR"].as_str().filter(|c| !c.is_empty()) {
        field(out, "PodCIDR", cidr);
    }
    let cidrs = strings(&spec["podCIDRs"]);
    if !cidrs.is_empty() {
        field(out, "PodCIDRs", &cidrs.join(","));
    }
    if let Some(id) = spec["providerID"].as_str().filter(|c| !c.is_empty()) {
        field(out, "ProviderID", id);
    }
}

/// Namespace: its phase, and a plain note that quotas and limit ranges are other objects.
pub(super) fn namespace(out: &mut Vec<String>, obj: &Value) {
    field(
        out,
        "Status",
        &or_none(str_of(&obj["status"]["phase"]).to_owned()),
    );
    field(
        out,
        "Quotas, Limits",
        "not shown here (ResourceQuota and LimitRange are separate objects)",
    );
}
