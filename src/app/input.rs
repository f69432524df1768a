//! Terminal input for the loop: keys through the keymap (chords, prompt typing) and the mouse
//! (wheel, click to select). Owns that translation; must not perform I/O (it returns the
//! effects `update` asks for).

use crate::app::effect::Effect;
use crate::app::state::UiState;
use crate::app::update::{type_char, update};
use crate::keys::{KeyMode, KeyPress, Lookup};

/// What the mouse did, as far as the app cares (the runtime translates the terminal's
/// events; others are not passed on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mouse {
    /// The wheel turned down.
    ScrollDown,
    /// The wheel turned up.
    ScrollUp,
    /// A left click on this screen row (0 = the top line).
    Click { row: u16 },
}

/// Mouse (with `[ui] mouse`): the wheel scrolls three rows, a left click selects a row.
/// `None` when the event changes nothing; else the effects asked for.
pub fn on_mouse(state: &mut UiState, m: Mouse) -> Option<Vec<Effect>> {
    use crate::keys::Action;
    let mut effects = Vec::new();
    match m {
        Mouse::ScrollDown => (0..3).for_each(|_| effects.extend(update(state, Action::Down))),
        Mouse::ScrollUp => (0..3).for_each(|_| effects.extend(update(state, Action::Up))),
        Mouse::Click { row } => {
            let l = state.top_list_mut()?;
            // Header (2 lines), the sparkline of timelines, the border and the column header.
            let first = 4 + u16::from(l.is_timeline());
            let i = row.checked_sub(first)?;
            let target = l.offset + usize::from(i);
            if target >= l.cache.len() {
                return None;
            }
            if target != l.selected {
                // Moving through `update` keeps the timeline's tail-mode bookkeeping right.
                let delta = target as i64 - l.selected as i64;
                effects.extend(update(state, if delta > 0 { Action::Down } else { Action::Up }));
                if let Some(l) = state.top_list_mut() {
                    l.selected = target;
                    l.remember_selected();
                }
            }
        }
    }
    Some(effects)
}

/// One key press: an action from the keymap, part of a chord, or a typed character; returns
/// the effects asked for.
pub fn on_key(state: &mut UiState, key: KeyPress) -> Vec<Effect> {
    // A write's dialog and the drain overlay are modal: they take every key.
    if state.screens.overlays.dialog.is_some() {
        state.screens.footer.message = None;
        crate::app::writes::dialog::key(state, key);
        return state.take_effects();
    }
    if state.screens.overlays.drain.is_some() && crate::app::writes::drain::key(state, key) {
        return state.take_effects();
    }
    let mode = state.key_mode();
    let pending = std::mem::take(&mut state.screens.prompt.chord);
    // One key may mean different actions on different kinds (`s`): the one that applies.
    let fits = |a| state.applies(a);
    match state.settings.keymap.lookup_where(mode, &pending, key, fits) {
        Lookup::Action(a) => return update(state, a),
        Lookup::Pending(p) => state.screens.prompt.chord = p,
        Lookup::None => {
            if mode == KeyMode::Prompt {
                if let crate::keys::KeyCode::Char(c) = key.code {
                    if key.mods.is_empty() {
                        return type_char(state, c);
                    }
                }
            }
        }
    }
    Vec::new()
}

/// Whether `key` must wait before it is applied, so keys typed (or pasted) in one burst act
/// in order on the view they were meant for: true when keys already wait (`queued`), when a
/// command waits for discovery (the keys after it are meant for its view), or when the top
/// list has no rows yet (a view just switched to) and the key acts on rows. `ctrl-c`/quit
/// never waits. The loop bounds the wait in time (a view that never loads does not swallow
/// keys) and applies waiting keys in order once this says false for the first.
pub fn waits(state: &UiState, key: KeyPress, queued: bool) -> bool {
    use crate::keys::Action;
    if state.screens.overlays.dialog.is_some() || state.screens.overlays.drain.is_some() {
        return queued;
    }
    let mode = state.key_mode();
    let action = match state
        .settings
        .keymap
        .lookup_where(mode, &state.screens.prompt.chord, key, |a| state.applies(a))
    {
        Lookup::Action(a) => Some(a),
        Lookup::Pending(_) => None,
        Lookup::None => None,
    };
    if action == Some(Action::Quit) {
        return false;
    }
    if queued {
        return true;
    }
    if mode == KeyMode::Prompt {
        return false;
    }
    if state.screens.prompt.deferred.is_some() {
        return true;
    }
    // A view whose rows are still coming: a list not listed yet, `:can` before the RBAC
    // objects arrived, a tree with no line while its informers list.
    let loading = match state.top() {
        crate::app::state::Screen::Can(c) => c.policy.is_none(),
        crate::app::state::Screen::Xray(x) => x.lines.is_empty() && !x.pending.is_empty(),
        _ => state.top_list().is_some_and(|l| match l.snapshot() {
            None => true,
            Some(s) => !s.listed && !s.state.is_failure(),
        }),
    };
    // What does not need rows goes at once: prompts, help, redraw, back.
    let rowless = matches!(
        action,
        Some(Action::CommandMode | Action::FilterMode | Action::Help | Action::Redraw | Action::Back)
    );
    loading && !rowless && mode == KeyMode::Normal
}
