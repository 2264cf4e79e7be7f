//! Locating the real files of `../shared/data` for tests and benchmarks.
//!
//! The data is never committed; tests that need it call [`shared_data`] and print a clear
//! `SKIPPED` line when it is absent.

use std::path::PathBuf;

/// The `shared/data` folder: `$BONEYARD_DATA` if set, else the first `shared/data` found
/// walking up from the current directory and from this crate's source folder.
pub fn data_dir() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("BONEYARD_DATA") {
        let p = PathBuf::from(p);
        return p.is_dir().then_some(p);
    }
    let starts = [std::env::current_dir().ok(), Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")))];
    for start in starts.into_iter().flatten() {
        let mut dir = Some(start.as_path());
        while let Some(d) = dir {
            let cand = d.join("shared").join("data");
            if cand.is_dir() {
                return Some(cand);
            }
            dir = d.parent();
        }
    }
    None
}

/// `shared/data/<rel>` if it exists; otherwise prints `SKIPPED (<test>): ...` and returns None
/// (or panics when `BONEYARD_REQUIRE_DATA=1`).
pub fn shared_data(rel: &str, test: &str) -> Option<PathBuf> {
    match data_dir().map(|d| d.join(rel)) {
        Some(p) if p.exists() => Some(p),
        _ => {
            // CI sets BONEYARD_REQUIRE_DATA when it has the data: then a skip is a failure, so
            // a misplaced data folder cannot turn every real-data test into a silent pass.
            if std::env::var_os("BONEYARD_REQUIRE_DATA").is_some_and(|v| v == "1") {
                panic!("{test}: ../shared/data/{rel} is not present and BONEYARD_REQUIRE_DATA=1");
            }
            println!("SKIPPED ({test}): ../shared/data/{rel} is not present");
            eprintln!("SKIPPED ({test}): ../shared/data/{rel} is not present");
            None
        }
    }
}

/// The peer runtime `shared/peers/<name>` (beside `shared/data`, or `$BONEYARD_PEERS/<name>`)
/// when it is there and `node` runs; otherwise prints `SKIPPED (<test>): ...` and returns
/// None, or panics when `BONEYARD_REQUIRE_PEERS=1` (CI sets it when the peers are beside the
/// data: the peers are run as independent readers, so their absence must not pass silently).
pub fn shared_peer(name: &str, test: &str) -> Option<PathBuf> {
    let dir = match std::env::var_os("BONEYARD_PEERS") {
        Some(p) => Some(PathBuf::from(p).join(name)),
        None => data_dir().and_then(|d| d.parent().map(|p| p.join("peers").join(name))),
    };
    let node = std::process::Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    let why = match (&dir, node) {
        (Some(d), true) if d.is_dir() => return dir,
        (_, false) => "node is not on PATH".to_string(),
        (d, true) => format!(
            "the peer {name} is not at {}",
            d.as_ref().map_or("(no shared folder)".into(), |d| d.display().to_string())
        ),
    };
    if std::env::var_os("BONEYARD_REQUIRE_PEERS").is_some_and(|v| v == "1") {
        panic!("{test}: {why} and BONEYARD_REQUIRE_PEERS=1");
    }
    println!("SKIPPED ({test}): {why}");
    eprintln!("SKIPPED ({test}): {why}");
    None
}

/// A tiny deterministic generator (xorshift64) for mutation tests: the same sequence on every
/// machine, no dependency. The seed must not be 0.
#[derive(Debug, Clone)]
pub struct XorShift64(pub u64);

impl XorShift64 {
    /// The next value of the sequence.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A companion resolver for tests: records what it is asked (`"<beside> <name>|<name>"` per
/// call), answers from the files in `files`, and refuses the one name `unreadable` as an
/// unreadable file (the unreadable-companion rule).
#[derive(Default)]
pub struct RecordingCompanions {
    /// The files it can give.
    pub files: crate::MemoryCompanions,
    /// A name it refuses with an I/O error naming it.
    pub unreadable: Option<&'static str>,
    /// What it was asked, in order.
    pub asked: std::cell::RefCell<Vec<String>>,
}

impl crate::Companions for RecordingCompanions {
    fn find(&self, beside: &std::path::Path, names: &[&str]) -> crate::Result<Option<crate::InputFile>> {
        self.asked.borrow_mut().push(format!("{} {}", beside.display(), names.join("|")));
        if let Some(bad) = self.unreadable.filter(|b| names.contains(b)) {
            return Err(crate::Error::new(crate::ErrorKind::Io("cannot be read (test)".into())).in_file(bad));
        }
        self.files.find(beside, names)
    }
}
