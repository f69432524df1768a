//! The demo's usage model: what a container uses in one metrics window, derived only from the
//! server's seed, the container's identity, its declared requests and limits and the window's
//! number — so every poll within a window sees the same numbers, the next window new ones, and
//! the same seed the same cluster. Pure arithmetic; must not read the store or format output.

use crate::sizing::{self, Level};

/// A container's declared resources (`spec.containers[].resources`), `None` = not set.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Resources {
    /// `requests.cpu`, nanocores.
    pub cpu_request: Option<u64>,
    /// `limits.cpu`, nanocores.
    pub cpu_limit: Option<u64>,
    /// `requests.memory`, bytes.
    pub memory_request: Option<u64>,
    /// `limits.memory`, bytes.
    pub memory_limit: Option<u64>,
}

/// Usage over one window: the `usage` of a container or node metrics item.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    /// `usage.cpu`, nanocores (average over the window).
    pub cpu_nanos: u64,
    /// `usage.memory`, bytes (working set at the window's end; a multiple of 4 KiB pages).
    pub memory_bytes: u64,
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, o: Usage) {
        self.cpu_nanos = self.cpu_nanos.saturating_add(o.cpu_nanos);
        self.memory_bytes = self.memory_bytes.saturating_add(o.memory_bytes);
    }
}

/// The reference a container without a CPU request is measured against: 50m.
const DEFAULT_CPU: f64 = 50e6;
/// The same for memory: 64 MiB.
const DEFAULT_MEMORY: f64 = 64.0 * 1024.0 * 1024.0;
/// Memory pages: working sets are whole pages.
const PAGE: u64 = 4096;

/// A 64-bit mix (splitmix64's finalizer).
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A stable hash of `seed` and `parts`.
fn hash(seed: u64, parts: &[&str]) -> u64 {
    parts
        .iter()
        .fold(mix(seed), |h, p| mix(h ^ crate::pods::fxhash(p)))
}

/// A number in `lo..hi` drawn from `h`.
fn between(h: u64, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * ((h >> 11) as f64 / (1u64 << 53) as f64)
}

/// The level of a container the sizing table does not know: drawn from its hash (30 % idle,
/// 50 % steady, 10 % over its request, 10 % near its limits).
fn drawn_level(h: u64) -> Level {
    match h % 10 {
        0..=2 => Level::Idle,
        3..=7 => Level::Steady,
        8 => Level::OverRequest,
        _ => Level::NearLimit,
    }
}

/// One resource's usage for `level` before this window's factor: `reference` is the request
/// (or its stand-in), `limit` the limit if any, `h` the container's draw, `top` the upper
/// ends of the near-limit fraction and of the over-request factor.
fn level_usage(level: Level, reference: f64, limit: Option<f64>, h: u64, top: (f64, f64)) -> f64 {
    let base = match (level, limit) {
        (Level::NearLimit, Some(l)) => l * between(h, 0.88, top.0),
        (Level::NearLimit | Level::OverRequest, _) => reference * between(h, 1.15, top.1),
        (Level::Steady, _) => reference * between(h, 0.35, 0.8),
        (Level::Idle, _) => reference * between(h, 0.05, 0.25),
    };
    let capped = match (level, limit) {
        // Over its request means over it, whatever this window's wobble, but below the limit.
        (Level::OverRequest, Some(l)) => base.min(l * 0.9),
        _ => base,
    };
    capped.max(1.0)
}

/// What container `container` of pod `namespace/pod` uses in window number `window`.
///
/// CPU: by level (see [`Level`]) against the request (or a quarter of the limit, or 50m),
/// times a per-window factor of 0.85–1.15, never above the limit (CFS quota throttles), never
/// under 85 % of it for [`Level::NearLimit`] and never back under the request for
/// [`Level::OverRequest`]. Memory: the same against the
/// memory request (or half the limit, or 64 MiB) with a per-window drift of ±3 %, never
/// above 99 % of the limit (the OOM killer), rounded to whole pages.
pub fn container(
    seed: u64,
    namespace: &str,
    pod: &str,
    container: &str,
    r: &Resources,
    window: u64,
) -> Usage {
    let h = hash(seed, &[namespace, pod, container]);
    let level = sizing::of(container)
        .map(|s| s.level)
        .unwrap_or_else(|| drawn_level(mix(h)));
    let f = |v: Option<u64>| v.map(|x| x as f64);
    let (cpu_req, cpu_lim) = (f(r.cpu_request), f(r.cpu_limit));
    let cpu_ref = cpu_req.or(cpu_lim.map(|l| l / 4.0)).unwrap_or(DEFAULT_CPU);
    let tick = mix(h ^ mix(window));
    let mut cpu = level_usage(level, cpu_ref, cpu_lim, mix(h ^ 1), (0.97, 1.6)) * between(tick, 0.85, 1.15);
    if let Some(l) = cpu_lim {
        cpu = cpu.min(l * 0.995);
        if level == Level::NearLimit {
            cpu = cpu.max(l * 0.85);
        }
    }
    if level == Level::OverRequest {
        cpu = cpu.max(cpu_ref * 1.05);
    }
    let (mem_req, mem_lim) = (f(r.memory_request), f(r.memory_limit));
    let mem_ref = mem_req.or(mem_lim.map(|l| l / 2.0)).unwrap_or(DEFAULT_MEMORY);
    let mut mem =
        level_usage(level, mem_ref, mem_lim, mix(h ^ 2), (0.96, 1.5)) * between(mix(tick ^ 3), 0.97, 1.03);
    if let Some(l) = mem_lim {
        mem = mem.min(l * 0.99);
    }
    Usage {
        cpu_nanos: cpu.round() as u64,
        memory_bytes: ((mem as u64) / PAGE).max(1) * PAGE,
    }
}

/// What a node's system (kubelet, container runtime, kernel) uses beside its pods in window
/// `window`: 120–300m of CPU (±15 % per window) and 700–1100 MiB of memory (±3 %).
pub fn system(seed: u64, node: &str, window: u64) -> Usage {
    let h = hash(seed, &["node", node]);
    let tick = mix(h ^ mix(window));
    let cpu = between(h, 120e6, 300e6) * between(tick, 0.85, 1.15);
    let mem = between(mix(h), 700.0, 1100.0) * 1024.0 * 1024.0 * between(mix(tick), 0.97, 1.03);
    Usage {
        cpu_nanos: cpu.round() as u64,
        memory_bytes: ((mem as u64) / PAGE).max(1) * PAGE,
    }
}
