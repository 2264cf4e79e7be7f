//! The registry interface. Each game family implements [`Family`]; the caller (the CLI) keeps
//! a list of them, asks every family to [`Family::probe`] a file and hands it to the one with
//! the best [`Score`] ([`best_family`]), then opens the files of one family with
//! [`Family::open`], giving a [`Companions`] resolver for the files that are read beside the
//! ones given. Families do no file-system I/O of their own: probes look only at the name and
//! bytes they are handed, and companions come through the resolver, so a family opens files
//! held in memory as well as files on disk.

use crate::document::Document;
use crate::error::{ErrorKind, Result};
use std::path::{Path, PathBuf};

/// A file given on the command line, read whole.
#[derive(Debug, Clone)]
pub struct InputFile {
    /// The path as given (used in messages and for finding companion files).
    pub path: PathBuf,
    /// The whole file.
    pub data: Vec<u8>,
}

impl InputFile {
    /// A file already in memory (tests, containers, the demo).
    pub fn new(path: impl Into<PathBuf>, data: Vec<u8>) -> Self {
        InputFile { path: path.into(), data }
    }
    /// Read a file whole; an I/O error names the path.
    pub fn read(path: &Path) -> Result<Self> {
        let data = std::fs::read(path).map_err(|e| crate::Error::io(path, e))?;
        Ok(InputFile { path: path.to_path_buf(), data })
    }
    /// The path as a display string (used in error messages).
    pub fn name(&self) -> String {
        self.path.display().to_string()
    }
    /// The file name without directories, lower-cased.
    pub fn file_name_lower(&self) -> String {
        self.path.file_name().map(|s| s.to_string_lossy().to_lowercase()).unwrap_or_default()
    }
}

/// What the caller asks of `open` beyond the files themselves.
#[derive(Debug, Clone, Default)]
pub struct OpenOptions {
    /// In a container that holds many files (a ROM, an archive), read only the file of this
    /// name (`--file NAME`); matched case-insensitively against the names `info` prints.
    pub pick: Option<String>,
    /// Run-time state the game sets before it draws, which the files do not hold, as
    /// key/value pairs the family interprets (the CLI knows no family's keys): `tunic` =
    /// `kokiri`|`goron`|`zora` for Zelda 64's Link (`--tunic`). A family ignores keys it does
    /// not know and refuses a value of its own it does not know.
    pub runtime: Vec<(String, String)>,
    /// Resource limits the family's readers keep to (counts, sizes, nesting, work); hitting
    /// one is an error naming it. A library user raises one with
    /// `OpenOptions { limits: Limits { max_sequences: 1 << 16, ..Limits::default() }, ..Default::default() }`.
    pub limits: crate::Limits,
}

impl OpenOptions {
    /// For a family whose files hold no named files inside: an error when `pick` is set
    /// (`--file` has nothing to pick from), else Ok.
    pub fn refuse_pick(&self, family: &str) -> Result<()> {
        match &self.pick {
            Some(name) => Err(crate::Error::not_found(format!(
                "--file {name:?}: {family} files are not containers of named files"
            ))),
            None => Ok(()),
        }
    }
}

/// Files larger than this are probed on their first [`PROBE_HEAD`] bytes ([`Family::probe`]).
pub const PROBE_WHOLE_MAX: u64 = 64 << 20;
/// How many bytes of a large file a probe sees.
pub const PROBE_HEAD: usize = 64 << 10;

/// How strongly a family claims a file ([`Family::probe`]), weakest first; the registry hands
/// the file to the family with the best score ([`best_family`]).
///
/// * [`Score::Magic`]: bytes that name the format: a magic number (Oni's `VR31`/`VR32`
///   header, Shenmue's `HRCM`/`PAKF`/`AFS`, a Zelda 64 ROM's first word), or a header whose
///   fields check each other as strictly (a MOTN header whose size field is the file's length).
/// * [`Score::Structure`]: a cheap structural look at headerless data that fits (a Zelda 64
///   skeleton header with its limb table, an Oni `.raw` that starts with its 32 zero bytes).
/// * [`Score::Extension`]: only the name says so (`.zobj`, `object_*`, `.raw`, gzip with a
///   Shenmue extension).
/// * [`Score::No`]: not this family's.
///
/// A probe returns the best level it sees; it never looks at another family's formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Score {
    /// Not this family's file.
    #[default]
    No,
    /// Only the file's name (extension, or the name a game gives such files) says so.
    Extension,
    /// A cheap structural look at the bytes fits.
    Structure,
    /// Magic bytes (or a self-checking header) name the format.
    Magic,
}

impl Score {
    /// Does the family claim the file at all?
    pub fn claims(self) -> bool {
        self > Score::No
    }
}

/// The family with the best [`Score`] for a file, or None when none claims it. Ties go to the
/// family whose [`Family::name`] sorts first, so the order of `families` never matters.
pub fn best_family<'a>(families: &[&'a dyn Family], path: &Path, head: &[u8]) -> Option<&'a dyn Family> {
    let mut best: Option<(Score, &'a dyn Family)> = None;
    for &f in families {
        let s = f.probe(path, head);
        if !s.claims() {
            continue;
        }
        let better = match best {
            None => true,
            Some((bs, bf)) => s > bs || (s == bs && f.name() < bf.name()),
        };
        if better {
            best = Some((s, f));
        }
    }
    best.map(|(_, f)| f)
}

/// Where a family finds the files read beside the ones it is given (Oni's `.raw`/`.sep` beside
/// a level `.dat`, the `.dat` beside a `.raw`, Zelda 64's `gameplay_keep` and `link_animetion`
/// beside Link's objects). The family says which names it wants; the resolver reads them.
///
/// The rule every family follows: a companion that is there but cannot be read is an error
/// naming it (the resolver's `Err`, passed on); one that is not there (`Ok(None)`) is a
/// [`crate::Warning`] naming what is lost when the family can still read something without
/// it, else an error.
pub trait Companions {
    /// The first of `names` (file names, tried in order) in the folder of `beside`, read
    /// whole; `Ok(None)` when none of them is there.
    fn find(&self, beside: &Path, names: &[&str]) -> Result<Option<InputFile>>;
}

/// Finds no companion: every file must be given (fuzzing, in-memory use).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoCompanions;

impl Companions for NoCompanions {
    fn find(&self, _beside: &Path, _names: &[&str]) -> Result<Option<InputFile>> {
        Ok(None)
    }
}

/// Companions held in memory, found by path: `beside`'s folder joined with the name, compared
/// exactly (so `level.dat` finds `level.raw` among files named without a folder).
#[derive(Debug, Clone, Default)]
pub struct MemoryCompanions {
    /// The files that may be found.
    pub files: Vec<InputFile>,
}

impl MemoryCompanions {
    /// A resolver over these files.
    pub fn new(files: Vec<InputFile>) -> Self {
        MemoryCompanions { files }
    }
}

impl Companions for MemoryCompanions {
    fn find(&self, beside: &Path, names: &[&str]) -> Result<Option<InputFile>> {
        let dir = beside.parent().unwrap_or(Path::new(""));
        for name in names {
            let want = dir.join(name);
            if let Some(f) = self.files.iter().find(|f| f.path == want) {
                return Ok(Some(f.clone()));
            }
        }
        Ok(None)
    }
}

/// Companions read from the file system: the folder of the file they belong to. Only regular
/// files count as there (a folder of the same name is not a companion); one that is there but
/// cannot be read, or is larger than `max_bytes`, is an error naming it.
#[derive(Debug, Clone, Copy)]
pub struct DiskCompanions {
    /// The largest companion read.
    pub max_bytes: u64,
}

impl Default for DiskCompanions {
    fn default() -> Self {
        DiskCompanions { max_bytes: u64::MAX }
    }
}

impl Companions for DiskCompanions {
    fn find(&self, beside: &Path, names: &[&str]) -> Result<Option<InputFile>> {
        let dir = beside.parent().unwrap_or(Path::new(""));
        for name in names {
            let p = dir.join(name);
            let unreadable = |why: String| {
                crate::Error::new(ErrorKind::Io(format!(
                    "companion of {} that cannot be read: {why}",
                    beside.display()
                )))
                .in_file(p.display().to_string())
            };
            // Absent, or a folder of that name (a decomp's `gameplay_keep/` of extracted
            // assets is not the file): the next name, and the family says what it lacks.
            // There but no file it can read (a device, a broken link): unreadable, not absent.
            match std::fs::symlink_metadata(&p) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(unreadable(e.to_string())),
                Ok(_) if p.is_dir() => continue,
                Ok(_) if !p.is_file() => {
                    return Err(unreadable("it is not a file (a device, a pipe or a broken link)".into()))
                }
                Ok(_) => {}
            }
            let len = std::fs::metadata(&p).map_err(|e| unreadable(e.to_string()))?.len();
            if len > self.max_bytes {
                return Err(unreadable(format!("{len} bytes is larger than boneyard reads ({})", self.max_bytes)));
            }
            let data = std::fs::read(&p).map_err(|e| unreadable(e.to_string()))?;
            return Ok(Some(InputFile { path: p, data }));
        }
        Ok(None)
    }
}

/// The names `<stem of path>.<ext>` and `<stem of path>.<EXT>`: a companion that differs from
/// `path` by its extension, in either case (Oni's `LEVEL1_FINAL.DAT` beside `.RAW`).
pub fn sibling_names(path: &Path, ext: &str) -> [String; 2] {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    [format!("{stem}.{}", ext.to_lowercase()), format!("{stem}.{}", ext.to_uppercase())]
}

/// One game family: recognises its files, opens them into a [`Document`] and writes clips back.
/// The CLI's registry holds one value of each; no family knows another's formats.
pub trait Family: Sync {
    /// Short name ("oni", "z64", "shenmue").
    fn name(&self) -> &'static str;
    /// Human name ("Oni (Bungie, 2001)").
    fn title(&self) -> &'static str;
    /// How strongly this family claims the file ([`Score`]). `head` is the whole file, or,
    /// for a file of over [`PROBE_WHOLE_MAX`] bytes, its first [`PROBE_HEAD`] bytes (a folder
    /// walk does not read a 2 GB video whole to pass over it): a claim that needs more than
    /// that (a size field checked against the file's length) is not made then. Looks only at
    /// `path`'s name and `head` (no I/O, no other family's formats); cheap; never panics.
    fn probe(&self, path: &Path, head: &[u8]) -> Score;
    /// Read the files (all claimed by `probe`) as one document. Files read beside them
    /// (companions) come through `companions`, never from the disk directly; `options.pick`
    /// is honoured by a family whose files hold named files (else
    /// [`OpenOptions::refuse_pick`]), `options.runtime` keys it does not know are ignored.
    fn open(
        &self,
        files: Vec<InputFile>,
        options: &OpenOptions,
        companions: &dyn Companions,
    ) -> Result<Box<dyn Document>>;
    /// A file that is only ever read beside another one (Oni's `.raw`/`.sep` beside their
    /// `.dat`): a folder walk does not open it as a document of its own. Looks only at the
    /// name and bytes, as `probe`.
    fn is_companion(&self, _path: &Path, _head: &[u8]) -> bool {
        false
    }
    /// The names of the files beside `path` that its document reads and that are for it alone
    /// (Zelda 64's animation banks, beside the object whose skeleton plays their clips): a
    /// folder walk that opens this file does not open them as documents of their own. Only
    /// names that would be read when there; looks only at the name and bytes, as `probe`. The
    /// default: none.
    fn owned_companions(&self, _path: &Path, _head: &[u8]) -> Vec<String> {
        Vec::new()
    }
    /// The built-in demo character (`crate::demo`) encoded in this family's own format by the
    /// family's own encoder, as (file name, bytes); `open` reads them back. Empty when the
    /// family has no encoder.
    fn demo_files(&self) -> Result<Vec<(String, Vec<u8>)>> {
        Ok(Vec::new())
    }
    /// The frame rate clips must be sampled at for [`Family::import_clips`] (the engine's
    /// own); None when the family has no write-back.
    fn import_fps(&self) -> Option<f64> {
        None
    }
    /// The keys of [`OpenOptions::runtime`] this family reads (Zelda 64: `tunic`); a caller
    /// says when it passes others, which the family ignores. The default: none.
    fn runtime_keys(&self) -> &'static [&'static str] {
        &[]
    }
    /// The values run-time state `key` (one of [`Family::runtime_keys`]) takes, in the
    /// game's order (Zelda 64's `tunic`: kokiri, goron, zora), for a caller that offers a
    /// choice (the viewer's page). The default: none.
    fn runtime_values(&self, key: &str) -> Vec<&'static str> {
        let _ = key;
        Vec::new()
    }
    /// The frame rate clips for skeleton `skeleton` of `doc` (the `into` files, opened) must be
    /// sampled at, where it depends on the skeleton (Zelda 64: Link's animations play at 30
    /// fps, the others at 20). The default: [`Family::import_fps`].
    fn import_fps_for(&self, doc: &dyn crate::Document, skeleton: usize) -> Option<f64> {
        let _ = (doc, skeleton);
        self.import_fps()
    }
    /// Write-back: encode `clips` (sampled at [`Family::import_fps`], bones named as the
    /// skeleton of `into` that `options.skeleton` picks) in the family's own format, on the
    /// body of the `into` files (a character, an object file, a motion bank...; their
    /// companions found through `companions`, as [`Family::open`]). Every file returned has
    /// been read back by the family's reader. The default: unsupported.
    fn import_clips(
        &self,
        into: Vec<InputFile>,
        clips: &[crate::clip::Clip],
        options: &crate::clip::ImportOptions,
        companions: &dyn Companions,
    ) -> Result<crate::clip::Imported> {
        let _ = (into, clips, options, companions);
        Err(crate::Error::unsupported(format!("writing animations back is not supported for {} files", self.name())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A family that gives every file one fixed score.
    struct Fixed(&'static str, Score);

    impl Family for Fixed {
        fn name(&self) -> &'static str {
            self.0
        }
        fn title(&self) -> &'static str {
            self.0
        }
        fn probe(&self, _path: &Path, _head: &[u8]) -> Score {
            self.1
        }
        fn open(&self, _: Vec<InputFile>, _: &OpenOptions, _: &dyn Companions) -> Result<Box<dyn Document>> {
            Err(crate::Error::unsupported("a test family"))
        }
    }

    fn pick(families: &[&dyn Family]) -> Option<&'static str> {
        best_family(families, Path::new("f.bin"), b"").map(|f| f.name())
    }

    #[test]
    fn scores_are_ordered_weakest_first() {
        assert!(Score::No < Score::Extension && Score::Extension < Score::Structure && Score::Structure < Score::Magic);
        assert!(!Score::No.claims() && Score::Extension.claims());
    }

    #[test]
    fn the_best_score_wins_in_any_order() {
        let (a, b, c) = (Fixed("a", Score::Extension), Fixed("b", Score::Magic), Fixed("c", Score::Structure));
        assert_eq!(pick(&[&a, &b, &c]), Some("b"));
        assert_eq!(pick(&[&c, &b, &a]), Some("b"));
        assert_eq!(pick(&[&a, &c]), Some("c"));
        assert_eq!(pick(&[&Fixed("x", Score::No)]), None);
        assert_eq!(pick(&[]), None);
    }

    #[test]
    fn a_tie_goes_to_the_name_that_sorts_first_whatever_the_order() {
        let (z, m, a) =
            (Fixed("zeta", Score::Structure), Fixed("mu", Score::Structure), Fixed("alpha", Score::Extension));
        assert_eq!(pick(&[&z, &m, &a]), Some("mu"));
        assert_eq!(pick(&[&m, &z, &a]), Some("mu"));
        assert_eq!(pick(&[&a, &z, &m]), Some("mu"));
    }

    #[test]
    fn memory_companions_are_found_beside_by_path_in_the_order_asked() {
        let c = MemoryCompanions::new(vec![
            InputFile::new("dir/level.RAW", vec![1]),
            InputFile::new("level.raw", vec![2]),
            InputFile::new("dir/gameplay_keep", vec![3]),
        ]);
        let got = |beside: &str, names: &[&str]| c.find(Path::new(beside), names).unwrap().map(|f| f.data[0]);
        assert_eq!(got("dir/level.dat", &["level.raw", "level.RAW"]), Some(1));
        assert_eq!(got("level.dat", &["level.raw", "level.RAW"]), Some(2));
        assert_eq!(got("dir/object_link_boy", &["gameplay_keep"]), Some(3));
        assert_eq!(got("object_link_boy", &["gameplay_keep"]), None);
        assert!(NoCompanions.find(Path::new("level.dat"), &["level.raw"]).unwrap().is_none());
    }

    #[test]
    fn sibling_names_keep_the_stem_and_try_both_cases() {
        assert_eq!(sibling_names(Path::new("a/Level1_Final.dat"), "raw"), ["Level1_Final.raw", "Level1_Final.RAW"]);
    }

    #[test]
    fn disk_companions_read_regular_files_and_name_the_one_they_cannot_read() {
        let tmp = tempfile::Builder::new().prefix("boneyard_companions_").tempdir().unwrap();
        let dir = tmp.path();
        std::fs::create_dir_all(dir.join("gameplay_keep")).unwrap(); // a folder is not a companion
        std::fs::write(dir.join("level.RAW"), b"0123456789").unwrap();
        let beside = dir.join("level.dat");
        let disk = DiskCompanions::default();
        let f = disk.find(&beside, &["level.raw", "level.RAW"]).unwrap().expect("level.RAW is there");
        assert_eq!((f.path.clone(), f.data.len()), (dir.join("level.RAW"), 10));
        assert!(disk.find(&dir.join("object_link_boy"), &["gameplay_keep"]).unwrap().is_none());
        assert!(disk.find(&beside, &["level.sep"]).unwrap().is_none());
        // There but not readable (here: over the size limit): an error naming it.
        let e = DiskCompanions { max_bytes: 4 }.find(&beside, &["level.RAW"]).unwrap_err().to_string();
        assert!(e.contains("level.RAW") && e.contains("cannot be read") && e.contains("10 bytes"), "{e}");
    }

    /// There, but no file: a broken link or a device is unreadable, not absent (a `.raw` that
    /// links to nothing read as "not found beside the .dat").
    #[cfg(unix)]
    #[test]
    fn disk_companions_name_a_link_to_nothing_or_a_device() {
        let tmp = tempfile::Builder::new().prefix("boneyard_companions_links_").tempdir().unwrap();
        let dir = tmp.path();
        std::os::unix::fs::symlink(dir.join("nowhere"), dir.join("level.raw")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", dir.join("level.sep")).unwrap();
        let beside = dir.join("level.dat");
        for name in ["level.raw", "level.sep"] {
            let e = DiskCompanions::default().find(&beside, &[name]).unwrap_err().to_string();
            assert!(e.contains(name) && e.contains("it is not a file"), "{e}");
        }
    }

    /// A regular file the operating system refuses to read even to root: /proc/self/mem at
    /// offset 0 (unmapped) fails with EIO.
    #[cfg(target_os = "linux")]
    #[test]
    fn disk_companions_pass_a_read_error_on_naming_the_file() {
        let e = DiskCompanions::default().find(Path::new("/proc/self/x"), &["mem"]).unwrap_err().to_string();
        assert!(e.contains("/proc/self/mem") && e.contains("cannot be read"), "{e}");
    }
}
