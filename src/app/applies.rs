//! Whether an action does something in the current view: the one rule that `update`'s
//! dispatch, the footer hints and the `?` help all consult, so they cannot drift apart.
//! Owns that rule; must not change state.

use crate::kube::builtin::BuiltinKind;

use crate::app::state::{ListState, Screen, UiState};
use crate::keys::{Action, KeyMode};

impl Screen {
    /// The key scope of this view: its own section of the keymap, looked up before
    /// `[normal]` while it is on top.
    pub fn key_mode(&self) -> KeyMode {
        match self {
            Screen::Yaml(_) => KeyMode::Detail,
            Screen::Logs(_) => KeyMode::Logs,
            Screen::Containers(_) | Screen::Forwards { .. } | Screen::Revisions(_) | Screen::Can(_) => {
                KeyMode::Normal
            }
            Screen::Pulse(_) => KeyMode::Normal,
            Screen::Xray(_) => KeyMode::Normal,
            Screen::List(_)
            | Screen::Informers { .. }
            | Screen::Contexts { .. }
            | Screen::ApiResources { .. } => KeyMode::Normal,
        }
    }
}

impl UiState {
    /// The bindings in force now: the prompt's while one is open, else the top view's scope.
    pub fn key_mode(&self) -> KeyMode {
        if self.screens.prompt.open.is_some() {
            KeyMode::Prompt
        } else if self.screens.overlays.help || self.screens.overlays.detail.is_some() {
            // The help and the row/event overlay scroll, wrap and filter like a detail view.
            KeyMode::Detail
        } else {
            self.top().key_mode()
        }
    }

    /// Whether `action` is offered in the footer and `?` help: it applies and the RBAC gate
    /// does not know it to be forbidden (see `writes::access`).
    pub fn offers(&self, action: Action) -> bool {
        self.applies(action)
            && crate::app::writes::access::forbidden(self, action, std::time::Instant::now()).is_none()
    }

    /// Whether `action` does something in the current view (with no prompt or overlay
    /// open): `update` ignores it otherwise, and help and the footer do not offer it.
    pub fn applies(&self, action: Action) -> bool {
        use Action::*;
        if action.writes() && self.settings.readonly {
            return false;
        }
        if let Some(applies) = crate::app::fleet::keys::applies(self, action) {
            return applies;
        }
        if let Some(applies) = crate::app::plugins::applies(self, action) {
            return applies;
        }
        if let Some(applies) = crate::app::xray::keys::applies(self, action) {
            return applies;
        }
        if let Some(applies) = crate::app::history::rollback::applies(self, action) {
            return applies;
        }
        if let Some(applies) = crate::app::writes::actions::applies(self, action) {
            return applies;
        }
        if let Some(applies) = crate::app::forwards::applies(self, action) {
            return applies;
        }
        if let Some(applies) = crate::app::pulse::applies(self, action) {
            return applies;
        }
        if let Some(applies) = crate::app::session::applies(self, action) {
            return applies;
        }
        if let Some(applies) = crate::app::logs::applies::applies(self, action) {
            return applies;
        }
        if let Some(applies) = crate::app::usage::keys::applies(self, action) {
            return applies;
        }
        let has_row = |l: &ListState| l.cache.selected_row(l.selected).is_some();
        let yaml = match self.top() {
            Screen::Yaml(y) => Some(y),
            _ => None,
        };
        match (action, self.top_list()) {
            (ToggleWarnings, Some(l)) => l.is_timeline(),
            (Yaml | Describe, Some(l)) => has_row(l),
            (Describe, None) => false,
            (Favourite(n), Some(l)) => {
                l.key.kind.namespaced() && (n == 0 || usize::from(n) <= self.settings.favourites.len())
            }
            (Favourite(_), None) => false,
            (Reveal, None) => yaml.is_some_and(|y| !y.describe && y.key.kind == BuiltinKind::Secret),
            (ToggleManaged, None) => yaml.is_some_and(|y| !y.describe || y.history.is_some()),
            (History | Blame, Some(l)) => !l.is_timeline() && has_row(l),
            (History, None) => yaml.is_some_and(|y| y.history.is_none()),
            (Blame, None) => yaml.is_some_and(|y| !y.blame),
            (MarkRevision, None) => {
                yaml.is_some_and(|y| y.history.as_ref().is_some_and(|h| h.diff.is_none()))
            }
            (MarkRevision, Some(_)) => false,
            (FilterMode, None) => matches!(self.top(), Screen::Yaml(_) | Screen::ApiResources { .. }),
            (Save | NextMatch, None) => yaml.is_some(),
            (Reveal | ToggleManaged | Save | NextMatch, Some(_)) => false,
            (Yaml, None) => false,
            (ObjectEvents | JumpOwner, Some(l)) => !l.is_timeline() && has_row(l),
            (Enter, None) => {
                matches!(self.top(), Screen::Contexts { .. } | Screen::ApiResources { .. })
                    // Rolls back (asks first): a write, so not in read-only mode.
                    || matches!(self.top(), Screen::Revisions(_)) && !self.settings.readonly
                    // A who-can row: what that subject may do.
                    || matches!(self.top(), Screen::Can(c) if c.subjects.get(c.selected).is_some_and(Option::is_some))
                    || yaml.is_some_and(|y| y.history.as_ref().is_some_and(|h| h.diff.is_none()))
            }
            // Only where it leads somewhere: a timeline row's detail, a row with a drill-down.
            (Enter, Some(l)) => {
                l.is_timeline()
                    || l.shows_service_accounts() && has_row(l)
                    || l.cache
                        .selected_row(l.selected)
                        .is_some_and(|r| r.drill.is_some())
            }
            (SortName | SortAge | SortStatus | ToggleWide, None) => false,
            (ToggleWarnings | ObjectEvents | JumpOwner, None) => false,
            (ScrollLeft | ScrollRight, l) => l.is_some() || yaml.is_some(),
            (Wrap, _) => {
                yaml.is_some() || self.screens.overlays.help || self.screens.overlays.detail.is_some()
            }
            (Cells, l) => l.is_some_and(has_row),
            _ => true,
        }
    }
}
