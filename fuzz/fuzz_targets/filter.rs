//! The filter languages typed at the `/` prompt: column terms (`status:Running`,
//! `ktui::view::col_terms`), the event timeline's scoped terms (`type:`, `reason:`, `obj:`,
//! `ktui::view::event_terms`), the query (fuzzy, `!inverse`, fzf's extended terms, `a | b`,
//! `-l selector`: `ktui::view::query` / `terms`), run through the memoising `ViewCache` over
//! a snapshot of realistic pod rows; and the log view's line filter (`view::log_lines`).
//!
//! Input: UTF-8 text; up to the first newline is the filter typed before, the rest the filter
//! typed now (without a newline the earlier filter is the text minus its last character, as
//! when typing).
//!
//! Properties: a query re-parses from its own source to the same query; the view is exactly
//! the rows a brute-force reference keeps (name test + selectors), each once, in range; a
//! cache that computed the earlier filter first gives the same view as a fresh cache (the
//! narrowing shortcut is sound); when the new query `narrows` the old, its rows are a subset;
//! highlights are valid, increasing char indices; log-filter ranges are in bounds, on char
//! boundaries, and a line with a range is kept.
#![no_main]

use std::collections::BTreeSet;
use std::sync::{Arc, OnceLock};

use ktui::kube::builtin::BuiltinKind;
use ktui::kube::key::ResourceKey;
use ktui::kube::row::{Row, RowCtx};
use ktui::kube::store::Snapshot;
use ktui::view::col_terms::{self, ColTests};
use ktui::view::event_terms::{lens_keeps, split_scoped, EventLens};
use ktui::view::log_lines::LineMatch;
use ktui::view::{display_name, highlight, Query, Sort, SortBy, TextFilter, ViewCache, ViewSpec};
use libfuzzer_sys::fuzz_target;
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (before, now) = match text.split_once('\n') {
        Some((a, b)) => (a.to_owned(), b),
        None => {
            let mut a = text.to_owned();
            a.pop();
            (a, text)
        }
    };
    let sort = match data.len() % 4 {
        0 => Sort::default(),
        1 => Sort {
            by: SortBy::Age,
            reverse: false,
        },
        2 => Sort {
            by: SortBy::Column(1),
            reverse: true,
        },
        _ => Sort {
            by: SortBy::Name,
            reverse: true,
        },
    };
    let all_ns = data.len() % 3 != 0;
    let snap = pods();
    let columns = &ktui::table::builtin_spec(BuiltinKind::Pod).columns;
    let (prev, prev_terms) = parse(&before, columns);
    let (cur, cur_terms) = parse(now, columns);
    for t in prev_terms.iter().chain(&cur_terms) {
        let tests = ColTests::new(std::slice::from_ref(t));
        for row in snap.rows.iter() {
            let _ = tests.keeps(row);
        }
    }
    let Some(cur) = cur else { return };
    let fresh = ViewCache::new().view(snap, &view_spec(&cur, sort, all_ns));
    let got: BTreeSet<u32> = fresh.rows.iter().copied().collect();
    assert_eq!(got.len(), fresh.rows.len(), "a row shown twice");
    assert_eq!(fresh.matched, fresh.rows.len());
    assert_eq!(fresh.total, snap.rows.len());
    let filter = TextFilter::new(&cur);
    let want: BTreeSet<u32> = snap
        .rows
        .iter()
        .enumerate()
        .filter(|(_, r)| {
            filter.keeps(&display_name(r, all_ns)) && cur.selectors().iter().all(|s| s.matches(&r.labels))
        })
        .map(|(i, _)| i as u32)
        .collect();
    assert_eq!(got, want, "view of {now:?} vs brute force");
    for &i in &fresh.rows {
        let name = display_name(&snap.rows[i as usize], all_ns);
        let marks = highlight(&name, &cur);
        let n = name.chars().count();
        assert!(
            marks.windows(2).all(|w| w[0] < w[1]) && marks.iter().all(|&m| m < n),
            "highlight {marks:?} of {name:?}"
        );
    }
    if let Some(prev) = prev {
        let mut cache = ViewCache::new();
        let before_rows = cache.view(snap, &view_spec(&prev, sort, all_ns));
        let after = cache.view(snap, &view_spec(&cur, sort, all_ns));
        assert_eq!(after.rows, fresh.rows, "typing {before:?} then {now:?} vs fresh");
        if cur.narrows(&prev) {
            let old: BTreeSet<u32> = before_rows.rows.iter().copied().collect();
            assert!(got.is_subset(&old), "{now:?} narrows {before:?} but shows more");
        }
    }
    events(now);
    log_filter(now);
});

fn view_spec(query: &Query, sort: Sort, all_namespaces: bool) -> ViewSpec<'_> {
    ViewSpec {
        query,
        namespace: None,
        sort,
        all_namespaces,
        within: None,
    }
}

/// The column terms and query of `text`, as the list view splits them; the query re-parses
/// from its source.
fn parse(text: &str, columns: &[ktui::table::Column]) -> (Option<Query>, Vec<col_terms::ColTerm>) {
    let Ok((terms, rest)) = col_terms::split(text, columns) else {
        return (None, Vec::new());
    };
    let q = Query::parse(&rest).ok();
    if let Some(q) = &q {
        let again = Query::parse(q.source()).unwrap_or_else(|e| panic!("source {:?}: {e}", q.source()));
        assert_eq!(&again, q, "{rest:?} re-parsed from its source");
    }
    (q, terms)
}

fn events(text: &str) {
    let (scoped, rest) = split_scoped(text);
    let _ = Query::parse(&rest);
    let lens = EventLens {
        warnings_only: text.len() % 2 == 0,
        object: None,
    };
    for row in event_rows() {
        let _ = lens_keeps(&lens, &scoped, row);
    }
}

fn log_filter(text: &str) {
    let Ok(Some(m)) = LineMatch::parse(text) else {
        return;
    };
    for line in [
        "2026-12-01T08:00:00Z GET /healthz 200",
        "ERROR: Straße kaputt — İstanbul",
        "",
        text,
    ] {
        let ranges = m.ranges(line);
        for &(a, b) in &ranges {
            assert!(
                a < b && b <= line.len() && line.is_char_boundary(a) && line.is_char_boundary(b),
                "range {a}..{b} of {line:?}"
            );
        }
        if !ranges.is_empty() {
            assert!(m.keeps(line), "{text:?} highlights {line:?} but drops it");
        }
    }
}

/// A snapshot of pod rows decoded from JSON, as an informer would have built them.
fn pods() -> &'static Snapshot {
    static SNAP: OnceLock<Snapshot> = OnceLock::new();
    SNAP.get_or_init(|| {
        let ctx = RowCtx::default();
        let names = ["web-7f9c5d-abcde", "web-7f9c5d-xyz12", "api-gateway-0", "Kafka-broker-1",
            "redis-master", "数据同步-1", "straße-a", "payments-v2-9z", "a", "web"];
        let nss = ["default", "prod", "team-a"];
        let phases = ["Running", "Pending", "Failed", "Succeeded"];
        let mut rows: Vec<Row> = Vec::new();
        for (i, name) in names.iter().enumerate() {
            for (j, ns) in nss.iter().enumerate().take(1 + i % 3) {
                let obj = json!({"metadata": {"name": name, "namespace": ns, "uid": format!("u{i}{j}"),
                    "creationTimestamp": format!("2026-11-{:02}T10:00:00Z", 1 + i + j),
                    "labels": {"app": name.split('-').next().unwrap_or(name), "tier": if i % 2 == 0 {"web"} else {"db"}}},
                    "spec": {"nodeName": "node-1", "containers": [{"name": "c"}]},
                    "status": {"phase": phases[(i + j) % 4], "containerStatuses": [{"name": "c", "ready": i % 2 == 0, "restartCount": i}]}});
                let bytes = serde_json::to_vec(&obj).expect("json");
                rows.push(ktui::table::decode_row(BuiltinKind::Pod, &bytes, &ctx).expect("pod decodes"));
            }
        }
        rows.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
        let mut s = Snapshot::empty(ResourceKey::new(BuiltinKind::Pod, None), 1);
        s.rows = rows.into_iter().map(Arc::new).collect();
        s.rev = 1;
        s.listed = true;
        s
    })
}

/// Event rows decoded from JSON.
fn event_rows() -> &'static [Row] {
    static ROWS: OnceLock<Vec<Row>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let ctx = RowCtx::default();
        [("Warning", "BackOff", "Pod", "web-0"), ("Normal", "Scheduled", "Pod", "api-1"), ("Warning", "FailedMount", "Deployment", "db")]
            .iter()
            .enumerate()
            .map(|(i, (ty, reason, kind, name))| {
                let obj = json!({"metadata": {"name": format!("{name}.17a8{i}"), "namespace": "default", "uid": format!("e{i}")},
                    "type": ty, "reason": reason, "message": format!("{reason} happened\nsecond line"), "count": i + 1,
                    "lastTimestamp": "2026-11-30T11:00:00Z",
                    "involvedObject": {"kind": kind, "name": name, "namespace": "default"}});
                let bytes = serde_json::to_vec(&obj).expect("json");
                ktui::table::decode_row(BuiltinKind::Event, &bytes, &ctx).expect("event decodes")
            })
            .collect()
    })
}
