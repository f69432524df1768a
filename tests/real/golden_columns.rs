//! Golden test (real tier): ktui's client-side cells must equal the cells the API server's own
//! printers produce. For every built-in kind it creates odd-case fixtures in a fresh
//! namespace (statuses written through `/status`), lists them as a server-side
//! `meta.k8s.io/v1 Table` with `includeObject=Object`, decodes each row's object with
//! `ktui::table::decode_row`, and compares every cell by header name. Time-derived cells are
//! accepted when some clock second around the request reproduces the server's text.
//! The same objects listed again in Kubernetes' protobuf encoding must give equal rows
//! (`ktui::table::decode_protobuf_rows`, every cell, for every kind), and, for the kinds
//! read from the server's printed rows (secrets), so must the rows of the `includeObject=
//! Metadata` Table their informer asks for.
//! Must not depend on the informer pool or the UI.

use crate::support;

use std::io::Write;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

use ktui::kube::builtin::BuiltinKind;
use ktui::kube::row::{Row, RowCtx};
use ktui::table::format::format_cell;
use ktui::table::{builtin_spec, decode_protobuf_rows, decode_row};

mod fixtures;
mod net_hpa_pv;
mod pods;

const TABLE_ACCEPT: &str = "application/json;as=Table;g=meta.k8s.io;v=v1";

fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// kubectl's client-side cell rendering (cli-runtime): cut at the first `\n`, `\r` or `\f`
/// (appending `...`), then ESC → `^[`.
fn kubectl_render(cell: &Value) -> String {
    let s = match cell {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    };
    let s = match s.find(['\n', '\r', '\u{c}']) {
        Some(i) => format!("{}...", &s[..i]),
        None => s,
    };
    s.replace('\u{1b}', "^[")
}

/// One server-side Table of `kind` (in `ns`, or cluster-wide), with each row's object.
async fn server_table(client: &kube::Client, kind: BuiltinKind, ns: Option<&str>) -> Value {
    let uri = format!("{}?includeObject=Object", kind.url_path(ns));
    let req = http::Request::get(&uri)
        .header("Accept", TABLE_ACCEPT)
        .body(Vec::new())
        .expect("request");
    let text = client
        .request_text(req)
        .await
        .unwrap_or_else(|e| panic!("GET {uri} as Table: {e}"));
    let table: Value = serde_json::from_str(&text).expect("Table JSON");
    assert_eq!(
        table["kind"], "Table",
        "{uri} did not answer with a Table: {text:.300}"
    );
    table
}

/// The list of `kind` (in `ns`, or cluster-wide) as `accept` answers it: its body and
/// `Content-Type`.
async fn list_as(
    client: &kube::Client,
    kind: BuiltinKind,
    ns: Option<&str>,
    accept: &str,
) -> (Vec<u8>, String) {
    let req = http::Request::get(kind.url_path(ns))
        .header("Accept", accept)
        .body(Vec::new())
        .expect("request");
    let res = client
        .send(req.map(kube::client::Body::from))
        .await
        .unwrap_or_else(|e| panic!("list {kind} as {accept}: {e}"));
    let ct = res
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let body = http_body_util::BodyExt::collect(res.into_body())
        .await
        .expect("body")
        .to_bytes();
    (body.to_vec(), ct)
}

/// Lists `kind` as JSON and as protobuf and compares the rows of the objects both lists hold
/// (by uid), every field of the row; returns how many
/// rows were compared.
async fn compare_encodings(
    client: &kube::Client,
    kind: BuiltinKind,
    ns: Option<&str>,
    out: &mut Vec<String>,
) -> usize {
    let ctx = RowCtx::default();
    let (json, _) = list_as(client, kind, ns, "application/json").await;
    let (pb, ct) = list_as(
        client,
        kind,
        ns,
        "application/vnd.kubernetes.protobuf, application/json",
    )
    .await;
    if !ct.starts_with("application/vnd.kubernetes.protobuf") {
        out.push(format!("{kind}: the server answered {ct:?} to a protobuf Accept"));
        return 0;
    }
    let list: Value = serde_json::from_slice(&json).expect("list JSON");
    let (pb_rows, skipped) = match decode_protobuf_rows(kind, &pb, &ctx) {
        Ok(r) => r,
        Err(e) => {
            out.push(format!("{kind}: protobuf list could not be decoded: {e}"));
            return 0;
        }
    };
    for s in skipped {
        out.push(format!("{kind}: protobuf item skipped: {s}"));
    }
    let mut compared = 0;
    for item in list["items"].as_array().expect("items") {
        let bytes = serde_json::to_vec(item).expect("object JSON");
        let Ok(row) = decode_row(kind, &bytes, &ctx) else {
            continue;
        };
        let rv = item["metadata"]["resourceVersion"].as_str().unwrap_or_default();
        let Some(pb_row) = pb_rows.iter().find(|r| r.uid == row.uid) else {
            out.push(format!("{kind} {}: missing from the protobuf list", row.name));
            continue;
        };
        // Every field of the row (cells hold timestamps, not formatted text).
        let (a, b) = (format!("{row:?}"), format!("{pb_row:?}"));
        if a != b {
            out.push(format!(
                "{kind} {} (rv {rv}): JSON row {a}\n  protobuf row {b}",
                row.name
            ));
        }
        compared += 1;
    }
    compared
}

/// For a kind ktui reads from the server's printed rows (`ktui::table::server_rows`:
/// secrets), the rows decoded from the `as=Table`, `includeObject=Metadata` list its informer
/// asks for must equal the rows of the whole objects (every field); the answer must carry no
/// value (`data`). Returns how many rows were compared.
async fn compare_printed_rows(
    client: &kube::Client,
    kind: BuiltinKind,
    ns: Option<&str>,
    out: &mut Vec<String>,
) -> usize {
    let ctx = RowCtx::default();
    let (json, _) = list_as(client, kind, ns, "application/json").await;
    let uri = format!("{}?includeObject=Metadata", kind.url_path(ns));
    let req = http::Request::get(&uri)
        .header(
            "Accept",
            "application/json;as=Table;v=v1;g=meta.k8s.io, application/json",
        )
        .body(Vec::new())
        .expect("request");
    let text = client.request_text(req).await.expect("printed rows");
    let table: Value = serde_json::from_str(&text).expect("Table JSON");
    if text.contains("\"data\":{") {
        out.push(format!("{kind}: the printed rows carry data: {text:.300}"));
    }
    let list: Value = serde_json::from_slice(&json).expect("list JSON");
    let mut compared = 0;
    for item in list["items"].as_array().expect("items") {
        let Ok(row) = decode_row(kind, &serde_json::to_vec(item).expect("object JSON"), &ctx) else {
            continue;
        };
        let printed = table["rows"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|r| r["object"]["metadata"]["uid"] == item["metadata"]["uid"]);
        let Some(printed) = printed else {
            out.push(format!("{kind} {}: missing from the printed rows", row.name));
            continue;
        };
        match decode_row(kind, &serde_json::to_vec(printed).expect("row JSON"), &ctx) {
            Ok(p) if format!("{p:?}") == format!("{row:?}") => {}
            Ok(p) => out.push(format!(
                "{kind} {}: object row {row:?}\n  printed row {p:?}",
                row.name
            )),
            Err(e) => out.push(format!(
                "{kind} {}: printed row could not be decoded: {e}",
                row.name
            )),
        }
        compared += 1;
    }
    compared
}

/// Whether a ktui cell reproduces the server's text at some second in `[t0 - 2, t1 + 2]`.
fn cell_matches(cell: &ktui::kube::row::Cell, server: &str, t0: i64, t1: i64) -> bool {
    (t0 - 2..=t1 + 2).any(|now| format_cell(cell, now) == server)
}

/// Compares every row of a Table with ktui's rows; returns one line per disagreement, and the
/// server's cells by (object name, header) for the coverage checks.
fn compare(
    kind: BuiltinKind,
    table: &Value,
    t0: i64,
    t1: i64,
    out: &mut Vec<String>,
) -> Vec<(String, String, String)> {
    let ctx = RowCtx::default();
    let spec = builtin_spec(kind);
    let headers: Vec<String> = table["columnDefinitions"]
        .as_array()
        .expect("columnDefinitions")
        .iter()
        .map(|c| c["name"].as_str().unwrap_or_default().to_uppercase())
        .collect();
    for col in spec.columns.iter() {
        if !headers.iter().any(|h| *h == col.header) {
            out.push(format!(
                "{kind}: ktui has column {} that the server does not print",
                col.header
            ));
        }
    }
    let mut seen = Vec::new();
    for r in table["rows"].as_array().expect("rows") {
        let obj = &r["object"];
        let bytes = serde_json::to_vec(obj).expect("object JSON");
        let row: Row = match decode_row(kind, &bytes, &ctx) {
            Ok(row) => row,
            Err(e) => {
                out.push(format!("{kind}: cannot decode {}: {e}", obj["metadata"]["name"]));
                continue;
            }
        };
        let cells = r["cells"].as_array().expect("cells");
        for (h, cell) in headers.iter().zip(cells) {
            let server = kubectl_render(cell);
            seen.push((row.name.to_string(), h.clone(), server.clone()));
            if h == "NAME" {
                if *row.name != *server {
                    out.push(format!("{kind} {}: NAME server {server:?}", row.name));
                }
                continue;
            }
            let Some(i) = spec.columns.iter().position(|c| c.header == h.as_str()) else {
                if !out.iter().any(|l| l.contains(&format!("server column {h} "))) {
                    out.push(format!("{kind}: server column {h} missing from ktui's spec"));
                }
                continue;
            };
            if !cell_matches(&row.cells[i], &server, t0, t1) {
                out.push(format!(
                    "{kind} {}: {h}: server {server:?}, ktui {:?}",
                    row.name,
                    format_cell(&row.cells[i], t1)
                ));
            }
        }
    }
    seen
}

fn kubectl_create(cluster: &support::Cluster, ns: &str, items: Vec<Value>) {
    let list = json!({"apiVersion": "v1", "kind": "List", "items": items});
    let mut file = tempfile::NamedTempFile::new().expect("temp file");
    file.write_all(list.to_string().as_bytes())
        .expect("write fixtures");
    let path = file.path().to_str().expect("utf-8 path").to_string();
    cluster.kubectl_ok(&["create", "-n", ns, "-f", &path]);
}

/// Removes the fixtures' finalizers and deletes what the test created (also when it panics),
/// so the shared cluster is left as found. `KTUI_GOLDEN_KEEP=1` keeps everything for a look.
struct Cleanup<'a> {
    cluster: &'a support::Cluster,
    ns: &'a str,
    node: &'a str,
    doomed_ns: &'a str,
}

impl Drop for Cleanup<'_> {
    fn drop(&mut self) {
        if std::env::var_os("KTUI_GOLDEN_KEEP").is_some() {
            eprintln!(
                "KTUI_GOLDEN_KEEP set: leaving namespace {} and node {} in place",
                self.ns, self.node
            );
            return;
        }
        let unfinalize = r#"{"metadata":{"finalizers":null}}"#;
        let (c, ns) = (self.cluster, self.ns);
        for (resource, name) in fixtures::finalized(ns) {
            let _ = c.kubectl(&[
                "patch",
                resource,
                &name,
                "-n",
                ns,
                "--type=merge",
                "-p",
                unfinalize,
            ]);
        }
        let _ = c.kubectl(&[
            "patch",
            "configmap",
            "held",
            "-n",
            self.doomed_ns,
            "--type=merge",
            "-p",
            unfinalize,
        ]);
        // The hand-made pods run nowhere (no kubelet confirms their deletion): stop the
        // controllers without cascading, then force-delete the pods, or they would keep the
        // namespace Terminating for ever.
        let workloads = "deployments,replicasets,statefulsets,daemonsets,jobs,cronjobs";
        let _ = c.kubectl(&["delete", workloads, "--all", "-n", ns, "--cascade=orphan"]);
        let _ = c.kubectl(&["delete", "pods", "--all", "-n", ns, "--grace-period=0", "--force"]);
        let _ = c.kubectl(&["delete", "node", self.node, "--wait=false"]);
        let _ = c.kubectl(&["delete", "persistentvolume", &format!("{ns}-pv"), "--wait=false"]);
        let fixture_pvs = format!("{}={ns}", net_hpa_pv::PV_LABEL);
        let _ = c.kubectl(&["delete", "persistentvolumes", "-l", &fixture_pvs, "--wait=false"]);
        let _ = c.kubectl(&["delete", "namespace", ns, self.doomed_ns, "--wait=false"]);
    }
}

#[tokio::test]
#[ignore = "real tier"]
async fn golden_columns_match_server_tables() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let client = cluster.client(support::ADMIN).await;
    let ns = cluster.create_ns("golden");
    let now = unix_now();
    let node = format!("{ns}-node");
    let doomed_ns = format!("{ns}-doomed");
    let cleanup = Cleanup {
        cluster: &cluster,
        ns: &ns,
        node: &node,
        doomed_ns: &doomed_ns,
    };

    // --- fixtures ------------------------------------------------------------------------
    kubectl_create(&cluster, &ns, fixtures::objects(&ns, now));
    let mut cluster_items = tempfile::NamedTempFile::new().expect("temp file");
    let cluster_list = json!({"apiVersion": "v1", "kind": "List", "items": fixtures::cluster_objects(&ns, &node, &doomed_ns)});
    cluster_items
        .write_all(cluster_list.to_string().as_bytes())
        .expect("write");
    cluster.kubectl_ok(&["create", "-f", cluster_items.path().to_str().expect("path")]);
    kubectl_create(&cluster, &doomed_ns, vec![fixtures::held_configmap()]);

    for (resource, name, patch) in fixtures::status_patches(&ns, now) {
        let p = patch.to_string();
        let target = if resource == "nodes" {
            vec!["patch", resource, &node]
        } else {
            vec!["patch", resource, &name, "-n", &ns]
        };
        let mut args = target;
        args.extend(["--subresource=status", "--type=merge", "-p", &p]);
        cluster.kubectl_ok(&args);
    }
    for (resource, name) in fixtures::deletions(&ns) {
        cluster.kubectl_ok(&["delete", resource, &name, "-n", &ns, "--wait=false"]);
    }
    cluster.kubectl_ok(&["delete", "namespace", &doomed_ns, "--wait=false"]);
    // let the controllers create replica sets, pods and job status, and settle volumes
    let fixture_pvs = format!("{}={ns}", net_hpa_pv::PV_LABEL);
    for _ in 0..40 {
        let names = cluster.kubectl_ok(&["get", "rs,pods", "-n", &ns, "-o", "name"]);
        let bound = cluster.kubectl_ok(&["get", "pvc", "bound", "-n", &ns, "-o", "jsonpath={.status.phase}"]);
        let pv_phases = cluster.kubectl_ok(&[
            "get",
            "pv",
            "-l",
            &fixture_pvs,
            "-o",
            "jsonpath={.items[*].status.phase}",
        ]);
        if names.lines().filter(|l| l.starts_with("replicaset")).count() >= 2
            && names.lines().filter(|l| l.contains("pod/ds-")).count() >= 2
            && bound == "Bound"
            && net_hpa_pv::settled(&pv_phases)
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }

    // --- compare ---------------------------------------------------------------------------
    let mut mismatches = Vec::new();
    let mut seen = Vec::new();
    for kind in BuiltinKind::ALL {
        let scope = kind.info().namespaced.then_some(ns.as_str());
        let t0 = unix_now();
        let table = server_table(&client, kind, scope).await;
        let t1 = unix_now();
        let cells = compare(kind, &table, t0, t1, &mut mismatches);
        let rows = table["rows"].as_array().map_or(0, Vec::len);
        eprintln!("{kind}: compared {} cells in {rows} rows", cells.len());
        if rows == 0 {
            mismatches.push(format!("{kind}: the server listed no rows"));
        }
        seen.extend(cells.into_iter().map(|(name, h, v)| (kind, name, h, v)));
        let same = compare_encodings(&client, kind, scope, &mut mismatches).await;
        eprintln!("{kind}: {same} rows equal from JSON and protobuf");
        if same == 0 && rows > 0 {
            mismatches.push(format!("{kind}: no row compared between JSON and protobuf"));
        }
        if ktui::table::server_rows(kind) {
            let same = compare_printed_rows(&client, kind, scope, &mut mismatches).await;
            eprintln!("{kind}: {same} rows equal from whole objects and printed rows");
            if same == 0 && rows > 0 {
                mismatches.push(format!("{kind}: no row compared with its printed row"));
            }
        }
    }

    // --- coverage: the fixtures really produced the odd cases -------------------------------
    for (kind, name, header, want) in fixtures::expectations(&ns, &node, &doomed_ns) {
        let got = seen
            .iter()
            .find(|(k, n, h, _)| *k == kind && *n == name && *h == header)
            .map(|s| s.3.as_str());
        if got != Some(want) {
            mismatches.push(format!(
                "coverage {kind} {name}: {header} expected {want:?}, server printed {got:?}"
            ));
        }
    }

    drop(cleanup);
    assert!(
        mismatches.is_empty(),
        "{} disagreement(s) with the server:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}
