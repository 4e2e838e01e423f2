//! The retry goal of issue 21: against a server that answers 503 with `Retry-After: 1` to one
//! request in five and resets one connection in ten, `appdeck list --all` returns every row
//! exactly once. A sandbox in this process, the flaky proxy of the CLI tests in front of it
//! (tests/common/flaky_proxy.rs), and the release binary listing through the proxy; the rows are
//! compared with a listing straight from the sandbox.
//!
//! Usage: cargo bench --bench list_faults -- RESOURCES [LIMIT [SEED]]
//!        (prints the faults met, the retries said, the time, and whether every row came once)

#[path = "../tests/common/flaky_proxy.rs"]
mod flaky_proxy;

use std::collections::HashSet;
use std::process::{Command, Stdio};
use std::time::Instant;

use appdeck_sandbox::{Sandbox, SandboxOptions};

const TOKEN: &str = "bench";

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    // `cargo bench` with no arguments runs every bench target: nothing to measure then.
    let Some(total) = args.first().and_then(|a| a.parse::<usize>().ok()) else {
        eprintln!("usage: list_faults RESOURCES [LIMIT [SEED]]");
        return;
    };
    let limit: u32 = args.get(1).map_or(500, |a| a.parse().expect("LIMIT"));
    let seed: u64 = args.get(2).map_or(21, |a| a.parse().expect("SEED"));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    let options = SandboxOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        tokens: vec![TOKEN.to_owned()],
        seed_demo: false,
        generate: total,
        ..SandboxOptions::default()
    };
    let sandbox = runtime
        .block_on(Sandbox::start(options))
        .expect("the sandbox");
    let list = |base_url: &str| {
        let started = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_appdeck"))
            .env_clear()
            .env("APPDECK_TOKEN", TOKEN)
            .env("APPDECK_CONFIG", "/nonexistent/appdeck-bench.toml")
            .args(["list", "--all", "-o", "ndjson", "--retries", "10"])
            .args(["--limit", &limit.to_string(), "--base-url", base_url])
            .stdin(Stdio::null())
            .output()
            .expect("appdeck runs");
        (out, started.elapsed())
    };
    let (direct, direct_time) = list(sandbox.base_url());
    assert!(direct.status.success(), "the listing without faults fails");
    let proxy = flaky_proxy::FlakyProxy::start(sandbox.base_url(), seed, u64::MAX);
    let (faulty, faulty_time) = list(&proxy.base_url);
    let stderr = String::from_utf8_lossy(&faulty.stderr);

    let lines: Vec<&[u8]> = faulty
        .stdout
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    let unique: HashSet<&[u8]> = lines.iter().copied().collect();
    let exact = faulty.stdout == direct.stdout;
    println!(
        "list --all -o ndjson, {total} resources, page size {limit}, seed {seed}, through the flaky proxy:"
    );
    println!(
        "  requests {}: forwarded {}, 503 with Retry-After: 1 {}, connections reset {}",
        proxy.count(|c| &c.requests),
        proxy.count(|c| &c.forwarded),
        proxy.count(|c| &c.unavailable),
        proxy.count(|c| &c.resets)
    );
    println!(
        "  retries said on stderr: {}",
        stderr.matches("; retry ").count()
    );
    println!(
        "  exit {}, {} rows ({} distinct), the same bytes as without faults: {exact}",
        faulty.status.code().unwrap_or(-1),
        lines.len(),
        unique.len()
    );
    println!(
        "  {:.2} s (without faults: {:.2} s)",
        faulty_time.as_secs_f64(),
        direct_time.as_secs_f64()
    );
    runtime.block_on(sandbox.shutdown());
    if !(faulty.status.success() && exact && lines.len() == total && unique.len() == total) {
        eprintln!("{stderr}");
        std::process::exit(1);
    }
}
