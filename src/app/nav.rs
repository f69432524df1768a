//! View history, as k9s users expect it: a `:` command (or a favourite namespace key)
//! replaces the view stack, and the stack it replaced is remembered, so `[` goes back to it,
//! `]` forward again; the view a `:` command opened is the base, where `esc` closes nothing
//! (only `enter` on a namespace, a drill-down, lets `esc` go back). Also the namespace rules of views: a
//! `:<kind> <ns>` applies to that view only, `:ns <name>` (or `enter` on a namespace, or a
//! favourite key) changes the session's namespace; the header shows the view's.
//! Owns the remembered places and how a stack is saved and rebuilt; must not perform I/O
//! (rebuilt views are subscribed again through the usual effects).

pub mod stack;

pub mod model;

use crate::keys::Action;
use crate::kube::key::ResourceKey;

use crate::app::nav::model::{Place, Saved, SavedList, MAX_PLACES};
use crate::app::state::{ListState, Screen, UiState};

fn save(screen: &Screen) -> Option<Saved> {
    Some(match screen {
        Screen::List(l) => Saved::List(Box::new(SavedList {
            key: l.key.clone(),
            origin: l.origin.clone(),
            filter: l.filter.clone(),
            sort: l.sort,
            reverse: l.reverse,
            wide: l.wide,
            warnings_only: l.warnings_only,
            object: l.object.clone(),
            selected: l.selected_key.clone(),
            hscroll: l.hscroll,
            ns_chosen: l.ns_chosen,
        })),
        Screen::Informers { .. } => Saved::Informers,
        Screen::Contexts { .. } => Saved::Contexts,
        Screen::ApiResources { filter, .. } => Saved::ApiResources(filter.clone()),
        Screen::Forwards { .. } => Saved::Forwards,
        Screen::Pulse(p) => Saved::Pulse(p.namespace.clone()),
        Screen::Yaml(_) | Screen::Logs(_) | Screen::Containers(_) | Screen::Revisions(_) | Screen::Can(_) => {
            return None
        }
        Screen::Xray(_) => return None,
    })
}

fn rebuild(saved: &Saved) -> Screen {
    match saved {
        Saved::List(s) => {
            let mut l = ListState::new(s.key.clone(), s.origin.clone());
            l.filter = s.filter.clone();
            l.sort = s.sort;
            l.reverse = s.reverse;
            l.wide = s.wide;
            l.warnings_only = s.warnings_only;
            l.object = s.object.clone();
            // Selected again once it is listed (as `shift-j` selects an owner).
            l.target = s.selected.clone();
            l.hscroll = s.hscroll;
            l.ns_chosen = s.ns_chosen;
            Screen::List(Box::new(l))
        }
        Saved::Informers => Screen::Informers { selected: 0 },
        Saved::Contexts => Screen::Contexts { selected: 0 },
        Saved::ApiResources(filter) => Screen::ApiResources {
            selected: 0,
            filter: filter.clone(),
        },
        Saved::Forwards => Screen::Forwards { selected: 0 },
        Saved::Pulse(ns) => Screen::Pulse(Box::new(crate::app::pulse::model::PulseState::new(ns.clone()))),
    }
}

/// The current stack as a place (`None` when nothing of it can be rebuilt).
fn here(state: &UiState) -> Option<Place> {
    let saved: Vec<Saved> = state.views().map_while(|(_, s)| save(s)).collect();
    (!saved.is_empty()).then_some(Place(saved))
}

fn keep(list: &mut Vec<Place>, place: Place) {
    if list.last() != Some(&place) {
        list.push(place);
    }
    if list.len() > MAX_PLACES {
        list.remove(0);
    }
}

/// Replaces the stack with `screen` as a new place: the current stack is remembered
/// behind it and the places ahead are forgotten (as a browser does).
pub fn open(state: &mut UiState, screen: Screen) {
    if let Some(place) = here(state) {
        keep(&mut state.screens.stack.nav.back, place);
    }
    state.screens.stack.nav.forward.clear();
    state.screens.stack.nav.drilled = false;
    state.reset_stack(screen);
}

/// The kind of the base list of the last place behind (what `:ctx` replaced).
pub(crate) fn last_list_kind(state: &UiState) -> Option<crate::kube::kind::Kind> {
    state
        .screens
        .stack
        .nav
        .back
        .last()?
        .0
        .iter()
        .find_map(|s| match s {
            Saved::List(l) if l.object.is_none() && !l.key.kind.is_timeline() => Some(l.key.kind.clone()),
            _ => None,
        })
}

/// [`open`] as a drill-down (`enter` on a namespace): `esc` on it goes back.
pub fn open_drilled(state: &mut UiState, screen: Screen) {
    open(state, screen);
    state.screens.stack.nav.drilled = true;
}

/// `esc` on the bottom view with nothing to clear: back to the place before only after a
/// drill-down; on a base view (a `:` command's) it stays, and says where `[` goes.
pub fn esc_on_base(state: &mut UiState) {
    if std::mem::take(&mut state.screens.stack.nav.drilled) {
        back(state);
    } else if !state.screens.stack.nav.back.is_empty() {
        state.note("nothing to close here: [ goes back to the view before".into());
    }
}

fn restore(state: &mut UiState, place: &Place) {
    let mut screens = place.0.iter().map(rebuild);
    let Some(first) = screens.next() else { return };
    state.reset_stack(first);
    for s in screens {
        state.push(s);
    }
}

/// `[` (and `esc` on the last view): the place before this one. Returns false when there
/// is none.
pub fn back(state: &mut UiState) -> bool {
    let Some(place) = state.screens.stack.nav.back.pop() else {
        return false;
    };
    state.screens.stack.nav.drilled = false;
    if let Some(now) = here(state) {
        keep(&mut state.screens.stack.nav.forward, now);
    }
    restore(state, &place);
    true
}

/// `]`: the place `[` left. Returns false when there is none.
pub fn forward(state: &mut UiState) -> bool {
    let Some(place) = state.screens.stack.nav.forward.pop() else {
        return false;
    };
    state.screens.stack.nav.drilled = false;
    if let Some(now) = here(state) {
        keep(&mut state.screens.stack.nav.back, now);
    }
    restore(state, &place);
    true
}

/// `[`/`]` as actions; a note when there is nowhere to go. Returns whether `action` was one.
pub fn handle(state: &mut UiState, action: Action) -> bool {
    match action {
        Action::NavBack => {
            if !back(state) {
                state.note("no earlier view ([ goes back, ] forward)".into());
            }
        }
        Action::NavForward => {
            if !forward(state) {
                state.note("no later view ([ goes back, ] forward)".into());
            }
        }
        _ => return false,
    }
    true
}

/// `:ns <name>` / `:ns all`: the session's namespace, used by later views without one of
/// their own; the list at the bottom of the stack is opened again there (pods when it is
/// not of a namespaced kind).
pub fn set_namespace(state: &mut UiState, ns: &str) {
    let all = matches!(ns, "-A" | "all" | "*");
    state.conn.namespace = (!all).then(|| ns.to_owned());
    state.conn.explicit_all = all;
    let kind = state
        .views()
        .find_map(|(_, s)| match s {
            Screen::List(l) if l.key.kind.namespaced() && l.origin.is_none() => Some(l.key.kind.clone()),
            _ => None,
        })
        .unwrap_or_else(|| crate::kube::builtin::BuiltinKind::Pod.into());
    let key = ResourceKey::new(kind, state.conn.namespace.as_deref());
    open(state, Screen::List(Box::new(ListState::new(key, None))));
}

/// A key that does not apply but deserves a word: an unconfigured favourite namespace.
pub fn refused(state: &mut UiState, action: Action) {
    if let Action::Favourite(n @ 1..=9) = action {
        let namespaced = state.top_list().is_some_and(|l| l.key.kind.namespaced());
        if namespaced && usize::from(n) > state.settings.favourites.len() {
            state.screens.footer.message = Some(format!(
                "no favourite namespace {n}: set [namespaces] favourites in config.toml ({} set)",
                state.settings.favourites.len()
            ));
        }
    }
}

#[cfg(test)]
mod tests;
