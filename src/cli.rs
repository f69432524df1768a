//! Command-line flags, k9s/kubectl style. Owns parsing only; must not act on the flags.

use std::path::PathBuf;

use clap::Parser;

/// ktui — a fast, live terminal UI for Kubernetes clusters.
#[derive(Debug, Clone, Parser, Default)]
#[command(name = "ktui", version, about, long_about = None)]
pub struct Cli {
    /// Path to a kubeconfig file (default: $KUBECONFIG, then ~/.kube/config).
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<PathBuf>,

    /// Kubeconfig context to use (default: current-context).
    #[arg(long, value_name = "NAME")]
    pub context: Option<String>,

    /// Namespace to open (default: the context's namespace, else `default`).
    #[arg(short = 'n', long, value_name = "NS")]
    pub namespace: Option<String>,

    /// Start in all-namespaces mode.
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,

    /// View to open, as typed after `:` (e.g. `deploy`, `nodes`, `informers`).
    #[arg(short = 'c', long = "command", value_name = "VIEW")]
    pub command: Option<String>,

    /// Refuse every write operation (accepted now; enforced once actions exist).
    #[arg(long)]
    pub readonly: bool,

    /// Log file (default: ktui.log in the state directory). Logs never go to the terminal.
    #[arg(long, value_name = "PATH")]
    pub log_file: Option<PathBuf>,
}
