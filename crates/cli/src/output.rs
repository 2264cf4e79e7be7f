//! Output files appear whole or not at all: written to a temporary name in the same folder
//! (`.<name>.part<pid>-<n>`), then renamed. An interrupted run (Ctrl-C, SIGTERM) removes the
//! temporary files it had open and exits 130; temporary files left by a run that was killed
//! outright are removed by the next run that writes into the same folder.

use anyhow::{Context, Result};
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The temporary files being written now.
static PARTIAL: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);

/// The outputs written whole so far, for an interrupted run to name (a run lists its outputs
/// when it ends: interrupted, it named none of those it had finished).
static WRITTEN: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn partial() -> std::sync::MutexGuard<'static, Option<HashSet<PathBuf>>> {
    PARTIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// On Ctrl-C or SIGTERM: remove the temporary files being written, then exit 130 (as shells
/// report a run ended by SIGINT; a run may set another, [`set_interrupted_status`]). Whole
/// outputs already renamed stay.
pub fn remove_partial_files_on_interrupt() {
    let _ = ctrlc::set_handler(|| {
        let files: Vec<PathBuf> = partial().take().map(|s| s.into_iter().collect()).unwrap_or_default();
        let removed = files.into_iter().filter(|f| std::fs::remove_file(f).is_ok()).count();
        // The whole outputs that stay, named as a finished run names them (with --verbose they
        // were named as they were written).
        if !crate::progress::verbose() && !crate::progress::quiet() {
            use std::io::Write;
            let written = std::mem::take(&mut *WRITTEN.lock().unwrap_or_else(|p| p.into_inner()));
            let mut out = std::io::stdout().lock();
            for p in &written {
                let _ = writeln!(out, "wrote {}", p.display());
            }
            let _ = out.flush();
        }
        // Said only where there were any (the viewer, and most runs at most moments, write none).
        match removed {
            0 => eprintln!("boneyard: interrupted"),
            1 => eprintln!("boneyard: interrupted; 1 partial file removed"),
            n => eprintln!("boneyard: interrupted; {n} partial files removed"),
        }
        std::process::exit(INTERRUPTED_STATUS.load(std::sync::atomic::Ordering::SeqCst));
    });
}

/// The exit status of an interrupted run: 130, or what the run set ([`set_interrupted_status`]).
static INTERRUPTED_STATUS: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(130);

/// The status an interrupted run exits with from now on: a viewer that serves what opened of a
/// batch in which some documents failed ends, when stopped, with the batch's 1.
pub fn set_interrupted_status(code: i32) {
    INTERRUPTED_STATUS.store(code, std::sync::atomic::Ordering::SeqCst);
}

pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = staged(path, bytes)?;
    commit(&tmp, path)
}

/// Files a name can have (bytes): the common limit of Linux, macOS and Windows file systems.
const MAX_FILE_NAME: usize = 255;

/// A name a file system takes: at most [`MAX_FILE_NAME`] bytes (said before anything is made).
pub fn check_file_name(path: &Path) -> Result<()> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if name.len() > MAX_FILE_NAME {
        return Err(boneyard_core::Error::unplaced(format!(
            "the file name {name:?} has {} bytes; a file system takes at most {MAX_FILE_NAME} (a shorter clip or file name)",
            name.len()
        ))
        .into());
    }
    Ok(())
}

/// `bytes` in a temporary file beside `path`, registered so that an interrupt removes it.
fn staged(path: &Path, bytes: &[u8]) -> Result<PathBuf> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    check_file_name(path)?;
    // The process's id, and a count: two documents of one run whose outputs share a name
    // (which the stems avoid) would otherwise write one temporary file at once. The name's
    // head only, so that a name near the limit still has a temporary file.
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let head: String = name
        .chars()
        .scan(0, |len, c| {
            *len += c.len_utf8();
            (*len <= 200).then_some(c)
        })
        .collect();
    let tmp = dir.join(format!(".{head}.part{}-{n}", std::process::id()));
    // Known before it exists, so an interrupt at any moment finds it.
    partial().get_or_insert_with(HashSet::new).insert(tmp.clone());
    let res = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()
    })();
    if res.is_err() {
        forget(&tmp);
    }
    res.with_context(|| format!("{}: cannot write", path.display()))?;
    Ok(tmp)
}

/// The staged file `tmp` becomes `path`.
fn commit(tmp: &Path, path: &Path) -> Result<()> {
    // The rename and its record under one lock: an interrupt between them named every whole
    // output but this one (a flaky test under load). The interrupt takes this lock to list
    // them, and never holds the staged files' lock while waiting for it.
    let mut written = WRITTEN.lock().unwrap_or_else(|p| p.into_inner());
    let res = std::fs::rename(tmp, path);
    // Renamed, or not: either way no longer a staged file (removed when the rename failed).
    forget(tmp);
    if res.is_ok() {
        written.push(path.to_path_buf());
    }
    drop(written);
    res.with_context(|| format!("{}: cannot write", path.display()))
}

/// A staged file removed, and no longer the interrupt's to remove.
fn forget(tmp: &Path) {
    let _ = std::fs::remove_file(tmp);
    if let Some(s) = partial().as_mut() {
        s.remove(tmp);
    }
}

/// Every file, or none: each is staged first; the first that cannot be (a name too long, a
/// full disk) removes those staged before it and is the error; then all are renamed in place.
pub fn write_all_atomic(files: &[(PathBuf, &[u8])]) -> Result<()> {
    // A name taken by something that is not a file (a folder of that name) refuses the rename
    // at the end, after the others were renamed: found first.
    for (path, _) in files {
        if std::fs::symlink_metadata(path).is_ok_and(|m| !m.is_file()) {
            return Err(boneyard_core::Error::unplaced(format!(
                "{}: something that is not a file (a folder?) has this name; nothing written",
                path.display()
            ))
            .into());
        }
    }
    let mut staged_files: Vec<PathBuf> = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        match staged(path, bytes) {
            Ok(tmp) => staged_files.push(tmp),
            Err(e) => {
                staged_files.iter().for_each(|t| forget(t));
                return Err(e);
            }
        }
    }
    // A rename that fails now (rare: the folder was removed meanwhile) stops the others, whose
    // staged files are removed; the error names the files already in place.
    for (k, (tmp, (path, _))) in staged_files.iter().zip(files).enumerate() {
        if let Err(e) = commit(tmp, path) {
            staged_files[k + 1..].iter().for_each(|t| forget(t));
            let done: Vec<String> = files[..k].iter().map(|(p, _)| p.display().to_string()).collect();
            return Err(if done.is_empty() { e } else { e.context(format!("written before it: {}", done.join(", "))) });
        }
    }
    Ok(())
}

/// Create the output folder, and remove the temporary files that runs which no longer exist
/// left in it (a killed run cannot clean up after itself).
pub fn ensure_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("--out {}: cannot create the folder", dir.display()))?;
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

/// The files this run writes, each with the document that writes it: two documents whose
/// output names meet (`object_box` and a file named `object_box_gTreasureChestSkel`, whose
/// outputs are both `object_box_gTreasureChestSkel.glb`) wrote one file, the second over the
/// first, and counted two.
fn claimed() -> std::sync::MutexGuard<'static, HashMap<PathBuf, String>> {
    static CLAIMED: std::sync::OnceLock<Mutex<HashMap<PathBuf, String>>> = std::sync::OnceLock::new();
    CLAIMED.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner())
}

/// The path `owner` writes for `path`: `path` itself, or, when another output of this run
/// took it first, `<stem>_2.<ext>` (the first of `_2`, `_3`... no output took), said in a
/// warning naming both inputs and both files; names that differ only in case meet
/// ([`case_folded`]). Never a file written over, and nothing lost. Which output is first is the inputs' order: a batch names the outputs of documents whose
/// names can meet one after another ([`crate::batch::run`]), and a document its own in order.
pub fn claim(path: &Path, owner: &str) -> PathBuf {
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let base = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let ext = path.extension().map(|e| format!(".{}", e.to_string_lossy())).unwrap_or_default();
    let name = claim_names(&base, owner, &|b| vec![dir.join(format!("{b}{ext}"))]);
    dir.join(format!("{name}{ext}"))
}

/// The base name `owner` writes the files `files(base)` under (an OBJ, its `.mtl` and its
/// textures, which name each other): `base`, or the first `<base>_<n>` (n = 2, 3...) none of
/// whose files another output of this run took, said as [`claim`] says it.
pub fn claim_names(base: &str, owner: &str, files: &dyn Fn(&str) -> Vec<PathBuf>) -> String {
    let mut taken = claimed();
    let mut first_owner: Option<(PathBuf, String)> = None;
    let mut n = 1u64;
    loop {
        let name = if n == 1 { base.to_string() } else { format!("{base}_{n}") };
        let paths = files(&name);
        if let Some(p) = paths.iter().find(|p| taken.contains_key(&case_folded(p))) {
            if first_owner.is_none() {
                first_owner = Some((p.clone(), taken[&case_folded(p)].clone()));
            }
            n += 1;
            continue;
        }
        for p in &paths {
            taken.insert(case_folded(p), owner.to_string());
        }
        drop(taken);
        if let Some((p, by)) = first_owner {
            let by = if by == owner { "another output of this document".to_string() } else { by };
            let now = paths.first().map(|p| p.display().to_string()).unwrap_or_default();
            crate::progress::eprint(&format!(
                "boneyard: warning: {} is also an output of {by} in this run, written first: {owner}'s is written as {now}",
                p.display()
            ));
        }
        return name;
    }
}

/// The key a path is claimed under: its letters in lower case, so that two outputs
/// whose names differ only in case (`object_oA10.glb`, `object_oa10.glb`) do not meet on a
/// file system that does not tell case (Windows, macOS), as they would if the folder were
/// written or copied there.
fn case_folded(p: &Path) -> PathBuf {
    PathBuf::from(p.to_string_lossy().to_lowercase())
}

/// A file-name-safe version of a name: letters and digits of any script kept (`ü`, `オ`: a
/// name of one was `object_zl2__.glb`, and two differing only there met), `-`, `_` and `.`,
/// every other character `_`. The viewer's `safeName` is the same (its download names).
pub fn safe_name(s: &str) -> String {
    let t: String =
        s.chars().map(|c| if c.is_alphanumeric() || c == '-' || c == '_' || c == '.' { c } else { '_' }).collect();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_names_keep_letters_of_any_script() {
        assert_eq!(safe_name("object_zl2 ü"), "object_zl2_ü");
        assert_eq!(safe_name("オブジェ/../x"), "オブジェ_.._x");
        assert_eq!(safe_name("a:b*c?d\"e<f>g|h\\i"), "a_b_c_d_e_f_g_h_i");
        assert_eq!(safe_name("..."), "unnamed");
        assert_eq!(safe_name("objé"), "objé");
        assert_ne!(safe_name("objé"), safe_name("objè"));
        // Claimed case aside in any script: Ü and ü meet where the file system folds case.
        assert_eq!(case_folded(Path::new("ÜBER.glb")), case_folded(Path::new("über.glb")));
    }
}
