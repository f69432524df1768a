//! The plugins' data as the app holds it: the plugins in force for the context in use, what
//! one launch runs, and how a background run ended. Plain data; imports no `UiState` and must
//! not run anything.

use crate::app::handover::{CommandJob, Outcome};
use crate::config::plugins::PluginSpec;

/// The plugins of the config, as `configure::apply` sets them for the context in use.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PluginSettings {
    /// The plugins in force, in config order: `Action::Plugin(i)` runs `active[i]`. In
    /// read-only mode only those declared `readonly = true` are here.
    pub active: Vec<PluginSpec>,
    /// The kubeconfig path in use (`--kubeconfig`, else `$KUBECONFIG`), for `$KUBECONFIG`;
    /// set by the runtime at start.
    pub kubeconfig: Option<String>,
}

impl PluginSettings {
    /// The name of the plugin `action` runs (the footer's word for it); `None` for other
    /// actions.
    pub fn name_of(&self, action: crate::keys::Action) -> Option<&str> {
        match action {
            crate::keys::Action::Plugin(i) => self.active.get(usize::from(i)).map(|p| p.name.as_str()),
            _ => None,
        }
    }
}

/// One launch of a plugin, its variables expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginRun {
    /// The plugin's name.
    pub name: String,
    /// The command line for the footer and the dialog (`stern -n shop web-1`), sanitized.
    pub label: String,
    /// The context it was asked for (named in the dialog; a switch since then refuses it).
    pub context: String,
    /// What runs: the program, its argv items and the variables as environment.
    pub job: CommandJob,
    /// Detached (`true`) or with the terminal handed over.
    pub background: bool,
}

/// How a background run ended (`Event::PluginDone`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginDone {
    /// The plugin's name.
    pub name: String,
    /// Its exit code, signal, or why it could not run.
    pub outcome: Outcome,
    /// The last non-blank line it wrote (stdout, else stderr), unsanitized and at most
    /// [`LAST_LINE_BYTES`] long.
    pub last_line: Option<String>,
}

/// Bytes of a background run's output kept to find its last line.
pub const LAST_LINE_BYTES: usize = 4096;
