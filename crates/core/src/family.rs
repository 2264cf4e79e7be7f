//! The registry interface. Each game family implements [`Family`]; the CLI keeps a list of
//! them and hands every input file to the first family whose `probe` accepts it.

use crate::document::Document;
use crate::error::Result;
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

/// One game family: recognises its files, opens them into a [`Document`] and writes clips back.
/// The CLI's registry holds one value of each; no family knows another's formats.
pub trait Family: Sync {
    /// Short name ("oni", "z64", "shenmue").
    fn name(&self) -> &'static str;
    /// Human name ("Oni (Bungie, 2001)").
    fn title(&self) -> &'static str;
    /// Does this family read this file? `head` is the whole file; look at magic bytes first,
    /// the extension second. Must be cheap and never panic.
    fn probe(&self, path: &Path, head: &[u8]) -> bool;
    /// Read the files (all accepted by `probe`; companion files may be found beside them).
    fn open(&self, files: Vec<InputFile>) -> Result<Box<dyn Document>>;
    /// [`Family::open`] with the caller's options. The default honours no `pick`: a family
    /// whose files hold no named files inside says so.
    fn open_with(&self, files: Vec<InputFile>, options: &OpenOptions) -> Result<Box<dyn Document>> {
        match &options.pick {
            Some(name) => Err(crate::Error::not_found(format!(
                "--file {name:?}: {} files are not containers of named files",
                self.name()
            ))),
            None => self.open(files),
        }
    }
    /// A file that is only ever read beside another one (Oni's `.raw`/`.sep` beside their
    /// `.dat`): a folder walk does not open it as a document of its own. Cheap, no I/O
    /// beyond what `probe` may do.
    fn is_companion(&self, _path: &Path, _head: &[u8]) -> bool {
        false
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
    /// The frame rate clips for skeleton `skeleton` of `doc` (the `into` files, opened) must be
    /// sampled at, where it depends on the skeleton (Zelda 64: Link's animations play at 30
    /// fps, the others at 20). The default: [`Family::import_fps`].
    fn import_fps_for(&self, doc: &dyn crate::Document, skeleton: usize) -> Option<f64> {
        let _ = (doc, skeleton);
        self.import_fps()
    }
    /// Write-back: encode `clips` (sampled at [`Family::import_fps`], bones named as the
    /// skeleton of `into` that `options.skeleton` picks) in the family's own format, on the
    /// body of the `into` files (a character, an object file, a motion bank...). Every file
    /// returned has been read back by the family's reader. The default: unsupported.
    fn import_clips(
        &self,
        into: Vec<InputFile>,
        clips: &[crate::clip::Clip],
        options: &crate::clip::ImportOptions,
    ) -> Result<crate::clip::Imported> {
        let _ = (into, clips, options);
        Err(crate::Error::unsupported(format!("writing animations back is not supported for {} files", self.name())))
    }
}
