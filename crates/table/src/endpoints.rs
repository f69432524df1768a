//! Endpoints (ENDPOINTS, AGE): slim decoder, row and columns. Keeps only addresses and port
//! numbers; must not keep target refs, hostnames or not-ready addresses (no column shows them).
//! Its tests also cover EndpointSlices (`endpointslice.rs`), which share the listing rules.

use std::borrow::Cow;
use serde::Deserialize;

use ktui_kube::row::{Cell, Health, IntoRow, Row, RowCtx};

use super::{col, KindSpec};
use super::join::first_of;
use super::meta::{nullable, text, ObjMeta};

/// At most this many addresses or ports are listed before ` + N more...`.
pub(super) const MAX: usize = 3;

/// A core/v1 Endpoints object, decoded only as far as its columns need.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct EndpointsObj {
    /// `metadata`.
    pub metadata: ObjMeta,
    /// `subsets`.
    #[serde(deserialize_with = "nullable")]
    pub subsets: Vec<EndpointSubset>,
}

/// One `subsets` entry.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct EndpointSubset {
    /// `addresses` (ready ones only; `notReadyAddresses` are never listed).
    #[serde(deserialize_with = "nullable")]
    pub addresses: Vec<EndpointAddress>,
    /// `ports`.
    #[serde(deserialize_with = "nullable")]
    pub ports: Vec<EndpointPort>,
}

/// One `subsets[].addresses` entry.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct EndpointAddress {
    /// `ip`.
    pub ip: String,
}

/// One `subsets[].ports` entry.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct EndpointPort {
    /// `port`.
    pub port: i64,
}

/// `net.JoinHostPort`: `ip:port`, IPv6 in brackets (`[fd00::1]:80`).
fn host_port(ip: &str, port: i64) -> String {
    if ip.contains(':') {
        format!("[{ip}]:{port}")
    } else {
        format!("{ip}:{port}")
    }
}

/// ENDPOINTS (`formatEndpoints`): per subset, each address `ip` when it has no ports, else
/// for each port each address as `ip:port`; first three, then ` + N more...`; `<none>` without
/// subsets (blank when subsets list no ready address).
pub fn endpoints(subsets: &[EndpointSubset]) -> Cell {
    if subsets.is_empty() {
        return Cell::Static("<none>");
    }
    let entries = subsets.iter().flat_map(|ss| {
        let bare = ss
            .ports
            .is_empty()
            .then(|| ss.addresses.iter().map(|a| a.ip.clone()));
        let joined = ss
            .ports
            .iter()
            .flat_map(move |p| ss.addresses.iter().map(move |a| host_port(&a.ip, p.port)));
        bare.into_iter().flatten().chain(joined)
    });
    text(&first_of(entries, MAX, ","))
}

/// The columns after NAME, index for index with the row's cells (`kubectl get endpoints`).
pub static SPEC: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[col("ENDPOINTS"), col("AGE")]),
    status_col: None,
};

impl IntoRow for EndpointsObj {
    fn into_row(self, ctx: &RowCtx) -> Row {
        let cells = vec![
            endpoints(&self.subsets),
            Cell::Age(self.metadata.creation_timestamp),
        ];
        self.metadata.into_row(ctx, cells, Health::Ok, None)
    }
}

#[cfg(test)]
mod tests;
