//! Union-of-contexts benchmark: N `ktui demo-server`s of P pods each, one kubeconfig with
//! contexts c1…cN, and `ktui --context c1,…,cN -A` (the union list) timed in the compare
//! harness's pseudo-terminal beside `ktui -A` against one server of N×P pods: launch → first
//! row and → full count (every member live), RSS, CPU idle and under C changes/s (C/N per
//! server), keystroke → screen under that churn; then one server frozen (SIGSTOP): how soon
//! the header names it, keystrokes meanwhile, a fresh launch, and SIGCONT → live again.
//! Run it through `bash benches/union/run.sh`, or `cargo bench --bench union -- --bench
//! [--servers N] [--pods P] [--churn C] [--key-samples K] [--cpu-secs T] [--cols W]
//! [--freeze I]`. Limits: one run per figure, no warm-up; every server shares the machine's
//! cores with ktui; the terminal is wider than compare's (the header must hold every
//! member), for both columns. Under `cargo test` it only says how to run it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // measuring code may panic

#[path = "../tests/support/pty.rs"]
mod pty;

mod harness;

#[path = "compare/api.rs"]
mod api;
#[allow(dead_code)]
#[path = "compare/churn.rs"]
mod churn;
#[allow(dead_code)]
#[path = "compare/measure.rs"]
mod measure;
#[allow(dead_code)]
#[path = "compare/tools.rs"]
mod tools;

use std::ffi::OsString;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use harness::{status_kb, Server};
use measure::{missed_cell, sample_cell, show, value, Cell, Samples};
use pty::Tui;
use tools::Tool;

/// Terminal rows of every run (columns: `--cols`).
const ROWS: u16 = 45;
/// How long a view may take to hold every pod.
const SYNC_TIMEOUT: Duration = Duration::from_secs(300);
/// How long the header may take to name a frozen member (or bring it back after SIGCONT):
/// ktui calls a watch stale after 2 bookmark intervals of silence, 120 s by default.
const STATE_TIMEOUT: Duration = Duration::from_secs(180);
/// The goals of the issue.
const FIRST_ROW_GOAL_MS: f64 = 300.0;
const KEY_P99_GOAL_MS: f64 = 50.0;
const RSS_RATIO_GOAL: f64 = 1.2;
const NAMED_GOAL_MS: f64 = 15_000.0;

/// Command-line options (see the module doc).
struct Opts {
    servers: usize,
    /// Pods per server (the single server holds `servers × pods`).
    pods: usize,
    /// Changes per second in all (each union server makes its share).
    churn: u32,
    key_samples: usize,
    cpu_secs: u64,
    cols: u16,
    /// The member (1-based) frozen under the running view.
    freeze: usize,
}

fn parse_opts(args: &[String]) -> Opts {
    let mut o = Opts {
        servers: 10,
        pods: 10_000,
        churn: 1_000,
        key_samples: 100,
        cpu_secs: 30,
        cols: 300,
        freeze: 1,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || it.next().unwrap_or_else(|| panic!("{a} needs a value")).clone();
        match a.as_str() {
            "--bench" => {}
            "--servers" => o.servers = val().parse().expect("--servers N"),
            "--pods" => o.pods = val().parse().expect("--pods N"),
            "--churn" => o.churn = val().parse().expect("--churn N"),
            "--key-samples" => o.key_samples = val().parse().expect("--key-samples N"),
            "--cpu-secs" => o.cpu_secs = val().parse().expect("--cpu-secs SECONDS"),
            "--cols" => o.cols = val().parse().expect("--cols N"),
            "--freeze" => o.freeze = val().parse().expect("--freeze I"),
            other => panic!("unknown argument {other}"),
        }
    }
    assert!(o.servers >= 2, "a union needs at least two servers");
    assert!((1..=o.servers).contains(&o.freeze), "--freeze must name a server");
    o
}

// ---- servers and kubeconfigs ----

/// The demo servers of one phase and the kubeconfig that opens them.
struct Fleet {
    servers: Vec<Server>,
    kubeconfig: PathBuf,
    /// The union's contexts `c1`…`cN`; empty for the single server (its current context).
    contexts: Vec<String>,
}

/// Starts a demo server of `pods` pods making `churn` changes/s; its kubeconfig at `kc`.
fn start_server(kc: &Path, pods: usize, churn: u32, seed: usize) -> Server {
    let args: Vec<String> = [("--pods", pods), ("--churn", churn as usize), ("--seed", seed)]
        .iter()
        .flat_map(|(k, v)| [k.to_string(), v.to_string()])
        .collect();
    let srv = harness::demo_server(&args, kc, SYNC_TIMEOUT);
    assert!(kc.exists(), "the demo server wrote no kubeconfig");
    srv
}

/// Waits until the server behind `kc` makes no more than its churn (plus the scenario's
/// own ticks), as compare does: at start it first runs its pods through their phases.
fn settle(kc: &Path, churn: u32) {
    let calm = 50 + u64::from(churn) * 13 / 10;
    let took = api::Api::from_kubeconfig(kc).settle(calm, SYNC_TIMEOUT);
    eprintln!("{}: settled (≤ {calm} changes/s) after {took:.1?}", kc.display());
}

/// The first `server:` and `token:` of a demo server's kubeconfig (its admin context).
fn endpoint(kc: &Path) -> (String, String) {
    let text = std::fs::read_to_string(kc).expect("read a server's kubeconfig");
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(key).map(|v| v.trim().to_owned()))
            .unwrap_or_else(|| panic!("no {key} in {}", kc.display()))
    };
    (field("server:"), field("token:"))
}

/// One kubeconfig with a cluster, user and context `cI` per `(server, token)`.
fn merged_kubeconfig(members: &[(String, String)]) -> String {
    let mut clusters = String::new();
    let mut contexts = String::new();
    let mut users = String::new();
    for (i, (server, token)) in members.iter().enumerate() {
        let c = format!("c{}", i + 1);
        clusters.push_str(&format!("- name: {c}\n  cluster:\n    server: {server}\n"));
        contexts.push_str(&format!(
            "- name: {c}\n  context:\n    cluster: {c}\n    user: {c}\n"
        ));
        users.push_str(&format!("- name: {c}\n  user:\n    token: {token}\n"));
    }
    format!(
        "apiVersion: v1\nkind: Config\nclusters:\n{clusters}contexts:\n{contexts}\
         current-context: c1\nusers:\n{users}preferences: {{}}\n"
    )
}

/// Writes `text` to `path`, readable by its owner only.
fn write_private(path: &Path, text: &str) {
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .expect("create the merged kubeconfig");
    f.write_all(text.as_bytes()).expect("write the merged kubeconfig");
}

/// `o.servers` servers of `o.pods` pods, each making `churn / servers` changes/s, and the
/// merged kubeconfig `union-TAG.yaml` under `dir`.
fn union_fleet(o: &Opts, dir: &Path, tag: &str, churn: u32) -> Fleet {
    let each = churn / o.servers as u32;
    let kcs: Vec<PathBuf> = (1..=o.servers)
        .map(|i| dir.join(format!("{tag}-c{i}.yaml")))
        .collect();
    let servers: Vec<Server> = kcs
        .iter()
        .enumerate()
        .map(|(i, kc)| start_server(kc, o.pods, each, i + 1))
        .collect();
    kcs.iter().for_each(|kc| settle(kc, each));
    let kubeconfig = dir.join(format!("union-{tag}.yaml"));
    let members: Vec<(String, String)> = kcs.iter().map(|kc| endpoint(kc)).collect();
    write_private(&kubeconfig, &merged_kubeconfig(&members));
    Fleet {
        servers,
        kubeconfig,
        contexts: (1..=o.servers).map(|i| format!("c{i}")).collect(),
    }
}

/// One server of `servers × pods` pods making `churn` changes/s.
fn single_fleet(o: &Opts, dir: &Path, tag: &str, churn: u32) -> Fleet {
    let kubeconfig = dir.join(format!("single-{tag}.yaml"));
    let server = start_server(&kubeconfig, o.servers * o.pods, churn, 1);
    settle(&kubeconfig, churn);
    Fleet {
        servers: vec![server],
        kubeconfig,
        contexts: Vec::new(),
    }
}

/// A server held stopped (SIGSTOP) until this is dropped (SIGCONT).
struct Stopped(libc::pid_t);

impl Stopped {
    fn new(s: &Server) -> Stopped {
        let pid = s.0.id() as libc::pid_t;
        // SAFETY: a signal to our own child, which is not reaped before its Server drops.
        unsafe { libc::kill(pid, libc::SIGSTOP) };
        Stopped(pid)
    }
}

impl Drop for Stopped {
    fn drop(&mut self) {
        // SAFETY: as in `new`.
        unsafe { libc::kill(self.0, libc::SIGCONT) };
    }
}

// ---- ktui and its header ----

/// What one ktui run opens.
struct Target<'a> {
    fleet: &'a Fleet,
    /// Pods in all: what the full count must reach.
    total: usize,
    /// Under churn the count wavers by the replacements in flight: 99 % then counts as full.
    churning: bool,
    dir: &'a Path,
    cols: u16,
}

impl Target<'_> {
    fn least(&self) -> u64 {
        let t = self.total as u64;
        if self.churning {
            t - t / 100
        } else {
            t
        }
    }

    fn members(&self) -> usize {
        self.fleet.contexts.len()
    }

    /// What one member's count must reach.
    fn member_least(&self) -> u64 {
        self.least() / self.members().max(1) as u64
    }
}

/// `ktui --kubeconfig K [--context c1,…,cN] -A` in a fresh HOME, logging to `dir/NAME.log`.
fn spawn(t: &Target, name: &str) -> Tui {
    let home = t.dir.join(name);
    std::fs::create_dir_all(&home).expect("a HOME for the run");
    let log = t.dir.join(format!("{name}.log"));
    let mut args: Vec<OsString> = vec![
        "--kubeconfig".into(),
        t.fleet.kubeconfig.clone().into(),
        "-A".into(),
        "--log-file".into(),
        log.clone().into(),
    ];
    if !t.fleet.contexts.is_empty() {
        args.push("--context".into());
        args.push(t.fleet.contexts.join(",").into());
    }
    let vars = [
        "HOME",
        "XDG_CONFIG_HOME",
        "XDG_STATE_HOME",
        "XDG_DATA_HOME",
        "XDG_CACHE_HOME",
    ];
    let envs: Vec<(&str, &std::ffi::OsStr)> = vars.iter().map(|k| (*k, home.as_os_str())).collect();
    let mut tui = Tui::spawn(harness::KTUI, &args, &envs, ROWS, t.cols);
    tui.log_file = Some(log);
    tui
}

/// One member's words in the union header: a live one is its name and count (` c3 10,000`),
/// one that is not adds its state (` c1 10,000 ◷ stale: no word from the server for 12s`).
struct Member {
    /// Its words as shown.
    raw: String,
    context: String,
    count: Option<u64>,
    /// Its state's words without the icon; empty (or `live`) when live.
    state: String,
}

impl Member {
    fn live(&self) -> bool {
        self.state.is_empty() || self.state == "live"
    }
}

/// The header line (line 2) and the list's own part of it (before the members).
fn header(screen: &str) -> (&str, &str) {
    let line = screen.lines().nth(1).unwrap_or("");
    (line, line.split('│').next().unwrap_or(""))
}

fn number(word: &str) -> Option<u64> {
    word.trim_end_matches('…').replace(',', "").parse().ok()
}

/// One member's part of the header (`c3 10,000`, `c1 ↻ reconnecting…`).
fn parse_member(part: &str) -> Option<Member> {
    let mut words = part.split_whitespace().peekable();
    let context = words.next()?.to_owned();
    let count = words.peek().and_then(|w| number(w));
    if count.is_some() {
        words.next();
    }
    // The state's icon is one symbol (`●`, `◷`, `↻`, `✖`…).
    let icon = |w: &&str| w.chars().count() == 1 && !w.chars().all(char::is_alphanumeric);
    if words.peek().is_some_and(icon) {
        words.next();
    }
    let state = words.collect::<Vec<_>>().join(" ");
    Some(Member {
        raw: part.trim().to_owned(),
        context,
        count,
        state,
    })
}

/// The members the header lists after `│` (none for a single cluster).
fn members(screen: &str) -> Vec<Member> {
    match header(screen).0.split_once('│') {
        Some((_, rest)) => rest.split(" · ").filter_map(parse_member).collect(),
        None => Vec::new(),
    }
}

/// Member `name` as the header shows it, if it does.
fn member(screen: &str, name: &str) -> Option<Member> {
    members(screen).into_iter().find(|m| m.context == name)
}

/// The view holds every pod and says `live`, and so does every member.
fn full(t: &Target, screen: &str) -> bool {
    let ms = members(screen);
    tools::count(Tool::Ktui, screen).is_some_and(|n| n >= t.least())
        && header(screen).1.contains("live")
        && ms.len() == t.members()
        && ms.iter().all(Member::live)
}

/// How many members but `frozen` are live with their share of the pods.
fn others_live(t: &Target, screen: &str, frozen: &str) -> usize {
    let least = t.member_least();
    members(screen)
        .iter()
        .filter(|m| m.context != frozen && m.live() && m.count.is_some_and(|n| n >= least))
        .count()
}

/// Member `name`'s words as the header shows them, or that it does not.
fn member_words(screen: &str, name: &str) -> String {
    match member(screen, name) {
        Some(m) => m.raw,
        None => format!("{name} not on screen (header cut?)"),
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn mb(pid: u32, field: &str) -> Cell {
    Cell::Mb(status_kb(pid, field) as f64 / 1024.0)
}

/// Launch → first row and → the full count (times from the spawn).
fn sync(tui: &Tui, t: &Target) -> Result<(Duration, Duration), String> {
    tui.try_wait_until(SYNC_TIMEOUT, tools::first_row)
        .ok_or_else(|| format!("no row in {SYNC_TIMEOUT:?}"))?;
    let first = tui.started.elapsed();
    tui.try_wait_until(SYNC_TIMEOUT, |s| full(t, s)).ok_or_else(|| {
        eprintln!("{}", tui.dump());
        format!("not full and live in {SYNC_TIMEOUT:?}")
    })?;
    Ok((first, tui.started.elapsed()))
}

// ---- the phases ----

/// Figures of one view against quiet servers.
struct Quiet {
    first: Cell,
    full: Cell,
    rss: Cell,
    peak: Cell,
    cpu: Cell,
}

impl Quiet {
    fn failed(why: &str) -> Quiet {
        let na = || Cell::Na(why.to_owned());
        Quiet {
            first: na(),
            full: na(),
            rss: na(),
            peak: na(),
            cpu: na(),
        }
    }
}

/// Launch → first row / full count, RSS 2 s later, CPU over `window`.
fn quiet(t: &Target, window: Duration) -> Quiet {
    let tui = spawn(t, "quiet");
    let (first, full) = match sync(&tui, t) {
        Ok(v) => v,
        Err(e) => return Quiet::failed(&e),
    };
    std::thread::sleep(Duration::from_secs(2));
    let pid = tui.pid();
    Quiet {
        first: Cell::Ms(ms(first)),
        full: Cell::Ms(ms(full)),
        rss: mb(pid, "VmRSS:"),
        peak: mb(pid, "VmHWM:"),
        cpu: Cell::Pct(harness::cpu_percent(pid, window)),
    }
}

/// A launch with member `k` (0-based) frozen from before the spawn: → first row, and → every
/// other member live with its pods; plus what the header then says of `k`.
struct FrozenLaunch {
    first: Cell,
    others: Cell,
    words: String,
}

fn frozen_launch(t: &Target, k: usize) -> FrozenLaunch {
    let name = t.fleet.contexts[k].as_str();
    let _stopped = Stopped::new(&t.fleet.servers[k]);
    let tui = spawn(t, &format!("frozen-launch-c{}", k + 1));
    let first = match tui.try_wait_until(SYNC_TIMEOUT, tools::first_row) {
        Some(_) => Cell::Ms(ms(tui.started.elapsed())),
        None => Cell::Na(format!("no row in {SYNC_TIMEOUT:?}")),
    };
    let others = t.members() - 1;
    let others = match tui.try_wait_until(SYNC_TIMEOUT, |s| others_live(t, s, name) == others) {
        Some(_) => Cell::Ms(ms(tui.started.elapsed())),
        None => Cell::Na(format!(
            "{} of {others} live after {SYNC_TIMEOUT:?}",
            others_live(t, &tui.screen(), name)
        )),
    };
    FrozenLaunch {
        first,
        others,
        words: member_words(&tui.screen(), name),
    }
}

/// Figures of one view against churning servers.
struct Churned {
    cpu: Cell,
    render: Cell,
    keys: Result<Samples, String>,
}

impl Churned {
    fn failed(why: &str) -> Churned {
        Churned {
            cpu: Cell::Na(why.to_owned()),
            render: Cell::Na(why.to_owned()),
            keys: Err(why.to_owned()),
        }
    }
}

/// Filter keystrokes (compare's `q` / backspace) timed to the screen; closes the prompt.
fn keys(tui: &mut Tui, samples: usize) -> Result<Samples, String> {
    let shown = tools::count(Tool::Ktui, &tui.screen()).ok_or("no count on screen")?;
    let s = churn::keystrokes(tui, Tool::Ktui, shown as usize, samples);
    tui.press_esc();
    tui.press_esc();
    std::thread::sleep(Duration::from_millis(500));
    Ok(s)
}

/// CPU (and the UI thread's) over `window`, then keystrokes, in a view that holds every pod.
fn churned(tui: &mut Tui, window: Duration, samples: usize) -> Churned {
    std::thread::sleep(Duration::from_secs(2));
    let (cpu, main) = churn::cpu_and_main(tui.pid(), window);
    Churned {
        cpu: Cell::Pct(cpu),
        render: Cell::Pct(main),
        keys: keys(tui, samples),
    }
}

/// The running union view while member `k` (0-based) is frozen, then thawed.
struct Frozen {
    /// SIGSTOP → the header says `k` is not live; and what it says.
    named: Cell,
    words: String,
    /// Other members live when `k` was named, and after the keystrokes.
    others: Cell,
    others_after: Cell,
    keys: Result<Samples, String>,
    /// SIGCONT → every member live with every pod again.
    back: Cell,
}

fn live_of(t: &Target, screen: &str, name: &str) -> Cell {
    Cell::Text(format!("{} of {}", others_live(t, screen, name), t.members() - 1))
}

fn frozen(tui: &mut Tui, t: &Target, k: usize, samples: usize) -> Frozen {
    let name = t.fleet.contexts[k].as_str();
    let stopped = Stopped::new(&t.fleet.servers[k]);
    let t0 = Instant::now();
    let not_live = |s: &str| member(s, name).is_some_and(|m| !m.live());
    let named = match tui.try_wait_until(STATE_TIMEOUT, not_live) {
        Some(_) => Cell::Ms(ms(t0.elapsed())),
        None => Cell::Na(format!("still live after {STATE_TIMEOUT:?}")),
    };
    let words = member_words(&tui.screen(), name);
    let others = live_of(t, &tui.screen(), name);
    let keys = keys(tui, samples);
    let others_after = live_of(t, &tui.screen(), name);
    drop(stopped);
    let t1 = Instant::now();
    let back = match tui.try_wait_until(STATE_TIMEOUT, |s| full(t, s)) {
        Some(_) => Cell::Ms(ms(t1.elapsed())),
        None => Cell::Na(format!(
            "`{}` after {STATE_TIMEOUT:?}",
            member_words(&tui.screen(), name)
        )),
    };
    Frozen {
        named,
        words,
        others,
        others_after,
        keys,
        back,
    }
}

// ---- the table ----

/// `≤ LIMIT: met` / `missed` for a figure `value` (`—` when there is none).
fn goal(what: &str, v: Option<f64>, limit: f64) -> String {
    match v {
        Some(v) if v <= limit => format!("{what}: met"),
        Some(_) => format!("{what}: **missed**"),
        None => format!("{what}: —"),
    }
}

/// One row: figure, union, single, goal.
struct Row(String, Cell, Cell, String);

fn na(why: &str) -> Cell {
    Cell::Na(why.to_owned())
}

fn print_table(title: &str, rows: &[Row]) {
    println!("\n{title}\n");
    println!("| figure | union | single | union ÷ single | goal |");
    println!("|---|---:|---:|---:|---|");
    for Row(label, u, s, g) in rows {
        let ratio = match (value(u), value(s)) {
            (Some(a), Some(b)) if b > 0.0 => format!("{:.2}×", a / b),
            _ => "—".to_owned(),
        };
        println!("| {label} | {} | {} | {ratio} | {g} |", show(u), show(s));
    }
}

/// Everything measured, in table order.
struct Results {
    uq: Quiet,
    sq: Quiet,
    launches: Vec<(usize, FrozenLaunch)>,
    uc: Churned,
    sc: Churned,
    frozen: Option<(usize, Frozen)>,
}

fn rows(o: &Opts, r: &Results) -> Vec<Row> {
    let churn = format!("{} changes/s", o.churn);
    let key_rows = |label: &str, u: &Result<Samples, String>, s: &Result<Samples, String>| {
        let mut v: Vec<Row> = [("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 2.0)]
            .iter()
            .map(|(q, p)| {
                let (cu, cs) = (sample_cell(u, *p), sample_cell(s, *p));
                let g = match *q {
                    "p99" => goal("≤ 50 ms", value(&cu), KEY_P99_GOAL_MS),
                    _ => String::new(),
                };
                Row(format!("keystroke → screen {q}, {label}"), cu, cs, g)
            })
            .collect();
        v.push(Row(
            format!("keystrokes not shown in 10 s, {label}"),
            missed_cell(u),
            missed_cell(s),
            String::new(),
        ));
        v
    };
    let ratio = match (value(&r.uq.rss), value(&r.sq.rss)) {
        (Some(a), Some(b)) if b > 0.0 => Some(a / b),
        _ => None,
    };
    let mut v = vec![
        Row(
            "launch → first row".into(),
            r.uq.first.clone(),
            r.sq.first.clone(),
            goal("≤ 300 ms", value(&r.uq.first), FIRST_ROW_GOAL_MS),
        ),
        Row(
            "launch → full count, every member live".into(),
            r.uq.full.clone(),
            r.sq.full.clone(),
            String::new(),
        ),
        Row(
            "RSS after sync".into(),
            r.uq.rss.clone(),
            r.sq.rss.clone(),
            goal("≤ 1.2 × single", ratio, RSS_RATIO_GOAL),
        ),
        Row(
            "peak RSS after sync".into(),
            r.uq.peak.clone(),
            r.sq.peak.clone(),
            String::new(),
        ),
        Row(
            "CPU, idle".into(),
            r.uq.cpu.clone(),
            r.sq.cpu.clone(),
            String::new(),
        ),
        Row(
            format!("CPU, {churn}"),
            r.uc.cpu.clone(),
            r.sc.cpu.clone(),
            String::new(),
        ),
        Row(
            format!("render loop's CPU, {churn}"),
            r.uc.render.clone(),
            r.sc.render.clone(),
            String::new(),
        ),
    ];
    v.extend(key_rows(&churn, &r.uc.keys, &r.sc.keys));
    v.extend(frozen_rows(o, r, &key_rows));
    v
}

type KeyRows<'a> = dyn Fn(&str, &Result<Samples, String>, &Result<Samples, String>) -> Vec<Row> + 'a;

/// The rows of the union with one member frozen (the single column has none).
fn frozen_rows(o: &Opts, r: &Results, key_rows: &KeyRows) -> Vec<Row> {
    let single = || na("one cluster");
    let mut v = Vec::new();
    if let Some((k, f)) = &r.frozen {
        let c = format!("c{}", k + 1);
        v.push(Row(
            format!("SIGSTOP {c} → header names it not live"),
            f.named.clone(),
            single(),
            goal("≤ ~15 s", value(&f.named), NAMED_GOAL_MS),
        ));
        v.push(Row(
            format!("header's words for {c} then"),
            Cell::Text(format!("`{}`", f.words)),
            single(),
            String::new(),
        ));
        v.push(Row(
            format!("other members live, {c} just named"),
            f.others.clone(),
            single(),
            String::new(),
        ));
        let label = format!(
            "{c} frozen ({} changes/s from the rest)",
            o.churn as usize * (o.servers - 1) / o.servers
        );
        v.extend(key_rows(&label, &f.keys, &Err("one cluster".into())));
        v.push(Row(
            format!("other members live after the keystrokes, {c} frozen"),
            f.others_after.clone(),
            single(),
            String::new(),
        ));
        v.push(Row(
            format!("SIGCONT {c} → every member live, every pod"),
            f.back.clone(),
            single(),
            String::new(),
        ));
    }
    for (k, l) in &r.launches {
        let c = format!("c{}", k + 1);
        v.push(Row(
            format!("launch with {c} frozen → first row"),
            l.first.clone(),
            single(),
            goal("≤ 300 ms", value(&l.first), FIRST_ROW_GOAL_MS),
        ));
        v.push(Row(
            format!(
                "launch with {c} frozen → the {} others live, all their pods",
                o.servers - 1
            ),
            l.others.clone(),
            single(),
            String::new(),
        ));
        v.push(Row(
            format!("header's words for {c} then"),
            Cell::Text(format!("`{}`", l.words)),
            single(),
            String::new(),
        ));
    }
    v
}

// ---- the run ----

/// Quiet servers: the union's launch, RSS and idle CPU, then launches with the first and the
/// last member frozen; then the single server's launch.
fn quiet_phase(o: &Opts, dir: &Path) -> (Quiet, Quiet, Vec<(usize, FrozenLaunch)>) {
    let window = Duration::from_secs(o.cpu_secs);
    let total = o.servers * o.pods;
    let fleet = union_fleet(o, dir, "quiet", 0);
    let t = Target {
        fleet: &fleet,
        total,
        churning: false,
        dir,
        cols: o.cols,
    };
    eprintln!("union of {} × {} pods, quiet…", o.servers, o.pods);
    let uq = quiet(&t, window);
    let launches = [0, o.servers - 1]
        .into_iter()
        .map(|k| {
            eprintln!("union, launch with c{} frozen…", k + 1);
            (k, frozen_launch(&t, k))
        })
        .collect();
    drop(fleet);
    let fleet = single_fleet(o, dir, "quiet", 0);
    eprintln!("single server of {total} pods, quiet…");
    let sq = quiet(
        &Target {
            fleet: &fleet,
            total,
            churning: false,
            dir,
            cols: o.cols,
        },
        window,
    );
    (uq, sq, launches)
}

/// Churning servers: the union's CPU and keystrokes, then one member frozen under it; then
/// the single server's CPU and keystrokes.
fn churn_phase(o: &Opts, dir: &Path) -> (Churned, Churned, Option<(usize, Frozen)>) {
    let window = Duration::from_secs(o.cpu_secs);
    let total = o.servers * o.pods;
    let fleet = union_fleet(o, dir, "churn", o.churn);
    let t = Target {
        fleet: &fleet,
        total,
        churning: true,
        dir,
        cols: o.cols,
    };
    eprintln!("union under {} changes/s…", o.churn);
    let mut tui = spawn(&t, "churn");
    let (uc, fr) = match sync(&tui, &t) {
        Err(e) => (Churned::failed(&e), None),
        Ok(_) => {
            let uc = churned(&mut tui, window, o.key_samples);
            eprintln!("union under churn, c{} frozen…", o.freeze);
            let k = o.freeze - 1;
            (uc, Some((k, frozen(&mut tui, &t, k, o.key_samples))))
        }
    };
    drop(tui);
    drop(fleet);
    let fleet = single_fleet(o, dir, "churn", o.churn);
    let t = Target {
        fleet: &fleet,
        total,
        churning: true,
        dir,
        cols: o.cols,
    };
    eprintln!("single server under {} changes/s…", o.churn);
    let mut tui = spawn(&t, "single-churn");
    let sc = match sync(&tui, &t) {
        Err(e) => Churned::failed(&e),
        Ok(_) => churned(&mut tui, window, o.key_samples),
    };
    (uc, sc, fr)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.iter().any(|a| a == "--bench") {
        println!("union: run with `bash benches/union/run.sh [servers] [pods_per_server] [churn_total]`");
        return;
    }
    let o = parse_opts(&args);
    let started = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let (uq, sq, launches) = quiet_phase(&o, dir.path());
    let (uc, sc, frozen) = churn_phase(&o, dir.path());
    let r = Results {
        uq,
        sq,
        launches,
        uc,
        sc,
        frozen,
    };
    let title = format!(
        "union: {n} demo servers × {p} pods (`--context c1,…,c{n} -A`); single: one server of \
         {t} pods (`-A`); {c} changes/s in all ({e}/s per union server); {k} keystrokes per \
         set; CPU over {s} s; {rows}×{cols} terminal",
        n = o.servers,
        p = o.pods,
        t = o.servers * o.pods,
        c = o.churn,
        e = o.churn as usize / o.servers,
        k = o.key_samples,
        s = o.cpu_secs,
        rows = ROWS,
        cols = o.cols,
    );
    print_table(&title, &rows(&o, &r));
    eprintln!("union bench took {:.0?}", started.elapsed());
}
