//! `boneyard view` as a server under abuse: the real binary on the demo's Zelda object, on a
//! free port. An oversized head is 431, bodies 413, other methods 405; 200 idle connections do
//! not make 200 threads (counted in /proc/PID/task); a client that stops reading a large
//! answer does not stop the others. Folders and failed files: a folder is served document by
//! document, a file that fails is reported (stderr, `/api/docs`) and the others served, and the
//! status when stopped is the batch's. No timing is asserted: timeouts only keep a broken
//! server from hanging the test.

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
    /// What it printed on stderr, when asked for ([`Viewer::serve`]): read on a thread.
    stderr: Option<std::thread::JoinHandle<String>>,
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
        let port = port_of(&mut child);
        Viewer { child, port, _dir: dir, stderr: None }
    }

    /// `boneyard view ARGS... --port 0` on files the caller put in `dir`, its stderr kept.
    fn serve(dir: tempfile::TempDir, args: &[std::path::PathBuf]) -> Viewer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_boneyard"))
            .arg("view")
            .args(args)
            .args(["--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut err = child.stderr.take().unwrap();
        let stderr = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = err.read_to_string(&mut s);
            s
        });
        let port = port_of(&mut child);
        Viewer { child, port, _dir: dir, stderr: Some(stderr) }
    }

    /// Stop it as Ctrl-C does: its exit status and what it printed on stderr.
    fn interrupt(mut self) -> (Option<i32>, String) {
        // SAFETY: a signal to our own child, still running (not yet waited for).
        unsafe { libc::kill(self.child.id() as i32, libc::SIGINT) };
        let status = self.child.wait().unwrap();
        let err = self.stderr.take().map(|h| h.join().unwrap()).unwrap_or_default();
        (status.code(), err)
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

/// The port in the viewer's first line, "boneyard viewer on http://127.0.0.1:PORT/ (Ctrl-C to stop)".
fn port_of(child: &mut Child) -> u16 {
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    line.split("127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {line:?}"))
}

/// The body of an answer, as JSON.
fn body(answer: &str) -> serde_json::Value {
    let b = answer.split_once("\r\n\r\n").map_or("", |x| x.1);
    serde_json::from_str(b).unwrap_or_else(|e| panic!("{e}: {answer:.300}"))
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

/// A folder holding a real Oni file, a copy of it cut short, and a file no family reads: the
/// viewer serves the real one, says the cut one's error (file and offset) on stderr and in
/// `/api/docs`, counts the other, answers /favicon.ico, and ends with the batch's status 1.
#[test]
fn a_folder_is_served_and_its_failed_file_reported() {
    let Some(walk) = boneyard_core::testdata::shared_data("oni/TRAMfixture_walk19.oni", "view: folder") else {
        return;
    };
    let dir = tempfile::Builder::new().prefix("boneyard-view-folder-").tempdir().unwrap();
    let bytes = std::fs::read(&walk).unwrap();
    std::fs::write(dir.path().join("TRAMfixture_walk19.oni"), &bytes).unwrap();
    std::fs::write(dir.path().join("cut.oni"), &bytes[..300]).unwrap();
    std::fs::write(dir.path().join("notes.txt"), b"not a game file").unwrap();
    let folder = dir.path().to_path_buf();
    let v = Viewer::serve(dir, std::slice::from_ref(&folder));
    let docs = body(&v.get("/api/docs"));
    let names: Vec<&str> = docs["documents"].as_array().unwrap().iter().map(|d| d["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["TRAMfixture_walk19.oni"], "{docs}");
    assert_eq!(docs["open"], 0);
    let cut = folder.join("cut.oni").display().to_string();
    assert_eq!(docs["errors"].as_array().unwrap().len(), 1, "{docs}");
    // The reader's own words: the raw table it points at lies past the 300 bytes.
    assert_eq!(docs["errors"][0]["file"], cut.as_str());
    assert_eq!(docs["errors"][0]["offset"], 48, "{docs}");
    assert!(docs["errors"][0]["message"].as_str().unwrap().contains("past the end of the file"), "{docs}");
    assert_eq!(docs["skipped"][0]["file"], folder.join("notes.txt").display().to_string().as_str());
    // The document's routes, by doc=N (and 0 without it); a document that is not there: 400.
    let list = body(&v.get("/api/list?doc=0"));
    assert_eq!(list["animations"][0]["name"], "fixture_walk19", "{list}");
    assert_eq!(status(&v.get("/api/glb?doc=0&anim=0")), "200");
    assert_eq!(status(&v.get("/api/pose?anim=0&frame=3")), "200");
    assert_eq!(status(&v.get("/api/list?doc=1")), "400");
    assert_eq!(status(&v.get("/api/pose?doc=x&anim=0")), "400");
    let icon = v.get("/favicon.ico");
    assert!(icon.starts_with("HTTP/1.1 200") && icon.contains("Content-Type: image/svg+xml"), "{icon:.300}");
    let (code, err) = v.interrupt();
    assert!(err.contains(&format!("boneyard: error: {cut}: at byte offset 48 (0x30): ")), "{err}");
    assert!(
        err.contains("boneyard: serving 1 of 2 documents (1 skeleton, 1 animation); 1 failed; 1 file not read"),
        "{err}"
    );
    assert_eq!(code, Some(1), "a batch with a failed document ends with 1: {err}");
}

/// Files named together make one document: the one that fails is left out of it and said, the
/// others are served (the cut copy stopped `view` of them all).
#[test]
fn a_failed_file_among_files_named_together_is_left_out() {
    let (Some(walk), Some(body19)) = (
        boneyard_core::testdata::shared_data("oni/TRAMfixture_walk19.oni", "view: named files"),
        boneyard_core::testdata::shared_data("oni/TRBSfixture_body19.oni", "view: named files"),
    ) else {
        return;
    };
    let dir = tempfile::Builder::new().prefix("boneyard-view-named-").tempdir().unwrap();
    let bytes = std::fs::read(&walk).unwrap();
    let cut = dir.path().join("cut.oni");
    std::fs::write(&cut, &bytes[..300]).unwrap();
    let v = Viewer::serve(dir, &[walk.clone(), cut.clone(), body19.clone()]);
    let docs = body(&v.get("/api/docs"));
    assert_eq!(docs["documents"].as_array().unwrap().len(), 1, "{docs}");
    assert_eq!(docs["errors"][0]["file"], cut.display().to_string().as_str(), "{docs}");
    assert_eq!(docs["errors"][0]["offset"], 48, "{docs}");
    let list = body(&v.get("/api/list"));
    let files: Vec<&str> = list["files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
    assert!(files.contains(&walk.display().to_string().as_str()), "{files:?}");
    assert!(files.contains(&body19.display().to_string().as_str()), "{files:?}");
    assert!(!files.contains(&cut.display().to_string().as_str()), "{files:?}");
    assert_eq!(list["animations"][0]["name"], "fixture_walk19", "{list}");
    let (code, err) = v.interrupt();
    assert!(err.contains(&format!("boneyard: error: {}: at byte offset 48 (0x30): ", cut.display())), "{err}");
    assert_eq!(code, Some(1), "{err}");
}

/// Nothing opens: nothing is served, exit 1 at once with each error; a folder of nothing any
/// family reads says so. A file given alone that fails is the run's error, as before.
#[test]
fn nothing_to_view_is_exit_1() {
    let dir = tempfile::Builder::new().prefix("boneyard-view-none-").tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_boneyard");
    let run = |args: &[&std::path::Path]| {
        let out = Command::new(bin).arg("view").args(args).args(["--port", "0"]).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    std::fs::write(dir.path().join("notes.txt"), b"not a game file").unwrap();
    let (code, out, err) = run(&[dir.path()]);
    assert_eq!(code, Some(1), "{err}");
    assert!(out.is_empty() && err.contains("no file boneyard reads"), "{out}{err}");
    let garbage = dir.path().join("garbage.bin");
    std::fs::write(&garbage, b"no game's file").unwrap();
    let (code, out, err) = run(&[garbage.as_path()]);
    assert_eq!(code, Some(1), "{err}");
    assert!(out.is_empty() && err.contains(&format!("{}: at byte offset 0", garbage.display())), "{out}{err}");
    // Both in a folder: counted (a walk passes over what no family reads), nothing served.
    let (code, out, err) = run(&[dir.path()]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        out.is_empty() && err.contains("serving 0 of 0 documents (0 skeletons, 0 animations); 2 files not read"),
        "{out}{err}"
    );
    if let Some(walk) = boneyard_core::testdata::shared_data("oni/TRAMfixture_walk19.oni", "view: nothing to view") {
        // A file that fails, alone: the run's error; in the folder: a failed document.
        let cut = dir.path().join("cut.oni");
        std::fs::write(&cut, &std::fs::read(walk).unwrap()[..300]).unwrap();
        let at = format!("boneyard: error: {}: at byte offset 48 (0x30): ", cut.display());
        let (code, out, err) = run(&[cut.as_path()]);
        assert_eq!(code, Some(1), "{err}");
        assert!(out.is_empty() && err.contains(&at), "{out}{err}");
        let (code, out, err) = run(&[dir.path()]);
        assert_eq!(code, Some(1), "{err}");
        assert!(out.is_empty() && err.contains(&at) && err.contains("serving 0 of 1 documents"), "{out}{err}");
    }
}

/// A clip the reader lists but does not decode (MOTION.BIN's legacy-frame32 #729) is refused
/// alike by every route that plays it, in the reader's words at its offset (`/api/pose` said
/// it had no bones and no skeleton, `/api/glb` and `/api/sample` otherwise).
#[test]
fn an_undecoded_clip_is_refused_alike_by_every_route() {
    let Some(m) = boneyard_core::testdata::shared_data("shenmue/motion.bin", "view: undecoded clip") else { return };
    let dir = tempfile::Builder::new().prefix("boneyard-view-undecoded-").tempdir().unwrap();
    let v = Viewer::serve(dir, &[m]);
    for route in ["pose", "glb", "sample"] {
        let a = v.get(&format!("/api/{route}?doc=0&anim=%23729"));
        assert_eq!(status(&a), "422", "{route}: {a:.300}");
        let e = body(&a)["error"].as_str().unwrap().to_string();
        assert!(e.contains("at byte offset 987552 (0xf11a0)") && e.contains("legacy-frame32"), "{route}: {e}");
    }
}
