//! boneyard-shenmue: Shenmue (Sega, Dreamcast 1999) motions and models, read the way the
//! game plays them.
//!
//! * [`motn`]: `MOTION.BIN` / `M_*.BIN`: header, sequence table, names, the five blocks.
//! * [`curve`]: the game's Hermite sampler (tangents per second at 30 Hz) and the int16
//!   rotation store.
//! * [`rig`]: the 37-control human runtime rig with its analytic two-bone and aimed
//!   one-bone solvers; [`sample`] binds curves to controls.
//! * [`document`]: the [`boneyard_core::Document`] (pose = the rig's matrices after IK,
//!   `sample.locals` = the FK locals derived from them).
//!
//! Entry points: [`Shenmue`] (the family), [`open_bytes`], [`demo_files`].

pub mod curve;
pub mod document;
pub mod layout;
pub mod motn;
pub mod rig;
pub mod sample;

use boneyard_core::error::ResultExt;
use boneyard_core::{Document, Error, Family, FileSummary, InputFile, Result};
use std::path::Path;

pub use document::ShenmueDoc;
pub use motn::MotnFile;

/// The Shenmue family.
pub struct Shenmue;

fn summary_of_motn(path: &str, m: &MotnFile) -> FileSummary {
    let mut kinds = std::collections::BTreeMap::new();
    for b in &m.blocks {
        *kinds.entry(b.layout.kind()).or_insert(0u64) += 1;
    }
    let mut notes = Vec::new();
    if let Some(t) = &m.timestamp {
        notes.push(format!("built {t}"));
    }
    for b in &m.blocks {
        match &b.layout {
            motn::Layout::Undecodable(why) => notes.push(format!("sequence at {:#x}: {why}", b.offset)),
            motn::Layout::LegacyFrame32 { .. } => {
                notes.push(format!("sequence at {:#x}: legacy frame32 layout (listed, not decoded)", b.offset))
            }
            motn::Layout::Curves(mo) if mo.trailing > 0 && mo.trailing != b.region_end - b.offset => {
                notes.push(format!("{} unreferenced bytes after the sequence at {:#x}", mo.trailing, b.offset))
            }
            _ => {}
        }
    }
    FileSummary {
        path: path.to_string(),
        format: "Shenmue MOTN".into(),
        variant: "Shenmue I (Dreamcast)".into(),
        counts: vec![
            ("names".into(), m.entries.len() as u64),
            ("sequences".into(), m.blocks.len() as u64),
            ("decoded".into(), kinds.get("curves").copied().unwrap_or(0)),
            ("legacy-frame32".into(), kinds.get("legacy-frame32").copied().unwrap_or(0)),
            ("undecodable".into(), kinds.get("undecodable").copied().unwrap_or(0)),
        ],
        notes,
    }
}

/// Open in-memory files (what `Family::open` does, without touching the disk).
pub fn open_bytes(files: &[(String, &[u8])]) -> Result<ShenmueDoc> {
    let mut summaries = Vec::new();
    let mut motns = Vec::new();
    for (name, data) in files {
        if motn::looks_like_motn(data) {
            let m = MotnFile::parse(data).in_file(name)?;
            summaries.push(summary_of_motn(name, &m));
            motns.push((short_name(name), m));
        } else {
            return Err(Error::unsupported("not a MOTN file").in_file(name.as_str()));
        }
    }
    ShenmueDoc::new(summaries, motns, Vec::new(), Vec::new())
}

fn short_name(path: &str) -> String {
    Path::new(path).file_name().map_or_else(|| path.to_string(), |s| s.to_string_lossy().into_owned())
}

impl Family for Shenmue {
    fn name(&self) -> &'static str {
        "shenmue"
    }
    fn title(&self) -> &'static str {
        "Shenmue (Sega, Dreamcast 1999)"
    }
    fn probe(&self, _path: &Path, head: &[u8]) -> bool {
        motn::looks_like_motn(head)
    }
    fn open(&self, files: Vec<InputFile>) -> Result<Box<dyn Document>> {
        let named: Vec<(String, &[u8])> = files.iter().map(|f| (f.name(), f.data.as_slice())).collect();
        Ok(Box::new(open_bytes(&named)?))
    }
}
