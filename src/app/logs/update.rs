//! Keys of the log view and how log views open: `l` on a pod (its default container, else
//! all), on a container row, or on a workload/service (a merged view of its pods), `:logs -l
//! sel` / `:logs <pod-regex>`; then follow/pause, previous, timestamps, wrap, windows, filter,
//! search, save. Pure state changes; streams are effects the loop runs.

use crate::app::effect::Effect;
use crate::app::logs::model::{LogPrompt, LogsState, Window};
use crate::app::state::{Prompt, Screen, UiState};
use crate::keys::Action;
use crate::kube::builtin::BuiltinKind;
use crate::kube::logs::{ContainerPick, LogTarget, PodPick};
use crate::kube::row::Drill;

/// `l` on a list row: a pod's logs, or a merged view of a workload's or service's pods.
pub fn open_from_list(state: &mut UiState) {
    let Some(list) = state.top_list() else { return };
    let Some(row) = list.cache.selected_row(list.selected) else {
        return;
    };
    let ns = state.row_namespace(row.namespace.as_deref());
    let kind = list.kind().clone();
    let (pods, title) = if kind == BuiltinKind::Pod {
        (PodPick::Named(row.name.to_string()), format!("pod/{}", row.name))
    } else {
        // Pods were handled above: the rest of `WITH_LOGS` are workloads and services.
        let workload = crate::app::logs::applies::WITH_LOGS.iter().any(|k| kind == *k);
        match (row.drill.as_deref(), workload) {
            (Some(Drill::Selector(sel)), true) => (
                PodPick::Selector(sel.to_string()),
                format!("{}/{}", kind.singular(), row.name),
            ),
            _ => {
                state.screens.footer.message = Some(format!(
                    "no logs for {} (pods, workloads and services have logs)",
                    kind.singular()
                ));
                return;
            }
        }
    };
    open(state, ns, pods, ContainerPick::Default, title);
}

/// Pushes a log view of `pods`/`containers` in `ns`.
pub fn open(state: &mut UiState, ns: String, pods: PodPick, containers: ContainerPick, title: String) {
    let target = LogTarget {
        namespace: ns,
        pods,
        containers,
    };
    let view = LogsState::new(target, title, state.settings.logs);
    state.push(Screen::Logs(Box::new(view)));
}

/// `:logs -l <selector>` or `:logs <pod-regex>` in the namespace in use: the view's (see
/// [`crate::app::nav::view_namespace`]), else the session's. A merged view spans one namespace:
/// in all-namespaces mode the command says so rather than reading `default` behind the
/// user's back.
pub fn command(state: &mut UiState, arg: Option<&str>, labels: Option<&str>) {
    let ns = match state.view_namespace() {
        Some(view) => view.map(str::to_owned),
        None => state.conn.namespace.clone(),
    };
    let Some(ns) = ns else {
        state.screens.footer.message = Some(
            "logs: a merged view spans one namespace: pick one first (:ns <name>, or :pods <name>)".into(),
        );
        return;
    };
    match (labels, arg) {
        (Some(sel), None) => open(
            state,
            ns,
            PodPick::Selector(sel.into()),
            ContainerPick::Default,
            format!("-l {sel}"),
        ),
        (None, Some(re)) => match regex::Regex::new(re) {
            Ok(_) => open(
                state,
                ns,
                PodPick::Regex(re.into()),
                ContainerPick::Default,
                format!("pods ~ {re}"),
            ),
            Err(_) => state.screens.footer.message = Some(format!("logs: {re:?} is not a valid regex")),
        },
        _ => state.screens.footer.message = Some("logs: give -l <selector> or a pod name regex".into()),
    }
}

/// Handles `action` when a log view is on top; false when it is not.
pub fn handle(state: &mut UiState, action: Action) -> bool {
    let id = state.top_id();
    let Screen::Logs(v) = state.top_mut() else {
        return false;
    };
    let page = v.page.max(1);
    match action {
        Action::Up => scroll(v, -1),
        Action::Down => scroll(v, 1),
        Action::PageUp => scroll(v, -(page as i64)),
        Action::PageDown => scroll(v, page as i64),
        Action::Top => {
            v.follow = false;
            v.scroll = 0;
        }
        Action::Bottom => {
            v.follow = true;
            v.new_below = 0;
        }
        Action::LogTimestamps => {
            v.timestamps = !v.timestamps;
            // The filter sees what is shown (a term may match a timestamp): re-filter, keeping
            // a paused view on its first line. Without a filter every line stays.
            if !v.filter.is_empty() {
                let keep = v.visible.seqs.get(v.first_shown()).copied();
                let f = v.filter.clone();
                v.set_filter(f);
                if !v.follow {
                    v.settle();
                    v.scroll = keep.map_or(0, |k| v.visible.seqs.partition_point(|s| *s < k));
                }
            }
        }
        Action::LogWrap => v.wrap = !v.wrap,
        Action::LogPrevious => {
            if v.merged() {
                state.screens.footer.message =
                    Some("previous: open one pod's logs for its previous instance".into());
                return true;
            }
            v.previous = !v.previous;
            restart(state, id);
        }
        Action::LogWindow(n) => {
            let Some(w) = Window::from_key(n, v.settings.tail) else {
                return true;
            };
            v.window = w;
            restart(state, id);
        }
        Action::FilterMode => {
            let s = v.filter.clone();
            v.prompt = Some(LogPrompt::Filter);
            state.screens.prompt.open = Some(Prompt::Filter(s));
        }
        Action::LogSearch => {
            let s = v.search.clone();
            v.prompt = Some(LogPrompt::Search);
            state.screens.prompt.open = Some(Prompt::Filter(s));
        }
        Action::NextMatch => jump(state, true),
        Action::PrevMatch => jump(state, false),
        Action::Save => state.emit(Effect::Save(id)),
        Action::Enter | Action::SortAge | Action::SortStatus | Action::ToggleWide => {}
        _ => return false,
    }
    true
}

/// Typed text in the log view's prompt: the filter applies live; the search jumps to the
/// first match from the top of the page.
pub fn typed(state: &mut UiState, text: String) -> bool {
    let Screen::Logs(v) = state.top_mut() else {
        return false;
    };
    match v.prompt {
        Some(LogPrompt::Search) => {
            if let Err(e) = v.set_search(text) {
                state.screens.footer.message = Some(e);
                return true;
            }
            jump_from(state, true, true);
        }
        _ => v.set_filter(text),
    }
    true
}

fn scroll(v: &mut LogsState, delta: i64) {
    let from = v.first_shown() as i64;
    let to = (from + delta).clamp(0, v.bottom() as i64) as usize;
    if delta > 0 && to >= v.bottom() {
        v.follow = true;
        v.new_below = 0;
        return;
    }
    if v.follow && to as i64 != from {
        v.follow = false;
    }
    v.scroll = to;
}

/// Restarts view `id`'s streams (window or previous changed).
fn restart(state: &mut UiState, id: crate::app::state::ViewId) {
    if let Screen::Logs(v) = state.top_mut() {
        v.restart();
    }
    state.resubscribe(id);
}

fn jump(state: &mut UiState, forward: bool) {
    jump_from(state, forward, false);
}

/// Moves to the next (previous) line matching the search, pausing the view.
fn jump_from(state: &mut UiState, forward: bool, inclusive: bool) {
    let Screen::Logs(v) = state.top_mut() else { return };
    let Some(m) = v.search_match.clone() else { return };
    // The search walks the filtered lines: all of them, a new filter's included.
    v.settle();
    let Some(hub) = v.hub.clone() else { return };
    let s = hub.lock();
    let start = v.first_shown();
    let n = v.visible.seqs.len();
    let matches = |i: usize| {
        v.visible
            .seqs
            .get(i)
            .and_then(|seq| s.buffer.get(*seq))
            .is_some_and(|l| m.keeps(&v.line_text(l, &s.sources)))
    };
    let found = if forward {
        let from = if inclusive { start } else { start + 1 };
        (from..n).find(|i| matches(*i))
    } else {
        (0..start).rev().find(|i| matches(*i))
    };
    drop(s);
    match found {
        Some(i) => {
            v.follow = false;
            v.scroll = i;
        }
        None => state.note("no match".into()),
    }
}

/// Whether the view on top has work left for the next frame (a filter change still reading
/// older lines): the loop keeps drawing at its frame cap until it is done.
pub fn unfinished(state: &UiState) -> bool {
    matches!(state.top(), Screen::Logs(v) if v.refiltering())
}
