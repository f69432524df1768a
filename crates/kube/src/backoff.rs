//! ktui's own retry backoff for informers: exponential, capped, jittered, reset only on real
//! progress. kube-runtime's default resets after every `Ok` item (each list attempt starts
//! with one), so a failing list would retry every second forever. Owns timing only.

use std::time::Duration;

use rand::Rng;

/// Exponential backoff with full-range jitter in `[delay/2, delay]`.
#[derive(Debug, Clone)]
pub struct Backoff {
    base: Duration,
    cap: Duration,
    attempt: u32,
}

impl Backoff {
    /// `base` is the first delay, doubled per failure up to `cap`.
    pub fn new(base: Duration, cap: Duration) -> Self {
        Backoff {
            base,
            cap,
            attempt: 0,
        }
    }

    /// Records one failure and returns how long to wait before the next try.
    pub fn next_delay(&mut self) -> Duration {
        self.attempt = self.attempt.saturating_add(1);
        let exp = self.attempt.saturating_sub(1).min(16);
        let full = self.base.saturating_mul(1u32 << exp).min(self.cap);
        let half = full / 2;
        let jitter_ms = rand::rng().random_range(0..=half.as_millis() as u64);
        half + Duration::from_millis(jitter_ms)
    }

    /// Failures since the last reset (1 after the first failure).
    pub fn attempt(&self) -> u32 {
        self.attempt
    }

    /// Forgets failures: call on real progress — a list page, a complete list, a watch
    /// event — never after a mere successful connection.
    pub fn reset(&mut self) {
        self.attempt = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_to_cap_with_jitter_and_resets() {
        let mut b = Backoff::new(Duration::from_secs(1), Duration::from_secs(30));
        let first = b.next_delay();
        assert!(first >= Duration::from_millis(500) && first <= Duration::from_secs(1));
        for _ in 0..20 {
            let d = b.next_delay();
            assert!(d <= Duration::from_secs(30));
        }
        let capped = b.next_delay();
        assert!(
            capped >= Duration::from_secs(15),
            "at the cap the delay stays high: {capped:?}"
        );
        assert_eq!(b.attempt(), 22);
        b.reset();
        assert!(b.next_delay() <= Duration::from_secs(1));
    }
}
