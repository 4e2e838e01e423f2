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

/// CPU time this process has used so far, all its threads (ended ones too) counted. On a busy
/// machine a job's wall time says more about the other processes than about the job; its CPU
/// time divided by the threads it ran on is what it would take on quiet cores.
#[allow(dead_code)] // not every bench needs it
pub fn cpu_time() -> Duration {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}
