//! `update`: the pure state transition for one [`Action`] or typed character, returning the
//! [`Effect`]s it asks the loop for. Owns what keys mean; must not perform I/O.

use crate::kube::builtin::BuiltinKind;
use crate::kube::key::ResourceKey;
use crate::kube::row::{Drill, ObjRef};

pub use crate::app::command::run_command;

use crate::app::effect::Effect;
use crate::app::state::{ListState, Prompt, Screen, SortBy, UiState};
use crate::keys::Action;

/// Applies one action; returns the effects it asks for, in order.
pub fn update(state: &mut UiState, action: Action) -> Vec<Effect> {
    // Inside a union, what this action opens belongs to the selected row's cluster.
    state.screens.stack.pin_next = crate::app::fleet::open::pin_for_next(state);
    apply(state, action);
    state.screens.stack.pin_next = None;
    state.take_effects()
}

/// A printable character typed while a prompt is open; returns the effects it asks for.
pub fn type_char(state: &mut UiState, c: char) -> Vec<Effect> {
    crate::app::prompt::keys::typed(state, c);
    state.take_effects()
}

fn apply(state: &mut UiState, action: Action) {
    state.screens.footer.message = None;
    state.screens.footer.info = false;
    if !matches!(
        action,
        Action::Up
            | Action::Down
            | Action::PageUp
            | Action::PageDown
            | Action::Top
            | Action::Bottom
            | Action::Help
            | Action::Redraw
            | Action::CommandMode
    ) {
        // The user went elsewhere: a command still waiting for discovery must not take
        // the screen later.
        state.screens.prompt.deferred = None;
    }
    if let Some(prompt) = state.screens.prompt.open.clone() {
        // Also over the help, whose `/` filter is typed here.
        return crate::app::prompt::keys::update_prompt(state, prompt, action);
    }
    if state.screens.overlays.help && crate::app::help::key(state, action) {
        return;
    }
    if state.screens.overlays.detail.is_some() && crate::app::list::cells::overlay_key(state, action) {
        return;
    }
    if !state.applies(action) {
        crate::app::nav::refused(state, action);
        crate::app::fleet::keys::refused(state, action);
        return;
    }
    if crate::app::xray::keys::handle(state, action) || crate::app::fleet::keys::handle(state, action) {
        return;
    }
    crate::app::list::tail::pin_before(state, action);
    if matches!(action, Action::CommandMode | Action::FilterMode) {
        // A prompt opens with the cursor at the end of its text.
        state.screens.prompt.cursor = None;
    }
    if crate::app::history::rollback::handle(state, action)
        || crate::app::writes::actions::handle(state, action)
    {
        return;
    }
    if crate::app::history::keys::handle(state, action) || crate::app::detail::keys::handle(state, action) {
        return;
    }
    if crate::app::plugins::handle(state, action) {
        return;
    }
    if crate::app::logs::update::handle(state, action)
        || crate::app::containers::handle(state, action)
        || crate::app::forwards::handle(state, action)
        || crate::app::pulse::handle(state, action)
    {
        return;
    }
    let page = state.screens.layout.page_rows.max(1);
    match action {
        Action::Quit => state.emit(Effect::Quit(0)),
        Action::CommandMode => state.screens.prompt.open = Some(Prompt::Command(String::new())),
        Action::FilterMode => match state.top() {
            Screen::List(l) => state.screens.prompt.open = Some(Prompt::Filter(l.filter.clone())),
            Screen::ApiResources { filter, .. } => {
                state.screens.prompt.open = Some(Prompt::Filter(filter.clone()))
            }
            _ => {}
        },
        Action::Back => back(state),
        Action::Enter => enter(state),
        Action::Up => move_by(state, -1),
        Action::Down => move_by(state, 1),
        Action::PageUp => move_by(state, -(page as i64)),
        Action::PageDown => move_by(state, page as i64),
        Action::Top => move_by(state, i64::MIN / 2),
        Action::Bottom => move_by(state, i64::MAX / 2),
        Action::Help => crate::app::help::open(state),
        Action::SortName => sort(state, SortBy::Name),
        Action::SortAge => sort(state, SortBy::Age),
        Action::SortStatus => sort(state, SortBy::Status),
        Action::SortCpu
        | Action::SortMem
        | Action::SortCpuPct
        | Action::SortMemPct
        | Action::SortCpuLimitPct
        | Action::SortMemLimitPct => {
            if let Some(col) = crate::app::usage::keys::sort_of(action) {
                sort(state, SortBy::Usage(col));
            }
        }
        Action::ToggleWide => {
            if let Some(l) = state.top_list_mut() {
                l.wide = !l.wide;
            }
        }
        Action::Redraw => state.emit(Effect::Clear),
        Action::ToggleWarnings => {
            if let Some(l) = state.top_list_mut().filter(|l| l.is_timeline()) {
                l.warnings_only = !l.warnings_only;
                reset_position(l);
            }
        }
        Action::ObjectEvents => object_events(state),
        Action::Xray => {}
        Action::JumpOwner => {
            if !crate::app::list::owner::jump(state) {
                enter(state);
            }
        }
        Action::Yaml => crate::app::detail::keys::open(state, false),
        Action::Describe => crate::app::detail::keys::open(state, true),
        Action::Favourite(n) => favourite(state, n),
        Action::Logs => crate::app::logs::update::open_from_list(state),
        Action::History => crate::app::history::keys::open(state, false),
        Action::Blame => crate::app::history::keys::open(state, true),
        Action::MarkRevision => {}
        Action::Shell | Action::Attach | Action::PortForward
            if crate::app::writes::access::refuse(state, action) => {}
        Action::Shell | Action::Attach => crate::app::session::open(state, action),
        Action::PortForward => crate::app::forwards::offer(state),
        Action::StopForward | Action::Wrap | Action::Plugin(_) => {}
        Action::NavBack | Action::NavForward => {
            crate::app::nav::handle(state, action);
        }
        Action::LogPrevious
        | Action::LogTimestamps
        | Action::LogWrap
        | Action::LogWindow(_)
        | Action::LogSearch
        | Action::PrevMatch => {}
        Action::ScrollLeft | Action::ScrollRight | Action::Cells => {
            crate::app::list::cells::handle(state, action)
        }
        Action::CursorLeft
        | Action::CursorRight
        | Action::CursorHome
        | Action::CursorEnd
        | Action::WordLeft
        | Action::WordRight
        | Action::KillWord
        | Action::KillToStart
        | Action::HistoryOlder
        | Action::HistoryNewer => {}
        Action::Submit
        | Action::Cancel
        | Action::Backspace
        | Action::Complete
        | Action::Reveal
        | Action::ToggleManaged
        | Action::Save
        | Action::NextMatch => {}
        // Handled by `writes::actions::handle` above.
        Action::Mark
        | Action::MarkRange
        | Action::ClearMarks
        | Action::Copy
        | Action::Delete
        | Action::ForceDelete
        | Action::Scale
        | Action::Restart
        | Action::Cordon
        | Action::Uncordon
        | Action::Drain
        | Action::Trigger
        | Action::Suspend
        | Action::Rollback
        | Action::Edit => {}
    }
}

fn back(state: &mut UiState) {
    if let Screen::ApiResources { selected, filter } = state.top_mut() {
        if !filter.is_empty() {
            filter.clear();
            *selected = 0;
            return;
        }
    }
    if let Some(l) = state.top_list_mut() {
        if !l.filter.is_empty() {
            l.filter.clear();
            l.filter_error = None;
            l.selected = 0;
            l.offset = 0;
            return;
        }
        if !l.marks.is_empty() {
            l.marks.clear();
            state.note("marks cleared".into());
            return;
        }
    }
    if state.depth() > 1 {
        state.pop();
    } else {
        // The bottom view: a `:` command's stays (k9s's habit of an extra esc must not
        // leave it); a namespace's pods go back to the namespaces.
        crate::app::nav::esc_on_base(state);
    }
}

/// `enter`: switch to the selected context, open the selected resource of `:ar`, show a
/// timeline row's whole event, or drill down from the selected row (see [`Drill`]).
pub(super) fn enter(state: &mut UiState) {
    if let Screen::Revisions(_) = state.top() {
        return crate::app::history::revisions::enter(state);
    }
    if let Screen::Can(_) = state.top() {
        return crate::app::can::enter(state);
    }
    if let Screen::Contexts { selected } = state.top() {
        if let Some(name) = state.conn.contexts.get(*selected).cloned() {
            crate::app::context::connect::switch_context(state, &name);
        }
        return;
    }
    if let Screen::ApiResources { selected, filter } = state.top() {
        if let Some((kind, r)) = state
            .conn
            .registry
            .listing_matching(filter)
            .into_iter()
            .nth(*selected)
        {
            if r.listable() {
                // Pushed, so that `esc` comes back to the listing.
                let key = ResourceKey::new(kind, state.conn.namespace.as_deref());
                state.push(Screen::List(Box::new(ListState::new(key, None))));
            } else {
                state.screens.footer.message =
                    Some(format!("{} cannot be listed and watched", kind.full_name()));
            }
        }
        return;
    }
    if crate::app::containers::open(state) || crate::app::can::open_for_row(state) {
        return;
    }
    let Some(list) = state.top_list() else { return };
    let Some(row) = list.cache.selected_row(list.selected) else {
        return;
    };
    if row.event.is_some() {
        state.screens.overlays.detail = Some(row);
        return;
    }
    let kind = list.kind().clone();
    let ns = row.namespace.as_deref().map(str::to_owned);
    let title = format!("{}/{}", kind.singular(), row.name);
    let key = match row.drill.as_deref() {
        Some(Drill::Namespace(name)) => {
            state.conn.namespace = Some(name.to_string());
            state.conn.explicit_all = false;
            let key = ResourceKey::new(BuiltinKind::Pod, Some(name));
            crate::app::nav::open_drilled(state, Screen::List(Box::new(ListState::new(key, None))));
            return;
        }
        Some(Drill::Selector(sel)) => ResourceKey::new(BuiltinKind::Pod, ns.as_deref()).with_labels(sel),
        Some(Drill::Node(node)) => {
            ResourceKey::new(BuiltinKind::Pod, None).with_fields(&format!("spec.nodeName={node}"))
        }
        None => return,
    };
    state.push(Screen::List(Box::new(ListState::new(key, Some(title)))));
}

/// `shift-e`: the live timeline of the selected object — events whose involvedObject has
/// its kind, name, namespace and (when both sides have one) uid.
fn object_events(state: &mut UiState) {
    let Some(list) = state.top_list().filter(|l| !l.is_timeline()) else {
        return;
    };
    let Some(row) = list.cache.selected_row(list.selected) else {
        return;
    };
    let kind = list.kind().clone();
    let object = ObjRef {
        kind: kind.kind_name().into(),
        name: (*row.name).into(),
        namespace: row.namespace.clone(),
        uid: row.uid.clone(),
    };
    let key = ResourceKey::new(BuiltinKind::Event, row.namespace.as_deref());
    let mut view = ListState::new(key, Some(format!("{}/{}", kind.singular(), row.name)));
    view.object = Some(object);
    state.push(Screen::List(Box::new(view)));
}

/// `0`–`9`: the same kind in favourite namespace `n` (`0` = all namespaces).
fn favourite(state: &mut UiState, n: u8) {
    let ns = match n {
        0 => None,
        n => match state.settings.favourites.get(usize::from(n) - 1) {
            Some(ns) => Some(ns.clone()),
            None => return,
        },
    };
    let Some(l) = state.top_list() else { return };
    if !l.key.kind.namespaced() {
        return;
    }
    let kind = l.key.kind.clone();
    state.conn.explicit_all = ns.is_none();
    state.conn.namespace = ns.clone();
    let view = ListState::new(ResourceKey::new(kind, ns.as_deref()), None);
    crate::app::nav::open(state, Screen::List(Box::new(view)));
}

fn reset_position(l: &mut ListState) {
    l.selected = 0;
    l.offset = 0;
    l.selected_key = None;
    l.follow = true;
    l.anchor = None;
}

fn sort(state: &mut UiState, by: SortBy) {
    if let Some(l) = state.top_list_mut() {
        if l.sort == by {
            l.reverse = !l.reverse;
        } else {
            l.sort = by;
            l.reverse = false;
        }
        l.selected_key = None;
        l.selected = 0;
        l.offset = 0;
    }
}

fn move_by(state: &mut UiState, delta: i64) {
    let n_contexts = state.conn.contexts.len();
    let n_informers = state.screens.layout.informers_len;
    let n_resources = match state.top() {
        Screen::ApiResources { filter, .. } => state.conn.registry.listing_matching(filter).len(),
        _ => 0,
    };
    match state.top_mut() {
        Screen::List(l) => {
            let len = l.cache.len();
            let was = l.selected;
            l.selected = clamp_move(l.selected, delta, len);
            l.remember_selected();
            if l.is_timeline() {
                if l.selected == 0 {
                    // Back on the newest row: follow new events again.
                    l.follow = true;
                    l.anchor = None;
                } else if was == 0 && l.follow {
                    l.follow = false;
                    l.anchor = l.cache.selected_row(0).map(|r| crate::kube::store::obj_key(&r));
                }
            }
        }
        Screen::Informers { selected } => *selected = clamp_move(*selected, delta, n_informers),
        Screen::Contexts { selected } => *selected = clamp_move(*selected, delta, n_contexts),
        Screen::ApiResources { selected, .. } => *selected = clamp_move(*selected, delta, n_resources),
        // Scrolling the YAML view is handled by `detail::keys::handle`.
        Screen::Yaml(_) => {}
        Screen::Revisions(r) => r.selected = clamp_move(r.selected, delta, r.revisions.len()),
        Screen::Can(c) => c.selected = clamp_move(c.selected, delta, c.rows.len()),
        Screen::Logs(_)
        | Screen::Containers(_)
        | Screen::Forwards { .. }
        | Screen::Pulse(_)
        | Screen::Xray(_) => {}
    }
}

fn clamp_move(cur: usize, delta: i64, len: usize) -> usize {
    if len == 0 {
        return 0;
    }
    let last = i64::try_from(len - 1).unwrap_or(i64::MAX);
    let next = i64::try_from(cur).unwrap_or(i64::MAX).saturating_add(delta);
    usize::try_from(next.clamp(0, last)).unwrap_or(0)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod prompt_tests;

#[cfg(test)]
mod discovery_tests;
