//! The fault injector of the demo server: parses `--faults` specs and holds the faults in
//! force, which the HTTP layer consults per request (delay, error answers, 410 watches,
//! withheld bookmarks, dropped watch connections, malformed objects, a frozen server). Owns
//! no objects and never writes to the store.

use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

/// Which faults are on. `Default` = none.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FaultSpec {
    /// `drop-watch=10s`: every this often, every open watch connection is cut mid-stream.
    pub drop_watch: Option<Duration>,
    /// `gone=0.05`: fraction of watches (with a resourceVersion) answered with a 410 event.
    pub gone: f64,
    /// `no-bookmarks`: never send bookmarks.
    pub no_bookmarks: bool,
    /// `error-rate=0.1:500|429`: fraction of resource requests answered with an error...
    pub error_rate: f64,
    /// ...with a code drawn from these (429 carries `Retry-After`). Default 500.
    pub error_codes: Vec<u16>,
    /// `delay=200ms`: added before every answer.
    pub delay: Duration,
    /// `malformed=bad-`: objects whose name starts with this are served (in lists and watch
    /// events) with `"uid": 42`, which no client type decodes; the store keeps them intact.
    pub malformed: Option<String>,
    /// `freeze`: the server stops answering, as under SIGSTOP: requests wait, open watches
    /// send nothing (no event, no bookmark) until the fault is lifted.
    pub freeze: bool,
    /// `watch-list=refuse|ignore`: streaming lists (`sendInitialEvents=true`) are refused
    /// with 422, as by a server with the WatchList feature gate off, or ignored, as by a
    /// server older than 1.27 (the objects come as ADDED events, then changes and plain
    /// bookmarks, never the `k8s.io/initial-events-end` bookmark).
    pub watch_list: Option<WatchListFault>,
}

/// How the demo server treats `sendInitialEvents=true` under the `watch-list` fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WatchListFault {
    /// 422 Invalid.
    Refuse,
    /// As if the parameter were absent.
    Ignore,
}

/// Parses `10s`, `200ms`, `1.5s`, `2m`.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, unit) = s
        .find(|c: char| c.is_ascii_alphabetic())
        .map(|i| s.split_at(i))
        .unwrap_or((s, "s"));
    let n: f64 = num.parse().map_err(|_| format!("bad duration {s:?}"))?;
    let secs = match unit {
        "ms" => n / 1000.0,
        "s" => n,
        "m" => n * 60.0,
        _ => return Err(format!("bad duration unit in {s:?} (use ms, s or m)")),
    };
    Duration::try_from_secs_f64(secs).map_err(|_| format!("bad duration {s:?}"))
}

fn parse_fraction(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(f) if (0.0..=1.0).contains(&f) => Ok(f),
        _ => Err(format!("bad fraction {s:?} (want 0..1)")),
    }
}

impl FromStr for FaultSpec {
    type Err = String;

    /// Comma-separated `name[=value]` items; see the field docs for the names.
    fn from_str(s: &str) -> Result<Self, String> {
        let mut spec = FaultSpec::default();
        for item in s.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (name, value) = item
                .split_once('=')
                .map(|(n, v)| (n, Some(v)))
                .unwrap_or((item, None));
            let need = || value.ok_or_else(|| format!("fault {name:?} needs a value"));
            match name {
                "drop-watch" => spec.drop_watch = Some(parse_duration(need()?)?),
                "gone" => spec.gone = parse_fraction(need()?)?,
                "no-bookmarks" => spec.no_bookmarks = true,
                "freeze" => spec.freeze = true,
                "delay" => spec.delay = parse_duration(need()?)?,
                "malformed" => spec.malformed = Some(need()?.to_owned()),
                "watch-list" => {
                    spec.watch_list = Some(match need()? {
                        "refuse" => WatchListFault::Refuse,
                        "ignore" => WatchListFault::Ignore,
                        v => return Err(format!("bad watch-list fault {v:?} (refuse or ignore)")),
                    })
                }
                "error-rate" => {
                    let v = need()?;
                    let (rate, codes) = v.split_once(':').unwrap_or((v, "500"));
                    spec.error_rate = parse_fraction(rate)?;
                    spec.error_codes = codes
                        .split('|')
                        .map(|c| match c.trim().parse::<u16>() {
                            Ok(code) if (400..600).contains(&code) => Ok(code),
                            _ => Err(format!("bad error code {c:?}")),
                        })
                        .collect::<Result<_, _>>()?;
                }
                other => {
                    return Err(format!(
                        "unknown fault {other:?} (known: drop-watch, gone, no-bookmarks, error-rate, delay, malformed, freeze, watch-list)"
                    ))
                }
            }
        }
        Ok(spec)
    }
}

/// The faults in force, switchable at run time, with a seeded dice.
pub struct Faults {
    spec: Mutex<Arc<FaultSpec>>,
    rng: Mutex<StdRng>,
    drops: watch::Sender<u64>,
}

impl Faults {
    /// Faults `spec`, dice seeded with `seed`.
    pub fn new(spec: FaultSpec, seed: u64) -> Arc<Faults> {
        Arc::new(Faults {
            spec: Mutex::new(Arc::new(spec)),
            rng: Mutex::new(StdRng::seed_from_u64(seed ^ 0xfa017)),
            drops: watch::channel(0).0,
        })
    }

    /// The faults in force now.
    pub fn spec(&self) -> Arc<FaultSpec> {
        self.spec.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Replaces the faults in force (`FaultSpec::default()` turns them all off).
    pub fn set(&self, spec: FaultSpec) {
        *self.spec.lock().unwrap_or_else(|p| p.into_inner()) = Arc::new(spec);
    }

    /// True with probability `p`.
    pub fn roll(&self, p: f64) -> bool {
        p > 0.0
            && self
                .rng
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .random_bool(p.min(1.0))
    }

    /// The error code to answer a resource request with, if the dice say so.
    pub fn pick_error(&self) -> Option<u16> {
        let spec = self.spec();
        if !self.roll(spec.error_rate) {
            return None;
        }
        let mut rng = self.rng.lock().unwrap_or_else(|e| e.into_inner());
        Some(
            spec.error_codes
                .get(rng.random_range(0..spec.error_codes.len().max(1)))
                .copied()
                .unwrap_or(500),
        )
    }

    /// Changes each time open watches must be cut.
    pub fn drops(&self) -> watch::Receiver<u64> {
        self.drops.subscribe()
    }

    /// Cuts every open watch connection now (one drop round), whatever `drop_watch` says.
    pub fn drop_now(&self) {
        self.drops.send_modify(|n| *n += 1);
    }

    /// `object` as served under the `malformed` fault: with `"uid": 42` when its name starts
    /// with the fault's prefix, else unchanged (no parse when the fault is off or the bytes
    /// cannot match).
    pub fn malform<'a>(&self, object: &'a [u8]) -> std::borrow::Cow<'a, [u8]> {
        use std::borrow::Cow;
        let spec = self.spec();
        let Some(prefix) = spec.malformed.as_deref() else {
            return Cow::Borrowed(object);
        };
        let needle = format!("\"name\":\"{prefix}");
        if !object.windows(needle.len()).any(|w| w == needle.as_bytes()) {
            return Cow::Borrowed(object);
        }
        let Ok(mut v) = serde_json::from_slice::<serde_json::Value>(object) else {
            return Cow::Borrowed(object);
        };
        if !v["metadata"]["name"]
            .as_str()
            .is_some_and(|n| n.starts_with(prefix))
        {
            return Cow::Borrowed(object);
        }
        v["metadata"]["uid"] = serde_json::json!(42);
        Cow::Owned(serde_json::to_vec(&v).unwrap_or_else(|_| object.to_vec()))
    }

    /// Returns once the server is not frozen (at once when it is not).
    pub async fn thawed(&self) {
        while self.spec().freeze {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Total watch-drop rounds so far.
    pub fn drop_rounds(&self) -> u64 {
        *self.drops.borrow()
    }

    /// Cuts watches every `drop_watch` while that fault is on; runs until `cancel`.
    pub async fn run_dropper(self: Arc<Self>, cancel: CancellationToken) {
        loop {
            let period = self.spec().drop_watch;
            let wait = period.unwrap_or(Duration::from_millis(100));
            tokio::select! {
                _ = cancel.cancelled() => return,
                _ = tokio::time::sleep(wait) => {}
            }
            if period.is_some() && self.spec().drop_watch.is_some() {
                self.drops.send_modify(|n| *n += 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_issue_example() {
        let s: FaultSpec = "drop-watch=10s,gone=0.05,no-bookmarks,error-rate=0.1:500|429,delay=200ms"
            .parse()
            .unwrap();
        assert_eq!(
            s,
            FaultSpec {
                drop_watch: Some(Duration::from_secs(10)),
                gone: 0.05,
                no_bookmarks: true,
                error_rate: 0.1,
                error_codes: vec![500, 429],
                delay: Duration::from_millis(200),
                malformed: None,
                freeze: false,
                watch_list: None,
            }
        );
        assert_eq!("".parse::<FaultSpec>().unwrap(), FaultSpec::default());
        assert_eq!("error-rate=0.5".parse::<FaultSpec>().unwrap().error_codes, [500]);
        let more: FaultSpec = "freeze,malformed=bad-".parse().unwrap();
        assert!(more.freeze);
        assert_eq!(more.malformed.as_deref(), Some("bad-"));
        let wl = |s: &str| s.parse::<FaultSpec>().unwrap().watch_list;
        assert_eq!(wl("watch-list=refuse"), Some(WatchListFault::Refuse));
        assert_eq!(wl("watch-list=ignore"), Some(WatchListFault::Ignore));
        for bad in [
            "watch-list",
            "watch-list=maybe",
            "gone=2",
            "drop-watch",
            "delay=3h",
            "error-rate=0.1:200",
            "explode",
        ] {
            assert!(bad.parse::<FaultSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn malformed_objects_get_a_number_for_a_uid() {
        let f = Faults::new("malformed=bad-".parse().unwrap(), 1);
        let bad = br#"{"metadata":{"name":"bad-1","uid":"u"}}"#;
        let good = br#"{"metadata":{"name":"good","uid":"u"}}"#;
        let v: serde_json::Value = serde_json::from_slice(&f.malform(bad)).unwrap();
        assert_eq!(v["metadata"]["uid"], 42);
        assert_eq!(&*f.malform(good), good);
        f.set(FaultSpec::default());
        assert_eq!(&*f.malform(bad), bad);
    }

    #[test]
    fn dice_are_seeded() {
        let spec: FaultSpec = "error-rate=0.5:500|429".parse().unwrap();
        let run = || {
            let f = Faults::new(spec.clone(), 7);
            (0..50).map(|_| f.pick_error()).collect::<Vec<_>>()
        };
        let a = run();
        assert_eq!(a, run());
        assert!(a.contains(&Some(429)) && a.contains(&Some(500)) && a.contains(&None));
    }
}
