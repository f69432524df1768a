//! `s` (shell) and `a` (attach) on a pod or container: which target the selection names,
//! whether the actions apply, the preparation (container, OS and shell found off the loop)
//! and the handover of the terminal to the session. Owns those transitions; must not do I/O
//! (the loop runs `Effect::PrepareSession` and the session itself).

pub mod command;
pub mod debug;

pub mod model;

use crate::keys::Action;
use crate::kube::builtin::BuiltinKind;
use crate::kube::exec::{ExecTarget, Resolved, SessionKind, ShellSearch};
use crate::kube::sanitize::sanitize;

use crate::app::effect::Effect;
use crate::app::handover::{Handover, Job, Then};
use crate::app::session::model::{Prepared, SessionJob, SessionRequest};
use crate::app::state::{Screen, UiState};

/// Whether `s`/`a` apply here: on a pod row, or a container row of the containers view.
/// `None` for every other action.
pub fn applies(state: &UiState, action: Action) -> Option<bool> {
    if !matches!(action, Action::Shell | Action::Attach) {
        return None;
    }
    Some(target(state).is_some())
}

/// The pod (and container) the selection names.
fn target(state: &UiState) -> Option<ExecTarget> {
    match state.top() {
        Screen::List(l) if l.key.kind == BuiltinKind::Pod => {
            let row = l.cache.selected_row(l.selected)?;
            Some(ExecTarget {
                context: crate::app::fleet::open::context_of_row(state, row.origin),
                namespace: state.row_namespace(row.namespace.as_deref()),
                pod: row.name.to_string(),
                container: None,
            })
        }
        Screen::Containers(c) => {
            let container = c.pod().0?.containers.get(c.selected)?.name.to_string();
            Some(ExecTarget {
                context: crate::app::fleet::open::pinned_context(state, state.top_id()),
                namespace: c.key.namespace.as_deref().unwrap_or("default").to_owned(),
                pod: c.name.clone(),
                container: Some(container),
            })
        }
        _ => None,
    }
}

/// `s` or `a`: asks the loop to prepare the session of the selection.
pub fn open(state: &mut UiState, action: Action) {
    let Some(target) = target(state) else { return };
    let kind = match action {
        Action::Attach => SessionKind::Attach,
        _ => SessionKind::Shell,
    };
    state.note(format!("connecting to pod/{}…", sanitize(&target.pod)));
    state.emit(Effect::PrepareSession(Box::new(SessionRequest { target, kind })));
}

/// The preparation finished: hand the terminal over, or say why not.
pub fn prepared(state: &mut UiState, p: Prepared) -> Vec<Effect> {
    let SessionRequest { target, kind } = p.request;
    let pod = sanitize(&target.pod).into_owned();
    let (resolved, search) = match p.found {
        Ok(found) => found,
        Err(e) => {
            state.screens.footer.message = Some(format!("pod/{pod}: {e}"));
            state.screens.footer.info = false;
            return Vec::new();
        }
    };
    let container = resolved.container.clone();
    let c = sanitize(&container).into_owned();
    let tty = match kind {
        SessionKind::Attach | SessionKind::Debug { .. } => resolved.tty,
        _ => true,
    };
    let (argv, what) = match (&kind, search) {
        (SessionKind::Attach, _) => (None, "attach"),
        (SessionKind::Debug { .. }, _) => (None, "debug container"),
        (SessionKind::Command(argv), _) => (Some(argv.clone()), "command"),
        (SessionKind::Shell, Some(ShellSearch::Found(shell))) => {
            (Some(crate::kube::exec::shell_argv(shell)), shell)
        }
        (SessionKind::Shell, Some(ShellSearch::None(_)) | None) => {
            crate::app::session::command::offer(state, &target, &container, &tried_words(&resolved));
            return Vec::new();
        }
    };
    state.screens.footer.message = None;
    vec![Effect::HandOver(Box::new(Handover {
        label: format!("{what} in pod/{pod} -c {c}"),
        job: Job::Session(SessionJob {
            target,
            container,
            argv,
            tty,
        }),
        then: Then::Note,
    }))]
}

/// The shells tried for the node's OS, in words.
fn tried_words(r: &Resolved) -> String {
    let shells = if r.windows {
        crate::kube::exec::WINDOWS_SHELLS
    } else {
        crate::kube::exec::LINUX_SHELLS
    };
    shells.join(", ")
}
