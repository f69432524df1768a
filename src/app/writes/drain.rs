//! The drain overlay: each step of a running drain as it happens (cordon, skipped pods, each
//! eviction, each PodDisruptionBudget refusal), `esc` cancels a running drain and closes a finished
//! one. Owns its keys (its state is `writes::model::DrainState`); must not perform I/O (cancelling
//! is `Effect::CancelDrain`).

use crate::keys::KeyCode;

use crate::keys::KeyPress;

use super::model::Tone;
use crate::app::effect::Effect;
use crate::app::state::UiState;

/// A key while the overlay is open: `esc` (or `q`) cancels a running drain, closes a
/// finished one; `ctrl-c` quits ktui as everywhere.
pub fn key(state: &mut UiState, key: KeyPress) {
    let Some(d) = state.screens.overlays.drain.as_mut() else {
        return;
    };
    if key.code == KeyCode::Char('c') && key.mods.contains(crate::keys::KeyModifiers::CONTROL) {
        state.emit(Effect::Quit(0));
        return;
    }
    if !matches!(key.code, KeyCode::Esc | KeyCode::Char('q')) {
        return;
    }
    if d.running {
        d.running = false;
        d.push(Tone::Error, "cancelled: no more evictions are sent".into());
        state.emit(Effect::CancelDrain);
    } else {
        state.screens.overlays.drain = None;
    }
}
