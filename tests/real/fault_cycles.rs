//! The fault suite against a real control plane (issue 13; the demo-server half is
//! tests/scenarios/fault_suite.rs, the comparison and the table are tests/support/
//! convergence.rs): ktui's informer of configmaps in one namespace, over ktui's own client
//! (`kube::client::connect` with a kubeconfig), talks to a real kube-apiserver through a
//! fault proxy ([`FaultProxy`]) while a writer changes the objects ([`World`]). Each cycle
//! lets the writer run, injects one fault, waits until the informer shows it noticed (time to
//! detect), lifts the fault, pauses the writer, takes the truth (a fresh list, straight from
//! the API server) and waits until the store equals it and says `live` (time to repair, from
//! the injection). Lost objects and ghosts are counted when a cycle gives up.
//!
//! The faults, and which are real:
//! - dropped watch: the proxy cuts every connection (real TCP cut of the client's connections);
//! - 5xx/429 + Retry-After: the proxy answers every request with 429/503/500 (simulated);
//! - frozen server: SIGSTOP of the real kube-apiserver, SIGCONT once noticed;
//! - 410 Gone: the proxy keeps the informer away while the writer goes on, then
//!   tests/cluster/force-410.sh (etcd compacted, kube-apiserver restarted so its watch cache
//!   cannot replay the informer's resourceVersion either): a real 410 on its resume;
//! - restart, same data: kube-apiserver restarted on the same etcd (force-410.sh --restart-only);
//! - restart, older data: etcd-data copied (etcd-snapshot.sh save), changes made and seen, then
//!   the copy restored and etcd + kube-apiserver restarted: resourceVersions go backwards.
//!
//! The restarts and the freeze would break every other test on the shared cluster, so the
//! test starts a private one (etcd + kube-apiserver only, `KTUI_TEST_MINIMAL=1`; ~10–20 s);
//! it runs when the real tier does (`KTUI_TEST_CLUSTER_DIR`, as `support::own_cluster`).
//! CI runs one cycle of each kind; the long form sets the number of cycles (and objects):
//!
//! `KTUI_FAULT_CYCLES=102 KTUI_FAULT_OBJECTS=2000 nice -n 10 bash tests/run.sh --test real fault_cycles -- --nocapture`

use std::collections::BTreeMap;
use std::process::Command;
use std::time::{Duration, Instant};

use ktui::kube::builtin::BuiltinKind;
use ktui::kube::informer::InformerConfig;
use ktui::kube::key::ResourceKey;
use ktui::kube::row::Row;
use ktui::kube::stats::InformerStats;
use ktui::kube::store::Slot;
use ktui::table::ConfigMapObj;
use std::sync::Arc;

use crate::convergence::{
    diff, informer, lost_and_ghosts, noticed, print_stats, print_table, seen, Key, Tally,
};
use crate::fault_proxy::FaultProxy;
use crate::fault_world::World;
use crate::support::{self, OwnedCluster};

/// A cluster script running: what it is, and its output.
type Script = tokio::task::JoinHandle<(String, std::process::Output)>;

/// Longest wait for the informer to notice a fault, and for it to repair (from the injection).
const DETECT: Duration = Duration::from_secs(60);
const REPAIR: Duration = Duration::from_secs(90);

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Fault {
    DroppedWatch,
    ErrorsWithRetryAfter,
    Frozen,
    Gone,
    RestartSameData,
    RestartOlderData,
}

const FAULTS: [Fault; 6] = [
    Fault::DroppedWatch,
    Fault::ErrorsWithRetryAfter,
    Fault::Frozen,
    Fault::Gone,
    Fault::RestartSameData,
    Fault::RestartOlderData,
];

impl Fault {
    fn name(self) -> &'static str {
        match self {
            Fault::DroppedWatch => "dropped watch (proxy cut)",
            Fault::ErrorsWithRetryAfter => "5xx/429 + Retry-After (proxy)",
            Fault::Frozen => "frozen server (SIGSTOP)",
            Fault::Gone => "410 Gone (compact+restart)",
            Fault::RestartSameData => "restart, same data",
            Fault::RestartOlderData => "restart, older data (RV back)",
        }
    }
}

struct Suite {
    cluster: OwnedCluster,
    proxy: FaultProxy,
    world: World,
    slot: Arc<Slot>,
    stats: Arc<InformerStats>,
    /// The server's truth, taken with the writer paused.
    truth: BTreeMap<Key, Row>,
    snapshots: u32,
    /// Between two requests the proxy answered with an error (`Retry-After: 1`).
    retry_gaps: Vec<Duration>,
}

impl Suite {
    fn env_u64(name: &str) -> Option<u64> {
        std::env::var(name).ok().and_then(|v| v.parse().ok())
    }

    /// Starts a script of tests/cluster (off the runtime's threads); [`Suite::script_done`]
    /// waits for it.
    fn script(&self, name: &'static str, args: &[&str]) -> Script {
        let mut cmd = Command::new("bash");
        cmd.arg(support::cluster_script(name)).args(args);
        let what = format!("{name} {args:?}");
        tokio::task::spawn_blocking(move || (what, cmd.output().expect("run a cluster script")))
    }

    /// Waits for a script; panics with its stderr unless it succeeded.
    async fn script_done(&self, script: Script) {
        let (what, out) = script.await.unwrap();
        assert!(
            out.status.success(),
            "{what} failed: {}\n{}",
            String::from_utf8_lossy(&out.stderr),
            self.cluster.log_tail("kube-apiserver", 20)
        );
    }

    fn signal_apiserver(&self, signal: i32) {
        let pid: i32 = std::fs::read_to_string(self.cluster.dir.join("kube-apiserver.pid"))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        // SAFETY: kill(2) on the pid of a process this test's cluster started.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0, "signal kube-apiserver");
    }

    /// Store equal to the truth and `live`.
    fn converged(&self) -> bool {
        self.slot.peek().state.is_live() && seen(&self.slot) == self.truth
    }

    /// Waits until `what` holds (looking every 20 ms, at most `deadline`); the time since
    /// `since` when it did.
    async fn until(
        &self,
        what: impl Fn(&Suite) -> bool,
        since: Instant,
        deadline: Duration,
    ) -> Option<Duration> {
        let t = Instant::now();
        loop {
            if what(self) {
                return Some(since.elapsed());
            }
            if t.elapsed() > deadline {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Pauses the writer, takes the truth and waits until the store equals it and is live
    /// (confirmed by a second list); the time since `since`.
    async fn settle(&mut self, since: Instant) -> Option<Duration> {
        self.world.pause().await;
        self.truth = self.world.truth().await;
        let t = Instant::now();
        loop {
            let at = self
                .until(Suite::converged, since, REPAIR.saturating_sub(t.elapsed()))
                .await?;
            let again = self.world.truth().await;
            if again == self.truth {
                return Some(at);
            }
            self.truth = again;
        }
    }

    /// Lets the writer make a few changes (seen by the informer or not).
    async fn write_some(&mut self, n: u64) {
        self.world.resume();
        let from = self.world.changes();
        assert!(
            self.world.wait_changes(from, n, Duration::from_secs(60)).await,
            "the writer made no progress for 60 s"
        );
    }

    /// One cycle of `fault`; adds to `tally`.
    async fn cycle(&mut self, fault: Fault, tally: &mut Tally) {
        let ok = self.settle(Instant::now()).await;
        assert!(
            ok.is_some(),
            "{}: not converged before the cycle:\n{}",
            fault.name(),
            diff(&self.truth, &seen(&self.slot))
        );
        if fault == Fault::RestartOlderData {
            // The copy, then changes the informer sees, then the copy is restored.
            self.snapshots += 1;
            let snap = self.cluster.dir.join(format!("etcd-snap-{}", self.snapshots));
            let snap = snap.to_str().unwrap().to_owned();
            let dir = self.cluster.dir.to_str().unwrap().to_owned();
            let save = self.script("etcd-snapshot.sh", &["save", &dir, &snap]);
            self.script_done(save).await;
            self.write_some(30).await;
            assert!(
                self.settle(Instant::now()).await.is_some(),
                "not converged before the restore"
            );
            let before = noticed(&self.slot, &self.stats);
            let injected = Instant::now();
            let restore = self.script("etcd-snapshot.sh", &["restore", &dir, &snap]);
            let detect = self
                .until(
                    |s| noticed(&s.slot, &s.stats).drift > before.drift,
                    injected,
                    DETECT,
                )
                .await;
            self.script_done(restore).await;
            let _ = std::fs::remove_dir_all(&snap);
            return self.finish(tally, injected, detect).await;
        }
        self.write_some(5).await;
        let before = noticed(&self.slot, &self.stats);
        let from = self.world.changes();
        let injected = Instant::now();
        let dir = self.cluster.dir.to_str().unwrap().to_owned();
        // The restarts run while the informer is watched: it may notice before they end.
        let restart = match fault {
            Fault::DroppedWatch => {
                self.proxy.cut();
                None
            }
            Fault::ErrorsWithRetryAfter => {
                self.proxy.set_errors(true);
                None
            }
            Fault::Frozen => {
                self.signal_apiserver(libc::SIGSTOP);
                None
            }
            Fault::Gone => {
                // The informer is kept away while changes pass; then etcd is compacted past
                // its resourceVersion and kube-apiserver restarted (its rebuilt watch cache
                // cannot serve it either), and the informer let back: its resume gets 410.
                // (Without the changes, a caught-up informer's resume is served: no 410.)
                self.proxy.set_refusing(true);
                self.world.wait_changes(from, 3, Duration::from_secs(60)).await;
                let run = self.script("force-410.sh", &[&dir]);
                self.script_done(run).await;
                self.proxy.set_refusing(false);
                None
            }
            Fault::RestartSameData => Some(self.script("force-410.sh", &["--restart-only", &dir])),
            Fault::RestartOlderData => unreachable!(),
        };
        let detect = self
            .until(
                |s| {
                    let now = noticed(&s.slot, &s.stats);
                    match fault {
                        Fault::ErrorsWithRetryAfter | Fault::Frozen => !now.live,
                        Fault::Gone => now.lists > before.lists,
                        _ => now != before,
                    }
                },
                injected,
                DETECT,
            )
            .await;
        if let Some(restart) = restart {
            self.script_done(restart).await;
        }
        match fault {
            Fault::ErrorsWithRetryAfter => {
                // Changes while the informer is refused and a few of its retries, then lift.
                self.world.wait_changes(from, 5, Duration::from_secs(60)).await;
                let n = self.proxy.injected();
                self.until(|s| s.proxy.injected() >= n + 2, Instant::now(), DETECT)
                    .await;
                self.proxy.set_errors(false);
                let at = self.proxy.take_injected_at();
                let gaps = at.windows(2).map(|w| w[1] - w[0]);
                self.retry_gaps.extend(gaps);
            }
            Fault::Frozen => self.signal_apiserver(libc::SIGCONT),
            _ => {
                self.world.wait_changes(from, 5, Duration::from_secs(60)).await;
            }
        }
        self.finish(tally, injected, detect).await;
    }

    async fn finish(&mut self, tally: &mut Tally, injected: Instant, detect: Option<Duration>) {
        let repaired = self.settle(injected).await;
        tally.cycles += 1;
        if let Some(d) = detect {
            tally.detect.push(d);
        }
        match repaired {
            Some(d) => tally.repair.push(d),
            None => {
                let got = seen(&self.slot);
                eprintln!(
                    "not repaired ({:?}):\n{}",
                    self.slot.peek().state,
                    diff(&self.truth, &got)
                );
                let (lost, ghosts) = lost_and_ghosts(&self.truth, &got);
                tally.lost += lost;
                tally.ghosts += ghosts;
            }
        }
    }
}

/// A kubeconfig like the cluster's with the server replaced by the proxy.
fn proxy_kubeconfig(cluster: &support::Cluster, port: u16) -> std::path::PathBuf {
    let text = std::fs::read_to_string(&cluster.kubeconfig).unwrap();
    let re = regex::Regex::new(r"server: https://127\.0\.0\.1:\d+").unwrap();
    let path = cluster.dir.join("proxy.kubeconfig");
    std::fs::write(
        &path,
        re.replace_all(&text, format!("server: https://127.0.0.1:{port}").as_str())
            .as_ref(),
    )
    .unwrap();
    path
}

fn api_port(cluster: &support::Cluster) -> u16 {
    let ports = std::fs::read_to_string(cluster.dir.join("ports.env")).unwrap();
    ports
        .lines()
        .find_map(|l| l.strip_prefix("API_PORT="))
        .unwrap()
        .parse()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "real tier"]
async fn real_fault_cycles_table() {
    let Some(cluster) = support::own_cluster_with(&[("KTUI_TEST_MINIMAL", "1")]) else {
        return;
    };
    let started = Instant::now();
    let long = Suite::env_u64("KTUI_FAULT_CYCLES");
    let cycles = long.unwrap_or(FAULTS.len() as u64);
    let objects = Suite::env_u64("KTUI_FAULT_OBJECTS").unwrap_or(500) as usize;
    let per_kind = cycles.div_ceil(FAULTS.len() as u64).max(1);

    let proxy = FaultProxy::start(&cluster.dir.join("pki"), api_port(&cluster)).await;
    let ns = cluster.create_ns("fault-cycles");
    let world = World::seed(cluster.client(support::ADMIN).await, &ns, objects).await;
    let opts = ktui::kube::client::ConnectOptions {
        kubeconfig: Some(proxy_kubeconfig(&cluster, proxy.port)),
        context: Some(support::ADMIN.into()),
    };
    let (client, _) = ktui::kube::client::connect(&opts)
        .await
        .expect("ktui connects through the proxy");
    let config = InformerConfig {
        page_size: 100,
        watch_timeout: Duration::from_secs(60),
        request_timeout: Duration::from_secs(10),
        backoff_base: Duration::from_millis(200),
        backoff_cap: Duration::from_secs(2),
        // The heartbeat speaks twice a second: silent for 6 s is stale.
        bookmark_interval: Duration::from_secs(2),
        stale_intervals: 3,
        ..InformerConfig::default()
    };
    let key = ResourceKey::new(BuiltinKind::ConfigMap, Some(ns.as_str()));
    let (slot, stats, task) = informer::<ConfigMapObj>(key, client, config);
    let mut suite = Suite {
        cluster,
        proxy,
        world,
        slot,
        stats,
        truth: BTreeMap::new(),
        snapshots: 0,
        retry_gaps: Vec::new(),
    };
    let set_up = started.elapsed();
    let mut tallies: BTreeMap<Fault, Tally> = BTreeMap::new();
    for _ in 0..per_kind {
        for fault in FAULTS {
            let tally = tallies.entry(fault).or_default();
            suite.cycle(fault, tally).await;
        }
    }
    let shortest_retry = suite.retry_gaps.iter().min().copied();
    let title = format!(
        "real fault cycles: {} cycles in {:.1?} after {:.1?} of set-up ({} configmaps at the end, {} writer changes, {} injected errors, retried after ≥ {:.0?}; detect/repair as p50 / p99 / max)",
        per_kind * FAULTS.len() as u64,
        started.elapsed() - set_up,
        set_up,
        suite.truth.len(),
        suite.world.changes(),
        suite.proxy.injected(),
        shortest_retry.unwrap_or_default()
    );
    let failures = print_table(&title, tallies.iter_mut().map(|(f, t)| (f.name(), t)));
    print_stats(&suite.stats);
    task.abort();
    assert!(
        suite.proxy.injected() > 0,
        "the proxy answered no request with an error"
    );
    // Each error said `Retry-After: 1`: the informer's next request came at least 1 s later.
    assert!(
        shortest_retry.is_some_and(|g| g >= Duration::from_millis(1000)),
        "Retry-After honoured between retries: {:?}",
        suite.retry_gaps
    );
    assert!(
        failures.is_empty(),
        "not detected or not repaired every cycle: {failures:?}"
    );
}
