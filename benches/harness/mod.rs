//! What the whole-process harnesses (`scale_pty`, `logs_pty`, `history_load`, `compare`,
//! `real_sync`) share: a `ktui demo-server` child that dies with the harness, a process's CPU
//! ticks and `/proc/PID/status` sizes, and a command timed to its exit with its peak RSS.
//! Measuring code only; must not decide what a run measures.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The ktui binary of this build.
pub const KTUI: &str = env!("CARGO_BIN_EXE_ktui");

/// A child process, killed and reaped on drop.
pub struct Server(pub Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `ktui demo-server --addr 127.0.0.1:0 --kubeconfig-out KUBECONFIG ARGS…` and waits
/// (up to `patience`) until it has written the kubeconfig, i.e. answers.
pub fn demo_server(args: &[String], kubeconfig: &Path, patience: Duration) -> Server {
    let child = Command::new(KTUI)
        .args(["demo-server", "--addr", "127.0.0.1:0", "--kubeconfig-out"])
        .arg(kubeconfig)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start demo-server");
    let t = Instant::now();
    while !kubeconfig.exists() && t.elapsed() < patience {
        std::thread::sleep(Duration::from_millis(50));
    }
    // The kubeconfig is written once the server answers; give it a moment to settle.
    std::thread::sleep(Duration::from_millis(200));
    Server(child)
}

/// (utime + stime) of process `pid` in clock ticks (USER_HZ, 100 per second on Linux), from
/// `/proc/PID/stat`; 0 when unreadable.
pub fn cpu_ticks(pid: u32) -> u64 {
    stat_ticks(&format!("/proc/{pid}/stat"))
}

/// [`cpu_ticks`] of one thread `tid` of process `pid` (`/proc/PID/task/TID/stat`).
pub fn thread_ticks(pid: u32, tid: u32) -> u64 {
    stat_ticks(&format!("/proc/{pid}/task/{tid}/stat"))
}

/// `ticks` of CPU time (from [`cpu_ticks`] or [`thread_ticks`]) spent over `over`, as a
/// percentage of one core.
pub fn ticks_percent(ticks: u64, over: Duration) -> f64 {
    ticks as f64 / 100.0 / over.as_secs_f64() * 100.0
}

/// CPU % of one core used by `pid` over `window` (sleeps through it; 10 ms resolution).
pub fn cpu_percent(pid: u32, window: Duration) -> f64 {
    let a = cpu_ticks(pid);
    std::thread::sleep(window);
    ticks_percent(cpu_ticks(pid).saturating_sub(a), window)
}

/// utime + stime of a `stat` file; 0 when unreadable.
fn stat_ticks(path: &str) -> u64 {
    let stat = std::fs::read_to_string(path).unwrap_or_default();
    let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    f.get(11).and_then(|u| u.parse::<u64>().ok()).unwrap_or(0)
        + f.get(12).and_then(|s| s.parse::<u64>().ok()).unwrap_or(0)
}

/// A `/proc/PID/status` size field (`"VmRSS:"`, `"VmHWM:"`) in KiB; 0 when unreadable.
pub fn status_kb(pid: u32, field: &str) -> u64 {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    s.lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// What [`timed_run`] measured of one run.
pub struct Ran {
    /// Spawn → exit.
    pub took: Duration,
    /// Peak RSS, MB (wait4's `ru_maxrss`).
    pub peak_mb: f64,
    /// User + system CPU, seconds.
    pub cpu: f64,
}

/// Runs `bin ARGS` with stdout and stderr to /dev/null until it exits: its wall time, peak
/// RSS and CPU from wait4's rusage. `Err` when it did not start or did not exit 0.
pub fn timed_run(bin: &Path, args: &[&str]) -> Result<Ran, String> {
    let what = || {
        let name = bin.file_name().unwrap_or(bin.as_os_str()).to_string_lossy();
        format!("{name} {}", args.join(" "))
    };
    let t0 = Instant::now();
    let child = Command::new(bin)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", what()))?;
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 reaps our own child (std's Child never waits on drop).
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut ru) };
    let took = t0.elapsed();
    if rc < 0 || !libc::WIFEXITED(status) || libc::WEXITSTATUS(status) != 0 {
        let how = if rc >= 0 && libc::WIFEXITED(status) {
            format!("exit {}", libc::WEXITSTATUS(status))
        } else {
            format!("wait status {status}, rc {rc}")
        };
        return Err(format!("{} failed ({how})", what()));
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Ok(Ran {
        took,
        peak_mb: ru.ru_maxrss as f64 / 1024.0,
        cpu: secs(ru.ru_utime) + secs(ru.ru_stime),
    })
}

/// The `p` quantile (0..=1, nearest rank) of ascending `sorted`; NaN when empty.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}
