//! A proxy on loopback in front of the sandbox that fails requests as an overloaded service
//! behind a load balancer does: of every ten requests, on average, one has its connection reset
//! (closed with an RST before any answer) and two are answered `503` with `Retry-After: 1`; the
//! rest are forwarded. The draws come from a seed, so a run can be repeated. Shared by the CLI
//! tests and `benches/list_faults.rs` (which includes this file by path).
//!
//! Bounded: it serves at most `max_requests`, each socket read waits 10 s at most, and dropping
//! it stops the accept loop.

#![allow(dead_code)] // each user takes its own subset

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the proxy did, request by request.
#[derive(Debug, Default)]
pub struct Counts {
    pub requests: AtomicU64,
    pub resets: AtomicU64,
    pub unavailable: AtomicU64,
    pub forwarded: AtomicU64,
}

pub struct FlakyProxy {
    pub base_url: String,
    pub counts: Arc<Counts>,
    stop: Arc<AtomicBool>,
    addr: std::net::SocketAddr,
}

/// What the proxy does with one request.
enum Fate {
    Reset,
    Unavailable,
    Forward,
}

impl FlakyProxy {
    /// Starts a proxy in front of `upstream_base_url` (`http://127.0.0.1:PORT/api/v1`); its own
    /// base URL has the same path.
    pub fn start(upstream_base_url: &str, seed: u64, max_requests: u64) -> FlakyProxy {
        let rest = upstream_base_url
            .strip_prefix("http://")
            .expect("an http:// base URL");
        let (upstream, path) = rest.split_once('/').unwrap_or((rest, ""));
        let upstream = upstream.to_owned();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let counts = Arc::new(Counts::default());
        let stop = Arc::new(AtomicBool::new(false));
        let dice = Arc::new(Mutex::new(fastrand::Rng::with_seed(seed)));
        {
            let (counts, stop) = (counts.clone(), stop.clone());
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let Ok(client) = stream else { continue };
                    let (counts, dice, upstream) = (counts.clone(), dice.clone(), upstream.clone());
                    std::thread::spawn(move || {
                        let _ = serve(client, &upstream, &counts, &dice, max_requests);
                    });
                }
            });
        }
        FlakyProxy {
            base_url: format!("http://{addr}/{path}"),
            counts,
            stop,
            addr,
        }
    }

    pub fn count(&self, which: impl Fn(&Counts) -> &AtomicU64) -> u64 {
        which(&self.counts).load(Ordering::SeqCst)
    }
}

impl Drop for FlakyProxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accept loop so that it sees the flag.
        let _ = TcpStream::connect(self.addr);
    }
}

/// Serves one client connection, keep-alive, over one upstream connection.
fn serve(
    client: TcpStream,
    upstream_addr: &str,
    counts: &Counts,
    dice: &Mutex<fastrand::Rng>,
    max_requests: u64,
) -> std::io::Result<()> {
    client.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut from_client = BufReader::new(client.try_clone()?);
    let mut to_client = client;
    let mut upstream: Option<(BufReader<TcpStream>, TcpStream)> = None;
    loop {
        let Some(request) = read_message(&mut from_client)? else {
            return Ok(());
        };
        if counts.requests.fetch_add(1, Ordering::SeqCst) >= max_requests {
            return Ok(());
        }
        let fate = match dice.lock().unwrap().u32(0..10) {
            0 => Fate::Reset,
            1 | 2 => Fate::Unavailable,
            _ => Fate::Forward,
        };
        match fate {
            Fate::Reset => {
                counts.resets.fetch_add(1, Ordering::SeqCst);
                reset(&to_client);
                return Ok(());
            }
            Fate::Unavailable => {
                counts.unavailable.fetch_add(1, Ordering::SeqCst);
                let body = r#"{"error":"overloaded, try again"}"#;
                write!(
                    to_client,
                    "HTTP/1.1 503 Service Unavailable\r\nretry-after: 1\r\n\
                     content-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
                    body.len()
                )?;
            }
            Fate::Forward => {
                counts.forwarded.fetch_add(1, Ordering::SeqCst);
                if upstream.is_none() {
                    let stream = TcpStream::connect(upstream_addr)?;
                    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
                    upstream = Some((BufReader::new(stream.try_clone()?), stream));
                }
                let (from_upstream, to_upstream) = upstream.as_mut().unwrap();
                to_upstream.write_all(&request)?;
                let Some(answer) = read_message(from_upstream)? else {
                    return Ok(());
                };
                to_client.write_all(&answer)?;
            }
        }
        to_client.flush()?;
    }
}

/// One HTTP/1.1 message (head and a `content-length` body) as its bytes; `None` at the end of
/// the stream.
fn read_message(reader: &mut BufReader<TcpStream>) -> std::io::Result<Option<Vec<u8>>> {
    let mut message = Vec::new();
    let mut length = 0usize;
    loop {
        let start = message.len();
        if reader.read_until(b'\n', &mut message)? == 0 {
            return Ok(None);
        }
        let line = String::from_utf8_lossy(&message[start..]).to_ascii_lowercase();
        if let Some(value) = line.strip_prefix("content-length:") {
            length = value.trim().parse().unwrap_or(0);
        }
        if line == "\r\n" {
            break;
        }
    }
    let start = message.len();
    message.resize(start + length, 0);
    reader.read_exact(&mut message[start..])?;
    Ok(Some(message))
}

/// Closes `stream` with an RST: a zero linger time makes close(2) drop the connection at once.
fn reset(stream: &TcpStream) {
    let linger = libc::linger {
        l_onoff: 1,
        l_linger: 0,
    };
    // SAFETY: a valid socket descriptor and a pointer to a linger of the size given.
    unsafe {
        libc::setsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_LINGER,
            (&raw const linger).cast(),
            std::mem::size_of::<libc::linger>() as libc::socklen_t,
        );
    }
}
