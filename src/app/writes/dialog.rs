//! The confirmation dialog of writes: a modal over the view that names the object(s) (the
//! count and first names for bulk), kind, namespace and the **context**; "no" is selected
//! until the user picks "yes"; options (propagation, grace period, replicas, drain flags)
//! are fields; a force delete says what force means and asks again; a protected context
//! makes the user type the name (or the count). Confirming queues `Effect::Write`. Owns
//! the dialog's keys and confirming (its state is `writes::model::Dialog`); must not
//! perform I/O or draw.

use crate::keys::KeyCode;

use crate::keys::KeyPress;

use super::model::{Dialog, Field, Stage, Then, FORCE_WARNING};
use crate::app::effect::{Effect, WriteRequest};
use crate::app::state::UiState;

/// A key while the dialog is open (it takes every key).
pub fn key(state: &mut UiState, key: KeyPress) {
    let Some(d) = state.screens.overlays.dialog.as_mut() else {
        return;
    };
    d.error = None;
    let on_buttons = d.focus >= d.fields.len();
    let n = d.fields.len() + 1;
    let ctrl_c = key.code == KeyCode::Char('c') && key.mods.contains(crate::keys::KeyModifiers::CONTROL);
    match key.code {
        _ if ctrl_c => cancel(state),
        KeyCode::Esc => cancel(state),
        KeyCode::Tab | KeyCode::Down => d.focus = (d.focus + 1) % n,
        KeyCode::BackTab | KeyCode::Up => d.focus = (d.focus + n - 1) % n,
        KeyCode::Left | KeyCode::Right if on_buttons => d.yes = !d.yes,
        KeyCode::Left | KeyCode::Right | KeyCode::Char(' ') if !on_buttons => {
            let back = key.code == KeyCode::Left;
            match &mut d.fields[d.focus] {
                Field::Choice { options, at, .. } => {
                    let len = options.len().max(1);
                    *at = if back {
                        (*at + len - 1) % len
                    } else {
                        (*at + 1) % len
                    };
                }
                Field::Toggle { on, .. } => *on = !*on,
                Field::Number { .. } => {}
            }
            refresh_force(d);
        }
        KeyCode::Backspace => match d.fields.get_mut(d.focus) {
            Some(Field::Number { text, .. }) => {
                text.pop();
            }
            _ => {
                d.typed.pop();
            }
        },
        KeyCode::Char(c) if key.mods.is_empty() => {
            if let Some(Field::Number { text, .. }) = d.fields.get_mut(d.focus).filter(|_| c.is_ascii_digit())
            {
                if text.len() < 9 {
                    text.push(c);
                }
                return;
            }
            if d.require.is_some() {
                if !c.is_control() && d.typed.chars().count() < 256 {
                    d.typed.push(c);
                }
                return;
            }
            match c {
                'y' | 'Y' => confirm(state),
                'n' | 'N' | 'q' => cancel(state),
                _ => {}
            }
        }
        KeyCode::Enter => {
            if d.require.is_some() {
                return confirm(state);
            }
            if !on_buttons {
                d.focus += 1;
            } else if d.yes {
                confirm(state)
            } else {
                cancel(state)
            }
        }
        _ => {}
    }
}

/// Shows or hides the force warning as the force field changes.
fn refresh_force(d: &mut Dialog) {
    if matches!(d.then, Then::Delete(_)) {
        d.warning = d.force().then(|| FORCE_WARNING.to_owned());
    }
}

fn cancel(state: &mut UiState) {
    state.screens.overlays.dialog = None;
    state.note("cancelled: nothing was sent".into());
}

/// "yes": checks the typed confirmation, asks again for a force delete, else queues the
/// write and says what was requested.
fn confirm(state: &mut UiState) {
    let Some(d) = state.screens.overlays.dialog.as_mut() else {
        return;
    };
    if let Some(want) = &d.require {
        if d.typed.trim() != want {
            d.error = Some(format!("type {want} to confirm (esc cancels)"));
            return;
        }
    }
    if d.force() && d.stage == Stage::First {
        d.stage = Stage::Again;
        d.title = format!("really force {}", d.title.trim_start_matches("force "));
        d.warning = Some(FORCE_WARNING.to_owned());
        // The name was typed already: the second question is a plain yes/no, "no" selected.
        d.require = None;
        d.yes = false;
        d.focus = d.fields.len();
        return;
    }
    if let Then::Debug(req) = &d.then {
        let req = req.clone();
        let (context, summary) = (d.context.clone(), d.summary.clone());
        state.screens.overlays.dialog = None;
        crate::app::session::debug::confirmed(state, req, &context, &summary);
        return;
    }
    if let Then::Plugin(run) = &d.then {
        let run = (**run).clone();
        state.screens.overlays.dialog = None;
        crate::app::plugins::launch(state, run);
        return;
    }
    let op = match d.op() {
        Ok(op) => op,
        Err(e) => {
            d.error = Some(e);
            return;
        }
    };
    let Some(d) = state.screens.overlays.dialog.take() else {
        return;
    };
    if state.settings.readonly {
        state.screens.footer.message = Some("read-only: nothing was sent".into());
        return;
    }
    if !d.routes.is_empty() {
        return crate::app::fleet::writes::confirmed(state, *d);
    }
    if let Err(why) = crate::app::fleet::open::writable(state, &d.context) {
        state.screens.footer.message = Some(format!("{why}: nothing was sent"));
        return;
    }
    state.note(format!("{} (context {})…", d.summary, d.context));
    state.emit(Effect::Write(Box::new(WriteRequest {
        context: d.context,
        summary: d.summary,
        op,
    })));
}
