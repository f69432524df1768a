//! Services: slim decoder and row (TYPE, CLUSTER-IP, EXTERNAL-IP, PORT(S), AGE; wide
//! SELECTOR). Must not keep anything else of the spec (no targetPort, no session affinity).

use std::borrow::Cow;
use serde::Deserialize;

use ktui_kube::row::{Cell, Drill, Health, IntoRow, Row, RowCtx};

use super::{col, wide, KindSpec};
use super::labels::{format_labels, labels_cell};
use super::meta::{pairs, text, ObjMeta};

/// A service, decoded only as far as its columns need.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ServiceObj {
    /// `metadata`.
    pub metadata: ObjMeta,
    /// `spec`.
    pub spec: ServiceSpec,
    /// `status`.
    pub status: ServiceStatus,
}

/// The parts of `spec` the columns read.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ServiceSpec {
    /// `spec.type` (the server defaults it to `ClusterIP`).
    #[serde(rename = "type")]
    pub type_: Option<String>,
    /// `spec.clusterIPs` (the printer never reads `spec.clusterIP`).
    #[serde(rename = "clusterIPs")]
    pub cluster_ips: Vec<String>,
    /// `spec.externalIPs`.
    #[serde(rename = "externalIPs")]
    pub external_ips: Vec<String>,
    /// `spec.externalName`.
    pub external_name: String,
    /// `spec.ports`.
    pub ports: Vec<ServicePort>,
    /// `spec.selector`.
    #[serde(deserialize_with = "pairs")]
    pub selector: Vec<(String, String)>,
}

/// One `spec.ports` entry.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ServicePort {
    /// `port`.
    pub port: i64,
    /// `nodePort` (0 when unset).
    pub node_port: i64,
    /// `protocol` (the server defaults it to `TCP`).
    pub protocol: Option<String>,
}

/// `status`.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ServiceStatus {
    /// `status.loadBalancer`.
    pub load_balancer: LoadBalancerStatus,
}

/// `status.loadBalancer`.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct LoadBalancerStatus {
    /// `status.loadBalancer.ingress`.
    pub ingress: Vec<LbIngress>,
}

/// One `status.loadBalancer.ingress` entry.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct LbIngress {
    /// `ip`.
    pub ip: String,
    /// `hostname` (used when `ip` is empty).
    pub hostname: String,
}

/// Load-balancer ingress addresses: ip or hostname, de-duplicated, sorted, joined by `,`; cut
/// to 13 bytes + `...` past 16 bytes unless `wide`. The server builds Tables with wide
/// options, so `kubectl get` shows the uncut list in both modes: rows use `wide = true`.
pub fn lb_ingress_string(ingress: &[LbIngress], wide: bool) -> String {
    let mut addrs: Vec<&str> = ingress
        .iter()
        .map(|i| {
            if i.ip.is_empty() {
                i.hostname.as_str()
            } else {
                i.ip.as_str()
            }
        })
        .filter(|a| !a.is_empty())
        .collect();
    addrs.sort_unstable();
    addrs.dedup();
    let mut s = addrs.join(",");
    if !wide && s.len() > 16 {
        let mut cut = 13;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
        s.push_str("...");
    }
    s
}

impl ServiceObj {
    /// EXTERNAL-IP by service type.
    fn external_ip(&self, wide: bool) -> Cell {
        let spec = &self.spec;
        match spec.type_.as_deref().unwrap_or("ClusterIP") {
            "ClusterIP" | "NodePort" if spec.external_ips.is_empty() => Cell::Static("<none>"),
            "ClusterIP" | "NodePort" => text(&spec.external_ips.join(",")),
            "LoadBalancer" => {
                let lb = lb_ingress_string(&self.status.load_balancer.ingress, wide);
                if !spec.external_ips.is_empty() {
                    let mut all: Vec<&str> = if lb.is_empty() {
                        vec![]
                    } else {
                        lb.split(',').collect()
                    };
                    all.extend(spec.external_ips.iter().map(String::as_str));
                    text(&all.join(","))
                } else if !lb.is_empty() {
                    text(&lb)
                } else {
                    Cell::Static("<pending>")
                }
            }
            "ExternalName" => text(&spec.external_name),
            _ => Cell::Static("<unknown>"),
        }
    }

    /// PORT(S): `port/proto` or `port:nodePort/proto`, joined by `,`; `<none>` without ports.
    fn ports(&self) -> Cell {
        if self.spec.ports.is_empty() {
            return Cell::Static("<none>");
        }
        let s: Vec<String> = self
            .spec
            .ports
            .iter()
            .map(|p| {
                let proto = p.protocol.as_deref().unwrap_or("TCP");
                if p.node_port > 0 {
                    format!("{}:{}/{proto}", p.port, p.node_port)
                } else {
                    format!("{}/{proto}", p.port)
                }
            })
            .collect();
        text(&s.join(","))
    }
}

/// The columns after NAME, index for index with the row's cells (`kubectl get service`).
pub static SPEC: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        col("TYPE"),
        col("CLUSTER-IP"),
        col("EXTERNAL-IP"),
        col("PORT(S)"),
        col("AGE"),
        wide("SELECTOR"),
    ]),
    status_col: None,
};

impl IntoRow for ServiceObj {
    fn into_row(self, ctx: &RowCtx) -> Row {
        let type_ = self.spec.type_.as_deref().unwrap_or("ClusterIP");
        let external = self.external_ip(true);
        let health = if external == Cell::Static("<pending>") {
            Health::Warn
        } else {
            Health::Ok
        };
        let cells = vec![
            text(type_),
            self.spec
                .cluster_ips
                .first()
                .map_or(Cell::Static("<none>"), |ip| text(ip)),
            external,
            self.ports(),
            Cell::Age(self.metadata.creation_timestamp),
            labels_cell(&self.spec.selector),
        ];
        let drill = (!self.spec.selector.is_empty())
            .then(|| Drill::Selector(format_labels(&self.spec.selector).into_boxed_str()));
        self.metadata.into_row(ctx, cells, health, drill)
    }
}

#[cfg(test)]
mod tests;
