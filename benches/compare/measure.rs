//! What one tool's run measures, against a quiet demo server that is already up: launch →
//! first row and → full count, RSS after sync, CPU over a window, filter keystroke → screen,
//! change → screen of probe pods created and deleted through `api`, RSS with the nodes and
//! events views warm too, and quit → terminal restored / process gone with all that held.
//! Returns figures; must not print or compare them (see `table`).

use std::time::{Duration, Instant};

use crate::api::Api;
use crate::harness::{cpu_percent, cpu_ticks, percentile, status_kb, timed_run};
use crate::pty::Tui;
use crate::tools::{self, Bins, Tool};

/// What a run is asked to do.
pub struct Plan<'a> {
    pub pods: usize,
    /// Load nodes and events the server holds besides the pods (for the warm views).
    pub nodes: usize,
    pub events: usize,
    pub samples: usize,
    /// Keystrokes timed under churn.
    pub key_samples: usize,
    pub cpu_window: Duration,
    pub sync_timeout: Duration,
    pub bins: &'a Bins,
    pub kubeconfig: &'a std::path::Path,
    pub dir: &'a std::path::Path,
}

/// One figure, or why there is none.
#[derive(Debug, Clone)]
pub enum Cell {
    Ms(f64),
    /// Microseconds.
    Us(f64),
    Mb(f64),
    Pct(f64),
    /// A figure that is not a number (`3 of 20`).
    Text(String),
    Na(String),
}

/// Change → screen samples (ms) and how many never showed within the timeout.
#[derive(Debug, Clone, Default)]
pub struct Samples {
    pub ms: Vec<f64>,
    pub missed: usize,
}

/// Everything measured of one tool at one size with a quiet server.
#[derive(Debug, Clone)]
pub struct Quiet {
    pub first_row: Cell,
    pub full: Cell,
    /// CPU per pod from launch to the full count.
    pub sync_cpu: Cell,
    pub json_list: Cell,
    pub rss: Cell,
    pub peak: Cell,
    pub cpu_idle: Cell,
    pub filter: Cell,
    pub created: Result<Samples, String>,
    pub deleted: Result<Samples, String>,
    /// RSS once the nodes and events views were opened and the pods view is back.
    pub rss_warm: Cell,
    /// ctrl-c → the terminal's main screen back, and → the process gone.
    pub restored: Cell,
    pub quit: Cell,
}

impl Quiet {
    /// A run that produced nothing: every cell says `why`.
    pub fn failed(why: &str) -> Quiet {
        let na = || Cell::Na(why.to_owned());
        Quiet {
            first_row: na(),
            full: na(),
            sync_cpu: na(),
            json_list: na(),
            rss: na(),
            peak: na(),
            cpu_idle: na(),
            filter: na(),
            created: Err(why.to_owned()),
            deleted: Err(why.to_owned()),
            rss_warm: na(),
            restored: na(),
            quit: na(),
        }
    }
}

/// The probe pods' common prefix (what the views are filtered to) and the pod that stays.
const PROBE: &str = "cmp-probe";
const SEED: &str = "cmp-probe-seed";
/// How long a change may take to reach the screen before it counts as missed.
const CHANGE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long each view of the warm step may take to show what the server holds.
const WARM_TIMEOUT: Duration = Duration::from_secs(120);
/// How long the view may take to show only the probes' seed pod (not timed).
const SETUP_TIMEOUT: Duration = Duration::from_secs(60);

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn mb(pid: u32, field: &str) -> Cell {
    Cell::Mb(status_kb(pid, field) as f64 / 1024.0)
}

/// Waits for the first row and the full count of an interactive view; `Err` when the view
/// never got there in time. Times are from the spawn.
pub fn sync(t: &Tui, tool: Tool, plan: &Plan) -> Result<(Duration, Duration), String> {
    t.try_wait_until(plan.sync_timeout, tools::first_row)
        .ok_or_else(|| format!("no row in {:?}", plan.sync_timeout))?;
    let first = t.started.elapsed();
    t.try_wait_until(plan.sync_timeout, |s| tools::synced(tool, s, plan.pods))
        .ok_or_else(|| format!("count < {} after {:?}", plan.pods, plan.sync_timeout))?;
    Ok((first, t.started.elapsed()))
}

/// ktui or k9s with a quiet server.
pub fn interactive(tool: Tool, plan: &Plan, api: &Api) -> Quiet {
    let bin = plan.bins.of(tool).expect("a binary");
    let mut t = tools::spawn(tool, bin, plan.kubeconfig, plan.dir, &[]);
    let (first, full) = match sync(&t, tool, plan) {
        Ok(v) => v,
        Err(e) => return Quiet::failed(&e),
    };
    let pid = t.pid();
    // µs of CPU per pod from launch to the full count (list, decode, rows, drawing).
    let sync_cpu = Cell::Us(cpu_ticks(pid) as f64 * 1e4 / plan.pods as f64);
    std::thread::sleep(Duration::from_secs(2));
    let (rss, peak) = (mb(pid, "VmRSS:"), mb(pid, "VmHWM:"));
    let cpu_idle = Cell::Pct(cpu_percent(pid, plan.cpu_window));
    // Filter keystroke → screen: the first letter after `/`, to the narrower count shown.
    t.type_keys("/");
    std::thread::sleep(Duration::from_millis(500));
    let before = tools::count(tool, &t.screen());
    let t0 = Instant::now();
    t.send("q"); // send, not type_keys: its 30 ms pause would be timed
    let narrower =
        |s: &str| tools::count(tool, s).is_some_and(|c| Some(c) != before && (c as usize) < plan.pods);
    let filter = match t.try_wait_until(CHANGE_TIMEOUT, narrower) {
        Some(_) => Cell::Ms(ms(t0.elapsed())),
        None => Cell::Na(format!("filter not shown in {CHANGE_TIMEOUT:?}")),
    };
    // The probes' view: filtered to their prefix, showing the one pod that stays.
    api.create_pod(SEED);
    t.send("\x7f");
    std::thread::sleep(Duration::from_millis(300));
    t.type_keys(PROBE);
    let one = |s: &str| s.contains(SEED) && tools::count(tool, s) == Some(1);
    if t.try_wait_until(SETUP_TIMEOUT, one).is_none() {
        api.delete_pod(SEED);
        let mut q = Quiet::failed(&format!("probe view not shown in {SETUP_TIMEOUT:?}"));
        q.json_list = Cell::Na("kubectl only".into());
        (
            q.first_row,
            q.full,
            q.sync_cpu,
            q.rss,
            q.peak,
            q.cpu_idle,
            q.filter,
        ) = (
            Cell::Ms(ms(first)),
            Cell::Ms(ms(full)),
            sync_cpu,
            rss,
            peak,
            cpu_idle,
            filter,
        );
        return q;
    }
    let (created, deleted) = probes(plan.samples, api, |name, present| {
        t.try_wait_until(CHANGE_TIMEOUT, |s| s.contains(name) == present)
            .is_some()
    });
    api.delete_pod(SEED);
    let rss_warm = match warm(&mut t, tool, plan) {
        Ok(()) => mb(pid, "VmRSS:"),
        Err(e) => Cell::Na(e),
    };
    let (restored, quit) = quit(&mut t);
    Quiet {
        first_row: Cell::Ms(ms(first)),
        full: Cell::Ms(ms(full)),
        sync_cpu,
        json_list: Cell::Na("kubectl only".into()),
        rss,
        peak,
        cpu_idle,
        filter,
        created: Ok(created),
        deleted: Ok(deleted),
        rss_warm,
        restored,
        quit,
    }
}

/// Leaves the filter, opens the nodes view and the events view of all namespaces, each until
/// it holds what the server has, then the pods view again until it holds every pod: every
/// informer (ktui) or watcher (k9s) of the three is then warm (ktui keeps an unused informer
/// for 30 s).
fn warm(t: &mut Tui, tool: Tool, plan: &Plan) -> Result<(), String> {
    t.press_esc();
    t.press_esc();
    std::thread::sleep(Duration::from_millis(300));
    for (view, least) in [
        ("nodes", plan.nodes),
        ("events", plan.events),
        ("pods", plan.pods),
    ] {
        t.command(view);
        let held = |s: &str| tools::view_holds(tool, s, view, least);
        if t.try_wait_until(WARM_TIMEOUT, held).is_none() {
            return Err(format!("`:{view}` not shown whole in {WARM_TIMEOUT:?}"));
        }
    }
    std::thread::sleep(Duration::from_secs(1));
    Ok(())
}

/// ctrl-c, then how long until the terminal left the alternate screen, and until the process
/// was gone (polled every millisecond).
fn quit(t: &mut Tui) -> (Cell, Cell) {
    let t0 = Instant::now();
    t.press_ctrl_c();
    let mut restored = None;
    while t0.elapsed() < Duration::from_secs(10) {
        if restored.is_none() && !t.alternate_screen() {
            restored = Some(t0.elapsed());
        }
        if t.try_wait().is_some() {
            let gone = t0.elapsed();
            let restored = restored.unwrap_or(gone);
            return (Cell::Ms(ms(restored)), Cell::Ms(ms(gone)));
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let na = || Cell::Na("still running 10 s after ctrl-c".into());
    (restored.map_or_else(na, |d| Cell::Ms(ms(d))), na())
}

/// `samples` probe pods, each created then deleted; `shown(name, present)` waits (up to
/// the timeout) for the tool to show the pod present / gone and says whether it did. Times
/// run from just before the request is sent.
fn probes(samples: usize, api: &Api, shown: impl Fn(&str, bool) -> bool) -> (Samples, Samples) {
    let (mut created, mut deleted) = (Samples::default(), Samples::default());
    for i in 0..samples {
        let name = format!("{PROBE}-{i:03}");
        let t0 = Instant::now();
        api.create_pod(&name);
        if shown(&name, true) {
            created.ms.push(ms(t0.elapsed()));
        } else {
            created.missed += 1;
        }
        std::thread::sleep(Duration::from_millis(200));
        let t0 = Instant::now();
        api.delete_pod(&name);
        if shown(&name, false) {
            deleted.ms.push(ms(t0.elapsed()));
        } else {
            deleted.missed += 1;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    (created, deleted)
}

/// Newlines in the raw output so far, counted from `*from` on (advanced), added to `*lines`.
fn count_lines(t: &Tui, from: &mut usize, lines: &mut usize) -> usize {
    let bytes = t.raw_from(*from);
    *from += bytes.len();
    *lines += bytes.iter().filter(|&&b| b == b'\n').count();
    *lines
}

/// A line of the raw output after offset `from` holds `event` and `name`.
fn raw_line_with(t: &Tui, from: usize, event: &str, name: &str) -> bool {
    let text = String::from_utf8_lossy(&t.raw_from(from)).into_owned();
    text.lines().any(|l| l.contains(event) && l.contains(name))
}

/// `kubectl get pods -A -w --output-watch-events` once it has printed the whole list, or
/// `None` when it did not within the sync timeout.
pub fn kubectl_watch(plan: &Plan) -> Option<Tui> {
    let bin = plan.bins.kubectl.as_deref().expect("kubectl");
    let w = tools::spawn(
        Tool::Kubectl,
        bin,
        plan.kubeconfig,
        plan.dir,
        &["-w", "--output-watch-events"],
    );
    let (mut from, mut lines) = (0, 0);
    w.try_wait_output(plan.sync_timeout, |t| {
        count_lines(t, &mut from, &mut lines) > plan.pods
    })?;
    Some(w)
}

/// kubectl with a quiet server: `get pods -A` in the pty (first row, all rows = exit),
/// `get pods -A -o json > /dev/null` (time, peak RSS), and `get pods -A -w
/// --output-watch-events` for RSS after the list, idle CPU and change → output.
pub fn kubectl(plan: &Plan, api: &Api) -> Quiet {
    let bin = plan.bins.kubectl.as_deref().expect("kubectl");
    let kc = plan.kubeconfig.to_str().expect("utf-8 path");
    let mut t = tools::spawn(Tool::Kubectl, bin, plan.kubeconfig, plan.dir, &[]);
    let first = t
        .try_wait_until(plan.sync_timeout, tools::first_row)
        .map(|_| t.started.elapsed());
    let full = t.wait_exit(plan.sync_timeout).map(|_| t.started.elapsed());
    drop(t);
    let (Some(first), Some(full)) = (first, full) else {
        return Quiet::failed("kubectl get did not finish");
    };
    let json_list = match timed_run(bin, &["--kubeconfig", kc, "get", "pods", "-A", "-o", "json"]) {
        Ok(ran) => Cell::Ms(ms(ran.took)),
        Err(e) => Cell::Na(e),
    };
    let Some(w) = kubectl_watch(plan) else {
        let mut q = Quiet::failed("kubectl -w listed too few pods");
        (q.first_row, q.full, q.json_list) = (Cell::Ms(ms(first)), Cell::Ms(ms(full)), json_list);
        return q;
    };
    std::thread::sleep(Duration::from_secs(2));
    let pid = w.pid();
    let (rss, peak) = (mb(pid, "VmRSS:"), mb(pid, "VmHWM:"));
    let cpu_idle = Cell::Pct(cpu_percent(pid, plan.cpu_window));
    let (created, deleted) = probes(plan.samples, api, |name, present| {
        let from = w.raw_len();
        let event = if present { "ADDED" } else { "DELETED" };
        // The request was sent before `from` was read: look back over the tail too.
        let from = from.saturating_sub(4096);
        w.try_wait_output(CHANGE_TIMEOUT, |t| raw_line_with(t, from, event, name))
            .is_some()
    });
    Quiet {
        first_row: Cell::Ms(ms(first)),
        full: Cell::Ms(ms(full)),
        sync_cpu: Cell::Na("exits; not read".into()),
        json_list,
        rss,
        peak,
        cpu_idle,
        filter: Cell::Na("no interactive filter".into()),
        created: Ok(created),
        deleted: Ok(deleted),
        rss_warm: Cell::Na("one list per run".into()),
        restored: Cell::Na("no interactive view".into()),
        quit: Cell::Na("no interactive view".into()),
    }
}

/// A figure's number (`None` for words).
pub fn value(c: &Cell) -> Option<f64> {
    match c {
        Cell::Ms(v) | Cell::Us(v) | Cell::Mb(v) | Cell::Pct(v) => Some(*v),
        Cell::Text(_) | Cell::Na(_) => None,
    }
}

/// A figure as the table prints it.
pub fn show(c: &Cell) -> String {
    match c {
        Cell::Ms(v) if *v >= 10_000.0 => format!("{:.1} s", v / 1e3),
        Cell::Ms(v) => format!("{v:.0} ms"),
        Cell::Us(v) => format!("{v:.1} µs"),
        Cell::Mb(v) => format!("{v:.0} MB"),
        Cell::Pct(v) => format!("{v:.1} %"),
        Cell::Text(t) => t.clone(),
        Cell::Na(why) => format!("n/a ({why})"),
    }
}

/// `p` of the samples (or the reason there are none); `p` > 1 means the maximum.
pub fn sample_cell(s: &Result<Samples, String>, p: f64) -> Cell {
    match s {
        Err(e) => Cell::Na(e.clone()),
        Ok(s) if s.ms.is_empty() => Cell::Na(format!("{} of {} never shown", s.missed, s.missed)),
        Ok(s) => {
            let mut v = s.ms.clone();
            v.sort_by(|a, b| a.total_cmp(b));
            Cell::Ms(if p > 1.0 {
                v[v.len() - 1]
            } else {
                percentile(&v, p)
            })
        }
    }
}

/// `missed of all` keystrokes not shown in time (or why there are none).
pub fn missed_cell(s: &Result<Samples, String>) -> Cell {
    match s {
        Err(e) => Cell::Na(e.clone()),
        Ok(s) => Cell::Text(format!("{} of {}", s.missed, s.missed + s.ms.len())),
    }
}
