//! kubectl's pod STATUS / READY / RESTARTS algorithm (printers.go `printPod`, with the 1.35+
//! "an error beats Completed" rule), as a pure function of the slim pod. Must not format
//! times: RESTARTS keeps the last restart instant for draw-time formatting.

use ktui_kube::row::{Cell, UnixSecs};
use ktui_kube::sanitize::sanitized_box;

use super::pod::{ContainerStatus, PodObj};

/// What the three computed pod columns show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodSummary {
    /// READY numerator: ready app containers plus started-and-ready sidecars.
    pub ready: usize,
    /// READY denominator: `spec.containers` plus sidecars in `spec.initContainers`.
    pub total: usize,
    /// STATUS text (unsanitized).
    pub status: String,
    /// RESTARTS count.
    pub restarts: i64,
    /// Latest `lastState.terminated.finishedAt` among the counted containers.
    pub last_restart: Option<UnixSecs>,
}

/// STATUS values common enough to store without allocating.
const COMMON: [&str; 16] = [
    "Running",
    "Pending",
    "Completed",
    "ContainerCreating",
    "PodInitializing",
    "CrashLoopBackOff",
    "Error",
    "ImagePullBackOff",
    "ErrImagePull",
    "Terminating",
    "NotReady",
    "OOMKilled",
    "Evicted",
    "Succeeded",
    "Failed",
    "Unknown",
];

impl PodSummary {
    /// The STATUS cell (sanitized; static for common values).
    pub fn status_cell(&self) -> Cell {
        match COMMON.iter().find(|c| **c == self.status) {
            Some(c) => Cell::Static(c),
            None => Cell::Text(sanitized_box(&self.status)),
        }
    }
}

/// Restart tally: count and latest previous-termination time.
#[derive(Default, Clone, Copy)]
struct Tally {
    count: i64,
    last: Option<UnixSecs>,
}

impl Tally {
    fn add(&mut self, c: &ContainerStatus) {
        self.count += c.restart_count;
        if let Some(t) = c.last_state.terminated.as_ref().and_then(|t| t.finished_at) {
            self.last = Some(self.last.map_or(t, |l| l.max(t)));
        }
    }
}

/// `Signal:{n}` / `ExitCode:{n}` / the terminated reason, with an optional prefix.
fn terminated_reason(prefix: &str, reason: &str, signal: i64, exit_code: i64) -> String {
    if !reason.is_empty() {
        format!("{prefix}{reason}")
    } else if signal != 0 {
        format!("{prefix}Signal:{signal}")
    } else {
        format!("{prefix}ExitCode:{exit_code}")
    }
}

/// Computes READY, STATUS and RESTARTS exactly as kubectl (1.35+) does; see
/// kubectl-columns.md §3.2–3.4.
pub fn summarize(pod: &PodObj) -> PodSummary {
    let (spec, st) = (&pod.spec, &pod.status);
    let sidecar = |name: &str| {
        spec.init_containers
            .iter()
            .any(|c| c.name == name && c.is_sidecar())
    };
    let total = spec.containers.len() + spec.init_containers.iter().filter(|c| c.is_sidecar()).count();
    let mut ready = 0;

    // 1. phase, overridden by status.reason
    let mut reason = if st.reason.is_empty() {
        st.phase.clone()
    } else {
        st.reason.clone()
    };
    // 2. scheduling gates
    if st
        .conditions
        .iter()
        .any(|c| c.type_ == "PodScheduled" && c.reason == "SchedulingGated")
    {
        reason = "SchedulingGated".into();
    }

    // 3. init containers
    let (mut all_init, mut sidecars) = (Tally::default(), Tally::default());
    let mut initializing = false;
    for (i, c) in st.init_container_statuses.iter().enumerate() {
        all_init.add(c);
        let is_sidecar = sidecar(&c.name);
        if is_sidecar {
            sidecars.add(c);
        }
        let term = c.state.terminated.as_ref();
        let waiting = c.state.waiting.as_ref().map(|w| w.reason.as_str()).unwrap_or("");
        if term.is_some_and(|t| t.exit_code == 0) {
            continue;
        }
        if is_sidecar && c.started == Some(true) {
            if c.ready {
                ready += 1;
            }
            continue;
        }
        reason = if let Some(t) = term {
            terminated_reason("Init:", &t.reason, t.signal, t.exit_code)
        } else if !waiting.is_empty() && waiting != "PodInitializing" {
            format!("Init:{waiting}")
        } else {
            format!("Init:{i}/{}", spec.init_containers.len())
        };
        initializing = true;
        break;
    }

    // 4. app containers, last to first
    let initialized = st
        .conditions
        .iter()
        .find(|c| c.type_ == "Initialized")
        .is_some_and(|c| c.status == "True");
    let mut tally = all_init;
    if !initializing || initialized {
        tally = sidecars;
        let mut has_running = false;
        let mut error_reason: Option<String> = None;
        for c in st.container_statuses.iter().rev() {
            tally.add(c);
            let waiting = c.state.waiting.as_ref().map(|w| w.reason.as_str()).unwrap_or("");
            if !waiting.is_empty() {
                reason = waiting.to_string();
            } else if let Some(t) = &c.state.terminated {
                reason = terminated_reason("", &t.reason, t.signal, t.exit_code);
                if t.exit_code != 0 {
                    error_reason = Some(reason.clone());
                }
            } else if c.ready && c.state.running.is_some() {
                has_running = true;
                ready += 1;
            }
        }
        // 6. (1.35+) Completed is replaced by Running, an error, or NotReady
        if reason == "Completed" {
            let pod_ready = st
                .conditions
                .iter()
                .any(|c| c.type_ == "Ready" && c.status == "True");
            if has_running && pod_ready {
                reason = "Running".into();
            } else if let Some(e) = error_reason {
                reason = e;
            } else if has_running {
                reason = "NotReady".into();
            }
        }
    }

    // 7. deletion
    if pod.metadata.deletion_timestamp.is_some() {
        if st.reason == "NodeLost" {
            reason = "Unknown".into();
        } else if st.phase != "Succeeded" && st.phase != "Failed" {
            reason = "Terminating".into();
        }
    }

    PodSummary {
        ready,
        total,
        status: reason,
        restarts: tally.count,
        last_restart: tally.last,
    }
}
