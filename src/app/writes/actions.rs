//! The actions that act on objects — marks, copy, and the writes (delete, force delete,
//! scale, rollout restart, cordon/uncordon, drain, CronJob trigger and suspend, rollback):
//! where each applies (kind-dependent: `s` scales a deployment and suspends a CronJob), the
//! RBAC gate at the key press, and the confirmation dialog each write opens. Owns that
//! mapping; must not perform I/O (confirmed writes are `Effect::Write`s).

use std::time::Instant;

use crate::keys::Action;
use crate::kube::builtin::BuiltinKind;
use crate::kube::row::Cell;
use crate::kube::write::delete::Propagation;
use crate::kube::write::rollback::Revision;
use crate::kube::write::Target;

use crate::app::effect::Effect;
use crate::app::state::{ListState, UiState};
use crate::app::writes::marks;
use crate::app::writes::model::{Dialog, Field, Then, FORCE_WARNING};

/// Most names listed in a bulk dialog; the rest are counted.
const NAMES_SHOWN: usize = 5;

/// Kinds `s` scales (through the `scale` subresource).
const SCALABLE: [BuiltinKind; 3] = [
    BuiltinKind::Deployment,
    BuiltinKind::StatefulSet,
    BuiltinKind::ReplicaSet,
];
/// Kinds `r` restarts.
const RESTARTABLE: [BuiltinKind; 3] = [
    BuiltinKind::Deployment,
    BuiltinKind::StatefulSet,
    BuiltinKind::DaemonSet,
];

/// `Some(applies)` for the actions of this module (a list of objects on top with a row to
/// act on, the kind fitting), `None` for the others. Read-only is decided before.
pub fn applies(state: &UiState, action: Action) -> Option<bool> {
    use Action::*;
    if !matches!(
        action,
        Mark | MarkRange
            | ClearMarks
            | Copy
            | Delete
            | ForceDelete
            | Scale
            | Restart
            | Cordon
            | Uncordon
            | Drain
            | Trigger
            | Suspend
            | Rollback
            | Edit
    ) {
        return None;
    }
    let Some(l) = state.top_list() else {
        return Some(false);
    };
    if l.is_timeline() {
        return Some(false);
    }
    let row = l.cache.selected_row(l.selected).is_some();
    let kind = l.key.kind.builtin();
    let is = |ks: &[BuiltinKind]| kind.is_some_and(|k| ks.contains(&k));
    Some(match action {
        ClearMarks => !l.marks.is_empty(),
        Mark | MarkRange | Copy => row,
        Delete | ForceDelete => (row || !l.marks.is_empty()) && deletable(l),
        Scale => row && is(&SCALABLE),
        Restart => (row || !l.marks.is_empty()) && is(&RESTARTABLE),
        Cordon | Uncordon | Drain => row && is(&[BuiltinKind::Node]),
        Trigger | Suspend => (row || !l.marks.is_empty()) && is(&[BuiltinKind::CronJob]),
        Rollback => row && is(&[BuiltinKind::Deployment]),
        Edit => row && updatable(l),
        _ => false,
    })
}

/// Built-ins can be deleted (namespaces too); a discovered kind when its verbs say so.
fn deletable(l: &ListState) -> bool {
    match l.key.kind.api() {
        Some(r) => r.verbs.iter().any(|v| v == "delete"),
        None => true,
    }
}

/// Built-ins can be replaced; a discovered kind when its verbs say so.
fn updatable(l: &ListState) -> bool {
    match l.key.kind.api() {
        Some(r) => r.verbs.iter().any(|v| v == "update"),
        None => true,
    }
}

/// Handles the actions of this module; false for the others.
pub fn handle(state: &mut UiState, action: Action) -> bool {
    use Action::*;
    if applies(state, action).is_none() {
        return false;
    }
    if let Some(p) = crate::app::writes::access::forbidden(state, action, Instant::now()) {
        state.screens.footer.message = Some(format!("forbidden: {p}"));
        return true;
    }
    match action {
        Mark => {
            if let Some(l) = state.top_list_mut() {
                marks::toggle(l);
            }
        }
        MarkRange => {
            if let Some(l) = state.top_list_mut() {
                marks::range(l);
            }
        }
        ClearMarks => {
            if let Some(l) = state.top_list_mut() {
                l.marks.clear();
            }
        }
        Copy => copy(state),
        Edit => {
            let selected = state.top_list().and_then(|l| {
                let r = l.cache.selected_row(l.selected)?;
                Some(Target::new(l.key.kind.clone(), r.namespace.as_deref(), &r.name))
            });
            if let Some(t) = selected {
                crate::app::writes::edit::start(state, t);
            }
        }
        Rollback => {
            if let Some(t) = state
                .top_list()
                .and_then(|l| marks::targets(l).into_iter().next())
            {
                state.note(format!("reading the revisions of {}…", t.label()));
                state.emit(Effect::ListRevisions(t));
            }
        }
        _ => open(state, action),
    }
    true
}

/// `c`: the marked (else the selected) names to the clipboard, one per line
/// (`namespace/name` in all-namespaces views).
fn copy(state: &mut UiState) {
    let Some(l) = state.top_list() else { return };
    let all_ns = l.key.namespace.is_none() && l.key.kind.namespaced();
    let names: Vec<String> = marks::targets(l)
        .into_iter()
        .map(|t| match (&t.namespace, all_ns) {
            (Some(ns), true) => format!("{ns}/{}", t.name),
            _ => t.name,
        })
        .collect();
    if names.is_empty() {
        return;
    }
    let n = names.len();
    let hidden = marks::hidden(l);
    let hidden = if hidden.is_empty() {
        String::new()
    } else {
        format!(" ({} of them hidden by the filter /{})", hidden.len(), l.filter)
    };
    state.emit(Effect::Copy(names.join("\n")));
    state.note(if n == 1 {
        format!("copied {}{hidden}", names[0])
    } else {
        format!("copied {n} names{hidden}")
    });
}

/// What a dialog says of `targets`: `pod/web` or `3 pods`, and the lines naming them, the
/// namespace and the context.
fn describe(targets: &[Target], context: &str) -> (String, Vec<String>) {
    let Some(first) = targets.first() else {
        return (String::new(), Vec::new());
    };
    let kind = &first.kind;
    let what = if targets.len() == 1 {
        first.label()
    } else {
        format!("{} {}", targets.len(), kind.plural())
    };
    let mut lines = Vec::new();
    let shown: Vec<&str> = targets
        .iter()
        .take(NAMES_SHOWN)
        .map(|t| t.name.as_str())
        .collect();
    let more = targets.len().saturating_sub(NAMES_SHOWN);
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    lines.push(format!("{}: {}{more}", kind.full_name(), shown.join(", ")));
    let mut namespaces: Vec<&str> = targets.iter().filter_map(|t| t.namespace.as_deref()).collect();
    namespaces.sort_unstable();
    namespaces.dedup();
    if !namespaces.is_empty() {
        lines.push(format!("namespace: {}", namespaces.join(", ")));
    }
    lines.push(format!("context: {context}"));
    (what, lines)
}

/// Where a `what` summary says it happens: ` in team-a` (one namespace) or nothing.
fn where_(targets: &[Target]) -> String {
    match targets.first().and_then(|t| t.namespace.as_deref()) {
        Some(ns) if targets.iter().all(|t| t.namespace.as_deref() == Some(ns)) => format!(" in {ns}"),
        _ => String::new(),
    }
}

/// Opens the confirmation dialog of a write on the marked (else the selected) objects.
fn open(state: &mut UiState, action: Action) {
    use Action::*;
    let Some(l) = state.top_list() else { return };
    let targets = marks::targets(l);
    if targets.is_empty() {
        return;
    }
    // Inside a union each object goes to its own cluster: one route per context.
    let routes = crate::app::fleet::writes::routes(state, l, &targets);
    let context = match routes.as_slice() {
        _ if state.conn.fleet.is_none() => state.conn.context.clone(),
        [] => None,
        [(one, _)] => Some(one.clone()),
        many if matches!(action, Delete | ForceDelete) => Some(crate::app::fleet::writes::label(many)),
        many => {
            state.screens.footer.message = Some(format!(
                "the rows are in {} clusters: mark rows of one cluster for this",
                many.len()
            ));
            return;
        }
    };
    let Some(context) = context else {
        state.screens.footer.message = Some("not connected: nothing to write to".into());
        return;
    };
    let row = l.cache.selected_row(l.selected);
    let (what, mut lines) = describe(&targets, &context);
    let hidden = marks::hidden(l);
    if !hidden.is_empty() {
        let more = hidden.len().saturating_sub(NAMES_SHOWN);
        let names = hidden
            .iter()
            .take(NAMES_SHOWN)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        lines.insert(
            1,
            format!(
                "{} of them hidden by the filter /{}: {names}{more}",
                hidden.len(),
                l.filter
            ),
        );
    }
    let at = where_(&targets);
    let first = targets[0].clone();
    let (title, fields, then, summary) = match action {
        Delete | ForceDelete => delete_parts(&targets, &what, &at, action),
        Scale => {
            let current = row.as_ref().and_then(|r| desired_replicas(l, &r.cells));
            let cur = current.map_or("?".to_owned(), |c| c.to_string());
            let fields = vec![Field::Number {
                label: "replicas",
                text: cur.clone(),
                hint: "",
            }];
            let title = format!("scale {} (now {cur})?", first.label());
            let summary = format!("scale {}{at}", first.label());
            (title, fields, Then::Scale(first.clone()), summary)
        }
        Restart => (
            format!("rollout restart {what}?"),
            Vec::new(),
            Then::Restart(targets.clone()),
            format!("rollout restart {what}{at}"),
        ),
        Cordon | Uncordon => {
            let on = action == Cordon;
            let verb = if on { "cordon" } else { "uncordon" };
            (
                format!("{verb} {what}?"),
                Vec::new(),
                Then::Cordon(targets.clone(), on),
                format!("{verb} {what}"),
            )
        }
        Drain => {
            let fields = vec![
                Field::Toggle {
                    label: "ignore DaemonSets",
                    on: true,
                },
                Field::Toggle {
                    label: "delete emptyDir data",
                    on: false,
                },
                Field::Toggle {
                    label: "force (unmanaged pods)",
                    on: false,
                },
                Field::Number {
                    label: "grace period (s)",
                    text: String::new(),
                    hint: "the pods' own",
                },
                Field::Number {
                    label: "timeout (s)",
                    text: "120".into(),
                    hint: "120",
                },
            ];
            (
                format!("drain {}?", first.label()),
                fields,
                Then::Drain(first.clone()),
                format!("drain {}", first.label()),
            )
        }
        Trigger => (
            format!("trigger {what} now?"),
            Vec::new(),
            Then::Trigger(targets.clone()),
            format!("trigger {what}{at}"),
        ),
        Suspend => {
            // The selected CronJob's state decides: suspended ones resume.
            let suspended = row
                .as_ref()
                .and_then(|r| r.cells.get(2).and_then(Cell::literal).map(|s| s == "True"))
                .unwrap_or(false);
            let verb = if suspended { "resume" } else { "suspend" };
            (
                format!("{verb} {what}?"),
                Vec::new(),
                Then::Suspend(targets.clone(), !suspended),
                format!("{verb} {what}{at}"),
            )
        }
        _ => return,
    };
    let mut d = Dialog::new(title, lines, fields, then, context.clone(), summary);
    if action == Scale {
        d.focus = 0;
    }
    if routes.len() > 1 {
        crate::app::fleet::writes::spread(state, &mut d, routes);
        let want = crate::app::fleet::writes::protection(state, &d);
        show(state, d, action, &context, &targets);
        if let Some(dialog) = state.screens.overlays.dialog.as_mut() {
            dialog.require = want;
        }
        return;
    }
    show(state, d, action, &context, &targets);
}

/// Puts dialog `d` on screen: the force warning, what a protected context wants typed.
fn show(state: &mut UiState, mut d: Dialog, action: Action, context: &str, targets: &[Target]) {
    if action == Action::ForceDelete {
        d.warning = Some(FORCE_WARNING.to_owned());
    }
    d.require = protection(state, context, targets);
    state.screens.overlays.dialog = Some(Box::new(d));
}

/// `ctrl-d` (`ctrl-k`: force) on one object outside a list — a line of `:xray`: the same
/// delete dialog as a list row's, naming the context in use, "no" selected.
pub fn delete_one(state: &mut UiState, target: Target, action: Action) {
    let Some(context) = state.conn.context.clone() else {
        state.screens.footer.message = Some("not connected: nothing to write to".into());
        return;
    };
    let targets = vec![target];
    let (what, lines) = describe(&targets, &context);
    let at = where_(&targets);
    let (title, fields, then, summary) = delete_parts(&targets, &what, &at, action);
    let d = Dialog::new(title, lines, fields, then, context.clone(), summary);
    show(state, d, action, &context, &targets);
}

/// The delete dialog's title, fields (propagation, grace period, force), what it does and
/// its footer summary, for `targets` described as `what`, `at` where they are.
fn delete_parts(
    targets: &[Target],
    what: &str,
    at: &str,
    action: Action,
) -> (String, Vec<Field>, Then, String) {
    let fields = vec![
        Field::Choice {
            label: "propagation",
            options: Propagation::ALL.iter().map(|p| p.word().to_owned()).collect(),
            at: 0,
        },
        Field::Number {
            label: "grace period (s)",
            text: String::new(),
            hint: "the object's own",
        },
        Field::Toggle {
            label: "force",
            on: action == Action::ForceDelete,
        },
    ];
    let verb = if action == Action::ForceDelete {
        "force delete"
    } else {
        "delete"
    };
    (
        format!("{verb} {what}?"),
        fields,
        Then::Delete(targets.to_vec()),
        format!("{verb} {what}{at}"),
    )
}

/// What the user must type in a protected context: the name (one object) or the count.
fn protection(state: &UiState, context: &str, targets: &[Target]) -> Option<String> {
    if !state.settings.protected.iter().any(|p| p.is_match(context)) {
        return None;
    }
    Some(match targets {
        [one] => one.name.clone(),
        many => many.len().to_string(),
    })
}

/// The desired replicas a row shows: READY `a/b` of deployments and statefulsets (b),
/// DESIRED of replicasets.
fn desired_replicas(l: &ListState, cells: &[Cell]) -> Option<u32> {
    let first = cells.first()?;
    match (l.key.kind.builtin()?, first) {
        (BuiltinKind::ReplicaSet, Cell::Int(n)) => u32::try_from(*n).ok(),
        (BuiltinKind::Deployment | BuiltinKind::StatefulSet, c) => {
            c.literal()?.split_once('/')?.1.parse().ok()
        }
        _ => None,
    }
}

/// The rollback dialog for `target` to the revision chosen among `older` (named with the
/// context, "no" selected).
pub(crate) fn rollback_dialog(state: &mut UiState, target: Target, older: Vec<Revision>) {
    let Some(context) = state.conn.context.clone() else {
        return;
    };
    let options = older
        .iter()
        .map(|r| {
            let cause = r.change_cause.as_deref().unwrap_or("<none>");
            format!("{}  {}  {cause}", r.number, r.images.join(","))
        })
        .collect();
    let fields = vec![Field::Choice {
        label: "revision",
        options,
        at: 0,
    }];
    let (_, lines) = describe(std::slice::from_ref(&target), &context);
    let title = format!("roll back {}?", target.label());
    let summary = format!(
        "roll back {}{}",
        target.label(),
        where_(std::slice::from_ref(&target))
    );
    let mut d = Dialog::new(
        title,
        lines,
        fields,
        Then::Rollback(target.clone(), older),
        context.clone(),
        summary,
    );
    d.focus = 0;
    d.require = protection(state, &context, std::slice::from_ref(&target));
    state.screens.overlays.dialog = Some(Box::new(d));
}
