//! Reading the FILE arguments and handing each to the family that reads it.

use crate::registry::FAMILIES;
use anyhow::{Context, Result};
use boneyard_core::{Document, Family, InputFile};
use std::path::PathBuf;

/// The documents opened from the command line: one per family involved.
pub struct Opened {
    pub docs: Vec<Box<dyn Document>>,
}

impl Opened {
    /// The single document the command works on; several families at once is a usage error
    /// for commands that pick one animation.
    pub fn single(&self) -> Result<&dyn Document> {
        match self.docs.as_slice() {
            [d] => Ok(d.as_ref()),
            _ => Err(crate::args::usage("these files belong to different games; give files of one game at a time")),
        }
    }
}

const MAX_INPUT_BYTES: u64 = 1 << 31;

pub fn open(paths: &[PathBuf]) -> Result<Opened> {
    let mut groups: Vec<(&'static dyn Family, Vec<InputFile>)> = Vec::new();
    for path in paths {
        let meta = std::fs::metadata(path).with_context(|| format!("{}: cannot read", path.display()))?;
        if !meta.is_file() {
            anyhow::bail!("{}: not a file", path.display());
        }
        if meta.len() > MAX_INPUT_BYTES {
            anyhow::bail!("{}: {} bytes is larger than boneyard reads ({MAX_INPUT_BYTES})", path.display(), meta.len());
        }
        let file = InputFile::read(path)?;
        let family = FAMILIES.iter().copied().find(|f| f.probe(&file.path, &file.data)).ok_or_else(|| {
            anyhow::anyhow!("{}: not a file boneyard recognises (Oni, Zelda 64 or Shenmue)", path.display())
        })?;
        match groups.iter_mut().find(|(f, _)| f.name() == family.name()) {
            Some((_, files)) => files.push(file),
            None => groups.push((family, vec![file])),
        }
    }
    let mut docs = Vec::new();
    for (family, files) in groups {
        let doc = family.open(files)?;
        // Never silent: what the reader skipped or guessed is said once, on stderr, whatever
        // the command (the `--json` outputs carry the same list).
        for w in doc.warnings() {
            eprintln!("boneyard: warning: {w}");
        }
        docs.push(doc);
    }
    Ok(Opened { docs })
}
