//! The UI loop's effect executor (`Wiring::execute`): carries out each [`Effect`] an update
//! returned — informers and object watches subscribed per view, log feeds, sessions and
//! port-forwards, writes (never in read-only mode, only in the context confirmed), handovers
//! queued for the loop, the clipboard. Runs on the UI thread and must not block: every
//! network step is spawned on the network runtime, its answer comes back as an event.

use crate::kube::object::watch_object_recorded;

use crate::app::effect::Effect;
use crate::app::state::{Feed, ObjectFeed, Source, UiState};
use crate::runtime::tasks::spawn_connect;

use super::run::*;

impl Wiring<'_> {
    /// Carries out `effects` in order; `Some(code)` when ktui must exit.
    pub(crate) fn execute(&mut self, state: &mut UiState, effects: Vec<Effect>) -> Option<u8> {
        let mut queue = std::collections::VecDeque::from(effects);
        while let Some(effect) = queue.pop_front() {
            match effect {
                Effect::Subscribe(id, key) => {
                    let origin = crate::app::fleet::open::origin_of_view(state, id);
                    let Some(s) =
                        crate::runtime::fleet::session_at(&mut self.session, &mut self.fleet, origin)
                    else {
                        continue;
                    };
                    let sub = s.pool.subscribe(key);
                    if state.attach(id, Feed::Rows(Source::of(&sub))) {
                        s.feeds.entry(id).or_default().subs.push(sub);
                    }
                }
                Effect::WatchObject(id, key, name) => {
                    let origin = crate::app::fleet::open::origin_of_view(state, id);
                    let Some(s) =
                        crate::runtime::fleet::session_at(&mut self.session, &mut self.fleet, origin)
                    else {
                        continue;
                    };
                    let client = s.pool.client().clone();
                    let history = s.pool.history().cloned();
                    let watch = watch_object_recorded(
                        s.pool.runtime(),
                        client,
                        key,
                        &name,
                        self.store_tx.clone(),
                        history.clone(),
                    );
                    let feed = ObjectFeed {
                        history,
                        ..ObjectFeed::of(&watch)
                    };
                    if state.attach(id, Feed::Object(feed)) {
                        s.feeds.entry(id).or_default().watch = Some(watch);
                    }
                }
                Effect::SubscribeMetrics(id, key) => {
                    let origin = crate::app::fleet::open::origin_of_view(state, id);
                    let Some(s) =
                        crate::runtime::fleet::session_at(&mut self.session, &mut self.fleet, origin)
                    else {
                        continue;
                    };
                    let Some(pool) = &s.metrics else { continue };
                    let sub = pool.subscribe(key);
                    let src = crate::app::usage::model::UsageSource::of(&sub);
                    if state.attach(id, crate::app::state::Feed::Usage(src)) {
                        s.feeds.entry(id).or_default().metrics = Some(sub);
                    }
                }
                Effect::Unsubscribe(id) => {
                    if let Some(s) = &mut self.session {
                        s.feeds.remove(&id);
                    }
                    for m in &mut self.fleet {
                        if let Some(s) = &mut m.session {
                            s.feeds.remove(&id);
                        }
                    }
                }
                Effect::SubscribeIn(id, origin, key) => {
                    let Some(s) =
                        crate::runtime::fleet::session_at(&mut self.session, &mut self.fleet, origin)
                    else {
                        continue;
                    };
                    let sub = s.pool.subscribe(key);
                    if state.attach(id, Feed::Member(origin, Source::of(&sub))) {
                        s.feeds.entry(id).or_default().subs.push(sub);
                    }
                }
                Effect::OpenFleet(members) => self.open_fleet(members),
                Effect::CloseFleet => self.close_fleet(),
                Effect::SwitchContext(context) => {
                    // Every informer and watch of the old context stops now; results of the
                    // old connection attempt are recognised by their generation and dropped.
                    drop(self.session.take());
                    self.close_fleet();
                    if let Some(task) = self.drain.take() {
                        task.abort();
                    }
                    if let Some(attempt) = self.connecting.take() {
                        attempt.abort();
                    }
                    self.generation += 1;
                    queue.extend(state.reset_for_context(&context));
                    self.connecting = Some(spawn_connect(
                        self.cli,
                        Some(context),
                        self.generation,
                        self.tx.clone(),
                        &self.net,
                    ));
                }
                Effect::Save(id) => queue.extend(crate::app::outcome::save(state, id)),
                Effect::SaveHistory(text) => {
                    if let Err(e) = crate::runtime::files::write_private(
                        &crate::runtime::files::history_path(),
                        &text,
                        false,
                    ) {
                        tracing::warn!("cannot write the prompt history: {e}");
                    }
                }
                Effect::WriteFile(file) => {
                    let result = crate::runtime::files::write(&file);
                    queue.extend(crate::app::outcome::written(state, &file, result));
                }
                Effect::RemoveFile(path) => {
                    let _ = std::fs::remove_file(path);
                }
                Effect::Rediscover => {
                    if let Some(s) = &self.session {
                        s.rediscover.notify_one();
                    }
                }
                Effect::Clear => self.clear = true,
                Effect::HandOver(h) => self.handovers.push_back(h),
                Effect::RunPlugin(run) => crate::runtime::plugins::spawn(&self.net, *run, self.tx.clone()),
                Effect::OfferForward(o) => {
                    let tx = self.tx.clone();
                    let Some(s) = self.session_for(state, o.context.as_deref()) else {
                        continue;
                    };
                    let client = s.pool.client().clone();
                    s.pool.runtime().spawn(async move {
                        let ports =
                            crate::kube::portforward::ports_of(&client, &o.namespace, &o.target).await;
                        let _ = tx.send(Event::ForwardOffer(o, ports));
                    });
                }
                Effect::StartForward(spec) => {
                    // A forward counts as a write: none starts in read-only mode, whoever asks.
                    if state.settings.readonly {
                        state.screens.footer.message = Some("read-only: nothing was started".into());
                        continue;
                    }
                    let Some(s) = self.session_for(state, spec.context.as_deref()) else {
                        state.screens.footer.message = Some("not connected".into());
                        continue;
                    };
                    let started = s.forwards.start(*spec);
                    crate::app::forwards::started(state, started);
                    state.screens.layout.forwards = self.forwards();
                }
                Effect::StopForward(id) => {
                    let members = self.fleet.iter_mut().filter_map(|m| m.session.as_mut());
                    for s in self.session.iter_mut().chain(members) {
                        s.forwards.stop(id);
                    }
                    state.screens.layout.forwards = self.forwards();
                }
                Effect::PrepareSession(req) => {
                    if state.settings.readonly {
                        state.screens.footer.message = Some("read-only: nothing was run".into());
                        continue;
                    }
                    let tx = self.tx.clone();
                    let Some(s) = self.session_for(state, req.target.context.as_deref()) else {
                        state.screens.footer.message = Some("not connected".into());
                        continue;
                    };
                    let client = s.pool.client().clone();
                    s.pool.runtime().spawn(async move {
                        let p = crate::runtime::session::prepare(&client, *req).await;
                        let _ = tx.send(Event::SessionPrepared(Box::new(p)));
                    });
                }
                Effect::Quit(code) => return Some(code),
                Effect::StreamLogs(id, req) => {
                    let origin = crate::app::fleet::open::origin_of_view(state, id);
                    let Some(s) =
                        crate::runtime::fleet::session_at(&mut self.session, &mut self.fleet, origin)
                    else {
                        continue;
                    };
                    let tx = self.tx.clone();
                    let notify = Box::new(move || {
                        let _ = tx.send(Event::Logs(id));
                    });
                    let req = *req;
                    let feed = crate::kube::logs::start(
                        s.pool.runtime(),
                        s.pool.client().clone(),
                        req.target,
                        req.plan,
                        req.limits,
                        notify,
                    );
                    if state.attach(id, Feed::Logs(feed.hub.clone())) {
                        s.feeds.entry(id).or_default().logs = Some(feed);
                    }
                }
                Effect::Write(req) => {
                    self.write(state, *req);
                    // An abandoned edit's file removal.
                    queue.extend(state.take_effects());
                }
                Effect::CheckAccess(q) => {
                    let Some(s) = &self.session else { continue };
                    crate::runtime::writes::check(&self.net, s.pool.client().clone(), q, self.tx.clone());
                }
                Effect::FetchRbac(id) => {
                    let Some(s) = &self.session else { continue };
                    let (client, tx) = (s.pool.client().clone(), self.tx.clone());
                    self.net.spawn(async move {
                        let policy = crate::kube::rbac::fetch(&client).await;
                        let _ = tx.send(crate::runtime::run::Event::Rbac(id, Box::new(policy)));
                    });
                }
                Effect::ListRevisions(t) => {
                    let Some(s) = &self.session else { continue };
                    crate::runtime::writes::revisions(&self.net, s.pool.client().clone(), t, self.tx.clone());
                }
                Effect::EditFetch(t) => {
                    let Some(s) = &self.session else {
                        crate::app::writes::edit::abandon(state, "not connected: nothing was sent");
                        queue.extend(state.take_effects());
                        continue;
                    };
                    crate::runtime::writes::fetch(&self.net, s.pool.client().clone(), t, self.tx.clone());
                }
                Effect::CancelDrain => {
                    if let Some(task) = self.drain.take() {
                        task.abort();
                    }
                }
                Effect::Copy(text) => self.copy(state, &text),
                Effect::WatchRollout(id, key, name) => {
                    let origin = crate::app::fleet::open::origin_of_view(state, id);
                    let Some(s) =
                        crate::runtime::fleet::session_at(&mut self.session, &mut self.fleet, origin)
                    else {
                        continue;
                    };
                    let notify_key = key.clone().with_fields(&format!("metadata.name={name}"));
                    let selector = crate::app::history::rollback::selector_of;
                    let client = s.pool.client().clone();
                    let tx = self.store_tx.clone();
                    let w = crate::kube::history::rollout_watch::watch_rollout(
                        s.pool.runtime(),
                        client,
                        &key,
                        &name,
                        selector,
                        tx,
                        notify_key,
                    );
                    let Some(w) = w else { continue };
                    if state.attach(id, Feed::Rollout(w.view.clone())) {
                        s.feeds.entry(id).or_default().rollout = Some(w);
                    }
                }
            }
        }
        None
    }
}

impl Wiring<'_> {
    /// Starts a confirmed write — never in read-only mode, and only in the context it was
    /// confirmed for.
    fn write(&mut self, state: &mut UiState, req: crate::app::effect::WriteRequest) {
        let refused = if state.settings.readonly {
            Some("read-only: nothing was sent".to_owned())
        } else if self.session_named(state, &req.context).is_none() {
            Some(match state.conn.fleet.is_some() {
                true => format!("{} is not connected: nothing was sent", req.context),
                false => format!("the context changed (was {}): nothing was sent", req.context),
            })
        } else if let Err(why) = crate::app::fleet::open::writable(state, &req.context) {
            Some(format!("{why}: nothing was sent"))
        } else {
            None
        };
        if let Some(why) = refused {
            state.screens.footer.message = Some(why.clone());
            if matches!(req.op, crate::app::effect::WriteOp::Replace(..)) {
                // An edit waits for its replace's answer: end it instead.
                crate::app::writes::edit::abandon(state, &why);
            }
            return;
        }
        let Some(client) = self
            .session_named(state, &req.context)
            .map(|s| s.pool.client().clone())
        else {
            return;
        };
        if let crate::app::effect::WriteOp::Drain(node, _) = &req.op {
            if let Some(old) = self.drain.take() {
                old.abort();
            }
            state.screens.overlays.drain = Some(crate::app::writes::model::DrainState::new(
                node.name.clone(),
                req.context.clone(),
            ));
        }
        if let Some(task) = crate::runtime::writes::spawn(&self.net, client, req, self.tx.clone()) {
            self.drain = Some(task);
        }
    }
}

impl Wiring<'_> {
    /// Copies `text` the way [`clipboard::choose`] finds here: tmux's buffer, a clipboard tool
    /// (both run in a blocking task; the answer comes back as `Event::Copied`), or the OSC 52
    /// sequence written to the terminal (plain and, inside tmux without tmux on PATH, wrapped in
    /// its passthrough too).
    pub(crate) fn copy(&self, state: &mut UiState, text: &str) {
        use crate::runtime::clipboard::{self, Way};
        let var = |k: &str| std::env::var(k).ok();
        let path = std::env::var("PATH").unwrap_or_default();
        let way = clipboard::choose(var, &path);
        if way == Way::Osc52 {
            let tmux = var("TMUX").is_some_and(|v| !v.is_empty());
            let seqs = clipboard::osc52(text, false).and_then(|plain| {
                let wrapped = if tmux {
                    clipboard::osc52(text, true)?
                } else {
                    String::new()
                };
                Ok(plain + &wrapped)
            });
            let result = match seqs {
                Ok(seq) => {
                    use std::io::Write;
                    let mut out = std::io::stdout();
                    out.write_all(seq.as_bytes())
                        .and_then(|_| out.flush())
                        .map(|_| way.words())
                        .map_err(|_| "could not write to the terminal".to_owned())
                }
                Err(e) => Err(e),
            };
            crate::app::outcome::copied(state, result);
            return;
        }
        let tx = self.tx.clone();
        let text = text.to_owned();
        self.net.spawn_blocking(move || {
            let result = clipboard::run(&way, &text).map(|()| way.words());
            let _ = tx.send(crate::runtime::run::Event::Copied(result));
        });
    }
}
