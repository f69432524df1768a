//! `:pulse` (`:pulses`, `:pu`; issue 35): one screen of live counts and health per kind in
//! the view's namespace (or all) — pods, deployments, statefulsets, daemonsets, jobs,
//! cronjobs, nodes, events — with the event rate and the top restarting pods; `enter` on a
//! tile opens that kind's list filtered to what the tile counts as not healthy. Owns these
//! transitions and what feeds the view (one informer per kind, shared with lists through
//! the pool); must not subscribe itself, perform I/O or draw.

pub mod count;
pub mod model;

use crate::keys::Action;
use crate::kube::key::ResourceKey;

use crate::app::effect::{Effect, ViewId};
use crate::app::pulse::model::{PulseState, Tile};
use crate::app::state::{ListState, Screen, UiState};

/// `:pulse [namespace | all | -A]`: opens the overview of `arg`'s namespace (all
/// namespaces for `all`/`-A`), else of the session's.
pub fn command(state: &mut UiState, arg: Option<&str>) {
    let namespace = match arg {
        Some("all" | "-A" | "*") => None,
        Some(ns) => Some(ns.to_owned()),
        None => state.conn.namespace.clone(),
    };
    crate::app::nav::open(state, Screen::Pulse(Box::new(PulseState::new(namespace))));
}

/// The subscriptions `:pulse` still needs: one per tile without rows, the namespaced kinds
/// in the view's namespace, nodes cluster-wide.
pub fn feeds(id: ViewId, p: &PulseState) -> Vec<Effect> {
    Tile::ALL
        .into_iter()
        .filter(|t| !p.sources.contains_key(t))
        .map(|t| Effect::Subscribe(id, ResourceKey::new(t.kind(), p.namespace.as_deref())))
        .collect()
}

/// Whether `action` does something on `:pulse` (`None` when it is not on top, or for
/// actions every view shares): moving between tiles and `enter`.
pub fn applies(state: &UiState, action: Action) -> Option<bool> {
    let Screen::Pulse(_) = state.top() else {
        return None;
    };
    match action {
        Action::Up
        | Action::Down
        | Action::ScrollLeft
        | Action::ScrollRight
        | Action::Top
        | Action::Bottom
        | Action::Enter => Some(true),
        Action::PageUp | Action::PageDown => Some(false),
        _ => None,
    }
}

/// Keys of `:pulse`: `↑`/`↓`/`←`/`→` move between tiles (in drawing order), `g g`/`G` to the
/// first and last, `enter` opens the selected tile's list. False when it is not on top.
pub fn handle(state: &mut UiState, action: Action) -> bool {
    // The grid is the drawing's: the body is the page's width and its two border cells.
    let per_row = model::tiles_per_row(state.screens.layout.page_cols + 2);
    let Screen::Pulse(p) = state.top_mut() else {
        return false;
    };
    let last = Tile::ALL.len() - 1;
    match action {
        // Up and down by a row of tiles (where there is one), sideways along it.
        Action::Up if p.selected >= per_row => p.selected -= per_row,
        Action::Down if p.selected + per_row <= last => p.selected += per_row,
        Action::Up | Action::Down => {}
        Action::ScrollLeft => p.selected = p.selected.saturating_sub(1),
        Action::ScrollRight => p.selected = (p.selected + 1).min(last),
        Action::Top => p.selected = 0,
        Action::Bottom => p.selected = last,
        Action::Enter => {
            let list = tile_list(p, p.selected_tile());
            state.push(Screen::List(Box::new(list)));
        }
        _ => return false,
    }
    true
}

/// The list `enter` opens on `tile`: its kind in the view's namespace, filtered to the rows
/// the tile counted as neither healthy nor done (by whole name, at most
/// [`count::FILTER_MAX`]); events with Warnings only when there are any; the plain list when
/// nothing is abnormal.
pub fn tile_list(p: &PulseState, tile: Tile) -> ListState {
    let key = ResourceKey::new(tile.kind(), p.namespace.as_deref());
    let mut list = ListState::new(key, None);
    let Some(view) = p.tiles.get(&tile) else {
        return list;
    };
    if tile == Tile::Events {
        list.warnings_only = view.counts.error > 0;
        return list;
    }
    list.filter = view
        .counts
        .abnormal
        .iter()
        .map(|name| format!("^{name}$"))
        .collect::<Vec<_>>()
        .join(" | ");
    if view.counts.abnormal.len() < view.counts.abnormal_count() {
        list.origin = Some(format!(
            "pulse: first {} of {} not ready",
            view.counts.abnormal.len(),
            view.counts.abnormal_count()
        ));
    }
    list
}

#[cfg(test)]
mod tests;

#[cfg(test)]
pub(crate) mod fixtures;
