//! What the demo cluster's containers print: each container instance (a run between a start
//! and, maybe, an end) has a deterministic sequence of timestamped lines — access logs, query
//! logs, DNS answers, job progress, a crash trace before each crash, a generator pod's
//! numbered lines — computed from the pod object alone, so every request (tail, since,
//! previous, follow, a reconnect) sees the same lines. Pure; must not touch the store.

use serde_json::Value;

use super::pods::fxhash;

/// Nanoseconds since the Unix epoch.
pub type Nanos = i128;

const SEC: Nanos = 1_000_000_000;

/// Annotation of a log generator pod: lines per second it prints.
pub const RATE_ANNOTATION: &str = "demo.ktui.dev/log-lines-per-second";

/// How an instance ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Still running (or never ends in the window asked for).
    Running,
    /// Exit 0.
    Completed,
    /// Crashed (non-zero exit): a stack trace closes the log.
    Crashed,
}

/// One run of one container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// The container's `app` flavour (the pod's `app` label, or the container name).
    pub flavour: String,
    /// The container name.
    pub container: String,
    /// First line's earliest time.
    pub start: Nanos,
    /// When it ended (`None` while running).
    pub end: Option<Nanos>,
    /// How it ended.
    pub ending: Ending,
    /// Time between lines.
    pub period: Nanos,
    /// Seed of the line contents.
    pub seed: u64,
}

/// Parses an RFC 3339 time into nanoseconds.
pub fn nanos(s: &str) -> Option<Nanos> {
    s.parse::<jiff::Timestamp>().ok().map(|t| t.as_nanosecond())
}

/// RFC 3339 with nanoseconds, as the kubelet prefixes lines with `timestamps=true`.
pub fn rfc3339_nanos(t: Nanos) -> String {
    jiff::Timestamp::from_nanosecond(t).map_or_else(
        |_| String::new(),
        |ts| ts.strftime("%Y-%m-%dT%H:%M:%S.%9fZ").to_string(),
    )
}

/// The instance of `container` in `pod`: the current one, or the previous (terminated) one.
/// `Err` carries the API server's 400 message (waiting to start, no previous instance).
/// `boot` is when the demo started: instances that were "already running" then get an hour
/// of history before it.
pub fn instance(pod: &Value, container: &str, previous: bool, boot: Nanos) -> Result<Instance, String> {
    let name = pod["metadata"]["name"].as_str().unwrap_or_default();
    let status = ["initContainerStatuses", "containerStatuses"]
        .iter()
        .filter_map(|k| pod["status"][k].as_array())
        .flatten()
        .find(|s| s["name"] == container);
    let flavour = pod["metadata"]["labels"]["app"]
        .as_str()
        .unwrap_or(container)
        .to_owned();
    let flavour = if container == pod["metadata"]["labels"]["app"].as_str().unwrap_or_default() {
        flavour
    } else {
        container.to_owned()
    };
    let rate = pod["metadata"]["annotations"][RATE_ANNOTATION]
        .as_str()
        .and_then(|r| r.parse::<u64>().ok())
        .filter(|r| *r > 0);
    let period = match rate {
        Some(r) => (SEC / Nanos::from(r)).max(1),
        None => period_of(&flavour),
    };
    let flavour = if rate.is_some() {
        "loggen".to_owned()
    } else {
        flavour
    };
    let waiting =
        |reason: &str| format!("container \"{container}\" in pod \"{name}\" is waiting to start: {reason}");
    let Some(st) = status else {
        return Err(waiting("ContainerCreating"));
    };
    let term = |t: &Value| -> (Option<Nanos>, Option<Nanos>, Ending) {
        let code = t["exitCode"].as_i64().unwrap_or(0);
        (
            t["startedAt"].as_str().and_then(nanos),
            t["finishedAt"].as_str().and_then(nanos),
            if code == 0 {
                Ending::Completed
            } else {
                Ending::Crashed
            },
        )
    };
    let last = st.pointer("/lastState/terminated").filter(|v| v.is_object());
    let state = &st["state"];
    let (started, end, ending) = if previous {
        match last {
            Some(t) => term(t),
            None => {
                return Err(format!(
                    "previous terminated container \"{container}\" in pod \"{name}\" not found"
                ))
            }
        }
    } else if let Some(r) = state.get("running") {
        (r["startedAt"].as_str().and_then(nanos), None, Ending::Running)
    } else if let Some(t) = state.get("terminated") {
        term(t)
    } else if let Some(t) = last {
        // Waiting after a crash: the kubelet serves the last terminated instance.
        term(t)
    } else {
        let reason = state["waiting"]["reason"].as_str().unwrap_or("ContainerCreating");
        return Err(waiting(reason));
    };
    let mut start = started.unwrap_or(boot);
    if let Some(e) = end {
        if start >= e {
            // The demo records a crash's start loosely: a short run before the end.
            start = e - 2 * SEC;
        }
    }
    if start <= boot + 5 * SEC && end.is_none() && rate.is_none() {
        start = boot - 3600 * SEC;
    }
    let seed = fxhash(&format!("{name}/{container}/{start}"));
    Ok(Instance {
        flavour,
        container: container.to_owned(),
        start,
        end,
        ending,
        period,
        seed,
    })
}

fn period_of(flavour: &str) -> Nanos {
    match flavour {
        "frontend" => SEC / 2,
        "api-gateway" => SEC / 3,
        "cart" => SEC,
        "checkout" => SEC / 5,
        "coredns" => 4 * SEC,
        "kube-proxy" => 15 * SEC,
        "postgres" => 3 * SEC,
        _ => 2 * SEC,
    }
}

impl Instance {
    /// Time of regular line `k`.
    fn time(&self, k: u64) -> Nanos {
        let jitter = Nanos::from(mix(self.seed, k) % 1000) * (self.period / 4000).max(0);
        self.start + Nanos::from(k) * self.period + jitter
    }

    /// The trace lines closing the instance (empty unless it crashed or completed).
    fn closing(&self) -> Vec<String> {
        match self.ending {
            Ending::Running => Vec::new(),
            Ending::Completed => vec![format!("{}: done, exiting 0", self.container)],
            Ending::Crashed => crash_trace(&self.flavour, self.seed),
        }
    }

    /// The earliest time from which at most about `n` lines up to `to` remain (for
    /// `tailLines` without generating the whole history).
    pub fn tail_from(&self, n: usize, to: Nanos) -> Nanos {
        let span = (to - self.start).max(0);
        let k_last = span / self.period;
        let k_first = (k_last - n as Nanos - 1).max(0);
        self.start + k_first * self.period
    }

    /// Every line with a time in `[from, to]`, in order: (time, text).
    pub fn lines(&self, from: Nanos, to: Nanos) -> Vec<(Nanos, String)> {
        let mut out = Vec::new();
        let regular_end = self.end.map_or(to, |e| (e - SEC / 100).min(to));
        let first = if from <= self.start {
            0
        } else {
            u64::try_from((from - self.start) / self.period)
                .unwrap_or(0)
                .saturating_sub(1)
        };
        let mut k = first;
        loop {
            let t = self.time(k);
            if t > regular_end {
                break;
            }
            if t >= from {
                out.push((t, self.text(k)));
            }
            k += 1;
        }
        if let Some(e) = self.end {
            let closing = self.closing();
            let n = closing.len() as Nanos;
            for (j, text) in closing.into_iter().enumerate() {
                let t = e - (n - j as Nanos) * 1_000_000;
                if t >= from && t <= to {
                    out.push((t, text));
                }
            }
        }
        out
    }

    /// Regular line `k`'s text.
    fn text(&self, k: u64) -> String {
        let r = mix(self.seed, k);
        if k < 3 && self.flavour != "loggen" {
            return startup(&self.flavour, k);
        }
        let pick = |xs: &[&'static str]| xs[(r as usize / 7) % xs.len()];
        let ip = format!("10.244.{}.{}", r % 4, 2 + (r >> 8) % 250);
        let ms = 1 + (r >> 16) % 180;
        match self.flavour.as_str() {
            "loggen" => format!("seq={k} level=info msg=\"generated line\" payload={:016x}", r),
            "frontend" | "api-gateway" => {
                let path = pick(&[
                    "/",
                    "/api/products",
                    "/api/cart",
                    "/static/app.js",
                    "/healthz",
                    "/api/search?q=lamp",
                    "/api/checkout",
                ]);
                let code = if r.is_multiple_of(53) {
                    502
                } else if r.is_multiple_of(17) {
                    404
                } else {
                    200
                };
                let method = if path.contains("checkout") { "POST" } else { "GET" };
                format!(
                    "{ip} - - \"{method} {path} HTTP/1.1\" {code} {} {ms}ms \"Mozilla/5.0\"",
                    200 + (r >> 24) % 9000
                )
            }
            "cart" => {
                let op = pick(&["add item", "remove item", "get cart", "get cart", "merge carts"]);
                format!(
                    "level=info msg=\"{op}\" user=u{} items={} duration={ms}ms",
                    (r >> 12) % 9000,
                    (r >> 4) % 7
                )
            }
            "checkout" => pick(&[
                "level=info msg=\"loading payment provider config\"",
                "level=warn msg=\"payment provider config missing key 'merchant_id'\"",
                "level=info msg=\"connecting to postgres.data:5432\"",
            ])
            .to_owned(),
            "postgres" => format!(
                "{} UTC [{}] LOG:  {}",
                rfc3339_nanos(self.time(k))
                    .get(..19)
                    .unwrap_or_default()
                    .replace('T', " "),
                100 + (r >> 10) % 900,
                pick(&[
                    "checkpoint starting: time",
                    "checkpoint complete: wrote 41 buffers (0.3%)",
                    "automatic vacuum of table \"shop.public.orders\"",
                    "connection authorized: user=app database=shop"
                ])
            ),
            "exporter" => format!("level=info msg=\"scrape complete\" duration_seconds=0.0{ms:02}"),
            "coredns" => format!(
                "[INFO] {ip}:{} - {} \"A IN {}. udp 57 false 512\" NOERROR qr,aa,rd 106 0.000{ms}s",
                30000 + r % 30000,
                r % 65536,
                pick(&[
                    "postgres.data.svc.cluster.local",
                    "cart.shop.svc.cluster.local",
                    "kubernetes.default.svc.cluster.local"
                ])
            ),
            "kube-proxy" => "I1201 \"Syncing iptables rules\" ipFamily=\"IPv4\" numServices=7".to_owned(),
            _ => format!("level=info msg=\"working\" step={k} item={}", r % 1000),
        }
    }
}

fn startup(flavour: &str, k: u64) -> String {
    match k {
        0 => format!("starting {flavour} (pid 1)"),
        1 => "loaded configuration from /etc/config".to_owned(),
        _ => match flavour {
            "postgres" => "LOG:  database system is ready to accept connections".to_owned(),
            "coredns" => ".:53\nCoreDNS-1.12.1"
                .lines()
                .next()
                .unwrap_or_default()
                .to_owned(),
            _ => "listening on 0.0.0.0:8080".to_owned(),
        },
    }
}

fn crash_trace(flavour: &str, seed: u64) -> Vec<String> {
    let addr = format!("0x{:x}", 0xc000_0000u64 + seed % 0xffff);
    vec![
        "level=error msg=\"payment provider config missing key 'merchant_id'\"".to_owned(),
        "panic: runtime error: invalid memory address or nil pointer dereference".to_owned(),
        format!("[signal SIGSEGV: segmentation violation code=0x1 addr={addr} pc=0x6d2f4a]"),
        String::new(),
        "goroutine 1 [running]:".to_owned(),
        format!(
            "github.com/ktui/{flavour}/internal/payment.(*Client).Charge(0x0, {{0x8a1e40, 0xc0000b2000}})"
        ),
        format!("\t/src/internal/payment/client.go:88 +0x2a"),
        format!("main.main()"),
        format!("\t/src/cmd/{flavour}/main.go:41 +0x1c5"),
        "exit status 2".to_owned(),
    ]
}

fn mix(seed: u64, k: u64) -> u64 {
    let mut x = seed ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x
}
