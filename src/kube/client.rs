//! Builds the API client from kubeconfig files, the way kubectl does (KUBECONFIG with several
//! files merged, `--kubeconfig`, `--context`, the context's namespace), hardened for a TUI:
//! exec auth plugins never get the terminal, kube's own retries are off, and the whole build
//! is bounded by a timeout. Must not log credentials.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{anyhow, Context as _, Result};
use kube::config::{ExecInteractiveMode, KubeConfigOptions, Kubeconfig};

/// What the user asked for on the command line.
#[derive(Debug, Clone, Default)]
pub struct ConnectOptions {
    /// `--kubeconfig`: a single file instead of `$KUBECONFIG` / `~/.kube/config`.
    pub kubeconfig: Option<PathBuf>,
    /// `--context`: a context name instead of `current-context`.
    pub context: Option<String>,
}

/// Facts about the context in use, for the header. Never holds credentials.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterInfo {
    /// The context name (`contexts[].name`).
    pub context: String,
    /// The cluster's server URL (`clusters[].cluster.server`).
    pub server: String,
    /// The context's namespace (`contexts[].context.namespace`), else `default`.
    pub namespace: String,
    /// Every context name in the merged kubeconfig, in file order.
    pub contexts: Vec<String>,
}

/// Reads and merges the kubeconfig (`path`, else `$KUBECONFIG`'s files, else
/// `~/.kube/config`). Errors name the file that could not be read.
pub fn load_kubeconfig(path: Option<&Path>) -> Result<Kubeconfig> {
    match path {
        Some(p) => Kubeconfig::read_from(p).with_context(|| format!("reading kubeconfig {}", p.display())),
        None => Kubeconfig::read()
            .context("no kubeconfig found (set KUBECONFIG or use --kubeconfig), or try `ktui --demo`"),
    }
}

/// Resolves the context and builds a client for it. Exec plugins are forced non-interactive
/// (their stderr is captured, never drawn over the UI), kube's default retry is disabled
/// (the informers own retrying), and a connect timeout of 10 s is set.
pub async fn connect(opts: &ConnectOptions) -> Result<(kube::Client, ClusterInfo)> {
    let mut kubeconfig = load_kubeconfig(opts.kubeconfig.as_deref())?;
    for named in &mut kubeconfig.auth_infos {
        if let Some(exec) = named.auth_info.as_mut().and_then(|a| a.exec.as_mut()) {
            exec.interactive_mode = Some(ExecInteractiveMode::Never);
        }
    }
    let context = opts
        .context
        .clone()
        .or_else(|| kubeconfig.current_context.clone())
        .ok_or_else(|| anyhow!("the kubeconfig has no current-context; pass --context"))?;
    let named = kubeconfig
        .contexts
        .iter()
        .find(|c| c.name == context)
        .ok_or_else(|| anyhow!("context {context:?} not found in the kubeconfig"))?;
    let ctx = named.context.clone().unwrap_or_default();
    let server = kubeconfig
        .clusters
        .iter()
        .find(|c| c.name == ctx.cluster)
        .and_then(|c| c.cluster.as_ref())
        .and_then(|c| c.server.clone())
        .unwrap_or_default();
    let info = ClusterInfo {
        context: context.clone(),
        server,
        namespace: ctx
            .namespace
            .clone()
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "default".into()),
        contexts: kubeconfig.contexts.iter().map(|c| c.name.clone()).collect(),
    };
    let options = KubeConfigOptions {
        context: Some(context),
        ..KubeConfigOptions::default()
    };
    let mut config = kube::Config::from_custom_kubeconfig(kubeconfig, &options)
        .await
        .context("building the client configuration")?;
    config.default_retry = false;
    config.connect_timeout = Some(Duration::from_secs(10));
    let client = kube::Client::try_from(config).context("building the client")?;
    Ok((client, info))
}

/// Installs rustls' ring crypto provider once per process; harmless if already installed.
pub fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}
