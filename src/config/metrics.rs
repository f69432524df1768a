//! `[metrics]`: resource usage from `metrics.k8s.io` — whether ktui polls it, how often, how
//! many samples the trend keeps, and the percentages drawn in warning and error colours.
//! Owns these settings and their defaults; must not poll or draw.

use std::time::Duration;

use serde::Deserialize;

use super::values::Age;

/// `[metrics]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MetricsConfig {
    /// Poll `metrics.k8s.io` while a pods, containers or nodes view is on screen.
    pub enabled: bool,
    /// Time between two polls of one view's metrics (default `15s`, the scrape interval of
    /// the usual metrics-server manifests; at least `1s`). A sample older than two is stale.
    pub interval: Age,
    /// Samples kept per pod or node for the trend (default 60: 15 minutes at `15s`; about
    /// 2 KiB per one-container pod; at least 1).
    pub samples: u32,
    /// MiB the samples of one poll may take (default 64): a poll of more objects than fit at
    /// `samples` each keeps fewer per object (at least 4) — 150,000 pods keep about 9.
    pub max_mib: u32,
    /// A percentage at or above this is drawn in the warning colour.
    pub warn: u32,
    /// A percentage at or above this is drawn in the error colour.
    pub critical: u32,
}

impl Default for MetricsConfig {
    fn default() -> Self {
        MetricsConfig {
            enabled: true,
            interval: Age(Duration::from_secs(15)),
            samples: 60,
            max_mib: 64,
            warn: 70,
            critical: 90,
        }
    }
}

impl MetricsConfig {
    /// The pool's tunables; `None` when `enabled = false`. The interval is at least 1 s and
    /// a request's deadline at most the interval (at most 10 s).
    pub fn poll(&self) -> Option<crate::kube::metrics::MetricsConfig> {
        if !self.enabled {
            return None;
        }
        let interval = self.interval.0.max(Duration::from_secs(1));
        let base = crate::kube::metrics::MetricsConfig::default();
        Some(crate::kube::metrics::MetricsConfig {
            interval,
            samples: (self.samples as usize).max(1),
            request_timeout: base.request_timeout.min(interval),
            budget_bytes: (self.max_mib as usize) << 20,
            ..base
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_bounds() {
        let c: MetricsConfig = toml::from_str("").unwrap();
        let p = c.poll().unwrap();
        assert_eq!(p.interval, Duration::from_secs(15));
        assert_eq!(p.samples, 60);
        assert_eq!(p.budget_bytes, 64 << 20);
        assert_eq!(p.request_timeout, Duration::from_secs(10));
        let c: MetricsConfig = toml::from_str("interval = \"1s\"\nsamples = 0").unwrap();
        let p = c.poll().unwrap();
        assert_eq!(p.interval, Duration::from_secs(1));
        assert_eq!(p.samples, 1);
        assert_eq!(p.request_timeout, Duration::from_secs(1));
        let off: MetricsConfig = toml::from_str("enabled = false").unwrap();
        assert!(off.poll().is_none());
        assert!(toml::from_str::<MetricsConfig>("intervall = \"5s\"").is_err());
        assert!(
            toml::from_str::<MetricsConfig>("interval = \"0s\"").is_err(),
            "no zero interval"
        );
    }
}
