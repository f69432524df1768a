//! Opening and closing a union: `:ctx all`, `:ctx a,b` (and the command line's
//! `--context a,b`, `--all-contexts`), `:ctx name` back to one context; a member's connection
//! state; which cluster a new view belongs to (a view opened from a union row is pinned to the
//! row's cluster, a list opened by a command inside a union is a union list). Must not
//! perform I/O.

use crate::app::effect::Effect;
use crate::app::state::{Conn, ListState, Screen, UiState, ViewId};
use crate::kube::builtin::BuiltinKind;
use crate::kube::key::ResourceKey;

use super::model::{Fleet, Link, Member, UnionFeed};

/// What `:ctx` was given: `all`, a comma-separated list (`a,b`), or one name (`None`: not a
/// union).
pub fn wanted(arg: &str, contexts: &[String]) -> Option<Vec<String>> {
    if arg == "all" && !contexts.iter().any(|c| c == "all") {
        return Some(contexts.to_vec());
    }
    if !arg.contains(',') {
        return None;
    }
    let mut names: Vec<String> = Vec::new();
    for n in arg.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        if !names.iter().any(|x| x == n) {
            names.push(n.to_owned());
        }
    }
    Some(names)
}

/// Opens a union of `names` (kubeconfig contexts; with `all`, one context per API server —
/// later contexts on a server already in are left out and said so). The view stack becomes
/// a union list of the kind shown. Unknown names: the footer says which, nothing changes.
pub fn open(state: &mut UiState, names: Vec<String>, all: bool, readonly: &dyn Fn(&str) -> bool) {
    let unknown: Vec<&str> = names
        .iter()
        .filter(|n| !state.conn.contexts.iter().any(|c| c == *n))
        .map(String::as_str)
        .collect();
    if !unknown.is_empty() {
        state.screens.footer.message = Some(format!(
            "no context {} in the kubeconfig",
            unknown
                .iter()
                .map(|n| format!("{n:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        return;
    }
    let mut skipped = Vec::new();
    let mut chosen: Vec<String> = Vec::new();
    let mut servers: Vec<(String, String)> = Vec::new();
    for n in names {
        let server = server_of(state, &n);
        if all && !server.is_empty() {
            if let Some((_, first)) = servers.iter().find(|(s, _)| *s == server) {
                skipped.push(format!("{n}: same server as {first}"));
                continue;
            }
        }
        servers.push((server, n.clone()));
        chosen.push(n);
    }
    if chosen.len() < 2 {
        state.screens.footer.message = Some(format!(
            "a union needs two contexts or more ({} given)",
            chosen.len()
        ));
        return;
    }
    let current = state.conn.context.clone();
    let mut next = 1u16;
    let members: Vec<Member> = chosen
        .into_iter()
        .map(|context| {
            let origin = if current.as_deref() == Some(context.as_str()) {
                0
            } else {
                next += 1;
                next - 1
            };
            let status = match origin {
                0 => link(&state.conn.status),
                _ => Link::Connecting,
            };
            Member {
                readonly: readonly(&context),
                context,
                origin,
                status,
            }
        })
        .collect();
    let opened: Vec<(u16, String)> = members
        .iter()
        .filter(|m| m.origin != 0)
        .map(|m| (m.origin, m.context.clone()))
        .collect();
    if !skipped.is_empty() {
        state.note(format!("left out: {}", skipped.join("; ")));
    }
    state.conn.fleet = Some(Fleet {
        members,
        skipped,
        batch: (0, Vec::new()),
    });
    state.emit(Effect::OpenFleet(opened));
    let kind = base_kind(state);
    let ns = if kind.namespaced() {
        state.conn.namespace.clone()
    } else {
        None
    };
    let mut list = ListState::new(ResourceKey::new(kind, ns.as_deref()), None);
    list.ns_chosen = true;
    state.screens.stack.nav.clear();
    state.screens.overlays.dialog = None;
    state.reset_stack(Screen::List(Box::new(list)));
}

/// The port-forwards that leaving the union stops (those of members other than the context
/// in use), in words for the footer: `stopped 2 port-forwards of ktui-demo-us`.
fn forwards_lost(state: &UiState) -> Option<String> {
    let f = state.conn.fleet.as_ref()?;
    let mut lost: Vec<&str> = Vec::new();
    for m in f.members.iter().filter(|m| m.origin != 0) {
        let suffix = format!("@{}", m.context);
        let n = state
            .screens
            .layout
            .forwards
            .iter()
            .filter(|x| x.target.ends_with(&suffix))
            .count();
        lost.extend(std::iter::repeat_n(m.context.as_str(), n));
    }
    if lost.is_empty() {
        return None;
    }
    let n = lost.len();
    lost.dedup();
    Some(format!(
        "stopped {n} port-forward{} of {}",
        if n == 1 { "" } else { "s" },
        lost.join(", ")
    ))
}

/// Ends the union (its members' informers stop); the views go back to one context.
pub fn close(state: &mut UiState) {
    let lost = forwards_lost(state);
    if state.conn.fleet.take().is_none() {
        return;
    }
    if let Some(words) = lost {
        state.note(words);
    }
    state.emit(Effect::CloseFleet);
    state.screens.stack.pins.clear();
    state.screens.overlays.dialog = None;
    state.screens.stack.nav.clear();
    let kind = base_kind(state);
    let ns = if kind.namespaced() {
        state.conn.namespace.clone()
    } else {
        None
    };
    state.reset_stack(Screen::List(Box::new(ListState::new(
        ResourceKey::new(kind, ns.as_deref()),
        None,
    ))));
}

/// The kind of the stack's base list (pods when there is none).
fn base_kind(state: &UiState) -> crate::kube::kind::Kind {
    state
        .views()
        .find_map(|(_, s)| match s {
            Screen::List(l) if !l.is_timeline() && l.object.is_none() => Some(l.key.kind.clone()),
            _ => None,
        })
        .unwrap_or_else(|| BuiltinKind::Pod.into())
}

/// The API server of context `name` (`scheme://host:port`), empty when unknown.
fn server_of(state: &UiState, name: &str) -> String {
    state
        .conn
        .contexts
        .iter()
        .position(|c| c == name)
        .and_then(|i| state.conn.context_servers.get(i).cloned())
        .unwrap_or_default()
}

/// A member's client was built, or could not be.
pub fn member_status(state: &mut UiState, origin: u16, status: Link) -> Vec<Effect> {
    let Some(f) = state.conn.fleet.as_mut() else {
        return Vec::new();
    };
    let Some(m) = f.members.iter_mut().find(|m| m.origin == origin) else {
        return Vec::new();
    };
    let connected = status == Link::Connected;
    m.status = status;
    if connected {
        state.subscribe_all();
    }
    state.take_effects()
}

/// A member's link from the session's connection state.
fn link(conn: &Conn) -> Link {
    match conn {
        Conn::Connecting => Link::Connecting,
        Conn::Connected(_) => Link::Connected,
        Conn::Failed(why) => Link::Failed(why.clone()),
    }
}

/// The primary context's connection changed: its member (origin 0) follows.
pub fn primary_status(state: &mut UiState) {
    let status = link(&state.conn.status);
    if let Some(m) = state
        .conn
        .fleet
        .as_mut()
        .and_then(|f| f.members.iter_mut().find(|m| m.origin == 0))
    {
        m.status = status;
    }
}

/// The cluster the views opened by the next action belong to: the selected row's, on a union
/// list; the view's own, on a pinned view; `None` otherwise (and while a prompt is open: a
/// command opens union lists, not pinned ones).
pub fn pin_for_next(state: &UiState) -> Option<u16> {
    state.conn.fleet.as_ref()?;
    if state.screens.prompt.open.is_some() {
        return None;
    }
    if let Some(origin) = state.screens.stack.pins.get(&state.top_id()) {
        return Some(*origin);
    }
    let l = state.top_list()?;
    l.union.as_ref()?;
    l.cache.selected_row(l.selected).map(|r| r.origin)
}

/// How a view pushed now is fed: pinned to `pin_next`'s cluster, else — inside a union — a
/// list becomes a union list (called by `push` before it asks for feeds).
pub(crate) fn adopt(state: &mut UiState, id: ViewId, screen: &mut Screen) {
    let Some(fleet) = &state.conn.fleet else { return };
    if let Some(origin) = state.screens.stack.pin_next {
        state.screens.stack.pins.insert(id, origin);
        return;
    }
    if let Screen::List(l) = screen {
        if l.union.is_none() {
            l.union = Some(Box::new(UnionFeed::new(fleet.members.iter().map(|m| m.origin))));
        }
    }
}

/// The context view `id` belongs to: its pin's member, else the one in use.
pub fn context_of_view(state: &UiState, id: ViewId) -> Option<String> {
    pinned_context(state, id).or_else(|| state.conn.context.clone())
}

/// The context rows with `origin` come from (the one in use outside a union).
pub fn context_of_origin(state: &UiState, origin: u16) -> Option<String> {
    match &state.conn.fleet {
        Some(f) => f.by_origin(origin).map(|m| m.context.clone()),
        None => state.conn.context.clone(),
    }
}

/// Whether a write may go to `context` now: the context in use, or a connected member of the
/// union that is not read-only.
pub fn writable(state: &UiState, context: &str) -> Result<(), String> {
    let Some(f) = &state.conn.fleet else {
        return match state.conn.context.as_deref() == Some(context) {
            true => Ok(()),
            false => Err(format!(
                "the context changed since the dialog opened (was {context})"
            )),
        };
    };
    match f.by_name(context) {
        None => Err(format!("{context} is no longer in the union")),
        Some(m) if m.readonly => Err(format!("{context} is read-only")),
        Some(m) if m.status != Link::Connected => Err(format!("{context} is not connected")),
        Some(_) => Ok(()),
    }
}

/// The origin a pinned view's effects go to (0: the session's).
pub fn origin_of_view(state: &UiState, id: ViewId) -> u16 {
    state.screens.stack.pins.get(&id).copied().unwrap_or(0)
}

/// `:ctx <arg>`: `all` or `a,b` opens a union (read-only members as the config said when the
/// union was opened from the command line; `:ctx` keeps the in-use context's setting for
/// each member it can judge: the runtime marks the others); one name leaves any union and
/// switches to it.
pub fn ctx_command(state: &mut UiState, arg: &str) {
    if let Some(names) = wanted(arg, &state.conn.contexts) {
        let all = arg == "all";
        let readonly = state.conn.readonly_contexts.clone();
        let ro = move |c: &str| readonly.iter().any(|r| r == c);
        open(state, names, all, &ro);
        return;
    }
    if state.conn.fleet.is_some() && state.conn.context.as_deref() == Some(arg) {
        close(state);
        return;
    }
    if state.conn.fleet.is_some() && state.conn.contexts.iter().any(|c| c == arg) {
        if let Some(words) = forwards_lost(state) {
            state.note(words);
        }
        state.conn.fleet = None;
        state.screens.stack.pins.clear();
        state.emit(Effect::CloseFleet);
    }
    crate::app::context::connect::switch_context(state, arg);
}

/// What union list `id` still needs: member by member, its informer of the list's key
/// (no metrics poll: a union list shows no usage yet).
pub(crate) fn union_feeds(id: ViewId, l: &ListState) -> Vec<Effect> {
    l.union
        .iter()
        .flat_map(|u| u.members.iter())
        .filter(|m| m.source.is_none())
        .map(|m| Effect::SubscribeIn(id, m.origin, l.key.clone()))
        .collect()
}

/// Inside a union: the context of a union list's row from `origin`, or of the pinned view's
/// row; `None` outside a union (the context in use). What a session or forward started from
/// that row carries, so the loop runs it in that cluster.
pub fn context_of_row(state: &UiState, origin: u16) -> Option<String> {
    if let Some(ctx) = pinned_context(state, state.top_id()) {
        return Some(ctx);
    }
    let f = state.conn.fleet.as_ref()?;
    state.top_list()?.union.as_ref()?;
    f.by_origin(origin).map(|m| m.context.clone())
}

/// The context view `id` is pinned to, inside a union (`None`: not pinned).
pub fn pinned_context(state: &UiState, id: ViewId) -> Option<String> {
    let origin = state.screens.stack.pins.get(&id)?;
    state
        .conn
        .fleet
        .as_ref()?
        .by_origin(*origin)
        .map(|m| m.context.clone())
}

/// The cluster a typed command (`:exec`, `:pf`) acts in, from its `--context NAME`: inside a
/// union it must name a member (no guess at which cluster's object of that name is meant;
/// `usage` shows the command's form); outside one it may only name the context in use. The
/// context in use comes back as `None` (the session's client).
pub fn command_context(state: &UiState, named: Option<&str>, usage: &str) -> Result<Option<String>, String> {
    let sane = |c: &str| crate::kube::sanitize::sanitize(c).into_owned();
    match (&state.conn.fleet, named) {
        (Some(_), None) => Err(format!(
            "in a union, name the pod's cluster: {usage} --context NAME …"
        )),
        (Some(f), Some(c)) if f.by_name(c).is_none() => Err(format!("{} is not in the union", sane(c))),
        (None, Some(c)) if state.conn.context.as_deref() != Some(c) => {
            Err(format!("{} is not the context in use", sane(c)))
        }
        (_, Some(c)) if state.conn.context.as_deref() == Some(c) => Ok(None),
        (_, c) => Ok(c.map(str::to_owned)),
    }
}

/// Whether something asked for `context` (a plugin run) may still go there: it is the context
/// in use outside a union, a member inside one — and unless it only reads, not a read-only
/// member.
pub fn may_run_in(state: &UiState, context: &str, reads_only: bool) -> bool {
    match &state.conn.fleet {
        None => state.conn.context.as_deref() == Some(context),
        Some(f) => f.by_name(context).is_some_and(|m| reads_only || !m.readonly),
    }
}

/// `--context a,b` or `--all-contexts`, once the kubeconfig is read: names the kubeconfig
/// does not have are left out and said so (the union of the others opens); fewer than two
/// left: the footer says why there is no union.
pub fn from_command_line(state: &mut UiState, arg: &str) {
    let Some(names) = wanted(arg, &state.conn.contexts) else {
        return;
    };
    let (known, unknown): (Vec<String>, Vec<String>) = names
        .into_iter()
        .partition(|n| state.conn.contexts.iter().any(|c| c == n));
    let readonly = state.conn.readonly_contexts.clone();
    let ro = move |c: &str| readonly.iter().any(|r| r == c);
    open(state, known, arg == "all", &ro);
    if !unknown.is_empty() {
        let left = unknown
            .iter()
            .map(|n| format!("{n:?}"))
            .collect::<Vec<_>>()
            .join(", ");
        let before = state.screens.footer.message.take().unwrap_or_default();
        state.screens.footer.message =
            Some(format!("no context {left} in the kubeconfig: left out. {before}"));
        state.screens.footer.info = false;
    }
}
