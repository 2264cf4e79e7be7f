//! boneyard-oni: Bungie's Oni (2001) — level `.dat`/`.raw`/`.sep` files and OniSplit `.oni`
//! files; TRAM animations with every key size, sampled and posed exactly as Oni.exe v1.0
//! does; ONCC/TRBS/TRCM bodies with their M3GM geometry; an encoder for all of them.
//!
//! Entry points: [`Oni`] (the [`Family`]), [`open_paths`], [`OniDocument`] (engine matrices
//! with [`OniDocument::engine_pose`]), [`demo_files`], and the [`encode`] module.
//!
//! Modules: [`layout`] (offsets only), [`container`] (instance files), [`resolve`] (links
//! across files), [`tram`], [`keys`] and [`math`] (the engine's numerics), [`body`],
//! [`document`], [`check`], [`import`] (write-back of glTF clips as TRAM `.oni` files).
#![deny(missing_docs)]

pub mod body;
pub mod check;
pub mod container;
pub mod demo;
pub mod document;
pub mod encode;
pub mod import;
pub mod keys;
pub mod layout;
pub mod math;
pub mod resolve;
pub mod tram;

pub use demo::demo_files;
pub use document::OniDocument;

use boneyard_core::{Document, Error, Family, InputFile, Limits, Result};
use container::InstanceFile;
use std::path::{Path, PathBuf};

/// The Oni family.
///
/// Opening the built-in demo level (a `.dat` and its `.raw`, made in memory) and posing its
/// first animation with the engine's numerics:
///
/// ```
/// use boneyard_core::{Document, Family, InputFile};
///
/// let files = boneyard_oni::demo_files()?;
/// let inputs: Vec<InputFile> = files.into_iter().map(|(name, bytes)| InputFile::new(name, bytes)).collect();
/// assert!(boneyard_oni::Oni.probe(&inputs[0].path, &inputs[0].data));
/// let doc = boneyard_oni::Oni.open(inputs)?;
/// let walk = doc.find_animation("demo_walk")?;
/// assert_eq!(doc.animations()[walk].fps, 60.0);
/// let skeleton = doc.skeleton_for(walk).expect("the demo walk plays on the demo body");
/// let world = doc.pose(skeleton, Some(walk), 10.0)?;
/// assert_eq!(world.len(), doc.skeletons()[skeleton].skeleton.len());
/// # Ok::<(), boneyard_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Oni;

/// The registry value for the CLI.
pub static FAMILY: Oni = Oni;

fn ext_lower(path: &Path) -> String {
    path.extension().map(|e| e.to_string_lossy().to_lowercase()).unwrap_or_default()
}

fn stem_lower(path: &Path) -> String {
    path.file_stem().map(|e| e.to_string_lossy().to_lowercase()).unwrap_or_default()
}

/// A companion (`.raw`, `.sep`) of `dat`: from the files given, else from disk beside it.
fn companion(dat: &Path, ext: &str, given: &mut Vec<InputFile>) -> Result<Option<(String, Vec<u8>)>> {
    let stem = stem_lower(dat);
    if let Some(k) = given.iter().position(|f| ext_lower(&f.path) == ext && stem_lower(&f.path) == stem) {
        let f = given.remove(k);
        return Ok(Some((f.name(), f.data)));
    }
    for e in [ext.to_string(), ext.to_uppercase()] {
        let p: PathBuf = dat.with_extension(&e);
        if p.is_file() {
            let data = std::fs::read(&p).map_err(|err| Error::io(&p, err))?;
            return Ok(Some((p.display().to_string(), data)));
        }
    }
    Ok(None)
}

/// Open instance files given together (`.dat` with `.raw`/`.sep` among them or beside them
/// on disk, `.oni` files).
pub fn open_files(files: Vec<InputFile>) -> Result<OniDocument> {
    open_files_with(files, &Limits::default())
}

/// [`open_files`] within the caller's limits (from [`boneyard_core::OpenOptions::limits`]).
pub fn open_files_with(files: Vec<InputFile>, limits: &Limits) -> Result<OniDocument> {
    let (mut companions, mut mains): (Vec<InputFile>, Vec<InputFile>) =
        files.into_iter().partition(|f| !container::looks_like_instance_file(&f.data));
    // A .raw or .sep given without its .dat: read the .dat beside it.
    for c in &companions {
        let e = ext_lower(&c.path);
        let stem = stem_lower(&c.path);
        if (e == "raw" || e == "sep") && !mains.iter().any(|m| stem_lower(&m.path) == stem) {
            for ext in ["dat", "DAT"] {
                let p = c.path.with_extension(ext);
                if p.is_file() {
                    mains.push(InputFile::read(&p)?);
                    break;
                }
            }
        }
    }
    let mut parsed = Vec::with_capacity(mains.len());
    for f in mains {
        let name = f.name();
        let is_level = f.data.get(8..12) == Some(&layout::header::VERSION_VR31.to_le_bytes()[..]);
        let (raw, sep) = if is_level {
            (companion(&f.path, "raw", &mut companions)?, companion(&f.path, "sep", &mut companions)?)
        } else {
            (None, None)
        };
        parsed.push(InstanceFile::parse_with(&name, f.data, raw, sep, limits)?);
    }
    if let Some(c) = companions.first() {
        let e = ext_lower(&c.path);
        let msg = if e == "raw" || e == "sep" {
            format!("a .{e} file is read with the level .dat of the same name, which was not given")
        } else {
            "not an Oni instance file (no VR31/VR32 header)".to_string()
        };
        return Err(Error::invalid(0, msg).in_file(c.name()));
    }
    if parsed.is_empty() {
        return Err(Error::invalid(0, "no Oni instance file given"));
    }
    OniDocument::with_limits(parsed, limits)
}

/// Read paths from disk and open them together.
pub fn open_paths(paths: &[&Path]) -> Result<OniDocument> {
    let files = paths.iter().map(|p| InputFile::read(p)).collect::<Result<Vec<_>>>()?;
    open_files(files)
}

impl Family for Oni {
    fn name(&self) -> &'static str {
        "oni"
    }
    fn title(&self) -> &'static str {
        "Oni (Bungie West, 2001)"
    }
    /// The VR31/VR32 header first; a `.raw`/`.sep` is taken as a level's companion.
    fn probe(&self, path: &Path, head: &[u8]) -> bool {
        if container::looks_like_instance_file(head) {
            return true;
        }
        let e = ext_lower(path);
        (e == "raw" || e == "sep") && {
            let dat = path.with_extension("dat");
            dat.is_file()
                || path.with_extension("DAT").is_file()
                || head.get(..32).is_some_and(|h| h.iter().all(|&b| b == 0))
        }
    }
    fn open(&self, files: Vec<InputFile>) -> Result<Box<dyn Document>> {
        Ok(Box::new(open_files(files)?))
    }
    /// Oni's files hold no named files inside (`pick` is refused); the limits are honoured.
    fn open_with(&self, files: Vec<InputFile>, options: &boneyard_core::OpenOptions) -> Result<Box<dyn Document>> {
        if let Some(name) = &options.pick {
            return Err(Error::not_found(format!("--file {name:?}: oni files are not containers of named files")));
        }
        Ok(Box::new(open_files_with(files, &options.limits)?))
    }
    /// A level's `.raw`/`.sep` is read beside its `.dat`.
    fn is_companion(&self, path: &Path, head: &[u8]) -> bool {
        let e = ext_lower(path);
        (e == "raw" || e == "sep") && !container::looks_like_instance_file(head)
    }
    /// `boneyard_demo.dat` + `.raw`: the demo character as an Oni level (see [`demo`]).
    fn demo_files(&self) -> Result<Vec<(String, Vec<u8>)>> {
        demo::demo_files()
    }
    /// Oni plays 60 frames per second.
    fn import_fps(&self) -> Option<f64> {
        Some(layout::tram::ENGINE_FPS as f64)
    }
    /// One TRAM `.oni` per clip on the body of `into` (see [`import`]).
    fn import_clips(
        &self,
        into: Vec<InputFile>,
        clips: &[boneyard_core::Clip],
        options: &boneyard_core::ImportOptions,
    ) -> Result<boneyard_core::Imported> {
        import::import_clips(into, clips, options)
    }
}
