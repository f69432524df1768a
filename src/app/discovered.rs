//! Adopting a new [`Registry`] from discovery: views of a kind whose CRD was deleted close
//! with a message, views of a CRD whose printer columns changed re-subscribe, unavailable API
//! groups are reported, and a command waiting for discovery runs. Owns those rules; must not
//! perform I/O (closing and re-subscribing views are effects).

use std::sync::Arc;

use crate::kube::kind::Kind;
use crate::kube::registry::{Known, Registry};

use crate::app::effect::Effect;
use crate::app::state::{ListState, Screen, UiState, ViewId};

/// What a new registry means for one view.
enum Fate {
    /// Nothing changed.
    Same,
    /// Its kind has another version or other printer columns: it subscribes again.
    Changed,
    /// Its kind is no longer served: it closes.
    Gone(Kind),
    /// The version it showed is no longer served: it shows the preferred one (`from`, `to`
    /// as `plural.version.group`).
    Switched(String, String),
}

/// Replaces the registry and brings the view stack in line with it; returns the effects
/// (views closed or re-subscribed, the effects of a command that waited for discovery).
pub fn adopt(state: &mut UiState, registry: Registry) -> Vec<Effect> {
    let discovered = registry.known == Known::Discovered;
    let mut gone: Vec<String> = Vec::new();
    let mut changed: Vec<ViewId> = Vec::new();
    let mut switched: Vec<String> = Vec::new();
    if discovered {
        crate::app::context::connect::check_carried(state, &registry);
        state.retain_views(|id, s| match refresh(&registry, s) {
            Fate::Gone(kind) => {
                gone.push(kind.full_name());
                false
            }
            Fate::Changed => {
                changed.push(id);
                true
            }
            Fate::Switched(from, to) => {
                changed.push(id);
                switched.push(format!("{from} is no longer served; showing {to}"));
                true
            }
            Fate::Same => true,
        });
    }
    for id in changed {
        state.resubscribe(id);
    }
    let mut notes = Vec::new();
    gone.dedup();
    if !gone.is_empty() {
        notes.push(format!(
            "{}: the resource type was deleted; its view closed",
            gone.join(", ")
        ));
    }
    switched.dedup();
    notes.extend(switched);
    if let Known::Failed(e) = &registry.known {
        notes.push(e.clone());
    }
    if !registry.broken.is_empty() {
        let names: Vec<&str> = registry.broken.iter().map(|b| b.group_version.as_str()).collect();
        notes.push(format!("API groups unavailable: {} (see :ar)", names.join(", ")));
    }
    state.conn.registry = Arc::new(registry);
    if state.depth() == 0 {
        let pods = crate::kube::key::ResourceKey::new(
            crate::kube::builtin::BuiltinKind::Pod,
            state.conn.namespace.as_deref(),
        );
        state.push(Screen::List(Box::new(ListState::new(pods, None))));
    }
    if discovered {
        if let Some((line, asked_again)) = state.screens.prompt.deferred.take() {
            // Its "waiting" note is answered now, one way or the other.
            state.screens.footer.message = None;
            state.screens.footer.info = false;
            crate::app::command::run(state, &line, asked_again);
        }
    }
    if !notes.is_empty() && state.screens.footer.message.is_none() {
        state.screens.footer.message = Some(notes.join(" · "));
    }
    state.take_effects()
}

/// Updates one view to `registry`: what is to become of it.
fn refresh(registry: &Registry, screen: &mut Screen) -> Fate {
    let key = match screen {
        Screen::List(l) => &mut l.key,
        Screen::Yaml(y) => &mut y.key,
        _ => return Fate::Same,
    };
    let Kind::Api(_) = &key.kind else {
        return Fate::Same;
    };
    // The version the view was opened at stays (`:gadgets.v1beta1.<group>` keeps its
    // columns when the preferred version differs); only when it is gone does the view move
    // to the preferred one, and says so.
    let same = registry.same_version(&key.kind);
    let switched = same.is_none();
    match same.or_else(|| registry.current(&key.kind)) {
        None => Fate::Gone(key.kind.clone()),
        Some(k) if *k != key.kind => {
            let (from, to) = (versioned(&key.kind), versioned(k));
            key.kind = k.clone();
            match screen {
                Screen::List(l) => {
                    // New printer columns or version: a fresh informer and cache; what the
                    // user set up stays.
                    let view = ListState::new(l.key.clone(), l.origin.clone());
                    **l = ListState {
                        filter: std::mem::take(&mut l.filter),
                        sort: l.sort,
                        reverse: l.reverse,
                        wide: l.wide,
                        target: l.selected_key.take(),
                        // A union list stays one, fed afresh by every member.
                        union: l.union.as_ref().map(|u| {
                            Box::new(crate::app::fleet::model::UnionFeed::new(
                                u.members.iter().map(|m| m.origin),
                            ))
                        }),
                        ..view
                    };
                }
                Screen::Yaml(y) => {
                    // The object's URL may have changed (another version): watch again.
                    y.watch = None;
                    y.events = None;
                }
                _ => {}
            }
            if switched {
                Fate::Switched(from, to)
            } else {
                Fate::Changed
            }
        }
        Some(_) => Fate::Same,
    }
}

/// `plural.version.group` of a kind (`gadgets.v1beta1.demo.ktui.dev`).
fn versioned(kind: &Kind) -> String {
    match kind.group() {
        "" => format!("{}.{}", kind.plural(), kind.version()),
        g => format!("{}.{}.{g}", kind.plural(), kind.version()),
    }
}
