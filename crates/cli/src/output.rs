//! Output files appear whole or not at all: written to a temporary name in the same folder
//! (`.<name>.part<pid>-<n>`), then renamed. An interrupted run (Ctrl-C, SIGTERM) removes the
//! temporary files it had open and exits 130; temporary files left by a run that was killed
//! outright are removed by the next run that writes into the same folder.

use anyhow::{Context, Result};
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The temporary files being written now.
static PARTIAL: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);

fn partial() -> std::sync::MutexGuard<'static, Option<HashSet<PathBuf>>> {
    PARTIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// On Ctrl-C or SIGTERM: remove the temporary files being written, then exit 130 (as shells
/// report a run ended by SIGINT). Whole outputs already renamed stay.
pub fn remove_partial_files_on_interrupt() {
    let _ = ctrlc::set_handler(|| {
        let files: Vec<PathBuf> = partial().take().map(|s| s.into_iter().collect()).unwrap_or_default();
        for f in files {
            let _ = std::fs::remove_file(f);
        }
        eprintln!("boneyard: interrupted; partial files removed");
        std::process::exit(130);
    });
}

pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    // The process's id, and a count: two documents of one run whose outputs share a name
    // (which the stems avoid) would otherwise write one temporary file at once.
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.part{}-{n}", std::process::id()));
    // Known before it exists, so an interrupt at any moment finds it.
    partial().get_or_insert_with(HashSet::new).insert(tmp.clone());
    let res = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if res.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    if let Some(s) = partial().as_mut() {
        s.remove(&tmp);
    }
    res.with_context(|| format!("{}: cannot write", path.display()))
}

/// Create the output folder, and remove the temporary files that runs which no longer exist
/// left in it (a killed run cannot clean up after itself).
pub fn ensure_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create the folder", dir.display()))?;
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Some(pid) = stale_part_pid(&name) {
                if !process_alive(pid) {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
    }
    Ok(())
}

/// The process id in a temporary file's name `.<name>.part<pid>-<n>` (or `.part<pid>`, as older runs named them).
fn stale_part_pid(name: &str) -> Option<u32> {
    if !name.starts_with('.') {
        return None;
    }
    let (_, pid) = name.rsplit_once(".part")?;
    pid.split('-').next()?.parse().ok()
}

fn process_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    #[cfg(unix)]
    {
        let Ok(pid) = i32::try_from(pid) else { return false };
        // SAFETY: signal 0 only asks whether the process exists; nothing is sent.
        let r = unsafe { libc::kill(pid, 0) };
        r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(not(unix))]
    {
        true
    }
}

/// A file-name-safe version of a name.
pub fn safe_name(s: &str) -> String {
    let t: String = s
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' { c } else { '_' })
        .collect();
    let t = t.trim_matches('.').to_string();
    if t.is_empty() {
        "unnamed".into()
    } else {
        t
    }
}

pub fn out_path(dir: &Path, stem: &str, ext: &str) -> PathBuf {
    dir.join(format!("{}.{ext}", safe_name(stem)))
}
