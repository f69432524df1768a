//! Command-line flags, k9s/kubectl style. Owns parsing only; must not act on the flags.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

/// ktui — a fast, live terminal UI for Kubernetes clusters.
#[derive(Debug, Clone, Parser, Default)]
#[command(name = "ktui", version, about, long_about = None)]
pub struct Cli {
    /// Path to a kubeconfig file (default: $KUBECONFIG, then ~/.kube/config).
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<PathBuf>,

    /// Kubeconfig context to use (default: current-context). Several, comma-separated
    /// (`--context prod-eu,prod-us`), open a union: every list shows the rows of all of them
    /// with a CONTEXT column, each action going to its row's cluster.
    #[arg(long, value_name = "NAME[,NAME…]")]
    pub context: Option<String>,

    /// Open a union of every context of the kubeconfig (each API server once): like
    /// `:ctx all`.
    #[arg(long, conflicts_with = "context")]
    pub all_contexts: bool,

    /// Namespace to open (default: the context's namespace, else `default`; with --demo,
    /// whose contexts set none, all namespaces).
    /// Must be a valid namespace name (DNS-1123 label; `-n ''` is refused: `-A` means all).
    #[arg(short = 'n', long, value_name = "NS", value_parser = namespace_arg)]
    pub namespace: Option<String>,

    /// Start in all-namespaces mode.
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,

    /// View to open, as typed after `:` (e.g. `deploy`, `nodes`, `informers`).
    #[arg(short = 'c', long = "command", value_name = "VIEW")]
    pub command: Option<String>,

    /// Read-only: no write exists in any view (delete, scale, restart, edit, rollback,
    /// shell, attach, exec, debug, port-forward…): not bound, not in the footer or help; the
    /// header says `[read-only]`. Same as `readonly = true` for a context in the config.
    #[arg(long)]
    pub readonly: bool,

    /// Explore the built-in demo cluster (a fake API server on a random loopback port, live,
    /// with deployments rolling out, a crash-looping pod and events) instead of a kubeconfig's.
    #[arg(long)]
    pub demo: bool,

    /// Log file (default: ktui.log in the state directory). Logs never go to the terminal.
    #[arg(long, value_name = "PATH")]
    pub log_file: Option<PathBuf>,

    /// Config file (default: ~/.config/ktui/config.toml or the platform's equivalent; see
    /// `ktui info`). A missing default file means defaults; a missing --config file is an error.
    #[arg(long, value_name = "PATH", env = "KTUI_CONFIG", global = true)]
    pub config: Option<PathBuf>,

    /// A non-interactive subcommand instead of the UI.
    #[command(subcommand)]
    pub subcommand: Option<Command>,
}

impl Cli {
    /// The union the command line asks for, as `:ctx` takes it (`all`, `a,b`); `None` for
    /// one context.
    pub fn union_arg(&self) -> Option<String> {
        if self.all_contexts {
            return Some("all".into());
        }
        self.context.clone().filter(|c| c.contains(','))
    }

    /// The context to connect first: `--context`'s (the first of a list), else the
    /// kubeconfig's current one (`None`).
    pub fn first_context(&self) -> Option<String> {
        let c = self.context.as_deref()?;
        c.split(',')
            .map(str::trim)
            .find(|c| !c.is_empty())
            .map(str::to_owned)
    }
}

/// `-n`'s value, checked by [`crate::kube::key::check_namespace`] so clap reports a bad one
/// as a usage error (exit 2) before anything starts.
fn namespace_arg(s: &str) -> Result<String, String> {
    crate::kube::key::check_namespace(s).map(|()| s.to_owned())
}

/// Subcommands: each runs, prints and exits without touching the terminal's modes.
#[derive(Debug, Clone, Subcommand)]
pub enum Command {
    /// Validate the config file (the default one or --config); exit 1 on errors.
    CheckConfig,
    /// Print the config, log and state paths in use and the active theme.
    Info,
    /// Print a shell completion script (bash, zsh or fish) to stdout.
    Completions {
        /// The shell.
        shell: Shell,
    },
    /// Run only the demo cluster's API server in the foreground (until SIGINT/SIGTERM) and
    /// write a kubeconfig for it, so kubectl, k9s or any client can use it.
    DemoServer(Box<crate::sim::cli::DemoServerArgs>),
    /// Convert k9s's plugins.yaml (and plugins/*.yaml), aliases.yaml and hotkeys.yaml to
    /// ktui's [[plugins]] and [aliases]; prints the TOML and a report of what was and was
    /// not converted (and why).
    ImportK9s {
        /// k9s's configuration directory (default: $K9S_CONFIG_DIR, else
        /// $XDG_CONFIG_HOME/k9s, else ~/.config/k9s).
        #[arg(long, value_name = "DIR")]
        from: Option<std::path::PathBuf>,
        /// Add the result to ktui's config file (the default one or --config; created with
        /// mode 0600) instead of printing it; names the config already has are refused.
        #[arg(long)]
        write: bool,
    },
}

/// Shells `completions` writes scripts for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    /// Bash.
    Bash,
    /// Zsh.
    Zsh,
    /// Fish.
    Fish,
}

#[cfg(test)]
mod tests {
    use clap::Parser as _;

    use super::Cli;

    #[test]
    fn namespace_flag_takes_only_namespace_names() {
        let ok = Cli::try_parse_from(["ktui", "-n", "team-a"]).unwrap();
        assert_eq!(ok.namespace.as_deref(), Some("team-a"));
        for bad in ["Bad Name", ""] {
            let e = Cli::try_parse_from(["ktui", "-n", bad]).unwrap_err();
            assert_eq!(e.kind(), clap::error::ErrorKind::ValueValidation, "{bad}");
            assert!(e.to_string().contains("namespace name"), "{e}");
        }
    }

    /// `--help` says what the flags do now, not what they once might.
    #[test]
    fn help_says_what_readonly_does() {
        use clap::CommandFactory as _;
        let help = Cli::command().render_long_help().to_string();
        assert!(!help.contains("once actions exist"), "{help}");
        assert!(help.contains("no write exists in any view"), "{help}");
    }
}
