//! Log view harness (issue 15): starts `ktui demo-server --log-rate R --log-pods P`, runs the
//! real ktui binary in a pseudo-terminal on `:logs loggen-…`, and while the generator streams
//! measures keystroke → frame (typing a filter into the `/` prompt, each key timed until the
//! screen shows it), whether the header ever says `lag`, the lag itself every 10 s (`t` shows
//! timestamps: the newest line's kubelet timestamp against the clock when the screen shows
//! it), the ingest rate (the header's `N lines` + `M dropped (bound)` at the start and the
//! end), and the ktui process's RSS sampled every 10 s for the whole run (flat at the
//! buffer's bound is the goal). Figures, not pass/fail; the harness wakes on every read from
//! the pty, so latencies are not rounded to its 20 ms idle poll.
//!
//! Run: `cargo bench --bench logs_pty -- --bench [RATE] [PODS] [SECONDS]` (defaults 50000 1
//! 600); RATE is per pod (`--bench 2500 20 60` is 50,000 lines/s into a 20-pod merged view).
//! `KTUI_BIN=path` runs that ktui binary as the client under test (an older build, for a
//! before/after on the same machine state); the demo server is always this build's. Under
//! `cargo test` it only says how to run it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test and measuring code may panic

#[path = "../tests/support/pty.rs"]
mod pty;

mod harness;

use harness::{cpu_ticks, demo_server, percentile, status_kb, ticks_percent, KTUI};

use std::ffi::OsStr;
use std::time::{Duration, Instant};

/// One round: `/`, then each key of `word` timed until the prompt shows the text so far,
/// then `esc` (drops the filter). Returns the per-key latencies in ms.
fn filter_round(k: &mut pty::Tui, word: &str) -> Vec<f64> {
    k.type_keys("/");
    k.wait_until("the filter prompt", Duration::from_secs(10), |s| {
        s.lines().any(|l| l.trim_start().starts_with('/'))
    });
    let mut out = Vec::new();
    for n in 1..=word.len() {
        let typed = &word[..n];
        let shown = format!("/{typed}");
        let t = Instant::now();
        k.send(&word[n - 1..n]); // send, not type_keys: its 30 ms pause would be timed
        k.wait_until("the typed key", Duration::from_secs(10), |s| {
            s.lines().any(|l| l.trim_start().starts_with(&shown))
        });
        out.push(t.elapsed().as_secs_f64() * 1e3);
    }
    k.press_esc();
    k.wait_until("the prompt to close", Duration::from_secs(10), |s| {
        !s.lines().any(|l| l.trim_start().starts_with('/'))
    });
    out
}

/// Lines received so far as the header counts them (`N lines` + `M dropped (bound)`; with no
/// filter every line is visible), or None when the header does not show them.
fn received(k: &pty::Tui) -> Option<u64> {
    let header: String = k.lines().into_iter().take(3).collect::<Vec<_>>().join(" ");
    let count = |what: &str| -> Option<u64> {
        let re = regex::Regex::new(&format!(r"([0-9][0-9,]*) {what}")).unwrap();
        let c = re.captures(&header)?;
        c[1].replace(',', "").parse().ok()
    };
    Some(count("lines")? + count("dropped").unwrap_or(0))
}

/// One look at the lag: `t` (timestamps on), the newest timestamp on screen against the clock
/// the moment the screen shows timestamps, `t` again. In ms.
fn lag_look(k: &mut pty::Tui) -> f64 {
    let re = regex::Regex::new(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z").unwrap();
    k.send("t");
    k.wait_until("timestamps", Duration::from_secs(10), |s| re.is_match(s));
    let now = jiff::Timestamp::now();
    let screen = k.screen();
    let newest = re
        .find_iter(&screen)
        .filter_map(|m| m.as_str().parse::<jiff::Timestamp>().ok())
        .max()
        .unwrap();
    k.send("t");
    k.wait_until("timestamps gone", Duration::from_secs(10), |s| !re.is_match(s));
    (now.as_millisecond() - newest.as_millisecond()) as f64
}

fn measure(rate: u64, pods: usize, secs: u64) {
    let dir = tempfile::tempdir().unwrap();
    let kc = dir.path().join("kubeconfig");
    let args = [
        "--log-rate".to_owned(),
        rate.to_string(),
        "--log-pods".to_owned(),
        pods.to_string(),
    ];
    let _srv = demo_server(&args, &kc, Duration::from_secs(60));
    let log = dir.path().join("ktui.log");
    let home = dir.path().as_os_str();
    let args: Vec<&OsStr> = vec![
        OsStr::new("--kubeconfig"),
        kc.as_os_str(),
        OsStr::new("-n"),
        OsStr::new("demo"),
        OsStr::new("--log-file"),
        log.as_os_str(),
    ];
    let envs: [(&str, &OsStr); 3] = [
        ("HOME", home),
        ("XDG_CONFIG_HOME", home),
        ("XDG_STATE_HOME", home),
    ];
    let bin = std::env::var("KTUI_BIN").unwrap_or_else(|_| KTUI.to_owned());
    let mut k = pty::Tui::spawn(&bin, &args, &envs, 45, 160);
    k.wait_for("loggen-0", Duration::from_secs(60));
    k.command("logs loggen-");
    k.wait_for("seq=", Duration::from_secs(60));
    let pid = k.pid();
    let start = Instant::now();
    let end = start + Duration::from_secs(secs);
    let mut rss: Vec<(u64, f64)> = Vec::new();
    let mut keys: Vec<f64> = Vec::new();
    let mut lag_seen = 0usize;
    let mut screens = 0usize;
    let mut next_sample = start;
    let mut lags: Vec<f64> = Vec::new();
    let cpu0 = cpu_ticks(pid);
    let got0 = (Instant::now(), received(&k));
    while Instant::now() < end {
        if Instant::now() >= next_sample {
            rss.push((
                start.elapsed().as_secs(),
                status_kb(pid, "VmRSS:") as f64 / 1024.0,
            ));
            lags.push(lag_look(&mut k));
            next_sample += Duration::from_secs(10);
        }
        keys.extend(filter_round(&mut k, "seq="));
        screens += 1;
        if k.screen().lines().take(3).any(|l| l.contains("lag ")) {
            lag_seen += 1;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    let got1 = (Instant::now(), received(&k));
    let ingest = match (got0.1, got1.1) {
        (Some(a), Some(b)) => (b - a) as f64 / (got1.0 - got0.0).as_secs_f64(),
        _ => f64::NAN,
    };
    let cpu = ticks_percent(cpu_ticks(pid).saturating_sub(cpu0), start.elapsed());
    let hwm = status_kb(pid, "VmHWM:") as f64 / 1024.0;
    keys.sort_by(|a, b| a.total_cmp(b));
    let first_min = rss.iter().find(|(t, _)| *t >= 60).map_or(f64::NAN, |r| r.1);
    let last = rss.last().map_or(f64::NAN, |r| r.1);
    let max = rss.iter().map(|r| r.1).fold(0.0, f64::max);
    println!(
        "rate {rate}/s x {pods} pod(s), {secs} s: keystroke→frame p50 {:.0} ms, p90 {:.0} ms, p99 {:.0} ms, max {:.0} ms ({} keys); header said `lag` on {lag_seen} of {screens} looks; ktui CPU {cpu:.0} % of a core; RSS at 1 min {first_min:.0} MiB, at end {last:.0} MiB, max sampled {max:.0} MiB, peak (VmHWM) {hwm:.0} MiB",
        percentile(&keys, 0.5),
        percentile(&keys, 0.9),
        percentile(&keys, 0.99),
        keys.last().copied().unwrap_or(f64::NAN),
        keys.len(),
    );
    println!(
        "ingest {ingest:.0} lines/s into the view (header counts); lag (newest timestamp on screen vs clock) every 10 s: max {:.0} ms, samples {}",
        lags.iter().copied().fold(f64::NAN, f64::max),
        lags.iter().map(|l| format!("{l:.0}")).collect::<Vec<_>>().join(" ")
    );
    let series: Vec<String> = rss.iter().map(|(t, m)| format!("{t}s:{m:.0}")).collect();
    println!("RSS MiB every 10 s: {}", series.join(" "));
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.iter().any(|a| a == "--bench") {
        println!("logs_pty: run with `cargo bench --bench logs_pty -- --bench [RATE] [PODS] [SECONDS]`");
        return;
    }
    let nums: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let rate = nums.first().copied().unwrap_or(50_000);
    let pods = nums.get(1).copied().unwrap_or(1) as usize;
    let secs = nums.get(2).copied().unwrap_or(600);
    measure(rate, pods, secs);
}
