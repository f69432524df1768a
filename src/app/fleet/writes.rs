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

/// Makes `d` a write over several clusters: its title names them, its lines say which
/// objects are in which cluster (and which cluster is read-only or protected), confirming
/// sends one request per cluster.
pub fn spread(state: &UiState, d: &mut Dialog, routes: Vec<(String, Vec<Target>)>) {
    let label = label(&routes);
    if let Some(q) = d.title.strip_suffix('?') {
        d.title = format!("{q} in {label}?");
    }
    // `pods: a, b` and `context: …` give way to one line per cluster.
    d.lines
        .retain(|l| !l.starts_with("context: ") && !l.starts_with(&format!("{}: ", kind_name(&routes))));
    let per: Vec<String> = routes
        .iter()
        .map(|(c, t)| {
            let names: Vec<&str> = t.iter().take(5).map(|t| t.name.as_str()).collect();
            let more = t.len().saturating_sub(5);
            let more = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            let ro = state
                .conn
                .fleet
                .as_ref()
                .and_then(|f| f.by_name(c))
                .is_some_and(|m| m.readonly);
            let protected = state.settings.protected.iter().any(|p| p.is_match(c));
            let note = match (ro, protected) {
                (true, _) => " [read-only: skipped]",
                (false, true) => " [protected]",
                _ => "",
            };
            crate::kube::sanitize::sanitize(&format!("{c}: {}{more}{note}", names.join(", "))).into_owned()
        })
        .collect();
    for (i, line) in per.into_iter().enumerate() {
        d.lines.insert(i, line);
    }
    d.routes = routes;
}

/// The dialog's first line's lead for these targets' kind (`pods`, as `describe` writes it).
fn kind_name(routes: &[(String, Vec<Target>)]) -> String {
    routes
        .first()
        .and_then(|(_, t)| t.first())
        .map(|t| t.kind.full_name())
        .unwrap_or_default()
}

/// What a write over several clusters asks to type when one of them is protected
/// (`[actions] protected`): the count of the protected clusters' objects.
pub fn protection(state: &UiState, d: &Dialog) -> Option<String> {
    let n: usize = d
        .routes
        .iter()
        .filter(|(c, _)| state.settings.protected.iter().any(|p| p.is_match(c)))
        .map(|(_, t)| t.len())
        .sum();
    (n > 0).then(|| n.to_string())
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
        let verb = if d.force() { "force delete" } else { "delete" };
        let what = match targets.as_slice() {
            [one] => one.label(),
            many => format!("{} {}", many.len(), many[0].kind.plural()),
        };
        state.emit(Effect::Write(Box::new(WriteRequest {
            context: context.clone(),
            summary: format!("{verb} {what} in {context}"),
            op,
        })));
    }
    if let Some(f) = state.conn.fleet.as_mut() {
        // What was not sent stays said beside the answers.
        f.batch = (
            sent.len(),
            skipped
                .iter()
                .map(|s| (false, format!("not sent: {s}")))
                .collect(),
        );
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
