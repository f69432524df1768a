//! EndpointSlices (ADDRESSTYPE, PORTS, ENDPOINTS, AGE): slim decoder, row and columns. Keeps
//! only address types, addresses and port numbers/names; must not keep target refs, hostnames,
//! zones or conditions (no column shows them). Tested in `endpoints_tests.rs`.

use std::borrow::Cow;
use serde::Deserialize;

use ktui_kube::row::{Cell, Health, IntoRow, Row, RowCtx};

use super::{col, KindSpec};
use super::endpoints::MAX;
use super::join::first_of;
use super::meta::{nullable, text, text_or, ObjMeta};

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

/// The columns after NAME, index for index with the row's cells (`kubectl get endpointslice`).
pub static SPEC: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[col("ADDRESSTYPE"), col("PORTS"), col("ENDPOINTS"), col("AGE")]),
    status_col: None,
};

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
}
