//! The drain overlay: each step of a running drain as it happens (cordon, skipped pods, each
//! eviction, each PodDisruptionBudget refusal), `esc` cancels a running drain and closes a finished
//! one. Owns its keys (its state is `writes::model::DrainState`); must not perform I/O (cancelling
//! is `Effect::CancelDrain`).

use crate::keys::KeyCode;

use crate::keys::KeyPress;

use super::model::Tone;
use crate::app::effect::Effect;
use crate::app::state::UiState;

/// A key while the overlay is open: `esc` (or `q`) cancels a running drain — the overlay
/// stays to show what was done, the footer says it stopped — and closes a finished one; any
/// other key closes a finished (or cancelled) one and then acts (returns false: not
/// consumed). `ctrl-c` quits ktui as
/// everywhere. While the drain runs other keys wait for it (true: consumed).
pub fn key(state: &mut UiState, key: KeyPress) -> bool {
    let Some(d) = state.screens.overlays.drain.as_mut() else {
        return false;
    };
    if key.code == KeyCode::Char('c') && key.mods.contains(crate::keys::KeyModifiers::CONTROL) {
        state.emit(Effect::Quit(0));
        return true;
    }
    let close = matches!(key.code, KeyCode::Esc | KeyCode::Char('q'));
    if d.running {
        if close {
            d.running = false;
            d.push(Tone::Error, "cancelled: no more evictions are sent".into());
            let said = format!(
                "drain of node/{} cancelled: {} evicted, no more evictions sent; the node stays cordoned",
                d.node, d.evicted
            );
            state.screens.footer.message = Some(said);
            state.screens.footer.info = false;
            state.emit(Effect::CancelDrain);
        }
        return true;
    }
    state.screens.overlays.drain = None;
    close
}

/// A drain step arrived: into the overlay; its end (done, failed, timed out) also replaces
/// the footer's "running" note. Steps after the overlay closed (a cancel) change nothing.
pub fn step(state: &mut UiState, e: crate::kube::write::drain::DrainEvent) {
    let Some(d) = state.screens.overlays.drain.as_mut() else {
        return;
    };
    let was = d.running;
    d.apply(e);
    if was && !d.running {
        let last = d.lines.last().map(|(_, t)| t.clone()).unwrap_or_default();
        state.screens.footer.message = Some(last);
        state.screens.footer.info = true;
    }
}
