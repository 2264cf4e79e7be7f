//! boneyard-shenmue: Shenmue (Sega, Dreamcast 1999) motions and models, read the way the
//! game plays them.
//!
//! The modules are private; this page is the table of contents of what other crates use:
//!
//! * opening: [`Shenmue`] (the [`Family`]), [`open_files`], [`open_bytes`] (and their `_with`
//!   forms taking [`Limits`]), the [`ShenmueDocument`] they give (pose = the rig's matrices
//!   after IK, `sample.locals` = the FK locals derived from them);
//! * the files, one reader each: [`MotnFile`] (`MOTION.BIN` / `M_*.BIN`: header, sequence
//!   table, names, the five blocks; its [`Block`]s, [`Layout`]s and [`Shape`]s), [`Mt5`]
//!   (HRCM models), the containers ([`read_pkf`], [`read_pks`], [`read_ipac`], [`read_afs`],
//!   [`gunzip`]);
//! * the engine's numerics: the Hermite sampler ([`sample_keys`]: tangents per second at 30 Hz)
//!   and the int16 rotation store ([`turns_to_raw`]), the 37-control human rig ([`HUMAN_RIG`],
//!   [`local_matrix`], [`bind`]);
//! * writing: [`encode_file`] (MOTN files from [`SequenceSpec`]s), [`rebuild`] (sequences
//!   written into a copy of a MOTION.BIN), [`import_clips`] (write-back of glTF clips on the
//!   human rig), [`write_mt5`], the container writers;
//! * the demo: [`demo_files`] and the pieces it is made of;
//! * [`layout`]: the on-disk records (offsets named where they are defined).
#![deny(missing_docs)]

mod bank;
mod container;
mod curve;
mod demo;
mod document;
mod encode;
mod fit;
mod import;
pub mod layout;
mod model;
mod motn;
mod mt5;
mod rig;
mod sample;

pub use bank::{rebuild, sequence_len, NewSequence, Rebuilt};
pub use container::{
    gunzip, gzip, read_afs, read_ipac, read_pkf, read_pks, write_afs, write_ipac, write_pkf, write_pks,
    Entry as ContainerEntry,
};
pub use curve::{sample_keys, turns_to_raw, Axis, Key};
pub use demo::{
    demo_body, demo_character, demo_files, demo_fk_sequence, demo_sequence, demo_targets, rig_rest, DEMO_FAMILY,
};
pub use document::{rig_skeleton, ShenmueDocument};
pub use encode::{encode_file, encode_file_raw, CurveSpec, KeySpec, SequenceSpec};
pub use import::{encode_clip, import_clips, EncodedClip};
pub use model::{model_skeleton, rig_meshes};
pub use motn::{
    frame_record, ActionMeta, Block, Curves, Descriptors, Entry, Gap, Layout, Motion, MotnFile, Name, Shape,
};
pub use mt5::{write as write_mt5, Mt5, NodeSpec};
pub use rig::{local_matrix, ControlDef, HUMAN_RIG};
pub use sample::{bind, CurveValue};

use boneyard_core::error::ResultExt;
use boneyard_core::{
    limit, Companions, Document, Error, Family, FileSummary, InputFile, Limits, OpenOptions, Result, Score, Warning,
};
use std::path::Path;

// The caller's limits bound the walk over nested containers (`Limits`):
// * `max_container_nesting`: how deep containers may nest (GZ in AFS in PKS...);
// * `max_examined_bytes`: most bytes all nested entries may add up to;
// * `max_total_entries`: most container entries of all nesting levels together. Each
//   container may list `max_entries`, and entries may overlap, so an archive whose entries are
//   all the same inner archive would otherwise multiply the entries (and the summary notes)
//   level by level: 65536 × 65536 empty entries from a 1 MB AFS;
// * `max_parsed_bytes`: most bytes handed to the MOTN and MT5 readers in all. Archive entries
//   may overlap, so one 20 KB motion file listed 50,000 times in an AFS would otherwise be
//   parsed (and held, with its curves and one listing per name) 50,000 times. All of
//   Shenmue's motion files together are a few MB;
// * `max_motion_names`: most animations (MOTN table entries) of all files together
//   (MOTION.BIN has 1559).

/// The Shenmue family.
///
/// Opening the built-in demo (a MOTN file and two MT5 models, made in memory) and posing its
/// walk through the human rig, IK included:
///
/// ```
/// use boneyard_core::{Document, Family, InputFile, NoCompanions, OpenOptions, Score};
///
/// let files = boneyard_shenmue::demo_files()?;
/// let inputs: Vec<InputFile> = files.into_iter().map(|(name, bytes)| InputFile::new(name, bytes)).collect();
/// assert_eq!(boneyard_shenmue::Shenmue.probe(&inputs[0].path, &inputs[0].data), Score::Magic);
/// // Shenmue's files have no companions: the resolver is never asked.
/// let doc = boneyard_shenmue::Shenmue.open(inputs, &OpenOptions::default(), &NoCompanions)?;
/// let walk = doc.find_animation("demo_walk")?;
/// assert_eq!(doc.animations()[walk].fps, 30.0); // the curve clock
/// let skeleton = doc.skeleton_for(walk).expect("the demo walk plays on a demo skeleton");
/// let world = doc.pose(skeleton, Some(walk), 5.0)?;
/// assert_eq!(world.len(), doc.skeletons()[skeleton].skeleton.len());
/// # Ok::<(), boneyard_core::Error>(())
/// ```
pub struct Shenmue;

/// One line naming everything the reader left out of `m` (listed sequences with their
/// names, unreferenced gaps, entries without readable action metadata); `None` when nothing.
pub fn left_out_summary(m: &MotnFile) -> Option<String> {
    let mut parts = Vec::new();
    let mut by_kind: std::collections::BTreeMap<String, (usize, Vec<&str>)> = Default::default();
    let names_of = m.listed_names();
    for (b, names) in m.blocks.iter().zip(&names_of) {
        if b.motion().is_some() {
            continue;
        }
        let e = by_kind.entry(format!("{} {:#06x}", b.layout.kind(), b.flag_high)).or_default();
        e.0 += 1;
        e.1.extend(names);
    }
    let seqs: usize = by_kind.values().map(|v| v.0).sum();
    let names: usize = by_kind.values().map(|v| v.1.len()).sum();
    if seqs > 0 {
        let kinds: Vec<String> =
            by_kind.iter().map(|(k, (n, names))| format!("{n} {k} ({})", names.join(", "))).collect();
        parts.push(format!(
            "{seqs} of {} sequences ({names} of {} names) listed, not decoded: {}",
            m.blocks.len(),
            m.entries.len(),
            kinds.join("; ")
        ));
    }
    if !m.gaps.is_empty() {
        let orphans = m.gaps.iter().filter(|g| g.orphan.is_some()).count();
        let bytes: usize = m.gaps.iter().map(|g| g.len).sum();
        parts.push(format!(
            "{} gaps of unreferenced bytes ({bytes} bytes; {orphans} hold a sequence no name points at)",
            m.gaps.len()
        ));
    }
    let (lo, hi) = m.meta_region;
    let no_meta =
        m.entries.iter().filter(|e| e.meta_offset != 0 && !(lo..hi).contains(&(e.meta_offset as usize))).count();
    if no_meta > 0 {
        parts.push(format!("{no_meta} entries whose action metadata offset lies outside the metadata region"));
    }
    (!parts.is_empty()).then(|| format!("left out: {} (one warning each, with its offset)", parts.join("; ")))
}

/// `left_out` is [`left_out_summary`] of `m`.
fn summary_of_motn(path: &str, m: &MotnFile, left_out: Option<&String>) -> FileSummary {
    // Counted by layout in one walk (no map keyed by the layout's name for 1319 blocks).
    let mut kinds = [0u64; 3];
    for b in &m.blocks {
        kinds[match b.layout {
            Layout::Curves(_) => 0,
            Layout::LegacyFrame32 { .. } => 1,
            Layout::Undecodable(_) => 2,
        }] += 1;
    }
    let mut notes = Vec::new();
    if let Some(t) = &m.timestamp {
        notes.push(format!("built {t}"));
    }
    notes.extend(left_out.cloned());
    FileSummary {
        path: path.to_string(),
        format: "Shenmue MOTN".into(),
        variant: "Shenmue I (Dreamcast)".into(),
        counts: vec![
            ("names".into(), m.entries.len() as u64),
            ("sequences".into(), m.blocks.len() as u64),
            ("decoded".into(), kinds[0]),
            ("legacy-frame32".into(), kinds[1]),
            ("undecodable".into(), kinds[2]),
        ],
        notes,
    }
}

/// The warnings of one MOTN file: the summary line (`left_out`, no offset), then one per
/// left-out item.
fn motn_warnings(path: &str, m: &MotnFile, left_out: Option<String>) -> Vec<Warning> {
    let mut out: Vec<Warning> = left_out.map(|s| Warning::in_file(path, s)).into_iter().collect();
    out.extend(m.warnings().into_iter().map(|(at, msg)| Warning::at(path, at, msg)));
    out
}

/// What was found inside the inputs.
#[derive(Default)]
struct Found {
    /// The caller's limits.
    limits: Limits,
    /// Bytes inflated from GZ so far (bounded across all nested archives).
    inflated: u64,
    /// Bytes handed to the readers so far, nested entries included (entries may overlap, so
    /// this bounds the work on hostile archives).
    examined: u64,
    /// Container entries listed so far, nested ones included.
    entries: usize,
    /// Bytes handed to the MOTN and MT5 readers so far.
    parsed: u64,
    /// MOTN table entries so far.
    animations: usize,
    summaries: Vec<FileSummary>,
    /// What the readers left out, each naming its file (as given, or the entry inside one).
    warnings: Vec<Warning>,
    motns: Vec<(String, MotnFile)>,
    models: Vec<(String, Mt5)>,
}

/// Identify `data` (a MOTN, an MT5 or a container) and collect what it holds.
/// Returns whether `data` was something this reader reads (a MOTN, an MT5, a container).
fn collect(name: &str, file: &bytes::Bytes, depth: usize, found: &mut Found, top: bool) -> Result<bool> {
    let data: &[u8] = file;
    use container::Kind;
    let limits = found.limits;
    limit!(limits, max_container_nesting).check(depth as u64, 0, "levels of nested containers").in_file(name)?;
    found.examined += data.len() as u64;
    limit!(limits, max_examined_bytes).check(found.examined, 0, "bytes of archive entries").in_file(name)?;
    let is_mt5 = data.get(..4) == Some(layout::mt5::MAGIC);
    // A file the user gave with a MOTN-shaped header is read as one even when its size field
    // disagrees, so the error names that field (inside archives, only self-consistent ones).
    let is_motn = !is_mt5 && (motn::looks_like_motn(data) || (top && motn::header_shape(data).is_some()));
    if is_mt5 || is_motn {
        found.parsed += data.len() as u64;
        limit!(limits, max_parsed_bytes).check(found.parsed, 0, "bytes of models and motions").in_file(name)?;
    }
    if is_mt5 {
        let m = Mt5::parse_with(data, &limits).in_file(name)?;
        let with_mesh = m.nodes.iter().filter(|n| n.mesh.is_some()).count() as u64;
        found.summaries.push(FileSummary {
            path: name.to_string(),
            format: "Shenmue MT5 model".into(),
            variant: "HRCM".into(),
            counts: vec![
                ("nodes".into(), m.nodes.len() as u64),
                ("meshes".into(), with_mesh),
                ("textures".into(), m.textures.len() as u64),
            ],
            notes: Vec::new(),
        });
        found.warnings.extend(m.skipped.iter().map(|(at, msg)| Warning::at(name, *at, msg.clone())));
        found.models.push((name.to_string(), m));
        return Ok(true);
    }
    if is_motn {
        let m = MotnFile::parse_shared(file, &limits).in_file(name)?;
        found.animations += m.entries.len();
        limit!(limits, max_motion_names)
            .check(found.animations as u64, layout::motn::ATTRIBUTES as u64, "animations named by the motions")
            .in_file(name)?;
        let left_out = left_out_summary(&m);
        found.summaries.push(summary_of_motn(name, &m, left_out.as_ref()));
        found.warnings.extend(motn_warnings(name, &m, left_out));
        found.motns.push((name.to_string(), m));
        return Ok(true);
    }
    // (entry name, its bytes, its offset in this file)
    let entries: Vec<(String, bytes::Bytes, usize)> = match container::kind_of(data) {
        Some(Kind::Gz) => {
            // What is left of the total: a GZ inside a GZ is inflated while the outer one is held.
            let inflated = limit!(limits, max_inflated_bytes);
            let left = inflated.max.saturating_sub(found.inflated);
            let d = container::gunzip_within(data, left, inflated).in_file(name)?;
            found.inflated += d.len() as u64;
            vec![(format!("{name}!gunzip"), bytes::Bytes::from(d), 0)]
        }
        Some(k) => {
            let max_entries = limit!(limits, max_entries);
            let list = match k {
                Kind::Pkf => container::read_pkf_with(data, max_entries),
                Kind::Pks => container::read_pks_with(data, max_entries),
                Kind::Ipac => container::read_ipac_with(data, 0, max_entries),
                _ => container::read_afs_with(data, max_entries),
            }
            .in_file(name)?;
            found.entries = found.entries.saturating_add(list.len());
            limit!(limits, max_total_entries)
                .check(found.entries as u64, 0, "entries listed by the containers (nested ones included)")
                .in_file(name)?;
            found.summaries.push(FileSummary {
                path: name.to_string(),
                format: format!("Shenmue container ({k:?})"),
                variant: String::new(),
                counts: vec![("entries".into(), list.len() as u64)],
                notes: list.iter().map(|e| format!("{} ({} bytes at {:#x})", e.name, e.data.len(), e.offset)).collect(),
            });
            // PKF chunks carry an 8-byte header before their payload.
            let skip = if k == Kind::Pkf { layout::container::CHUNK_HEADER } else { 0 };
            list.into_iter()
                .map(|e| {
                    let at = e.offset + skip.min(e.data.len());
                    (format!("{name}/{}", e.name), share(file, &e.data[skip.min(e.data.len())..]), at)
                })
                .collect()
        }
        None if top => return Err(Error::unsupported("not a Shenmue MOTN, MT5 or container").in_file(name)),
        None => return Ok(false), // textures, scripts... inside containers: not ours (warned below)
    };
    // Never silent: the entries that are none of ours are named, in one warning per container.
    let (total, mut unread) = (entries.len(), Vec::new());
    for (n, d, at) in entries {
        if !collect(&n, &d, depth + 1, found, false)? {
            unread.push((n, at));
        }
    }
    if let Some(&(_, first)) = unread.first() {
        let shown: Vec<String> = unread.iter().take(8).map(|(n, at)| format!("{n} (at {at:#x})")).collect();
        let more = if unread.len() > 8 { format!(" and {} more", unread.len() - 8) } else { String::new() };
        found.warnings.push(Warning::at(
            name,
            first as u64,
            format!(
                "{} of {total} entries are not MOTN, MT5 or containers and were not read: {}{more}",
                unread.len(),
                shown.join(", ")
            ),
        ));
    }
    Ok(true)
}

/// Open files given together (a MOTN bank, MT5 models, containers holding them), as every
/// family's `open_files` does.
pub fn open_files(files: Vec<InputFile>) -> Result<ShenmueDocument> {
    open_files_with(files, &Limits::default())
}

/// [`open_files`] within the caller's limits (from [`boneyard_core::OpenOptions::limits`]).
pub fn open_files_with(files: Vec<InputFile>, limits: &Limits) -> Result<ShenmueDocument> {
    open_files_picked(files, limits, None)
}

/// [`open_files_with`] keeping only the motion or model named `pick` inside the containers
/// (`--file`).
fn open_files_picked(files: Vec<InputFile>, limits: &Limits, pick: Option<&str>) -> Result<ShenmueDocument> {
    // The bytes move into the document (MOTN keys are decoded from them on first use).
    let named: Vec<(String, bytes::Bytes)> =
        files.into_iter().map(|f| (f.name(), bytes::Bytes::from(f.data))).collect();
    open_shared(&named, limits, pick)
}

/// The bytes of `part`, a slice of `file`, sharing `file`'s buffer (a copy if it is not one).
fn share(file: &bytes::Bytes, part: &[u8]) -> bytes::Bytes {
    let inside = file.as_ptr_range();
    if part.is_empty() || (inside.start <= part.as_ptr() && part.as_ptr_range().end <= inside.end) {
        file.slice_ref(part)
    } else {
        bytes::Bytes::copy_from_slice(part)
    }
}

/// Open in-memory files (what `Family::open` does, without touching the disk): MOTN files,
/// MT5 models, and GZ/PKF/PKS/IPAC/AFS containers holding them.
pub fn open_bytes(files: &[(String, &[u8])]) -> Result<ShenmueDocument> {
    open_bytes_with(files, &Limits::default())
}

/// [`open_bytes`] within the caller's limits.
pub fn open_bytes_with(files: &[(String, &[u8])], limits: &Limits) -> Result<ShenmueDocument> {
    let copied: Vec<(String, bytes::Bytes)> =
        files.iter().map(|(n, d)| (n.clone(), bytes::Bytes::copy_from_slice(d))).collect();
    open_shared(&copied, limits, None)
}

/// Whether `name` (a file as read: `x.afs/MOTION.BIN`, `MOTION.BIN.gz!gunzip`, `MOTION.BIN`)
/// is what `--file want` names: the whole name, the entry's own name after the last `/` or
/// `!`, or for an inflated GZ the name of the file it was (`MOTION.BIN` for
/// `MOTION.BIN.gz!gunzip`); ASCII case aside, as archives of the game spell names in capitals.
fn picked(name: &str, want: &str) -> bool {
    let own = name.rsplit(['/', '!']).next().unwrap_or(name);
    if name.eq_ignore_ascii_case(want) || own.eq_ignore_ascii_case(want) {
        return true;
    }
    // An inflated GZ is also the entry or file it was (`x.afs/MOT2.BIN.GZ`, as `info` lists
    // the archive's entries), and that file without `.gz`.
    name.strip_suffix("!gunzip").is_some_and(|gz| {
        let file = short_name(gz);
        let bare = file.get(..file.len().saturating_sub(3)).filter(|_| file.to_ascii_lowercase().ends_with(".gz"));
        picked(gz, want) || bare.is_some_and(|b| b.eq_ignore_ascii_case(want))
    })
}

/// `--file want`: only the motions and models of that name inside the containers given, with
/// the summaries and warnings of those and of the files given; none of that name is a usage
/// error naming the files there are.
fn keep_picked(found: &mut Found, given: &[(String, bytes::Bytes)], want: &str) -> Result<()> {
    let names: Vec<String> =
        found.motns.iter().map(|(n, _)| n.clone()).chain(found.models.iter().map(|(n, _)| n.clone())).collect();
    if !names.iter().any(|n| picked(n, want)) {
        let there = if names.is_empty() { "none".to_string() } else { names.join(", ") };
        return Err(Error::not_found(format!(
            "--file {want:?}: no motion or model of that name here (there are: {there})"
        )));
    }
    found.motns.retain(|(n, _)| picked(n, want));
    found.models.retain(|(n, _)| picked(n, want));
    let kept = |file: &str| picked(file, want) || given.iter().any(|(g, _)| g == file);
    found.summaries.retain(|s| kept(&s.path));
    found.warnings.retain(|w| kept(&w.file));
    Ok(())
}

fn open_shared(files: &[(String, bytes::Bytes)], limits: &Limits, pick: Option<&str>) -> Result<ShenmueDocument> {
    let mut found = Found { limits: *limits, ..Found::default() };
    for (name, data) in files {
        collect(name, data, 0, &mut found, true)?;
    }
    if let Some(want) = pick {
        keep_picked(&mut found, files, want)?;
    }
    // The rig's rest pose only when there are models to route onto it (a motion alone, as
    // MOTION.BIN, does not need it).
    let rig_rest = if found.models.is_empty() { Vec::new() } else { document::rig_skeleton().rest_world() };
    let mut rig_meshes = Vec::new();
    let mut skeletons = Vec::new();
    for (k, (name, m)) in found.models.iter().enumerate() {
        let (meshes, routed) = model::rig_meshes(m, &rig_rest);
        if routed > 0 {
            rig_meshes.extend(meshes);
        }
        let family = m.nodes.first().and_then(|n| n.declared_family());
        skeletons.push(document::ModelSkeleton {
            info: model::model_skeleton(m, &format!("mt5_{k}"), &short_name(name))?,
            routes: model::node_routes(m),
            family,
            nodes: m
                .nodes
                .iter()
                .map(|n| document::NodeFk {
                    parent: n.parent,
                    position: n.position,
                    rotation: n.rotation,
                    scale: n.scale,
                })
                .collect(),
        });
    }
    let mut doc = ShenmueDocument::new(found.summaries, found.motns, rig_meshes, skeletons, found.warnings)?;
    doc.limits = *limits;
    Ok(doc)
}

fn short_name(path: &str) -> String {
    boneyard_core::text::file_name(path).to_string()
}

impl Family for Shenmue {
    fn name(&self) -> &'static str {
        "shenmue"
    }
    fn title(&self) -> &'static str {
        "Shenmue (Sega, Dreamcast 1999)"
    }
    /// Magic: HRCM, PAKF, PAKS, IPAC, AFS, or a MOTN header whose size field is the file's
    /// length. Structure: a `.bin` with a MOTN-shaped header whose size disagrees (taken so
    /// that `open` names the lying size and its offset). Extension: gzip (no one's own magic)
    /// with a Shenmue extension (.gz, .pkf, .pks, .mt5).
    fn probe(&self, path: &Path, head: &[u8]) -> Score {
        use container::Kind;
        if head.get(..4) == Some(layout::mt5::MAGIC) || motn::looks_like_motn(head) {
            return Score::Magic;
        }
        let ext = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
        match container::kind_of(head) {
            Some(Kind::Gz) if matches!(ext.as_str(), "gz" | "pkf" | "pks" | "mt5") => Score::Extension,
            Some(Kind::Gz) => Score::No,
            Some(_) => Score::Magic,
            None if ext == "bin" && motn::header_shape(head).is_some() => Score::Structure,
            None => Score::No,
        }
    }
    /// `pick` keeps the motion or model of that name inside the containers given (see
    /// [`Family::open`]); `runtime` has no Shenmue keys; Shenmue's files have no companions.
    fn open(
        &self,
        files: Vec<InputFile>,
        options: &OpenOptions,
        _companions: &dyn Companions,
    ) -> Result<Box<dyn Document>> {
        Ok(Box::new(open_files_picked(files, &options.limits, options.pick.as_deref())?))
    }
    /// `demo_motion.bin`, `demo_body.mt5`, `demo_character.mt5` (see [`demo_files`]).
    fn demo_files(&self) -> Result<Vec<(String, Vec<u8>)>> {
        demo::demo_files()
    }
    /// The curves' clock: 30 frames a second.
    fn import_fps(&self) -> Option<f64> {
        Some(document::FPS)
    }
    /// MOTN sequences on the human rig in a copy of the one MOTN file of `into` (see [`import_clips`]).
    fn import_clips(
        &self,
        into: Vec<InputFile>,
        clips: &[boneyard_core::Clip],
        options: &boneyard_core::ImportOptions,
        _companions: &dyn Companions,
    ) -> Result<boneyard_core::Imported> {
        import::import_clips(into, clips, options)
    }
}
