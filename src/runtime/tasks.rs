//! The loop's background sources, each a task sending [`Event`]s: the client build (off the
//! UI task, with its own deadline), the terminal reader and the signal handlers. Owns their
//! spawning; must not touch UI state.

use tokio::sync::mpsc::UnboundedSender;

use crate::cli::Cli;
use crate::kube::client::{self, ConnectOptions};
use crate::terminal::EventReader;

use crate::runtime::run::{Event, CONNECT_TIMEOUT};

/// Reads the kubeconfig and builds the client of `context` on `net`; sends
/// [`Event::Kubeconfig`] then [`Event::Connected`] tagged with `generation`. Aborting the
/// returned handle (a context switch) drops the attempt, which kills an exec auth plugin
/// still running for it.
pub(crate) fn spawn_connect(
    cli: &Cli,
    context: Option<String>,
    generation: u64,
    tx: UnboundedSender<Event>,
    net: &tokio::runtime::Handle,
) -> tokio::task::AbortHandle {
    let opts = ConnectOptions {
        kubeconfig: cli.kubeconfig.clone(),
        context,
    };
    let task = net.spawn(async move {
        // Read here, off the UI task: KUBECONFIG may name slow files.
        if let Ok(kc) = client::load_kubeconfig(opts.kubeconfig.as_deref()) {
            let (contexts, details) = client::context_details(&kc);
            let servers = client::context_servers(&kc);
            let context = opts.context.clone().or(kc.current_context);
            let _ = tx.send(Event::Kubeconfig {
                generation,
                contexts,
                context,
                details,
                servers,
            });
        }
        // Exec plugins run as child processes awaited asynchronously and kube's synchronous
        // build runs on a blocking thread (`client::connect`), so no worker thread is held
        // and this deadline always fires.
        let res = match tokio::time::timeout(CONNECT_TIMEOUT, client::connect(&opts)).await {
            Ok(Ok(ok)) => Ok(ok),
            Ok(Err(e)) => Err(format!("{e:#}")),
            Err(_) => Err(format!(
                "building the client took over {}s",
                CONNECT_TIMEOUT.as_secs()
            )),
        };
        let _ = tx.send(Event::Connected(generation, res));
    });
    task.abort_handle()
}

/// Forwards terminal events; [`Event::TermGone`] when the terminal cannot be read. The
/// loop stops the reader while the terminal is lent to a job (`app::handover`).
pub(crate) fn spawn_terminal_reader(tx: UnboundedSender<Event>) -> EventReader {
    EventReader::start(move |ev| match ev {
        Some(ev) => tx.send(Event::Term(ev)).is_ok(),
        None => {
            let _ = tx.send(Event::TermGone);
            false
        }
    })
}

/// Turns SIGTERM, SIGHUP and SIGINT into [`Event::Signal`].
pub(crate) fn spawn_signals(tx: UnboundedSender<Event>) {
    use tokio::signal::unix::{signal, SignalKind};
    for kind in [
        SignalKind::terminate(),
        SignalKind::hangup(),
        SignalKind::interrupt(),
    ] {
        let tx = tx.clone();
        let number = kind.as_raw_value();
        if let Ok(mut s) = signal(kind) {
            tokio::spawn(async move {
                if s.recv().await.is_some() {
                    let _ = tx.send(Event::Signal(number));
                }
            });
        }
    }
}
