//! What one tool's run measures against a server making 1,000 changes/s, once its view holds
//! every pod: the process's CPU over a window, the render loop's share of it (ktui: the UI
//! thread, which is the main thread), and filter keystroke → screen while the changes keep
//! arriving. Returns figures; must not print or compare them (see `table`).

use std::time::{Duration, Instant};

use crate::harness::{cpu_percent, cpu_ticks, thread_ticks, ticks_percent};
use crate::measure::{kubectl_watch, sync, Cell, Plan, Samples};
use crate::pty::Tui;
use crate::tools::{self, Tool};

/// Everything measured of one tool at one size under churn.
#[derive(Debug, Clone)]
pub struct Churn {
    pub cpu: Cell,
    /// CPU % of one core used by the render loop's thread over the same window.
    pub render: Cell,
    /// Filter keystroke → screen, each a narrowing letter or the backspace that undoes it.
    pub keys: Result<Samples, String>,
}

impl Churn {
    /// A run that produced nothing: every cell says `why`.
    pub fn failed(why: &str) -> Churn {
        Churn {
            cpu: Cell::Na(why.to_owned()),
            render: Cell::Na(why.to_owned()),
            keys: Err(why.to_owned()),
        }
    }
}

/// How long one keystroke may take to reach the screen before it counts as missed.
const KEY_TIMEOUT: Duration = Duration::from_secs(10);
/// The keystroke phase stops taking samples after this long (k9s under churn is slow).
const KEY_BUDGET: Duration = Duration::from_secs(120);

/// CPU % of the whole process and of its main thread over `window`.
pub fn cpu_and_main(pid: u32, window: Duration) -> (f64, f64) {
    let (a, ma) = (cpu_ticks(pid), thread_ticks(pid, pid));
    std::thread::sleep(window);
    let (b, mb) = (cpu_ticks(pid), thread_ticks(pid, pid));
    (
        ticks_percent(b.saturating_sub(a), window),
        ticks_percent(mb.saturating_sub(ma), window),
    )
}

/// `samples` keystrokes into the open `/` prompt: `q` (narrows the view to far fewer pods)
/// and backspace (back to all of them), alternately, each timed from the write to the count
/// on screen saying so; pauses of 40–160 ms between them, so keystrokes fall at every phase of
/// the tool's publication interval.
pub fn keystrokes(t: &mut Tui, tool: Tool, pods: usize, samples: usize) -> Samples {
    t.type_keys("/");
    std::thread::sleep(Duration::from_millis(500));
    let wide = (pods as u64) * 9 / 10;
    let mut s = Samples::default();
    let started = Instant::now();
    for i in 0..samples {
        if started.elapsed() > KEY_BUDGET {
            break;
        }
        let narrowing = i % 2 == 0;
        let t0 = Instant::now();
        t.send(if narrowing { "q" } else { "\x7f" });
        let shown =
            |scr: &str| tools::count(tool, scr).is_some_and(|c| if narrowing { c < wide } else { c >= wide });
        match t.try_wait_until(KEY_TIMEOUT, shown) {
            Some(_) => s.ms.push(t0.elapsed().as_secs_f64() * 1e3),
            None => {
                s.missed += 1;
                // The next keystroke must start from the screen this one asked for, or its
                // count could already read as shown (a 0 ms sample); a tool that never gets
                // there ends the samples.
                if t.try_wait_until(KEY_BUDGET, shown).is_none() {
                    break;
                }
            }
        }
        std::thread::sleep(Duration::from_millis(40 + (i as u64 * 37) % 121));
    }
    s
}

/// CPU of `tool`'s view over the window once it holds every pod of a churning server, the
/// render loop's share (ktui), and keystroke → screen under the same churn (ktui, k9s).
pub fn measure(tool: Tool, plan: &Plan) -> Churn {
    let bin = plan.bins.of(tool).expect("a binary");
    if tool == Tool::Kubectl {
        return kubectl(plan);
    }
    let mut t = tools::spawn(tool, bin, plan.kubeconfig, plan.dir, &[]);
    if let Err(e) = sync(&t, tool, plan) {
        return Churn::failed(&e);
    }
    std::thread::sleep(Duration::from_secs(2));
    let (cpu, main) = cpu_and_main(t.pid(), plan.cpu_window);
    let render = match tool {
        Tool::Ktui => Cell::Pct(main),
        _ => Cell::Na("no single render thread (Go runtime)".into()),
    };
    let keys = Ok(keystrokes(&mut t, tool, plan.pods, plan.key_samples));
    Churn {
        cpu: Cell::Pct(cpu),
        render,
        keys,
    }
}

/// `kubectl get pods -A -w`: CPU over the window, or why there is no figure.
fn kubectl(plan: &Plan) -> Churn {
    let na = |why: &str| Churn {
        cpu: Cell::Na(why.to_owned()),
        render: Cell::Na("no render loop".into()),
        keys: Err("no interactive filter".into()),
    };
    let Some(mut w) = kubectl_watch(plan) else {
        return na("kubectl -w listed too few pods");
    };
    std::thread::sleep(Duration::from_secs(2));
    let cpu = cpu_percent(w.pid(), plan.cpu_window);
    if w.try_wait().is_some() {
        // `get -w` does not relist: a watch from a list revision already compacted away
        // ends it (410 Gone, "too old resource version").
        let last = w.lines().into_iter().rfind(|l| !l.is_empty()).unwrap_or_default();
        return na(&format!(
            "kubectl -w exited: {}",
            last.chars().take(60).collect::<String>()
        ));
    }
    Churn {
        cpu: Cell::Pct(cpu),
        ..na("")
    }
}
