//! Builds the API client from kubeconfig files, the way kubectl does (KUBECONFIG with several
//! files merged, `--kubeconfig`, `--context`, the context's namespace), hardened for a TUI:
//! exec auth plugins are run by ktui itself (`exec_plugin`: no terminal, a deadline, killed
//! as a group) instead of by kube, the rest of the build runs on a blocking thread, and
//! kube's own retries are off. Must not log credentials.

use std::path::{Path, PathBuf};
use std::time::Duration;

use std::sync::Arc;

use anyhow::{anyhow, Context as _, Result};
use base64::Engine as _;
use kube::config::{ExecAuthCluster, ExecConfig, ExecInteractiveMode, KubeConfigOptions, Kubeconfig};

use super::exec_auth::{ExecAuth, ExecAuthLayer};
use super::exec_plugin;
use super::failure::causes;

/// Deadline of one exec credential plugin run (shorter than the app's connect deadline, so
/// the plugin's own error is what the user reads).
pub const EXEC_TIMEOUT: Duration = Duration::from_secs(15);

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
///
/// The error is one sentence naming where ktui looked, with each cause said once (kube's
/// errors repeat their source in their own text): `cannot read the kubeconfig /tmp/x: No
/// such file or directory (os error 2)`; `KUBECONFIG` is named only when it is set.
pub fn load_kubeconfig(path: Option<&Path>) -> Result<Kubeconfig> {
    match path {
        Some(p) => Kubeconfig::read_from(p)
            .map_err(|e| anyhow::anyhow!("cannot read the kubeconfig {}: {}", p.display(), causes(&e))),
        None => {
            Kubeconfig::read().map_err(
                |e| match std::env::var_os("KUBECONFIG").filter(|v| !v.is_empty()) {
                    Some(v) => anyhow::anyhow!(
                        "cannot read the kubeconfig that KUBECONFIG names ({}): {}",
                        v.to_string_lossy(),
                        causes(&e)
                    ),
                    None => anyhow::anyhow!(
                        "no kubeconfig: ~/.kube/config does not exist and KUBECONFIG is not set \
                     (or use --kubeconfig PATH, or try `ktui --demo`)"
                    ),
                },
            )
        }
    }
}

/// What ktui says it is on every request (`User-Agent`): `ktui/<version> (<os>/<arch>)`, the
/// way kubectl says `kubectl/v1.37.2 (linux/amd64) kubernetes/…`, so an API server's audit log
/// and its `apiserver_request_total` tell ktui's requests from others'. The version is the
/// workspace's, which the ktui package shares (`version.workspace = true`).
pub fn user_agent() -> String {
    format!(
        "ktui/{} ({}/{})",
        env!("CARGO_PKG_VERSION"),
        std::env::consts::OS,
        std::env::consts::ARCH
    )
}

/// Makes a client built from `config` send [`user_agent`] on every request: kube adds
/// `config.headers` in its service stack, which websocket upgrades (exec, attach,
/// port-forward) go through as well. Any client ktui builds must pass here.
pub fn identify(config: &mut kube::Config) -> Result<()> {
    let value = http::HeaderValue::from_str(&user_agent()).context("the user agent")?;
    config
        .headers
        .retain(|(name, _)| name != http::header::USER_AGENT);
    config.headers.push((http::header::USER_AGENT, value));
    Ok(())
}

/// What is wrong with the context's entries before kube is asked to build from them, said as
/// kubectl says it: a user or cluster the context names but the file lacks (kube would
/// connect as `system:anonymous`, or fail with `Unable to load cluster of context`), a server
/// URL that is not one (kube: `failed to parse cluster url: invalid uri character: invalid
/// uri character`).
fn check_entries(
    kubeconfig: &Kubeconfig,
    info: &ClusterInfo,
    ctx: &kube::config::Context,
    cluster: Option<&kube::config::Cluster>,
) -> Result<()> {
    let context = &info.context;
    if let Some(user) = ctx.user.as_deref().filter(|u| !u.is_empty()) {
        if !kubeconfig.auth_infos.iter().any(|n| n.name == user) {
            return Err(anyhow!(
                "user {user:?} not found in kubeconfig (context {context:?})"
            ));
        }
    }
    if cluster.is_none() {
        return Err(anyhow!(
            "cluster {:?} not found in kubeconfig (context {context:?})",
            ctx.cluster
        ));
    }
    let server = info.server.as_str();
    if server.is_empty() {
        return Err(anyhow!("cluster {:?} has no server URL", ctx.cluster));
    }
    if let Err(e) = server.parse::<http::Uri>() {
        return Err(anyhow!(
            "cluster {:?}: host must be a URL or a host:port pair: {server:?} ({e})",
            ctx.cluster
        ));
    }
    Ok(())
}

/// Resolves the context and builds a client for it. An exec plugin of the context's user is
/// run here by [`exec_plugin::run`] (bounded by [`EXEC_TIMEOUT`]); its token is then added
/// per request by [`ExecAuthLayer`], which runs it again near `expirationTimestamp` or after
/// a 401, and a client certificate it returns is handed to kube as certificate data. kube's
/// default retry is disabled (the informers own retrying), the connect timeout is 10 s, and
/// the synchronous part of kube's build runs on a blocking thread, never on a worker. Every
/// request of the client carries [`user_agent`]. The error is one line, each cause said once.
pub async fn connect(opts: &ConnectOptions) -> Result<(kube::Client, ClusterInfo)> {
    connect_inner(opts)
        .await
        .map_err(|e| anyhow!(causes(AsRef::<dyn std::error::Error>::as_ref(&e))))
}

/// [`connect`], its causes still chained.
async fn connect_inner(opts: &ConnectOptions) -> Result<(kube::Client, ClusterInfo)> {
    let mut kubeconfig = load_kubeconfig(opts.kubeconfig.as_deref())?;
    for named in &mut kubeconfig.auth_infos {
        if let Some(exec) = named.auth_info.as_mut().and_then(|a| a.exec.as_mut()) {
            exec.interactive_mode = Some(ExecInteractiveMode::Never);
        }
    }
    let (info, ctx, cluster) = resolve(&kubeconfig, opts.context.as_deref())?;
    check_entries(&kubeconfig, &info, &ctx, cluster.as_ref())?;
    let context = info.context.clone();
    let auth = match take_exec(&mut kubeconfig, ctx.user.as_deref()) {
        None => None,
        Some((index, mut exec)) => {
            if exec.provide_cluster_info {
                let c = cluster
                    .as_ref()
                    .ok_or_else(|| anyhow!("provideClusterInfo without a cluster"))?;
                exec.cluster =
                    Some(ExecAuthCluster::try_from(c).context("cluster info for the exec plugin")?);
            }
            let status = exec_plugin::run(&exec, EXEC_TIMEOUT).await?;
            match (&status.client_certificate_data, &status.client_key_data) {
                (Some(cert), Some(key)) => {
                    // kube reads these fields base64-encoded, as in a kubeconfig.
                    let b64 = base64::engine::general_purpose::STANDARD;
                    if let Some(user) = kubeconfig
                        .auth_infos
                        .get_mut(index)
                        .and_then(|n| n.auth_info.as_mut())
                    {
                        user.client_certificate_data = Some(b64.encode(cert));
                        user.client_key_data = Some(b64.encode(key).into());
                    }
                    None
                }
                _ => Some(Arc::new(ExecAuth::new(exec, EXEC_TIMEOUT, &status)?)),
            }
        }
    };
    let options = KubeConfigOptions {
        context: Some(context),
        ..KubeConfigOptions::default()
    };
    let build = tokio::task::spawn_blocking(move || -> Result<kube::Client> {
        let rt = tokio::runtime::Handle::current();
        let mut config = rt
            .block_on(kube::Config::from_custom_kubeconfig(kubeconfig, &options))
            .context("building the client configuration")?;
        config.default_retry = false;
        config.connect_timeout = Some(Duration::from_secs(10));
        identify(&mut config)?;
        let builder = kube::client::ClientBuilder::try_from(config).context("building the client")?;
        Ok(match auth {
            Some(auth) => builder.with_layer(&ExecAuthLayer(auth)).build(),
            None => builder.build(),
        })
    });
    let client = build.await.context("building the client")??;
    Ok((client, info))
}

/// The header's facts about `context` (else the kubeconfig's `current-context`) of a merged
/// kubeconfig: the entry point from a kubeconfig to the strings ktui displays about the
/// connection. The strings are as the file has them (unsanitized: the UI sanitizes when it
/// draws). Errors: no context named, or the named context is not in the file.
pub fn cluster_info(kubeconfig: &Kubeconfig, context: Option<&str>) -> Result<ClusterInfo> {
    resolve(kubeconfig, context).map(|(info, _, _)| info)
}

/// [`cluster_info`], with the context's entry and its cluster's (for the client).
fn resolve(
    kubeconfig: &Kubeconfig,
    context: Option<&str>,
) -> Result<(ClusterInfo, kube::config::Context, Option<kube::config::Cluster>)> {
    let context = context
        .map(str::to_owned)
        .or_else(|| kubeconfig.current_context.clone())
        .ok_or_else(|| anyhow!("the kubeconfig has no current-context; pass --context"))?;
    let named = kubeconfig
        .contexts
        .iter()
        .find(|c| c.name == context)
        .ok_or_else(|| anyhow!("context {context:?} not found in the kubeconfig"))?;
    let ctx = named.context.clone().unwrap_or_default();
    let cluster = kubeconfig
        .clusters
        .iter()
        .find(|c| c.name == ctx.cluster)
        .and_then(|c| c.cluster.clone());
    let server = cluster
        .as_ref()
        .and_then(|c| c.server.clone())
        .unwrap_or_default();
    let namespace = ctx
        .namespace
        .clone()
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "default".into());
    super::key::check_namespace(&namespace)
        .map_err(|e| anyhow!("context {context:?} in the kubeconfig: {e}"))?;
    let info = ClusterInfo {
        context,
        server,
        namespace,
        contexts: kubeconfig.contexts.iter().map(|c| c.name.clone()).collect(),
    };
    Ok((info, ctx, cluster))
}

/// Every context of a kubeconfig as the contexts screen lists it, in file order: its name and
/// `[cluster, user, namespace]` (empty when the file leaves them out). Unsanitized, like
/// [`cluster_info`].
pub fn context_details(kubeconfig: &Kubeconfig) -> (Vec<String>, Vec<[String; 3]>) {
    let names = kubeconfig.contexts.iter().map(|c| c.name.clone()).collect();
    let details = kubeconfig
        .contexts
        .iter()
        .map(|c| match &c.context {
            Some(x) => [
                x.cluster.clone(),
                x.user.clone().unwrap_or_default(),
                x.namespace.clone().unwrap_or_default(),
            ],
            None => Default::default(),
        })
        .collect();
    (names, details)
}

/// Per context of [`context_details`], in the same order: the `scheme://host:port` of its
/// cluster's `server` (the path left out: two contexts on one API server under different
/// path prefixes are one cluster); empty when the cluster or its server is missing. A union
/// of `all` contexts lists each server once.
pub fn context_servers(kubeconfig: &Kubeconfig) -> Vec<String> {
    kubeconfig
        .contexts
        .iter()
        .map(|c| {
            let cluster = c.context.as_ref().map(|x| x.cluster.as_str()).unwrap_or_default();
            let server = kubeconfig
                .clusters
                .iter()
                .find(|k| k.name == cluster)
                .and_then(|k| k.cluster.as_ref())
                .and_then(|k| k.server.clone())
                .unwrap_or_default();
            match server.parse::<http::Uri>() {
                Ok(u) => match (u.scheme_str(), u.authority()) {
                    (Some(s), Some(a)) => format!("{s}://{a}"),
                    _ => server,
                },
                Err(_) => server,
            }
        })
        .collect()
}

/// Takes the `exec` section out of the kubeconfig user `user` (returning its index among
/// `users`), when kube would use it: kube prefers an auth provider, basic auth, a token or a
/// token file, so then nothing is taken.
fn take_exec(kubeconfig: &mut Kubeconfig, user: Option<&str>) -> Option<(usize, ExecConfig)> {
    let user = user?;
    let index = kubeconfig.auth_infos.iter().position(|n| n.name == user)?;
    let auth = kubeconfig.auth_infos.get_mut(index)?.auth_info.as_mut()?;
    let other = auth.auth_provider.is_some()
        || (auth.username.is_some() && auth.password.is_some())
        || auth.token.is_some()
        || auth.token_file.is_some();
    if other {
        return None;
    }
    auth.exec.take().map(|e| (index, e))
}

/// Installs rustls' ring crypto provider once per process; harmless if already installed.
pub fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

#[cfg(test)]
mod tests;
