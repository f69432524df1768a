//! `Effect`: a side effect a state transition asks for, as a value. `update` (and the other
//! transitions the loop calls) return them; the loop executes them in one `match` (see
//! `runtime::effects`). Owns the vocabulary; must not perform anything.

use crate::kube::key::ResourceKey;

/// Identity of one view on the stack, given when it is pushed and never reused: the loop
/// keys its subscriptions and watches by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ViewId(pub u64);

/// A side-effect request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Feed view `id` from the informer of `key` (the list's rows, or a describe view's
    /// events); the loop keeps the subscription under `id`. Dropped while not connected:
    /// the loop subscribes every view once the client is ready.
    Subscribe(ViewId, ResourceKey),
    /// Watch the object `name` of `key.kind` in `key.namespace` for detail view `id`; the
    /// loop keeps the watch under `id`.
    WatchObject(ViewId, ResourceKey, String),
    /// Feed pods or nodes list `id` from the metrics poll of this key; the loop keeps the
    /// subscription under `id` (ignored with `[metrics] enabled = false` or not connected).
    SubscribeMetrics(ViewId, crate::kube::metrics::MetricsKey),
    /// Release every subscription and watch of view `id` (it left the stack, or its kind
    /// changed and it subscribes again).
    Unsubscribe(ViewId),
    /// Stop everything of the context in use and connect to this one.
    SwitchContext(String),
    /// Feed union list `id` with member `origin`'s informer of `key` (dropped while that
    /// member is not connected: the loop asks every view again once it is).
    SubscribeIn(ViewId, u16, ResourceKey),
    /// Open a union: connect each `(origin, context)` (the context in use, origin 0, is the
    /// session's and not listed); a union already open is closed first.
    OpenFleet(Vec<(u16, String)>),
    /// Close the union: every member's informers and watches stop.
    CloseFleet,
    /// Write what detail view `id` shows to a file (`ctrl-s`); the outcome goes to the footer.
    Save(ViewId),
    /// Ask the API server's discovery again now (`:api-resources`, an unknown name).
    Rediscover,
    /// Repaint the whole terminal at the next draw (`ctrl-l`).
    Clear,
    /// Write the prompt history file (its whole text, see `app::prompt::history`).
    SaveHistory(String),
    /// Write a file (mode 0600, its directory 0700); what follows is [`FileWrite::then`],
    /// applied by `outcome::written`.
    WriteFile(Box<FileWrite>),
    /// Remove a file ktui wrote (an edit's temp file once the edit ends); errors are ignored.
    RemoveFile(std::path::PathBuf),
    /// Leave ktui with this exit code.
    Quit(u8),
    /// Stream the logs of log view `id` (its target, what to ask, the bounds); the loop
    /// keeps the feed under `id`.
    StreamLogs(ViewId, Box<LogRequest>),
    /// A confirmed write to the cluster (see `writes::dialog`); the loop runs it on the network
    /// runtime and its outcome comes back as an event for the footer. Refused by the loop in
    /// read-only mode or when the context in use is not `context`.
    Write(Box<WriteRequest>),
    /// Ask the API server (`SelfSubjectAccessReview`) whether a permission is granted; the
    /// answer feeds the RBAC gate (`writes::access`).
    CheckAccess(crate::app::writes::model::AccessQuery),
    /// Put this text on a clipboard (tmux's buffer, a clipboard tool or OSC 52: see
    /// `runtime::clipboard`); the loop answers with `outcome::copied`.
    Copy(String),
    /// Fetch the revisions of a deployment for the rollback dialog.
    ListRevisions(crate::kube::write::Target),
    /// Stop the drain in progress.
    CancelDrain,
    /// GET the whole object for `e` (see `writes::edit`).
    EditFetch(crate::kube::write::Target),
    /// Hand the terminal to a job (a child process, a session) until it ends; the loop then
    /// takes it back, repaints everything and applies `then` (see `app::handover`).
    HandOver(Box<crate::app::handover::Handover>),
    /// Find the container, OS and shell of a session off the loop; the result comes back as
    /// `Event::SessionPrepared` (see `app::session`).
    PrepareSession(Box<crate::app::session::model::SessionRequest>),
    /// Read the ports of a `shift-f` target off the loop; `Event::ForwardOffer` brings them.
    OfferForward(Box<crate::app::forwards::model::Offer>),
    /// Start a port-forward in the session's manager (the footer says how it went).
    StartForward(Box<crate::kube::portforward::ForwardSpec>),
    /// Stop port-forward `id`.
    StopForward(u64),
    /// Watch the rollout history (ReplicaSets / ControllerRevisions) of workload `name` of
    /// `key.kind` in `key.namespace` for history view `id`; the loop keeps it under `id`.
    WatchRollout(ViewId, ResourceKey, String),
    /// Run a plugin detached (no terminal, stdin empty); its end comes back as
    /// `Event::PluginDone` (see `app::plugins`).
    RunPlugin(Box<crate::app::plugins::model::PluginRun>),
    /// List the cluster's Roles, ClusterRoles and their bindings once for `:can` view `id`;
    /// the answer comes back as `Event::Rbac` (see `app::can::answered`).
    FetchRbac(ViewId),
}

/// A confirmed write: where it goes, what it is, and what the footer says was requested.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteRequest {
    /// The context it was confirmed for.
    pub context: String,
    /// `deleting pod/web in team-a`.
    pub summary: String,
    /// The operation.
    pub op: WriteOp,
}

/// One write operation of `crate::kube::write`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteOp {
    /// Delete each target.
    Delete(
        Vec<crate::kube::write::Target>,
        crate::kube::write::delete::DeleteOptions,
    ),
    /// Scale to N replicas.
    Scale(crate::kube::write::Target, u32),
    /// Rollout restart each target.
    Restart(Vec<crate::kube::write::Target>),
    /// Cordon (`true`) or uncordon each node.
    Cordon(Vec<crate::kube::write::Target>, bool),
    /// Create a Job from each CronJob now.
    Trigger(Vec<crate::kube::write::Target>),
    /// Suspend (`true`) or resume each CronJob.
    Suspend(Vec<crate::kube::write::Target>, bool),
    /// Roll a deployment back to a revision.
    Rollback(crate::kube::write::Target, u64),
    /// Replace an object with the edited one, guarded by this resourceVersion (`e`).
    Replace(crate::kube::write::Target, Box<serde_json::Value>, String),
    /// Drain a node (cordon, then evictions); progress streams back.
    Drain(
        crate::kube::write::Target,
        crate::kube::write::drain::DrainOptions,
    ),
}

/// What a log view streams.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogRequest {
    /// Which pods and containers.
    pub target: crate::kube::logs::LogTarget,
    /// What each stream asks for.
    pub plan: crate::kube::logs::StreamPlan,
    /// Buffer and stream bounds.
    pub limits: crate::kube::logs::LogLimits,
}

/// A file for the runtime to write: ktui's files are readable by the user only (mode 0600,
/// directories 0700); an existing file is truncated and its mode narrowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileWrite {
    /// Where (absolute: the state and temp directories are in `Settings::dirs`).
    pub path: std::path::PathBuf,
    /// The whole text.
    pub text: String,
    /// Refuse to write over an existing file (`O_EXCL`), for a new temp file.
    pub create_new: bool,
    /// What the state does once the file is written (or not).
    pub then: AfterWrite,
}

/// What follows a [`FileWrite`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AfterWrite {
    /// Show this line in the footer as information (`saved …`); a failure says
    /// `cannot save PATH: ERROR`.
    Note(String),
    /// The `e` edit's file is ready: hand the terminal to the editor (see `writes::edit`).
    Editor,
}
