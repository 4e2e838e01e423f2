//! The one timing helper of the benches (`mod common;` in each): runs a closure after a warm-up,
//! and prints its median, 99th percentile and worst time.

use std::time::{Duration, Instant};

/// Milliseconds, for printing.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Runs `f` `warmup` times untimed, then `runs` times timed, and prints the times under `name`.
pub fn measure(name: &str, warmup: usize, runs: usize, mut f: impl FnMut()) {
    for _ in 0..warmup {
        f();
    }
    let mut times: Vec<Duration> = (0..runs.max(1))
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    let at = |fraction: f64| times[((times.len() - 1) as f64 * fraction) as usize];
    println!(
        "{name:<48} median {:>8.3} ms   p99 {:>8.3} ms   max {:>8.3} ms ({} runs)",
        ms(at(0.5)),
        ms(at(0.99)),
        ms(at(1.0)),
        times.len()
    );
}
