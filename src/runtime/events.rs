//! The loop's events applied to the state: a key, a paste, the mouse, a store change, a
//! write's answer, a prepared session, a connection, discovery. Owns the translation from
//! what happened to the app's entry points (`input`, `outcome`, `context`, `discovered`);
//! must not draw nor run effects (the loop executes what comes back).

use crossterm::event::{Event as TermEvent, KeyEventKind};

use crate::app::context::connect::connected;
use crate::app::effect::Effect;
use crate::app::input::{on_key, on_mouse};
use crate::app::state::{Conn, Screen, UiState};
use crate::app::update::type_char;
use crate::keys::KeyPress;
use crate::kube::key::ResourceKey;

use super::run::{signal_exit_code, Event, Wiring};

impl Wiring<'_> {
    /// Handles one event; returns whether the screen may have changed and the effects the
    /// state transition asks for.
    pub(crate) fn handle(&mut self, state: &mut UiState, ev: Event) -> (bool, Vec<Effect>) {
        let generation = self.generation;
        match ev {
            Event::Term(TermEvent::Key(k)) if k.kind != KeyEventKind::Release => {
                let key = KeyPress::from_event(k);
                if crate::app::input::waits(state, key, !self.held.is_empty()) {
                    self.hold(TermEvent::Key(k));
                    return (false, Vec::new());
                }
                // The rows of a view switched to a moment ago, not only at the next draw.
                crate::app::refresh_top::refresh_top(state);
                (true, on_key(state, key))
            }
            Event::Term(ev @ TermEvent::Paste(_)) if !self.held.is_empty() => {
                self.hold(ev);
                (false, Vec::new())
            }
            Event::Released(TermEvent::Key(k)) => {
                crate::app::refresh_top::refresh_top(state);
                (true, on_key(state, KeyPress::from_event(k)))
            }
            Event::Released(ev) => self.handle(state, Event::Term(ev)),
            Event::Term(TermEvent::Paste(text)) => {
                let mut effects = Vec::new();
                for c in text.chars().filter(|c| !c.is_control()) {
                    effects.extend(type_char(state, c));
                }
                (true, effects)
            }
            Event::Term(TermEvent::Resize(..)) => (true, Vec::new()),
            Event::Term(TermEvent::Mouse(m)) => match mouse(m).and_then(|m| on_mouse(state, m)) {
                Some(effects) => (true, effects),
                None => (false, Vec::new()),
            },
            Event::Term(_) => (false, Vec::new()),
            Event::TermGone => (true, vec![Effect::Quit(0)]),
            Event::Signal(number) => (true, vec![Effect::Quit(signal_exit_code(number))]),
            Event::Store(changed) => (visible_keys(state).contains(&changed.key), Vec::new()),
            // Polls publish every interval: only a view showing usage (or the polls) redraws.
            Event::Metrics => (
                state.top_list().is_some_and(|l| l.usage.is_some())
                    || matches!(state.top(), Screen::Containers(c) if c.usage.is_some())
                    || matches!(state.top(), Screen::Informers { .. }),
                Vec::new(),
            ),
            Event::Tick => (true, Vec::new()),
            Event::Logs(id) => (state.top_id() == id, Vec::new()),
            Event::Write(e) => {
                // Which answer came back, and whether an edit was waiting for it (the edit
                // e2e once saw a replace answered but its footer never updated).
                if let crate::app::outcome::WriteEvent::Replaced(r) = &e {
                    tracing::info!(
                        ok = r.is_ok(),
                        editing = state.screens.overlays.edit.is_some(),
                        "replace answered"
                    );
                }
                (true, crate::app::outcome::apply(state, e))
            }
            Event::SessionPrepared(p) => (true, crate::app::session::prepared(state, *p)),
            // The `:pf` rows and the header's count.
            Event::Forwards => (true, Vec::new()),
            Event::Copied(result) => {
                crate::app::outcome::copied(state, result);
                (true, Vec::new())
            }
            Event::PluginDone(done) => {
                crate::app::plugins::finished(state, *done);
                (true, Vec::new())
            }
            Event::Rbac(id, policy) => {
                crate::app::can::answered(state, id, *policy);
                (true, Vec::new())
            }
            Event::ForwardOffer(o, ports) => {
                crate::app::forwards::offered(state, *o, ports);
                (true, Vec::new())
            }
            Event::Kubeconfig {
                generation: g,
                contexts,
                context,
                details,
                servers,
            } => {
                if g != generation {
                    return (false, Vec::new());
                }
                let config = self.config;
                let cli_readonly = self.cli.readonly;
                state.conn.readonly_contexts = contexts
                    .iter()
                    .filter(|c| cli_readonly || config.readonly_for(Some(c.as_str())))
                    .cloned()
                    .collect();
                state.conn.contexts = contexts;
                state.conn.context = context;
                state.conn.context_details = details;
                state.conn.context_servers = servers;
                // `--context a,b` or `--all-contexts`: the union opens once the names are known.
                if g == 1 && state.conn.fleet.is_none() {
                    if let Some(arg) = self.cli.union_arg() {
                        crate::app::fleet::open::from_command_line(state, &arg);
                        return (true, state.take_effects());
                    }
                }
                (true, Vec::new())
            }
            Event::MemberConnected(g, origin, res) => {
                let effects = self.member_connected(state, g, origin, res);
                (true, effects)
            }
            Event::Connected(g, _) if g != generation => (false, Vec::new()),
            Event::Connected(_, Ok((client, info))) => {
                self.start_session(client);
                self.record_history(state.conn.context.clone());
                let effects = connected(state, info);
                crate::app::fleet::open::primary_status(state);
                (true, effects)
            }
            Event::Discovered(g, registry) if g == generation => {
                if let Some(m) = self.session.as_ref().and_then(|s| s.metrics.as_ref()) {
                    m.set_registry(&registry);
                }
                (true, crate::app::discovered::adopt(state, registry))
            }
            Event::Discovered(..) => (false, Vec::new()),
            Event::Connected(_, Err(e)) => {
                state.conn.status = Conn::Failed(e);
                crate::app::fleet::open::primary_status(state);
                (true, Vec::new())
            }
        }
    }
}

/// How long keys wait for their view's rows (`app::input::waits`) before they are applied
/// anyway: a view that never loads must not swallow them.
pub(crate) const HOLD_LIMIT: std::time::Duration = std::time::Duration::from_secs(3);

impl Wiring<'_> {
    /// Puts a key behind those already waiting.
    fn hold(&mut self, ev: TermEvent) {
        if self.held.is_empty() {
            self.held_since = Some(tokio::time::Instant::now());
        }
        self.held.push_back(ev);
    }

    /// The first waiting key, when it may go: its rows are there, or the wait ran out (then
    /// every waiting key goes, in order).
    pub(crate) fn release(&mut self, state: &UiState) -> Option<Event> {
        let front = self.held.front()?;
        let expired = self.held_since.is_none_or(|t| t.elapsed() >= HOLD_LIMIT);
        let go = match front {
            TermEvent::Key(k) => expired || !crate::app::input::waits(state, KeyPress::from_event(*k), false),
            _ => true,
        };
        if !go {
            return None;
        }
        let ev = self.held.pop_front()?;
        if self.held.is_empty() {
            self.held_since = None;
        } else if !expired {
            // Progress: the next key's wait starts now.
            self.held_since = Some(tokio::time::Instant::now());
        }
        Some(Event::Released(ev))
    }
}

/// The mouse events the app acts on, in its words.
fn mouse(m: crossterm::event::MouseEvent) -> Option<crate::app::input::Mouse> {
    use crate::app::input::Mouse;
    use crossterm::event::{MouseButton, MouseEventKind};
    match m.kind {
        MouseEventKind::ScrollDown => Some(Mouse::ScrollDown),
        MouseEventKind::ScrollUp => Some(Mouse::ScrollUp),
        MouseEventKind::Down(MouseButton::Left) => Some(Mouse::Click { row: m.row }),
        _ => None,
    }
}

/// The keys whose changes show on screen: the list's, or the YAML/describe view's object
/// and events.
pub(crate) fn visible_keys(state: &UiState) -> Vec<ResourceKey> {
    match state.top() {
        Screen::Yaml(y) => {
            let object = y.watch.as_ref().map(|w| w.key.clone());
            let events = y.events.as_ref().map(|s| s.served_by.clone());
            object.into_iter().chain(events).collect()
        }
        Screen::Containers(c) => c.watch.iter().map(|w| w.key.clone()).collect(),
        Screen::Logs(l) => l.events.iter().map(|s| s.served_by.clone()).collect(),
        // `:pulse` counts every kind it shows.
        Screen::Pulse(p) => p.sources.values().map(|s| s.served_by.clone()).collect(),
        Screen::Xray(x) => x.served_by(),
        // The rollout watch notifies with the deployment's name as a field selector.
        Screen::Revisions(r) => vec![crate::app::history::revisions::rollout_key(r)
            .with_fields(&format!("metadata.name={}", r.target.name))],
        // A union list redraws when any member publishes.
        _ => match state.top_list() {
            Some(l) if l.union.is_some() => l
                .union
                .iter()
                .flat_map(|u| u.members.iter())
                .filter_map(|m| m.source.as_ref().map(|s| s.served_by.clone()))
                .collect(),
            l => l
                .and_then(|l| l.source.as_ref().map(|s| s.served_by.clone()))
                .into_iter()
                .collect(),
        },
    }
}

#[cfg(test)]
mod pulse_tests {
    use crate::app::pulse::model::PulseState;
    use crate::app::state::{Feed, Screen, Source, UiState};
    use crate::kube::builtin::BuiltinKind;
    use crate::kube::key::ResourceKey;

    #[test]
    fn a_pulse_redraws_when_any_kind_it_counts_changes() {
        let p = PulseState::new(Some("shop".into()));
        let mut state = UiState::new(Screen::Pulse(Box::new(p)), Some("shop".into()), false);
        let id = state.top_id();
        let pods = ResourceKey::new(BuiltinKind::Pod, Some("shop"));
        let nodes = ResourceKey::new(BuiltinKind::Node, None);
        for key in [&pods, &nodes] {
            let slot = crate::kube::store::Slot::new(key.clone(), 1);
            assert!(state.attach(id, Feed::Rows(Source::fixed(slot))));
        }
        let keys = super::visible_keys(&state);
        assert!(keys.contains(&pods) && keys.contains(&nodes), "{keys:?}");
        assert!(!keys.contains(&ResourceKey::new(BuiltinKind::Job, Some("shop"))));
    }
}
