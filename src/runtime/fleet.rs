//! The loop's side of a union of contexts: one member per context other than the one in use,
//! each with its own client (built with its own deadline), informer pool (its rows stamped
//! with the member's origin) and port-forward table; none waits for another. Routes a view's
//! effects to its cluster. Owns the members' lifetimes; must not block on the network.

use std::collections::HashMap;
use std::sync::Arc;

use crate::app::fleet::model::Link;
use crate::app::state::UiState;
use crate::kube::client::{self, ConnectOptions};

use super::run::{Event, Session, Wiring};

/// Deadline for building one member's client: shorter than the context in use's, so a hung
/// exec plugin of one cluster is reported while the others already show rows.
pub(crate) const MEMBER_CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// One context of the union besides the one in use.
pub(crate) struct Member {
    pub(crate) origin: u16,
    pub(crate) context: String,
    /// Its client build while under way.
    pub(crate) connecting: Option<tokio::task::AbortHandle>,
    /// Its informers, once connected. Dropped with the member: everything of it stops.
    pub(crate) session: Option<Session>,
}

impl Drop for Member {
    fn drop(&mut self) {
        if let Some(c) = self.connecting.take() {
            c.abort();
        }
    }
}

/// The session effects of origin `origin` go to: the context in use's (`session`) for 0,
/// else the member's (`None` while it connects). Takes the two fields, not the wiring, so the
/// caller may still read its other fields.
pub(crate) fn session_at<'s>(
    session: &'s mut Option<Session>,
    fleet: &'s mut [Member],
    origin: u16,
) -> Option<&'s mut Session> {
    if origin == 0 {
        return session.as_mut();
    }
    fleet
        .iter_mut()
        .find(|m| m.origin == origin)
        .and_then(|m| m.session.as_mut())
}

impl Wiring<'_> {
    /// The session of context `name`: the one in use, or a union member's.
    pub(crate) fn session_named(&mut self, state: &UiState, name: &str) -> Option<&mut Session> {
        if state.conn.context.as_deref() == Some(name) {
            return self.session.as_mut();
        }
        self.fleet
            .iter_mut()
            .find(|m| m.context == name)
            .and_then(|m| m.session.as_mut())
    }

    /// Every port-forward of the context in use and of the union's members, in that order
    /// (ids are unique across them).
    pub(crate) fn forwards(&self) -> Vec<crate::kube::portforward::ForwardInfo> {
        let members = self.fleet.iter().filter_map(|m| m.session.as_ref());
        self.session
            .iter()
            .chain(members)
            .flat_map(|s| s.forwards.list())
            .collect()
    }

    /// The session of `context` (`None`: the one in use).
    pub(crate) fn session_for(&mut self, state: &UiState, context: Option<&str>) -> Option<&mut Session> {
        match context {
            None => self.session.as_mut(),
            Some(name) => self.session_named(state, name),
        }
    }

    /// Connects every member (a union already open is closed first).
    pub(crate) fn open_fleet(&mut self, members: Vec<(u16, String)>) {
        self.close_fleet();
        self.fleet_generation += 1;
        for (origin, context) in members {
            let connecting = Some(self.spawn_member_connect(origin, context.clone()));
            self.fleet.push(Member {
                origin,
                context,
                connecting,
                session: None,
            });
        }
    }

    /// Stops every member; their late answers are recognised by generation and dropped.
    pub(crate) fn close_fleet(&mut self) {
        self.fleet_generation += 1;
        self.fleet.clear();
    }

    fn spawn_member_connect(&self, origin: u16, context: String) -> tokio::task::AbortHandle {
        let opts = ConnectOptions {
            kubeconfig: self.cli.kubeconfig.clone(),
            context: Some(context),
        };
        let (tx, generation) = (self.tx.clone(), self.fleet_generation);
        self.net
            .spawn(async move {
                let res = match tokio::time::timeout(MEMBER_CONNECT_TIMEOUT, client::connect(&opts)).await {
                    Ok(Ok(ok)) => Ok(ok),
                    Ok(Err(e)) => Err(format!("{e:#}")),
                    Err(_) => Err(format!(
                        "building the client took over {}s",
                        MEMBER_CONNECT_TIMEOUT.as_secs()
                    )),
                };
                let _ = tx.send(Event::MemberConnected(generation, origin, res));
            })
            .abort_handle()
    }

    /// A member's client build ended: its session starts (informers stamped with its
    /// origin), and the union's views are fed from it.
    pub(crate) fn member_connected(
        &mut self,
        state: &mut UiState,
        generation: u64,
        origin: u16,
        res: Result<(kube::Client, crate::kube::client::ClusterInfo), String>,
    ) -> Vec<crate::app::effect::Effect> {
        if generation != self.fleet_generation {
            return Vec::new();
        }
        let status = match res {
            Ok((client, _info)) => {
                let context = self
                    .fleet
                    .iter()
                    .find(|m| m.origin == origin)
                    .map(|m| m.context.clone());
                let session = self.member_session(client, origin, context.unwrap_or_default());
                if let Some(m) = self.fleet.iter_mut().find(|m| m.origin == origin) {
                    m.connecting = None;
                    m.session = Some(session);
                }
                Link::Connected
            }
            Err(e) => Link::Failed(e),
        };
        crate::app::fleet::open::member_status(state, origin, status)
    }

    /// A member's session: its pool (rows stamped `origin`, recording into the context's
    /// revision history, kept across unions and switches as the context in use's is) and
    /// port-forward table; no discovery (a union list's kind is the one in use's) and no
    /// metrics polls.
    fn member_session(&mut self, client: kube::Client, origin: u16, context: String) -> Session {
        let config = self.history_config;
        let history = self
            .histories
            .entry(context)
            .or_insert_with(|| crate::kube::history::History::new(config, jiff::Timestamp::now().as_second()))
            .clone();
        let pool = self.new_pool(client).with_origin(origin).record_into(history);
        let tx = self.tx.clone();
        let forwards = crate::kube::portforward::PortForwards::new(pool.clone(), move || {
            let _ = tx.send(Event::Forwards);
        });
        Session {
            metrics: None,
            pool,
            discovery: self.net.spawn(async {}).abort_handle(),
            rediscover: Arc::new(tokio::sync::Notify::new()),
            feeds: HashMap::new(),
            forwards,
        }
    }
}
