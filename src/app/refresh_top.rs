//! `refresh_top`, run by the loop before each draw: brings the view on top up to date with
//! its latest snapshot — the list's memoised filter/sort result, its selection kept on the
//! same object when rows move, its scroll offset for the page size; a detail view's rendered
//! lines. Must stay cheap when nothing changed (the cache answers from memo).

use std::sync::Arc;

use crate::app::state::{Screen, UiState};
use crate::kube::builtin::BuiltinKind;
use crate::kube::row::{Cell, Drill, Health, Row};
use crate::kube::rows::Rows;
use crate::kube::sanitize::sanitized_box;
use crate::kube::store::Snapshot;
use crate::kube::sync::SyncState;

/// Updates the top list's cache, selection and scroll offset.
pub fn refresh_top(state: &mut UiState) {
    // Built only for the namespace list: `refresh_top` runs before every frame.
    let offer = if state
        .top_list()
        .is_some_and(|l| l.key.kind == BuiltinKind::Namespace)
    {
        offered_namespaces(state)
    } else {
        Vec::new()
    };
    refresh_with(state, &offer);
}

/// Namespaces to offer when listing them is forbidden, each with why: the context's own
/// (`<context>`), the one in use (`<in use>`), then `[namespaces] fallback` and favourites
/// (`<from config>`), without repeats.
fn offered_namespaces(state: &UiState) -> Vec<(String, &'static str)> {
    let context = match &state.conn.status {
        crate::app::state::Conn::Connected(info) => Some((&info.namespace, "<context>")),
        _ => None,
    };
    let in_use = state.conn.namespace.iter().map(|n| (n, "<in use>"));
    let config = state
        .settings
        .fallback
        .iter()
        .chain(&state.settings.favourites)
        .map(|n| (n, "<from config>"));
    let mut offer: Vec<(String, &'static str)> = Vec::new();
    for (ns, why) in context.into_iter().chain(in_use).chain(config) {
        if !offer.iter().any(|(o, _)| o == ns) {
            offer.push((ns.clone(), why));
        }
    }
    offer
}

/// For an RBAC-limited user who may not list namespaces: the namespaces ktui knows of (name,
/// and why, shown in the STATUS column) as rows of the forbidden namespace list, so `enter`
/// still leads to their pods. The state stays `forbidden` in the header.
fn fallback_namespaces(snap: Arc<Snapshot>, fallback: &[(String, &'static str)]) -> Arc<Snapshot> {
    let forbidden = matches!(snap.state, SyncState::Forbidden { .. });
    if snap.key.kind != BuiltinKind::Namespace || !forbidden || fallback.is_empty() {
        return snap;
    }
    let rows: Rows = fallback
        .iter()
        .map(|(ns, why)| {
            Arc::new(Row {
                capacity: None,
                uses: None,
                origin: 0,
                namespace: None,
                name: crate::kube::sanitize::sanitized_arc(ns),
                uid: Box::from(""),
                created: None,
                labels: Arc::from(Vec::new()),
                cells: vec![Cell::Static(why), Cell::Age(None)].into(),
                health: Health::Warn,
                drill: Some(Box::new(Drill::Namespace(sanitized_box(ns)))),
                event: None,
                owner: None,
            })
        })
        .collect();
    Arc::new(Snapshot {
        rows,
        listed: true,
        ..(*snap).clone()
    })
}

fn refresh_with(state: &mut UiState, fallback: &[(String, &'static str)]) {
    // A union list's member names, only when its filter has `ctx:` terms to match them.
    let names = match (&state.conn.fleet, state.top_list()) {
        (Some(f), Some(l))
            if l.union.is_some() && (l.filter.contains("ctx:") || l.filter.contains("context:")) =>
        {
            f.names()
        }
        _ => Vec::new(),
    };
    let page = state.screens.layout.page_rows.max(1);
    let text_page = crate::app::scroll::Page::new(page, state.screens.layout.page_cols);
    if let Screen::Yaml(y) = state.top_mut() {
        y.refresh();
        y.scroll = match y.at_end {
            true => crate::app::scroll::last_start(&y.lines, text_page, y.wrap),
            false => y.scroll.min(y.lines.len().saturating_sub(1)),
        };
        return;
    }
    if let Screen::Pulse(p) = state.top_mut() {
        p.refresh();
        return;
    }
    if let Screen::Revisions(r) = state.top_mut() {
        crate::app::history::revisions::refresh(r);
        return;
    }
    if let Screen::Xray(x) = state.top_mut() {
        x.refresh(page);
        return;
    }
    if let Screen::Logs(v) = state.top_mut() {
        v.page = page;
        v.refresh();
        return;
    }
    let Screen::List(l) = state.top_mut() else { return };
    // A union list's `ctx:` terms narrow the merge to some clusters; the rest filters rows.
    let mut filter = std::borrow::Cow::Borrowed(l.filter.as_str());
    if let Some(u) = l.union.as_deref_mut() {
        let (terms, rest) = crate::app::fleet::union::split_ctx(&l.filter);
        let only = crate::app::fleet::union::kept(&names, &terms);
        crate::app::fleet::union::refresh(u, &l.key, only);
        filter = std::borrow::Cow::Owned(rest);
    }
    let Some(snap) = l.snapshot() else { return };
    // Marks of objects that left the snapshot go (filtered-out rows keep theirs).
    l.marks.prune(&snap);
    let snap = fallback_namespaces(snap, fallback);
    let ns_filter = l.source.as_ref().and_then(|s| s.filter_ns.clone());
    let all_ns = l.key.namespace.is_none() && l.key.kind.namespaced();
    let status_col = crate::table::spec(&l.key.kind).status_col;
    let lens = crate::view::event_terms::EventLens {
        warnings_only: l.warnings_only,
        object: l.object.clone(),
    };
    l.cache.set_lens(lens);
    // Pods and nodes: the metrics of this frame, for a usage sort and the usage columns.
    l.cache.set_metrics(l.usage.as_ref().map(|u| u.load()));
    match l.cache.update(
        &snap,
        ns_filter.as_deref(),
        &filter,
        l.sort,
        l.reverse,
        status_col,
        all_ns,
    ) {
        Ok(()) => l.filter_error = None,
        Err(e) => l.filter_error = Some(e),
    }
    if let Some(target) = &l.target {
        if let Some(i) = l.cache.position(target, 0) {
            l.selected = i;
            l.selected_key = Some(target.clone());
            l.target = None;
        } else if snap.listed {
            l.target = None;
        }
    }
    if l.is_timeline() && l.follow {
        // Tail mode: stay on the newest row as events arrive on top.
        l.selected = 0;
    } else if let Some(key) = &l.selected_key {
        let origin = l.union.is_some().then_some(l.selected_origin);
        if let Some(i) = l.cache.position_in(key, origin, l.selected) {
            // Rows landing above the selection (list pages, new objects) scroll the view with
            // it: the selected row stays on the same screen line.
            // The page stays full: when every row fits, nothing scrolls.
            if i != l.selected {
                let line = l.selected.saturating_sub(l.offset);
                l.offset = i.saturating_sub(line).min(l.cache.len().saturating_sub(page));
            }
            l.selected = i;
        }
    }
    l.new_above = match (&l.anchor, l.follow) {
        (Some(a), false) => l.cache.position(a, l.new_above).unwrap_or(0),
        _ => 0,
    };
    let len = l.cache.len();
    l.selected = l.selected.min(len.saturating_sub(1));
    if l.selected < l.offset {
        l.offset = l.selected;
    } else if l.selected >= l.offset + page {
        l.offset = l.selected + 1 - page;
    }
    // A page that grew (a larger terminal) or a list that shrank shows a full page: no
    // rows hidden above an empty bottom.
    l.offset = l.offset.min(len.saturating_sub(page.max(1)));
    l.remember_selected();
}
