//! `boneyard view` as a server under abuse: the real binary on the demo's Zelda object, on a
//! free port. An oversized head is 431, bodies 413, other methods 405; 200 idle connections do
//! not make 200 threads (counted in /proc/PID/task); a client that stops reading a large
//! answer does not stop the others. No timing is asserted: timeouts only keep a broken server
//! from hanging the test.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const PATIENCE: Duration = Duration::from_secs(60);

/// The viewer, killed when dropped; its folder is removed after it.
struct Viewer {
    child: Child,
    port: u16,
    _dir: tempfile::TempDir,
}

impl Drop for Viewer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Viewer {
    fn start(tag: &str) -> Viewer {
        let dir = tempfile::Builder::new().prefix(&format!("boneyard-view-{tag}-")).tempdir().unwrap();
        let bin = env!("CARGO_BIN_EXE_boneyard");
        // The demo's Zelda object, as `boneyard demo` writes it.
        let (name, bytes) = boneyard_z64::demo_files().unwrap().remove(0);
        let object = dir.path().join(name);
        std::fs::write(&object, bytes).unwrap();
        let mut child = Command::new(bin)
            .arg("view")
            .arg(&object)
            .args(["--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        // "boneyard viewer on http://127.0.0.1:PORT/ (Ctrl-C to stop)"
        let port = line
            .split("127.0.0.1:")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        Viewer { child, port, _dir: dir }
    }

    fn connect(&self) -> TcpStream {
        let c = TcpStream::connect_timeout(&([127, 0, 0, 1], self.port).into(), PATIENCE).unwrap();
        c.set_read_timeout(Some(PATIENCE)).unwrap();
        c.set_write_timeout(Some(PATIENCE)).unwrap();
        c
    }

    /// Send `request` whole, then read the answer until the server closes.
    fn ask(&self, request: &[u8]) -> String {
        let mut c = self.connect();
        // The server may answer and close before reading all of a refused request.
        let _ = c.write_all(request);
        let mut out = Vec::new();
        let _ = c.read_to_end(&mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    fn get(&self, path: &str) -> String {
        self.ask(
            format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n", self.port).as_bytes(),
        )
    }

    fn threads(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/task", self.child.id())).unwrap().count()
    }
}

fn status(answer: &str) -> &str {
    answer.split(' ').nth(1).unwrap_or("")
}

#[test]
fn heads_are_capped_and_bodies_refused() {
    let v = Viewer::start("limits");
    assert_eq!(status(&v.get("/api/list")), "200");
    // 100 KiB of one header: 431 after 64 KiB, and the connection is closed.
    let big = format!("GET / HTTP/1.1\r\nX-Big: {}\r\n\r\n", "a".repeat(100 << 10));
    let a = v.ask(big.as_bytes());
    assert!(a.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "{a:.200}");
    assert!(a.contains("Connection: close"), "{a}");
    // A head that never ends is cut at the cap too, without the client closing.
    let mut c = v.connect();
    let _ = c.write_all(format!("GET / HTTP/1.1\r\nX-Endless: {}", "b".repeat(70 << 10)).as_bytes());
    let mut a = String::new();
    let _ = c.read_to_string(&mut a);
    assert_eq!(status(&a), "431", "{a:.200}");
    // Bodies: 413, whatever the method; methods other than GET and HEAD: 405.
    let post = v.ask(b"POST /api/list HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello");
    assert_eq!(status(&post), "413", "{post}");
    let chunked = v.ask(b"PUT /api/list HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
    assert_eq!(status(&chunked), "413", "{chunked}");
    let delete = v.ask(b"DELETE /api/list HTTP/1.1\r\n\r\n");
    assert_eq!(status(&delete), "405", "{delete}");
    let head = v.ask(b"HEAD /api/list HTTP/1.0\r\n\r\n");
    assert!(head.starts_with("HTTP/1.1 200") && head.ends_with("\r\n\r\n"), "{head}");
    // Still serving.
    assert_eq!(status(&v.get("/api/pose?anim=0&frame=2")), "200");
}

#[test]
fn idle_connections_do_not_make_threads() {
    let v = Viewer::start("idle");
    assert_eq!(status(&v.get("/api/list")), "200");
    let before = v.threads();
    let idle: Vec<TcpStream> = (0..200).map(|_| v.connect()).collect();
    // One more request behind them (queued, or answered 503 when the queue is full).
    let mut probe = v.connect();
    probe.write_all(b"GET /style.css HTTP/1.0\r\n\r\n").unwrap();
    let threads = v.threads();
    assert!(threads <= before + 2 && threads < 48, "{threads} threads with 200 idle connections (before: {before})");
    drop(idle);
    let mut a = String::new();
    let _ = probe.read_to_string(&mut a);
    assert!(matches!(status(&a), "200" | "503"), "{a:.200}");
    // Once they are gone, everything is answered again (as soon as the server has seen them
    // close: until then the queue may still be full, and the answer 503).
    let mut answer = v.get("/api/list");
    for _ in 0..500 {
        if status(&answer) != "503" {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        answer = v.get("/api/list");
    }
    assert_eq!(status(&answer), "200");
    assert!(v.threads() <= before + 2);
}

#[test]
fn a_client_that_stops_reading_does_not_stop_the_others() {
    let v = Viewer::start("slow");
    // Ask for the glb (the largest answer) 200 times on one connection and read none of it:
    // its worker blocks writing once the socket's buffers are full.
    let mut stalled = v.connect();
    let one = format!("GET /api/glb?anim=0 HTTP/1.1\r\nHost: localhost:{}\r\n\r\n", v.port);
    // The server stops reading this connection while it is blocked; the write may then block
    // too, so it happens on its own thread.
    let mut writer = stalled.try_clone().unwrap();
    let pipelined = one.repeat(200);
    std::thread::spawn(move || {
        let _ = writer.write_all(pipelined.as_bytes());
    });
    // Its answers have started (and are no longer read) ...
    let mut first = [0u8; 12];
    stalled.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    // ... meanwhile other clients are answered.
    for _ in 0..20 {
        assert_eq!(status(&v.get("/api/mesh?skeleton=0")), "200");
    }
}
