//! Hand-encoded messages read through the schema-driven decoder: each value shows in the form
//! the JSON encoding gives it.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::wire::{put_bytes, put_int};
use super::*;

fn msg(build: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut out = Vec::new();
    build(&mut out);
    out
}

fn envelope_of(api_version: &str, kind: &str, raw: &[u8]) -> Vec<u8> {
    let type_meta = msg(|m| {
        put_bytes(m, 1, api_version.as_bytes());
        put_bytes(m, 2, kind.as_bytes());
    });
    let mut body = MAGIC.to_vec();
    put_bytes(&mut body, 1, &type_meta);
    put_bytes(&mut body, 2, raw);
    body
}

/// A pod as Go writes it: a cluster-less empty namespace is not written here, but an empty
/// `generateName` is (non-pointer strings always are).
fn pod(name: &str, namespace: &str) -> Vec<u8> {
    let created = msg(|t| put_int(t, 1, 1_714_557_600));
    let label = |k: &str, v: &str| {
        msg(|e| {
            put_bytes(e, 1, k.as_bytes());
            put_bytes(e, 2, v.as_bytes());
        })
    };
    let meta = msg(|m| {
        put_bytes(m, 1, name.as_bytes());
        put_bytes(m, 2, b"");
        put_bytes(m, 3, namespace.as_bytes());
        put_bytes(m, 6, b"4242");
        put_bytes(m, 8, &created);
        put_bytes(m, 9, &[]); // a zero deletionTimestamp: null
        put_bytes(m, 11, &label("app", "web"));
        put_bytes(m, 11, &label("tier", ""));
    });
    let port = msg(|p| {
        put_int(p, 1, 1);
        put_bytes(p, 3, b"http");
    });
    let probe_handler = msg(|h| put_bytes(h, 2, &msg(|g| put_bytes(g, 2, &port))));
    let container = |n: &str| {
        msg(|c| {
            put_bytes(c, 1, n.as_bytes());
            put_bytes(c, 10, &msg(|p| put_bytes(p, 1, &probe_handler)));
        })
    };
    let spec = msg(|s| {
        put_bytes(s, 2, &container("a"));
        put_bytes(s, 2, &container("b"));
        put_bytes(s, 10, b"node-1");
    });
    let cs = msg(|c| {
        put_bytes(c, 1, b"a");
        put_int(c, 5, u64::MAX); // restartCount: an int32 -1, sign-extended
    });
    let status = msg(|s| {
        put_bytes(s, 1, b"Running");
        put_bytes(s, 7, &[]);
        put_bytes(s, 8, &cs);
    });
    msg(|p| {
        put_bytes(p, 1, &meta);
        put_bytes(p, 2, &spec);
        put_bytes(p, 3, &status);
        put_bytes(p, 99, b"a field from a newer server");
    })
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Pod {
    metadata: Meta,
    spec: serde_json::Value,
    status: Status,
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Meta {
    name: String,
    namespace: Option<String>,
    generate_name: Option<String>,
    resource_version: Option<String>,
    creation_timestamp: Option<String>,
    deletion_timestamp: Option<String>,
    labels: BTreeMap<String, String>,
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Status {
    phase: Option<String>,
    #[serde(default)]
    nope: Option<String>,
    #[serde(flatten)]
    rest: BTreeMap<String, serde_json::Value>,
}

#[test]
fn a_list_reads_as_its_json_would() {
    let list_meta = msg(|m| {
        put_bytes(m, 2, b"77");
        put_bytes(m, 3, b"");
    });
    let raw = msg(|l| {
        put_bytes(l, 1, &list_meta);
        put_bytes(l, 2, &pod("web-1", "shop"));
        put_bytes(l, 2, &pod("web-2", ""));
    });
    let body = envelope_of("v1", "PodList", &raw);
    let page = list::<Pod>(&body, "pod").unwrap();
    assert_eq!(page.resource_version.as_deref(), Some("77"));
    assert_eq!(page.continue_, None);
    assert!(page.skipped.is_empty(), "{:?}", page.skipped);
    let p = &page.items[0];
    assert_eq!(p.metadata.name, "web-1");
    assert_eq!(p.metadata.namespace.as_deref(), Some("shop"));
    assert_eq!(page.items[1].metadata.namespace, None, "empty strings are absent");
    assert_eq!(p.metadata.generate_name, None);
    assert_eq!(p.metadata.resource_version.as_deref(), Some("4242"));
    assert_eq!(
        p.metadata.creation_timestamp.as_deref(),
        Some("2024-05-01T10:00:00Z")
    );
    assert_eq!(p.metadata.deletion_timestamp, None);
    assert_eq!(
        p.metadata.labels,
        BTreeMap::from([("app".into(), "web".into()), ("tier".into(), "".into())])
    );
    assert_eq!(
        p.spec,
        serde_json::json!({
            "containers": [
                {"name": "a", "livenessProbe": {"httpGet": {"port": "http"}}},
                {"name": "b", "livenessProbe": {"httpGet": {"port": "http"}}},
            ],
            "nodeName": "node-1",
        })
    );
    assert_eq!(p.status.phase.as_deref(), Some("Running"));
    assert_eq!(p.status.rest["startTime"], serde_json::Value::Null);
    assert_eq!(
        p.status.rest["containerStatuses"],
        serde_json::json!([{"name": "a", "restartCount": -1}])
    );
}

#[test]
fn an_item_that_does_not_decode_is_named_and_skipped() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Strict {
        metadata: StrictMeta,
    }
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct StrictMeta {
        name: String,
        labels: BTreeMap<String, u32>,
    }
    let raw = msg(|l| put_bytes(l, 2, &pod("web-1", "shop")));
    let page = list::<Strict>(&envelope_of("v1", "PodList", &raw), "pod").unwrap();
    assert!(page.items.is_empty());
    assert_eq!(page.skipped.len(), 1);
    assert!(
        page.skipped[0].starts_with("pod/shop/web-1: "),
        "{:?}",
        page.skipped
    );
}

#[test]
fn a_watch_frame_holds_an_enveloped_object() {
    let object = envelope_of("v1", "Pod", &pod("web-1", "shop"));
    let frame = msg(|f| {
        put_bytes(f, 1, b"MODIFIED");
        put_bytes(f, 2, &msg(|x| put_bytes(x, 1, &object)));
    });
    let got = watch_frame(&frame).unwrap();
    assert_eq!(got.type_, "MODIFIED");
    assert_eq!(got.object.kind, "Pod");
    let p: Pod = super::object(&got.object).unwrap();
    assert_eq!(p.metadata.name, "web-1");
    assert_eq!(
        object_name(&got.object, "pod"),
        ("pod/shop/web-1".into(), Some("4242".into()))
    );
}

#[test]
fn bodies_that_are_not_protobuf_lists_fail() {
    assert!(list::<Pod>(b"{\"items\":[]}", "pod").is_err());
    assert!(list::<Pod>(&envelope_of("v1", "Pod", &pod("a", "b")), "pod").is_err());
    assert!(list::<Pod>(&envelope_of("v1", "GizmoList", &[]), "pod").is_err());
    let truncated = envelope_of("v1", "PodList", &msg(|l| put_bytes(l, 2, &pod("a", "b"))));
    assert!(list::<Pod>(&truncated[..truncated.len() - 3], "pod").is_err());
}

#[test]
fn content_types_are_told_apart() {
    let h = |s: &'static str| http::HeaderValue::from_static(s);
    assert!(is_protobuf(Some(&h("application/vnd.kubernetes.protobuf"))));
    assert!(is_protobuf(Some(&h(
        "application/vnd.kubernetes.protobuf;stream=watch"
    ))));
    assert!(!is_protobuf(Some(&h("application/json"))));
    assert!(!is_protobuf(None));
}
