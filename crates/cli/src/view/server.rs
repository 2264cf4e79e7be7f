//! The viewer's connections: a fixed pool of worker threads fed through a bounded queue by the
//! accepting thread, so the number of threads never follows the number of connections.
//!
//! * [`Limits::workers`] threads each serve one connection at a time (keep-alive included);
//!   [`Limits::queue`] accepted connections may wait for one; past that a connection is
//!   answered 503 at once and closed.
//! * A head is read up to [`http::MAX_HEAD`] bytes (431 past it, connection closed), within
//!   [`Limits::read`] of waiting for each read and [`Limits::head`] for the whole head, so an
//!   idle or trickling client gives its worker back; a kept-alive connection waits
//!   [`Limits::idle`] for its next request.
//! * Answers are written with [`Limits::write`] per write and [`Limits::response`] for the
//!   whole answer: a client that does not read is dropped, and the worker goes on with others.
//! * After a refusal (4xx/5xx before routing) the connection is closed: its unread input
//!   (a body, the rest of a huge head) is drained for a moment first so the client sees the
//!   answer rather than a reset.

use super::http::{self, Head, Refusal};
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, TrySendError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What the server allows a connection.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Worker threads (connections served at once).
    pub workers: usize,
    /// Accepted connections waiting for a worker.
    pub queue: usize,
    /// The longest wait for one read of the request head.
    pub read: Duration,
    /// The longest a kept-alive connection may wait for its next request: an idle browser
    /// connection gives its worker back soon (8 of them, two tabs' worth, held every worker
    /// for the read limit).
    pub idle: Duration,
    /// The longest a whole head may take to arrive.
    pub head: Duration,
    /// The longest wait for one write of an answer.
    pub write: Duration,
    /// The longest a whole answer may take to write.
    pub response: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            workers: 32,
            queue: 64,
            read: Duration::from_secs(5),
            idle: Duration::from_secs(2),
            head: Duration::from_secs(10),
            write: Duration::from_secs(10),
            response: Duration::from_secs(60),
        }
    }
}

/// One answer: status, content type and body (shared, so that a cached body is not copied).
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub status: u16,
    pub content_type: &'static str,
    pub body: std::sync::Arc<Vec<u8>>,
}

/// Accept on `listener` and answer each admitted request with `answer` (called from the
/// workers); `port` is the one `Host` must name. Returns when `stop` is set (checked after
/// each accepted connection) or the listener fails.
pub fn run(
    listener: &TcpListener,
    port: u16,
    limits: Limits,
    stop: &AtomicBool,
    answer: &(dyn Fn(&Head) -> Answer + Sync),
) {
    let (tx, rx) = sync_channel::<TcpStream>(limits.queue.max(1));
    let rx = Mutex::new(rx);
    std::thread::scope(|s| {
        for _ in 0..limits.workers.max(1) {
            s.spawn(|| worker(&rx, port, &limits, answer));
        }
        for conn in listener.incoming() {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let Ok(conn) = conn else {
                // Out of file descriptors, or a connection reset before it was accepted: wait a
                // little rather than spin.
                std::thread::sleep(Duration::from_millis(10));
                continue;
            };
            match tx.try_send(conn) {
                Ok(()) => {}
                Err(TrySendError::Full(mut c)) => {
                    let _ = c.set_write_timeout(Some(Duration::from_secs(1)));
                    let busy = error_answer(503, "the viewer is busy, try again");
                    let _ = write_answer(&mut c, &busy, false, false, &limits);
                    let _ = c.shutdown(Shutdown::Both);
                }
                Err(TrySendError::Disconnected(_)) => break,
            }
        }
        // Closing the queue ends the workers once they finish their connections.
        drop(tx);
    });
}

fn worker(rx: &Mutex<Receiver<TcpStream>>, port: u16, limits: &Limits, answer: &(dyn Fn(&Head) -> Answer + Sync)) {
    loop {
        let next = match rx.lock() {
            Ok(r) => r.recv(),
            Err(_) => return,
        };
        let Ok(conn) = next else { return };
        serve_connection(conn, port, limits, answer);
    }
}

/// A JSON error answer.
pub fn error_answer(status: u16, message: &str) -> Answer {
    let body = serde_json::json!({ "error": message }).to_string().into_bytes();
    Answer { status, content_type: "application/json", body: std::sync::Arc::new(body) }
}

fn refusal_answer(r: &Refusal) -> Answer {
    error_answer(r.status, &r.message)
}

/// What reading a head gave.
enum HeadRead {
    Head(Head, Vec<u8>),
    Refused(Refusal),
    /// The client closed, went idle past the limits, or the socket failed: nothing to answer.
    Gone,
}

fn read_head(conn: &mut TcpStream, mut buf: Vec<u8>, limits: &Limits) -> HeadRead {
    let start = Instant::now();
    let mut chunk = [0u8; 8192];
    loop {
        if let Some(end) = http::head_end(&buf) {
            let rest = buf.split_off(end);
            return match http::parse_head(&buf) {
                Ok(h) => HeadRead::Head(h, rest),
                Err(r) => HeadRead::Refused(r),
            };
        }
        if http::head_too_long(&buf) {
            return HeadRead::Refused(Refusal {
                status: 431,
                message: format!("the request line and headers pass {} bytes", http::MAX_HEAD),
            });
        }
        if start.elapsed() > limits.head {
            return HeadRead::Gone;
        }
        // Never hold more than MAX_HEAD (+ one chunk) of a head.
        let room = (http::MAX_HEAD + chunk.len()).saturating_sub(buf.len()).min(chunk.len());
        let first = buf.is_empty();
        match conn.read(&mut chunk[..room]) {
            Ok(0) | Err(_) => return HeadRead::Gone,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
        // A request has begun: the rest of its head gets the read limit (the wait for it may
        // have had the shorter idle one).
        if first && conn.set_read_timeout(Some(limits.read)).is_err() {
            return HeadRead::Gone;
        }
    }
}

fn serve_connection(mut conn: TcpStream, port: u16, limits: &Limits, answer: &(dyn Fn(&Head) -> Answer + Sync)) {
    if conn.set_read_timeout(Some(limits.read)).is_err() || conn.set_write_timeout(Some(limits.write)).is_err() {
        return;
    }
    let _ = conn.set_nodelay(true);
    let mut pending = Vec::new();
    loop {
        let (head, rest) = match read_head(&mut conn, pending, limits) {
            HeadRead::Head(h, rest) => (h, rest),
            HeadRead::Refused(r) => return refuse_and_close(conn, &r, limits),
            HeadRead::Gone => return,
        };
        if let Err(r) = http::admit(&head, port) {
            return refuse_and_close(conn, &r, limits);
        }
        let a = answer(&head);
        let keep = head.keep_alive();
        if write_answer(&mut conn, &a, head.method == "HEAD", keep, limits).is_err() || !keep {
            let _ = conn.shutdown(Shutdown::Both);
            return;
        }
        // Waiting for the next request: the idle limit, unless it has begun already.
        if rest.is_empty() && conn.set_read_timeout(Some(limits.idle)).is_err() {
            return;
        }
        pending = rest;
    }
}

/// Answer a refusal, then close: the write side first, then what the client still sends is
/// read and dropped (at most a MiB, for at most a second) so that it sees the answer.
fn refuse_and_close(mut conn: TcpStream, r: &Refusal, limits: &Limits) {
    if write_answer(&mut conn, &refusal_answer(r), false, false, limits).is_err() {
        return;
    }
    let _ = conn.shutdown(Shutdown::Write);
    let _ = conn.set_read_timeout(Some(Duration::from_millis(200)));
    let start = Instant::now();
    let mut sink = [0u8; 8192];
    let mut drained = 0usize;
    while drained < 1 << 20 && start.elapsed() < Duration::from_secs(1) {
        match conn.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => drained += n,
        }
    }
}

/// Write `a` (headers only for HEAD) within the write limits.
fn write_answer(conn: &mut TcpStream, a: &Answer, head_only: bool, keep: bool, limits: &Limits) -> std::io::Result<()> {
    let header = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n\
         X-Content-Type-Options: nosniff\r\n{}Connection: {}\r\n\r\n",
        a.status,
        http::reason(a.status),
        a.content_type,
        a.body.len(),
        // A busy server says when to ask again (RFC 9110 §10.2.3); the page does.
        if a.status == 503 { "Retry-After: 1\r\n" } else { "" },
        if keep { "keep-alive" } else { "close" }
    );
    let start = Instant::now();
    let mut write = |mut bytes: &[u8]| -> std::io::Result<()> {
        while !bytes.is_empty() {
            if start.elapsed() > limits.response {
                return Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "the client reads too slowly"));
            }
            let n = conn.write(&bytes[..bytes.len().min(64 * 1024)])?;
            if n == 0 {
                return Err(std::io::ErrorKind::WriteZero.into());
            }
            bytes = &bytes[n..];
        }
        Ok(())
    };
    write(header.as_bytes())?;
    if !head_only {
        write(&a.body)?;
    }
    conn.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A connection past the queue is answered 503 at once, saying when to ask again (the
    /// page waits that long and asks again).
    #[test]
    fn a_busy_server_says_when_to_ask_again() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let limits = Limits { workers: 1, queue: 1, ..Limits::default() };
        let stop = AtomicBool::new(false);
        let slow = |_: &Head| {
            std::thread::sleep(Duration::from_millis(300));
            error_answer(404, "slow")
        };
        let answers: Vec<String> = std::thread::scope(|s| {
            s.spawn(|| run(&listener, port, limits, &stop, &slow));
            let ask = || {
                let mut c = TcpStream::connect(("127.0.0.1", port)).unwrap();
                c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
                let req = format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
                c.write_all(req.as_bytes()).unwrap();
                let mut out = String::new();
                let _ = c.read_to_string(&mut out);
                out
            };
            let asks: Vec<_> = (0..4).map(|_| s.spawn(ask)).collect();
            let answers = asks.into_iter().map(|h| h.join().unwrap()).collect();
            stop.store(true, Ordering::SeqCst);
            let _ = TcpStream::connect(("127.0.0.1", port));
            answers
        });
        let busy: Vec<&String> = answers.iter().filter(|a| a.starts_with("HTTP/1.1 503")).collect();
        assert!(!busy.is_empty(), "{answers:?}");
        assert!(busy.iter().all(|a| a.contains("\r\nRetry-After: 1\r\n")), "{busy:?}");
        // The others were served (the slow answer's 404), without it.
        let served: Vec<&String> = answers.iter().filter(|a| !a.starts_with("HTTP/1.1 503")).collect();
        assert!(
            !served.is_empty() && served.iter().all(|a| a.starts_with("HTTP/1.1 404") && !a.contains("Retry-After"))
        );
    }
}
