//! The registry interface. Each game family implements [`Family`]; the CLI keeps a list of
//! them and hands every input file to the first family whose `probe` accepts it.

use crate::document::Document;
use crate::error::Result;
use std::path::{Path, PathBuf};

/// A file given on the command line, read whole.
#[derive(Debug, Clone)]
pub struct InputFile {
    pub path: PathBuf,
    pub data: Vec<u8>,
}

impl InputFile {
    pub fn new(path: impl Into<PathBuf>, data: Vec<u8>) -> Self {
        InputFile { path: path.into(), data }
    }
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
    /// The built-in demo character (`crate::demo`) encoded in this family's own format by the
    /// family's own encoder, as (file name, bytes); `open` reads them back. Empty when the
    /// family has no encoder.
    fn demo_files(&self) -> Result<Vec<(String, Vec<u8>)>> {
        Ok(Vec::new())
    }
}
