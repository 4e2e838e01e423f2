//! `--rate N`: at most N requests a second from one client, spaced evenly (a request waits for
//! its slot; none is dropped). Shared by the clones of a client, so concurrent sends share it.

use std::time::Duration;

use tokio::sync::Mutex;
use tokio::time::Instant;

#[derive(Debug)]
pub(crate) struct RateLimit {
    interval: Duration,
    next: Mutex<Option<Instant>>,
}

impl RateLimit {
    /// `None` unless `per_second` is a positive, finite number.
    pub(crate) fn per_second(per_second: f64) -> Option<RateLimit> {
        (per_second.is_finite() && per_second > 0.0).then(|| RateLimit {
            interval: Duration::from_secs_f64(1.0 / per_second),
            next: Mutex::new(None),
        })
    }

    /// Waits for the next free slot and takes it.
    pub(crate) async fn wait(&self) {
        let mut next = self.next.lock().await;
        let now = Instant::now();
        let slot = match *next {
            Some(at) if at > now => {
                tokio::time::sleep_until(at).await;
                at
            }
            _ => now,
        };
        *next = Some(slot + self.interval);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn requests_are_spaced_by_the_interval() {
        let rate = RateLimit::per_second(4.0).unwrap();
        let start = Instant::now();
        for _ in 0..5 {
            rate.wait().await;
        }
        // The first at once, then one every 250 ms.
        assert_eq!(start.elapsed(), Duration::from_millis(1000));
        assert!(RateLimit::per_second(0.0).is_none());
        assert!(RateLimit::per_second(f64::NAN).is_none());
    }
}
