//! Writes inside a union: which cluster each marked (or the selected) object is in, the
//! dialog's words for objects in several clusters (`delete 3 pods in prod-eu (2), prod-us
//! (1)?`), what a protected member asks to type, and one write request per cluster once
//! confirmed — none to a member that is read-only or not connected (the footer says which).
//! Must not perform I/O.

use crate::app::effect::{Effect, WriteRequest};
use crate::app::state::{ListState, UiState};
use crate::app::writes::model::{Dialog, Then};
use crate::kube::write::Target;

/// The targets grouped by the context of their rows, in the union's order (empty outside
/// a union: the caller uses the context in use). A target whose row left the list is
/// dropped.
pub fn routes(state: &UiState, l: &ListState, targets: &[Target]) -> Vec<(String, Vec<Target>)> {
    let Some(fleet) = &state.conn.fleet else {
        return Vec::new();
    };
    // Pinned views hold one cluster's rows.
    if l.union.is_none() {
        let ctx = crate::app::fleet::open::context_of_view(state, state.top_id()).unwrap_or_default();
        return vec![(ctx, targets.to_vec())];
    }
    let kind = l.key.kind.clone();
    let picked: Vec<(u16, Target)> = if l.marks.is_empty() {
        let origin = l.cache.selected_row(l.selected).map(|r| r.origin);
        targets
            .iter()
            .filter_map(|t| Some((origin?, t.clone())))
            .collect()
    } else {
        l.cache
            .rows()
            .iter()
            .filter(|r| l.marks.contains(r))
            .map(|r| {
                (
                    r.origin,
                    Target::new(kind.clone(), r.namespace.as_deref(), &r.name),
                )
            })
            .collect()
    };
    let mut out: Vec<(String, Vec<Target>)> = Vec::new();
    for (origin, t) in picked {
        let ctx = fleet.name(origin).to_owned();
        match out.iter_mut().find(|(c, _)| *c == ctx) {
            Some((_, v)) => v.push(t),
            None => out.push((ctx, vec![t])),
        }
    }
    let order = |c: &str| fleet.members.iter().position(|m| m.context == c);
    out.sort_by_key(|(c, _)| order(c));
    out
}

/// `prod-eu (2), prod-us (1)`: where a write over several clusters goes.
pub fn label(routes: &[(String, Vec<Target>)]) -> String {
    routes
        .iter()
        .map(|(c, t)| format!("{c} ({})", t.len()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Makes `d` a write over several clusters: its title names them, confirming sends one
/// request per cluster.
pub fn spread(d: &mut Dialog, routes: Vec<(String, Vec<Target>)>) {
    let label = label(&routes);
    if let Some(q) = d.title.strip_suffix('?') {
        d.title = format!("{q} in {label}?");
    }
    d.routes = routes;
}

/// What a write over several clusters asks to type when one of them is protected
/// (`[actions] protected`): the count of all its objects.
pub fn protection(state: &UiState, d: &Dialog, targets: &[Target]) -> Option<String> {
    let protected = d
        .routes
        .iter()
        .any(|(c, _)| state.settings.protected.iter().any(|p| p.is_match(c)));
    protected.then(|| targets.len().to_string())
}

/// "yes" on a write over several clusters: one request per cluster that may take it; the
/// footer names those that were skipped and why.
pub fn confirmed(state: &mut UiState, d: Dialog) {
    let mut sent = Vec::new();
    let mut skipped = Vec::new();
    for (context, targets) in &d.routes {
        if let Err(why) = crate::app::fleet::open::writable(state, context) {
            skipped.push(why);
            continue;
        }
        let one = Dialog {
            then: match &d.then {
                Then::Delete(_) => Then::Delete(targets.clone()),
                other => other.clone(),
            },
            routes: Vec::new(),
            ..d.clone()
        };
        let op = match one.op() {
            Ok(op) => op,
            Err(e) => {
                skipped.push(format!("{context}: {e}"));
                continue;
            }
        };
        sent.push(format!("{context} ({})", targets.len()));
        state.emit(Effect::Write(Box::new(WriteRequest {
            context: context.clone(),
            summary: format!("{} in {context}", d.summary),
            op,
        })));
    }
    if let Some(f) = state.conn.fleet.as_mut() {
        f.batch = (sent.len(), Vec::new());
    }
    let mut words = format!("{} (contexts {})…", d.summary, sent.join(", "));
    if sent.is_empty() {
        words = "nothing was sent".to_owned();
    }
    if !skipped.is_empty() {
        words.push_str(&format!("  not sent: {}", skipped.join("; ")));
    }
    state.note(words);
}

/// One cluster's answer to a write of a batch over several clusters: the footer lists every
/// answer so far, failures first (`… failed: forbidden … · deleted pod/web (context eu)`).
/// False when no batch waits (the caller says it alone).
pub fn answered(state: &mut UiState, line: String, ok: bool) -> bool {
    let Some(f) = state.conn.fleet.as_mut() else {
        return false;
    };
    if f.batch.0 == 0 {
        return false;
    }
    f.batch.0 -= 1;
    f.batch.1.push((ok, line));
    f.batch.1.sort_by_key(|(ok, _)| *ok);
    let all_ok = f.batch.1.iter().all(|(ok, _)| *ok);
    let words = f
        .batch
        .1
        .iter()
        .map(|(_, l)| l.as_str())
        .collect::<Vec<_>>()
        .join(" · ");
    state.screens.footer.message = Some(words);
    state.screens.footer.info = all_ok;
    true
}
