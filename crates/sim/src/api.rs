//! Resource handlers of the demo server: LIST (paging, `continue` expiry, selectors), WATCH
//! (handing over to [`super::watch`]) and GET of one object (writes are in `write` and
//! `delete`). Owns query parsing and list bodies; must not route, nor inject faults other than
//! serving `malformed` objects as the fault injector rewrites them and refusing or ignoring
//! `sendInitialEvents` under the `watch-list` fault.

use std::time::Duration;

use bytes::Bytes;
use http::{header, Response, StatusCode};
use http_body_util::BodyExt;
use serde_json::json;

use super::faults::WatchListFault;
use super::http::ServerState;
use super::kinds::{KindId, KINDS};
use super::matching::{FieldSelector, Filter, LabelSelector};
use super::reply::{self, Body};
use super::table::Include;
use super::token::Continue;
use super::watch::{self, WatchEnv, WatchRequest};

/// Query parameters of a collection request.
#[derive(Debug)]
struct Query {
    watch: bool,
    label_selector: String,
    field_selector: String,
    limit: usize,
    continue_token: String,
    resource_version: String,
    timeout_seconds: Option<u64>,
    bookmarks: bool,
    send_initial_events: bool,
    include: Include,
}

fn parse_query(q: &str) -> Result<Query, String> {
    let mut out = Query {
        watch: false,
        label_selector: String::new(),
        field_selector: String::new(),
        limit: 0,
        continue_token: String::new(),
        resource_version: String::new(),
        timeout_seconds: None,
        bookmarks: false,
        send_initial_events: false,
        include: Include::Metadata,
    };
    for (k, v) in form_urlencoded::parse(q.as_bytes()) {
        let truthy = v == "true" || v == "1";
        match &*k {
            "watch" => out.watch = truthy,
            "labelSelector" => out.label_selector = v.into_owned(),
            "fieldSelector" => out.field_selector = v.into_owned(),
            "limit" => out.limit = v.parse().map_err(|_| format!("invalid limit {v:?}"))?,
            "continue" => out.continue_token = v.into_owned(),
            "resourceVersion" => out.resource_version = v.into_owned(),
            "timeoutSeconds" => {
                out.timeout_seconds = Some(v.parse().map_err(|_| format!("invalid timeoutSeconds {v:?}"))?)
            }
            "allowWatchBookmarks" => out.bookmarks = truthy,
            "sendInitialEvents" => out.send_initial_events = truthy,
            "includeObject" => out.include = Include::parse(&v),
            _ => {}
        }
    }
    Ok(out)
}

/// GET on a collection: a list, or a watch with `watch=true`; as a Table when `table`.
pub fn collection(
    state: &ServerState,
    kind: KindId,
    ns: Option<String>,
    query: &str,
    table: bool,
) -> Response<Body> {
    let q = match parse_query(query) {
        Ok(q) => q,
        Err(e) => return reply::status(400, &e),
    };
    let labels = match LabelSelector::parse(&q.label_selector) {
        Ok(l) => l,
        Err(e) => return reply::status(400, &e),
    };
    let fields = match FieldSelector::parse(&q.field_selector, &KINDS[kind]) {
        Ok(f) => f,
        Err(e) => return reply::status(400, &e),
    };
    let filter = Filter {
        namespace: ns,
        labels,
        fields,
    };
    let table = table.then_some(q.include);
    if q.watch {
        watch_response(state, kind, filter, &q, table)
    } else {
        list(state, kind, &filter, &q, table)
    }
}

fn watch_response(
    state: &ServerState,
    kind: KindId,
    filter: Filter,
    q: &Query,
    table: Option<Include>,
) -> Response<Body> {
    let from = match q.resource_version.as_str() {
        "" | "0" => None,
        rv => match rv.parse::<u64>() {
            Ok(r) => Some(r),
            Err(_) => return reply::status(400, &format!("invalid resource version: {rv:?}")),
        },
    };
    let watch_list = state.faults.spec().watch_list;
    if q.send_initial_events && watch_list == Some(WatchListFault::Refuse) {
        // kube-apiserver's answer with the WatchList feature gate off.
        return reply::status(
            422,
            "sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled",
        );
    }
    let send_initial_events = q.send_initial_events && watch_list != Some(WatchListFault::Ignore);
    if send_initial_events && from.is_some() {
        return reply::status(
            422,
            "sendInitialEvents is supported with resourceVersion \"\" or \"0\" only",
        );
    }
    // Without timeoutSeconds the real server picks 30-60 min.
    let timeout = Duration::from_secs(
        q.timeout_seconds
            .unwrap_or(1800 + u64::from(rand::random::<u16>()) % 1800),
    );
    let req = WatchRequest {
        kind,
        filter,
        from,
        bookmarks: q.bookmarks,
        initial_events_end: send_initial_events,
        timeout,
        bookmark_every: state.settings.bookmark_every,
        table,
    };
    let env = WatchEnv {
        store: state.store.clone(),
        faults: state.faults.clone(),
        cancel: state.cancel.clone(),
    };
    let body = watch::start(env, req);
    let mut res = Response::new(body.boxed());
    let ct = if table.is_some() {
        super::table::CONTENT_TYPE
    } else {
        "application/json"
    };
    res.headers_mut()
        .insert(header::CONTENT_TYPE, header::HeaderValue::from_static(ct));
    res
}

fn list(
    state: &ServerState,
    kind: KindId,
    filter: &Filter,
    q: &Query,
    table: Option<Include>,
) -> Response<Body> {
    let (after, at) = if q.continue_token.is_empty() {
        (None, None)
    } else {
        let Some(c) = Continue::decode(&q.continue_token) else {
            return reply::status(
                400,
                "continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
            );
        };
        if c.revision < state.store.compacted(kind) {
            let fresh = Continue {
                revision: state.store.revision(),
                after: c.after,
            }
            .encode();
            let mut body = reply::status_body(410, EXPIRED_CONTINUE, None);
            body["metadata"] = json!({"continue": fresh});
            return reply::bytes(StatusCode::GONE, "application/json", body.to_string());
        }
        (Some(c.after), Some(c.revision))
    };
    let page = state.store.list(kind, filter, q.limit, after.as_deref(), at);
    let info = &KINDS[kind];
    let mut meta = json!({"resourceVersion": page.revision.to_string()});
    if let Some(last) = page.next {
        meta["continue"] = json!(Continue {
            revision: page.revision,
            after: last
        }
        .encode());
    }
    if let Some(include) = table {
        let t = super::table::table(kind, &page.items, meta, include, true);
        return reply::bytes(StatusCode::OK, super::table::CONTENT_TYPE, t.to_string());
    }
    let head = json!({"kind": format!("{}List", info.info.kind), "apiVersion": KINDS[kind].api_version(), "metadata": meta});
    let head = head.to_string();
    // `{...,"metadata":{...}}` → `{...,"metadata":{...},"items":[a,b]}` without reparsing items.
    let mut out = Vec::with_capacity(head.len() + page.items.iter().map(|i| i.len() + 1).sum::<usize>() + 16);
    out.extend_from_slice(&head.as_bytes()[..head.len() - 1]);
    out.extend_from_slice(b",\"items\":[");
    for (i, item) in page.items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(&state.faults.malform(item));
    }
    out.extend_from_slice(b"]}");
    reply::bytes(StatusCode::OK, "application/json", Bytes::from(out))
}

const EXPIRED_CONTINUE: &str = "The provided continue parameter is too old to display a consistent list result. \
You can start a new list without the continue parameter, or use the continue token in this response to retrieve \
the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that \
were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.";

/// GET of one object (as a one-row Table when `table`).
pub fn get(state: &ServerState, kind: KindId, ns: Option<&str>, name: &str, table: bool) -> Response<Body> {
    let info = &KINDS[kind].info;
    match state.store.get(kind, ns.unwrap_or(""), name) {
        Some(o) if table => {
            let t = super::table::table(
                kind,
                &[o.bytes],
                json!({"resourceVersion": o.rv.to_string()}),
                Include::Metadata,
                true,
            );
            reply::bytes(StatusCode::OK, super::table::CONTENT_TYPE, t.to_string())
        }
        Some(o) => reply::bytes(StatusCode::OK, "application/json", o.bytes),
        None => reply::not_found(info.plural, info.group, name),
    }
}
