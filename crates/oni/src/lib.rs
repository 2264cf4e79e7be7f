//! boneyard-oni: Bungie's Oni (2001) — level `.dat`/`.raw`/`.sep` files and OniSplit `.oni`
//! files; TRAM animations with every key size, sampled and posed exactly as Oni.exe v1.0
//! does; ONCC/TRBS/TRCM bodies with their M3GM geometry; an encoder for all of them.
//!
//! The modules are private; this page is the table of contents of what other crates use:
//!
//! * opening: [`Oni`] (the [`Family`]), [`open_files`] (every file given, in memory),
//!   [`open_with_companions`] (a level's `.raw`/`.sep` or `.dat` through a [`Companions`]
//!   resolver), [`open_within`] / [`open_files_with`] (within the caller's [`Limits`]),
//!   [`open_paths`] (on disk); the [`OniDocument`] they give (engine matrices with
//!   [`OniDocument::engine_pose`]);
//! * what it reads: [`InstanceFile`] (one instance file: header, descriptors, names),
//!   [`Files`] and [`Ref`] (links across files), [`Tram`] (one animation: read, walked, shown
//!   as JSON; [`walk_block`] walks its rotation block), [`Body`] ([`read_geometry`]: one M3GM);
//! * the engine's numerics: key decoding ([`decode_key`], [`decode3`], [`decode6`]) and
//!   `MUrQuat`/`MUrMatrix` arithmetic ([`xyzr_euler_to_quat`], [`quat_lerp`],
//!   [`quat_normalize`], [`Matrix43`]);
//! * writing: the encoder ([`write_oni`], [`write_level`], [`tram_instance`],
//!   [`body_instances`] and the other instance builders) and the write-back of glTF clips as
//!   TRAM `.oni` files ([`clip_to_tram`]);
//! * the demo: [`demo_files`], [`demo_body`], [`corpus_level`];
//! * [`layout`]: the on-disk records (offsets only).
#![deny(missing_docs)]

mod body;
mod check;
mod container;
mod demo;
mod document;
mod encode;
mod import;
mod keys;
pub mod layout;
mod math;
mod notes;
mod resolve;
mod tram;

pub use body::{read_geometry, Body, M3GM_SLOTS, PART_NAMES};
pub use container::{Descriptor, InstanceFile, Version};
pub use demo::{corpus_level, demo_body, demo_files, CorpusShape};
pub use document::OniDocument;
pub use encode::{
    append, body_instances, body_set_instances, encode_key, generated_normals, geometry_instances, new_tram,
    oncc_instance, quat_to_xyz, rotation_block, strip_triangles, trac_instance, tram_instance, write_level, write_oni,
    Instance, TXCA_PADDING,
};
pub use import::{clip_to_tram, Keying};
pub use keys::{decode as decode_key, decode3, decode6};
pub use math::{quat_lerp, quat_normalize, to_glam, xyzr_euler_to_quat, EQuat, Matrix43, ANGLE_STEP_6};
pub use resolve::{Files, Ref};
pub use tram::{walk_block, Stream, Tram};

use boneyard_core::family::sibling_names;
use boneyard_core::{
    Companions, DiskCompanions, Document, Error, Family, InputFile, Limits, NoCompanions, OpenOptions, Result, Score,
};
use std::path::Path;

/// The Oni family.
///
/// Opening the built-in demo level (a `.dat` and its `.raw`, made in memory) and posing its
/// first animation with the engine's numerics:
///
/// ```
/// use boneyard_core::{Document, Family, InputFile, MemoryCompanions, OpenOptions, Score};
///
/// let files = boneyard_oni::demo_files()?;
/// let mut inputs: Vec<InputFile> = files.into_iter().map(|(name, bytes)| InputFile::new(name, bytes)).collect();
/// assert_eq!(boneyard_oni::Oni.probe(&inputs[0].path, &inputs[0].data), Score::Magic);
/// // The .dat given, its .raw found beside it by the resolver (here: in memory).
/// let raw = MemoryCompanions::new(inputs.split_off(1));
/// let doc = boneyard_oni::Oni.open(inputs, &OpenOptions::default(), &raw)?;
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

/// A companion (`.raw`, `.sep`) of `dat`: from the files given, else through the resolver
/// (`<stem>.<ext>` beside it, the extension in either case).
fn companion(
    dat: &Path,
    ext: &str,
    given: &mut Vec<InputFile>,
    companions: &dyn Companions,
) -> Result<Option<(String, Vec<u8>)>> {
    let stem = stem_lower(dat);
    if let Some(k) = given.iter().position(|f| ext_lower(&f.path) == ext && stem_lower(&f.path) == stem) {
        let f = given.remove(k);
        return Ok(Some((f.name(), f.data)));
    }
    let [lower, upper] = sibling_names(dat, ext);
    Ok(companions.find(dat, &[&lower, &upper])?.map(|f| (f.name(), f.data)))
}

/// Open instance files given together (`.dat` with `.raw`/`.sep`, `.oni` files), all in
/// memory: nothing is looked for beside them ([`open_with_companions`] with
/// [`NoCompanions`]).
pub fn open_files(files: Vec<InputFile>) -> Result<OniDocument> {
    open_with_companions(files, &NoCompanions)
}

/// Open instance files given together; a level `.dat`'s `.raw`/`.sep` not among them, and the
/// `.dat` of a `.raw`/`.sep` given without it, come through `companions`. A companion there
/// but unreadable is an error (the resolver's); a `.raw` not found is an error where the level
/// needs its raw data (its TRAMs, its bodies' geometry: the reader names what is in the `.raw`)
/// and said in `info` otherwise; a `.raw`/`.sep` whose `.dat` is not found is an error.
pub fn open_with_companions(files: Vec<InputFile>, companions: &dyn Companions) -> Result<OniDocument> {
    open_within(files, companions, &Limits::default())
}

/// [`open_files`] within the caller's limits (from [`boneyard_core::OpenOptions::limits`]).
pub fn open_files_with(files: Vec<InputFile>, limits: &Limits) -> Result<OniDocument> {
    open_within(files, &NoCompanions, limits)
}

/// [`open_with_companions`] within the caller's limits (what [`Family::open`] does).
pub fn open_within(files: Vec<InputFile>, companions: &dyn Companions, limits: &Limits) -> Result<OniDocument> {
    let (mut given, mut mains): (Vec<InputFile>, Vec<InputFile>) =
        files.into_iter().partition(|f| !container::looks_like_instance_file(&f.data));
    // A .raw or .sep given without its .dat: the .dat beside it.
    let mut found_dats = Vec::new();
    for c in &given {
        let e = ext_lower(&c.path);
        let stem = stem_lower(&c.path);
        let known = |fs: &[InputFile]| fs.iter().any(|m| stem_lower(&m.path) == stem);
        if (e == "raw" || e == "sep") && !known(&mains) && !known(&found_dats) {
            let [lower, upper] = sibling_names(&c.path, "dat");
            found_dats.extend(companions.find(&c.path, &[&lower, &upper])?);
        }
    }
    mains.extend(found_dats);
    let mut parsed = Vec::with_capacity(mains.len());
    for f in mains {
        let name = f.name();
        let is_level = f.data.get(8..12) == Some(&layout::header::VERSION_VR31.to_le_bytes()[..]);
        let (raw, sep) = if is_level {
            (companion(&f.path, "raw", &mut given, companions)?, companion(&f.path, "sep", &mut given, companions)?)
        } else {
            (None, None)
        };
        parsed.push(InstanceFile::parse_with(&name, f.data, raw, sep, limits)?);
    }
    if let Some(c) = given.first() {
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

/// For callers on disk: read `paths` and open them together, companions read from beside
/// them ([`DiskCompanions`]; core does the reading).
pub fn open_paths(paths: &[&Path]) -> Result<OniDocument> {
    let files = paths.iter().map(|p| InputFile::read(p)).collect::<Result<Vec<_>>>()?;
    open_with_companions(files, &DiskCompanions::default())
}

impl Family for Oni {
    fn name(&self) -> &'static str {
        "oni"
    }
    fn title(&self) -> &'static str {
        "Oni (Bungie West, 2001)"
    }
    /// Magic: the VR31/VR32 instance-file header. A `.raw`/`.sep` (a level's companion, read
    /// with the `.dat` the resolver finds) by its extension, Structure when it starts with the
    /// 32 zero bytes Oni's raw files start with.
    fn probe(&self, path: &Path, head: &[u8]) -> Score {
        if container::looks_like_instance_file(head) {
            return Score::Magic;
        }
        let e = ext_lower(path);
        if e != "raw" && e != "sep" {
            return Score::No;
        }
        if head.get(..32).is_some_and(|h| h.iter().all(|&b| b == 0)) {
            Score::Structure
        } else {
            Score::Extension
        }
    }
    /// `pick` is refused (no Oni file holds named files); `runtime` has no Oni keys; the
    /// limits are honoured.
    fn open(
        &self,
        files: Vec<InputFile>,
        options: &OpenOptions,
        companions: &dyn Companions,
    ) -> Result<Box<dyn Document>> {
        options.refuse_pick(self.name())?;
        Ok(Box::new(open_within(files, companions, &options.limits)?))
    }
    /// A level's `.raw`/`.sep` is read beside its `.dat`.
    fn is_companion(&self, path: &Path, head: &[u8]) -> bool {
        let e = ext_lower(path);
        (e == "raw" || e == "sep") && !container::looks_like_instance_file(head)
    }
    /// `boneyard_demo.dat` + `.raw`: the demo character as an Oni level (see [`demo_files`]).
    fn demo_files(&self) -> Result<Vec<(String, Vec<u8>)>> {
        demo::demo_files()
    }
    /// Oni plays 60 frames per second.
    fn import_fps(&self) -> Option<f64> {
        Some(layout::tram::ENGINE_FPS as f64)
    }
    /// One TRAM `.oni` per clip on the body of `into` (see [`clip_to_tram`]).
    fn import_clips(
        &self,
        into: Vec<InputFile>,
        clips: &[boneyard_core::Clip],
        options: &boneyard_core::ImportOptions,
        companions: &dyn Companions,
    ) -> Result<boneyard_core::Imported> {
        import::import_clips(into, clips, options, companions)
    }
}
