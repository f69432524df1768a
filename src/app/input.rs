//! Terminal input for the loop: keys through the keymap (chords, prompt typing) and the mouse
//! (wheel, click to select). Owns that translation; must not perform I/O.

use super::state::UiState;
use super::update::{type_char, update};
use crate::keys::{KeyMode, KeyPress, Lookup};

/// Mouse (with `[ui] mouse`): the wheel scrolls three rows, a left click selects a row.
pub(super) fn on_mouse(state: &mut UiState, m: crossterm::event::MouseEvent) -> bool {
    use crate::keys::Action;
    use crossterm::event::{MouseButton, MouseEventKind};
    match m.kind {
        MouseEventKind::ScrollDown => (0..3).for_each(|_| update(state, Action::Down)),
        MouseEventKind::ScrollUp => (0..3).for_each(|_| update(state, Action::Up)),
        MouseEventKind::Down(MouseButton::Left) => {
            let Some(l) = state.top_list_mut() else {
                return false;
            };
            // Header (2 lines), the sparkline of timelines, the border and the column header.
            let first = 4 + u16::from(l.is_timeline());
            let Some(i) = m.row.checked_sub(first) else {
                return false;
            };
            let target = l.offset + usize::from(i);
            if target >= l.cache.len() {
                return false;
            }
            if target != l.selected {
                // Moving through `update` keeps the timeline's tail-mode bookkeeping right.
                let delta = target as i64 - l.selected as i64;
                update(state, if delta > 0 { Action::Down } else { Action::Up });
                if let Some(l) = state.top_list_mut() {
                    l.selected = target;
                    l.selected_key = l
                        .cache
                        .selected_row(target)
                        .map(|r| crate::kube::store::obj_key(&r));
                }
            }
        }
        _ => return false,
    }
    true
}

/// One key press: an action from the keymap, part of a chord, or a typed character.
pub(super) fn on_key(state: &mut UiState, key: KeyPress) {
    let mode = if state.prompt.is_some() {
        KeyMode::Prompt
    } else {
        KeyMode::Normal
    };
    let pending = std::mem::take(&mut state.pending);
    match state.keymap.lookup(mode, &pending, key) {
        Lookup::Action(a) => update(state, a),
        Lookup::Pending(p) => state.pending = p,
        Lookup::None => {
            if mode == KeyMode::Prompt {
                if let crossterm::event::KeyCode::Char(c) = key.code {
                    if key.mods.is_empty() {
                        type_char(state, c);
                    }
                }
            } else if state.help {
                state.help = false;
            }
        }
    }
}
