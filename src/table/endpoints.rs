//! Endpoints (ENDPOINTS, AGE) and EndpointSlices (ADDRESSTYPE, PORTS, ENDPOINTS, AGE): slim
//! decoders and rows. Keeps only addresses and port numbers/names; must not keep target refs,
//! hostnames, zones or conditions (no column shows them).

use serde::Deserialize;

use crate::kube::row::{Cell, Health, IntoRow, Row, RowCtx};

use super::join::first_of;
use super::meta::{nullable, text, text_or, ObjMeta};

/// At most this many addresses or ports are listed before ` + N more...`.
const MAX: usize = 3;

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

impl IntoRow for EndpointsObj {
    fn into_row(self, ctx: &RowCtx) -> Row {
        let cells = vec![
            endpoints(&self.subsets),
            Cell::Age(self.metadata.creation_timestamp),
        ];
        self.metadata.into_row(ctx, cells, Health::Ok, None)
    }

    fn resource_version(&self) -> Option<&str> {
        self.metadata.resource_version.as_deref()
    }
}

/// A discovery.k8s.io/v1 EndpointSlice, decoded only as far as its columns need.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct EndpointSliceObj {
    /// `metadata`.
    pub metadata: ObjMeta,
    /// `addressType` (`IPv4`, `IPv6`, `FQDN`).
    pub address_type: String,
    /// `ports`.
    #[serde(deserialize_with = "nullable")]
    pub ports: Vec<SlicePort>,
    /// `endpoints`.
    #[serde(deserialize_with = "nullable")]
    pub endpoints: Vec<SliceEndpoint>,
}

/// One `ports` entry of a slice.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct SlicePort {
    /// `port`.
    pub port: Option<i64>,
    /// `name` (the server defaults a missing name to `""`).
    pub name: Option<String>,
}

/// One `endpoints` entry of a slice.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct SliceEndpoint {
    /// `addresses`.
    #[serde(deserialize_with = "nullable")]
    pub addresses: Vec<String>,
}

/// `listWithMoreString`: `<unset>` when nothing (or only empty text) is listed.
fn unset_if_empty(s: &str) -> Cell {
    text_or(s, "<unset>")
}

impl EndpointSliceObj {
    /// PORTS (`formatDiscoveryPorts`): each port number, else its name (a missing name is
    /// `""`, as the server defaults it), first three, then ` + N more...`.
    fn ports(&self) -> Cell {
        let ports = self.ports.iter().map(|p| match p.port {
            Some(n) => n.to_string(),
            None => p.name.clone().unwrap_or_default(),
        });
        unset_if_empty(&first_of(ports, MAX, ","))
    }

    /// ENDPOINTS (`formatDiscoveryEndpoints`): every address of every endpoint, ready or not,
    /// first three, then ` + N more...`.
    fn endpoints(&self) -> Cell {
        let addrs = self.endpoints.iter().flat_map(|e| e.addresses.iter());
        unset_if_empty(&first_of(addrs, MAX, ","))
    }
}

impl IntoRow for EndpointSliceObj {
    fn into_row(self, ctx: &RowCtx) -> Row {
        let cells = vec![
            text(&self.address_type),
            self.ports(),
            self.endpoints(),
            Cell::Age(self.metadata.creation_timestamp),
        ];
        self.metadata.into_row(ctx, cells, Health::Ok, None)
    }

    fn resource_version(&self) -> Option<&str> {
        self.metadata.resource_version.as_deref()
    }
}

#[cfg(test)]
#[path = "endpoints_tests.rs"]
mod tests;
