//! The state of writes and what guards them: the RBAC gate's cache ([`AccessCache`]), the
//! confirmation dialog ([`Dialog`]), the drain overlay ([`DrainState`]), a list's marks
//! ([`Marks`]) and an `e` edit in progress ([`EditSession`]). Plain state with its own
//! bookkeeping; must not import `UiState` nor any transition, perform I/O or draw.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::kube::row::Row;
use crate::kube::store::Snapshot;
use crate::kube::write::access::Permission;
use crate::kube::write::delete::{DeleteOptions, Propagation};
use crate::kube::write::drain::{DrainEvent, DrainOptions};
use crate::kube::write::rollback::Revision;
use crate::kube::write::Target;

use crate::app::effect::WriteOp;

/// How long an answer is trusted.
pub const TTL: Duration = Duration::from_secs(60);

/// One question: a permission in a context.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AccessQuery {
    /// The kubeconfig context asked for.
    pub context: String,
    /// What is asked.
    pub permission: Permission,
}

/// Answers and questions in flight.
#[derive(Debug, Default)]
pub struct AccessCache {
    answers: HashMap<AccessQuery, (bool, Instant)>,
    pub(crate) asked: HashMap<AccessQuery, Instant>,
}

impl AccessCache {
    /// The answer to `q` if one younger than [`TTL`] is known at `now`.
    pub fn get(&self, q: &AccessQuery, now: Instant) -> Option<bool> {
        self.answers
            .get(q)
            .filter(|(_, at)| now.saturating_duration_since(*at) < TTL)
            .map(|(ok, _)| *ok)
    }

    /// Records the server's answer (an error is not an answer: the action stays offered and
    /// the server will say what it thinks when it is used).
    pub fn answer(&mut self, q: AccessQuery, allowed: Result<bool, String>, now: Instant) {
        self.asked.remove(&q);
        if let Ok(ok) = allowed {
            self.answers.insert(q, (ok, now));
        }
    }

    /// Whether `q` should be asked now: no fresh answer and not asked in the last TTL.
    pub(crate) fn due(&self, q: &AccessQuery, now: Instant) -> bool {
        self.get(q, now).is_none()
            && self
                .asked
                .get(q)
                .is_none_or(|at| now.saturating_duration_since(*at) >= TTL)
    }
}

/// What force means, in one line (shown whenever a force delete is asked).
pub const FORCE_WARNING: &str =
    "force removes the object from the API without waiting for the kubelet: the container may keep running";

/// One option of a dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Field {
    /// One of `options` (left/right or space cycles).
    Choice {
        label: &'static str,
        options: Vec<String>,
        at: usize,
    },
    /// A whole number typed (digits, backspace); empty means `hint`.
    Number {
        label: &'static str,
        text: String,
        hint: &'static str,
    },
    /// On or off (space, left/right).
    Toggle { label: &'static str, on: bool },
}

/// What confirming does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Then {
    /// Delete these; fields: propagation, grace period, force.
    Delete(Vec<Target>),
    /// Scale to the replicas field.
    Scale(Target),
    /// Rollout restart.
    Restart(Vec<Target>),
    /// Cordon (`true`) or uncordon.
    Cordon(Vec<Target>, bool),
    /// Trigger a CronJob now.
    Trigger(Vec<Target>),
    /// Suspend (`true`) or resume CronJobs.
    Suspend(Vec<Target>, bool),
    /// Roll back to the revision chosen in the first field.
    Rollback(Target, Vec<Revision>),
    /// Drain a node; fields: ignore DaemonSets, delete emptyDir data, force, grace, timeout.
    Drain(Target),
    /// Add a debug container and attach to it (`app::session::debug`): not a `WriteOp`, the session
    /// preparation makes it.
    Debug(Box<crate::app::session::model::SessionRequest>),
    /// Run a plugin that asks first (`app::plugins`): not a `WriteOp`.
    Plugin(Box<crate::app::plugins::model::PluginRun>),
}

/// Which question is on screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The first question.
    First,
    /// Force delete: the second question.
    Again,
}

/// An open confirmation dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dialog {
    /// `delete 3 pods`.
    pub title: String,
    /// What it touches: objects, namespace, context.
    pub lines: Vec<String>,
    /// Options.
    pub fields: Vec<Field>,
    /// Focused field; `fields.len()` is the yes/no buttons.
    pub focus: usize,
    /// "yes" is selected (never by default).
    pub yes: bool,
    /// Text the user must type to confirm (protected contexts): the name, or the count.
    pub require: Option<String>,
    /// What was typed for `require`.
    pub typed: String,
    /// A warning line (force).
    pub warning: Option<String>,
    /// First question or the force's second one.
    pub stage: Stage,
    /// What confirming does.
    pub then: Then,
    /// The context the write goes to (inside a union, over several clusters: their names
    /// with counts, and `routes` says which objects go where).
    pub context: String,
    /// Inside a union, when the objects are in several clusters: per context, its objects
    /// (one write request each). Empty otherwise: everything goes to `context`.
    pub routes: Vec<(String, Vec<crate::kube::write::Target>)>,
    /// Why the last confirm did not go through.
    pub error: Option<String>,
    /// What the footer says was requested (`deleting pod/web in team-a`).
    pub summary: String,
}

impl Dialog {
    /// A dialog for `then` with `title`, the object lines and options.
    pub fn new(
        title: String,
        lines: Vec<String>,
        fields: Vec<Field>,
        then: Then,
        context: String,
        summary: String,
    ) -> Dialog {
        Dialog {
            title,
            lines,
            focus: fields.len(),
            fields,
            yes: false,
            require: None,
            typed: String::new(),
            warning: None,
            stage: Stage::First,
            then,
            context,
            routes: Vec::new(),
            error: None,
            summary,
        }
    }

    /// Whether the delete's force is on (the field, or `ctrl-k`).
    pub fn force(&self) -> bool {
        self.fields.iter().any(|f| {
            matches!(
                f,
                Field::Toggle {
                    label: "force",
                    on: true
                }
            )
        })
    }

    fn number(&self, label: &str) -> Result<Option<u32>, String> {
        for f in &self.fields {
            if let Field::Number { label: l, text, .. } = f {
                if *l == label {
                    if text.is_empty() {
                        return Ok(None);
                    }
                    return text
                        .parse()
                        .map(Some)
                        .map_err(|_| format!("{label}: not a number"));
                }
            }
        }
        Ok(None)
    }

    fn toggle(&self, label: &str) -> bool {
        self.fields
            .iter()
            .any(|f| matches!(f, Field::Toggle { label: l, on: true } if *l == label))
    }

    fn choice(&self, label: &str) -> usize {
        self.fields
            .iter()
            .find_map(|f| match f {
                Field::Choice { label: l, at, .. } if *l == label => Some(*at),
                _ => None,
            })
            .unwrap_or(0)
    }

    /// The write confirming asks for, or why it cannot be built.
    pub(crate) fn op(&self) -> Result<WriteOp, String> {
        Ok(match &self.then {
            Then::Delete(t) => WriteOp::Delete(
                t.clone(),
                DeleteOptions {
                    propagation: Propagation::ALL[self.choice("propagation").min(2)],
                    grace_seconds: self.number("grace period (s)")?,
                    force: self.force(),
                },
            ),
            Then::Scale(t) => {
                let n = self.number("replicas")?.ok_or("replicas: type a number")?;
                WriteOp::Scale(t.clone(), n)
            }
            Then::Restart(t) => WriteOp::Restart(t.clone()),
            Then::Cordon(t, on) => WriteOp::Cordon(t.clone(), *on),
            Then::Trigger(t) => WriteOp::Trigger(t.clone()),
            Then::Suspend(t, on) => WriteOp::Suspend(t.clone(), *on),
            Then::Rollback(t, revs) => {
                let r = revs
                    .get(self.choice("revision"))
                    .ok_or("no revision to roll back to")?;
                WriteOp::Rollback(t.clone(), r.number)
            }
            Then::Debug(_) => return Err("a debug container is no write request".into()),
            Then::Plugin(_) => return Err("a plugin is no write request".into()),
            Then::Drain(t) => WriteOp::Drain(
                t.clone(),
                DrainOptions {
                    ignore_daemonsets: self.toggle("ignore DaemonSets"),
                    delete_emptydir: self.toggle("delete emptyDir data"),
                    force: self.toggle("force (unmanaged pods)"),
                    grace_seconds: self.number("grace period (s)")?,
                    timeout: std::time::Duration::from_secs(u64::from(
                        self.number("timeout (s)")?.unwrap_or(120),
                    )),
                },
            ),
        })
    }
}

/// Most lines kept (a drain of a big node streams many).
const MAX_LINES: usize = 500;

/// How a line is coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// Progress.
    Ok,
    /// A refusal or skip.
    Warn,
    /// A failure.
    Error,
}

/// A drain shown in the overlay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrainState {
    /// The node.
    pub node: String,
    /// The context it runs in.
    pub context: String,
    /// What happened, oldest first.
    pub lines: Vec<(Tone, String)>,
    /// Still running.
    pub running: bool,
    /// Pods evicted so far.
    pub evicted: usize,
}

impl DrainState {
    /// A drain of `node` that just started.
    pub fn new(node: String, context: String) -> DrainState {
        DrainState {
            lines: vec![(Tone::Ok, format!("draining node/{node} (context {context})…"))],
            node,
            context,
            running: true,
            evicted: 0,
        }
    }

    pub(crate) fn push(&mut self, tone: Tone, text: String) {
        if self.lines.len() >= MAX_LINES {
            self.lines.remove(1);
        }
        self.lines.push((tone, text));
    }

    /// Adds one step.
    pub fn apply(&mut self, e: DrainEvent) {
        match e {
            DrainEvent::Cordoned => self.push(Tone::Ok, format!("node/{} cordoned", self.node)),
            DrainEvent::Skipped { pod, why } => self.push(Tone::Warn, format!("skipped {pod}: {why}")),
            DrainEvent::Blocked { pod, why } => self.push(Tone::Error, format!("cannot evict {pod}: {why}")),
            DrainEvent::Plan(pods) => self.push(Tone::Ok, format!("evicting {} pods", pods.len())),
            DrainEvent::Evicted(pod) => {
                self.evicted += 1;
                self.push(Tone::Ok, format!("evicted {pod}"));
            }
            DrainEvent::Refused { pod, message } => {
                self.push(Tone::Warn, format!("refused {pod}: {message} (trying again)"))
            }
            DrainEvent::Failed(m) => {
                self.running = false;
                self.push(Tone::Error, format!("drain failed: {m}"));
            }
            DrainEvent::TimedOut(pods) => {
                self.running = false;
                self.push(
                    Tone::Error,
                    format!("timed out; not evicted: {}", pods.join(", ")),
                );
            }
            DrainEvent::Done(n) => {
                self.running = false;
                self.push(Tone::Ok, format!("node/{} drained ({n} pods evicted)", self.node));
            }
        }
    }
}

/// A marked object's namespace and name.
type Named = (Option<Arc<str>>, Arc<str>);

/// What identifies a marked row: its `metadata.uid`, and inside a union its cluster too
/// (`Row::origin`; clusters restored from one backup share uids): `3:uid`.
pub fn mark_key(row: &Row) -> std::borrow::Cow<'_, str> {
    match row.origin {
        0 => std::borrow::Cow::Borrowed(&row.uid),
        o => std::borrow::Cow::Owned(format!("{o}:{}", row.uid)),
    }
}

/// The marked rows of one list, by `metadata.uid`, with their namespace and name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Marks {
    /// uid → (namespace, name), in uid order; the display order comes from the list.
    by_uid: BTreeMap<Box<str>, Named>,
    /// uid of the row marked last: where `ctrl-space` starts its range.
    anchor: Option<Box<str>>,
    /// (epoch, revision) of the snapshot the marks were last checked against.
    checked: Option<(u64, u64)>,
}

impl Marks {
    /// How many rows are marked.
    pub fn len(&self) -> usize {
        self.by_uid.len()
    }

    /// Whether nothing is marked.
    pub fn is_empty(&self) -> bool {
        self.by_uid.is_empty()
    }

    /// Whether `row` is marked.
    pub fn contains(&self, row: &Row) -> bool {
        !row.uid.is_empty() && self.by_uid.contains_key(&*mark_key(row))
    }

    /// Marks `row`, or unmarks it if it was marked; rows without a uid cannot be marked.
    pub fn toggle(&mut self, row: &Row) {
        if row.uid.is_empty() {
            return;
        }
        let key = mark_key(row);
        if self.by_uid.remove(&*key).is_none() {
            self.insert(row);
        }
        self.anchor = Some(key.into());
    }

    fn insert(&mut self, row: &Row) {
        self.by_uid
            .insert(mark_key(row).into(), (row.namespace.clone(), row.name.clone()));
    }

    /// Marks every row of `rows` (a display range, anchor and cursor included).
    pub fn mark_all<'a>(&mut self, rows: impl IntoIterator<Item = &'a Arc<Row>>) {
        let mut last = None;
        for r in rows {
            if !r.uid.is_empty() {
                self.insert(r);
                last = Some(mark_key(r).into());
            }
        }
        if last.is_some() {
            self.anchor = last;
        }
    }

    /// The mark key (see [`mark_key`]) `ctrl-space` starts from.
    pub fn anchor(&self) -> Option<&str> {
        self.anchor.as_deref()
    }

    /// Unmarks everything.
    pub fn clear(&mut self) {
        self.by_uid.clear();
        self.anchor = None;
    }

    /// Drops the marks of objects no longer in `snap` (once it is a complete list); cheap when
    /// the snapshot did not change since the last call.
    pub fn prune(&mut self, snap: &Snapshot) {
        if self.by_uid.is_empty() || !snap.listed || self.checked == Some((snap.epoch, snap.rev)) {
            return;
        }
        self.checked = Some((snap.epoch, snap.rev));
        let present: std::collections::HashSet<std::borrow::Cow<'_, str>> =
            snap.rows.iter().map(|r| mark_key(r)).collect();
        self.by_uid.retain(|uid, _| present.contains(&**uid));
        if self.anchor.as_deref().is_some_and(|a| !present.contains(a)) {
            self.anchor = None;
        }
    }

    /// The marked objects as (namespace, name), sorted by namespace then name.
    pub fn names(&self) -> Vec<Named> {
        let mut v: Vec<_> = self.by_uid.values().cloned().collect();
        v.sort();
        v
    }
}

/// An edit in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditSession {
    /// The object.
    pub target: Target,
    /// The context it belongs to.
    pub context: String,
    /// The resourceVersion the replace is guarded by.
    pub resource_version: String,
    /// The text as first shown (without comments): saving it unchanged sends nothing.
    pub original: String,
    /// The file the editor edits.
    pub path: PathBuf,
    /// The user's last text, kept while the editor is reopened after an error.
    pub pending: Option<String>,
}
