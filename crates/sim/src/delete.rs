//! DELETE on the demo server, as the API server's registry does it: `DeleteOptions` from the
//! body or the query (`gracePeriodSeconds`, `propagationPolicy`, `orphanDependents`,
//! `preconditions`, `dryRun`); pods deleted gracefully (`deletionTimestamp` +
//! `deletionGracePeriodSeconds`, Terminating until the kubelet confirms; 0, unscheduled or
//! finished pods at once); `Foreground` and `Orphan` propagation through the
//! `foregroundDeletion` / `orphan` finalizers the garbage collector clears; objects with
//! finalizers wait for them; deletecollection by label selector. The garbage collector itself
//! is a controller (`control::gc`). Must not route or authorize.

use http::{Response, StatusCode};
use serde_json::{json, Value};

use super::apierr::{ApiError, ApiResult};
use super::kinds::{id, KindId, KINDS};
use super::matching::{FieldSelector, Filter, LabelSelector};
use super::reply::{self, Body};
use super::store::{now_rfc3339, Store, StoreError, Stored};
use super::write;

/// How dependents are treated (`propagationPolicy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Propagation {
    /// Delete the owner now; the garbage collector deletes dependents afterwards.
    Background,
    /// Keep the owner (finalizer `foregroundDeletion`) until its blocking dependents are gone.
    Foreground,
    /// Remove the owner's references from its dependents (finalizer `orphan`), keep them.
    Orphan,
}

/// Parsed `DeleteOptions`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeleteOptions {
    /// `gracePeriodSeconds`; `None` = the object's own (a pod's `terminationGracePeriodSeconds`).
    pub grace: Option<i64>,
    /// `propagationPolicy` (or `orphanDependents: true`); `None` = the kind's default.
    pub propagation: Option<Propagation>,
    /// `preconditions.uid`.
    pub uid: Option<String>,
    /// `preconditions.resourceVersion`.
    pub resource_version: Option<String>,
    /// `dryRun: ["All"]`.
    pub dry_run: bool,
}

fn propagation(s: &str) -> ApiResult<Propagation> {
    match s {
        "Background" => Ok(Propagation::Background),
        "Foreground" => Ok(Propagation::Foreground),
        "Orphan" => Ok(Propagation::Orphan),
        other => Err(ApiError::bad_request(format!(
            "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \"{other}\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\""
        ))),
    }
}

impl DeleteOptions {
    /// Options from a JSON body (may be empty) and the query string.
    pub fn parse(content_type: &str, body: &[u8], query: &str) -> ApiResult<DeleteOptions> {
        let mut o = DeleteOptions::default();
        if !body.iter().all(u8::is_ascii_whitespace) {
            let v = write::decode_body(content_type, body)?;
            o.grace = v["gracePeriodSeconds"].as_i64();
            if let Some(p) = v["propagationPolicy"].as_str() {
                o.propagation = Some(propagation(p)?);
            } else if v["orphanDependents"] == json!(true) {
                o.propagation = Some(Propagation::Orphan);
            } else if v["orphanDependents"] == json!(false) {
                o.propagation = Some(Propagation::Background);
            }
            o.uid = v["preconditions"]["uid"].as_str().map(str::to_owned);
            o.resource_version = v["preconditions"]["resourceVersion"].as_str().map(str::to_owned);
            o.dry_run = v["dryRun"]
                .as_array()
                .is_some_and(|d| d.iter().any(|x| x == "All"));
        }
        for (k, v) in form_urlencoded::parse(query.as_bytes()) {
            match &*k {
                "gracePeriodSeconds" => {
                    o.grace =
                        Some(v.parse().map_err(|_| {
                            ApiError::bad_request(format!("invalid gracePeriodSeconds {v:?}"))
                        })?)
                }
                "propagationPolicy" => o.propagation = Some(propagation(&v)?),
                "orphanDependents" if v == "true" => o.propagation = Some(Propagation::Orphan),
                "dryRun" if v == "All" => o.dry_run = true,
                _ => {}
            }
        }
        Ok(o)
    }
}

fn check_preconditions(
    kind: KindId,
    name: &str,
    o: &DeleteOptions,
    cur: &Stored,
    v: &Value,
) -> ApiResult<()> {
    if let Some(uid) = &o.uid {
        let have = v["metadata"]["uid"].as_str().unwrap_or("");
        if uid != have {
            return Err(ApiError::conflict(
                kind,
                name,
                &format!("Precondition failed: UID in precondition: {uid}, UID in object meta: {have}"),
            ));
        }
    }
    if let Some(rv) = &o.resource_version {
        if *rv != cur.rv.to_string() {
            return Err(ApiError::conflict(
                kind,
                name,
                &format!("Precondition failed: ResourceVersion in precondition: {rv}, ResourceVersion in object meta: {}", cur.rv),
            ));
        }
    }
    Ok(())
}

/// The `Status` a DELETE answers when the object is gone at once.
fn success(kind: KindId, name: &str, v: &Value) -> Value {
    let i = &KINDS[kind].info;
    let mut d = json!({"name": name, "kind": i.plural, "uid": v["metadata"]["uid"]});
    if !i.group.is_empty() {
        d["group"] = json!(i.group);
    }
    json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "details": d})
}

/// A time `secs` from now, formatted like the API's timestamps.
pub fn in_secs(secs: i64) -> String {
    let t = jiff::Timestamp::now() + jiff::SignedDuration::from_secs(secs.max(0));
    t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

fn finalizers(v: &Value) -> Vec<String> {
    v["metadata"]["finalizers"]
        .as_array()
        .map(|a| a.iter().filter_map(|f| f.as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

/// What one delete did: gone (with the last state) or marked (the object now).
pub enum Deleted {
    /// Removed from the store.
    Gone(Value),
    /// Still there with a deletionTimestamp (graceful, finalizers, foreground/orphan).
    Marked(Stored),
}

/// Deletes one object with `o`; the core of DELETE, also used by eviction and the
/// controllers (which delete the way a client does).
pub fn delete_object(
    store: &Store,
    kind: KindId,
    ns: &str,
    name: &str,
    o: &DeleteOptions,
) -> ApiResult<Deleted> {
    let cur = store
        .get(kind, ns, name)
        .ok_or_else(|| ApiError::not_found(kind, name))?;
    let v: Value = serde_json::from_slice(&cur.bytes).map_err(|e| ApiError::bad_request(e.to_string()))?;
    check_preconditions(kind, name, o, &cur, &v)?;
    let mut grace = 0;
    if kind == id::POD {
        grace = o
            .grace
            .unwrap_or_else(|| v["spec"]["terminationGracePeriodSeconds"].as_i64().unwrap_or(30));
        let phase = v["status"]["phase"].as_str().unwrap_or("");
        if v["spec"]["nodeName"].as_str().unwrap_or("").is_empty() || matches!(phase, "Succeeded" | "Failed")
        {
            grace = 0;
        }
    }
    let prop = o.propagation.unwrap_or(Propagation::Background);
    let mut add = Vec::new();
    match prop {
        Propagation::Foreground => add.push("foregroundDeletion"),
        Propagation::Orphan => add.push("orphan"),
        Propagation::Background => {}
    }
    let marked = v["metadata"]["deletionTimestamp"].is_string();
    let has_finalizers = !finalizers(&v).is_empty();
    if o.dry_run {
        return Ok(Deleted::Gone(v));
    }
    if !marked && !has_finalizers && add.is_empty() && grace <= 0 {
        let gone = store
            .delete_if(kind, ns, name, |c: &Stored, now: &Value| {
                check_preconditions(kind, name, o, c, now)
            })
            .map_err(|e: ApiError| {
                if e.code == 404 {
                    ApiError::not_found(kind, name)
                } else {
                    e
                }
            })?;
        let last = serde_json::from_slice(&gone.bytes).unwrap_or(v);
        return Ok(Deleted::Gone(last));
    }
    let stored = store
        .update(kind, ns, name, |c: &Stored, new: &mut Value| -> ApiResult<()> {
            check_preconditions(kind, name, o, c, new)?;
            let mut fins = finalizers(new);
            for f in &add {
                if !fins.iter().any(|x| x == f) {
                    fins.push((*f).to_owned());
                }
            }
            let m = &mut new["metadata"];
            if !fins.is_empty() {
                m["finalizers"] = json!(fins);
            }
            let prev_grace = m["deletionGracePeriodSeconds"].as_i64();
            if m["deletionTimestamp"].is_null() || prev_grace.is_some_and(|g| grace < g) {
                m["deletionTimestamp"] = json!(in_secs(grace));
                m["deletionGracePeriodSeconds"] = json!(grace);
            }
            Ok(())
        })
        .map_err(|e| {
            if e.code == 404 {
                ApiError::not_found(kind, name)
            } else {
                e
            }
        })?;
    if grace <= 0 && finalizers_of(&stored).is_empty() {
        if let Ok(gone) = store.delete(kind, ns, name) {
            return Ok(Deleted::Gone(
                serde_json::from_slice(&gone.bytes).unwrap_or(Value::Null),
            ));
        }
    }
    Ok(Deleted::Marked(stored))
}

fn finalizers_of(s: &Stored) -> Vec<String> {
    serde_json::from_slice::<Value>(&s.bytes)
        .map(|v| finalizers(&v))
        .unwrap_or_default()
}

/// After an update: an object marked for deletion whose last finalizer went is deleted now
/// (unless it is a pod still inside its grace period: the kubelet deletes those).
pub fn finish_if_unblocked(store: &Store, kind: KindId, ns: &str, name: &str, s: &Stored) {
    let Ok(v) = serde_json::from_slice::<Value>(&s.bytes) else {
        return;
    };
    if v["metadata"]["deletionTimestamp"].is_null() || !finalizers(&v).is_empty() {
        return;
    }
    if kind == id::POD && v["metadata"]["deletionGracePeriodSeconds"].as_i64().unwrap_or(0) > 0 {
        return;
    }
    let _ = store.delete_if(
        kind,
        ns,
        name,
        |_: &Stored, now: &Value| -> Result<(), StoreError> {
            if finalizers(now).is_empty() {
                Ok(())
            } else {
                Err(StoreError::Conflict(name.to_owned()))
            }
        },
    );
}

/// DELETE on one object.
pub fn delete(
    store: &Store,
    kind: KindId,
    ns: &str,
    name: &str,
    ct: &str,
    body: &[u8],
    query: &str,
) -> ApiResult<Response<Body>> {
    let o = DeleteOptions::parse(ct, body, query)?;
    Ok(match delete_object(store, kind, ns, name, &o)? {
        Deleted::Gone(last) if kind == id::POD || o.dry_run => {
            reply::bytes(StatusCode::OK, "application/json", last.to_string())
        }
        Deleted::Gone(last) => reply::bytes(
            StatusCode::OK,
            "application/json",
            success(kind, name, &last).to_string(),
        ),
        Deleted::Marked(s) => write::stored_reply(StatusCode::OK, &s),
    })
}

/// DELETE on a collection (`deletecollection`): every object matching the label and field
/// selectors, each deleted as by [`delete`]; answers the list of what was deleted or marked.
pub fn delete_collection(
    store: &Store,
    kind: KindId,
    ns: Option<&str>,
    ct: &str,
    body: &[u8],
    query: &str,
) -> ApiResult<Response<Body>> {
    let o = DeleteOptions::parse(ct, body, query)?;
    let (mut labels, mut fields) = (String::new(), String::new());
    for (k, v) in form_urlencoded::parse(query.as_bytes()) {
        match &*k {
            "labelSelector" => labels = v.into_owned(),
            "fieldSelector" => fields = v.into_owned(),
            _ => {}
        }
    }
    let filter = Filter {
        namespace: ns.map(str::to_owned),
        labels: LabelSelector::parse(&labels).map_err(ApiError::bad_request)?,
        fields: FieldSelector::parse(&fields, &KINDS[kind]).map_err(ApiError::bad_request)?,
    };
    let page = store.list(kind, &filter, 0, None, None);
    let mut items = Vec::new();
    for b in page.items {
        let Ok(v) = serde_json::from_slice::<Value>(&b) else {
            continue;
        };
        let (ns, name) = (
            v["metadata"]["namespace"].as_str().unwrap_or(""),
            v["metadata"]["name"].as_str().unwrap_or(""),
        );
        match delete_object(store, kind, ns, name, &o) {
            Ok(Deleted::Gone(last)) => items.push(last),
            Ok(Deleted::Marked(s)) => items.push(serde_json::from_slice(&s.bytes).unwrap_or(Value::Null)),
            Err(e) if e.code == 404 => {}
            Err(e) => return Err(e),
        }
    }
    let list = json!({"kind": format!("{}List", KINDS[kind].info.kind), "apiVersion": KINDS[kind].api_version(),
        "metadata": {"resourceVersion": store.revision().to_string()}, "items": items});
    Ok(reply::bytes(StatusCode::OK, "application/json", list.to_string()))
}

/// Now, for controllers that stamp times.
pub fn now() -> String {
    now_rfc3339()
}
