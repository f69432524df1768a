//! The manager and one forward's tasks: the listener bound at start (a taken port is an
//! error then, never a listed forward), one accept loop per forward, one websocket stream
//! per local connection, counters and state shared with whoever lists them. Owns the
//! forwards' lifetimes (all stop when the manager is dropped); must not draw.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use kube::api::Api;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::AbortHandle;

use super::target::{get_named, resolve, words, PodSource, ResolvedTarget};
use super::ForwardSpec;
use crate::pool::InformerPool;

/// How long a new connection waits for a ready pod while none is (it is closed after).
pub const RETARGET_WITHIN: Duration = Duration::from_secs(30);
/// How long the pod may still answer after the local client stopped sending.
const LINGER: Duration = Duration::from_secs(10);

/// A forward's state, shown in words by [`ForwardState::words`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ForwardState {
    /// Listening; the target resolved to a pod (or no connection has needed one yet).
    Starting,
    /// Listening with a pod to connect to.
    Active,
    /// The pod went away; a ready pod of the selector is being looked for.
    Reconnecting(String),
    /// It cannot serve: the pod is gone (a pod forward), the target does not exist.
    Broken(String),
}

impl ForwardState {
    /// `active`, `reconnecting: pod replaced`, `broken: pods "x" not found`.
    pub fn words(&self) -> String {
        match self {
            ForwardState::Starting => "starting".into(),
            ForwardState::Active => "active".into(),
            ForwardState::Reconnecting(why) => format!("reconnecting: {why}"),
            ForwardState::Broken(why) => format!("broken: {why}"),
        }
    }
}

/// One forward as listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForwardInfo {
    /// Its id in the manager (for [`PortForwards::stop`]).
    pub id: u64,
    /// The bound local address (the port chosen when 0 was asked).
    pub local: SocketAddr,
    /// `svc/web:80`, `pod/web-1:8080`.
    pub target: String,
    /// The state.
    pub state: ForwardState,
    /// The pod connections go to now.
    pub pod: Option<String>,
    /// Local connections open now.
    pub open: u64,
    /// Local connections accepted in all.
    pub total: u64,
    /// Bytes from the pod to local clients.
    pub bytes_in: u64,
    /// Bytes from local clients to the pod.
    pub bytes_out: u64,
}

/// What a forward's tasks share with the manager: state, the pod in use (a watch, so a
/// connection waiting for a pod wakes when the follower chooses one), counters.
pub(super) struct Shared {
    state: Mutex<ForwardState>,
    /// The pod and its port number, once chosen.
    pod: tokio::sync::watch::Sender<Option<(String, u16)>>,
    /// A pod a connection could not reach, not to be chosen again until the rows change.
    failed: Mutex<Option<String>>,
    /// Wakes the follower after a connection failed.
    kick: tokio::sync::Notify,
    open: AtomicU64,
    total: AtomicU64,
    bytes_in: AtomicU64,
    bytes_out: AtomicU64,
    changed: Arc<dyn Fn() + Send + Sync>,
}

impl Shared {
    pub(super) fn set(&self, s: ForwardState) {
        let mut cur = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if *cur != s {
            *cur = s;
            drop(cur);
            (self.changed)();
        }
    }

    pub(super) fn state(&self) -> ForwardState {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The pod in use and its port.
    pub(super) fn current(&self) -> Option<(String, u16)> {
        self.pod.borrow().clone()
    }

    /// Sets the pod in use (`None`: none is); a new choice clears the failed pod.
    pub(super) fn choose(&self, pod: Option<(String, u16)>) {
        if pod.is_some() {
            *self.failed.lock().unwrap_or_else(|e| e.into_inner()) = None;
        }
        self.pod.send_if_modified(|cur| {
            let changed = *cur != pod;
            *cur = pod;
            changed
        });
        (self.changed)();
    }

    pub(super) fn failed(&self) -> Option<String> {
        self.failed.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// A connection could not reach `pod`: stop using it and ask the follower for another.
    fn unreachable(&self, pod: &str) {
        *self.failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(pod.to_owned());
        self.pod.send_if_modified(|cur| {
            let gone = cur.as_ref().is_some_and(|(p, _)| p == pod);
            if gone {
                *cur = None;
            }
            gone
        });
        self.kick.notify_one();
    }

    /// Resolves after [`Shared::unreachable`] (a permit is kept if nobody waits).
    pub(super) async fn kicked(&self) {
        self.kick.notified().await;
    }
}

struct Entry {
    id: u64,
    local: SocketAddr,
    target: String,
    shared: Arc<Shared>,
    task: AbortHandle,
}

/// The id the next forward gets, in any manager.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// The forwards of one session (context); dropping it stops every forward.
pub struct PortForwards {
    pool: InformerPool,
    entries: Vec<Entry>,
    changed: Arc<dyn Fn() + Send + Sync>,
}

impl PortForwards {
    /// A manager running forwards on the runtime of `pool`, whose informers tell each
    /// forward where its pods are (a pods informer per forward target, shared by equal
    /// ones); `changed` is called (from any thread) when a forward's state or pod changes or
    /// a connection opens or closes.
    pub fn new(pool: InformerPool, changed: impl Fn() + Send + Sync + 'static) -> Self {
        PortForwards {
            pool,
            entries: Vec::new(),
            changed: Arc::new(changed),
        }
    }

    /// Binds `spec.local` now and starts serving it. Errors: the local address cannot be
    /// bound, in words (`127.0.0.1:8080 is in use by another program`, or `… is held by
    /// ktui's port-forward to svc/web:80 (broken: …)` when one of these forwards holds it).
    pub fn start(&mut self, spec: ForwardSpec) -> Result<ForwardInfo, String> {
        let std = std::net::TcpListener::bind(spec.local).map_err(|e| match e.kind() {
            std::io::ErrorKind::AddrInUse => match self.holder(spec.local) {
                Some(f) => format!(
                    "{} is held by ktui's port-forward to {} ({}): stop it in :pf with ctrl-d",
                    spec.local,
                    f.target,
                    f.state.words()
                ),
                None => format!("{} is in use by another program", spec.local),
            },
            _ => format!("cannot listen on {}: {e}", spec.local),
        })?;
        let local = std.local_addr().map_err(|e| e.to_string())?;
        std.set_nonblocking(true).map_err(|e| e.to_string())?;
        let listener = {
            let _g = self.pool.runtime().enter();
            TcpListener::from_std(std).map_err(|e| e.to_string())?
        };
        let shared = Arc::new(Shared {
            state: Mutex::new(ForwardState::Starting),
            pod: tokio::sync::watch::Sender::new(None),
            failed: Mutex::new(None),
            kick: tokio::sync::Notify::new(),
            open: AtomicU64::new(0),
            total: AtomicU64::new(0),
            bytes_in: AtomicU64::new(0),
            bytes_out: AtomicU64::new(0),
            changed: self.changed.clone(),
        });
        let target = match &spec.context {
            Some(ctx) => format!("{}:{} @{ctx}", spec.target.words(), spec.port),
            None => format!("{}:{}", spec.target.words(), spec.port),
        };
        let task = self
            .pool
            .runtime()
            .spawn(serve(listener, self.pool.clone(), spec, shared.clone()))
            .abort_handle();
        // Unique across every manager of the process: `:pf` lists a union's forwards together
        // and stops one by id.
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        self.entries.push(Entry {
            id,
            local,
            target,
            shared,
            task,
        });
        self.list()
            .into_iter()
            .find(|f| f.id == id)
            .ok_or_else(|| "lost".into())
    }

    /// Every forward, in the order started.
    pub fn list(&self) -> Vec<ForwardInfo> {
        self.entries
            .iter()
            .map(|e| ForwardInfo {
                id: e.id,
                local: e.local,
                target: e.target.clone(),
                state: e.shared.state.lock().unwrap_or_else(|p| p.into_inner()).clone(),
                pod: e.shared.current().map(|(p, _)| p),
                open: e.shared.open.load(Ordering::Relaxed),
                total: e.shared.total.load(Ordering::Relaxed),
                bytes_in: e.shared.bytes_in.load(Ordering::Relaxed),
                bytes_out: e.shared.bytes_out.load(Ordering::Relaxed),
            })
            .collect()
    }

    /// The forward of this manager listening on `addr`'s port (on that address or on all).
    fn holder(&self, addr: SocketAddr) -> Option<ForwardInfo> {
        self.list().into_iter().find(|f| {
            f.local.port() == addr.port()
                && (f.local.ip() == addr.ip() || f.local.ip().is_unspecified() || addr.ip().is_unspecified())
        })
    }

    /// How many forwards are serving (not broken).
    pub fn running(&self) -> usize {
        self.list()
            .iter()
            .filter(|f| !matches!(f.state, ForwardState::Broken(_)))
            .count()
    }

    /// Stops forward `id` (its listener closes, its connections end); false if unknown.
    pub fn stop(&mut self, id: u64) -> bool {
        let before = self.entries.len();
        self.entries.retain(|e| {
            if e.id == id {
                e.task.abort();
            }
            e.id != id
        });
        before != self.entries.len()
    }
}

impl Drop for PortForwards {
    fn drop(&mut self) {
        for e in &self.entries {
            e.task.abort();
        }
    }
}

/// One forward: resolve the target, follow its pods through the pool (a named pod is read
/// once first, so a missing one is `broken` with the API's words), accept connections.
async fn serve(listener: TcpListener, pool: InformerPool, spec: ForwardSpec, shared: Arc<Shared>) {
    let client = pool.client().clone();
    let resolved = match resolve(&client, &spec.namespace, &spec.target, spec.port).await {
        Ok(r) => Arc::new(r),
        Err(e) => return shared.set(ForwardState::Broken(e)),
    };
    if let PodSource::Named(name) = &resolved.pods {
        match get_named(&client, &spec.namespace, name, &resolved.port).await {
            Ok(p) => {
                shared.choose(Some(p));
                shared.set(ForwardState::Active);
            }
            Err(e) => return shared.set(ForwardState::Broken(e)),
        }
    }
    // The follower and the connections end with this task (aborted when the forward stops).
    let mut tasks = tokio::task::JoinSet::new();
    tasks.spawn(super::follow::follow(
        pool,
        spec.namespace.clone(),
        resolved.clone(),
        shared.clone(),
    ));
    loop {
        let Ok((sock, _)) = listener.accept().await else {
            continue;
        };
        let _ = sock.set_nodelay(true);
        shared.total.fetch_add(1, Ordering::Relaxed);
        let (client, spec, shared, resolved) =
            (client.clone(), spec.clone(), shared.clone(), resolved.clone());
        tasks.spawn(async move {
            shared.open.fetch_add(1, Ordering::Relaxed);
            (shared.changed)();
            connection(sock, &client, &spec, &resolved, &shared).await;
            shared.open.fetch_sub(1, Ordering::Relaxed);
            (shared.changed)();
        });
        while tasks.try_join_next().is_some() {}
    }
}

/// One local connection: a portforward stream to the pod in use — waiting up to
/// [`RETARGET_WITHIN`] for the follower to choose one while none is, and asking it for
/// another when the pod cannot be reached (service and workload forwards) — then bytes both
/// ways until either side ends.
async fn connection(
    sock: TcpStream,
    client: &kube::Client,
    spec: &ForwardSpec,
    resolved: &ResolvedTarget,
    shared: &Shared,
) {
    let api: Api<Pod> = Api::namespaced(client.clone(), &spec.namespace);
    let named = matches!(resolved.pods, PodSource::Named(_));
    let deadline = tokio::time::Instant::now() + RETARGET_WITHIN;
    let mut pods = shared.pod.subscribe();
    let (mut pf, port) = loop {
        let current = pods.borrow_and_update().clone();
        let Some((pod, port)) = current else {
            if named && matches!(shared.state(), ForwardState::Broken(_)) {
                return;
            }
            match tokio::time::timeout_at(deadline, pods.changed()).await {
                Ok(Ok(())) => continue,
                _ => return,
            }
        };
        match api.portforward(&pod, &[port]).await {
            Ok(pf) => {
                shared.set(ForwardState::Active);
                break (pf, port);
            }
            Err(e) => {
                if named {
                    return shared.set(ForwardState::Broken(words(&e)));
                }
                // Gone or not running before the informer said so: another pod, please.
                shared.set(ForwardState::Reconnecting("pod replaced".into()));
                shared.unreachable(&pod);
            }
        }
    };
    let Some(stream) = pf.take_stream(port) else {
        return;
    };
    let (mut from_pod, mut to_pod) = tokio::io::split(stream);
    let (mut from_local, mut to_local) = sock.into_split();
    let up = pump(&mut from_local, &mut to_pod, &shared.bytes_out);
    let down = pump(&mut from_pod, &mut to_local, &shared.bytes_in);
    // The pod's side ending ends the connection. The local side ending (EOF) is passed on
    // as a half-close; the pod then has LINGER to finish its answer.
    tokio::pin!(down);
    tokio::select! {
        _ = &mut down => {}
        _ = up => {
            let _ = tokio::time::timeout(LINGER, down).await;
        }
    }
    pf.abort();
}

/// Copies until EOF or an error, counting bytes; half-closes the writer at EOF.
async fn pump(r: &mut (impl AsyncRead + Unpin), w: &mut (impl AsyncWrite + Unpin), n: &AtomicU64) {
    let mut buf = vec![0u8; 64 << 10];
    loop {
        match r.read(&mut buf).await {
            Ok(0) | Err(_) => {
                let _ = w.shutdown().await;
                return;
            }
            Ok(k) => {
                if w.write_all(&buf[..k]).await.is_err() {
                    return;
                }
                n.fetch_add(k as u64, Ordering::Relaxed);
            }
        }
    }
}
