//! The confirmation dialog of writes: a modal over the view that names the object(s) (the
//! count and first names for bulk), kind, namespace and the **context**; "no" is selected
//! until the user picks "yes"; options (propagation, grace period, replicas, drain flags)
//! are fields; a force delete says what force means and asks again; a protected context
//! makes the user type the name (or the count). Confirming queues `Effect::Write`. Owns
//! the dialog's state and keys; must not perform I/O or draw.

use crossterm::event::KeyCode;

use crate::keys::KeyPress;
use crate::kube::write::delete::{DeleteOptions, Propagation};
use crate::kube::write::drain::DrainOptions;
use crate::kube::write::rollback::Revision;
use crate::kube::write::Target;

use crate::app::effect::{Effect, WriteOp, WriteRequest};
use crate::app::state::UiState;

/// What force means, in one line (shown whenever a force delete is asked).
pub const FORCE_WARNING: &str =
    "force removes the object from the API without waiting for the kubelet: the container may keep running";

/// One option of a dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Field {
    /// One of `options` (left/right or space cycles).
    Choice {
        label: &'static str,
        options: Vec<String>,
        at: usize,
    },
    /// A whole number typed (digits, backspace); empty means `hint`.
    Number {
        label: &'static str,
        text: String,
        hint: &'static str,
    },
    /// On or off (space, left/right).
    Toggle { label: &'static str, on: bool },
}

/// What confirming does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Then {
    /// Delete these; fields: propagation, grace period, force.
    Delete(Vec<Target>),
    /// Scale to the replicas field.
    Scale(Target),
    /// Rollout restart.
    Restart(Vec<Target>),
    /// Cordon (`true`) or uncordon.
    Cordon(Vec<Target>, bool),
    /// Trigger a CronJob now.
    Trigger(Vec<Target>),
    /// Suspend (`true`) or resume CronJobs.
    Suspend(Vec<Target>, bool),
    /// Roll back to the revision chosen in the first field.
    Rollback(Target, Vec<Revision>),
    /// Drain a node; fields: ignore DaemonSets, delete emptyDir data, force, grace, timeout.
    Drain(Target),
    /// Add a debug container and attach to it (`app::debug`): not a `WriteOp`, the session
    /// preparation makes it.
    Debug(Box<crate::app::session::SessionRequest>),
}

/// Which question is on screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The first question.
    First,
    /// Force delete: the second question.
    Again,
}

/// An open confirmation dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dialog {
    /// `delete 3 pods`.
    pub title: String,
    /// What it touches: objects, namespace, context.
    pub lines: Vec<String>,
    /// Options.
    pub fields: Vec<Field>,
    /// Focused field; `fields.len()` is the yes/no buttons.
    pub focus: usize,
    /// "yes" is selected (never by default).
    pub yes: bool,
    /// Text the user must type to confirm (protected contexts): the name, or the count.
    pub require: Option<String>,
    /// What was typed for `require`.
    pub typed: String,
    /// A warning line (force).
    pub warning: Option<String>,
    /// First question or the force's second one.
    pub stage: Stage,
    /// What confirming does.
    pub then: Then,
    /// The context the write goes to.
    pub context: String,
    /// Why the last confirm did not go through.
    pub error: Option<String>,
    /// What the footer says was requested (`deleting pod/web in team-a`).
    pub summary: String,
}

impl Dialog {
    /// A dialog for `then` with `title`, the object lines and options.
    pub fn new(
        title: String,
        lines: Vec<String>,
        fields: Vec<Field>,
        then: Then,
        context: String,
        summary: String,
    ) -> Dialog {
        Dialog {
            title,
            lines,
            focus: fields.len(),
            fields,
            yes: false,
            require: None,
            typed: String::new(),
            warning: None,
            stage: Stage::First,
            then,
            context,
            error: None,
            summary,
        }
    }

    /// Whether the delete's force is on (the field, or `ctrl-k`).
    pub fn force(&self) -> bool {
        self.fields.iter().any(|f| {
            matches!(
                f,
                Field::Toggle {
                    label: "force",
                    on: true
                }
            )
        })
    }

    fn number(&self, label: &str) -> Result<Option<u32>, String> {
        for f in &self.fields {
            if let Field::Number { label: l, text, .. } = f {
                if *l == label {
                    if text.is_empty() {
                        return Ok(None);
                    }
                    return text
                        .parse()
                        .map(Some)
                        .map_err(|_| format!("{label}: not a number"));
                }
            }
        }
        Ok(None)
    }

    fn toggle(&self, label: &str) -> bool {
        self.fields
            .iter()
            .any(|f| matches!(f, Field::Toggle { label: l, on: true } if *l == label))
    }

    fn choice(&self, label: &str) -> usize {
        self.fields
            .iter()
            .find_map(|f| match f {
                Field::Choice { label: l, at, .. } if *l == label => Some(*at),
                _ => None,
            })
            .unwrap_or(0)
    }

    /// The write confirming asks for, or why it cannot be built.
    fn op(&self) -> Result<WriteOp, String> {
        Ok(match &self.then {
            Then::Delete(t) => WriteOp::Delete(
                t.clone(),
                DeleteOptions {
                    propagation: Propagation::ALL[self.choice("propagation").min(2)],
                    grace_seconds: self.number("grace period (s)")?,
                    force: self.force(),
                },
            ),
            Then::Scale(t) => {
                let n = self.number("replicas")?.ok_or("replicas: type a number")?;
                WriteOp::Scale(t.clone(), n)
            }
            Then::Restart(t) => WriteOp::Restart(t.clone()),
            Then::Cordon(t, on) => WriteOp::Cordon(t.clone(), *on),
            Then::Trigger(t) => WriteOp::Trigger(t.clone()),
            Then::Suspend(t, on) => WriteOp::Suspend(t.clone(), *on),
            Then::Rollback(t, revs) => {
                let r = revs
                    .get(self.choice("revision"))
                    .ok_or("no revision to roll back to")?;
                WriteOp::Rollback(t.clone(), r.number)
            }
            Then::Debug(_) => return Err("a debug container is no write request".into()),
            Then::Drain(t) => WriteOp::Drain(
                t.clone(),
                DrainOptions {
                    ignore_daemonsets: self.toggle("ignore DaemonSets"),
                    delete_emptydir: self.toggle("delete emptyDir data"),
                    force: self.toggle("force (unmanaged pods)"),
                    grace_seconds: self.number("grace period (s)")?,
                    timeout: std::time::Duration::from_secs(u64::from(
                        self.number("timeout (s)")?.unwrap_or(120),
                    )),
                },
            ),
        })
    }
}

/// A key while the dialog is open (it takes every key).
pub fn key(state: &mut UiState, key: KeyPress) {
    let Some(d) = state.screens.dialog.as_mut() else {
        return;
    };
    d.error = None;
    let on_buttons = d.focus >= d.fields.len();
    let n = d.fields.len() + 1;
    let ctrl_c = key.code == KeyCode::Char('c') && key.mods.contains(crossterm::event::KeyModifiers::CONTROL);
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
    state.screens.dialog = None;
    state.note("cancelled: nothing was sent".into());
}

/// "yes": checks the typed confirmation, asks again for a force delete, else queues the
/// write and says what was requested.
fn confirm(state: &mut UiState) {
    let Some(d) = state.screens.dialog.as_mut() else {
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
        state.screens.dialog = None;
        crate::app::session::debug::confirmed(state, req, &context, &summary);
        return;
    }
    let op = match d.op() {
        Ok(op) => op,
        Err(e) => {
            d.error = Some(e);
            return;
        }
    };
    let Some(d) = state.screens.dialog.take() else {
        return;
    };
    if state.settings.readonly {
        state.screens.message = Some("read-only: nothing was sent".into());
        return;
    }
    if state.conn.context.as_deref() != Some(d.context.as_str()) {
        state.screens.message = Some(format!(
            "the context changed since the dialog opened (was {}): nothing was sent",
            d.context
        ));
        return;
    }
    state.note(format!("{} (context {})…", d.summary, d.context));
    state.emit(Effect::Write(Box::new(WriteRequest {
        context: d.context,
        summary: d.summary,
        op,
    })));
}
