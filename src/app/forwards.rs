//! Port-forwards in the UI: `shift-f` on a pod, service or workload (its ports are read off
//! the loop, then the `:` prompt opens pre-filled with `pf TARGET -n NS LOCAL:PORT`, editable;
//! local port `0` takes any free one), the `:pf` command that starts one or lists them
//! (`:pf`, alias `:port-forwards`), and `ctrl-d` in that view. Owns these transitions; must
//! not do I/O (the session's `kube::portforward::PortForwards` runs the forwards).

pub mod model;

use crate::keys::Action;
use crate::kube::builtin::BuiltinKind;
use crate::kube::portforward::{ForwardInfo, ForwardSpec, ForwardTarget};
use crate::kube::row::Drill;
use crate::kube::sanitize::sanitize;

use crate::app::effect::Effect;
use crate::app::forwards::model::Offer;
use crate::app::state::{Prompt, Screen, UiState};

/// The kinds `shift-f` works on besides pods and services: workloads, by their pods'
/// selector.
const WORKLOADS: [BuiltinKind; 4] = [
    BuiltinKind::Deployment,
    BuiltinKind::StatefulSet,
    BuiltinKind::DaemonSet,
    BuiltinKind::ReplicaSet,
];

/// Whether `shift-f` or `ctrl-d` applies here; `None` for other actions.
pub fn applies(state: &UiState, action: Action) -> Option<bool> {
    match action {
        Action::PortForward => Some(offer_of(state).is_some()),
        Action::StopForward => {
            Some(matches!(state.top(), Screen::Forwards { .. }) && !state.screens.layout.forwards.is_empty())
        }
        _ => None,
    }
}

/// The target the selection names.
fn offer_of(state: &UiState) -> Option<Offer> {
    let l = state.top_list()?;
    let row = l.cache.selected_row(l.selected)?;
    let namespace = state.row_namespace(row.namespace.as_deref());
    let kind = l.kind().clone();
    let target = if kind == BuiltinKind::Pod {
        ForwardTarget::Pod(row.name.to_string())
    } else if kind == BuiltinKind::Service {
        ForwardTarget::Service(row.name.to_string())
    } else if WORKLOADS.iter().any(|k| kind == *k) {
        match row.drill.as_deref() {
            Some(Drill::Selector(sel)) => ForwardTarget::Selector {
                label: format!("{}/{}", kind.singular(), row.name),
                selector: sel.to_string(),
            },
            _ => return None,
        }
    } else {
        return None;
    };
    let context = crate::app::fleet::open::context_of_row(state, row.origin);
    Some(Offer {
        context,
        namespace,
        target,
    })
}

/// `shift-f`: asks the loop for the target's ports.
pub fn offer(state: &mut UiState) {
    if let Some(o) = offer_of(state) {
        state.note(format!("reading the ports of {}…", o.target.words()));
        state.emit(Effect::OfferForward(Box::new(o)));
    }
}

/// The ports came back: the prompt opens with the first one (same local port), the others
/// listed in the footer.
pub fn offered(state: &mut UiState, o: Offer, ports: Result<Vec<u16>, String>) {
    let ports = match ports {
        Ok(p) => p,
        Err(e) => {
            state.screens.footer.message = Some(format!("{}: {e}", o.target.words()));
            state.screens.footer.info = false;
            return;
        }
    };
    let sel = match &o.target {
        ForwardTarget::Selector { selector, .. } => format!(" -l {selector}"),
        _ => String::new(),
    };
    let port = ports.first().map_or_else(String::new, |p| format!("{p}:{p}"));
    let at = o
        .context
        .as_ref()
        .map_or(String::new(), |c| format!(" --context {c}"));
    let line = format!("pf {} -n {}{sel}{at} {port}", o.target.words(), o.namespace);
    state.screens.prompt.open = Some(Prompt::Command(sanitize(&line).into_owned()));
    let all: Vec<String> = ports.iter().map(u16::to_string).collect();
    state.note(match all.len() {
        0 => "no ports declared: type LOCAL:PORT (local 0 = any free port)".into(),
        _ => format!(
            "ports: {} — edit LOCAL:PORT (local 0 = any free port)",
            all.join(", ")
        ),
    });
}

/// `:pf` alone lists the forwards; `:pf TARGET [-n NS] [-l SELECTOR] [LOCAL:]PORT` starts
/// one. Returns false for other commands.
pub fn command(state: &mut UiState, line: &str) -> bool {
    let mut words = line.split_whitespace();
    if !matches!(
        words.next(),
        Some("pf" | "port-forward" | "port-forwards" | "portforwards")
    ) {
        return false;
    }
    let rest: Vec<&str> = words.collect();
    if rest.is_empty() {
        // A `:` command's view is the base: `esc` stays, `[` goes back.
        crate::app::nav::open(state, Screen::Forwards { selected: 0 });
        return true;
    }
    // A forward counts as a write: typed or not, none starts in read-only mode.
    if state.settings.readonly {
        state.screens.footer.message = Some("read-only: port-forwards are off; nothing was started".into());
        state.screens.footer.info = false;
        return true;
    }
    match parse(state, &rest) {
        Ok(spec) => state.emit(Effect::StartForward(Box::new(spec))),
        Err(e) => {
            state.screens.footer.message = Some(format!("pf: {e}"));
            state.screens.footer.info = false;
        }
    }
    true
}

fn parse(state: &UiState, words: &[&str]) -> Result<ForwardSpec, String> {
    let (mut target, mut ns, mut sel, mut ports, mut context) = (None, None, None, None, None);
    let mut it = words.iter();
    while let Some(w) = it.next() {
        match *w {
            "-n" | "--namespace" => ns = it.next().copied(),
            "-l" | "--selector" => sel = it.next().copied(),
            "--context" => context = it.next().copied(),
            w if target.is_none() && w.contains('/') => target = Some(w),
            w => ports = Some(w),
        }
    }
    let target = target.ok_or("name a target: pod/NAME, svc/NAME or deploy/NAME")?;
    let (kind, name) = target.split_once('/').ok_or("target is KIND/NAME")?;
    let target = match kind {
        "pod" | "pods" | "po" => ForwardTarget::Pod(name.into()),
        "svc" | "service" | "services" => ForwardTarget::Service(name.into()),
        _ => ForwardTarget::Selector {
            label: format!("{kind}/{name}"),
            selector: sel
                .ok_or("a workload needs -l SELECTOR (shift-f fills it in)")?
                .into(),
        },
    };
    let ports = ports.ok_or("give the port: [LOCAL:]PORT")?;
    let (local, remote) = ports.split_once(':').unwrap_or((ports, ports));
    let remote: u16 = remote.parse().map_err(|_| format!("bad port {remote:?}"))?;
    let local: u16 = local.parse().map_err(|_| format!("bad local port {local:?}"))?;
    let namespace = ns
        .map(str::to_owned)
        .or_else(|| state.conn.namespace.clone())
        .unwrap_or_else(|| "default".into());
    Ok(ForwardSpec {
        context: crate::app::fleet::open::command_context(state, context, "pf TARGET")?,
        namespace,
        target,
        port: remote,
        local: std::net::SocketAddr::from(([127, 0, 0, 1], local)),
    })
}

/// The loop started a forward (or could not): the footer says so.
pub fn started(state: &mut UiState, res: Result<ForwardInfo, String>) {
    match res {
        Ok(f) => state.note(format!(
            "forwarding {} → {} (:pf lists forwards)",
            f.local,
            sanitize(&f.target)
        )),
        Err(e) => {
            state.screens.footer.message = Some(format!("port-forward not started: {}", sanitize(&e)));
            state.screens.footer.info = false;
        }
    }
}

/// Keys of the `:pf` view: move, `ctrl-d` stops the selected forward. False when it is not
/// on top.
pub fn handle(state: &mut UiState, action: Action) -> bool {
    let n = state.screens.layout.forwards.len();
    let Screen::Forwards { selected } = state.top_mut() else {
        return false;
    };
    match action {
        Action::Up => *selected = selected.saturating_sub(1),
        Action::Down => *selected = (*selected + 1).min(n.saturating_sub(1)),
        Action::Top => *selected = 0,
        Action::Bottom => *selected = n.saturating_sub(1),
        Action::StopForward => {
            let sel = *selected;
            if let Some(f) = state.screens.layout.forwards.get(sel) {
                let (id, local) = (f.id, f.local);
                state.emit(Effect::StopForward(id));
                state.note(format!("stopped the forward on {local}"));
            }
        }
        _ => return false,
    }
    true
}
