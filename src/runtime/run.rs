//! The event loop: await one event, drain the rest, update, execute the effects the update
//! returned (in one `match`, `Wiring::execute` in effects.rs), draw only when something
//! changed (at most `[ui] max_fps` times a second, default 60). Owns wiring of terminal,
//! signals, client and pool, and every subscription and object watch, kept by view id; must
//! not block on the network (the client is built in a spawned task).

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use crossterm::event::Event as TermEvent;
use tokio::sync::mpsc::{unbounded_channel, UnboundedSender};
use tokio::time::Instant;

use crate::cli::Cli;
use crate::config::values::StreamingMode;
use crate::config::Config;
use crate::kube::builtin::BuiltinKind;
use crate::kube::client::{self, ClusterInfo};
use crate::kube::history::{History, HistoryConfig};
use crate::kube::informer::InformerConfig;
use crate::kube::key::ResourceKey;
use crate::kube::object::ObjectWatch;
use crate::kube::pool::{InformerPool, Subscription};
use crate::kube::registry::Registry;
use crate::kube::store::StoreChanged;
use crate::terminal::TerminalGuard;

use crate::app::command::run_command;
use crate::app::configure;
use crate::app::effect::Effect;
use crate::app::state::{ListState, Screen, UiState, ViewId};
use crate::runtime::tasks::{spawn_connect, spawn_signals, spawn_terminal_reader};

/// What wakes the loop.
pub enum Event {
    /// A key, resize or paste from the terminal.
    Term(TermEvent),
    /// A key that waited for its view's rows (`Wiring::held`), applied now.
    Released(TermEvent),
    /// The terminal went away (read error): exit.
    TermGone,
    /// An informer published.
    Store(StoreChanged),
    /// A metrics poll published (the lists showing usage redraw).
    Metrics,
    /// The kubeconfig was read: its context names and the one being connected to.
    Kubeconfig {
        generation: u64,
        contexts: Vec<String>,
        context: Option<String>,
        /// `[cluster, user, namespace]` per context (see `Connection::context_details`).
        details: Vec<[String; 3]>,
        /// The API server per context (see `Connection::context_servers`).
        servers: Vec<String>,
    },
    /// The client build of connection attempt `generation` finished.
    Connected(u64, Result<(kube::Client, ClusterInfo), String>),
    /// A union member's client build (union generation, origin) finished.
    MemberConnected(u64, u16, Result<(kube::Client, ClusterInfo), String>),
    /// Discovery of connection `generation` found (new) resources.
    Discovered(u64, Registry),
    /// Time passed (ages on screen may change).
    Tick,
    /// SIGTERM, SIGHUP or SIGINT, by its number: ktui exits with `128 + number`, as a shell
    /// reports a process a signal ended (143, 129, 130).
    Signal(i32),
    /// Log view `id` has new lines or stream states (coalesced: one until it is drawn).
    Logs(ViewId),
    /// A write, an RBAC answer, a drain step or revisions came back (see `runtime::writes`).
    Write(crate::app::outcome::WriteEvent),
    /// An exec/attach session was prepared (`Effect::PrepareSession`).
    SessionPrepared(Box<crate::app::session::model::Prepared>),
    /// A port-forward changed state or connections (coalescing is the draw's).
    Forwards,
    /// A copy finished: where the text went, or why it did not (`runtime::clipboard`).
    Copied(Result<String, String>),
    /// The ports of a `shift-f` target were read (`Effect::OfferForward`).
    ForwardOffer(Box<crate::app::forwards::model::Offer>, Result<Vec<u16>, String>),
    /// A background plugin ended (`Effect::RunPlugin`).
    PluginDone(Box<crate::app::plugins::model::PluginDone>),
    /// The RBAC objects `:can` view `id` asked for (`Effect::FetchRbac`).
    Rbac(ViewId, Box<crate::kube::rbac::Policy>),
}

/// What runs on the network runtime for the context in use. Dropped as a whole on a context
/// switch or exit: every informer, watch and discovery task of the context stops.
pub(crate) struct Session {
    /// The informers of the context, shared by every view.
    pub(crate) pool: InformerPool,
    /// The task keeping the registry current.
    pub(crate) discovery: tokio::task::AbortHandle,
    /// Wakes that task for a rediscovery.
    pub(crate) rediscover: Arc<tokio::sync::Notify>,
    /// What feeds each view on the stack, by view id: the loop owns these, not the views.
    pub(crate) feeds: HashMap<ViewId, Held>,
    /// The context's port-forwards: they stop with the session (context switch, quit).
    pub(crate) forwards: crate::kube::portforward::PortForwards,
    /// The context's metrics polls (`None` with `[metrics] enabled = false`).
    pub(crate) metrics: Option<crate::kube::metrics::MetricsPool>,
}

/// What the loop holds for one view: its informer subscriptions (a list's rows, a describe
/// view's events) and its object watch. Dropping it releases them.
#[derive(Default)]
pub(crate) struct Held {
    pub(crate) subs: Vec<Subscription>,
    pub(crate) watch: Option<ObjectWatch>,
    pub(crate) logs: Option<crate::kube::logs::LogFeed>,
    pub(crate) rollout: Option<crate::kube::history::rollout_watch::RolloutWatch>,
    /// A pods or nodes list's metrics poll.
    pub(crate) metrics: Option<crate::kube::metrics::MetricsSubscription>,
}

impl Drop for Session {
    /// However the session ends (context switch, quit, an error return), nothing of it keeps
    /// running on the network runtime.
    fn drop(&mut self) {
        self.discovery.abort();
        self.pool.shutdown();
        if let Some(m) = &self.metrics {
            m.shutdown();
        }
    }
}

/// The loop's wiring: senders, the connection attempt in force and its session.
pub(crate) struct Wiring<'a> {
    pub(crate) cli: &'a Cli,
    pub(crate) config: &'a Config,
    /// The union's members besides the context in use (`runtime::fleet`).
    pub(crate) fleet: Vec<crate::runtime::fleet::Member>,
    /// Bumped per union opened or closed: members' late answers are dropped.
    pub(crate) fleet_generation: u64,
    pub(crate) tx: UnboundedSender<Event>,
    pub(crate) store_tx: UnboundedSender<StoreChanged>,
    pub(crate) net: tokio::runtime::Handle,
    pub(crate) informer_config: InformerConfig,
    /// The connection attempt in force; results of older ones are dropped.
    pub(crate) generation: u64,
    /// Its client build while under way (aborted by a context switch).
    pub(crate) connecting: Option<tokio::task::AbortHandle>,
    pub(crate) session: Option<Session>,
    /// Repaint the whole terminal at the next draw.
    pub(crate) clear: bool,
    /// The drain in progress, to cancel it.
    pub(crate) drain: Option<tokio::task::AbortHandle>,
    /// Jobs waiting for the terminal (`Effect::HandOver`), run by the loop in order.
    pub(crate) handovers: VecDeque<Box<crate::app::handover::Handover>>,
    /// Events that arrived while the terminal was lent, handled before new ones.
    pub(crate) backlog: VecDeque<Event>,
    /// Keys waiting, in order, for the rows they act on (`app::input::waits`), and since
    /// when the first of them waits (bounded by `HOLD_LIMIT`).
    pub(crate) held: VecDeque<TermEvent>,
    pub(crate) held_since: Option<Instant>,
    /// `[history]` bounds.
    pub(crate) history_config: HistoryConfig,
    /// Each context's revision history, by context name.
    pub(crate) histories: HashMap<String, Arc<History>>,
    /// `[metrics]` poll tunables; `None` when `enabled = false`.
    pub(crate) metrics_config: Option<crate::kube::metrics::MetricsConfig>,
    /// Where metrics polls say they published.
    pub(crate) metrics_tx: UnboundedSender<crate::kube::metrics::MetricsChanged>,
}

/// Grace period before an unused informer stops.
pub(crate) const GRACE: Duration = Duration::from_secs(30);
/// Deadline for building the client (exec plugins included).
pub(crate) const CONNECT_TIMEOUT: Duration = Duration::from_secs(20);

/// Runs ktui until the user quits; returns the exit code. The UI runs on the caller's
/// runtime; everything that talks to the API server (client build, informers) runs on `net`.
pub async fn run(cli: Cli, config: Config, net: tokio::runtime::Handle) -> Result<u8> {
    client::install_crypto_provider();
    let (tx, mut rx) = unbounded_channel::<Event>();
    spawn_signals(tx.clone());
    let (store_tx, mut store_rx) = unbounded_channel::<StoreChanged>();
    let (metrics_tx, mut metrics_rx) = unbounded_channel::<crate::kube::metrics::MetricsChanged>();
    let mut w = Wiring {
        cli: &cli,
        config: &config,
        fleet: Vec::new(),
        fleet_generation: 0,
        tx: tx.clone(),
        store_tx,
        net: net.clone(),
        informer_config: InformerConfig {
            timeline: config.timeline(),
            bookmark_interval: config.watch.bookmark_interval.0,
            stale_intervals: config.watch.stale_intervals,
            verify_every: config.watch.verify_every.0,
            streaming: config.watch.streaming_lists.any().then(Default::default),
            stream_json: config.watch.streaming_lists == StreamingMode::Always,
            streaming_idle: config.watch.streaming_idle.0,
            protobuf: config.watch.protobuf.then(Default::default),
            ..InformerConfig::default()
        },
        generation: 1,
        connecting: None,
        session: None,
        clear: false,
        drain: None,
        handovers: VecDeque::new(),
        backlog: VecDeque::new(),
        held: VecDeque::new(),
        held_since: None,
        history_config: config.history(),
        histories: HashMap::new(),
        metrics_config: config.metrics.poll(),
        metrics_tx,
    };
    w.connecting = Some(spawn_connect(
        &cli,
        cli.first_context(),
        w.generation,
        tx.clone(),
        &net,
    ));
    let (mut state, first) = initial_state(&cli, &config);
    let mut configured_for = state.conn.context.clone();
    let frame = config.ui.max_fps.frame();
    if let Some(ns) = &cli.namespace {
        state.conn.namespace = Some(ns.clone());
    }
    let mut guard = TerminalGuard::enter(config.ui.mouse)?;
    let mut reader = Some(spawn_terminal_reader(tx.clone()));
    let store_fwd = tx.clone();
    tokio::spawn(async move {
        while let Some(c) = store_rx.recv().await {
            if store_fwd.send(Event::Store(c)).is_err() {
                return;
            }
        }
    });
    let metrics_fwd = tx.clone();
    tokio::spawn(async move {
        while metrics_rx.recv().await.is_some() {
            if metrics_fwd.send(Event::Metrics).is_err() {
                return;
            }
        }
    });
    if let Some(code) = w.execute(&mut state, first) {
        return Ok(code);
    }
    let mut dirty = true;
    // Input changed the screen: drawn at once, not at the frame cap's next slot (the cap is for
    // what the cluster sends; keys come at human rates).
    let mut typed = false;
    let mut last_draw: Option<Instant> = None;
    let mut next_tick = Instant::now() + Duration::from_secs(1);
    loop {
        if dirty {
            let due = last_draw.map_or_else(Instant::now, |t| t + frame);
            if typed || Instant::now() >= due {
                typed = false;
                let size = guard.terminal.size()?;
                state.screens.layout.page_rows = crate::ui::page_rows(size.into(), &state);
                state.screens.layout.page_cols = crate::ui::page_cols(size.into(), &state);
                let at = jiff::Timestamp::now().as_second();
                (state.screens.layout.detail_max, state.screens.layout.detail_hmax) =
                    crate::ui::detail_max(size.into(), &state, at);
                crate::app::refresh_top::refresh_top(&mut state);
                // The RBAC gate asks, in the background, about what this view could offer.
                let asks = crate::app::writes::access::wanted(&mut state, std::time::Instant::now());
                w.execute(&mut state, asks.into_iter().map(Effect::CheckAccess).collect());
                // Inside a union, every member's informers too (`:informers` names each one's).
                let informers = match state.top() {
                    Screen::Informers { .. } => {
                        let members = w.fleet.iter().filter_map(|m| m.session.as_ref());
                        w.session
                            .iter()
                            .chain(members)
                            .flat_map(|s| s.pool.informers())
                            .collect()
                    }
                    _ => Vec::new(),
                };
                state.screens.layout.informers_len = informers.len();
                state.screens.layout.metrics_polls = match (state.top(), &w.session) {
                    (Screen::Informers { .. }, Some(s)) => {
                        s.metrics.as_ref().map(|m| m.infos()).unwrap_or_default()
                    }
                    _ => Vec::new(),
                };
                state.screens.layout.forwards = w.forwards();
                if std::mem::take(&mut w.clear) {
                    // Not `Terminal::clear`: it asks the terminal for the cursor position,
                    // whose answer our own input reader would swallow (a 2 s stall, then an
                    // error). Clear the screen and blank both buffers for a full redraw.
                    use ratatui::backend::Backend;
                    guard.terminal.backend_mut().clear()?;
                    guard.terminal.current_buffer_mut().reset();
                    guard.terminal.swap_buffers();
                }
                let now = jiff::Timestamp::now().as_second();
                guard
                    .terminal
                    .draw(|f| crate::ui::draw(f, &state, &informers, now))?;
                last_draw = Some(Instant::now());
                dirty = crate::app::logs::update::unfinished(&state);
                next_tick = Instant::now() + crate::ui::refresh_interval(&state, now);
            }
        }
        let frame_due = last_draw.map_or_else(Instant::now, |t| t + frame);
        let held_due = w.held_since.map(|t| t + crate::runtime::events::HOLD_LIMIT);
        let ev = match w.release(&state).or_else(|| w.backlog.pop_front()) {
            Some(ev) => ev,
            None => tokio::select! {
                ev = rx.recv() => match ev { Some(ev) => ev, None => break },
                _ = tokio::time::sleep_until(frame_due), if dirty => continue,
                _ = tokio::time::sleep_until(next_tick), if !dirty => Event::Tick,
                _ = tokio::time::sleep_until(held_due.unwrap_or(next_tick)), if held_due.is_some() => Event::Tick,
            },
        };
        // The event that woke us, then everything else already queued.
        let mut next = Some(ev);
        while let Some(ev) = next {
            let input = matches!(ev, Event::Term(_) | Event::Released(_));
            let (changed, effects) = w.handle(&mut state, ev);
            typed |= input && (changed || !effects.is_empty());
            dirty |= changed || !effects.is_empty();
            if let Some(code) = w.execute(&mut state, effects) {
                let held = std::mem::take(&mut w.histories);
                return Ok(crate::runtime::quit::leave(
                    code,
                    guard,
                    w.session.take(),
                    state,
                    held,
                ));
            }
            // Keys that waited go first, as soon as their rows are there (or waited too long).
            next = w
                .release(&state)
                .or_else(|| w.backlog.pop_front())
                .or_else(|| rx.try_recv().ok());
        }
        while let Some(h) = w.handovers.pop_front() {
            // The reader would steal the job's stdin: stopped for the job, restarted after.
            if let Some(r) = reader.take() {
                r.stop().await;
            }
            // A session from a union row runs in that row's cluster.
            let context = match &h.job {
                crate::app::handover::Job::Session(s) => s.target.context.clone(),
                crate::app::handover::Job::Command(_) => None,
            };
            let cluster = w
                .session_for(&state, context.as_deref())
                .map(|s| (s.pool.client().clone(), s.pool.runtime().clone()));
            let outcome =
                crate::runtime::handover::run(&h, &mut rx, &mut w.backlog, config.ui.mouse, cluster).await;
            tracing::info!(job = %h.label, outcome = %outcome.words(), backlog = w.backlog.len(), "terminal taken back");
            reader = Some(spawn_terminal_reader(tx.clone()));
            w.clear = true;
            dirty = true;
            let read = match &h.then {
                crate::app::handover::Then::Edit(path) => Some(crate::runtime::files::read(path)),
                crate::app::handover::Then::Note => None,
            };
            let effects = crate::app::outcome::handed_back(&mut state, &h, &outcome, read);
            if let Some(code) = w.execute(&mut state, effects) {
                let held = std::mem::take(&mut w.histories);
                return Ok(crate::runtime::quit::leave(
                    code,
                    guard,
                    w.session.take(),
                    state,
                    held,
                ));
            }
        }
        if state.conn.context != configured_for {
            // Per-context theme, read-only and favourites of `[context."name"]`.
            configured_for = state.conn.context.clone();
            configure::apply(&mut state, &config, configured_for.as_deref(), cli.readonly);
            dirty = true;
        }
    }
    Ok(0)
}

/// The state at start and the effects of the command given on the command line (or the
/// configured default view).
pub(crate) fn initial_state(cli: &Cli, config: &Config) -> (UiState, Vec<Effect>) {
    let ns = if cli.all_namespaces {
        None
    } else {
        cli.namespace.clone()
    };
    let first = Screen::List(Box::new(ListState::new(
        ResourceKey::new(BuiltinKind::Pod, ns.as_deref()),
        None,
    )));
    let mut state = UiState::new(first, ns, cli.readonly);
    state.screens.prompt.history = crate::runtime::files::load_history();
    state.settings.dirs = crate::runtime::files::dirs();
    state.conn.explicit_all = cli.all_namespaces;
    state.conn.context = cli.first_context();
    let first_context = state.conn.context.clone();
    configure::apply(&mut state, config, first_context.as_deref(), cli.readonly);
    // `$KUBECONFIG` of plugins: the file ktui reads (with `--demo`, the demo's temporary
    // kubeconfig, so a plugin's kubectl talks to the demo cluster and never to the user's).
    state.settings.plugins.kubeconfig = cli
        .kubeconfig
        .as_ref()
        .map(|p| p.display().to_string())
        .or_else(|| std::env::var("KUBECONFIG").ok());
    let effects = run_command(
        &mut state,
        cli.command.as_deref().unwrap_or(&config.ui.default_view),
    );
    crate::app::plugins::announce(&mut state, config);
    // The placeholder view the first command replaced is no place to go back to.
    state.screens.stack.nav.clear();
    (state, effects)
}

/// The exit status after signal `number`: `128 + number`, as shells report it (SIGTERM 143,
/// SIGHUP 129, SIGINT 130); 128 for a number that does not fit a status byte.
pub(crate) fn signal_exit_code(number: i32) -> u8 {
    u8::try_from(number)
        .ok()
        .and_then(|n| n.checked_add(128))
        .unwrap_or(128)
}

#[cfg(test)]
mod signal_tests {
    use super::signal_exit_code;

    #[test]
    fn exit_code_is_128_plus_the_signal_number() {
        assert_eq!(signal_exit_code(15), 143);
        assert_eq!(signal_exit_code(1), 129);
        assert_eq!(signal_exit_code(2), 130);
        assert_eq!(signal_exit_code(200), 128);
        assert_eq!(signal_exit_code(-1), 128);
    }
}
