//! Ingresses: slim decoder and row (CLASS, HOSTS, ADDRESS, PORTS, AGE; no wide columns).
//! Must not keep backends, paths or TLS secrets (TLS is only counted), nor the legacy
//! `kubernetes.io/ingress.class` annotation (kubectl ignores it).

use std::borrow::Cow;
use serde::Deserialize;

use ktui_kube::row::{Cell, Health, IntoRow, Row, RowCtx};

use super::{col, KindSpec};
use super::join::join_more;
use super::meta::{nullable, text, Count, ObjMeta};
use super::service::{lb_ingress_string, LoadBalancerStatus};

/// An ingress, decoded only as far as its columns need.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct IngressObj {
    /// `metadata`.
    pub metadata: ObjMeta,
    /// `spec`.
    pub spec: IngressSpec,
    /// `status`.
    pub status: IngressStatus,
}

/// The parts of `spec` the columns read.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct IngressSpec {
    /// `spec.ingressClassName`.
    pub ingress_class_name: Option<String>,
    /// `spec.rules`, each reduced to its `host`.
    #[serde(deserialize_with = "nullable")]
    pub rules: Vec<IngressRule>,
    /// Number of `spec.tls` entries.
    pub tls: Count,
}

/// One `spec.rules` entry.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct IngressRule {
    /// `host` (empty for a catch-all rule).
    pub host: String,
}

/// `status` (same shape as a Service's load-balancer status).
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct IngressStatus {
    /// `status.loadBalancer`.
    pub load_balancer: LoadBalancerStatus,
}

/// HOSTS (`formatHosts`): non-empty hosts until three are collected, then
/// ` + {rules − 3} more...` if any rule follows (host-less rules count); `*` without hosts.
pub fn hosts(rules: &[IngressRule]) -> String {
    const MAX: usize = 3;
    let mut shown: Vec<&str> = Vec::with_capacity(MAX);
    let mut more = false;
    for rule in rules {
        if shown.len() == MAX {
            more = true;
            break;
        }
        if !rule.host.is_empty() {
            shown.push(&rule.host);
        }
    }
    if shown.is_empty() {
        return "*".into();
    }
    join_more(&shown, ",", if more { rules.len() - MAX } else { 0 })
}

/// The columns after NAME, index for index with the row's cells (`kubectl get ingress`).
pub static SPEC: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[col("CLASS"), col("HOSTS"), col("ADDRESS"), col("PORTS"), col("AGE")]),
    status_col: None,
};

impl IntoRow for IngressObj {
    fn into_row(self, ctx: &RowCtx) -> Row {
        let spec = &self.spec;
        let cells = vec![
            spec.ingress_class_name
                .as_deref()
                .map_or(Cell::Static("<none>"), text),
            text(&hosts(&spec.rules)),
            // The server prints Tables with wide options: ADDRESS is never cut.
            text(&lb_ingress_string(&self.status.load_balancer.ingress, true)),
            Cell::Static(if spec.tls.0 > 0 { "80, 443" } else { "80" }),
            Cell::Age(self.metadata.creation_timestamp),
        ];
        self.metadata.into_row(ctx, cells, Health::Ok, None)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::{hosts, IngressRule};
    use ktui_kube::builtin::BuiltinKind;
    use crate::testutil::{ago, cells};

    fn rules(hosts: &[&str]) -> Vec<IngressRule> {
        hosts
            .iter()
            .map(|h| IngressRule { host: h.to_string() })
            .collect()
    }

    fn ing(spec: Value, status: Value) -> Value {
        json!({"metadata": {"name": "i", "namespace": "ns", "creationTimestamp": ago(12)}, "spec": spec, "status": status})
    }

    #[test]
    fn verified_hosts() {
        assert_eq!(
            hosts(&rules(&["a.io", "", "b.io", "c.io", "d.io", "e.io"])),
            "a.io,b.io,c.io + 3 more..."
        );
        assert_eq!(hosts(&rules(&["", "a.io", "b.io", "c.io"])), "a.io,b.io,c.io");
        assert_eq!(hosts(&rules(&[])), "*");
        assert_eq!(hosts(&rules(&["", ""])), "*");
        assert_eq!(
            hosts(&rules(&["a.io", "b.io", "c.io", ""])),
            "a.io,b.io,c.io + 1 more..."
        );
    }

    #[test]
    fn columns() {
        let full = ing(
            json!({"ingressClassName": "nginx", "tls": [{"hosts": ["a.io"], "secretName": "s"}],
                "rules": [{"host": "a.io", "http": {"paths": []}}, {"host": "b.io"}]}),
            json!({"loadBalancer": {"ingress": [{"ip": "10.0.0.9"}, {"hostname": "lb.example.com"}, {"ip": "10.0.0.10"},
                {"ip": "10.0.0.9", "ports": [{"port": 80, "protocol": "TCP"}]}]}}),
        );
        assert_eq!(
            cells(BuiltinKind::Ingress, full),
            [
                "nginx",
                "a.io,b.io",
                "10.0.0.10,10.0.0.9,lb.example.com",
                "80, 443",
                "12s"
            ]
        );
        let bare = json!({"metadata": {"annotations": {"kubernetes.io/ingress.class": "legacy"}},
            "spec": {"defaultBackend": {"service": {"name": "x", "port": {"number": 80}}}}});
        assert_eq!(
            cells(BuiltinKind::Ingress, bare),
            ["<none>", "*", "", "80", "<unknown>"]
        );
        let empty_class = ing(json!({"ingressClassName": "", "tls": []}), json!({}));
        assert_eq!(cells(BuiltinKind::Ingress, empty_class)[..4], ["", "*", "", "80"]);
    }
}
