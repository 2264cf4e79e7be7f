//! The opened document: skeletons, animations, sampling, the game's posing, check lines.
//!
//! Playback (z_skelanime.c): only integer frames are sampled. `--frame F` is truncated toward
//! zero (the C float-to-int conversion of `curFrame`) and wrapped into `0..frames` as the loop
//! modes do (`frame mod frames`, negative frames counting back from the end). Normal and
//! legacy animations play at 20 fps (one frame per game update), Link's at 30 fps (1.5 frames
//! per update).

use crate::anim::{AnimDef, AnimKind, JointTable};
use crate::build::Found;
use crate::dlist;
use crate::limb_matrix::{apply_limb, local_matrix, scaled_transform};
use crate::mtx::MtxF;
use crate::names::Variant;
use crate::segment::{Ctx, SegFile};
use crate::skeleton::{SkelDef, SkelType};
use boneyard_core::document::{AnimInfo, Channel, Document, FileSummary, Interpolation, Sample, SkeletonInfo};
use boneyard_core::model::{Bone, Skeleton, Transform};
use boneyard_core::{Error, Result, Warning};
use glam::{Mat4, Vec3};
use serde_json::{json, Map, Value};
use std::sync::{Arc, OnceLock};

// `Limits::max_check_joints`: joint values (frames x joints, summed over the animations)
// `check` samples at most; a whole OoT or MM ROM needs a few million.
// `Limits::max_warnings`: warnings one document keeps (a hostile file of thousands of broken
// skeletons would otherwise say so in millions); past it, one more names the limit.

/// Zelda 64 files opened together (objects, `gameplay_keep`, `link_animetion`, ROMs): their
/// skeletons with their display-list meshes, and their animations posed as `SkelAnime` does.
pub struct Z64Document {
    pub(crate) files: Vec<SegFile>,
    pub(crate) summaries: Vec<FileSummary>,
    pub(crate) found: Found,
    skel_infos: Vec<SkeletonInfo>,
    anim_infos: Vec<AnimInfo>,
    /// Each skeleton's first animation (its rest pose, for flex keyframe and curve skeletons),
    /// found once rather than by a search of every animation for every skeleton.
    first_anim: Vec<Option<usize>>,
    /// What was skipped or doubted while reading (companions, the builder's, the meshes').
    pub(crate) warnings: Vec<Warning>,
    /// What the game sets before drawing (Link's tunic).
    pub(crate) runtime: crate::runtime::RuntimeState,
    /// By skeleton: meshes whose textures the draw binds (Link's eyes and mouth).
    runtime_textures: Vec<Vec<dlist::RuntimeTexture>>,
    /// Per skeleton, per mesh: the segmented address of the image drawn on it, when decoded.
    mesh_images: Vec<Vec<Option<u32>>>,
    /// By animation: the root's joint-table entry at frame 0 (what root motion is measured
    /// from), read on first use rather than again at every frame sampled. Only a read that
    /// succeeded is kept, so one that fails fails again, with the same error, each time.
    root_at_frame0: Vec<OnceLock<Option<[i16; 3]>>>,
    /// By animation: a keyframe or curve animation's keys, read and checked on first use
    /// rather than again at every frame sampled (a crafted clip of 30,000 keys a channel took
    /// half a minute to export). Only a read that succeeded is kept.
    keyed: Vec<OnceLock<Arc<Keyed>>>,
    /// The same keys by what they are read from (context, header fields, joints): animations
    /// whose headers name one table hold it once, as the open read it once (its memory is
    /// what `Limits::max_animation_bytes` charged at open).
    keyed_by_header: std::sync::Mutex<std::collections::HashMap<KeyedSource, Arc<Keyed>>>,
}

/// What a keyframe or curve animation's keys are read from.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum KeyedSource {
    Frames(usize, crate::keyframe::KfHeader, bool, usize),
    Curves(usize, crate::curve::CurveHeader, usize),
}

/// The keys of a keyframe or a curve animation, read and checked.
enum Keyed {
    Frames(crate::keyframe::KfAnim),
    Curves(crate::curve::CurveAnim),
}

/// Skeletons in a document from which their meshes are made on rayon's threads: a ROM's
/// ninety are a quarter of its open on one thread; an object's one to five are not worth the
/// forks.
const SKELETONS_APART: usize = 8;

/// A skeleton made on a thread of its own, before it is charged to the document's budget.
struct MadeApart {
    info: (SkeletonInfo, Vec<dlist::RuntimeTexture>, Vec<Option<u32>>),
    /// Its warnings.
    said: Vec<Warning>,
    /// The display lists its meshes ran.
    lists: Vec<u32>,
    spent: dlist::Spent,
}

/// `format!("0x{v:X}")`, put together by hand (it names every skeleton and animation).
fn hex(v: u32) -> String {
    let mut s = String::with_capacity(10);
    s.push_str("0x");
    boneyard_core::text::push_hex(&mut s, v.into(), 1);
    s
}

impl Z64Document {
    pub(crate) fn new(
        files: Vec<SegFile>,
        mut summaries: Vec<FileSummary>,
        found: Found,
        runtime: crate::runtime::RuntimeState,
    ) -> Result<Self> {
        let mut first_anim = vec![None; found.skels.len()];
        for (i, a) in found.anims.iter().enumerate() {
            if let Some(slot) = a.skeleton.and_then(|s| first_anim.get_mut(s)) {
                slot.get_or_insert(i);
            }
        }
        let mut doc = Z64Document {
            files,
            summaries: Vec::new(),
            found,
            skel_infos: Vec::new(),
            anim_infos: Vec::new(),
            first_anim,
            warnings: Vec::new(),
            runtime,
            runtime_textures: Vec::new(),
            mesh_images: Vec::new(),
            root_at_frame0: Vec::new(),
            keyed: Vec::new(),
            keyed_by_header: Default::default(),
        };
        doc.root_at_frame0 = (0..doc.found.anims.len()).map(|_| OnceLock::new()).collect();
        doc.keyed = (0..doc.found.anims.len()).map(|_| OnceLock::new()).collect();
        doc.warnings = std::mem::take(&mut doc.found.warnings);
        let multi = doc.found.skels.iter().map(|s| doc.found.ctxs[s.ctx].1).collect::<std::collections::BTreeSet<_>>();
        let multi = multi.len() > 1;
        let mut budget = dlist::Budget::from_limits(&doc.found.limits);
        let mut warnings = Vec::new();
        // By file: the object's own display lists its skeletons ran (segment-6 offsets).
        let mut ran: Vec<Option<Vec<u32>>> = vec![None; doc.files.len()];
        // Many skeletons (a ROM's hundred) are made on rayon's threads, each with a fork of the
        // budget, then charged in order: one whose meshes could have come out otherwise with
        // what the budget has left by then (a spend refused, too little left) is made again
        // here, in order, as all of them are with few skeletons or one thread.
        let skels = doc.found.skels.len();
        let mut made: Vec<Option<MadeApart>> = Vec::new();
        // What the budget had spent when forked.
        let base = budget.spent_so_far();
        if skels >= SKELETONS_APART && rayon::current_num_threads() > 1 {
            use rayon::prelude::*;
            let (doc, budget) = (&doc, &budget);
            made = (0..skels)
                .into_par_iter()
                .map_init(Default::default, |materials, si| {
                    let mut part = budget.fork(std::mem::take(materials));
                    let mut said = Vec::new();
                    let info = doc.skeleton_info(si, multi, &mut part, &mut said, &[]);
                    let lists = part.take_lists_run();
                    let spent;
                    (spent, *materials) = part.into_spent();
                    Some(MadeApart { info: info.ok()?, said, lists, spent })
                })
                .collect();
        }
        for si in 0..skels {
            let apart = made.get_mut(si).and_then(Option::take);
            let (info, runtime, images, lists) = match apart {
                Some(MadeApart { info: (mut info, runtime, images), said, lists, spent })
                    if budget.charge(&spent, base) =>
                {
                    budget.adopt_textures(spent, si, &mut info.meshes, &doc.skel_infos);
                    warnings.extend(said);
                    (info, runtime, images, lists)
                }
                _ => {
                    let (info, runtime, images) =
                        doc.skeleton_info(si, multi, &mut budget, &mut warnings, &doc.skel_infos)?;
                    (info, runtime, images, budget.take_lists_run())
                }
            };
            doc.skel_infos.push(info);
            doc.runtime_textures.push(runtime);
            doc.mesh_images.push(images);
            let home = doc.ctx(doc.found.skels[si].ctx).home;
            let own = ran.get_mut(home).map(|r| r.get_or_insert_with(Vec::new));
            if let Some(own) = own {
                let seg = u32::from(doc.files[home].segment);
                own.extend(lists.into_iter().filter(|a| a >> 24 == seg).map(|a| a & 0xFF_FFFF));
            }
        }
        warnings.extend(doc.undrawn_lists(ran));
        doc.warnings.extend(warnings);
        let max_warnings = doc.found.limits.max_warnings;
        if doc.warnings.len() > max_warnings {
            let dropped = doc.warnings.len() - max_warnings;
            doc.warnings.truncate(max_warnings);
            let file = doc.files.first().map(|f| f.name.clone()).unwrap_or_default();
            let note = boneyard_core::limit!(doc.found.limits, max_warnings).cut_note(dropped);
            doc.warnings.push(Warning::in_file(file, note));
        }
        doc.anim_infos.reserve_exact(doc.found.anims.len());
        for (i, a) in doc.found.anims.iter().enumerate() {
            let home = doc.found.ctxs[a.ctx].1;
            // The `list --json` fields are built when asked for (`animation_extra`).
            let extra = Map::new();
            doc.anim_infos.push(AnimInfo {
                index: i,
                name: a.name.clone(),
                frames: a.frames as u32,
                fps: a.kind.fps(),
                bones: match a.kind {
                    // Three joint-table entries a limb (scale, rotation, translation).
                    AnimKind::KeyFrame { flex: true, .. } | AnimKind::Curve { .. } => a.joints / 3,
                    _ => a.joints.saturating_sub(1),
                },
                // Put together without the formatting machinery: this runs for every
                // animation of the document (hundreds in Link's files).
                format: a.kind.format_name().to_owned(),
                source: {
                    let stem = &doc.files[home].shown;
                    let mut source = String::with_capacity(stem.len() + 9);
                    source.push_str(stem);
                    source.push_str("@0x");
                    boneyard_core::text::push_hex(&mut source, (a.addr & 0xFF_FFFF).into(), 1);
                    source
                },
                skeleton: a.skeleton,
                // Keyframe and curve animations are evaluated at the (fractional) frame, so
                // the engine's poses between two frames are near the blend of theirs; every
                // other kind is looked up at the frame truncated (`SkelAnime_GetFrameData`,
                // Link's `AnimationContext_SetLoadFrame`): the engine holds each frame.
                // (An actor that plays a normal animation in an interpolating mode blends
                // its own way: `joint_table_interp`.)
                interpolation: match a.kind {
                    AnimKind::KeyFrame { .. } | AnimKind::Curve { .. } => Interpolation::Linear,
                    _ => Interpolation::Step,
                },
                extra,
            });
        }
        for (i, s) in summaries.iter_mut().enumerate() {
            if let Some((sk, an, notes)) = doc.found.per_file.get(i) {
                s.counts.push(("skeletons".into(), *sk as u64));
                s.counts.push(("animations".into(), *an as u64));
                let (nsk, nan) = doc.found.per_file_named.get(i).copied().unwrap_or((0, 0));
                s.counts.push(("skeletons named by the asset table".into(), nsk as u64));
                s.counts.push(("skeletons from the structural scan".into(), sk.saturating_sub(nsk) as u64));
                s.counts.push(("animations named by the asset table".into(), nan as u64));
                s.counts.push(("animations from the structural scan".into(), an.saturating_sub(nan) as u64));
                s.notes.extend(notes.iter().cloned());
            }
        }
        doc.summaries = summaries;
        Ok(doc)
    }

    pub(crate) fn ctx(&self, ci: usize) -> Ctx<'_> {
        let (map, home) = self.found.ctxs[ci];
        Ctx::new(&self.files, map, home)
    }

    /// The format-specific fields of animation `i` for `list --json` ([`Document::animation_extra`]).
    fn anim_extra(&self, i: usize) -> Map<String, Value> {
        let Some(a) = self.found.anims.get(i) else { return Map::new() };
        let home = self.found.ctxs[a.ctx].1;
        let mut extra = Map::new();
        extra.insert("kind".into(), json!(a.kind.name()));
        extra.insert("header".into(), json!(hex(a.addr & 0xFF_FFFF)));
        extra.insert("file".into(), json!(self.files[home].shown));
        extra.insert("joints".into(), json!(a.joints));
        match a.kind {
            AnimKind::Normal { frame_data, joint_indices, static_max } => {
                extra.insert("frame_data".into(), json!(hex(frame_data)));
                extra.insert("joint_indices".into(), json!(hex(joint_indices)));
                extra.insert("static_index_max".into(), json!(static_max));
            }
            AnimKind::Link { data } => {
                extra.insert("frame_data".into(), json!(hex(data)));
                extra.insert("frame_size".into(), json!(crate::layout::LINK_FRAME_SIZE));
            }
            AnimKind::Legacy { frame_data, keys } => {
                extra.insert("frame_data".into(), json!(hex(frame_data)));
                extra.insert("joint_keys".into(), json!(hex(keys)));
            }
            AnimKind::KeyFrame { header, flex } => {
                extra.insert("bit_flags".into(), json!(hex(header.bit_flags)));
                extra.insert("key_frames".into(), json!(hex(header.key_frames)));
                extra.insert("kf_nums".into(), json!(hex(header.kf_nums)));
                extra.insert("fixed_values".into(), json!(hex(header.fixed_values)));
                extra.insert("unk_10".into(), json!(header.unk_10));
                extra.insert("layout".into(), json!(if flex { "flex" } else { "standard" }));
                extra.insert(
                    "time".into(),
                    json!("frame f samples curTime f + 1 (the game plays curTime 1..frameCount, 1.5 a game update)"),
                );
                if flex {
                    extra.insert("joint_table".into(), json!("per limb: scale (x100), rotation, translation"));
                }
            }
            AnimKind::Curve { header } => {
                extra.insert("knot_counts".into(), json!(hex(header.knot_counts)));
                extra.insert("interpolation_data".into(), json!(hex(header.knots)));
                extra.insert("constant_data".into(), json!(hex(header.constants)));
                extra.insert("unk_0c".into(), json!(header.unk_0c));
                extra.insert("time".into(), json!("frame f samples curFrame f (1.5 a game update), unrounded"));
                extra.insert("joint_table".into(), json!("per limb: scale (x1024), rotation, position"));
            }
        }
        extra
    }

    /// For each object file whose skeletons ran `ran[file]` (offsets), the display lists the
    /// asset table names in it that none of them drew, in one warning: props, other heads and
    /// effects the actor's code draws (the Deku Baba's stem, Dampé's shovel), or nothing
    /// draws; they are not in the model, which had been left unsaid.
    fn undrawn_lists(&self, ran: Vec<Option<Vec<u32>>>) -> Vec<Warning> {
        /// Names a warning lists (it counts the rest).
        const NAMED: usize = 12;
        let mut out = Vec::new();
        for (f, ran) in ran.into_iter().enumerate() {
            let (Some(mut ran), Some(Some(names))) = (ran, self.found.names.get(f)) else { continue };
            let file = &self.files[f];
            // Only where the table's reading fits the file: each skeleton found in it is one
            // the table names (a modded or other-version file's lists are elsewhere).
            let named_all = self.found.per_file.get(f).map(|p| p.0) == self.found.per_file_named.get(f).map(|p| p.0);
            if file.segment != crate::layout::SEG_OBJECT || !named_all {
                continue;
            }
            ran.sort_unstable();
            let undrawn: Vec<_> =
                names.assets.iter().filter(|a| a.kind == 'D' && ran.binary_search(&a.offset).is_err()).collect();
            let Some(first) = undrawn.first() else { continue };
            let mut shown: Vec<String> =
                undrawn.iter().take(NAMED).map(|a| format!("{} ({:#X})", a.name, a.offset)).collect();
            if undrawn.len() > NAMED {
                shown.push(format!("and {} more", undrawn.len() - NAMED));
            }
            out.push(Warning {
                file: file.name.clone(),
                offset: Some(u64::from(first.offset)),
                message: format!(
                    "{} of this file that no limb draws, not in the model (the actor's code draws some, such as props, other heads and effects, or nothing does): {}",
                    boneyard_core::text::counted(undrawn.len(), "display list", "display lists"),
                    shown.join(", ")
                ),
            });
        }
        out
    }

    /// Also adds to `warnings` what the meshes left out. `earlier`: the skeletons made before
    /// with `budget`, whose meshes hold the textures it decoded.
    fn skeleton_info(
        &self,
        si: usize,
        multi: bool,
        budget: &mut dlist::Budget,
        warnings: &mut Vec<Warning>,
        earlier: &[SkeletonInfo],
    ) -> Result<(SkeletonInfo, Vec<dlist::RuntimeTexture>, Vec<Option<u32>>)> {
        let s = &self.found.skels[si];
        let ctx = self.ctx(s.ctx);
        let home = ctx.home_file();
        let off = s.addr & 0xFF_FFFF;
        let id = if multi { format!("{}:{}", home.shown, hex(off)) } else { hex(off) };
        let mut bones = Vec::with_capacity(s.limbs.len());
        let rest_jt = self.rest_table(si);
        for &l in &s.order {
            let limb = &s.limbs[l];
            let name = limb_name(&self.files, &self.found.names, &ctx, limb.addr, l).unwrap_or_else(|| unnamed_limb(l));
            let local = match &rest_jt {
                Some(jt) => {
                    let mut m = MtxF::IDENTITY;
                    apply_limb(&mut m, s, l, Some(jt));
                    m
                }
                None => local_matrix(limb.pos, limb.rot),
            };
            let rest =
                scaled_transform(s, l, rest_jt.as_ref()).unwrap_or_else(|| Transform::from_matrix(&local.to_mat4()));
            bones.push(Bone { name, parent: s.parent[l].map(|p| s.bone_of_limb[p]), rest });
        }
        let skeleton = Skeleton::new(s.name.clone(), bones).map_err(|e| e.in_file(home.name.clone()))?;
        let rest_world: Vec<Mat4> = world_matrices(s, rest_jt.as_ref()).iter().map(|m| m.to_mat4()).collect();
        // Skin data of a file the asset table names must read; elsewhere (scanned skeletons,
        // ROM files of another version) a failure is a note.
        let names = self.found.names.get(ctx.home).and_then(|v| v.as_deref());
        let strict = names.is_some() && !home.lenient;
        let draw = self.draw_state(si, crate::runtime::DEFAULT_FACE);
        let dlist::SkeletonMeshes { meshes, notes, runtime, images } =
            dlist::skeleton_meshes(&ctx, s, &rest_world, budget, strict, names, &draw, earlier)
                .map_err(|e| e.in_file(home.name.clone()))?;
        let mut extra = Map::new();
        extra.insert("type".into(), json!(s.ty.name()));
        extra.insert("limb_type".into(), json!(s.limb_type.name()));
        extra.insert("limbs".into(), json!(s.limbs.len()));
        let with_dl = match s.ty {
            // Curve limbs draw dList[0] and dList[1].
            SkelType::Curve => s.limbs.iter().filter(|l| l.dlists.iter().any(|&d| d != 0)).count(),
            _ => s.dlist_limbs(),
        };
        extra.insert("display_lists".into(), json!(with_dl));
        if with_dl == 0 && meshes.is_empty() && !s.limbs.is_empty() {
            // The chest's gTreasureChestSkel: En_Box draws its lid and box from its own
            // PostLimbDraw, which is code, not data. Said rather than an empty model given.
            warnings.push(Warning {
                file: home.name.clone(),
                offset: Some(off as u64),
                message: format!(
                    "skeleton {}: none of its {} limbs has a display list: the actor draws the model from its own code, which is not read; only the bones are exported",
                    s.name,
                    s.limbs.len()
                ),
            });
        }
        if let SkelType::Flex { dlist_count } = s.ty {
            extra.insert("dlist_count".into(), json!(dlist_count));
        }
        extra.insert("file".into(), json!(home.shown));
        extra.insert("offset".into(), json!(hex(off)));
        if s.limbs.iter().any(|l| l.skin.is_some()) {
            let skin: Vec<Value> = s.limbs.iter().map(|l| json!(l.skin.map(|(t, _)| t))).collect();
            extra.insert("skin_segment_types".into(), Value::Array(skin));
        }
        if !notes.is_empty() {
            let texts: Vec<&str> = notes.iter().map(|n| n.message.as_str()).collect();
            extra.insert("mesh_notes".into(), json!(texts));
        }
        if let (Some(a), false) = (crate::runtime::actor_default(&home.stem, &s.name), meshes.is_empty()) {
            // A variant of the actor's, and the state it is first drawn in, was chosen: say
            // which.
            let mut set: Vec<String> =
                a.env.iter().map(|[r, g, b, al]| format!("environment colour {r},{g},{b},{al}")).collect();
            set.extend(a.segments.iter().map(|(seg, at, name)| format!("segment {seg:#X}: {name} ({at:#X})")));
            set.extend(a.lists.iter().map(|(seg, _, what)| format!("segment {seg:#X}: {what}")));
            set.extend(a.post_limb.iter().map(|(limb, at, name)| format!("{name} ({at:#X}) drawn after limb {limb}")));
            let message = format!("skeleton {}: {} from {}", s.name, set.join(", "), a.source);
            warnings.push(Warning { file: home.name.clone(), offset: Some(off as u64), message });
        }
        if let (Some((limb, at, name)), None, false) = (draw.in_place_of, self.runtime.shield, meshes.is_empty()) {
            // Link's shield: the one he first carries at his age, a choice said (`--shield`).
            extra.insert("in_place_of".into(), json!({"limb": limb, "list": name, "offset": hex(at)}));
            warnings.push(Warning {
                file: home.name.clone(),
                offset: Some(off as u64),
                message: format!(
                    "skeleton {}: limb {limb} (the sheath) drawn with {name} ({at:#X}) in place of its own list, as Player's OverrideLimbDraw draws it for the shield Link first carries at this age (--shield none, deku, hylian or mirror chooses)",
                    s.name
                ),
            });
        }
        if let (Some((limb, at, name)), Some(shield), false) =
            (draw.in_place_of, self.runtime.shield, meshes.is_empty())
        {
            // A shield Link does not carry at this age (an adult's Deku Shield, a child's
            // Mirror Shield): the game's table draws the sheath alone, said (it was the same
            // picture as `--shield none` without a word).
            if shield != crate::runtime::Shield::None && !name.contains("Shield") {
                warnings.push(Warning {
                    file: home.name.clone(),
                    offset: Some(off as u64),
                    message: format!(
                        "skeleton {}: --shield {}: Link does not carry that shield at this age, and limb {limb} (the sheath) is drawn with {name} ({at:#X}) alone, as Player's table sSheathWithSwordDLs has it",
                        s.name,
                        shield.name()
                    ),
                });
            }
        }
        for n in notes {
            let file = n.file.unwrap_or_else(|| home.name.clone());
            let message = format!("skeleton {}: {}", s.name, n.message);
            warnings.push(Warning { file, offset: n.offset, message });
        }
        let info = SkeletonInfo {
            id,
            name: s.name.clone(),
            source: format!("{}@{}", home.shown, hex(off)),
            skeleton,
            meshes,
            extra,
        };
        Ok((info, runtime, images))
    }

    /// Skeletons of the files read beside those given (`stems`: gameplay_keep found beside
    /// Link's object) carry `"companion": true` in their extras: a caller that writes every
    /// skeleton of the document may leave them to those files' own documents (a folder's
    /// export wrote gameplay_keep's five skeletons once for it and again for each Link).
    pub(crate) fn mark_companions(&mut self, stems: &[String]) {
        for s in &mut self.skel_infos {
            let file = s.extra.get("file").and_then(Value::as_str).unwrap_or_default();
            if stems.iter().any(|c| *c == file.to_lowercase()) {
                s.extra.insert("companion".into(), json!(true));
            }
        }
    }

    /// The segmented address (`0x06006510`) of the image mesh `mesh` of skeleton `skeleton`
    /// draws, when its texture was decoded: which of the file's textures a mesh shows, as the
    /// decomp's asset table names them by offset.
    pub fn mesh_image(&self, skeleton: usize, mesh: usize) -> Option<u32> {
        self.mesh_images.get(skeleton)?.get(mesh).copied().flatten()
    }

    /// The face `Player_DrawImpl` draws at `frame` of `anim` (the default face for other
    /// animations and the rest pose).
    pub fn face_at(&self, anim: Option<usize>, frame: f64) -> Result<(usize, usize)> {
        let Some(a) = anim else { return Ok(crate::runtime::DEFAULT_FACE) };
        if !matches!(self.anim(a)?.kind, AnimKind::Link { .. }) {
            return Ok(crate::runtime::DEFAULT_FACE);
        }
        let jt = self.joint_table(a, self.engine_frame(a, frame)?)?;
        Ok(crate::runtime::face_indices(jt.face))
    }

    /// Whether a skeleton of these files is Link's (drawn in his tunic).
    pub(crate) fn draws_link(&self) -> bool {
        self.found.skels.iter().any(|s| crate::build::is_link_object(&self.ctx(s.ctx).home_file().stem))
    }

    /// What the game sets before drawing skeleton `si` with the face `(eye, mouth)`: Link's
    /// draw for skeletons in Link's objects (`build::is_link_object`), nothing else.
    pub fn draw_state(&self, si: usize, face: (usize, usize)) -> dlist::DrawState {
        let s = &self.found.skels[si];
        let home = self.ctx(s.ctx).home_file();
        if crate::build::is_link_object(&home.stem) {
            dlist::DrawState::link(self.runtime, home.segment, face, home.stem == "object_link_child")
        } else {
            dlist::DrawState::actor(&home.stem, &s.name)
        }
    }

    /// The joint table of animation `anim` at engine frame `frame` (already wrapped).
    pub fn joint_table(&self, anim: usize, frame: usize) -> Result<JointTable> {
        match self.keyed(anim)? {
            // (Keyframe animations are sampled at time `frame + 1`, as `AnimDef::joint_table`.)
            Some(Keyed::Frames(k)) => Ok(k.joint_table(frame as f32 + 1.0)),
            Some(Keyed::Curves(c)) => Ok(c.joint_table(frame as f32)),
            None => {
                let a = self.anim(anim)?;
                let ctx = self.ctx(a.ctx);
                a.joint_table(&ctx, frame).map_err(|e| e.in_file(ctx.home_file().name.clone()))
            }
        }
    }

    /// Animation `anim`'s joints at every one of its frames (`joint_table` frame after frame).
    pub fn joint_tables(&self, anim: usize) -> Result<Vec<Vec<[i16; 3]>>> {
        let frames = self.anim(anim)?.frames as usize;
        (0..frames).map(|f| self.joint_table(anim, f).map(|t| t.joints)).collect()
    }

    /// Animation `anim`'s static values and joint indices when it is a normal animation (None
    /// for other kinds).
    pub fn normal_layout(&self, anim: usize) -> Result<Option<crate::anim::NormalLayout>> {
        let a = self.anim(anim)?;
        let ctx = self.ctx(a.ctx);
        a.normal_layout(&ctx).map_err(|e| e.in_file(ctx.home_file().name.clone()))
    }

    /// The keys of animation `anim` when it is a keyframe or a curve animation (None for other
    /// kinds), read once.
    fn keyed(&self, anim: usize) -> Result<Option<&Keyed>> {
        let a = self.anim(anim)?;
        let Some(cell) = self.keyed.get(anim) else { return Ok(None) };
        if let Some(k) = cell.get() {
            return Ok(Some(k));
        }
        let source = match a.kind {
            AnimKind::KeyFrame { header, flex } => KeyedSource::Frames(a.ctx, header, flex, a.joints),
            AnimKind::Curve { header } => KeyedSource::Curves(a.ctx, header, a.joints),
            _ => return Ok(None),
        };
        let shared = self.keyed_by_header.lock().ok().and_then(|m| m.get(&source).cloned());
        let keyed = match shared {
            Some(k) => k,
            None => {
                let ctx = self.ctx(a.ctx);
                let in_file = |e: Error| e.in_file(ctx.home_file().name.clone());
                let read = match a.kind {
                    AnimKind::KeyFrame { .. } => a.keyframes(&ctx).map_err(in_file)?.map(Keyed::Frames),
                    _ => a.curves(&ctx).map_err(in_file)?.map(Keyed::Curves),
                };
                let Some(read) = read else { return Ok(None) };
                let k = Arc::new(read);
                if let Ok(mut m) = self.keyed_by_header.lock() {
                    m.entry(source).or_insert_with(|| k.clone());
                }
                k
            }
        };
        Ok(Some(cell.get_or_init(|| keyed)))
    }

    /// The joint table of a normal animation played in an interpolating mode
    /// (`SkelAnime_AnimateFrame` with ANIM_INTERP): frame `(s32)curFrame` blended toward the
    /// next one (0 after the last) by `curFrame - (s32)curFrame`. `cur_frame` is wrapped into
    /// `0..frames` first.
    pub fn joint_table_interp(&self, anim: usize, cur_frame: f32) -> Result<JointTable> {
        let a = self.anim(anim)?;
        if !cur_frame.is_finite() {
            return Err(Error::not_found(format!("frame {cur_frame} is not a number")));
        }
        let n = a.frames as f32;
        let cur = if cur_frame < 0.0 || cur_frame >= n { cur_frame.rem_euclid(n) } else { cur_frame };
        let frame = (cur as i32).clamp(0, a.frames as i32 - 1);
        let partial = cur - frame as f32;
        let next = if frame + 1 >= a.frames as i32 { 0 } else { frame + 1 };
        let base = self.joint_table(anim, frame as usize)?;
        let target = self.joint_table(anim, next as usize)?;
        Ok(JointTable {
            joints: crate::anim::interp_frame_table(&base.joints, &target.joints, partial),
            face: base.face,
        })
    }

    fn anim(&self, anim: usize) -> Result<&AnimDef> {
        self.found.anims.get(anim).ok_or_else(|| Error::not_found(format!("no animation #{anim}")))
    }

    /// The engine's rounding of a requested frame: truncation toward zero, then wrap.
    pub fn engine_frame(&self, anim: usize, frame: f64) -> Result<usize> {
        let a = self.anim(anim)?;
        if !frame.is_finite() {
            return Err(Error::not_found(format!("frame {frame} is not a number")));
        }
        // Wrapped in f64, where the remainder of a whole number is exact: through an integer
        // cast, a frame past i64's range (1e20) would saturate and wrap to the wrong frame.
        let n = a.frames as f64;
        Ok(frame.trunc().rem_euclid(n) as usize)
    }

    /// The keyframe time (`curTime`) a requested frame samples: `frame + 1`, wrapped into
    /// `1..=frameCount` with the loop's period `frameCount - 1` (`FrameCtrl_Update`); not
    /// rounded (the game samples fractional times).
    pub fn keyframe_time(&self, anim: usize, frame: f64) -> Result<f64> {
        let a = self.anim(anim)?;
        if !frame.is_finite() {
            return Err(Error::not_found(format!("frame {frame} is not a number")));
        }
        let n = a.frames as f64;
        let t = frame + 1.0;
        Ok(if n <= 1.0 {
            1.0
        } else if (1.0..=n).contains(&t) {
            t
        } else {
            1.0 + (t - 1.0).rem_euclid(n - 1.0)
        })
    }

    /// The frame actually sampled for a requested frame and the joint table there.
    pub fn table_at(&self, anim: usize, frame: f64) -> Result<(f64, JointTable)> {
        let a = self.anim(anim)?;
        if matches!(a.kind, AnimKind::KeyFrame { .. }) {
            let t = self.keyframe_time(anim, frame)?;
            let Some(Keyed::Frames(kf)) = self.keyed(anim)? else {
                return Err(self.ctx(a.ctx).error(a.addr, "not a keyframe animation"));
            };
            return Ok((t - 1.0, kf.joint_table(t as f32)));
        }
        if matches!(a.kind, AnimKind::Curve { .. }) {
            if !frame.is_finite() {
                return Err(Error::not_found(format!("frame {frame} is not a number")));
            }
            let n = a.frames as f64;
            let t = if (0.0..=n).contains(&frame) { frame } else { frame.rem_euclid(n) };
            let Some(Keyed::Curves(c)) = self.keyed(anim)? else {
                return Err(self.ctx(a.ctx).error(a.addr, "not a curve animation"));
            };
            return Ok((t, c.joint_table(t as f32)));
        }
        let f = self.engine_frame(anim, frame)?;
        Ok((f as f64, self.joint_table(anim, f)?))
    }

    /// The rest pose of skeletons whose limbs carry no position (flex keyframe and curve
    /// skeletons: everything is animated): frame 0 of the first animation that plays on it
    /// (a zero scale rests at 1, [`crate::curve::bind_table`], so that meshes can bind).
    fn rest_table(&self, skel: usize) -> Option<JointTable> {
        let s = self.found.skels.get(skel)?;
        if !matches!(s.ty, SkelType::KeyFrame { flex: true, .. } | SkelType::Curve) {
            return None;
        }
        let a = self.first_anim.get(skel).copied().flatten()?;
        let jt = self.table_at(a, 0.0).ok()?.1;
        Some(match s.ty {
            SkelType::Curve => crate::curve::bind_table(jt),
            _ => crate::curve::unhide_scales(jt, 100),
        })
    }

    /// The game's world matrices (`MtxF`) of skeleton `skel` posed by `anim` at `frame`, by limb
    /// (no animation: the rest pose).
    pub fn game_matrices(&self, skel: usize, anim: Option<usize>, frame: f64) -> Result<Vec<MtxF>> {
        let s = self.found.skels.get(skel).ok_or_else(|| Error::not_found(format!("no skeleton #{skel}")))?;
        let jt = match anim {
            Some(a) => Some(self.table_at(a, frame)?.1),
            None => self.rest_table(skel),
        };
        Ok(world_matrices(s, jt.as_ref()))
    }
}

/// The name the asset table (the reading chosen for each file, `names`) gives the limb at
/// `addr`, when it lives in a known file.
/// `format!("limb_{l:02}")`, put together by hand: a scanned skeleton's every limb is named so.
fn unnamed_limb(l: usize) -> String {
    let mut s = String::with_capacity(8);
    s.push_str("limb_");
    boneyard_core::text::push_decimal(&mut s, l as u64, 2);
    s
}

fn limb_name(files: &[SegFile], names: &[Option<Arc<Variant>>], ctx: &Ctx, addr: u32, limb: usize) -> Option<String> {
    let (fi, off) = ctx.resolve(addr, 0, 0).ok()?;
    if files[fi].stem == crate::demo::DEMO_STEM {
        return boneyard_core::demo::BONES.get(limb).map(|b| b.0.to_string());
    }
    names.get(fi)?.as_ref()?.name_at(off as u32, 'L').map(str::to_string)
}

/// The draw walk: each limb's matrix is its parent's (a copy, as `Matrix_Push` makes) with
/// `Matrix_TranslateRotateZYX` applied. Starts from the identity (the actor's matrix).
/// Skin skeletons are posed by the Skin system's own arithmetic ([`crate::skin::limb_matrices`]).
pub fn world_matrices(s: &SkelDef, jt: Option<&JointTable>) -> Vec<MtxF> {
    if s.limb_type == crate::skeleton::LimbType::Skin {
        return crate::skin::limb_matrices(s, jt);
    }
    let mut w = vec![MtxF::IDENTITY; s.limbs.len()];
    for &l in &s.order {
        let mut m = s.parent[l].map(|p| w[p]).unwrap_or(MtxF::IDENTITY);
        apply_limb(&mut m, s, l, jt);
        w[l] = m;
    }
    w
}

impl Z64Document {
    /// The local transforms (bone order) of animation `anim` posed by joint table `jt`, into
    /// `locals`, and the root motion since frame 0 (None when the animation has no skeleton).
    fn locals_of(&self, anim: usize, jt: &JointTable, locals: &mut Vec<Transform>) -> Result<Option<Vec3>> {
        let a = self.anim(anim)?;
        locals.clear();
        let Some(si) = a.skeleton else { return Ok(None) };
        self.locals_on(anim, si, jt, locals)
    }

    /// [`Z64Document::locals_of`] on skeleton `si`: the joint table applied to its limbs (their
    /// own joint positions where the table gives none, as `SkelAnime_Draw` draws any skeleton
    /// with the table it is given).
    fn locals_on(&self, anim: usize, si: usize, jt: &JointTable, locals: &mut Vec<Transform>) -> Result<Option<Vec3>> {
        let a = self.anim(anim)?;
        locals.clear();
        let s = &self.found.skels[si];
        locals.resize(s.limbs.len(), Transform::IDENTITY);
        for l in 0..s.limbs.len() {
            locals[s.bone_of_limb[l]] = scaled_transform(s, l, Some(jt)).unwrap_or_else(|| {
                let mut m = MtxF::IDENTITY;
                apply_limb(&mut m, s, l, Some(jt));
                Transform::from_matrix(&m.to_mat4())
            });
        }
        // The root's translation: joint 0, or limb 0's translation (entry 2) for flex
        // keyframe tables.
        let root = if matches!(a.kind, AnimKind::KeyFrame { flex: true, .. } | AnimKind::Curve { .. }) { 2 } else { 0 };
        let p0 = match self.root_at_frame0.get(anim).and_then(OnceLock::get) {
            Some(p0) => *p0,
            None => {
                let p0 = self.table_at(anim, 0.0)?.1.joints.get(root).copied();
                if let Some(slot) = self.root_at_frame0.get(anim) {
                    let _ = slot.set(p0);
                }
                p0
            }
        };
        Ok(match (jt.joints.get(root), p0.as_ref()) {
            (Some(p), Some(p0)) => {
                let d = |c: usize| p[c] as f32 - p0[c] as f32;
                Some(Vec3::new(d(0), d(1), d(2)))
            }
            _ => None,
        })
    }
}

impl Document for Z64Document {
    /// Link's eyes and mouth at the frame, when the face word picks another face than the
    /// default one the meshes carry.
    fn frame_textures(
        &self,
        skeleton: usize,
        anim: Option<usize>,
        frame: f64,
    ) -> Result<Vec<(usize, boneyard_core::model::Texture)>> {
        let Some(slots) = self.runtime_textures.get(skeleton).filter(|s| !s.is_empty()) else {
            return Ok(Vec::new());
        };
        let face = self.face_at(anim, frame)?;
        if face == crate::runtime::DEFAULT_FACE {
            return Ok(Vec::new());
        }
        let draw = self.draw_state(skeleton, face);
        let ctx = self.ctx(self.found.skels[skeleton].ctx);
        Ok(slots
            .iter()
            .filter_map(|rt| Some((rt.mesh, rt.decode(&ctx, draw.segments[rt.segment as usize]?)?)))
            .collect())
    }
    fn family(&self) -> &'static str {
        "z64"
    }

    fn files(&self) -> Vec<FileSummary> {
        self.summaries.clone()
    }

    fn skeletons(&self) -> &[SkeletonInfo] {
        &self.skel_infos
    }

    fn animations(&self) -> &[AnimInfo] {
        &self.anim_infos
    }

    /// Built when asked for: the kind, header, file, joints and the kind's own pointers.
    fn animation_extra(&self, anim: usize) -> Map<String, Value> {
        self.anim_extra(anim)
    }

    fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    fn sample(&self, anim: usize, frame: f64) -> Result<Sample> {
        let a = self.anim(anim)?;
        let (f, jt) = self.table_at(anim, frame)?;
        let mut channels = Vec::with_capacity(jt.joints.len() * 3);
        for (j, v) in jt.joints.iter().enumerate() {
            for (c, path) in ["x", "y", "z"].iter().enumerate() {
                channels.push(Channel::new(j.to_string(), *path, v[c]));
            }
        }
        let mut locals = Vec::new();
        let root_motion = self.locals_of(anim, &jt, &mut locals)?;
        let mut extra = Map::new();
        if matches!(a.kind, AnimKind::KeyFrame { .. }) {
            extra.insert("frame_rounding".into(), json!("none: keyframe curves are sampled at curTime = frame + 1"));
            extra.insert("cur_time".into(), json!(f + 1.0));
        } else if matches!(a.kind, AnimKind::Curve { .. }) {
            extra.insert("frame_rounding".into(), json!("none: curves are sampled at curFrame = frame"));
        } else {
            extra.insert("frame_rounding".into(), json!("truncated toward zero, wrapped into 0..frames"));
        }
        if matches!(a.kind, AnimKind::Normal { .. }) && frame.fract() != 0.0 {
            // What the interpolating playback modes (LOOP_INTERP, ONCE_INTERP) would show.
            let it = self.joint_table_interp(anim, frame as f32)?;
            extra.insert("interp_mode_joints".into(), json!(it.joints));
        }
        if let Some(w) = jt.face {
            extra.insert("face".into(), json!(w));
            // OoT: eyes = (w & 0xF) - 1, mouth = (w >> 4 & 0xF) - 1 (negative: actor's default).
            extra.insert("eyes".into(), json!((w & 0xF) as i32 - 1));
            extra.insert("mouth".into(), json!(((w >> 4) & 0xF) as i32 - 1));
            // MM (z64player.h): left hand `w & 0xF000`, right hand `w & 0x0F00` (hand display
            // list types; OoT's frames leave them 0).
            extra.insert("left_hand".into(), json!((w >> 12) & 0xF));
            extra.insert("right_hand".into(), json!((w >> 8) & 0xF));
        }
        Ok(Sample { frame: f, channels, locals, root_motion, extra })
    }

    fn sample_locals(&self, anim: usize, frame: f64, locals: &mut Vec<Transform>) -> Result<Option<Vec3>> {
        let (_, jt) = self.table_at(anim, frame)?;
        self.locals_of(anim, &jt, locals)
    }

    /// Normal, Link and legacy clips are joint tables, which the game draws on any skeleton
    /// of as many limbs (En_Rd plays one set on the Gibdo and the Redead, En_Wf on both
    /// Wolfos): on such a skeleton of the same kind as the clip's own.
    fn plays_on(&self, anim: usize, skeleton: usize) -> bool {
        let (Some(a), Some(target)) = (self.found.anims.get(anim), self.found.skels.get(skeleton)) else {
            return false;
        };
        let Some(own) = a.skeleton.and_then(|s| self.found.skels.get(s)) else { return false };
        let tables = matches!(a.kind, AnimKind::Normal { .. } | AnimKind::Link { .. } | AnimKind::Legacy { .. });
        let kind = |t: &SkelType| match t {
            SkelType::Normal | SkelType::Flex { .. } => 0,
            SkelType::Legacy => 1,
            _ => 2,
        };
        a.skeleton == Some(skeleton)
            || (tables
                && own.limbs.len() == target.limbs.len()
                && kind(&own.ty) == kind(&target.ty)
                && kind(&own.ty) < 2
                && own.limb_type == target.limb_type)
    }

    fn also_plays_on(&self, anim: usize) -> &[usize] {
        self.found.anims.get(anim).map_or(&[], |a| a.also.as_slice())
    }

    /// `tunic` and `shield` are Link's: they change a document with his object's skeleton, no other.
    fn uses_runtime(&self, key: &str) -> bool {
        matches!(key, "tunic" | "shield") && self.draws_link()
    }

    fn sample_locals_on(
        &self,
        anim: usize,
        skeleton: usize,
        frame: f64,
        locals: &mut Vec<Transform>,
    ) -> Result<Option<Vec3>> {
        if !self.plays_on(anim, skeleton) {
            return Err(Error::unsupported(format!(
                "animation #{anim} does not play on skeleton #{skeleton} (a clip plays on a skeleton of as many limbs)"
            )));
        }
        let (_, jt) = self.table_at(anim, frame)?;
        self.locals_on(anim, skeleton, &jt, locals)
    }

    fn pose(&self, skeleton: usize, anim: Option<usize>, frame: f64) -> Result<Vec<Mat4>> {
        let s = self.found.skels.get(skeleton).ok_or_else(|| Error::not_found(format!("no skeleton #{skeleton}")))?;
        let w = self.game_matrices(skeleton, anim, frame)?;
        Ok(s.order.iter().map(|&l| w[l].to_mat4()).collect())
    }

    /// One line per animation:
    /// `<index> <name> kind=<normal|link|legacy|mm-keyframe|curve> frames=<n> fps=<20|30> joints=<n>
    /// skeleton=<id|-> crc=<crc32>`, where the CRC-32 (IEEE, lower-case hex) covers the joint
    /// table at every frame 0..frames-1, each value as a big-endian s16 in joint order x, y, z,
    /// followed for Link animations by the frame's big-endian u16 face word. Keyframe (MM) and
    /// curve animations hash their joint tables (3 entries a limb for flex/curve) at curTime
    /// `f + 1` / curFrame `f` for every frame f. The values are the game's own integers (f32
    /// arithmetic is IEEE everywhere), so the lines do not depend on the machine.
    fn check(&self) -> Result<Vec<String>> {
        // Every frame of every animation is sampled: bound the total first, so a small file of
        // thousands of 32767-frame animations sharing their data is an error, not an hour.
        let mut work =
            boneyard_core::Budget::new(boneyard_core::limit!(self.found.limits, max_check_joints), "joint values");
        for a in &self.found.anims {
            if work.spend((a.frames as u64).saturating_mul(a.joints as u64)).is_err() {
                let ctx = self.ctx(a.ctx);
                let what = format!("joint values to sample, up to animation {} of {} frames", a.name, a.frames);
                return Err(work
                    .limit()
                    .error(ctx.home_offset(a.addr), work.spent(), what)
                    .in_file(ctx.home_file().name.clone()));
            }
        }
        let mut lines = Vec::with_capacity(self.found.anims.len());
        for (i, a) in self.found.anims.iter().enumerate() {
            let mut h = crc32fast::Hasher::new();
            // (Keyframe and curve keys are read once, on the first frame: `joint_table`.)
            for f in 0..a.frames as usize {
                let jt = self.joint_table(i, f)?;
                for v in &jt.joints {
                    for c in v {
                        h.update(&c.to_be_bytes());
                    }
                }
                if let Some(w) = jt.face {
                    h.update(&w.to_be_bytes());
                }
            }
            let skel = a.skeleton.map(|s| self.skel_infos[s].id.clone()).unwrap_or_else(|| "-".into());
            lines.push(format!(
                "{i} {} kind={} frames={} fps={} joints={} skeleton={skel} crc={:08x}",
                a.name,
                a.kind.token(),
                a.frames,
                a.kind.fps(),
                a.joints,
                h.finalize()
            ));
        }
        Ok(lines)
    }
}

#[cfg(test)]
mod hex_tests {
    /// `hex` writes what `format!("0x{v:X}")` writes, at every digit count.
    #[test]
    fn hex_is_the_formatters() {
        let mut rng = boneyard_core::testdata::XorShift64(0x4E7);
        for shift in 0..32 {
            for _ in 0..50 {
                let v = (rng.next_u64() as u32) >> shift;
                assert_eq!(super::hex(v), format!("0x{v:X}"));
            }
        }
        assert_eq!(super::hex(0), "0x0");
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn unnamed_limbs_are_named_as_format_names_them() {
        for l in (0..1000).chain([12345, usize::MAX]) {
            assert_eq!(super::unnamed_limb(l), format!("limb_{l:02}"));
        }
    }
}
