//! A small faulty server on loopback: each request answered on its own thread as a function of
//! the request says (an error status, a closed connection, an echo), bounded in connections and
//! in time.

use std::io::{BufRead, BufReader, Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A request as the server read it.
#[derive(Clone, Debug)]
pub struct Request {
    /// The request line: `POST /api/v1/resources.list HTTP/1.1`.
    pub line: String,
    /// The header lines, as they came.
    pub head: String,
    pub body: String,
}

/// What the server does with a request.
pub enum Reply {
    /// This status line (`200 OK`) and JSON body.
    Answer(&'static str, String),
    /// Closes the connection without a word.
    Drop,
}

/// A server on loopback answering each request on its own thread as `reply` says; it takes
/// `limit` connections at most and stops listening after 30 s (bounded in requests and time).
/// Returns its base URL and the requests it received.
pub fn faulty(
    limit: usize,
    reply: impl Fn(&Request) -> Reply + Send + Sync + 'static,
) -> (String, Arc<Mutex<Vec<Request>>>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let addr = listener.local_addr().unwrap();
    let requests = Arc::new(Mutex::new(Vec::new()));
    let seen = requests.clone();
    let reply = Arc::new(reply);
    std::thread::spawn(move || {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut taken = 0;
        while taken < limit && Instant::now() < deadline {
            let stream = match listener.accept() {
                Ok((stream, _)) => stream,
                Err(_) => {
                    std::thread::sleep(Duration::from_millis(2));
                    continue;
                }
            };
            taken += 1;
            let (seen, reply) = (seen.clone(), reply.clone());
            std::thread::spawn(move || {
                let _ = stream.set_nonblocking(false);
                let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
                let mut reader = BufReader::new(stream);
                let mut request_line = String::new();
                let _ = reader.read_line(&mut request_line);
                let (mut length, mut head, mut line) = (0, String::new(), String::new());
                while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line.trim() != "" {
                    if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        length = v.trim().parse().unwrap_or(0);
                    }
                    head.push_str(&line);
                    line.clear();
                }
                let mut body = vec![0; length];
                let _ = reader.read_exact(&mut body);
                let request = Request {
                    line: request_line.trim_end().to_owned(),
                    head,
                    body: String::from_utf8_lossy(&body).into_owned(),
                };
                seen.lock().unwrap().push(request.clone());
                if let Reply::Answer(status, answer) = reply(&request) {
                    let answer = format!(
                        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\n\
                         content-length: {}\r\nconnection: close\r\n\r\n{answer}",
                        answer.len()
                    );
                    let _ = reader.get_mut().write_all(answer.as_bytes());
                }
            });
        }
    });
    (format!("http://{addr}/api/v1"), requests)
}
