//! Helpers for driving the real `appdeck` binary against an in-process sandbox on loopback.

#![allow(dead_code)] // each test binary uses its own subset

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use appdeck_sandbox::{Fault, Sandbox, SandboxOptions, SandboxStore};

pub mod faulty;
pub mod flaky_proxy;
pub mod tmux;

pub const TOKEN: &str = "test-token";

/// A sandbox on `127.0.0.1:0` with its own runtime, and a scratch directory for config files.
/// Tests stay synchronous: the binary is run as a child process while the runtime serves.
pub struct TestSandbox {
    runtime: tokio::runtime::Runtime,
    sandbox: Option<Sandbox>,
    pub base_url: String,
    pub dir: tempfile::TempDir,
}

impl TestSandbox {
    /// The demo data, the test token, no fault.
    pub fn demo() -> Self {
        Self::start(true, 0, None)
    }

    pub fn with_fault(fault: Fault) -> Self {
        Self::start(true, 0, Some(fault))
    }

    pub fn start(seed_demo: bool, generate: usize, fault: Option<Fault>) -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime");
        let options = SandboxOptions {
            listen: "127.0.0.1:0".parse().unwrap(),
            tokens: vec![TOKEN.to_owned()],
            seed_demo,
            generate,
            fault,
            ..SandboxOptions::default()
        };
        let sandbox = runtime
            .block_on(Sandbox::start(options))
            .expect("sandbox starts");
        TestSandbox {
            base_url: sandbox.base_url().to_owned(),
            sandbox: Some(sandbox),
            runtime,
            dir: tempfile::tempdir().expect("tempdir"),
        }
    }

    pub fn store(&self) -> SandboxStore {
        self.sandbox.as_ref().expect("running").store()
    }

    /// Runs `future` (a request to the sandbox, say) on the sandbox's runtime.
    pub fn block_on<F: std::future::Future>(&self, future: F) -> F::Output {
        self.runtime.block_on(future)
    }

    /// `appdeck` with a clean environment configured for this sandbox.
    pub fn appdeck(&self) -> Command {
        let mut cmd = appdeck(self.dir.path());
        cmd.env("APPDECK_BASE_URL", &self.base_url)
            .env("APPDECK_TOKEN", TOKEN);
        cmd
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
}

impl Drop for TestSandbox {
    fn drop(&mut self) {
        if let Some(sandbox) = self.sandbox.take() {
            self.runtime.block_on(sandbox.shutdown());
        }
    }
}

/// `appdeck` with nothing of the caller's environment: no `APPDECK_*`, a scratch home and an
/// `APPDECK_CONFIG` inside `dir` (which need not exist).
pub fn appdeck(dir: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_appdeck"));
    cmd.env_clear()
        .env("HOME", dir)
        .env("APPDECK_CONFIG", dir.join("config.toml"))
        .env("COLUMNS", "100")
        .stdin(Stdio::null());
    cmd
}

/// `appdeck ARGS` run in `dir` against the service at `base_url`, with the token [`TOKEN`] and
/// the history in `dir/data`, given 30 s to finish: a run against a scripted or faulty server.
pub fn run_against(dir: &Path, base_url: &str, args: &[&str]) -> Output {
    run_within(
        appdeck(dir)
            .env("APPDECK_BASE_URL", base_url)
            .env("APPDECK_TOKEN", TOKEN)
            .env("APPDECK_DATA_DIR", dir.join("data"))
            .args(args),
        std::time::Duration::from_secs(30),
    )
    .expect("appdeck finishes")
}

/// What a run of the binary produced.
#[derive(Debug)]
pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Output {
    pub fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }
}

pub fn run(cmd: &mut Command) -> Output {
    run_with_stdin(cmd, None)
}

pub fn run_with_stdin(cmd: &mut Command, stdin: Option<&str>) -> Output {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    if stdin.is_some() {
        cmd.stdin(Stdio::piped());
    }
    let mut child = cmd.spawn().expect("appdeck runs");
    if let Some(text) = stdin {
        let mut pipe = child.stdin.take().unwrap();
        pipe.write_all(text.as_bytes()).unwrap();
    }
    output(child)
}

/// Runs `cmd` for at most `limit`; `None`, with the child killed, when it had not finished by
/// then (what a hang looks like from outside). Its output must fit in the pipes' buffers (64 KiB),
/// as nothing reads them until it exits.
pub fn run_within(cmd: &mut Command, limit: std::time::Duration) -> Option<Output> {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("appdeck runs");
    let deadline = std::time::Instant::now() + limit;
    while child
        .try_wait()
        .expect("the child can be waited for")
        .is_none()
    {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    Some(output(child))
}

fn output(child: std::process::Child) -> Output {
    let out = child.wait_with_output().expect("appdeck finishes");
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// Makes a FIFO (a named pipe) at `path`, with no writer: opening it to read blocks for ever.
#[cfg(unix)]
pub fn mkfifo(path: &Path) -> PathBuf {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}: {made}", path.display());
    path.to_owned()
}

/// Writes a file with the given permission bits (Unix) and returns its path.
pub fn write_file(path: &Path, content: &str, mode: u32) -> PathBuf {
    std::fs::write(path, content).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    #[cfg(not(unix))]
    let _ = mode;
    path.to_owned()
}

/// A loopback port that refuses connections, for "nothing listens there" tests. The port is
/// bound (never listening) for as long as this value lives, so no other process or test can
/// take it in between, as could happen with a fixed port (1, 9) or one bound and dropped.
pub struct RefusedPort {
    socket: tokio::net::TcpSocket,
}

impl RefusedPort {
    pub fn bind() -> Self {
        let socket = tokio::net::TcpSocket::new_v4().expect("a TCP socket");
        socket
            .bind("127.0.0.1:0".parse().unwrap())
            .expect("a loopback port");
        RefusedPort { socket }
    }

    pub fn port(&self) -> u16 {
        self.socket.local_addr().expect("bound").port()
    }

    /// An API root on the refused port.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/api/v1", self.port())
    }
}

/// A server on loopback that answers one request with `status` and `body`, for answers the
/// sandbox never gives (a 2xx body saying `status: "error"`). Returns its base URL.
pub fn answer_once(status: &'static str, body: &'static str) -> String {
    answer_once_with(status, "", body)
}

/// Like [`answer_once`], with extra header lines (each ending in `\r\n`).
pub fn answer_once_with(status: &'static str, headers: &'static str, body: &'static str) -> String {
    answer_once_raw(format!(
        "HTTP/1.1 {status}\r\n{headers}content-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    ))
}

/// A server on loopback that reads one request and writes `answer` as it is (status line,
/// headers and body, however wrong), then closes the connection. Returns its base URL.
pub fn answer_once_raw(answer: String) -> String {
    use std::io::{BufRead, BufReader, Read};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let Ok((stream, _)) = listener.accept() else {
            return;
        };
        let mut reader = BufReader::new(stream);
        let mut length = 0;
        let mut line = String::new();
        while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line.trim() != "" {
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap_or(0);
            }
            line.clear();
        }
        let mut request = vec![0; length];
        let _ = reader.read_exact(&mut request);
        let _ = reader.get_mut().write_all(answer.as_bytes());
    });
    format!("http://{addr}/api/v1")
}
