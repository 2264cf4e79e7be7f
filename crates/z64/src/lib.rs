//! boneyard-z64: Zelda 64 (Ocarina of Time, Majora's Mask) skeletons and animations, read and
//! posed exactly as the game does (zeldaret/oot and zeldaret/mm decompilations).
//!
//! Inputs: single decompressed object files (bound to segment 6; `.zobj` or decomp names such
//! as `object_dekunuts`), `gameplay_keep` (segment 4) and `link_animetion` (segment 7) given
//! beside them (or found beside `object_link_boy`/`object_link_child`/`gameplay_keep` through
//! the caller's [`Companions`] resolver: the family does no file-system I/O),
//! Yaz0-compressed object files, or whole ROMs in any byte order (.z64/.v64/.n64): version from
//! the build strings (or the game code), dmadata walked, files decompressed (Yaz0, iQue
//! DEFLATE), debug ROMs' file names read from their name table.
//!
//! Kinds: SkelAnime skeletons (Standard, LOD, Skin limbs; Normal or Flex headers), the beta
//! format of object_human ([`read_skeleton`], [`read_legacy_skeleton`]); normal, Link's and legacy animations ([`JointTable`]); MM
//! keyframe skeletons and animations (`keyframe`, c_keyframe.c: Hermite keys at 30 fps,
//! standard and flex) and curve skeletons and animations (`curve`, SkelCurve), both sampled at
//! the fractional times the game uses.
//!
//! Skin limbs' animated meshes (`skin`, z_skin.c): vertex buffers computed as the game
//! does for the rest pose, bound as skinned meshes (weights `scale * 0.01f`, normalised).
//!
//! Finding things: the decomp's asset names (`names`, a table generated from the CC0 XML,
//! with its PAL and version-specific readings), each entry verified against the bytes (one
//! that does not hold is a warning with file and offset, [`Document::warnings`]), always
//! united with a structural scan (`scan`) for skeleton headers, animation headers,
//! beta-format animations/limb tables, MM keyframe skeletons and animations, curve animations
//! (and the headers that read as curve skeletons they fit) and, in gameplay_keep, Link's
//! animation headers. The reading of the table is the build's (a ROM's build string) or, for a
//! bare file, the first whose entries all verify.
//!
//! Write-back (`import`): clips as normal animations appended to a copy of an object file,
//! or as Link's animations appended to copies of gameplay_keep and link_animetion, with
//! decomp C and asset XML; rotations through the inverse of the game's Z-Y-X (`euler`).
//!
//! Entry points: [`Z64`] (the [`Family`]: `probe`, `open`, `demo_files`), [`open_files`]
//! (files in memory, nothing looked for beside them),
//! [`open_files_with`] (plus keyframe/curve data given by offset),
//! [`open_bytes`], [`demo_files`]; for the game's own numbers
//! [`Z64Document::joint_table`] (the joint table at an engine frame),
//! [`Z64Document::joint_table_interp`] (the interpolating playback modes),
//! [`Z64Document::engine_frame`] (how `--frame` is rounded: truncated toward zero, wrapped) and
//! [`Z64Document::game_matrices`] (the `MtxF` of every limb, bit-exact).
//!
//! The modules are private (the module names above are for readers of the source); the
//! re-exports are the table of contents of what other crates use: the document and its open
//! functions, the readers the fuzz targets drive ([`read_rom`], [`yaz0_decode`],
//! [`decode_texture`], [`read_skeleton`], [`read_keyframe_skeleton`], [`read_curve_skeleton`],
//! [`read_animated_limb`]), the engine numerics checked against the game's own values
//! ([`math_sin_s`], [`game_rotation`], [`MtxF`], [`world_matrices`]), the test ROM builders
//! ([`build_test_rom`]) and [`layout`], the on-disk records.
#![deny(missing_docs)]

mod anim;
mod banks;
mod build;
mod combiner;
mod curve;
mod demo;
mod dlist;
mod document;
mod euler;
mod import;
mod joint_table;
mod keyframe;
mod keysearch;
pub mod layout;
mod limb_matrix;
mod mtx;
mod names;
mod rom;
mod runtime;
mod scan;
mod segment;
mod sins;
mod skeleton;
mod skin;
mod texture;
mod wordhash;
mod yaz0;

// The table of contents: what other crates (and this crate's integration tests, which see
// only this) use. Names that two modules share are prefixed with what they read.
pub use anim::JointTable;
pub use build::{Explicit, ExplicitKind};
pub use combiner::Combine;
pub use curve::{read_header as read_curve_header, read_skeleton as read_curve_skeleton, CurveAnim};
pub use demo::demo_files;
pub use document::{world_matrices, Z64Document};
pub use euler::{game_rotation, max_diff};
pub use keyframe::{read_header as read_keyframe_header, read_skeleton as read_keyframe_skeleton, KfAnim, KfShape};
pub use mtx::MtxF;
pub use rom::{
    build_retail_like_rom, build_test_rom, build_test_rom_named, build_test_rom_with, byte_order, read_rom, RomFile,
    RomInfo,
};
pub use runtime::{actor_defaults, ActorDefault, RuntimeState, Shield, Tunic};
pub use scan::{appended_link_headers, link_headers};
pub use segment::{Ctx, SegFile};
pub use sins::{math_cos_s, math_sin_s};
pub use skeleton::{read_legacy_skeleton, read_skeleton, SkelDef, SkelType};
pub use skin::{limb_matrices, read_animated_limb, SkinLimbMesh};
pub use texture::{decode as decode_texture, FMT_CI, FMT_I, FMT_IA, FMT_RGBA};
pub use yaz0::{decode as yaz0_decode, decode_within as yaz0_decode_within, encode as yaz0_encode};

use boneyard_core::document::{Document, FileSummary};
use boneyard_core::family::{Companions, Family, InputFile, NoCompanions, OpenOptions, Score};
use boneyard_core::{Error, Result, Warning};
use std::path::Path;

/// The Zelda 64 family.
///
/// Opening the built-in demo object (a `.zobj` for segment 6, made in memory) and posing its
/// walk as `SkelAnime` would:
///
/// ```
/// use boneyard_core::{Document, Family, InputFile, NoCompanions, OpenOptions, Score};
///
/// let files = boneyard_z64::demo_files()?;
/// let inputs: Vec<InputFile> = files.into_iter().map(|(name, bytes)| InputFile::new(name, bytes)).collect();
/// assert_eq!(boneyard_z64::Z64.probe(&inputs[0].path, &inputs[0].data), Score::Extension); // a `.zobj`
/// // Every file is given: nothing to find beside it.
/// let doc = boneyard_z64::Z64.open(inputs, &OpenOptions::default(), &NoCompanions)?;
/// assert!(!doc.skeletons().is_empty());
/// let anim = 0;
/// assert_eq!(doc.animations()[anim].fps, 20.0); // one frame per game update
/// let skeleton = doc.skeleton_for(anim).expect("the demo animations play on the demo skeleton");
/// let world = doc.pose(skeleton, Some(anim), 3.0)?;
/// assert_eq!(world.len(), doc.skeletons()[skeleton].skeleton.len());
/// # Ok::<(), boneyard_core::Error>(())
/// ```
pub struct Z64;

/// File stems this family reads without a magic number (object files have no header), in
/// lower case, with the extension.
fn stem_of(path: &Path) -> (String, Option<String>) {
    let (shown, ext) = shown_stem_of(path);
    (shown.to_lowercase(), ext.map(|e| e.to_lowercase()))
}

/// [`stem_of`] in the file name's own case (`object_oA10`).
fn shown_stem_of(path: &Path) -> (String, Option<String>) {
    let name = path.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => (stem.to_string(), Some(ext.to_string())),
        _ => (name, None),
    }
}

fn is_object_name(stem: &str, ext: Option<&str>) -> bool {
    match ext {
        Some("zobj") => true,
        None | Some("bin") | Some("zdata") => {
            stem.starts_with("object_")
                || build::is_gameplay_keep(stem)
                || (stem.starts_with("gameplay_") && stem.ends_with("_keep"))
                || build::is_link_animetion(stem)
        }
        _ => false,
    }
}

impl Family for Z64 {
    fn name(&self) -> &'static str {
        "z64"
    }

    fn title(&self) -> &'static str {
        "Zelda 64 (Ocarina of Time / Majora's Mask, Nintendo 1998-2000)"
    }

    /// Magic: a ROM's first word (any byte order). Object files have no header: a name the
    /// game gives them (`.zobj`, `object_*`, `gameplay_keep`, `link_animetion`) is Extension;
    /// otherwise Structure when a skeleton header sits in the bytes the way object files hold
    /// one (limb pointer table ending at the header, every limb inside), for the extensions
    /// objects are saved with, small files only.
    fn probe(&self, path: &Path, head: &[u8]) -> Score {
        if rom::byte_order(head).is_some() {
            return Score::Magic;
        }
        let (stem, ext) = stem_of(path);
        if is_object_name(&stem, ext.as_deref()) {
            return Score::Extension;
        }
        let plausible_ext = matches!(ext.as_deref(), None | Some("zobj") | Some("zdata") | Some("bin"));
        if plausible_ext && head.len() <= 8 << 20 && !scan::skeleton_candidates(head, layout::SEG_OBJECT).is_empty() {
            Score::Structure
        } else {
            Score::No
        }
    }

    /// `pick`: one file of the ROMs given (`--file object_link_boy`), with `gameplay_keep` and
    /// `link_animetion` when it is Link's; `runtime`: `tunic`. Link's companions not given come
    /// through `companions`.
    fn open(
        &self,
        files: Vec<InputFile>,
        options: &OpenOptions,
        companions: &dyn Companions,
    ) -> Result<Box<dyn Document>> {
        let runtime = runtime::RuntimeState::from_pairs(&options.runtime)?;
        let pick = options.pick.as_deref();
        Ok(Box::new(open_files_limited(files, &[], pick, runtime, companions, &options.limits)?))
    }

    /// `link_animetion` holds only the frames `gameplay_keep`'s headers point into; it is read
    /// beside `gameplay_keep` or Link's objects.
    fn is_companion(&self, path: &Path, head: &[u8]) -> bool {
        rom::byte_order(head).is_none() && build::is_link_animetion(&stem_of(path).0)
    }

    /// An object with a skeleton reads the animation banks the game loads beside it
    /// (`object_zl2_anime1` and `_anime2` beside `object_zl2`): the names they are looked for
    /// by.
    fn owned_companions(&self, path: &Path, head: &[u8]) -> Vec<String> {
        bank_names_beside(path, head).into_iter().flat_map(|(_, names)| names).collect()
    }

    fn demo_files(&self) -> Result<Vec<(String, Vec<u8>)>> {
        demo::demo_files()
    }

    /// Link's tunic (`tunic` = `kokiri`|`goron`|`zora`) and shield (`shield` = `none`|`deku`|`hylian`|`mirror`), [`runtime::RuntimeState`].
    fn runtime_keys(&self) -> &'static [&'static str] {
        &["tunic", "shield"]
    }

    fn runtime_values(&self, key: &str) -> Vec<&'static str> {
        match key {
            "tunic" => runtime::Tunic::ALL.map(runtime::Tunic::name).to_vec(),
            "shield" => runtime::Shield::ALL.map(runtime::Shield::name).to_vec(),
            _ => Vec::new(),
        }
    }

    /// Normal animations' rate (20 fps, one frame a game update).
    fn import_fps(&self) -> Option<f64> {
        Some(import::NORMAL_FPS)
    }

    /// 30 fps for Link's skeletons (his animations advance 1.5 frames an update), else 20.
    fn import_fps_for(&self, doc: &dyn Document, skeleton: usize) -> Option<f64> {
        Some(import::fps_for(doc, skeleton))
    }

    /// Normal animations appended to a copy of the skeleton's file, Link's to copies of
    /// gameplay_keep and link_animetion, plus decomp C and asset XML (see [`Family::import_clips`]).
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

/// Open a set of files given together, all in memory: ROMs, object files, gameplay_keep,
/// link_animetion. Nothing is looked for beside them (for Link's companions found through a
/// resolver, [`open_files_running`] or [`Family::open`]).
pub fn open_files(inputs: Vec<InputFile>) -> Result<Z64Document> {
    open_files_with(inputs, &[])
}

/// [`open_files`], plus skeletons and animations given by their offsets ([`build::Explicit`]:
/// MM keyframe and curve data in files the asset table does not name).
pub fn open_files_with(inputs: Vec<InputFile>, explicit: &[build::Explicit]) -> Result<Z64Document> {
    open_files_picking(inputs, explicit, None)
}

/// [`open_files_with`], reading only the file named `pick` of the ROMs given (matched without
/// regard to case against the names `info` prints, with or without the `<rom>#` prefix),
/// plus `gameplay_keep` and `link_animetion` when the file is Link's (they hold his
/// animations). A name no ROM file has is an error that offers the closest names.
pub fn open_files_picking(
    inputs: Vec<InputFile>,
    explicit: &[build::Explicit],
    pick: Option<&str>,
) -> Result<Z64Document> {
    open_files_running(inputs, explicit, pick, runtime::RuntimeState::default(), &NoCompanions)
}

/// [`open_files_picking`] with the run-time state the game would set before drawing
/// ([`runtime::RuntimeState`]: Link's tunic), and `companions`: for `gameplay_keep` or Link's
/// objects (`object_link_boy`, `object_link_child`) given without them, `gameplay_keep` and
/// `link_animetion` found beside the input. One there but unreadable is an error; Link's
/// object without `gameplay_keep` is a warning (his animations are not listed).
pub fn open_files_running(
    inputs: Vec<InputFile>,
    explicit: &[build::Explicit],
    pick: Option<&str>,
    runtime: runtime::RuntimeState,
    companions: &dyn Companions,
) -> Result<Z64Document> {
    open_files_limited(inputs, explicit, pick, runtime, companions, &boneyard_core::Limits::default())
}

/// [`open_files_running`] within the caller's limits (from [`boneyard_core::OpenOptions::limits`]).
pub fn open_files_limited(
    mut inputs: Vec<InputFile>,
    explicit: &[build::Explicit],
    pick: Option<&str>,
    runtime: runtime::RuntimeState,
    companions: &dyn Companions,
    limits: &boneyard_core::Limits,
) -> Result<Z64Document> {
    if pick.is_some() && !inputs.iter().any(|i| rom::byte_order(&i.data).is_some()) {
        return Err(Error::not_found(
            "--file picks a file inside a ROM (or a Shenmue archive), and none of the Zelda 64 files given is a ROM",
        ));
    }
    let given = inputs.len();
    let mut companion_warnings = add_companions(&mut inputs, companions)?;
    // The files read beside those given (Link's gameplay_keep): their skeletons are marked.
    let beside: Vec<String> = inputs.get(given..).unwrap_or_default().iter().map(|i| stem_of(&i.path).0).collect();
    let mut files: Vec<SegFile> = Vec::new();
    let mut summaries: Vec<FileSummary> = Vec::new();
    let mut rom_summaries = Vec::new();
    // By file: the decomp's name of the build it comes from, when a ROM says (bare files: None).
    let mut builds: Vec<Option<&'static str>> = Vec::new();
    for input in &mut inputs {
        let name = input.name();
        let (stem, _) = stem_of(&input.path);
        let shown = shown_stem_of(&input.path).0;
        if let Some(order) = rom::byte_order(&input.data) {
            // In place: the ROM's bytes are the caller's to give (a copy of a 64 MB ROM was
            // a tenth of a whole open), and they are let go once its files are read.
            rom::normalize_in_place(&mut input.data, order);
            let (mut info, rfiles) = rom::read_rom(&input.data, limits).map_err(|e| e.in_file(name.clone()))?;
            input.data = Vec::new();
            info.byte_order = Some(order);
            let mut sum = FileSummary {
                path: name.clone(),
                format: "Zelda 64 ROM".into(),
                variant: info.version.unwrap_or("unknown version").to_string(),
                ..Default::default()
            };
            sum.counts.push(("dma entries".into(), info.entries as u64));
            sum.counts.push(("deleted".into(), info.deleted as u64));
            if let Some(&(i, first, at)) = info.overlapping.first() {
                companion_warnings.push(Warning::at(
                    &name,
                    at,
                    format!(
                        "{} DMA entries (the first: entry {i}, over entry {first}) name ROM bytes an earlier entry holds: not read (a ROM's files never overlap)",
                        info.overlapping.len()
                    ),
                ));
                sum.counts.push(("overlapping an earlier entry".into(), info.overlapping.len() as u64));
                let shown: Vec<String> =
                    info.overlapping.iter().take(8).map(|(i, first, _)| format!("{i} (over {first})")).collect();
                sum.notes.push(format!(
                    "{} DMA entries name ROM bytes an earlier one holds, not read: entries {}{}",
                    info.overlapping.len(),
                    shown.join(", "),
                    if info.overlapping.len() > 8 { ", ..." } else { "" }
                ));
            }
            sum.notes
                .push(format!("title {:?}, game code {:?}, revision {}", info.title, info.game_code, info.revision));
            sum.notes.push(format!("byte order {}", order.name()));
            if let Some((c, d)) = &info.build {
                sum.notes.push(format!("build {c} {d}"));
            }
            sum.notes.push(format!("dmadata at {:#x}", info.dmadata));
            if info.named {
                sum.notes.push("file names from the ROM's name table".into());
            }
            let version = info.version.and_then(rom::decomp_version);
            let (kept, notes) = pick_rom_files(&name, rfiles, pick, limits)?;
            sum.notes.extend(notes);
            for (f, s) in kept {
                files.push(f);
                summaries.push(s);
                builds.push(version);
            }
            rom_summaries.push(sum);
            continue;
        }
        if yaz0::is_yaz0(&input.data) {
            // A compressed object file straight from a ROM.
            let data = yaz0::decode_within(&input.data, None, boneyard_core::limit!(limits, max_yaz0_bytes))
                .map_err(|e| e.in_file(name.clone()))?;
            push_object(&mut files, &mut summaries, name, (stem, shown), data, "Yaz0-compressed");
        } else {
            // The input's bytes move into the document (only its path is used below).
            push_object(&mut files, &mut summaries, name, (stem, shown), std::mem::take(&mut input.data), "");
        }
        builds.push(None);
    }
    let gk = files.iter().position(|f| build::is_gameplay_keep(&f.stem));
    let la = files.iter().position(|f| build::is_link_animetion(&f.stem));
    let found = build::find_all_limited(&files, &builds, gk, la, explicit, limits)?;
    let nothing = found.skels.is_empty() && found.anims.is_empty();
    if nothing {
        // A file named as the game names its objects is an object even when it holds only
        // display lists and textures (most of a ROM's do): an empty document, said in `info`.
        // A file taken on a structural look that then yields nothing was not one.
        let named_objects = inputs.iter().all(|i| {
            let (stem, ext) = stem_of(&i.path);
            is_object_name(&stem, ext.as_deref())
        });
        // An extension alone does not make an object: a `.zobj` holding no address into itself
        // (a display list's vertices and textures are such addresses) is not one (a text file
        // renamed `.zobj` was an empty object, exit 0). A file the game names (`object_mag`,
        // 16 bytes in the debug ROM; `object_mori_tex`, textures only) is one whatever it holds.
        let addresses_itself = |f: &SegFile| {
            f.data
                .chunks_exact(4)
                .any(|w| w[0] == f.segment && (u32::from_be_bytes([0, w[1], w[2], w[3]]) as usize) < f.data.len())
        };
        let game_named = |f: &SegFile| f.stem.starts_with("object_") || f.stem.starts_with("gameplay_");
        if !named_objects
            || !rom_summaries.is_empty()
            || files.iter().all(|f| f.data.is_empty())
            || !files.iter().any(|f| game_named(f) || addresses_itself(f))
        {
            let name = inputs.first().map(|i| i.name()).unwrap_or_default();
            return Err(build::nothing_found(&name));
        }
    }
    let lone_frames = match (la, gk) {
        (Some(la), None) => {
            let f = &files[la];
            Some((f.name.clone(), f.stem.clone(), f.data.len() / layout::LINK_FRAME_SIZE))
        }
        _ => None,
    };
    let mut doc = Z64Document::new(files, summaries, found, runtime)?;
    doc.warnings.splice(0..0, companion_warnings);
    doc.mark_companions(&beside);
    if nothing {
        for s in &mut doc.summaries {
            s.notes.push("no skeleton or animation in this file (display lists and textures only)".into());
        }
        // link_animetion alone: its frames are Link's animations, whose headers and skeletons
        // are in other files (`list link_animetion` showed nothing, without a word).
        if let Some((name, stem, frames)) = lone_frames {
            doc.warnings.push(Warning::in_file(
                name,
                format!(
                    "{stem} holds only the frames of Link's animations ({frames} of 134 bytes): their headers are in gameplay_keep and his skeletons in object_link_boy and object_link_child; give them with it"
                ),
            ));
        }
    }
    for (i, s) in rom_summaries.into_iter().enumerate() {
        doc.summaries.insert(i, s);
    }
    Ok(doc)
}

fn push_object(
    files: &mut Vec<SegFile>,
    sums: &mut Vec<FileSummary>,
    name: String,
    (stem, shown): (String, String),
    data: Vec<u8>,
    how: &str,
) {
    let (segment, format) = if build::is_gameplay_keep(&stem) {
        (layout::SEG_GAMEPLAY_KEEP, "Zelda 64 gameplay_keep (segment 4)")
    } else if build::is_link_animetion(&stem) {
        (layout::SEG_LINK_ANIMETION, "Zelda 64 link_animetion (segment 7)")
    } else if stem.starts_with("gameplay_") {
        (5, "Zelda 64 keep file (segment 5)")
    } else {
        (layout::SEG_OBJECT, "Zelda 64 object (segment 6)")
    };
    let known = !names::variants(&stem).is_empty();
    let mut sum = FileSummary {
        path: name.clone(),
        format: format.into(),
        variant: if known {
            "OoT (names from the decomp asset table, verified; plus the structural scan)".into()
        } else {
            "unnamed (structural scan)".into()
        },
        ..Default::default()
    };
    sum.counts.push(("bytes".into(), data.len() as u64));
    if !how.is_empty() {
        sum.notes.push(how.to_string());
    }
    if segment == layout::SEG_LINK_ANIMETION {
        sum.notes.push(format!("{} frames of 134 bytes", data.len() / layout::LINK_FRAME_SIZE));
    }
    files.push(SegFile { name, stem, shown, segment, data, lenient: false });
    sums.push(sum);
}

/// From a ROM's files keep link_animetion, gameplay_keep and those with skeletons/animations.
/// A ROM file kept for reading, with what `info` says of it.
type KeptFile = (SegFile, FileSummary);

/// With `pick`, only that file (and Link's companions when it is Link's) is kept, whatever it
/// holds.
fn pick_rom_files(
    rom_name: &str,
    rfiles: Vec<rom::RomFile>,
    pick: Option<&str>,
    limits: &boneyard_core::Limits,
) -> Result<(Vec<KeptFile>, Vec<String>)> {
    let mut notes = Vec::new();
    // link_animetion: an uncompressed file early in the table (OoT: entry 6, after the audio
    // files, which are uncompressed and large too). gameplay_keep: the file with Link animation
    // headers from 0x2310; the last animation's data ends at the end of link_animetion (within
    // its 16-byte alignment), which tells link_animetion from the audio tables.
    let cands: Vec<usize> = (0..rfiles.len())
        .filter(|&i| rfiles[i].index < 16 && !rfiles[i].compressed && rfiles[i].data.len() >= 0x10_0000)
        .collect();
    let biggest = cands.iter().map(|&i| rfiles[i].data.len()).max().unwrap_or(0);
    let mut la = None;
    let mut gk = None;
    if biggest > 0 {
        for (i, f) in rfiles.iter().enumerate() {
            let heads = scan::link_headers(&f.data, biggest);
            if heads.len() < 100 {
                continue;
            }
            let end = heads
                .iter()
                .filter_map(|&h| {
                    // `link_headers` found each header whole.
                    let a = <layout::LinkAnimationHeader as layout::Record>::parse_at(&f.data, h).ok()?;
                    Some((a.segment & 0xFF_FFFF) as usize + a.frame_count as usize * layout::LINK_FRAME_SIZE)
                })
                .max()
                .unwrap_or(0);
            let fit = cands.iter().copied().filter(|&c| (end..end + 16).contains(&rfiles[c].data.len())).min();
            if fit.is_some() {
                la = fit;
                gk = Some(i);
                break;
            }
        }
    }
    let stem_of_entry = |i: usize, f: &rom::RomFile| -> String {
        if Some(i) == la {
            "link_animetion".to_string()
        } else if Some(i) == gk {
            "gameplay_keep".to_string()
        } else {
            f.name.clone().filter(|n| !n.is_empty()).unwrap_or_else(|| format!("file_{:04}", f.index))
        }
    };
    let picked: Option<std::collections::HashSet<usize>> = match pick {
        None => None,
        Some(p) => {
            let want = p.rsplit('#').next().unwrap_or(p).to_ascii_lowercase();
            let stems: Vec<String> = rfiles.iter().enumerate().map(|(i, f)| stem_of_entry(i, f)).collect();
            let Some(hit) = stems.iter().position(|s| s.to_ascii_lowercase() == want) else {
                let close = boneyard_core::document::did_you_mean(p, stems.iter().map(|s| s.as_str()));
                return Err(Error::not_found(format!("--file {p:?}: {rom_name} has no file of that name{close}")));
            };
            let mut set: std::collections::HashSet<usize> = [hit].into();
            if build::is_link_object(&stems[hit]) || Some(hit) == gk {
                set.extend(gk.into_iter().chain(la));
            }
            // The animation banks the game plays on its skeleton, as beside a file on disk.
            for bank in banks::banks_of(&stems[hit]) {
                set.extend(stems.iter().position(|s| s.eq_ignore_ascii_case(bank)));
            }
            notes.push(format!("--file {p}: {} of the ROM's files read", set.len()));
            Some(set)
        }
    };
    let mut kept = Vec::new();
    // Keyframe skeleton tries, shared by the ROM's files (`Limits::max_scan_work`).
    let mut work =
        boneyard_core::Budget::new(boneyard_core::limit!(limits, max_scan_work), "structural scan limb reads");
    // Each file's name and segment, and whether the filter scans it (a file the asset table
    // does not know, in a whole ROM read).
    let placed: Vec<(String, u8, bool)> = rfiles
        .iter()
        .enumerate()
        .map(|(i, f)| {
            if Some(i) == la {
                ("link_animetion".to_string(), layout::SEG_LINK_ANIMETION, false)
            } else if Some(i) == gk {
                ("gameplay_keep".to_string(), layout::SEG_GAMEPLAY_KEEP, false)
            } else {
                let named = f.name.clone().filter(|n| !n.is_empty());
                let stem = named.unwrap_or_else(|| format!("file_{:04}", f.index));
                let seg = if stem.starts_with("gameplay_") { 5 } else { layout::SEG_OBJECT };
                let scanned = picked.is_none() && !names::is_known(&stem);
                (stem, seg, scanned)
            }
        })
        .collect();
    // The scans, on rayon's threads (a retail ROM's 1,500 files, none named): a file with no
    // skeleton or animation candidate is tried for keyframe skeletons and curve animations
    // with a copy of the shared budget, then charged in order; where the copy refused a spend
    // or spent what the budget no longer has, the file is tried again in order, against the
    // budget as it is then, so the cut is where it was.
    let base = work.spent();
    let tried: Vec<Option<(scan::SegWords, bool, boneyard_core::Budget)>> = {
        use rayon::prelude::*;
        rfiles
            .par_iter()
            .zip(&placed)
            .map(|(f, &(_, seg, scanned))| {
                if !scanned {
                    return None;
                }
                // One bitmap of the file's pointer words for all its scans.
                let words = scan::SegWords::new(&f.data, seg);
                if !scan::skeleton_candidates_in(&f.data, &words).is_empty()
                    || !scan::animation_candidates_in(&f.data, &words).is_empty()
                {
                    return None;
                }
                let mut fork = work.clone();
                let holds = has_keyframe_or_curve(&f.data, &words, &mut fork);
                Some((words, holds, fork))
            })
            .collect()
    };
    for ((i, f), ((stem, segment, _), tried)) in rfiles.into_iter().enumerate().zip(placed.into_iter().zip(tried)) {
        if picked.as_ref().is_some_and(|set| !set.contains(&i)) {
            continue;
        }
        if let Some((words, holds, fork)) = tried {
            let holds = match work.spent_by_fork(&fork, base) {
                Some(spent) => {
                    work.try_spend(spent);
                    holds
                }
                None => has_keyframe_or_curve(&f.data, &words, &mut work),
            };
            if !holds {
                continue;
            }
        }
        let mut sum = FileSummary {
            path: format!("{rom_name}#{stem}"),
            format: format!("Zelda 64 ROM file (segment {segment})"),
            variant: format!("DMA entry {}, vrom {:#x}", f.index, f.vrom),
            ..Default::default()
        };
        sum.counts.push(("bytes".into(), f.data.len() as u64));
        if f.compressed {
            sum.notes.push("compressed".into());
        }
        let file = SegFile {
            name: format!("{rom_name}#{stem}"),
            shown: stem.clone(),
            stem,
            segment,
            data: f.data,
            lenient: true,
        };
        kept.push((file, sum));
    }
    notes.push(format!("{} files with skeletons or animations kept", kept.len()));
    if work.left() == 0 {
        notes.push(
            "the file filter's structural scan budget is used up (limit `max_scan_work`): some files were not tried for keyframe skeletons"
                .into(),
        );
    }
    if gk.is_none() {
        notes.push("no gameplay_keep with Link animation headers found".into());
    }
    Ok((kept, notes))
}

/// Does a ROM file hold an MM keyframe skeleton that reads, or a curve animation header?
fn has_keyframe_or_curve(data: &[u8], words: &scan::SegWords, work: &mut boneyard_core::Budget) -> bool {
    let seg = words.seg();
    if !scan::curve_animation_candidates_in(data, words).is_empty() {
        return true;
    }
    let cands = scan::kf_skeleton_candidates_in(data, words);
    if cands.is_empty() {
        return false;
    }
    let files = [SegFile {
        name: String::new(),
        stem: String::new(),
        shown: String::new(),
        segment: seg,
        data: data.to_vec(),
        lenient: true,
    }];
    let mut map = [None; 16];
    map[seg as usize & 0xF] = Some(0);
    let ctx = segment::Ctx::new(&files, map, 0);
    cands.into_iter().any(|h| {
        if !build::spend(work, 2 * data.get(h).map_or(1, |&n| n as usize)) {
            return false;
        }
        let addr = (seg as u32) << 24 | h as u32;
        keyframe::read_skeleton(&ctx, addr, 0, String::new(), None).is_ok()
    })
}

/// Link's companions (`gameplay_keep`, `link_animetion`) not among the inputs, found beside
/// `gameplay_keep` or Link's objects through `companions`. One there but unreadable is the
/// resolver's error; `gameplay_keep` not found for Link's object is a warning (the object's
/// skeleton still reads). A `link_animetion` not found is said by the reader of
/// gameplay_keep ([`build`]).
/// For an object file holding a skeleton (not a ROM), the animation banks the game plays on
/// it ([`banks`]), each with the file names it is looked for by beside `path`.
fn bank_names_beside(path: &Path, head: &[u8]) -> Vec<(&'static str, Vec<String>)> {
    let (stem, ext) = shown_stem_of(path);
    let mut banks = banks::banks_of(&stem).peekable();
    if banks.peek().is_none() || rom::byte_order(head).is_some() {
        return Vec::new();
    }
    // Whether it holds a skeleton: the asset table says for the files it knows (a scan of
    // every owner's words cost 2% of opening a folder of objects), the scan for the others.
    let known = names::variants(&stem.to_lowercase());
    let skeleton = match known.is_empty() {
        false => known.iter().any(|v| v.assets.iter().any(|a| a.kind == 'S')),
        true => !scan::skeleton_candidates(head, layout::SEG_OBJECT).is_empty(),
    };
    if !skeleton {
        return Vec::new();
    }
    banks.map(|b| (b, banks::file_names(b, ext.as_deref()))).collect()
}

fn add_companions(inputs: &mut Vec<InputFile>, companions: &dyn Companions) -> Result<Vec<Warning>> {
    let mut warnings = Vec::new();
    let mut extra = Vec::new();
    // Animation banks: found beside the object that plays them; one given without any of its
    // objects names them. (Most files are neither: their stems are taken once.)
    let stems: Vec<String> = inputs.iter().map(|i| stem_of(&i.path).0).collect();
    for i in inputs.iter() {
        for (bank, names) in bank_names_beside(&i.path, &i.data) {
            let lower = bank.to_ascii_lowercase();
            if stems.contains(&lower) || extra.iter().any(|e: &InputFile| stem_of(&e.path).0 == lower) {
                continue;
            }
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            if let Some(f) = companions.find(&i.path, &names)? {
                extra.push(f);
            }
        }
    }
    for (i, stem) in inputs.iter().zip(&stems) {
        let Some(owners) = banks::owners_of(stem) else { continue };
        let with_owner = stems.iter().any(|o| banks::plays_on(stem, o));
        if !with_owner && rom::byte_order(&i.data).is_none() {
            warnings.push(Warning::in_file(
                i.name(),
                format!(
                    "an animation bank: its clips play on the skeletons of {owners}; give one of those files with it (none was given)"
                ),
            ));
        }
    }
    for (i, stem) in inputs.iter().zip(&stems) {
        // Fan-made player models too: in a folder walk they are opened alone, and drew
        // without gameplay_keep's lists (a warning per list) beside it.
        let link_object = build::is_link_object(stem) || build::is_player_model(&i.data);
        if !build::is_gameplay_keep(stem) && !link_object {
            continue;
        }
        for c in ["gameplay_keep", "link_animetion"] {
            if stems.iter().any(|s| s == c) || extra.iter().any(|e: &InputFile| stem_of(&e.path).0 == c) {
                continue;
            }
            match companions.find(&i.path, &[c])? {
                Some(f) => extra.push(f),
                None if c == "gameplay_keep" => warnings.push(Warning::in_file(
                    i.name(),
                    "gameplay_keep not given or found beside this file: Link's animations are not listed",
                )),
                None => {}
            }
        }
    }
    inputs.extend(extra);
    Ok(warnings)
}

/// For callers holding bytes: open one object file by name.
pub fn open_bytes(name: &str, data: Vec<u8>) -> Result<Z64Document> {
    open_files(vec![InputFile::new(name, data)]).map_err(|e: Error| e.in_file(name.to_string()))
}
