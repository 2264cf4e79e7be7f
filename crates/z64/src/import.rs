//! Write-back: [`Clip`]s encoded as Zelda 64 animations on a skeleton of the `into` files.
//!
//! * **Joint tables.** Per frame, joint 0 is the root limb's translation (rounded to the s16
//!   the game stores, in the skeleton's units) and joint `l + 1` limb `l`'s rotation as Z-Y-X
//!   binary angles, solved against the game's own matrix arithmetic and kept continuous from
//!   frame to frame ([`crate::euler`]). Other limbs' translations and any scale are not in the
//!   format (a warning names the limbs that had them).
//! * **Normal animations** (20 fps): the 3 × joints channels, each constant one folded into the
//!   static values (one slot per distinct value, indices below `staticIndexMax`), the others
//!   `frames` values each after them; `frameData | jointIndices | AnimationHeader` appended to
//!   a copy of the skeleton's file, 16-byte aligned as the game's object files lay them out.
//! * **Link's animations** (Link's 21-limb skeletons in `object_link_boy`/`object_link_child`;
//!   30 fps): 134-byte frames (22 joints and the face word) appended to a copy of
//!   `link_animetion`, the 8-byte `LinkAnimationHeader`s (segment 7 pointers) appended to a copy
//!   of `gameplay_keep`. The face word is copied from `--like ANIM` frame by frame (its last
//!   frame past its end), else 0 (the actor's default eyes and mouth); a warning says which.
//! * **Decomp files.** `<file>_imported.c` (the arrays and headers as the decomp's C writes
//!   them) and `<file>_imported.xml` (the asset XML entries with the offsets in the written
//!   files), [`decomp`].
//! * **Read back.** The written files are opened again by the reader ([`crate::open_files`]):
//!   each new animation must be found at its offset with its frame count, and its joint table
//!   at every frame must equal what was encoded; otherwise nothing is returned.

pub mod decomp;

use crate::anim::AnimKind;
use crate::document::Z64Document;
use crate::euler;
use crate::layout::{LINK_ANIMATION_HEADER_SIZE, LINK_FRAME_SIZE, LINK_JOINTS, SEG_LINK_ANIMETION};
use crate::skeleton::{SkelDef, SkelType};
use boneyard_core::{Clip, Document, Error, ImportOptions, Imported, ImportedAnim, ImportedFile, InputFile, Result};
use boneyard_core::{Endian, Warning, Writer};
use serde_json::json;

/// Normal animations: one frame a game update (20 a second), as `list` reports them.
pub const NORMAL_FPS: f64 = 20.0;
/// Link's animations: 1.5 frames a game update (30 a second), as `list` reports them.
pub const LINK_FPS: f64 = 30.0;
/// Largest frame count (`frameCount` is an s16). A fact of the format, not a `Limits` field.
pub const MAX_FRAMES: usize = 0x7FFF;

/// Is a skeleton of `limbs` limbs in the file `stem` one of Link's (animated by player
/// animations from gameplay_keep and link_animetion)?
pub fn is_link_skeleton(stem: &str, limbs: usize) -> bool {
    crate::build::is_link_object(stem) && limbs == LINK_JOINTS - 1
}

/// The frame rate clips for skeleton `skeleton` of a z64 document are sampled at.
pub fn fps_for(doc: &dyn Document, skeleton: usize) -> f64 {
    let Some(s) = doc.skeletons().get(skeleton) else { return NORMAL_FPS };
    let stem = s.extra.get("file").and_then(|v| v.as_str()).unwrap_or("");
    if is_link_skeleton(&stem.to_lowercase(), s.skeleton.len()) {
        LINK_FPS
    } else {
        NORMAL_FPS
    }
}

/// One clip as the game's numbers.
#[derive(Debug, Clone)]
pub struct Encoded {
    /// The clip's name.
    pub name: String,
    /// The C symbol of its header.
    pub symbol: String,
    /// Per frame, the joint table (limbs + 1 entries).
    pub joints: Vec<Vec<[i16; 3]>>,
    /// Link's animations: the face word of every frame.
    pub faces: Option<Vec<u16>>,
    /// Largest element difference between the game's rotation matrix of the angles written and
    /// the clip's rotation, over every limb and frame.
    pub max_rotation_error: f64,
    /// The animation of the `--into` files whose stored angles were preferred ([`Original`]), and
    /// how many limb rotations (frame x limb) were written as it stores them.
    pub original: Option<(String, usize)>,
}

/// An animation of the `--into` files the clip was made from (its own name, or `--like`): where
/// the game computes the same rotation from its stored angles as from the solved ones, the
/// stored ones are written. The sine table's steps of 16 and gimbal lock leave many triples of
/// one matrix; the solver cannot know which one Nintendo stored, but the original can say, so
/// that an unedited round trip writes the game's own numbers (what a decomp's matching build and
/// a tool reading the angles exactly, as fast64 does, see) and an edit changes only what it moved.
pub struct Original<'a> {
    /// Its name (for the report).
    pub name: &'a str,
    /// Per frame, its joint table (limbs + 1 entries).
    pub joints: &'a [Vec<[i16; 3]>],
}

/// The joint tables of `clip` on skeleton `s` (bone names `names`, in bone order).
pub fn clip_joints(
    clip: &Clip,
    s: &SkelDef,
    names: &[String],
    fps: f64,
    original: Option<&Original>,
    warnings: &mut Vec<Warning>,
) -> Result<Encoded> {
    let err = |m: String| Error::unplaced(format!("clip {:?}: {m}", clip.name)).in_file(&clip.source);
    clip.validate()?;
    if clip.bones != names {
        return Err(err(format!("its bones are not the {} limbs of skeleton {} in order", s.limbs.len(), s.name)));
    }
    if clip.fps != fps {
        return Err(err(format!("sampled at {} fps; these animations play at {fps} fps", clip.fps)));
    }
    let frames = clip.frames();
    if frames > MAX_FRAMES {
        return Err(err(format!("{frames} frames; a Zelda 64 animation holds at most {MAX_FRAMES} (s16)")));
    }
    if !clip.animated.iter().any(|&a| a) {
        return Err(err(format!("no bone of it matches a limb of skeleton {}", s.name)));
    }
    let limbs = s.limbs.len();
    let mut joints = vec![vec![[0i16; 3]; limbs + 1]; frames];
    // The root translation, rounded to the game's s16.
    let root_bone = s.bone_of_limb[0];
    for (f, pose) in clip.poses.iter().enumerate() {
        let t = pose[root_bone].translation;
        for c in 0..3 {
            let v = t[c].round();
            if !(-32768.0..=32767.0).contains(&v) {
                return Err(err(format!(
                    "bone {:?} frame {f}: translation {} is outside the s16 range the game stores",
                    names[root_bone], t[c]
                )));
            }
            joints[f][0][c] = v as i16;
        }
    }
    let mut max_error = 0f64;
    let mut moved = Vec::new();
    let mut scaled = Vec::new();
    for l in 0..limbs {
        let b = s.bone_of_limb[l];
        let track: Vec<(glam::Quat, glam::Vec3)> = clip.poses.iter().map(|p| (p[b].rotation, p[b].scale)).collect();
        let targets = euler::scaled_targets(&track);
        for (f, sol) in euler::solve_matrices(&targets).into_iter().enumerate() {
            joints[f][l + 1] = sol.angles;
            let mut error = sol.error;
            // The original's angles where the game's matrix of them is as close to the clip's
            // as the solved angles' is: in an unedited clip's frames the same matrix bit for bit,
            // or closer (among candidates within f32 noise of the best, the solver takes the one
            // nearest the previous frame's). After the solve, which keeps its own continuity.
            if let Some(&stored) = original.and_then(|o| o.joints.get(f)).and_then(|t| t.get(l + 1)) {
                let kept = euler::max_diff(&euler::game_rotation(stored), &targets[f]);
                if stored != sol.angles && kept <= sol.error {
                    joints[f][l + 1] = stored;
                    error = kept;
                }
            }
            max_error = max_error.max(error);
        }
        let rest = glam::Vec3::from_array(s.limbs[l].pos);
        if l != 0 && clip.poses.iter().any(|p| (p[b].translation - rest).abs().max_element() > 0.5) {
            moved.push(names[b].clone());
        }
        if clip.poses.iter().any(|p| (p[b].scale - glam::Vec3::ONE).abs().max_element() > 1e-3) {
            scaled.push(names[b].clone());
        }
    }
    let warn =
        |w: &mut Vec<Warning>, m: String| w.push(Warning::in_file(&clip.source, format!("clip {:?}: {m}", clip.name)));
    if !moved.is_empty() {
        warn(warnings, format!("Zelda 64 animations move only the root limb; the translations of {} are not kept (their limbs keep their joint positions)", moved.join(", ")));
    }
    if !scaled.is_empty() {
        warn(warnings, format!("Zelda 64 animations hold no scale; the scales of {} are not kept", scaled.join(", ")));
    }
    let symbol = decomp::c_symbol(&clip.name);
    if symbol != clip.name {
        warn(warnings, format!("named {symbol} in the C and XML: a C name holds ASCII letters, digits and _ only, and does not start with a digit"));
    }
    let original = original.map(|o| {
        let same = joints
            .iter()
            .zip(o.joints)
            .map(|(new, old)| (1..=limbs).filter(|&j| old.get(j) == Some(&new[j])).count())
            .sum();
        (o.name.to_string(), same)
    });
    Ok(Encoded { name: clip.name.clone(), symbol, joints, faces: None, max_rotation_error: max_error, original })
}

/// A normal animation's data: the values (statics first) and each joint's indices.
#[derive(Debug, Clone, PartialEq)]
pub struct NormalData {
    /// The value list (`frameData`): constant values first, then each varying channel's frames.
    pub frame_data: Vec<i16>,
    /// Per joint, the x, y, z indices into `frame_data` (`JointIndex`).
    pub joint_indices: Vec<[u16; 3]>,
    /// `staticIndexMax`: indices below it are constants.
    pub static_max: u16,
    /// The layout it was made in.
    pub layout: StaticOrder,
}

/// How a file's normal animations lay out their frame data: each constant channel's value
/// once in the static values, joint by joint, then each moving channel's frames, in one of the
/// ways Nintendo's converter wrote them. Most OoT objects put the root's translation at frame 0
/// among the static values whether or not it moves (a value no index may use); some take limb
/// 0's rotation before the root's translation (object_dekunuts, whose moving root stays out;
/// Epona's, whose moving limb 0 comes first). Chosen per file ([`StaticOrder::of_file`]), the
/// four give Nintendo's bytes for all 445 normal animations the objects pair with a skeleton of
/// their file (one plain layout for all: 174).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StaticOrder {
    /// The root's translation at frame 0 enters the static values even where it moves.
    pub root_always: bool,
    /// Limb 0 comes before the root: its constant values among the static values, its moving
    /// channels among the frames.
    pub limb_first: bool,
}

impl Default for StaticOrder {
    /// The most common: the whole root first.
    fn default() -> Self {
        StaticOrder { root_always: true, limb_first: false }
    }
}

impl StaticOrder {
    /// Every layout, the default first.
    pub const ALL: [StaticOrder; 4] = [
        StaticOrder { root_always: true, limb_first: false },
        StaticOrder { root_always: false, limb_first: false },
        StaticOrder { root_always: true, limb_first: true },
        StaticOrder { root_always: false, limb_first: true },
    ];

    /// The order joints `0..count` are laid out in.
    fn joints(self, count: usize) -> Vec<usize> {
        if self.limb_first && count > 1 {
            [1, 0].into_iter().chain(2..count).collect()
        } else {
            (0..count).collect()
        }
    }

    /// The static table of `joints` (per frame, the joint table) in this order.
    pub fn statics(self, joints: &[Vec<[i16; 3]>]) -> Vec<i16> {
        let count = joints.first().map_or(0, |j| j.len());
        let mut statics: Vec<i16> = Vec::new();
        for j in self.joints(count) {
            for c in 0..3 {
                let first = joints[0][j][c];
                let constant = joints.iter().all(|t| t[j][c] == first);
                if (constant || (self.root_always && j == 0)) && !statics.contains(&first) {
                    statics.push(first);
                }
            }
        }
        statics
    }

    /// The layout whose static values and joint indices most of `doc`'s normal animations in
    /// file `file` (a document file index) reproduce, so that a clip appended there is laid out
    /// as its neighbours are; the default where none is reproduced (or there are none).
    pub fn of_file(doc: &Z64Document, file: usize) -> StaticOrder {
        let mut votes = [0usize; StaticOrder::ALL.len()];
        for (i, a) in doc.found.anims.iter().enumerate() {
            if doc.found.ctxs[a.ctx].1 != file || !matches!(a.kind, AnimKind::Normal { .. }) {
                continue;
            }
            let Ok(Some(stored)) = doc.normal_layout(i) else { continue };
            let Ok(tables) = doc.joint_tables(i) else { continue };
            if tables.is_empty() {
                continue;
            }
            for (k, order) in StaticOrder::ALL.into_iter().enumerate() {
                let same = normal_data(&a.name, &tables, order).is_ok_and(|nd| {
                    nd.frame_data[..nd.static_max as usize] == stored.statics[..] && nd.joint_indices == stored.indices
                });
                votes[k] += usize::from(same);
            }
        }
        // The most votes; on a tie the earlier (the default first).
        let best = (0..votes.len()).fold(0, |b, k| if votes[k] > votes[b] { k } else { b });
        StaticOrder::ALL[best]
    }
}

/// Fold the joint tables into `frameData`, `jointIndices` and `staticIndexMax`, the static
/// values in `order`.
pub fn normal_data(name: &str, joints: &[Vec<[i16; 3]>], order: StaticOrder) -> Result<NormalData> {
    let frames = joints.len();
    let count = joints.first().map_or(0, |j| j.len());
    let channel = |j: usize, c: usize| joints.iter().map(move |t| t[j][c]);
    let statics = if joints.is_empty() { Vec::new() } else { order.statics(joints) };
    let mut varying: Vec<(usize, usize)> = Vec::new();
    for j in order.joints(count) {
        for (c, &first) in joints[0][j].iter().enumerate() {
            if !channel(j, c).all(|v| v == first) {
                varying.push((j, c));
            }
        }
    }
    let static_max = statics.len();
    let mut frame_data = statics.clone();
    let mut joint_indices = vec![[0u16; 3]; count];
    for j in 0..count {
        for c in 0..3 {
            if let Some(k) = varying.iter().position(|&v| v == (j, c)) {
                let start = static_max + k * frames;
                let start = u16::try_from(start).map_err(|_| {
                    // (No byte of a file holds it: the clip is being made.)
                    Error::new(boneyard_core::ErrorKind::Ceiling(format!(
                            "clip {name:?}: joint {j} axis {c} would start at value {start}, past the u16 joint indices ({} varying channels x {frames} frames)",
                            varying.len()
                        )))
                })?;
                joint_indices[j][c] = start;
            } else {
                let v = joints[0][j][c];
                joint_indices[j][c] = statics.iter().position(|&s| s == v).unwrap_or(0) as u16;
            }
        }
    }
    for &(j, c) in &varying {
        frame_data.extend(channel(j, c));
    }
    Ok(NormalData { frame_data, joint_indices, static_max: static_max as u16, layout: order })
}

fn pad_to(out: &mut Vec<u8>, align: usize) {
    while !out.len().is_multiple_of(align) {
        out.push(0);
    }
}

/// The output name of a file of the document: its own name without folders or ROM prefix.
fn out_name(name: &str) -> String {
    let n = name.rsplit('#').next().unwrap_or(name);
    boneyard_core::text::file_name(n).to_string()
}

/// Where one clip went.
#[derive(Debug, Clone)]
pub struct Placed {
    /// The clip as encoded.
    pub enc: Encoded,
    /// Header offset in its file.
    pub header: usize,
    /// Normal: frame data and joint indices offsets; Link: frame data offset in link_animetion.
    pub frame_data: usize,
    /// Normal: the joint index table's offset (None for Link).
    pub joint_indices: Option<usize>,
    /// Normal: the folded data written (None for Link).
    pub normal: Option<NormalData>,
}

/// [`boneyard_core::Family::import_clips`] for Zelda 64: `into` opened as one document, the
/// clips written onto its skeleton `options.skeleton` (see the module documentation).
pub fn import_clips(
    into: Vec<InputFile>,
    clips: &[Clip],
    options: &ImportOptions,
    companions: &dyn boneyard_core::Companions,
) -> Result<Imported> {
    let doc = crate::open_files_running(into, &[], None, crate::runtime::RuntimeState::default(), companions)?;
    let d: &dyn Document = &doc;
    let si = match &options.skeleton {
        Some(s) => d.find_skeleton(s)?,
        None if d.skeletons().is_empty() => return Err(Error::unplaced("the --into files hold no skeleton")),
        None => 0,
    };
    let s = &doc.found.skels[si];
    let info = &d.skeletons()[si];
    let home = doc.found.ctxs[s.ctx].1;
    let home_file = &doc.files[home];
    if matches!(s.ty, SkelType::Legacy | SkelType::KeyFrame { .. } | SkelType::Curve) {
        return Err(Error::unsupported(format!(
            "skeleton {} is a {} skeleton; animations are written for SkelAnime (Normal and Flex) skeletons",
            s.name,
            s.ty.name()
        ))
        .in_file(home_file.name.clone()));
    }
    let names: Vec<String> = info.skeleton.bones.iter().map(|b| b.name.clone()).collect();
    if s.limbs.is_empty() || names.len() != s.limbs.len() {
        return Err(
            Error::unplaced(format!("skeleton {} has no limbs to animate", s.name)).in_file(home_file.name.clone())
        );
    }
    let link = is_link_skeleton(&home_file.stem, s.limbs.len());
    let fps = if link { LINK_FPS } else { NORMAL_FPS };
    let mut out = Imported::default();
    out.read_warnings.extend(d.warnings().iter().cloned());
    // Options of the other games' writers: said, not silently ignored.
    if let Some(k) = options.key_size {
        out.warnings.push(Warning::in_file(
            &home_file.name,
            format!("key size {k} is for Oni; Zelda 64 animations hold a value per frame (ignored)"),
        ));
    }
    if let Some(t) = options.tolerance {
        out.warnings.push(Warning::in_file(&home_file.name, format!("tolerance {t} is for the writers that drop keys (Oni, Shenmue); Zelda 64 animations keep every frame (ignored)")));
    }
    let mut encs = Vec::with_capacity(clips.len());
    // A normal animation's frame data, made here so that its limit (the u16 indices bound frames
    // x varying channels) is said naming the glTF, before anything is written.
    let mut datas = Vec::with_capacity(clips.len());
    let mut taken = std::collections::HashSet::new();
    let like = options.like.as_deref().map(|l| d.find_animation(l)).transpose()?;
    let order = if link { StaticOrder::default() } else { StaticOrder::of_file(&doc, home) };
    for clip in clips {
        // The animation the clip was made from: --like's, else the one of its name that plays on
        // this skeleton.
        let from = like.or_else(|| {
            d.animations()
                .iter()
                .position(|a| a.name == clip.name && (a.skeleton == Some(si) || d.also_plays_on(a.index).contains(&si)))
        });
        let stored = match from {
            Some(i) => Some(stored_joints(&doc, i, s.limbs.len(), &home_file.name, &mut out.warnings)),
            None => None,
        }
        .flatten();
        let original = stored.as_ref().zip(from).map(|(t, i)| Original { name: &d.animations()[i].name, joints: t });
        let mut e = clip_joints(clip, s, &names, fps, original.as_ref(), &mut out.warnings)?;
        if !link {
            datas.push(normal_data(&e.name, &e.joints, order).map_err(|err| err.in_file(&clip.source))?);
        }
        if d.animations().iter().any(|a| a.name == e.symbol) {
            let was = e.symbol.clone();
            e.symbol.push_str("_imported");
            out.warnings.push(Warning::in_file(
                &clip.source,
                format!(
                    "clip {:?}: {was} is an animation of the --into files already; the new one is {} in the C and XML",
                    clip.name, e.symbol
                ),
            ));
        }
        if !taken.insert(e.symbol.clone()) {
            return Err(Error::unplaced(format!(
                "clip {:?}: a second clip would also be named {}",
                clip.name, e.symbol
            ))
            .in_file(&clip.source));
        }
        encs.push(e);
    }
    if link {
        import_link(&doc, si, encs, options, &mut out)?;
    } else {
        import_normal(&doc, si, encs, datas, &mut out)?;
    }
    Ok(out)
}

/// Animation `anim`'s joint table at every frame, when it has a joint for each of the skeleton's
/// `limbs` limbs and the root (else a warning: its angles cannot stand for the skeleton's).
fn stored_joints(
    doc: &Z64Document,
    anim: usize,
    limbs: usize,
    file: &str,
    warnings: &mut Vec<Warning>,
) -> Option<Vec<Vec<[i16; 3]>>> {
    let a = &(doc as &dyn Document).animations()[anim];
    let tables = doc.joint_tables(anim);
    let skip = |m: String| Warning::in_file(file, format!("animation {}: {m}; its stored angles are not kept", a.name));
    match tables {
        Ok(t) if t.iter().all(|j| j.len() == limbs + 1) => Some(t),
        Ok(t) => {
            let n = t.iter().map(Vec::len).find(|&n| n != limbs + 1).unwrap_or(0);
            warnings.push(skip(format!("{n} joints a frame, the skeleton's animations {}", limbs + 1)));
            None
        }
        Err(e) => {
            warnings.push(skip(format!("does not read ({e})")));
            None
        }
    }
}

fn be_words(w: &mut Writer, v: &[i16]) {
    for &x in v {
        w.u16(x as u16);
    }
}

/// `encs` appended to the skeleton's file as normal animations of frame data `datas` (one each).
fn import_normal(
    doc: &Z64Document,
    si: usize,
    encs: Vec<Encoded>,
    datas: Vec<NormalData>,
    out: &mut Imported,
) -> Result<()> {
    let s = &doc.found.skels[si];
    let home = doc.found.ctxs[s.ctx].1;
    let file = &doc.files[home];
    let seg = (file.segment as u32) << 24;
    let mut bytes = file.data.clone();
    let mut placed = Vec::with_capacity(encs.len());
    for (enc, nd) in encs.into_iter().zip(datas) {
        pad_to(&mut bytes, 16);
        let fd = bytes.len();
        let mut w = Writer::new(Endian::Big);
        be_words(&mut w, &nd.frame_data);
        bytes.extend(w.into_bytes());
        pad_to(&mut bytes, 4);
        let ji = bytes.len();
        let mut w = Writer::new(Endian::Big);
        for j in &nd.joint_indices {
            for &v in j {
                w.u16(v);
            }
        }
        bytes.extend(w.into_bytes());
        pad_to(&mut bytes, 4);
        let header = bytes.len();
        if header + 16 > 0xFF_FFFF {
            return Err(Error::ceiling(
                0,
                format!("clip {:?}: {} would pass the 16 MiB a segment addresses", enc.name, file.shown),
            ));
        }
        let mut w = Writer::new(Endian::Big);
        w.u16(enc.joints.len() as u16);
        w.u16(0);
        w.u32(seg | fd as u32);
        w.u32(seg | ji as u32);
        w.u16(nd.static_max);
        w.u16(0);
        bytes.extend(w.into_bytes());
        placed.push(Placed { enc, header, frame_data: fd, joint_indices: Some(ji), normal: Some(nd) });
    }
    pad_to(&mut bytes, 16);
    let name = out_name(&file.name);
    let mut inputs = vec![InputFile::new(&name, bytes.clone())];
    if crate::build::is_gameplay_keep(&file.stem) {
        if let Some(la) = doc.found.link_animetion {
            inputs.push(InputFile::new("link_animetion", doc.files[la].data.clone()));
        }
    }
    let anims = read_back(inputs, &name, &placed, doc.skeletons()[si].name.as_str(), NORMAL_FPS, out)?;
    let format = format!(
        "Zelda 64 {} (segment {}) with {} appended",
        file.shown,
        file.segment,
        boneyard_core::text::counted(placed.len(), "animation", "animations")
    );
    out.files.push(ImportedFile { name: name.clone(), bytes, format, animations: anims });
    let (c, xml) = decomp::normal_files(&file.shown, file.segment, &placed);
    let stem = file.shown.clone();
    out.files.push(ImportedFile {
        name: format!("{stem}_imported.c"),
        bytes: c.into_bytes(),
        format: "decomp C (AnimationHeader, frame data, joint indices)".into(),
        animations: vec![],
    });
    out.files.push(ImportedFile {
        name: format!("{stem}_imported.xml"),
        bytes: xml.into_bytes(),
        format: "decomp asset XML (ZAPD)".into(),
        animations: vec![],
    });
    Ok(())
}

fn import_link(
    doc: &Z64Document,
    si: usize,
    mut encs: Vec<Encoded>,
    options: &ImportOptions,
    out: &mut Imported,
) -> Result<()> {
    let s = &doc.found.skels[si];
    let home = doc.found.ctxs[s.ctx].1;
    let object = &doc.files[home];
    let (Some(gk), Some(la)) = (doc.found.gameplay_keep, doc.found.link_animetion) else {
        return Err(Error::unplaced(format!("skeleton {} is Link's: his animations are written into gameplay_keep and link_animetion; give them with --into (or put them beside the object)", s.name),
        )
        .in_file(object.name.clone()));
    };
    // The face words.
    let d: &dyn Document = doc;
    let like = match &options.like {
        Some(l) => {
            let i = d.find_animation(l)?;
            if !matches!(doc.found.anims[i].kind, AnimKind::Link { .. }) {
                return Err(Error::unplaced(format!(
                    "--like {l}: not one of Link's animations (it has no face words)"
                )));
            }
            Some(i)
        }
        None => None,
    };
    for e in &mut encs {
        let frames = e.joints.len();
        let faces = match like {
            Some(i) => {
                let n = doc.found.anims[i].frames as usize;
                if n != frames {
                    out.warnings.push(Warning::in_file(
                        object.name.clone(),
                        format!("clip {:?}: --like {} has {n} frames, the clip {frames}: its last face word holds past its end", e.name, d.animations()[i].name),
                    ));
                }
                (0..frames)
                    .map(|f| Ok(doc.joint_table(i, f.min(n - 1))?.face.unwrap_or(0)))
                    .collect::<Result<Vec<u16>>>()?
            }
            None => {
                out.warnings.push(Warning::in_file(
                    object.name.clone(),
                    format!("clip {:?}: face word 0 at every frame (the actor's default eyes and mouth); --like ANIM copies an animation's", e.name),
                ));
                vec![0; frames]
            }
        };
        e.faces = Some(faces);
    }
    let mut la_bytes = doc.files[la].data.clone();
    let mut gk_bytes = doc.files[gk].data.clone();
    pad_to(&mut gk_bytes, 16);
    let mut placed = Vec::with_capacity(encs.len());
    for enc in encs {
        pad_to(&mut la_bytes, 16);
        let fd = la_bytes.len();
        let mut w = Writer::new(Endian::Big);
        for (f, t) in enc.joints.iter().enumerate() {
            for j in t {
                be_words(&mut w, j);
            }
            w.u16(enc.faces.as_ref().map_or(0, |v| v[f]));
        }
        la_bytes.extend(w.into_bytes());
        if la_bytes.len() > 0xFF_FFFF {
            return Err(Error::ceiling(
                0,
                format!("clip {:?}: link_animetion would pass the 16 MiB segment 7 addresses", enc.name),
            ));
        }
        let header = gk_bytes.len();
        let mut w = Writer::new(Endian::Big);
        w.u16(enc.joints.len() as u16);
        w.u16(0);
        w.u32((SEG_LINK_ANIMETION as u32) << 24 | fd as u32);
        gk_bytes.extend(w.into_bytes());
        debug_assert_eq!(gk_bytes.len(), header + LINK_ANIMATION_HEADER_SIZE);
        placed.push(Placed { enc, header, frame_data: fd, joint_indices: None, normal: None });
    }
    pad_to(&mut la_bytes, 16);
    pad_to(&mut gk_bytes, 16);
    let obj_name = out_name(&object.name);
    let inputs = vec![
        InputFile::new(&obj_name, object.data.clone()),
        InputFile::new("gameplay_keep", gk_bytes.clone()),
        InputFile::new("link_animetion", la_bytes.clone()),
    ];
    let anims = read_back(inputs, "gameplay_keep", &placed, doc.skeletons()[si].name.as_str(), LINK_FPS, out)?;
    let n = placed.len();
    out.files.push(ImportedFile {
        name: "gameplay_keep".into(),
        bytes: gk_bytes,
        format: format!(
            "Zelda 64 gameplay_keep with {} appended",
            boneyard_core::text::counted(n, "Link animation header", "Link animation headers")
        ),
        animations: anims,
    });
    out.files.push(ImportedFile {
        name: "link_animetion".into(),
        bytes: la_bytes,
        format: format!(
            "Zelda 64 link_animetion with the frames of {} appended ({LINK_FRAME_SIZE} bytes a frame)",
            boneyard_core::text::counted(n, "animation", "animations")
        ),
        animations: vec![],
    });
    let (c, xml) = decomp::link_files(&placed);
    out.files.push(ImportedFile {
        name: "player_anim_imported.c".into(),
        bytes: c.into_bytes(),
        format: "decomp C (LinkAnimationHeader, frame data)".into(),
        animations: vec![],
    });
    out.files.push(ImportedFile {
        name: "player_anim_imported.xml".into(),
        bytes: xml.into_bytes(),
        format: "decomp asset XML (ZAPD)".into(),
        animations: vec![],
    });
    Ok(())
}

/// Open the written files, find every placed animation in `file` at its offset with its frame
/// count and check its joint table (and face word) at every frame.
fn read_back(
    inputs: Vec<InputFile>,
    file: &str,
    placed: &[Placed],
    skeleton: &str,
    fps: f64,
    out: &mut Imported,
) -> Result<Vec<ImportedAnim>> {
    let back = crate::open_files(inputs)
        .map_err(|e| Error::unplaced(format!("the written files do not read back: {e}")).in_file(file))?;
    let bd: &dyn Document = &back;
    let mut anims = Vec::with_capacity(placed.len());
    for p in placed {
        let bad = |m: String| {
            Error::invalid(p.header as u64, format!("read back of clip {:?}: {m}", p.enc.name)).in_file(file)
        };
        let at =
            back.found.anims.iter().position(|a| {
                a.addr & 0xFF_FFFF == p.header as u32 && back.files[back.found.ctxs[a.ctx].1].name == file
            });
        let Some(i) = at else { return Err(bad(format!("no animation found at {:#X}", p.header))) };
        let a = &back.found.anims[i];
        if a.frames as usize != p.enc.joints.len() {
            return Err(bad(format!("{} frames, {} written", a.frames, p.enc.joints.len())));
        }
        for (f, want) in p.enc.joints.iter().enumerate() {
            let jt = back.joint_table(i, f)?;
            if &jt.joints != want {
                return Err(bad(format!("joint table of frame {f} differs")));
            }
            if let Some(faces) = &p.enc.faces {
                if jt.face != Some(faces[f]) {
                    return Err(bad(format!("face word of frame {f} differs")));
                }
            }
        }
        let paired = a.skeleton.map(|s| bd.skeletons()[s].name.as_str());
        // A clip that fits several skeletons and names none of them more is written with each
        // (`also`): it is the target's too.
        let also = a.also.iter().any(|&s| bd.skeletons()[s].name == skeleton);
        if paired != Some(skeleton) && !also {
            out.warnings.push(Warning::at(
                file,
                p.header as u64,
                format!(
                    "the new animation {} reads back paired with skeleton {}, not {skeleton} (another skeleton of as many limbs)",
                    p.enc.name,
                    paired.unwrap_or("(none)")
                ),
            ));
        }
        let mut extra = serde_json::Map::new();
        extra.insert("symbol".into(), json!(p.enc.symbol));
        extra.insert("kind".into(), json!(a.kind.name()));
        extra.insert("skeleton".into(), json!(skeleton));
        extra.insert("read_back_name".into(), json!(a.name));
        extra.insert("frame_data".into(), json!(format!("0x{:X}", p.frame_data)));
        if let Some(ji) = p.joint_indices {
            extra.insert("joint_indices".into(), json!(format!("0x{ji:X}")));
        }
        if let Some(nd) = &p.normal {
            extra.insert("static_index_max".into(), json!(nd.static_max));
            // The layout taken from the file's own animations (`StaticOrder::of_file`).
            extra.insert(
                "frame_data_layout".into(),
                json!({"root_always": nd.layout.root_always, "limb_first": nd.layout.limb_first}),
            );
            extra.insert("values".into(), json!(nd.frame_data.len()));
        } else {
            extra.insert("frame_data_file".into(), json!("link_animetion"));
        }
        extra.insert("max_rotation_error".into(), json!(p.enc.max_rotation_error));
        if let Some((name, same)) = &p.enc.original {
            // How many limb rotations (frame x limb) are the original's stored angles.
            extra.insert("original".into(), json!(name));
            extra.insert("original_rotations_kept".into(), json!(same));
            extra.insert(
                "rotations".into(),
                json!(p.enc.joints.len() * p.enc.joints.first().map_or(0, |j| j.len() - 1)),
            );
        }
        anims.push(ImportedAnim {
            name: p.enc.name.clone(),
            index: i,
            offset: Some(p.header as u64),
            frames: p.enc.joints.len() as u32,
            fps,
            extra,
        });
    }
    Ok(anims)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Joints 0..2, 3 frames by hand: constant channels share static slots (0 once, 700 once),
    /// the root's moving z puts its first value there too (as Nintendo's converter did), the
    /// varying ones follow at static_max + k * frames; in both of the converter's orders.
    #[test]
    fn normal_data_folds_constants_by_hand() {
        let j = vec![
            vec![[0, 700, 5], [0, 0x4000, 0], [10, 0, 0]],
            vec![[0, 700, 6], [0, 0x4000, 0], [20, 0, 0]],
            vec![[0, 700, 7], [0, 0x4000, 0], [30, 0, 0]],
        ];
        let root_first = normal_data("t", &j, StaticOrder::default()).unwrap();
        // Statics: the root's 0, 700, 5, then limb 0's 0x4000.
        assert_eq!(root_first.static_max, 4);
        assert_eq!(root_first.frame_data, vec![0, 700, 5, 0x4000, 5, 6, 7, 10, 20, 30]);
        assert_eq!(root_first.joint_indices, vec![[0, 1, 4], [0, 3, 0], [7, 0, 0]]);
        // Limb 0's rotation first: 0, 0x4000, then the root's 700 and 5.
        let limb_first = normal_data("t", &j, StaticOrder { root_always: true, limb_first: true }).unwrap();
        assert_eq!(limb_first.frame_data, vec![0, 0x4000, 700, 5, 5, 6, 7, 10, 20, 30]);
        assert_eq!(limb_first.joint_indices, vec![[0, 2, 4], [0, 1, 0], [7, 0, 0]]);
        // The reader's rule: index >= static_max reads index + frame.
        for nd in [root_first, limb_first] {
            for (f, t) in j.iter().enumerate() {
                for (ji, want) in nd.joint_indices.iter().zip(t) {
                    for c in 0..3 {
                        let i = ji[c] as usize;
                        let i = if i >= nd.static_max as usize { i + f } else { i };
                        assert_eq!(nd.frame_data[i], want[c]);
                    }
                }
            }
        }
    }

    #[test]
    fn too_many_values_for_u16_indices_is_an_error() {
        // 66 varying channels x 1100 frames: the last start is past 65535.
        let j: Vec<Vec<[i16; 3]>> = (0..1100).map(|f| vec![[f as i16, f as i16 + 1, f as i16 + 2]; 22]).collect();
        let e = normal_data("big", &j, StaticOrder::default()).unwrap_err().to_string();
        assert!(e.contains("\"big\"") && e.contains("u16"), "{e}");
    }
}
