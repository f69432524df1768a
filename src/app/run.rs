//! The event loop: await one event, drain the rest, update, attach subscriptions, draw only
//! when something changed (at most `[ui] max_fps` times a second, default 60). Owns wiring of
//! terminal, signals, client and pool; must not block on the network (the client is built in
//! a spawned task).

use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use crossterm::event::{Event as TermEvent, KeyEventKind};
use tokio::sync::mpsc::{unbounded_channel, UnboundedSender};
use tokio::time::Instant;

use crate::cli::Cli;
use crate::config::Config;
use crate::kube::builtin::BuiltinKind;
use crate::kube::client::{self, ClusterInfo};
use crate::kube::discovery_watch::{keep_current, DiscoveryConfig};
use crate::kube::informer::InformerConfig;
use crate::kube::key::ResourceKey;
use crate::kube::object::watch_object;
use crate::kube::pool::InformerPool;
use crate::kube::registry::Registry;
use crate::kube::store::StoreChanged;
use crate::terminal::TerminalGuard;

use super::command::run_command;
use super::configure;
use super::input::{on_key, on_mouse};
use super::keymap::KeyPress;
use super::state::{Conn, ListView, Screen, Source, UiState};
use super::tasks::{spawn_connect, spawn_signals, spawn_terminal_reader};
use super::update::type_char;

/// What wakes the loop.
pub enum Event {
    /// A key, resize or paste from the terminal.
    Term(TermEvent),
    /// The terminal went away (read error): exit.
    TermGone,
    /// An informer published.
    Store(StoreChanged),
    /// The kubeconfig was read: its context names and the one being connected to.
    Kubeconfig {
        generation: u64,
        contexts: Vec<String>,
        context: Option<String>,
    },
    /// The client build of connection attempt `generation` finished.
    Connected(u64, Result<(kube::Client, ClusterInfo), String>),
    /// Discovery of connection `generation` found (new) resources.
    Discovered(u64, Registry),
    /// Time passed (ages on screen may change).
    Tick,
    /// SIGTERM, SIGHUP or SIGINT.
    Signal(&'static str),
}

/// What runs on the network runtime for the context in use.
struct Session {
    /// The informers of the context, shared by every view.
    pool: InformerPool,
    /// The task keeping the registry current.
    discovery: tokio::task::AbortHandle,
    /// Wakes that task for a rediscovery.
    rediscover: Arc<tokio::sync::Notify>,
}

impl Drop for Session {
    /// However the session ends (context switch, quit, an error return), nothing of it keeps
    /// running on the network runtime.
    fn drop(&mut self) {
        self.discovery.abort();
        self.pool.shutdown();
    }
}

/// The loop's senders and settings that event handling needs.
struct Wiring<'a> {
    tx: &'a UnboundedSender<Event>,
    store_tx: &'a UnboundedSender<StoreChanged>,
    net: &'a tokio::runtime::Handle,
    generation: u64,
    informer_config: &'a InformerConfig,
}

/// Grace period before an unused informer stops.
const GRACE: Duration = Duration::from_secs(30);
/// Deadline for building the client (exec plugins included).
pub(super) const CONNECT_TIMEOUT: Duration = Duration::from_secs(20);

/// Runs ktui until the user quits; returns the exit code. The UI runs on the caller's
/// runtime; everything that talks to the API server (client build, informers) runs on `net`.
pub async fn run(cli: Cli, config: Config, net: tokio::runtime::Handle) -> Result<u8> {
    client::install_crypto_provider();
    let (tx, mut rx) = unbounded_channel::<Event>();
    spawn_signals(tx.clone());
    let mut generation = 1;
    spawn_connect(&cli, cli.context.clone(), generation, tx.clone(), &net);
    let mut state = initial_state(&cli, &config);
    let mut configured_for = state.context.clone();
    let frame = config.ui.max_fps.frame();
    let informer_config = InformerConfig {
        timeline: config.timeline(),
        ..InformerConfig::default()
    };
    if let Some(ns) = &cli.namespace {
        state.namespace = Some(ns.clone());
    }
    let mut guard = TerminalGuard::enter(config.ui.mouse)?;
    spawn_terminal_reader(tx.clone());
    let (store_tx, mut store_rx) = unbounded_channel::<StoreChanged>();
    {
        let tx = tx.clone();
        tokio::spawn(async move {
            while let Some(c) = store_rx.recv().await {
                if tx.send(Event::Store(c)).is_err() {
                    return;
                }
            }
        });
    }
    let mut session: Option<Session> = None;
    let mut dirty = true;
    let mut last_draw: Option<Instant> = None;
    let mut next_tick = Instant::now() + Duration::from_secs(1);
    loop {
        if dirty {
            let due = last_draw.map_or_else(Instant::now, |t| t + frame);
            if Instant::now() >= due {
                super::prepare::prepare(&mut state);
                let pool_ref = session.as_ref().map(|s| &s.pool);
                if matches!(state.top(), Screen::Informers { .. }) {
                    state.informers_len = pool_ref.map_or(0, |p| p.informers().len());
                }
                if state.clear {
                    // Not `Terminal::clear`: it asks the terminal for the cursor position,
                    // whose answer our own input reader would swallow (a 2 s stall, then an
                    // error). Clear the screen and blank both buffers for a full redraw.
                    use ratatui::backend::Backend;
                    guard.terminal.backend_mut().clear()?;
                    guard.terminal.current_buffer_mut().reset();
                    guard.terminal.swap_buffers();
                    state.clear = false;
                }
                let now = jiff::Timestamp::now().as_second();
                let mut page_rows = state.page_rows;
                guard.terminal.draw(|f| {
                    page_rows = crate::ui::draw(f, &state, pool_ref, now);
                })?;
                state.page_rows = page_rows;
                last_draw = Some(Instant::now());
                dirty = false;
                next_tick = Instant::now() + crate::ui::refresh_interval(&state, now);
            }
        }
        let frame_due = last_draw.map_or_else(Instant::now, |t| t + frame);
        let ev = tokio::select! {
            ev = rx.recv() => match ev { Some(ev) => ev, None => break },
            _ = tokio::time::sleep_until(frame_due), if dirty => continue,
            _ = tokio::time::sleep_until(next_tick), if !dirty => Event::Tick,
        };
        // The event that woke us, then everything else already queued.
        let mut next = Some(ev);
        while let Some(ev) = next {
            let wiring = Wiring {
                tx: &tx,
                store_tx: &store_tx,
                net: &net,
                generation,
                informer_config: &informer_config,
            };
            dirty |= handle(&mut state, &mut session, ev, &wiring);
            next = rx.try_recv().ok();
        }
        if std::mem::take(&mut state.save_yaml) {
            super::save::save(&mut state);
        }
        if let Some(context) = state.switch_to.take() {
            // Context switch: every informer of the old context stops now; results of the
            // old connection attempt are recognised by their generation and dropped.
            drop(session.take());
            generation += 1;
            reset_for_context(&mut state, &context);
            spawn_connect(&cli, Some(context), generation, tx.clone(), &net);
            dirty = true;
        }
        if state.context != configured_for {
            // Per-context theme, read-only and favourites of `[context."name"]`.
            configured_for = state.context.clone();
            configure::apply(&mut state, &config, configured_for.as_deref(), cli.readonly);
            dirty = true;
        }
        if let Some(s) = &session {
            attach(&mut state, &s.pool, &store_tx);
            if std::mem::take(&mut state.rediscover) {
                s.rediscover.notify_one();
            }
        }
        if let Some(code) = state.quit {
            drop(session.take());
            drop(guard);
            return Ok(code);
        }
    }
    Ok(0)
}

fn initial_state(cli: &Cli, config: &Config) -> UiState {
    let ns = if cli.all_namespaces {
        None
    } else {
        cli.namespace.clone()
    };
    let first = Screen::List(Box::new(ListView::new(
        ResourceKey::new(BuiltinKind::Pod, ns.as_deref()),
        None,
    )));
    let mut state = UiState::new(first, ns, cli.readonly);
    state.explicit_all = cli.all_namespaces;
    state.context = cli.context.clone();
    configure::apply(&mut state, config, cli.context.as_deref(), cli.readonly);
    run_command(
        &mut state,
        cli.command.as_deref().unwrap_or(&config.ui.default_view),
    );
    state
}

/// Handles one event; returns whether the screen may have changed.
fn handle(state: &mut UiState, session: &mut Option<Session>, ev: Event, w: &Wiring) -> bool {
    let generation = w.generation;
    match ev {
        Event::Term(TermEvent::Key(k)) if k.kind != KeyEventKind::Release => {
            on_key(state, KeyPress::from_event(k));
            true
        }
        Event::Term(TermEvent::Paste(text)) => {
            for c in text.chars().filter(|c| !c.is_control()) {
                type_char(state, c);
            }
            true
        }
        Event::Term(TermEvent::Resize(..)) => true,
        Event::Term(TermEvent::Mouse(m)) => on_mouse(state, m),
        Event::Term(_) => false,
        Event::TermGone | Event::Signal(_) => {
            state.quit = Some(0);
            true
        }
        Event::Store(changed) => visible_keys(state).contains(&changed.key),
        Event::Tick => true,
        Event::Kubeconfig {
            generation: g,
            contexts,
            context,
        } => {
            if g == generation {
                state.contexts = contexts;
                state.context = context;
            }
            true
        }
        Event::Connected(g, _) if g != generation => false,
        Event::Connected(_, Ok((client, info))) => {
            adopt_namespace(state, &info);
            let tx = w.tx.clone();
            let rediscover = Arc::new(tokio::sync::Notify::new());
            let publish = move |reg| {
                let _ = tx.send(Event::Discovered(generation, reg));
            };
            let task = keep_current(
                client.clone(),
                DiscoveryConfig::default(),
                rediscover.clone(),
                publish,
            );
            let discovery = w.net.spawn(task).abort_handle();
            let pool = InformerPool::new_on(
                w.net.clone(),
                client,
                Arc::new(crate::table::TableDecoders),
                w.store_tx.clone(),
                w.informer_config.clone(),
                GRACE,
            );
            *session = Some(Session {
                pool,
                discovery,
                rediscover,
            });
            state.conn = Conn::Connected(info);
            true
        }
        Event::Discovered(g, registry) => {
            if g == generation {
                super::discovered::adopt(state, registry);
            }
            g == generation
        }
        Event::Connected(_, Err(e)) => {
            state.conn = Conn::Failed(e);
            true
        }
    }
}

/// Without `-n`/`-A`, views opened before the client was ready get the context's namespace.
fn adopt_namespace(state: &mut UiState, info: &ClusterInfo) {
    if state.namespace.is_some() || state.explicit_all {
        return;
    }
    state.namespace = Some(info.namespace.clone());
    for s in &mut state.stack {
        if let Screen::List(l) = s {
            if l.key.kind.namespaced() && l.key.namespace.is_none() && l.source.is_none() {
                l.key.namespace = Some(Arc::from(info.namespace.as_str()));
            }
        }
    }
}

/// The keys whose changes show on screen: the list's, or the YAML/describe view's object
/// and events.
fn visible_keys(state: &UiState) -> Vec<ResourceKey> {
    match state.top() {
        Screen::Yaml(y) => {
            let object = y.watch.as_ref().map(|w| w.key.clone());
            let events = y.events.as_ref().map(|s| s.served_by.clone());
            object.into_iter().chain(events).collect()
        }
        _ => state
            .top_list()
            .and_then(|l| l.source.as_ref().map(|s| s.served_by.clone()))
            .into_iter()
            .collect(),
    }
}

/// Subscribes views that have no subscription yet; views popped off the stack dropped theirs.
fn attach(state: &mut UiState, pool: &InformerPool, store_tx: &UnboundedSender<StoreChanged>) {
    for s in &mut state.stack {
        match s {
            Screen::List(l) if l.source.is_none() => {
                l.source = Some(Source::subscribed(pool.subscribe(l.key.clone())));
            }
            Screen::Yaml(y) if y.watch.is_none() || (y.describe && y.events.is_none()) => {
                if let Some(key) = y.events_key().filter(|_| y.events.is_none()) {
                    y.events = Some(Source::subscribed(pool.subscribe(key)));
                }
                if y.watch.is_some() {
                    continue;
                }
                let client = pool.client().clone();
                y.watch = Some(watch_object(
                    pool.runtime(),
                    client,
                    y.key.clone(),
                    &y.name,
                    store_tx.clone(),
                ));
            }
            _ => {}
        }
    }
}

/// After a context switch: a fresh pods view in the new context's namespace, nothing stale.
/// Coming back to a context restores the namespace last used there (k9s does the same).
fn reset_for_context(state: &mut UiState, context: &str) {
    if let Some(old) = state.context.take() {
        let scope = (state.namespace.take(), state.explicit_all);
        state.last_namespace.insert(old, scope);
    }
    let (namespace, explicit_all) = state.last_namespace.get(context).cloned().unwrap_or_default();
    state.conn = Conn::Connecting;
    state.context = Some(context.to_owned());
    state.namespace = namespace;
    state.explicit_all = explicit_all;
    state.detail = None;
    state.registry = Arc::new(Registry::builtins());
    state.pending_command = None;
    let first = ListView::new(
        ResourceKey::new(BuiltinKind::Pod, state.namespace.as_deref()),
        None,
    );
    state.stack = vec![Screen::List(Box::new(first))];
}
