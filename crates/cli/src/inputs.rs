//! Reading the FILE arguments and handing each to the family that reads it.
//!
//! Files named together form one document per family (an Oni level with its `.oni` files, a
//! Zelda object with `gameplay_keep`). A folder is walked and every file in it that a family
//! reads is a document of its own, found with its companions as if named alone. Which files a
//! run opens is decided first ([`plan`]); each document is then opened on its own
//! ([`Unit::open`]), so one bad file never stops the others.

use crate::registry::FAMILIES;
use anyhow::{Context, Result};
use boneyard_core::{DiskCompanions, Document, Family, InputFile, OpenOptions};
use std::path::{Path, PathBuf};

/// The largest input file read (a DVD-sized ROM or archive is far below it).
const MAX_INPUT_BYTES: u64 = 1 << 31;
/// How many entries a folder walk looks at, all folders together, before it stops with an error.
const MAX_WALK_ENTRIES: usize = 200_000;
/// How deep a folder walk goes.
const MAX_WALK_DEPTH: usize = 32;

/// The documents opened from the command line: one per family involved.
pub struct Opened {
    pub docs: Vec<Box<dyn Document>>,
}

/// One document to open.
pub struct Unit {
    pub family: &'static dyn Family,
    /// The files, in the order given (a walked file first, its family finds companions).
    pub paths: Vec<PathBuf>,
    /// Files already read while planning (named files); walked files are read when opened.
    files: Option<Vec<InputFile>>,
    /// What `check` calls it in a batch, the same wherever the files lie: a walked file's
    /// path below the folder given (`/` between folders), a named file's name.
    pub name: String,
}

/// How to open a document again from its files on disk, with other options (the viewer's
/// run-time state: Link in another tunic): the files that opened, read again.
#[derive(Clone)]
pub struct Reopen {
    family: &'static dyn Family,
    paths: Vec<PathBuf>,
    name: String,
}

impl Reopen {
    /// The document's family.
    pub fn family(&self) -> &'static dyn Family {
        self.family
    }

    /// [`Unit::open`] of the same files with `options`.
    pub fn open(&self, options: &OpenOptions) -> Result<Box<dyn Document>> {
        Unit { family: self.family, paths: self.paths.clone(), files: None, name: self.name.clone() }.open(options)
    }
}

impl Unit {
    /// Found by walking a folder, not named by the user: a file of a baserom/ that holds
    /// nothing a command can use is counted, where a file named is an error.
    pub fn walked(&self) -> bool {
        self.files.is_none()
    }

    /// What the unit is called in messages and summaries: its first file.
    pub fn label(&self) -> String {
        self.paths.first().map(|p| p.display().to_string()).unwrap_or_default()
    }

    /// The file stem outputs are named after.
    pub fn stem(&self) -> String {
        self.paths.first().and_then(|p| p.file_stem()).map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
    }

    /// The files, read (if not yet read), for a caller that hands them to the family itself.
    pub fn into_files(self) -> Result<Vec<InputFile>> {
        match self.files {
            Some(f) => Ok(f),
            None => self.paths.iter().map(|p| read(p)).collect(),
        }
    }

    /// Read (if not yet read) and open the files, companions found beside them on disk.
    pub fn open(self, options: &OpenOptions) -> Result<Box<dyn Document>> {
        let family = self.family;
        // Run-time state a family has none of (`--tunic` with Oni files): said once a run and
        // family, not ignored without a word.
        static SAID: std::sync::Mutex<Vec<(&'static str, String)>> = std::sync::Mutex::new(Vec::new());
        for (key, _) in &options.runtime {
            if !family.runtime_keys().contains(&key.as_str()) {
                let mut said = SAID.lock().unwrap_or_else(|p| p.into_inner());
                if !said.iter().any(|(f, k)| *f == family.name() && k == key) {
                    said.push((family.name(), key.clone()));
                    crate::progress::eprint(&format!(
                        "boneyard: warning: --{key} is not run-time state of {} files (ignored for them)",
                        family.name()
                    ));
                }
            }
        }
        let doc = family.open(self.into_files()?, options, &companions())?;
        for (key, _) in &options.runtime {
            if family.runtime_keys().contains(&key.as_str()) {
                let mut seen = RUNTIME_SEEN.lock().unwrap_or_else(|p| p.into_inner());
                let used = doc.uses_runtime(key);
                match seen.iter_mut().find(|(k, _)| k == key) {
                    Some((_, u)) => *u |= used,
                    None => seen.push((key.clone(), used)),
                }
            }
        }
        Ok(doc)
    }

    /// [`Unit::open`], and when the error names one of several files named together (a
    /// corrupt `.oni` among others), that file is left out and the others are opened again,
    /// until they open or the error is not one file's: the document the others make (or the
    /// last error), and each file left out with its error. (The viewer serves what reads;
    /// other commands report the document as failed.)
    #[allow(clippy::type_complexity)]
    pub fn open_without_failing(
        self,
        options: &OpenOptions,
    ) -> (Result<(Box<dyn Document>, Reopen)>, Vec<(PathBuf, anyhow::Error)>) {
        let mut unit = self;
        let mut dropped = Vec::new();
        loop {
            let (family, paths) = (unit.family, unit.paths.clone());
            let name = unit.name.clone();
            let e = match unit.open(options) {
                Ok(doc) => return (Ok((doc, Reopen { family, paths, name })), dropped),
                Err(e) => e,
            };
            let named = e.downcast_ref::<boneyard_core::Error>().and_then(|be| be.file.clone());
            let culprit = named.and_then(|f| paths.iter().position(|p| p.display().to_string() == f));
            match culprit {
                Some(k) if paths.len() > 1 => {
                    let mut rest = paths;
                    dropped.push((rest.remove(k), e));
                    // Read again from disk (the family took the files it was given), named
                    // after the first that is left.
                    let files = match rest.iter().map(|p| read(p)).collect::<Result<Vec<_>>>() {
                        Ok(f) => f,
                        Err(e) => return (Err(e), dropped),
                    };
                    let name = rest[0].file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                    unit = Unit { family, paths: rest, files: Some(files), name };
                }
                _ => return (Err(e), dropped),
            }
        }
    }
}

/// A file a folder walk found and did not open, and why.
pub struct Skipped {
    pub path: PathBuf,
    pub reason: String,
    pub kind: SkipKind,
}

/// Why a folder walk did not open a file.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum SkipKind {
    /// No family reads it (named with `-v`).
    NoFamily,
    /// Hidden: its name starts with a dot (`.git`, macOS's `._*`, boneyard's partial
    /// outputs), not walked (named with `-v`).
    Hidden,
    /// Not a file a family could be asked about (a link to a folder, a broken link, a pipe):
    /// said as a warning when the walk meets it.
    NotAFile,
}

/// What a command line asks to open.
pub struct Plan {
    pub units: Vec<Unit>,
    pub skipped: Vec<Skipped>,
    /// Files that could not be read (or, named, were not recognised): failed documents of a
    /// batch, which keeps going past them.
    pub failed: Vec<(PathBuf, anyhow::Error)>,
    /// A folder was given or several documents result: commands keep going past a document
    /// that fails and close with a summary.
    pub batch: bool,
}

fn read(path: &Path) -> Result<InputFile> {
    let meta = std::fs::metadata(path).with_context(|| format!("{}: cannot read", path.display()))?;
    if !meta.is_file() {
        anyhow::bail!("{}: not a file", path.display());
    }
    if meta.len() > MAX_INPUT_BYTES {
        anyhow::bail!("{}: {} bytes is larger than boneyard reads ({MAX_INPUT_BYTES})", path.display(), meta.len());
    }
    Ok(InputFile::read(path)?)
}

/// Run-time state keys passed to a family that reads them, and whether any document opened
/// this run drew differently for one ([`Document::uses_runtime`]).
static RUNTIME_SEEN: std::sync::Mutex<Vec<(String, bool)>> = std::sync::Mutex::new(Vec::new());

/// At the end of a run: a run-time state (`--tunic`) that changed none of the documents opened
/// is said once (a Zelda object without Link took it silently; said per document, a folder
/// walk would say it for each of its 206 other objects).
pub fn say_unused_runtime() {
    let seen = RUNTIME_SEEN.lock().unwrap_or_else(|p| p.into_inner());
    for (key, _) in seen.iter().filter(|(_, used)| !used) {
        crate::progress::eprint(&format!(
            "boneyard: warning: --{key} changed none of the documents read (no skeleton of theirs is drawn with it)"
        ));
    }
}

/// The inputs hold no file any family reads (an empty folder, one of junk): invalid input
/// (exit 1) for every command, so that a script sees nothing was done.
pub fn nothing_readable() -> boneyard_core::Error {
    boneyard_core::Error::unplaced(
        "no file boneyard reads (Oni, Zelda 64 or Shenmue) in the files and folders given".to_string(),
    )
}

/// Each path once, however often it is given (`list oot oot` was 404 documents, `list a a`
/// one document with each skeleton twice): told by its canonical path.
#[derive(Default)]
pub struct ReadOnce(std::collections::HashSet<PathBuf>);

impl ReadOnce {
    /// True the first time `p` (or another path to the same file) is seen.
    pub fn first(&mut self, p: &Path) -> bool {
        self.0.insert(std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf()))
    }
}

/// Where families find the files read beside the ones given: on disk, beside them, no larger
/// than the files named.
pub fn companions() -> DiskCompanions {
    DiskCompanions { max_bytes: MAX_INPUT_BYTES }
}

/// The family with the best probe score (ties to the name that sorts first: the order of
/// [`FAMILIES`] does not matter).
fn family_of(file: &InputFile) -> Option<&'static dyn Family> {
    boneyard_core::best_family(FAMILIES, &file.path, &file.data)
}

/// "Not a file boneyard recognises", at offset 0 with the first bytes it saw.
fn not_recognised(file: &InputFile) -> boneyard_core::Error {
    let mut message = not_recognised_message(&file.data);
    message.push_str(&renamed_hint(&file.path, &file.data));
    boneyard_core::Error::invalid(0, message).in_file(file.name())
}

/// When a family would read the bytes under the file's name without its extension (a copy
/// `object_dekunuts.bak`: Zelda objects are told by their names), a hint saying so.
fn renamed_hint(path: &Path, data: &[u8]) -> String {
    // (A glTF is said to be one: read without its extension, an exported `object_dekunuts.glb`
    // would be an empty Zelda object, which the hint had invited.)
    if path.extension().is_none() || is_gltf(data) {
        return String::new();
    }
    let bare = path.with_extension("");
    match boneyard_core::best_family(FAMILIES, &bare, data) {
        Some(f) => format!(
            "; without its extension .{}, as {}, it would be read as a {} file",
            path.extension().unwrap_or_default().to_string_lossy(),
            bare.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
            f.title()
        ),
        None => String::new(),
    }
}

/// The message of [`not_recognised`]: what was not recognised, with the first 8 bytes (the
/// magic every family looks at first).
fn not_recognised_message(data: &[u8]) -> String {
    let head: Vec<String> = data.iter().take(8).map(|b| format!("{b:02x}")).collect();
    let magic = if head.is_empty() { "an empty file".to_string() } else { format!("it starts {}", head.join(" ")) };
    // A glTF (an export, edited): what a modder checks before writing it back.
    let hint =
        if is_gltf(data) { "; it is a glTF, which `boneyard import` writes back into a game's files" } else { "" };
    format!("not a file boneyard recognises (Oni, Zelda 64 or Shenmue): {magic}{hint}")
}

/// Whether `data` looks like a glTF (binary, or JSON with an `"asset"`).
fn is_gltf(data: &[u8]) -> bool {
    let head = &data[..data.len().min(4096)];
    head.starts_with(b"glTF")
        || (head.trim_ascii_start().starts_with(b"{") && head.windows(7).any(|w| w == b"\"asset\""))
}

/// Decide which documents the arguments make. Named files are read now (an unreadable or
/// unrecognised one is a failed document, and the run's error when it is the only one);
/// folders are walked, a file in them that cannot be read is a failed document, and one that
/// no family reads, or that is only read beside another, is skipped and said in the summary.
pub fn plan(paths: &[PathBuf]) -> Result<Plan> {
    let mut named: Vec<(&'static dyn Family, Vec<InputFile>)> = Vec::new();
    let mut walked = Vec::new();
    let mut skipped = Vec::new();
    let mut failed = Vec::new();
    let mut any_dir = false;
    let mut given = ReadOnce::default();
    for path in paths {
        if !given.first(path) {
            crate::progress::eprint(&format!("boneyard: warning: {}: given twice, read once", path.display()));
            continue;
        }
        if path.is_dir() {
            any_dir = true;
            let mut found = Vec::new();
            walk(path, 0, &mut found, &mut skipped, &mut failed)?;
            // Files another walked file reads as its own (Zelda's animation banks beside the
            // object that plays them): opened with it, not alone.
            let mut owned: Vec<PathBuf> = Vec::new();
            let mut here = Vec::new();
            for p in found {
                if !given.first(&p) {
                    continue;
                }
                match classify(&p) {
                    Err(Unread::Failed(e)) => failed.push((p, e)),
                    Ok(Some((family, theirs))) => {
                        let dir = p.parent().unwrap_or(Path::new(""));
                        owned.extend(theirs.iter().map(|n| dir.join(n)));
                        let below = p.strip_prefix(path).unwrap_or(&p);
                        let name =
                            below.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
                        here.push(Unit { family, paths: vec![p], files: None, name })
                    }
                    Ok(None) => {}
                    Err(Unread::NoFamily(reason)) => {
                        skipped.push(Skipped { path: p, reason, kind: SkipKind::NoFamily })
                    }
                }
            }
            walked.extend(here.into_iter().filter(|u| !owned.contains(&u.paths[0])));
            continue;
        }
        let read_one = || -> Result<(InputFile, &'static dyn Family)> {
            if let Some(head) = large_file_head(path)? {
                if boneyard_core::best_family(FAMILIES, path, &head).is_none() {
                    return Err(not_recognised(&InputFile::new(path, head)).into());
                }
            }
            let file = read(path)?;
            let family = family_of(&file).ok_or_else(|| not_recognised(&file))?;
            Ok((file, family))
        };
        let (file, family) = match read_one() {
            Ok(x) => x,
            Err(e) => {
                failed.push((path.clone(), e));
                continue;
            }
        };
        match named.iter_mut().find(|(f, _)| f.name() == family.name()) {
            Some((_, files)) => files.push(file),
            None => named.push((family, vec![file])),
        }
    }
    let mut units: Vec<Unit> = named
        .into_iter()
        .map(|(family, files)| Unit {
            family,
            paths: files.iter().map(|f| f.path.clone()).collect(),
            name: files
                .first()
                .and_then(|f| f.path.file_name())
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            files: Some(files),
        })
        .collect();
    units.extend(walked);
    let batch = any_dir || units.len() + failed.len() > 1;
    if !batch {
        // One file named, which cannot be read: the run's error, as before.
        if let Some((_, e)) = failed.pop() {
            return Err(e);
        }
    }
    Ok(Plan { units, skipped, failed, batch })
}

impl Plan {
    /// The units, for a caller that needs every file given (`pose`, `import --into`): a file
    /// that could not be read is its error.
    pub fn into_units(mut self) -> Result<Vec<Unit>> {
        match self.failed.drain(..).next() {
            Some((_, e)) => Err(e),
            None => Ok(self.units),
        }
    }
}

/// Why a walked file makes no document.
enum Unread {
    /// No family reads it (counted, not an error).
    NoFamily(String),
    /// It could not be read (a failed document).
    Failed(anyhow::Error),
}

/// A walked file's family and the files beside it that it reads as its own
/// ([`Family::owned_companions`]): `Ok(None)` for a companion (read with the file it belongs
/// to), `Err(reason)` for a file no family reads.
#[allow(clippy::type_complexity)]
fn classify(path: &Path) -> Result<Option<(&'static dyn Family, Vec<String>)>, Unread> {
    // A large file no family claims by its first bytes is passed over unread (a disc's
    // videos: a 2 GB one took 8 s and 2 GB of memory to be skipped, and one past what
    // boneyard reads was a failed document).
    if let Some(head) = large_file_head(path).map_err(Unread::Failed)? {
        match boneyard_core::best_family(FAMILIES, path, &head) {
            None => return Err(Unread::NoFamily(format!("at byte offset 0: {}", not_recognised_message(&head)))),
            // Claimed by its name alone (`object_bar`), and far larger than any file told by
            // its name is: not read (a 1.9 GB one was read whole to list nothing). A companion
            // (an Oni level's `.raw`) is read with its level, whatever its size.
            Some(f) if f.probe(path, &head) == boneyard_core::Score::Extension && !f.is_companion(path, &head) => {
                return Err(Unread::NoFamily(format!(
                    "only its name says it is a {} file, and at over {} MiB it is larger than such files are",
                    f.title(),
                    boneyard_core::PROBE_WHOLE_MAX >> 20
                )));
            }
            Some(_) => {}
        }
    }
    let file = read(path).map_err(Unread::Failed)?;
    // An empty file holds nothing whatever its name (a dump's zeroed or truncated
    // `object_*` was a failed document, an empty `notes` a file not read).
    if file.data.is_empty() {
        return Err(Unread::NoFamily(not_recognised_message(&file.data)));
    }
    match family_of(&file) {
        Some(f) if f.is_companion(&file.path, &file.data) => Ok(None),
        Some(f) => Ok(Some((f, f.owned_companions(&file.path, &file.data)))),
        None => Err(Unread::NoFamily(format!(
            "at byte offset 0: {}{}",
            not_recognised_message(&file.data),
            renamed_hint(&file.path, &file.data)
        ))),
    }
}

/// The first [`boneyard_core::PROBE_HEAD`] bytes of a file larger than
/// [`boneyard_core::PROBE_WHOLE_MAX`] (what a family's probe sees of it); None for a smaller one.
fn large_file_head(path: &Path) -> Result<Option<Vec<u8>>> {
    use std::io::Read;
    let meta = std::fs::metadata(path).with_context(|| format!("{}: cannot read", path.display()))?;
    if meta.len() <= boneyard_core::PROBE_WHOLE_MAX {
        return Ok(None);
    }
    let mut head = Vec::with_capacity(boneyard_core::PROBE_HEAD);
    std::fs::File::open(path)
        .and_then(|f| f.take(boneyard_core::PROBE_HEAD as u64).read_to_end(&mut head))
        .with_context(|| format!("{}: cannot read", path.display()))?;
    Ok(Some(head))
}

/// Every file under `dir`, sorted by name at each level (so runs are reproducible), symbolic
/// links to folders not followed. Hidden files and folders (boneyard's own partial outputs
/// among them) are not walked, and are in `skipped` as hidden; what is neither a file nor a
/// folder (a link to a folder, a broken link, a pipe or a device) is in `skipped` with what it
/// is: a folder walk passed over them without a word. A folder that cannot be
/// read is in `failed`, as a file that cannot be read is, and the walk goes on (one folder
/// without permission stopped the whole run, nothing listed).
fn walk(
    dir: &Path,
    depth: usize,
    out: &mut Vec<PathBuf>,
    skipped: &mut Vec<Skipped>,
    failed: &mut Vec<(PathBuf, anyhow::Error)>,
) -> Result<()> {
    if depth > MAX_WALK_DEPTH {
        anyhow::bail!("{}: folders nested deeper than {MAX_WALK_DEPTH} levels", dir.display());
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            failed.push((dir.to_path_buf(), anyhow::Error::from(e).context("cannot read the folder")));
            return Ok(());
        }
    };
    let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        if out.len() >= MAX_WALK_ENTRIES {
            anyhow::bail!("{}: more than {MAX_WALK_ENTRIES} files under the folders given", dir.display());
        }
        let path = e.path();
        if e.file_name().to_string_lossy().starts_with('.') {
            let reason = "hidden (its name starts with a dot): not walked".to_string();
            skipped.push(Skipped { path, reason, kind: SkipKind::Hidden });
            continue;
        }
        let kind = match e.file_type() {
            Ok(k) => k,
            Err(err) => {
                let reason = format!("cannot tell what it is: {err}");
                crate::progress::eprint(&format!("boneyard: warning: {}: not read: {reason}", path.display()));
                skipped.push(Skipped { path, reason, kind: SkipKind::NotAFile });
                continue;
            }
        };
        let reason = if kind.is_dir() {
            walk(&path, depth + 1, out, skipped, failed)?;
            continue;
        } else if kind.is_file() || (kind.is_symlink() && path.is_file()) {
            out.push(path);
            continue;
        } else if kind.is_symlink() && path.is_dir() {
            "a symbolic link to a folder (not followed: give the folder itself)"
        } else if kind.is_symlink() && path.exists() {
            "a symbolic link to what is not a file (a pipe, a socket or a device)"
        } else if kind.is_symlink() {
            "a symbolic link to nothing (broken)"
        } else {
            "not a file (a pipe, a socket or a device)"
        };
        crate::progress::eprint(&format!("boneyard: warning: {}: not read: {reason}", path.display()));
        skipped.push(Skipped { path, reason: reason.to_string(), kind: SkipKind::NotAFile });
    }
    Ok(())
}

/// Open the files as one run that needs every document (sample, pose, view, the demo):
/// the first failure is the run's error.
pub fn open(paths: &[PathBuf]) -> Result<Opened> {
    open_with(paths, &OpenOptions::default())
}

/// [`open`] with the caller's options (`--file`).
/// The one document the files make (sample, pose, view), told before any is opened: a folder
/// of 207 objects opened them all, their warnings on the screen, before saying so.
pub fn open_single(paths: &[PathBuf], options: &OpenOptions) -> Result<Box<dyn Document>> {
    let mut units = plan(paths)?.into_units()?;
    if units.is_empty() {
        return Err(nothing_readable().into());
    }
    if units.len() != 1 {
        return Err(crate::args::usage(format!(
            "these inputs make {} documents (files of different games, or a folder); give the files of one document",
            units.len()
        )));
    }
    let doc = units.remove(0).open(options)?;
    crate::progress::warnings(doc.warnings());
    Ok(doc)
}

pub fn open_with(paths: &[PathBuf], options: &OpenOptions) -> Result<Opened> {
    let plan = plan(paths)?;
    let mut docs = Vec::new();
    for unit in plan.into_units()? {
        let doc = unit.open(options)?;
        // Never silent: what the reader skipped or guessed is said on stderr, whatever the
        // command (the `--json` outputs carry the same list).
        crate::progress::warnings(doc.warnings());
        docs.push(doc);
    }
    Ok(Opened { docs })
}
