//! Secrets are read from the API server's printed rows (against a scripted API server under
//! paused tokio time): list, watch and the resume probe ask `as=Table` with
//! `includeObject=Metadata`, so no list or watch carries a secret's data; the rows' TYPE and
//! DATA are the server's cells, watch events' one-row Tables apply as objects do, and a server
//! that prints no tables answers whole secrets, which give the same row. Also: with
//! `[watch] streaming_lists = "auto"` (`stream_json: false`) protobuf informers stream and
//! JSON ones page, and printed rows page whatever the setting.

use crate::scripted_api;

use std::sync::Arc;

use http::{Response, StatusCode};
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::informer::{Encoding, InformerConfig, ListMethod, StreamingLists};
use ktui::kube::row::Cell;
use ktui::table::{PodObj, SecretObj};
use kube::client::Body;
use serde_json::{json, Value};
use tower_test::mock::SendResponse;

use scripted_api::*;

const TABLE_FIRST: &str = "application/json;as=Table;v=v1;g=meta.k8s.io, application/json";
const TABLE_TYPE: &str = "application/json;as=Table;v=v1;g=meta.k8s.io";

fn respond_as(send: SendResponse<Response<Body>>, content_type: &str, body: Vec<u8>) {
    let mut res = Response::new(Body::from(body));
    *res.status_mut() = StatusCode::OK;
    res.headers_mut()
        .insert("content-type", content_type.parse().unwrap());
    send.send_response(res);
}

/// A row as kube-apiserver prints a secret: Name, Type, Data, Age; the object's metadata only.
fn printed(name: &str, rv: u64, ty: &str, keys: u64) -> Value {
    json!({"cells": [name, ty, keys, "5m"], "object": {"kind": "PartialObjectMetadata",
        "apiVersion": "meta.k8s.io/v1", "metadata": {"name": name, "namespace": "default",
        "uid": format!("uid-{name}"), "resourceVersion": rv.to_string(),
        "creationTimestamp": "2026-01-01T00:00:00Z"}}})
}

fn table(rows: Vec<Value>, rv: u64, columns: bool) -> Value {
    let cols = if columns {
        json!([{"name": "Name", "type": "string"}, {"name": "Type", "type": "string"},
               {"name": "Data", "type": "string"}, {"name": "Age", "type": "string"}])
    } else {
        json!([])
    };
    json!({"kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": {"resourceVersion": rv.to_string()},
           "columnDefinitions": cols, "rows": rows})
}

fn type_and_data(h: &Harness, name: &str) -> (String, i64) {
    let snap = h.slot.peek();
    let row = snap.rows.iter().find(|r| &*r.name == name).expect(name);
    let ty = match &row.cells[0] {
        Cell::Text(t) => t.to_string(),
        Cell::Shared(t) => t.to_string(),
        Cell::Static(t) => t.to_string(),
        other => format!("{other:?}"),
    };
    let Cell::Int(n) = row.cells[1] else {
        panic!("DATA is {:?}", row.cells[1])
    };
    (ty, n)
}

#[tokio::test(start_paused = true)]
async fn secrets_are_listed_and_watched_as_printed_rows_with_metadata_only() {
    let mut h = start_kind::<SecretObj>(BuiltinKind::Secret, InformerConfig::default());
    let (uri, accept, send) = next_asked(&mut h).await;
    assert!(!is_watch(&uri), "{uri}");
    assert_eq!(
        accept, TABLE_FIRST,
        "secrets never ask for protobuf or whole objects"
    );
    assert!(uri.contains("includeObject=Metadata"), "{uri}");
    let page = table(
        vec![
            printed("tls", 5, "kubernetes.io/tls", 2),
            printed("token", 6, "Opaque", 1),
        ],
        9,
        true,
    );
    respond_as(send, TABLE_TYPE, serde_json::to_vec(&page).unwrap());
    h.wait_until("two secrets", |s| s.rows.len() == 2).await;
    assert_eq!(type_and_data(&h, "tls"), ("kubernetes.io/tls".into(), 2));

    let (uri, accept, send) = next_asked(&mut h).await;
    assert!(is_watch(&uri) && uri.contains("resourceVersion=9"), "{uri}");
    assert!(uri.contains("includeObject=Metadata"), "{uri}");
    assert_eq!(accept, TABLE_FIRST);
    // kube-apiserver sends each watch event's object as a Table of one row (the column
    // definitions with the first only), and bookmarks as a Table whose one row's object
    // holds the bookmark's metadata.
    let events = [
        ev("ADDED", table(vec![printed("db", 10, "Opaque", 3)], 10, true)),
        ev(
            "MODIFIED",
            table(vec![printed("tls", 11, "kubernetes.io/tls", 3)], 11, false),
        ),
        ev(
            "DELETED",
            table(vec![printed("token", 12, "Opaque", 1)], 12, false),
        ),
        json!({"type": "BOOKMARK", "object": table(vec![json!({"cells": ["", "", 0, "<unknown>"],
            "object": {"kind": "PartialObjectMetadata", "metadata": {"resourceVersion": "13"}}})], 13, false)}),
    ];
    respond_as(send, TABLE_TYPE, watch_body(&events));
    h.wait_until("db added, token deleted", |s| {
        s.rows.len() == 2 && s.rows.iter().any(|r| &*r.name == "db")
    })
    .await;
    assert_eq!(names(&h.slot), ["db", "tls"]);
    assert_eq!(type_and_data(&h, "tls"), ("kubernetes.io/tls".into(), 3));
    assert_eq!(type_and_data(&h, "db"), ("Opaque".into(), 3));
    let used = h.stats.view().last_list.unwrap();
    assert_eq!((used.method, used.encoding), (ListMethod::Paged, Encoding::Table));

    // After a failed watch the informer probes the server with a list of one: that one
    // object must not bring values either.
    let (uri, _, send) = next_asked(&mut h).await;
    assert!(is_watch(&uri), "the bookmark's watch resumes: {uri}");
    respond(
        send,
        500,
        serde_json::to_vec(&status(500, "InternalError")).unwrap(),
    );
    let (uri, accept, send) = next_asked(&mut h).await;
    assert!(is_probe(&uri), "{uri}");
    assert!(
        uri.contains("includeObject=Metadata") && accept == TABLE_FIRST,
        "{uri} {accept}"
    );
    respond_as(
        send,
        TABLE_TYPE,
        serde_json::to_vec(&table(Vec::new(), 14, true)).unwrap(),
    );
    let (uri, _, _send) = next_asked(&mut h).await;
    assert!(is_watch(&uri) && uri.contains("resourceVersion=13"), "{uri}");
}

#[tokio::test(start_paused = true)]
async fn a_server_that_prints_no_tables_gives_whole_secrets_and_the_same_rows() {
    let mut h = start_kind::<SecretObj>(BuiltinKind::Secret, InformerConfig::default());
    let (_, accept, send) = next_asked(&mut h).await;
    assert_eq!(accept, TABLE_FIRST);
    let secret = json!({"apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/tls",
        "metadata": {"name": "tls", "namespace": "default", "uid": "uid-tls", "resourceVersion": "5",
                     "creationTimestamp": "2026-01-01T00:00:00Z"},
        "data": {"tls.crt": "c2VjcmV0LXZhbHVl", "tls.key": "c2VjcmV0LXZhbHVl"}});
    let body = json!({"apiVersion": "v1", "kind": "SecretList", "metadata": {"resourceVersion": "9"},
                      "items": [secret]});
    respond_as(send, "application/json", serde_json::to_vec(&body).unwrap());
    h.wait_until("the secret", |s| s.rows.len() == 1).await;
    assert_eq!(type_and_data(&h, "tls"), ("kubernetes.io/tls".into(), 2));
    assert!(!format!("{:?}", h.slot.peek().rows[0]).contains("c2VjcmV0"));
    let used = h.stats.view().last_list.unwrap();
    assert_eq!(used.encoding, Encoding::Json);
}

/// `streaming_lists = "auto"`: an informer that asks for protobuf streams its list; one that
/// asks for JSON (secrets' printed rows, a group that refused protobuf) pages.
#[tokio::test(start_paused = true)]
async fn auto_streaming_streams_protobuf_informers_and_pages_json_ones() {
    let auto = || InformerConfig {
        streaming: Some(Default::default()),
        stream_json: false,
        ..InformerConfig::default()
    };
    let mut pods = start_kind::<PodObj>(BuiltinKind::Pod, auto());
    let (uri, accept, _send) = next_asked(&mut pods).await;
    assert!(
        is_watch(&uri) && uri.contains("sendInitialEvents=true"),
        "a protobuf informer streams: {uri}"
    );
    assert!(
        accept.starts_with("application/vnd.kubernetes.protobuf"),
        "{accept}"
    );

    let mut secrets = start_kind::<SecretObj>(BuiltinKind::Secret, auto());
    let (uri, _, send) = next_asked(&mut secrets).await;
    assert!(!is_watch(&uri), "a JSON informer pages: {uri}");
    let page = table(vec![printed("tls", 5, "Opaque", 1)], 9, true);
    respond_as(send, TABLE_TYPE, serde_json::to_vec(&page).unwrap());
    secrets.wait_until("the secret", |s| s.rows.len() == 1).await;
    let used = secrets.stats.view().last_list.unwrap();
    assert_eq!(used.method, ListMethod::Paged);
    assert_eq!(
        used.fallback, None,
        "paging JSON under \"auto\" is no fallback to explain"
    );

    let refused = InformerConfig {
        protobuf: Some(Arc::default()),
        ..auto()
    };
    refused
        .protobuf
        .as_ref()
        .unwrap()
        .refuse("", "406 Not Acceptable");
    let mut json_pods = start_kind::<PodObj>(BuiltinKind::Pod, refused);
    let (uri, accept, _send) = next_asked(&mut json_pods).await;
    assert!(!is_watch(&uri), "protobuf refused for the group: paged ({uri})");
    assert!(!accept.contains("protobuf"), "{accept}");

    let always = InformerConfig {
        stream_json: true,
        ..InformerConfig {
            protobuf: None,
            ..auto()
        }
    };
    let mut json_pods = start_kind::<PodObj>(BuiltinKind::Pod, always);
    let (uri, accept, _send) = next_asked(&mut json_pods).await;
    assert!(
        is_watch(&uri) && uri.contains("sendInitialEvents=true"),
        "`true` streams JSON too: {uri}"
    );
    assert!(!accept.contains("protobuf"), "{accept}");
}

/// Printed rows page even where every list streams (`streaming_lists = true`): a server's
/// Table end bookmark varies in shape (kube-apiserver v1.37.2 puts its annotation on the row's
/// object), and one misread would turn streaming off for the whole API group. The paging is
/// by design, so `:informers` gives no fallback reason, and the context still streams.
#[tokio::test(start_paused = true)]
async fn printed_rows_page_even_where_every_list_streams() {
    let memory = Arc::new(StreamingLists::default());
    let config = InformerConfig {
        streaming: Some(memory.clone()),
        ..InformerConfig::default()
    };
    let mut h = start_kind::<SecretObj>(BuiltinKind::Secret, config);
    let (uri, accept, send) = next_asked(&mut h).await;
    assert!(!is_watch(&uri), "printed rows page: {uri}");
    assert!(
        uri.contains("includeObject=Metadata") && accept == TABLE_FIRST,
        "{uri} {accept}"
    );
    let page = table(vec![printed("tls", 10, "kubernetes.io/tls", 2)], 11, true);
    respond_as(send, TABLE_TYPE, serde_json::to_vec(&page).unwrap());
    h.wait_until("listed and live", |s| s.rows.len() == 1 && s.state.is_live())
        .await;
    let used = h.stats.view().last_list.unwrap();
    assert_eq!(
        (used.method, used.encoding, used.fallback),
        (ListMethod::Paged, Encoding::Table, None)
    );
    assert_eq!(memory.refusal(""), None, "the context still streams");
}
