//! Changes to the view stack of [`UiState`]: every push, pop and replacement gives views
//! their [`ViewId`] and queues the [`Effect`]s that follow (subscribe the new view's
//! informer or object watch, release a removed view's), so that no view owns a network
//! resource and none is released in `Drop`. Owns those rules; must not perform I/O.

use crate::app::effect::Effect;
use crate::app::state::{Feed, Screen, UiState, ViewId};

impl UiState {
    /// Queues an effect for the loop.
    pub fn emit(&mut self, effect: Effect) {
        self.effects.push(effect);
    }

    /// The effects queued since the last call, in order.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    /// Pushes `screen` on top under a fresh id and asks for what feeds it.
    pub fn push(&mut self, mut screen: Screen) -> ViewId {
        let id = ViewId(self.screens.stack.next_id);
        self.screens.stack.next_id += 1;
        crate::app::fleet::open::adopt(self, id, &mut screen);
        self.effects.extend(feeds(id, &screen));
        self.screens.stack.views.push((id, screen));
        id
    }

    /// Removes the view on top and releases what fed it; the last view stays.
    pub fn pop(&mut self) {
        if self.screens.stack.views.len() > 1 {
            if let Some((id, _)) = self.screens.stack.views.pop() {
                self.screens.stack.pins.remove(&id);
                self.emit(Effect::Unsubscribe(id));
            }
        }
    }

    /// Replaces the whole stack with `screen`.
    pub fn reset_stack(&mut self, screen: Screen) {
        for (id, _) in std::mem::take(&mut self.screens.stack.views) {
            self.screens.stack.pins.remove(&id);
            self.emit(Effect::Unsubscribe(id));
        }
        self.push(screen);
    }

    /// Keeps the views for which `keep` returns true (it may change them); releases the
    /// others. May leave the stack empty: the caller pushes a view then.
    pub fn retain_views(&mut self, mut keep: impl FnMut(ViewId, &mut Screen) -> bool) {
        let mut gone = Vec::new();
        self.screens.stack.views.retain_mut(|(id, s)| {
            let kept = keep(*id, s);
            if !kept {
                gone.push(*id);
            }
            kept
        });
        self.effects.extend(gone.into_iter().map(Effect::Unsubscribe));
    }

    /// Releases what feeds view `id` and asks for it again, for what the view now shows
    /// (its kind changed version or columns).
    pub fn resubscribe(&mut self, id: ViewId) {
        self.emit(Effect::Unsubscribe(id));
        if let Some((_, s)) = self.screens.stack.views.iter().find(|(i, _)| *i == id) {
            let more = feeds(id, s);
            self.effects.extend(more);
        }
    }

    /// Asks for what feeds every view that has no feed yet (once the client is ready).
    pub fn subscribe_all(&mut self) {
        let more: Vec<Effect> = self
            .screens
            .stack
            .views
            .iter()
            .flat_map(|(id, s)| feeds(*id, s))
            .collect();
        self.effects.extend(more);
    }

    /// Hands view `id` what the loop started for it; false when the view is gone (the loop
    /// then releases it).
    pub fn attach(&mut self, id: ViewId, feed: Feed) -> bool {
        let Some((_, screen)) = self.screens.stack.views.iter_mut().find(|(i, _)| *i == id) else {
            return false;
        };
        match (screen, feed) {
            (Screen::List(l), Feed::Member(origin, src)) => {
                return l.union.as_mut().is_some_and(|u| u.attach(origin, src))
            }
            (Screen::List(l), Feed::Rows(src)) => l.source = Some(src),
            (Screen::List(l), Feed::Usage(src)) => l.usage = Some(src),
            (Screen::Yaml(y), Feed::Rows(src)) => y.events = Some(src),
            (Screen::Yaml(y), Feed::Object(o)) => y.watch = Some(o),
            (Screen::Containers(c), Feed::Object(o)) => c.watch = Some(o),
            (Screen::Containers(c), Feed::Usage(src)) => c.usage = Some(src),
            (Screen::Logs(l), Feed::Logs(hub)) => l.hub = Some(hub),
            (Screen::Logs(l), Feed::Rows(src)) => l.events = Some(src),
            (Screen::Revisions(v), Feed::Rollout(r)) => v.rollout = Some(r),
            (Screen::Pulse(p), Feed::Rows(src)) => return p.attach(src),
            (Screen::Xray(x), Feed::Rows(src)) => return x.attach(src),
            (Screen::Yaml(y), Feed::Rollout(r)) => match y.history.as_deref_mut() {
                Some(h) => h.rollout = Some(r),
                None => return false,
            },
            _ => return false,
        }
        true
    }
}

/// What view `id` needs to be fed and does not have yet.
fn feeds(id: ViewId, screen: &Screen) -> Vec<Effect> {
    match screen {
        Screen::List(l) if l.union.is_some() => crate::app::fleet::open::union_feeds(id, l),
        Screen::List(l) => {
            let mut out = Vec::new();
            if l.source.is_none() {
                out.push(Effect::Subscribe(id, l.key.clone()));
            }
            let metrics = crate::app::usage::model::metrics_key(&l.key.kind, l.key.namespace.as_deref());
            if let Some(key) = metrics.filter(|_| l.usage.is_none()) {
                out.push(Effect::SubscribeMetrics(id, key));
            }
            out
        }
        Screen::Yaml(y) => {
            let mut out = Vec::new();
            if y.watch.is_none() {
                out.push(Effect::WatchObject(id, y.key.clone(), y.name.clone()));
            }
            if let Some(key) = y.events_key().filter(|_| y.events.is_none()) {
                out.push(Effect::Subscribe(id, key));
            }
            if let Some(e) = crate::app::history::rollback::rollout_feed(id, y) {
                out.push(e);
            }
            out
        }
        Screen::Can(c) if c.policy.is_none() => vec![Effect::FetchRbac(id)],
        Screen::Xray(x) => x.feeds(id),
        Screen::Revisions(r) if r.rollout.is_none() => {
            let key = crate::app::history::revisions::rollout_key(r);
            vec![Effect::WatchRollout(id, key, r.target.name.clone())]
        }
        Screen::Containers(c) => {
            let mut out = Vec::new();
            if c.watch.is_none() {
                out.push(Effect::WatchObject(id, c.key.clone(), c.name.clone()));
            }
            // PodMetrics of the pod's namespace: its containers' usage.
            let metrics = crate::app::usage::model::metrics_key(&c.key.kind, c.key.namespace.as_deref());
            if let Some(key) = metrics.filter(|_| c.usage.is_none()) {
                out.push(Effect::SubscribeMetrics(id, key));
            }
            out
        }
        Screen::Logs(l) => {
            let mut out = Vec::new();
            if l.hub.is_none() {
                out.push(Effect::StreamLogs(id, Box::new(l.request())));
            }
            if let Some(key) = l.events_key().filter(|_| l.events.is_none()) {
                out.push(Effect::Subscribe(id, key));
            }
            out
        }
        Screen::Pulse(p) => crate::app::pulse::feeds(id, p),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::detail::model::DetailState;
    use crate::app::state::ListState;
    use crate::app::update::{run_command, update};
    use crate::keys::Action;
    use crate::kube::builtin::BuiltinKind;
    use crate::kube::key::ResourceKey;
    use crate::kube::metrics::MetricsKey;

    fn pods(ns: &str) -> ResourceKey {
        ResourceKey::new(BuiltinKind::Pod, Some(ns))
    }

    fn state() -> UiState {
        let mut s = UiState::new(
            Screen::List(Box::new(ListState::new(pods("a"), None))),
            Some("a".into()),
            false,
        );
        assert_eq!(
            s.take_effects(),
            [
                Effect::Subscribe(ViewId(0), pods("a")),
                Effect::SubscribeMetrics(ViewId(0), MetricsKey::pods(Some("a")))
            ]
        );
        s
    }

    #[test]
    fn views_get_fresh_ids_and_leaving_releases_them() {
        let mut s = state();
        let fx = run_command(&mut s, "deploy b");
        let deploy = ResourceKey::new(BuiltinKind::Deployment, Some("b"));
        assert_eq!(
            fx,
            [
                Effect::Unsubscribe(ViewId(0)),
                Effect::Subscribe(ViewId(1), deploy)
            ]
        );
        let y = DetailState::new(pods("b"), "web");
        let id = s.push(Screen::Yaml(Box::new(y)));
        assert_eq!(id, ViewId(2));
        assert_eq!(
            s.take_effects(),
            [Effect::WatchObject(ViewId(2), pods("b"), "web".into())]
        );
        assert_eq!(update(&mut s, Action::Save), [Effect::Save(ViewId(2))]);
        assert_eq!(update(&mut s, Action::Back), [Effect::Unsubscribe(ViewId(2))]);
        assert_eq!(update(&mut s, Action::Back), [], "the `:deploy` view is the base");
        // `[`: back to the pods the `:deploy` replaced, then nowhere further.
        assert_eq!(
            update(&mut s, Action::NavBack),
            [
                Effect::Unsubscribe(ViewId(1)),
                Effect::Subscribe(ViewId(3), pods("a")),
                Effect::SubscribeMetrics(ViewId(3), MetricsKey::pods(Some("a")))
            ]
        );
        assert_eq!(update(&mut s, Action::Back), [], "the first view stays");
        assert_eq!(update(&mut s, Action::Redraw), [Effect::Clear]);
    }

    #[test]
    fn a_fed_view_is_not_fed_twice_and_a_gone_one_refuses_its_feed() {
        let mut s = state();
        let slot = crate::kube::store::Slot::new(pods("a"), 1);
        let src = crate::app::state::Source::fixed(slot.clone());
        assert!(s.attach(ViewId(0), Feed::Rows(src)));
        s.subscribe_all();
        // The rows are attached; the metrics poll is still wanted, until it is attached too.
        assert_eq!(
            s.take_effects(),
            [Effect::SubscribeMetrics(ViewId(0), MetricsKey::pods(Some("a")))]
        );
        let snap = crate::kube::metrics::MetricsSnapshot::empty(
            MetricsKey::pods(Some("a")),
            1,
            std::time::Duration::from_secs(15),
        );
        let usage =
            crate::app::usage::model::UsageSource::fixed(crate::kube::metrics::MetricsSlot::new(snap));
        assert!(s.attach(ViewId(0), Feed::Usage(usage)));
        s.subscribe_all();
        assert_eq!(s.take_effects(), []);
        assert!(!s.attach(ViewId(7), Feed::Rows(crate::app::state::Source::fixed(slot))));
    }

    #[test]
    fn a_containers_view_watches_its_pod_and_polls_its_namespaces_pod_metrics() {
        let mut s = state();
        let c = crate::app::containers::model::ContainersState::new("b", "db-0");
        let id = s.push(Screen::Containers(Box::new(c)));
        assert_eq!(
            s.take_effects(),
            [
                Effect::WatchObject(id, pods("b"), "db-0".into()),
                Effect::SubscribeMetrics(id, MetricsKey::pods(Some("b")))
            ]
        );
        let snap = crate::kube::metrics::MetricsSnapshot::empty(
            MetricsKey::pods(Some("b")),
            1,
            std::time::Duration::from_secs(15),
        );
        let usage =
            crate::app::usage::model::UsageSource::fixed(crate::kube::metrics::MetricsSlot::new(snap));
        assert!(s.attach(id, Feed::Usage(usage)));
        assert!(matches!(s.top(), Screen::Containers(c) if c.usage.is_some()));
        // The poll is attached; the watch is still wanted, until it is attached too.
        s.subscribe_all();
        let fx = s.take_effects();
        assert!(
            fx.contains(&Effect::WatchObject(id, pods("b"), "db-0".into()))
                && !fx
                    .iter()
                    .any(|e| matches!(e, Effect::SubscribeMetrics(i, _) if *i == id)),
            "{fx:?}"
        );
        assert_eq!(update(&mut s, Action::Back), [Effect::Unsubscribe(id)]);
    }

    #[test]
    fn switching_context_is_an_effect_and_resets_the_stack() {
        let mut s = state();
        s.conn.contexts = vec!["a".into(), "b".into()];
        assert_eq!(run_command(&mut s, "ctx b"), [Effect::SwitchContext("b".into())]);
        assert_eq!(run_command(&mut s, "ctx c"), []);
        let fx = s.reset_for_context("b");
        assert_eq!(
            fx,
            [
                Effect::Unsubscribe(ViewId(0)),
                Effect::Subscribe(ViewId(1), ResourceKey::new(BuiltinKind::Pod, None)),
                Effect::SubscribeMetrics(ViewId(1), MetricsKey::pods(None))
            ]
        );
        assert_eq!(s.conn.context.as_deref(), Some("b"));
    }
}
