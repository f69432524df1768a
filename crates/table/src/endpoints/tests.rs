//! Endpoints and EndpointSlice row tests: the ENDPOINTS/PORTS rules of kubectl-columns.md §11.
//! Test-only.

use serde_json::{json, Value};

use ktui_kube::builtin::BuiltinKind;
use crate::testutil::{ago, cells};

const EP: BuiltinKind = BuiltinKind::Endpoints;
const ES: BuiltinKind = BuiltinKind::EndpointSlice;

fn ep(subsets: Value) -> Value {
    json!({"metadata": {"name": "e", "namespace": "ns", "creationTimestamp": ago(7)}, "subsets": subsets})
}

#[test]
fn endpoints_verified_examples() {
    let two_by_two = ep(json!([{"addresses": [{"ip": "10.1.0.1"}, {"ip": "10.1.0.2"}],
        "notReadyAddresses": [{"ip": "10.1.0.9"}],
        "ports": [{"name": "http", "port": 80}, {"name": "https", "port": 443}]}]));
    assert_eq!(
        cells(EP, two_by_two),
        ["10.1.0.1:80,10.1.0.2:80,10.1.0.1:443 + 1 more...", "7s"]
    );
    let v6_and_portless = ep(
        json!([{"addresses": [{"ip": "fd00::1"}], "ports": [{"port": 80}]},
        {"addresses": [{"ip": "10.2.0.1"}]}]),
    );
    assert_eq!(cells(EP, v6_and_portless)[0], "[fd00::1]:80,10.2.0.1");
    let exactly_three = ep(json!([{"addresses": [{"ip": "a"}, {"ip": "b"}, {"ip": "c"}]}]));
    assert_eq!(cells(EP, exactly_three)[0], "a,b,c");
    let many_portless = ep(json!([{"addresses": [{"ip": "a"}, {"ip": "b"}]},
        {"addresses": [{"ip": "c"}, {"ip": "d"}, {"ip": "e"}]}]));
    assert_eq!(cells(EP, many_portless)[0], "a,b,c + 2 more...");
}

#[test]
fn endpoints_placeholders() {
    assert_eq!(cells(EP, ep(json!(null))), ["<none>", "7s"]);
    assert_eq!(cells(EP, ep(json!([]))), ["<none>", "7s"]);
    let not_ready = ep(json!([{"notReadyAddresses": [{"ip": "10.1.0.9"}], "ports": [{"port": 80}]}]));
    assert_eq!(cells(EP, not_ready), ["", "7s"]);
    assert_eq!(cells(EP, json!({})), ["<none>", "<unknown>"]);
}

fn slice(ports: Value, endpoints: Value) -> Value {
    json!({"metadata": {"name": "s", "namespace": "ns", "creationTimestamp": ago(3)}, "addressType": "IPv4",
        "ports": ports, "endpoints": endpoints})
}

#[test]
fn slice_ports_and_endpoints() {
    let many = slice(
        json!([{"name": "http", "port": 80, "protocol": "TCP"}, {"name": "named"}, {"name": ""},
            {"name": "metrics", "port": 9090}]),
        json!([{"addresses": ["10.0.0.1"], "conditions": {"ready": false}}, {"addresses": ["10.0.0.2"]},
            {"addresses": ["10.0.0.3", "10.0.0.4"]}]),
    );
    assert_eq!(
        cells(ES, many),
        [
            "IPv4",
            "80,named, + 1 more...",
            "10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...",
            "3s"
        ]
    );
    let few = slice(
        json!([{"port": 53}, {"port": 9153}]),
        json!([{"addresses": ["10.0.0.1"]}]),
    );
    assert_eq!(cells(ES, few)[1..3], ["53,9153", "10.0.0.1"]);
}

#[test]
fn slice_placeholders() {
    assert_eq!(
        cells(ES, slice(json!(null), json!([]))),
        ["IPv4", "<unset>", "<unset>", "3s"]
    );
    // A port with neither number nor name: the server defaults the name to "", so it prints
    // nothing (never `*`); a lone empty entry makes the whole list empty, hence <unset>.
    let nameless = slice(json!([{}]), json!([{"addresses": []}]));
    assert_eq!(cells(ES, nameless)[1..3], ["<unset>", "<unset>"]);
    assert_eq!(cells(ES, json!({})), ["", "<unset>", "<unset>", "<unknown>"]);
}
