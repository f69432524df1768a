//! Plugins in the UI: `[[plugins]]` commands bound to keys in the list views of their scopes
//! (and the containers view). A key press expands the plugin's arguments with the selected
//! row's variables ([`vars`]), asks first when the plugin says `confirm` (the writes dialog,
//! naming the context and the command line), then runs it detached (`Effect::RunPlugin`, its
//! exit status and last line to the footer) or with the terminal handed over
//! (`Effect::HandOver`). A plugin is a write unless declared `readonly`: read-only mode
//! removes it from the keys, `?` and the footer. Owns these transitions; must not run
//! anything (`runtime::plugins` does).

pub mod model;
pub mod vars;

use crate::config::plugins::{PluginSpec, ALL_SCOPES, CONTAINERS};
use crate::config::Config;
use crate::keys::{Action, Binding, KeyMode, Keymap};
use crate::kube::sanitize::sanitize;

use crate::app::effect::Effect;
use crate::app::handover::{CommandJob, Handover, Job, Then};
use crate::app::plugins::model::{PluginDone, PluginRun};
use crate::app::state::{Screen, UiState};
use crate::app::writes::model::Dialog;

/// The plugins in force given read-only mode: all of them, or only the `readonly` ones.
pub fn in_force(config: &Config, readonly: bool) -> Vec<PluginSpec> {
    config
        .plugins
        .iter()
        .filter(|p| p.readonly || !readonly)
        .cloned()
        .collect()
}

/// `keymap` with a `[normal]` binding per plugin of `plugins` (`Action::Plugin(i)`), after the
/// built-in ones (their keys never clash: `config::plugins::sift` dropped those that did).
pub fn bind(keymap: &Keymap, plugins: &[PluginSpec]) -> Keymap {
    let modes = KeyMode::ALL
        .iter()
        .map(|(m, _)| {
            let mut b = keymap.bindings(*m).to_vec();
            if *m == KeyMode::Normal {
                for (i, p) in plugins.iter().enumerate() {
                    let Ok(i) = u16::try_from(i) else { break };
                    b.push(Binding {
                        on: p.key.get_ref().text.clone(),
                        seq: p.presses().to_vec(),
                        run: Action::Plugin(i),
                        desc: format!("{} (plugin {})", sanitize(p.desc()), p.name),
                    });
                }
            }
            (*m, b)
        })
        .collect();
    Keymap::from_modes(modes)
}

/// The plugin `action` runs, if it is a plugin's.
fn plugin(state: &UiState, action: Action) -> Option<&PluginSpec> {
    match action {
        Action::Plugin(i) => state.settings.plugins.active.get(usize::from(i)),
        _ => None,
    }
}

/// Whether plugin `p` works in the view on top: a list of a kind its scopes name (or `all`)
/// with a selected row, or the containers view for `containers` (or `all`).
fn in_scope(state: &UiState, p: &PluginSpec) -> bool {
    let all = p.scopes.iter().any(|s| s.eq_ignore_ascii_case(ALL_SCOPES));
    match state.top() {
        Screen::List(l) => {
            let kind = l.kind();
            let named = |s: &String| {
                state
                    .conn
                    .registry
                    .resolve(s)
                    .map(|k| k.group() == kind.group() && k.plural() == kind.plural())
                    .unwrap_or(false)
            };
            (all || p.scopes.iter().any(named)) && l.cache.selected_row(l.selected).is_some()
        }
        Screen::Containers(_) => all || p.scopes.iter().any(|s| s.eq_ignore_ascii_case(CONTAINERS)),
        _ => false,
    }
}

/// `Some(applies)` for a plugin's action: in scope, and in read-only mode only if it is
/// declared `readonly`; `None` for other actions.
pub fn applies(state: &UiState, action: Action) -> Option<bool> {
    let Action::Plugin(_) = action else {
        return None;
    };
    Some(
        plugin(state, action).is_some_and(|p| (p.readonly || !state.settings.readonly) && in_scope(state, p)),
    )
}

/// Runs a plugin's action (already known to apply); false for other actions.
pub fn handle(state: &mut UiState, action: Action) -> bool {
    let Some(p) = plugin(state, action).cloned() else {
        return matches!(action, Action::Plugin(_));
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0));
    let Some(v) = vars::of_selection(state, now) else {
        state.screens.footer.message = Some(format!("plugin {}: nothing selected", p.name));
        return true;
    };
    let args = expand_args(&p.command, &p.args, &v);
    let mut words = vec![p.command.clone()];
    words.extend(args.iter().cloned());
    let run = PluginRun {
        name: p.name.clone(),
        label: sanitize(&shell_words::join(&words)).into_owned(),
        context: vars::row_context(state),
        job: CommandJob {
            program: p.command.clone(),
            args,
            env: v.env(),
        },
        background: p.background,
    };
    if p.confirm {
        let lines = vec![
            format!("command: {}", run.label),
            format!(
                "{}: {}",
                if p.background {
                    "runs in the background"
                } else {
                    "takes the terminal"
                },
                sanitize(p.desc())
            ),
            format!("context: {}", sanitize(&run.context)),
        ];
        let (title, summary, context) = (
            format!("run plugin {}?", p.name),
            format!("running plugin {}", p.name),
            run.context.clone(),
        );
        let then = crate::app::writes::model::Then::Plugin(Box::new(run));
        let mut d = Dialog::new(title, lines, Vec::new(), then, context.clone(), summary);
        // A protected context asks for the plugin's name typed, as for every write.
        if state.settings.protected.iter().any(|r| r.is_match(&context)) {
            d.require = Some(p.name.clone());
        }
        state.screens.overlays.dialog = Some(Box::new(d));
        return true;
    }
    launch(state, run);
    true
}

/// Whether plugin `name` in force says it only reads (`readonly = true`).
fn still_readonly(state: &UiState, name: &str) -> bool {
    state
        .settings
        .plugins
        .active
        .iter()
        .any(|p| p.name == name && p.readonly)
}

/// The dialog's "yes" (or a plugin without `confirm`): runs it, unless the context changed
/// since it was asked for or read-only mode removed it meanwhile.
pub fn launch(state: &mut UiState, run: PluginRun) {
    let still = state.settings.plugins.active.iter().any(|p| p.name == run.name);
    if !still {
        state.screens.footer.message = Some(format!("plugin {} is not in force: nothing was run", run.name));
        return;
    }
    if !crate::app::fleet::open::may_run_in(state, &run.context, still_readonly(state, &run.name)) {
        state.screens.footer.message = Some(match state.conn.fleet {
            Some(_) => format!(
                "{} is read-only or no longer in the union: plugin {} was not run",
                sanitize(&run.context),
                run.name
            ),
            None => format!(
                "the context changed (was {}): plugin {} was not run",
                sanitize(&run.context),
                run.name
            ),
        });
        return;
    }
    if run.background {
        state.note(format!("plugin {}: {}…", run.name, run.label));
        state.emit(Effect::RunPlugin(Box::new(run)));
    } else {
        state.emit(Effect::HandOver(Box::new(Handover {
            label: format!("plugin {}: {}", run.name, run.label),
            job: Job::Command(run.job),
            then: Then::Note,
        })));
    }
}

/// A background run ended: its outcome and last line of output to the footer (an error
/// unless it exited with 0).
pub fn finished(state: &mut UiState, done: PluginDone) {
    let mut text = format!("plugin {}: {}", done.name, done.outcome.words());
    if let Some(line) = done.last_line.filter(|l| !l.trim().is_empty()) {
        let line: String = sanitize(line.trim()).chars().take(200).collect();
        text.push_str(&format!(" — {line}"));
    }
    if done.outcome == crate::app::handover::Outcome::Exited(0) {
        state.note(text);
    } else {
        state.screens.footer.message = Some(text);
        state.screens.footer.info = false;
    }
}

/// At start: the plugins dropped for a clash, once in the footer (`ktui check-config` lists
/// them with their positions).
pub fn announce(state: &mut UiState, config: &Config) {
    let Some(first) = config.plugin_clashes.first() else {
        return;
    };
    let more = match config.plugin_clashes.len() {
        1 => String::new(),
        n => format!(" (and {} more: ktui check-config)", n - 1),
    };
    state.screens.footer.message = Some(format!("{first}{more}"));
    state.screens.footer.info = false;
}

/// The shells whose `-c` script gets its values quoted ([`vars::expand_for_shell`]).
const SHELLS: [&str; 6] = ["sh", "bash", "dash", "zsh", "ksh", "ash"];

/// A plugin's arguments with its variables expanded: each stays one argv item; the script
/// after a shell's `-c` (`-c`, `-ec`, `-lc`…) gets values the shell would split or run
/// single-quoted.
pub fn expand_args(command: &str, args: &[String], v: &vars::Vars) -> Vec<String> {
    let program = command.rsplit('/').next().unwrap_or(command);
    let shell = SHELLS.contains(&program);
    let mut script_next = false;
    args.iter()
        .map(|a| {
            let script = std::mem::take(&mut script_next);
            script_next = shell && a.starts_with('-') && !a.starts_with("--") && a.contains('c');
            match script {
                true => vars::expand_for_shell(a, v),
                false => vars::expand(a, v),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
