//! What connecting and switching contexts do to the UI state: a new client adopts the
//! context's namespace and every view asks for its feed; a context switch starts over with a
//! pods view, restoring the namespace last used in that context. Pure transitions returning
//! effects; must not do I/O (the loop owns the client, the pool and the subscriptions).

use std::sync::Arc;

use crate::kube::builtin::BuiltinKind;
use crate::kube::client::ClusterInfo;
use crate::kube::key::ResourceKey;
use crate::kube::registry::Registry;

use crate::app::effect::Effect;
use crate::app::state::{Conn, ListState, Screen, UiState};

/// The client is ready: the state shows the connection and every view asks for its feed.
pub fn connected(state: &mut UiState, info: ClusterInfo) -> Vec<Effect> {
    adopt_namespace(state, &info);
    state.conn.status = Conn::Connected(info);
    state.subscribe_all();
    state.take_effects()
}

/// Without `-n`/`-A`, views opened before the client was ready get the context's namespace.
fn adopt_namespace(state: &mut UiState, info: &ClusterInfo) {
    if state.conn.namespace.is_some() || state.conn.explicit_all {
        return;
    }
    state.conn.namespace = Some(info.namespace.clone());
    for (_, s) in &mut state.screens.stack.views {
        if let Screen::List(l) = s {
            if l.key.kind.namespaced() && l.key.namespace.is_none() && l.source.is_none() && !l.ns_chosen {
                l.key.namespace = Some(Arc::from(info.namespace.as_str()));
            }
        }
    }
}

impl UiState {
    /// After a context switch: a fresh view of the kind shown before (the base list of the
    /// stack, or of the place `:ctx` replaced) in the new context's namespace, nothing stale;
    /// discovery then checks the new context serves it (`carried_kind`). Coming back to a
    /// context restores the namespace last used there (k9s does the same).
    pub fn reset_for_context(&mut self, context: &str) -> Vec<Effect> {
        // A switch to one context ends any union (the loop stopped its members).
        self.conn.fleet = None;
        self.screens.stack.pins.clear();
        let kind = self
            .views()
            .find_map(|(_, s)| match s {
                Screen::List(l) if !l.is_timeline() && l.object.is_none() => Some(l.key.kind.clone()),
                _ => None,
            })
            .or_else(|| crate::app::nav::last_list_kind(self))
            .unwrap_or_else(|| BuiltinKind::Pod.into());
        let conn = &mut self.conn;
        if let Some(old) = conn.context.take() {
            let scope = (conn.namespace.take(), conn.explicit_all);
            conn.last_namespace.insert(old, scope);
        }
        let (namespace, explicit_all) = conn.last_namespace.get(context).cloned().unwrap_or_default();
        conn.status = Conn::Connecting;
        conn.context = Some(context.to_owned());
        conn.namespace = namespace;
        conn.explicit_all = explicit_all;
        conn.registry = Arc::new(Registry::builtins());
        self.screens.overlays.detail = None;
        self.screens.prompt.deferred = None;
        // A dialog confirms a write for the context it names: it goes with it.
        self.screens.overlays.dialog = None;
        // Views of the old context cannot be gone back to.
        self.screens.stack.nav.clear();
        let ns = if kind.namespaced() {
            self.conn.namespace.clone()
        } else {
            None
        };
        self.conn.carried = (kind != BuiltinKind::Pod).then(|| kind.clone());
        let first = ListState::new(ResourceKey::new(kind, ns.as_deref()), None);
        self.reset_stack(Screen::List(Box::new(first)));
        self.take_effects()
    }
}

/// Asks the loop to switch to `name`, if the kubeconfig has it.
pub fn switch_context(state: &mut UiState, name: &str) {
    if !state.conn.contexts.iter().any(|c| c == name) {
        state.screens.footer.message = Some(format!("no context {name:?} in the kubeconfig"));
        return;
    }
    state.emit(Effect::SwitchContext(name.to_owned()));
}

/// Once the new context's discovery answered: a kind carried over a context switch that the
/// context does not serve gives way to its pods, and the footer says so.
pub(crate) fn check_carried(state: &mut UiState, registry: &Registry) {
    let Some(kind) = state.conn.carried.take() else {
        return;
    };
    if registry.current(&kind).is_some() {
        return;
    }
    let context = state.conn.context.clone().unwrap_or_default();
    let pods = ListState::new(
        ResourceKey::new(BuiltinKind::Pod, state.conn.namespace.as_deref()),
        None,
    );
    state.reset_stack(Screen::List(Box::new(pods)));
    state.screens.footer.message = Some(format!(
        "{} not served in context {context}: showing pods",
        kind.full_name()
    ));
}
