//! Scale harness: the real pod informer (`ktui::kube::informer::Informer`, real
//! `kube::Client`, real hyper over loopback TCP, no TLS) syncs N realistic ~3 KB pods from a
//! tiny HTTP/1.1 server, then applies a churn of MODIFIED watch events. Prints wall time to
//! full sync, this process's CPU time (getrusage) during the sync, VmRSS before/after, VmHWM,
//! objects held, and the time and CPU to get a churn burst applied and published.
//!
//! The server runs in a child process (this binary with `--serve`) that generates each list
//! page lazily, so neither its memory nor its JSON generation counts against the client; the
//! generation CPU of the same pages is also measured here afterwards and printed for reference.
//!
//! Run: `cargo run --release --example scale -- --pods 100000 [--churn 1000]`
//! (`--sample` prints one generated pod and the average pod size).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test and measuring code may panic

#[path = "../benches/common/mod.rs"]
mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::informer::{Informer, InformerConfig};
use ktui::kube::key::ResourceKey;
use ktui::kube::row::{Row, RowCtx};
use ktui::kube::sink::ByIntoRow;
use ktui::kube::stats::InformerStats;
use ktui::kube::store::{Publisher, Slot, Snapshot, StoreWriter};
use ktui::table::PodObj;

const PAGE: usize = 500;

struct Args {
    pods: usize,
    churn: usize,
    serve: bool,
    sample: bool,
}

fn args() -> anyhow::Result<Args> {
    let mut a = Args {
        pods: 100_000,
        churn: 1_000,
        serve: false,
        sample: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--pods" => a.pods = it.next().context("--pods N")?.parse()?,
            "--churn" => a.churn = it.next().context("--churn N")?.parse()?,
            "--serve" => a.serve = true,
            "--sample" => a.sample = true,
            other => bail!("unknown argument {other}"),
        }
    }
    Ok(a)
}

fn main() -> anyhow::Result<()> {
    let a = args()?;
    if a.sample {
        println!("{}", common::pod_json(0, 1, 0));
        let n = 2_000;
        let total: usize = (0..n).map(|i| common::pod_json(i, 1, 0).len()).sum();
        println!("average pod JSON over {n}: {} bytes", total / n);
        return Ok(());
    }
    if a.serve {
        return serve(a.pods, a.churn);
    }
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?
        .block_on(client(a))
}

// ---------------------------------------------------------------- measurements

/// User and system CPU seconds of this process so far.
fn cpu() -> (f64, f64) {
    // SAFETY: getrusage only writes the struct we pass.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    (secs(ru.ru_utime), secs(ru.ru_stime))
}

/// CPU seconds of the calling thread so far.
fn thread_cpu() -> f64 {
    // SAFETY: getrusage only writes the struct we pass.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut ru) };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(ru.ru_utime) + secs(ru.ru_stime)
}

/// A list page as the informer decodes it (items only).
#[derive(serde::Deserialize)]
struct PodPage {
    items: Vec<PodObj>,
}

fn cpu_total() -> f64 {
    let (u, s) = cpu();
    u + s
}

/// A `/proc/self/status` field in MiB (`VmRSS`, `VmHWM`).
fn proc_mib(field: &str) -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

// ---------------------------------------------------------------- client

fn find(snap: &Snapshot, ns: &str, name: &str) -> Option<Arc<Row>> {
    let i = snap
        .rows
        .binary_search_by(|r| (r.namespace.as_deref(), &*r.name).cmp(&(Some(ns), name)))
        .ok()?;
    snap.rows.get(i).cloned()
}

fn churn_pod(k: usize, pods: usize) -> usize {
    (common::mix(k as u64 ^ 0xC4A2) % pods as u64) as usize
}

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn client(a: Args) -> anyhow::Result<()> {
    let mut child = Command::new(std::env::current_exe()?)
        .args([
            "--serve",
            "--pods",
            &a.pods.to_string(),
            "--churn",
            &a.churn.to_string(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let mut out = BufReader::new(child.stdout.take().context("child stdout")?);
    let mut stdin = child.stdin.take().context("child stdin")?;
    let _server = Server(child);
    let mut line = String::new();
    out.read_line(&mut line)?;
    let addr = line
        .trim()
        .strip_prefix("listening ")
        .context("server did not start")?
        .to_owned();

    ktui::kube::client::install_crypto_provider();
    let rss_start = proc_mib("VmRSS");
    let mut config = kube::Config::new(format!("http://{addr}").parse()?);
    ktui::kube::client::identify(&mut config)?;
    let client = kube::Client::try_from(config)?;
    let key = ResourceKey::new(BuiltinKind::Pod, None);
    let slot = Slot::new(key.clone(), 1);
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let stats = Arc::new(InformerStats::default());
    let rows = RowCtx::default();
    let informer = Informer::new(key, client, stats.clone(), InformerConfig::default());
    let writer = StoreWriter::with_builder(Publisher::new(slot.clone(), tx), rows.clone(), ByIntoRow);

    let rss_before = proc_mib("VmRSS");
    let (u0, s0) = cpu();
    let t0 = Instant::now();
    let task = tokio::spawn(informer.run::<PodObj, _>(writer));
    let snap = loop {
        rx.recv().await.context("informer stopped")?;
        let snap = slot.load();
        if snap.listed {
            break snap;
        }
    };
    let sync_wall = t0.elapsed();
    let (u1, s1) = cpu();
    let rss_after = proc_mib("VmRSS");
    let hwm = proc_mib("VmHWM");
    let held = snap.rows.len();
    println!("pods                         {}", a.pods);
    println!(
        "objects held                 {held} (interned strings: {})",
        rows.interner.len()
    );
    println!("wall time to full sync       {:.3} s", sync_wall.as_secs_f64());
    println!(
        "client CPU during sync       {:.3} s (user {:.3} + sys {:.3})",
        (u1 - u0) + (s1 - s0),
        u1 - u0,
        s1 - s0
    );
    println!("VmRSS at start               {rss_start:.1} MiB");
    println!("VmRSS before sync            {rss_before:.1} MiB");
    println!(
        "VmRSS after sync             {rss_after:.1} MiB  (+{:.1} MiB, {:.0} B/pod)",
        rss_after - rss_before,
        (rss_after - rss_before) * 1_048_576.0 / held.max(1) as f64
    );
    println!("VmHWM (peak)                 {hwm:.1} MiB");

    // Churn: the server sends `churn` MODIFIED events on the open watch when told to.
    if a.churn > 0 {
        let (ns_name, pre) = {
            let f = common::facts(churn_pod(a.churn - 1, a.pods), 0);
            let pre = find(&snap, &f.namespace, &f.name).context("churned pod not listed")?;
            ((f.namespace, f.name), pre)
        };
        let pre_snap = snap;
        // Let the informer open its watch, and the coalescing interval pass.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let rev0 = slot.peek().rev;
        let c0 = cpu_total();
        let t1 = Instant::now();
        stdin.write_all(b"churn\n")?;
        stdin.flush()?;
        let mut publications = 0;
        loop {
            rx.recv().await.context("informer stopped")?;
            let snap = slot.load();
            publications += 1;
            if find(&snap, &ns_name.0, &ns_name.1).is_some_and(|r| *r != *pre) {
                let wall = t1.elapsed();
                let c1 = cpu_total();
                let changed = (0..a.churn)
                    .filter(|&k| {
                        let f = common::facts(churn_pod(k, a.pods), 1);
                        let old = find(&pre_snap, &f.namespace, &f.name);
                        let new = find(&snap, &f.namespace, &f.name);
                        matches!((old, new), (Some(o), Some(n)) if *o != *n)
                    })
                    .count();
                println!(
                    "churn {} MODIFIED → visible  {:.1} ms wall, {:.1} ms CPU, {} publication(s) (rev {} → {}), {changed}/{} churned rows changed",
                    a.churn,
                    wall.as_secs_f64() * 1e3,
                    (c1 - c0) * 1e3,
                    publications,
                    rev0,
                    snap.rev,
                    a.churn
                );
                break;
            }
        }
        println!("VmRSS after churn            {:.1} MiB", proc_mib("VmRSS"));
    }
    task.abort();

    // Attribution: the same pages decoded here with no HTTP, kube client or store (serde into
    // `PodObj`, then `into_row`), CPU of this thread only.
    let (mut gen_cpu, mut dec_cpu, mut row_cpu) = (0.0, 0.0, 0.0);
    let ctx = RowCtx::default();
    let mut held_rows = Vec::with_capacity(a.pods);
    let mut from = 0;
    while from < a.pods {
        let to = (from + PAGE).min(a.pods);
        let t = thread_cpu();
        let body = common::list_page(from, to, a.pods, a.pods as u64 + 1);
        let t1 = thread_cpu();
        let page: PodPage = serde_json::from_slice(&body)?;
        let t2 = thread_cpu();
        held_rows.extend(
            page.items
                .into_iter()
                .map(|p| ktui::kube::row::IntoRow::into_row(p, &ctx)),
        );
        let t3 = thread_cpu();
        gen_cpu += t1 - t;
        dec_cpu += t2 - t1;
        row_cpu += t3 - t2;
        from = to;
    }
    println!(
        "same pages without HTTP      generate {gen_cpu:.3} s, serde decode {dec_cpu:.3} s, into_row {row_cpu:.3} s (CPU of one thread)"
    );
    drop(held_rows);

    // The server's JSON generation for the same pages, measured here for reference (it ran in
    // the child, so it is not part of the client CPU above).
    let g0 = cpu_total();
    let tg = Instant::now();
    let mut bytes = 0usize;
    let mut from = 0;
    while from < a.pods {
        let to = (from + PAGE).min(a.pods);
        bytes += std::hint::black_box(common::list_page(from, to, a.pods, a.pods as u64 + 1)).len();
        from = to;
    }
    println!(
        "server JSON generation       {:.3} s CPU, {:.3} s wall, {:.1} MiB in {} pages ({} B/pod), not included above",
        cpu_total() - g0,
        tg.elapsed().as_secs_f64(),
        bytes as f64 / 1_048_576.0,
        a.pods.div_ceil(PAGE),
        bytes / a.pods.max(1)
    );
    Ok(())
}

// ---------------------------------------------------------------- server (child process)

fn serve(pods: usize, churn: usize) -> anyhow::Result<()> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    println!("listening {}", listener.local_addr()?);
    std::io::stdout().flush()?;
    let (tx, rx) = mpsc::channel::<()>();
    let rx = Arc::new(Mutex::new(rx));
    std::thread::spawn(move || {
        // Each "churn" line releases one burst; EOF (the client exited) ends the server.
        for line in std::io::stdin().lock().lines() {
            match line {
                Ok(l) if l.trim() == "churn" => {
                    if tx.send(()).is_err() {
                        break;
                    }
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
        std::process::exit(0);
    });
    for conn in listener.incoming() {
        let conn = conn?;
        let rx = rx.clone();
        std::thread::spawn(move || {
            let _ = handle(conn, pods, churn, &rx);
        });
    }
    Ok(())
}

fn param<'a>(target: &'a str, name: &str) -> Option<&'a str> {
    let query = target.split_once('?')?.1;
    query
        .split('&')
        .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
}

fn handle(
    conn: TcpStream,
    pods: usize,
    churn: usize,
    signal: &Mutex<mpsc::Receiver<()>>,
) -> anyhow::Result<()> {
    conn.set_nodelay(true)?;
    let mut reader = BufReader::new(conn.try_clone()?);
    let mut w = conn;
    let list_rv = pods as u64 + 1;
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line)? == 0 {
            return Ok(());
        }
        let mut content_length = 0usize;
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h)? == 0 {
                return Ok(());
            }
            if h == "\r\n" || h == "\n" {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                if k.eq_ignore_ascii_case("content-length") {
                    content_length = v.trim().parse().unwrap_or(0);
                }
            }
        }
        if content_length > 0 {
            let mut sink = vec![0; content_length];
            reader.read_exact(&mut sink)?;
        }
        let target = request_line.split_whitespace().nth(1).unwrap_or("/").to_owned();
        if param(&target, "watch") == Some("true") {
            // Pre-generate the burst so that the client's timing sees only transfer + apply.
            let mut burst = String::new();
            for k in 0..churn {
                burst.push_str(&common::modified_event(
                    churn_pod(k, pods),
                    list_rv + 1 + k as u64,
                    1,
                ));
            }
            w.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
            )?;
            w.flush()?;
            loop {
                let got = signal.lock().map_err(|_| anyhow::anyhow!("poisoned"))?.recv();
                if got.is_err() {
                    return Ok(());
                }
                write!(w, "{:x}\r\n", burst.len())?;
                w.write_all(burst.as_bytes())?;
                w.write_all(b"\r\n")?;
                w.flush()?;
            }
        }
        let limit = param(&target, "limit")
            .and_then(|v| v.parse().ok())
            .unwrap_or(pods)
            .max(1);
        let from = param(&target, "continue")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
            .min(pods);
        let to = (from + limit).min(pods);
        let body = common::list_page(from, to, pods, list_rv);
        write!(
            w,
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )?;
        w.write_all(&body)?;
        w.flush()?;
    }
}
