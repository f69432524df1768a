//! `:xray <kind> [namespace|-A]` and `x` on a row: a live, collapsible tree of objects built
//! from the running informers — owners down to pods and containers, and what each pod uses
//! (`xray/tree.rs`, `xray/pod.rs`); every line acts like a list row (`xray/keys.rs`). Owns
//! opening the view; must not do I/O (the loop subscribes the informers it asks for).

pub mod keys;
pub mod model;
mod pod;
pub mod tree;

use crate::kube::builtin::BuiltinKind;

use crate::app::state::{Screen, UiState};
use model::XrayState;

/// The kinds `:xray` takes as roots.
pub const ROOTS: [BuiltinKind; 8] = [
    BuiltinKind::Deployment,
    BuiltinKind::StatefulSet,
    BuiltinKind::DaemonSet,
    BuiltinKind::Job,
    BuiltinKind::CronJob,
    BuiltinKind::Service,
    BuiltinKind::Node,
    BuiltinKind::Namespace,
];

/// `:xray <kind> [namespace|-n namespace|-A|all]`: the tree of every object of `kind` (in
/// the session's namespace unless one is given), as a `:` command's view (the base: `esc`
/// stays, `[` goes back). Says why when the kind is missing or not one of [`ROOTS`]. False
/// when `line` is not an xray command.
pub fn command(state: &mut UiState, line: &str) -> bool {
    let mut words = line.split_whitespace();
    if words.next() != Some("xray") {
        return false;
    }
    let rest: Vec<&str> = words.collect();
    let (word, ns) = match rest.as_slice() {
        [] => (None, None),
        [kind] => (Some(*kind), None),
        [kind, "-n" | "--namespace", ns] | [kind, ns] => (Some(*kind), Some(*ns)),
        [_, .., extra] => {
            let extra = crate::kube::sanitize::sanitize(extra);
            state.screens.footer.message = Some(format!("xray: unexpected {extra:?}"));
            return true;
        }
    };
    open(state, word, ns);
    true
}

fn open(state: &mut UiState, word: Option<&str>, ns: Option<&str>) {
    let offered = "deployments, statefulsets, daemonsets, jobs, cronjobs, services, nodes, namespaces";
    let Some(word) = word else {
        state.screens.footer.message = Some(format!("xray: which kind? ({offered})"));
        return;
    };
    let kind = state.conn.registry.resolve(word).ok().and_then(|k| k.builtin());
    let Some(kind) = kind.filter(|k| ROOTS.contains(k)) else {
        state.screens.footer.message = Some(format!(
            "xray: {} is not one of {offered}",
            crate::kube::sanitize::sanitize(word)
        ));
        return;
    };
    let ns = match ns {
        Some("-A" | "--all-namespaces" | "all" | "*") => None,
        Some(ns) => match crate::kube::key::check_namespace(ns) {
            Ok(()) => Some(ns.to_owned()),
            Err(e) => {
                state.screens.footer.message = Some(format!("xray: {e}"));
                return;
            }
        },
        None => state.conn.namespace.clone(),
    };
    crate::app::nav::open(state, Screen::Xray(Box::new(XrayState::new(kind, ns, None))));
}

/// The kind of the top list's selected row when `x` can open its tree.
pub fn row_kind(state: &UiState) -> Option<BuiltinKind> {
    let l = state.top_list().filter(|l| !l.is_timeline())?;
    l.cache.selected_row(l.selected)?;
    l.key.kind.builtin().filter(|k| tree::has_children(*k))
}

/// `x` on a list row: push the tree of that one object, expanded (`esc` comes back).
pub fn open_row(state: &mut UiState) {
    let Some(kind) = row_kind(state) else { return };
    let Some(row) = state.top_list().and_then(|l| l.cache.selected_row(l.selected)) else {
        return;
    };
    let ns = row.namespace.as_deref().map(str::to_owned);
    let view = XrayState::new(kind, ns, Some(row.name.to_string()));
    state.push(Screen::Xray(Box::new(view)));
}

#[cfg(test)]
mod command_tests;
#[cfg(test)]
mod keys_tests;
#[cfg(test)]
mod scale_tests;
#[cfg(test)]
mod tests;
