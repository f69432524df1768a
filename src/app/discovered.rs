//! Adopting a new [`Registry`] from discovery: views of a kind whose CRD was deleted close
//! with a message, views of a CRD whose printer columns changed re-subscribe, unavailable API
//! groups are reported, and a command waiting for discovery runs. Owns those rules; must not
//! perform I/O.

use std::sync::Arc;

use crate::kube::kind::Kind;
use crate::kube::registry::{Known, Registry};

use super::state::{ListView, Screen, UiState};

/// Replaces the registry and brings the view stack in line with it.
pub fn adopt(state: &mut UiState, registry: Registry) {
    let discovered = registry.known == Known::Discovered;
    let mut gone: Vec<String> = Vec::new();
    if discovered {
        state.stack.retain_mut(|s| match refresh(&registry, s) {
            Some(kind) => {
                gone.push(kind.full_name());
                false
            }
            None => true,
        });
    }
    let mut notes = Vec::new();
    gone.dedup();
    if !gone.is_empty() {
        notes.push(format!(
            "{}: the resource type was deleted; its view closed",
            gone.join(", ")
        ));
    }
    if let Known::Failed(e) = &registry.known {
        notes.push(e.clone());
    }
    if !registry.broken.is_empty() {
        let names: Vec<&str> = registry.broken.iter().map(|b| b.group_version.as_str()).collect();
        notes.push(format!("API groups unavailable: {} (see :ar)", names.join(", ")));
    }
    state.registry = Arc::new(registry);
    if state.stack.is_empty() {
        let pods = crate::kube::key::ResourceKey::new(
            crate::kube::builtin::BuiltinKind::Pod,
            state.namespace.as_deref(),
        );
        state
            .stack
            .push(Screen::List(Box::new(ListView::new(pods, None))));
    }
    if discovered {
        if let Some((line, asked_again)) = state.pending_command.take() {
            // Its "waiting" note is answered now, one way or the other.
            state.message = None;
            state.info = false;
            super::command::run(state, &line, asked_again);
        }
    }
    if !notes.is_empty() && state.message.is_none() {
        state.message = Some(notes.join(" · "));
    }
}

/// Updates one view to `registry`; returns the kind when the view must close because its
/// kind is no longer served.
fn refresh(registry: &Registry, screen: &mut Screen) -> Option<Kind> {
    let key = match screen {
        Screen::List(l) => &mut l.key,
        Screen::Yaml(y) => &mut y.key,
        _ => return None,
    };
    let Kind::Api(_) = &key.kind else { return None };
    match registry.current(&key.kind) {
        None => Some(key.kind.clone()),
        Some(k) if *k != key.kind => {
            key.kind = k.clone();
            match screen {
                Screen::List(l) => {
                    // New printer columns or version: a fresh informer and cache; what the
                    // user set up stays.
                    let view = ListView::new(l.key.clone(), l.origin.clone());
                    **l = ListView {
                        filter: std::mem::take(&mut l.filter),
                        sort: l.sort,
                        reverse: l.reverse,
                        wide: l.wide,
                        target: l.selected_key.take(),
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
            None
        }
        Some(_) => None,
    }
}
