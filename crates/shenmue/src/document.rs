//! The Shenmue document: MOTN sequences on the runtime rig (IK baked to FK), MT5 models.

use crate::curve::Axis;
use crate::motn::{Layout, Motion, MotnFile, Shape};
use crate::rig::{self, Controls, RigPlan, HUMAN_RIG};
use crate::sample::{bind, bind_into, clamp_frame, sample_curves, sample_into, CurveValue};
use boneyard_core::fk::locals_from_world;
use boneyard_core::{
    AnimInfo, Bone, Channel, Document, Error, ErrorKind, FileSummary, Interpolation, Mesh, Result, Sample, Skeleton,
    SkeletonInfo, Transform, Warning,
};
use glam::{Mat4, Vec3};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The engine's playback rate.
pub const FPS: f64 = 30.0;

// `check` does at most `Limits::max_check_work` work, in (frame × (bones + curves)) units over
// all distinct sequences. MOTION.BIN (46,812 decoded frames, 4.6 million units) needs about a
// quarter of the default; without a bound, a 1 KB MOTN (32 sequences of 65535 frames) with a
// model of 4096 nodes declaring its controller family would make `check` evaluate 8·10⁹ node
// matrices.

/// Where an animation comes from, and the skeleton it plays on.
#[derive(Debug, Clone, Copy)]
struct AnimRef {
    motn: usize,
    entry: usize,
    /// The skeleton of its controller family (None for listed-only layouts).
    skeleton: Option<usize>,
    /// That skeleton's bone count (0 without one).
    bones: usize,
}

/// The Shenmue document: every MOTN sequence of the inputs as an animation on the skeleton of
/// its controller family (the human rig for family 0, a flat control skeleton or a declaring
/// MT5 model for the others), MT5 models as skeletons with meshes, and what the readers left out
/// as [`Warning`]s.
pub struct ShenmueDocument {
    files: Vec<FileSummary>,
    warnings: Vec<Warning>,
    skeletons: Vec<SkeletonInfo>,
    /// The listing of every animation, built on first use from `refs` (MOTION.BIN's 1559
    /// entries would otherwise each take three strings at the open that only `list` reads).
    anims: std::sync::OnceLock<Vec<AnimInfo>>,
    refs: Vec<AnimRef>,
    motns: Vec<MotnFile>,
    /// Per MOTN file, its display name (animation names are prefixed with it when several).
    motn_names: Vec<String>,
    /// Per MOTN file, its whole name as read (a container's member named within it): what its
    /// byte offsets are offsets of.
    motn_paths: Vec<String>,
    /// Controller family → skeleton index (family 0 = the human rig = skeleton 0).
    family_skeleton: BTreeMap<u16, usize>,
    /// MT5 skeleton index → how its nodes take the rig's matrices.
    routes: BTreeMap<usize, Vec<NodeRoute>>,
    /// MT5 skeleton index → its nodes, for a controller family the model declares.
    fk_nodes: BTreeMap<usize, Vec<NodeFk>>,
    /// The caller's limits (`check` spends `max_check_work`).
    pub(crate) limits: boneyard_core::Limits,
}

/// A model skeleton as [`ShenmueDocument::new`] takes it: the skeleton, how its nodes follow the
/// human rig, and (when its root declares a controller family) its nodes for FK playback.
pub struct ModelSkeleton {
    /// The skeleton as listed.
    pub info: SkeletonInfo,
    /// Per MT5 node, how it is posed from the rig.
    pub routes: Vec<NodeRoute>,
    /// The controller family its root node declares, if any.
    pub family: Option<u16>,
    /// Per MT5 node, its rest values (for FK playback of that family).
    pub nodes: Vec<NodeFk>,
}

/// One MT5 node's rest values, for families played as FK on a model's nodes.
#[derive(Debug, Clone, Copy)]
pub struct NodeFk {
    /// Index of the parent node.
    pub parent: Option<usize>,
    /// Rest position relative to the parent.
    pub position: Vec3,
    /// Turns × 65536.
    pub rotation: [i32; 3],
    /// Rest scale.
    pub scale: Vec3,
}

/// How one MT5 node is posed from the rig: a routed node takes its control's matrix, any
/// other node its parent's matrix times its own local transform.
#[derive(Debug, Clone, Copy)]
pub struct NodeRoute {
    /// Index of the parent node.
    pub parent: Option<usize>,
    /// The node's own local transform (used when it has no control).
    pub local: Mat4,
    /// The rig control whose matrix it takes, if routed.
    pub control: Option<usize>,
}

/// World matrices of MT5 nodes from the rig's control matrices.
pub fn route_pose(routes: &[NodeRoute], controls: &[Mat4]) -> Vec<Mat4> {
    let mut out: Vec<Mat4> = Vec::with_capacity(routes.len());
    for r in routes {
        let m = match (r.control.and_then(|c| controls.get(c)), r.parent.and_then(|p| out.get(p))) {
            (Some(c), _) => *c,
            (None, Some(p)) => *p * r.local,
            (None, None) => r.local,
        };
        out.push(m);
    }
    out
}

/// The human rig as a common-model skeleton (rest = the defaults as a plain FK chain).
pub fn rig_skeleton() -> Skeleton {
    let bones = HUMAN_RIG
        .iter()
        .map(|c| Bone {
            name: c.name.to_string(),
            parent: c.parent,
            rest: Transform::from_matrix(&rig::local_matrix(Vec3::from(c.position), c.rotation)),
        })
        .collect();
    Skeleton::new("shenmue_human_rig", bones).expect("the rig is parents-first")
}

/// A flat skeleton for a controller family whose rig is not published: control 0 is the
/// root, every other control hangs from it; curves drive them as plain FK.
fn flat_family_skeleton(family: u16, controls: usize) -> Skeleton {
    let bones = (0..controls.max(1))
        .map(|i| Bone { name: control_name(i), parent: if i == 0 { None } else { Some(0) }, rest: Transform::IDENTITY })
        .collect();
    Skeleton::new(format!("shenmue_family_{family}_controls"), bones).expect("flat skeleton")
}

/// `format!("control_{i}")`: MOTION.BIN's family skeletons name some 600 controls at each
/// open, so the names of the first 256 are written once per process and copied (a copy is a
/// third of writing the digits anew).
fn control_name(i: usize) -> String {
    static FIRST: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let write = |i: usize| {
        let mut name = String::with_capacity("control_".len() + 3);
        name.push_str("control_");
        boneyard_core::text::push_decimal(&mut name, i as u64, 1);
        name
    };
    match FIRST.get_or_init(|| (0..256).map(write).collect()).get(i) {
        Some(name) => name.clone(),
        None => write(i),
    }
}

/// The `list --json` fields of table entry `e` on its sequence `b` (built when asked for:
/// MOTION.BIN's 1559 entries would otherwise hold a JSON tree each from the open on).
fn entry_extra(b: &crate::motn::Block, e: &crate::motn::Entry) -> Map<String, Value> {
    let mut extra = Map::new();
    extra.insert("data_offset".into(), json!(b.offset));
    extra.insert("meta_offset".into(), json!(e.meta_offset));
    extra.insert("flag_high".into(), json!(b.flag_high));
    extra.insert("controller_family".into(), json!(b.family()));
    extra.insert("layout".into(), json!(b.layout.kind()));
    // Listed-only layouts cannot be sampled (sample/pose/export return an error).
    extra.insert("decoded".into(), json!(b.motion().is_some()));
    extra.insert("frame_sampling".into(), json!("real frames, clamped to 0..frames-1"));
    extra.insert("header".into(), json!(b.header));
    if let Some(act) = e.action() {
        let mut a = Map::new();
        if let Some(h) = act.hit_frames {
            a.insert("hit_frames".into(), json!(h));
        }
        if let Some(k) = act.attack {
            a.insert("attack".into(), json!({"class": k[0], "proficiency": k[1], "base_damage": k[2]}));
        }
        if !act.sound_cues.is_empty() {
            let c: Vec<Value> =
                act.sound_cues.iter().map(|c| json!({"frame": c.0, "group": c.1, "track": c.2})).collect();
            a.insert("sound_cues".into(), Value::from(c));
        }
        if !act.surface_cues.is_empty() {
            let c: Vec<Value> = act.surface_cues.iter().map(|c| json!({"frame": c.0, "contact": c.1})).collect();
            a.insert("surface_cues".into(), Value::from(c));
        }
        a.insert("bytes".into(), json!(act.len));
        extra.insert("action".into(), Value::Object(a));
    }
    match &b.layout {
        Layout::Curves(mo) => extra.insert("channels".into(), json!(mo.channel_count())),
        Layout::LegacyFrame32 { payload } => extra.insert("payload_bytes".into(), json!(payload)),
        Layout::Undecodable(why) => extra.insert("reason".into(), json!(why)),
    };
    // What the bytes of a listed layout show (the warnings say it in words).
    match &b.shape {
        Some(Shape::FrameRecords { stride, controls, hinges }) => {
            extra.insert(
                "shape".into(),
                json!({"kind": "frame-records", "record_bytes": stride, "controls": controls, "hinges": hinges, "description": b.shape.as_ref().map(|s| s.describe(b.frames))}),
            );
        }
        Some(Shape::NodeArrays { nodes }) => {
            extra.insert(
                "shape".into(),
                json!({"kind": "node-arrays", "nodes": nodes, "description": b.shape.as_ref().map(|s| s.describe(b.frames))}),
            );
        }
        None => {}
    }
    extra
}

impl ShenmueDocument {
    /// Build a document from parsed MOTN files (with their display names), model
    /// skeletons/meshes (they come after the rig and the family skeletons) and the readers'
    /// warnings.
    pub fn new(
        files: Vec<FileSummary>,
        motns: Vec<(String, MotnFile)>,
        rig_meshes: Vec<Mesh>,
        models: Vec<ModelSkeleton>,
        warnings: Vec<Warning>,
    ) -> Result<Self> {
        let mut skeletons = vec![SkeletonInfo {
            id: "human_rig".into(),
            name: "Shenmue human runtime rig (37 controls)".into(),
            source: "built-in (controller family 0)".into(),
            skeleton: rig_skeleton(),
            meshes: rig_meshes,
            extra: Map::new(),
        }];
        let mut family_skeleton = BTreeMap::new();
        family_skeleton.insert(0u16, 0usize);
        // Families other than the human rig: one flat control skeleton each.
        let mut fam_controls: BTreeMap<u16, usize> = BTreeMap::new();
        for (_, m) in &motns {
            for b in &m.blocks {
                if let (Some(mo), f) = (b.motion(), b.family()) {
                    if f != 0 {
                        let top = mo.control_span();
                        let e = fam_controls.entry(f).or_insert(1);
                        *e = (*e).max(top);
                    }
                }
            }
        }
        // A family that a model declares plays on that model's nodes; others get a flat one.
        let declared: Vec<u16> = models.iter().filter_map(|m| m.family).collect();
        for (f, n) in fam_controls {
            if declared.contains(&f) {
                continue;
            }
            family_skeleton.insert(f, skeletons.len());
            let mut extra = Map::new();
            extra.insert("controller_family".into(), json!(f));
            skeletons.push(SkeletonInfo {
                id: format!("family_{f}"),
                name: format!("controller family {f} (rig not published: controls as flat FK)"),
                source: "MOTN curves".into(),
                skeleton: flat_family_skeleton(f, n),
                meshes: Vec::new(),
                extra,
            });
        }
        let mut routes = BTreeMap::new();
        let mut fk_nodes = BTreeMap::new();
        for m in models {
            let idx = skeletons.len();
            if let Some(f) = m.family.filter(|&f| f != 0) {
                family_skeleton.entry(f).or_insert(idx);
                fk_nodes.insert(idx, m.nodes);
            } else if m.routes.iter().any(|n| n.control.is_some()) {
                routes.insert(idx, m.routes);
            }
            skeletons.push(m.info);
        }
        let mut refs = Vec::new();
        let mut stored = Vec::with_capacity(motns.len());
        let mut motn_names = Vec::with_capacity(motns.len());
        let mut motn_paths = Vec::with_capacity(motns.len());
        for (mi, (path, m)) in motns.into_iter().enumerate() {
            // The skeleton of the family looked up once a run of entries of one family (the
            // human rig for almost every entry of MOTION.BIN's 1559), not once each.
            let mut last: Option<(u16, Option<usize>, usize)> = None;
            refs.extend(m.entries.iter().enumerate().map(|(ei, e)| {
                let b = &m.blocks[e.block];
                let (skeleton, bones) = match (b.motion(), last) {
                    (None, _) => (None, 0),
                    (Some(_), Some((f, s, n))) if f == b.family() => (s, n),
                    (Some(_), _) => {
                        let skeleton = family_skeleton.get(&b.family()).copied();
                        let bones = skeleton.and_then(|s| skeletons.get(s)).map_or(0, |s| s.skeleton.len());
                        last = Some((b.family(), skeleton, bones));
                        (skeleton, bones)
                    }
                };
                AnimRef { motn: mi, entry: ei, skeleton, bones }
            }));
            stored.push(m);
            motn_names.push(boneyard_core::text::file_name(&path).to_string());
            motn_paths.push(path);
        }
        Ok(ShenmueDocument {
            files,
            warnings,
            skeletons,
            anims: std::sync::OnceLock::new(),
            refs,
            motns: stored,
            motn_names,
            motn_paths,
            family_skeleton,
            routes,
            fk_nodes,
            limits: boneyard_core::Limits::default(),
        })
    }

    /// The listing (see `anims`): built once, on first use.
    fn anims(&self) -> &[AnimInfo] {
        self.anims.get_or_init(|| {
            let multi = self.motns.len() > 1;
            self.refs
                .iter()
                .enumerate()
                .map(|(index, r)| {
                    let (fname, m) = (&self.motn_names[r.motn], &self.motns[r.motn]);
                    let e = &m.entries[r.entry];
                    let b = &m.blocks[e.block];
                    // The `list --json` extras are built when asked for (`animation_extra`).
                    let format = match &b.layout {
                        Layout::Curves(_) => "MOTN",
                        Layout::LegacyFrame32 { .. } => "MOTN legacy-frame32 (not decoded)",
                        Layout::Undecodable(_) => "MOTN undecodable layout",
                    };
                    AnimInfo {
                        index,
                        name: if multi { format!("{fname}:{}", e.name) } else { e.name.to_string() },
                        frames: u32::from(b.frames),
                        fps: FPS,
                        bones: r.bones,
                        format: format.to_string(),
                        source: format!("{fname}@{:#x}", b.offset),
                        skeleton: r.skeleton,
                        interpolation: Interpolation::Linear,
                        extra: Map::new(),
                    }
                })
                .collect()
        })
    }

    fn block_of(&self, anim: usize) -> Result<&crate::motn::Block> {
        let r = self.refs.get(anim).ok_or_else(|| Error::not_found(format!("no animation #{anim}")))?;
        let m = &self.motns[r.motn];
        Ok(&m.blocks[m.entries[r.entry].block])
    }

    /// The decoded curves of `anim`'s sequence (an error for listed-only layouts).
    fn motion_of(&self, anim: usize) -> Result<(&crate::motn::Block, &Motion)> {
        let b = self.block_of(anim)?;
        match &b.layout {
            Layout::Curves(m) => Ok((b, m)),
            // At the sequence's header, in the MOTN file holding it (the open's warning about
            // it names the same place).
            other => Err(Error::at(
                b.offset as u64,
                ErrorKind::Unsupported(format!(
                    "animation #{anim} ({}) uses the {} layout, which boneyard lists but does not decode",
                    self.anims()[anim].name,
                    other.kind()
                )),
            )
            .in_file(self.refs.get(anim).map_or("", |r| self.motn_paths[r.motn].as_str()))),
        }
    }

    /// Sample and evaluate: the curve values, world matrices of the animation's skeleton,
    /// the sampled frame, and the number of degenerate solver calls.
    fn evaluate(&self, anim: usize, frame: f64) -> Result<(Vec<CurveValue>, Vec<Mat4>, f32, u32)> {
        let (b, motion) = self.motion_of(anim)?;
        let f = clamp_frame(frame, b.frames);
        let values = sample_curves(motion, f);
        if b.family() == 0 {
            let controls = bind(&HUMAN_RIG, &values);
            let ev = rig::evaluate(&HUMAN_RIG, &controls);
            Ok((values, ev.world, f, ev.degenerate))
        } else {
            let world = self.family_world(b.family(), values.iter().map(|v| (v.control, v.axis, v.value)));
            Ok((values, world, f, 0))
        }
    }

    /// World matrices of a family other than the human rig from its curves' values
    /// (control, axis, value): FK on a declaring model's nodes, or the flat control skeleton.
    fn family_world(&self, family: u16, values: impl Iterator<Item = (u16, Axis, f32)>) -> Vec<Mat4> {
        let sk_index = self.family_skeleton.get(&family).copied();
        if let Some(nodes) = sk_index.and_then(|s| self.fk_nodes.get(&s)) {
            // FK on the declaring model's nodes: curve i overrides node i's values.
            let mut pos: Vec<Vec3> = nodes.iter().map(|n| n.position).collect();
            let mut rot: Vec<[i32; 3]> = nodes.iter().map(|n| n.rotation).collect();
            for (control, axis, value) in values {
                let i = usize::from(control);
                if axis.is_rotation() {
                    if let Some(r) = rot.get_mut(i) {
                        r[axis.component()] = i32::from(crate::curve::turns_to_raw(value));
                    }
                } else if let Some(p) = pos.get_mut(i) {
                    p[axis.component()] = value;
                }
            }
            let mut world: Vec<Mat4> = Vec::with_capacity(nodes.len());
            for (i, n) in nodes.iter().enumerate() {
                let local = crate::mt5::node_matrix(pos[i], rot[i], n.scale);
                let m = match n.parent.and_then(|p| world.get(p)) {
                    Some(p) => *p * local,
                    None => local,
                };
                world.push(m);
            }
            return world;
        }
        let sk = sk_index.and_then(|s| self.skeletons.get(s));
        let n = sk.map_or(1, |s| s.skeleton.len());
        let mut pos = vec![Vec3::ZERO; n];
        let mut rot = vec![[0i16; 3]; n];
        for (control, axis, value) in values {
            let i = usize::from(control);
            if axis.is_rotation() {
                if let Some(r) = rot.get_mut(i) {
                    r[axis.component()] = crate::curve::turns_to_raw(value);
                }
            } else if let Some(p) = pos.get_mut(i) {
                p[axis.component()] = value;
            }
        }
        let locals: Vec<Mat4> = pos.iter().zip(&rot).map(|(p, r)| rig::local_matrix(*p, *r)).collect();
        locals.iter().enumerate().map(|(i, l)| if i == 0 { *l } else { locals[0] * *l }).collect()
    }

    fn skeleton_of(&self, anim: usize) -> Option<&Skeleton> {
        self.refs.get(anim).and_then(|r| r.skeleton).and_then(|s| self.skeletons.get(s)).map(|s| &s.skeleton)
    }

    /// Root displacement on the ground plane since frame 0 (human family only).
    /// The root control has no parent, so its world translation is its position curves
    /// (or the default); frame 0's comes straight from the curves, without the rig.
    fn root_motion(&self, anim: usize, world: &[Mat4]) -> Result<Option<Vec3>> {
        let b = self.block_of(anim)?;
        let Some(m) = b.motion().filter(|_| b.family() == 0) else {
            return Ok(None);
        };
        let at0 = |axis: crate::curve::Axis, default: f32| {
            m.curves.iter().find(|c| c.control == 0 && c.axis == axis).map_or(default, |c| c.sample(0.0))
        };
        let p0 = Vec3::new(
            at0(crate::curve::Axis::PosX, HUMAN_RIG[0].position[0]),
            0.0,
            at0(crate::curve::Axis::PosZ, HUMAN_RIG[0].position[2]),
        );
        let p = world[0].w_axis.truncate();
        Ok(Some(Vec3::new(p.x - p0.x, 0.0, p.z - p0.z)))
    }

    /// One `check` line per animation; see [`Document::check`] on this type.
    ///
    /// Each distinct sequence is walked once, on rayon's threads; the lines, and the first
    /// error in animation order, are those of a walk in order.
    pub fn check_lines(&self) -> Result<Vec<String>> {
        use rayon::prelude::*;
        // In order: the distinct sequences (by their first animation) and where the work
        // bound is first exceeded, before walking anything.
        let mut job_of: BTreeMap<(usize, usize), usize> = BTreeMap::new();
        let mut jobs: Vec<usize> = Vec::new();
        let mut limit: Option<(usize, Error)> = None;
        let mut work = boneyard_core::Budget::new(
            boneyard_core::limit!(self.limits, max_check_work),
            "frame × (bones + curves) evaluations",
        );
        for i in 0..self.refs.len() {
            let r = self.refs[i];
            let key = (r.motn, self.motns[r.motn].entries[r.entry].block);
            if job_of.contains_key(&key) {
                continue;
            }
            let b = self.block_of(i)?;
            // Listed-only layouts are not walked.
            let spent = match b.motion() {
                Some(m) => {
                    let bones = self.skeleton_of(i).map_or(1, |s| s.len());
                    let per_frame = (bones + m.channel_count()) as u64;
                    work.spend(u64::from(b.frames).saturating_mul(per_frame))
                }
                None => work.spend(0),
            };
            if spent.is_err() {
                let what = format!("frame × (bones + curves) evaluations for the sequences up to animation #{i}");
                limit = Some((i, work.limit().error(b.offset as u64, work.spent(), what)));
                break;
            }
            job_of.insert(key, jobs.len());
            jobs.push(i);
        }
        let mut bodies: Vec<Option<Result<String>>> = jobs.par_iter().map(|&i| Some(self.check_block(i))).collect();
        let mut lines = Vec::with_capacity(self.refs.len());
        for (i, a) in self.anims().iter().enumerate() {
            if limit.as_ref().is_some_and(|(at, _)| *at == i) {
                return Err(limit.take().expect("limit").1);
            }
            let r = self.refs[i];
            let key = (r.motn, self.motns[r.motn].entries[r.entry].block);
            let slot = &mut bodies[job_of[&key]];
            let body = match slot {
                Some(Ok(s)) => s,
                Some(Err(_)) => return Err(slot.take().expect("slot").expect_err("an error")),
                None => unreachable!("an error returns"),
            };
            lines.push(format!("{} {} {}", a.index, a.name, body));
        }
        Ok(lines)
    }

    fn check_block(&self, anim: usize) -> Result<String> {
        let b = self.block_of(anim)?;
        let head = format!("frames={} family={} data={:#x}", b.frames, b.family(), b.offset);
        let motion = match &b.layout {
            Layout::Curves(m) => m,
            Layout::LegacyFrame32 { payload } => return Ok(format!("{head} layout=legacy-frame32 payload={payload}")),
            Layout::Undecodable(_) => return Ok(format!("{head} layout=undecodable flag={:#06x}", b.flag_high)),
        };
        // The lean walk: values sampled once per frame into a buffer (cursors walk the keys),
        // the rig evaluated into reused state; no channels, no per-frame allocation for the
        // human family. Same values and matrices as `sample`/`pose`, bit for bit.
        let n = motion.curves.len();
        let mut cursors = vec![0usize; n];
        let mut values = vec![0f32; n];
        let mut bytes = Vec::with_capacity(4 * n);
        let human = b.family() == 0;
        let defaults = Controls::defaults(&HUMAN_RIG);
        let mut controls = defaults.clone();
        let plan = RigPlan::human();
        let mut world: Vec<Mat4> = Vec::with_capacity(HUMAN_RIG.len());
        let mut h = crc32fast::Hasher::new();
        let mut degenerate = 0u32;
        for f in 0..b.frames {
            sample_into(motion, f32::from(f), &mut cursors, &mut values);
            bytes.clear();
            bytes.extend(values.iter().flat_map(|v| v.to_bits().to_le_bytes()));
            h.update(&bytes);
            if human {
                bind_into(&mut controls, &defaults, motion, &values);
                degenerate += plan.evaluate_into(&controls, &mut world);
            } else {
                world = self
                    .family_world(b.family(), motion.curves.iter().zip(&values).map(|(c, &v)| (c.control, c.axis, v)));
            }
            if let Some(bad) = world.iter().position(|m| !m.is_finite()) {
                return Err(Error::invalid(
                    b.offset as u64,
                    format!("animation #{anim} frame {f}: control {bad}'s solved matrix is not finite"),
                ));
            }
        }
        let solver = if b.family() == 0 { format!("ik=ok degenerate={degenerate}") } else { "ik=none".into() };
        Ok(format!("{head} channels={} crc={:08x} {solver}", motion.curves.len(), h.finalize()))
    }
}

impl Document for ShenmueDocument {
    fn family(&self) -> &'static str {
        "shenmue"
    }
    fn files(&self) -> Vec<FileSummary> {
        self.files.clone()
    }
    fn skeletons(&self) -> &[SkeletonInfo] {
        &self.skeletons
    }
    fn animations(&self) -> &[AnimInfo] {
        self.anims()
    }
    /// Data and metadata offsets, flagHigh, controller family, layout, the raw header, the
    /// decoded action metadata and (listed layouts) what their bytes show.
    fn animation_extra(&self, anim: usize) -> Map<String, Value> {
        match self.refs.get(anim) {
            Some(r) => {
                let m = &self.motns[r.motn];
                let e = &m.entries[r.entry];
                entry_extra(&m.blocks[e.block], e)
            }
            None => Map::new(),
        }
    }
    /// Per MOTN file: one summary line (no offset) naming everything left out, then one warning
    /// per listed sequence (its data offset), per gap of unreferenced bytes and per entry
    /// whose action metadata lies outside the metadata region; per MT5: what was read but not
    /// carried (vertex colours, PVR images) or skipped (other TEXD nodes).
    fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    fn sample(&self, anim: usize, frame: f64) -> Result<Sample> {
        let (values, world, f, degenerate) = self.evaluate(anim, frame)?;
        let channels =
            values.iter().map(|v| Channel::new(v.control.to_string(), v.axis.path(), f64::from(v.value))).collect();
        let skel = self.skeleton_of(anim).ok_or_else(|| Error::unsupported("animation has no skeleton"))?;
        let locals = locals_from_world(skel, &world);
        let root_motion = self.root_motion(anim, &world)?;
        let mut extra = Map::new();
        extra.insert("ik_degenerate".into(), Value::from(degenerate));
        // cli.md: a frame is said as the engine takes it. The curves are evaluated at any real
        // frame (f32), held at the clip's ends.
        extra.insert(
            "frame_rounding".into(),
            Value::from("none: curves are evaluated at the frame as f32, clamped into 0..frames-1"),
        );
        Ok(Sample { frame: f64::from(f), channels, locals, root_motion, extra })
    }

    /// `sample` without the channel list: the exporters' per-frame path.
    fn sample_locals(&self, anim: usize, frame: f64, locals: &mut Vec<Transform>) -> Result<Option<Vec3>> {
        let (_, world, _, _) = self.evaluate(anim, frame)?;
        let skel = self.skeleton_of(anim).ok_or_else(|| Error::unsupported("animation has no skeleton"))?;
        *locals = locals_from_world(skel, &world);
        self.root_motion(anim, &world)
    }

    /// The engine's matrices: the rig's control matrices after IK (human family), plain FK of
    /// the controls for other families. An MT5 model's node skeleton posed by a human-family
    /// animation takes the rig's matrices by render key (routed nodes) and FK elsewhere.
    fn pose(&self, skeleton: usize, anim: Option<usize>, frame: f64) -> Result<Vec<Mat4>> {
        let info = self.skeletons.get(skeleton).ok_or_else(|| Error::not_found(format!("no skeleton #{skeleton}")))?;
        match anim {
            None => Ok(info.skeleton.rest_world()),
            Some(a) => {
                let own = self.refs.get(a).and_then(|r| r.skeleton);
                if own == Some(skeleton) {
                    Ok(self.evaluate(a, frame)?.1)
                } else if let (Some(r), Some(0)) = (self.routes.get(&skeleton), own) {
                    Ok(route_pose(r, &self.evaluate(a, frame)?.1))
                } else if let Some(own) = own {
                    let id = |s: usize| self.skeletons.get(s).map_or(String::new(), |i| format!(" {}", i.id));
                    let name = self.animations().get(a).map_or("", |x| x.name.as_str());
                    Err(Error::not_found(format!(
                        "animation #{a} {name} plays on skeleton #{own}{}, not #{skeleton}{}",
                        id(own),
                        id(skeleton)
                    )))
                } else {
                    // Listed, not decoded (a layout whose playback is unpublished): its own
                    // warning says why.
                    Err(Error::unsupported(format!("animation #{a} is listed, not decoded: no skeleton plays it")))
                }
            }
        }
    }

    /// One line per table entry (name), walking every frame of every sequence:
    ///
    /// `<index> <name> frames=<n> family=<controller family> data=<hex offset> channels=<curves> crc=<8 hex> ik=ok degenerate=<n>`
    ///
    /// * `crc` is the CRC-32 of every curve's sampled value (f32 bits, little-endian) at every
    ///   integer frame 0..frames-1, curves in block order, frames outermost;
    /// * `ik=ok` says the rig was evaluated (IK solved) at every frame and every control
    ///   matrix was finite (a non-finite one fails the check); `degenerate` counts solver
    ///   calls that needed the documented fallback axes. Other families print `ik=none`.
    /// * Listed layouts: `... layout=legacy-frame32 payload=<bytes>` or
    ///   `... layout=undecodable flag=<flagHigh>` instead of channels/crc.
    fn check(&self) -> Result<Vec<String>> {
        self.check_lines()
    }
}

#[cfg(test)]
mod tests {
    /// The control names written directly are what `format!` writes, at every digit count.
    #[test]
    fn control_names_are_formatted() {
        let mut i = 1usize;
        let mut tried = vec![0, usize::MAX, usize::MAX - 1];
        while let Some(next) = i.checked_mul(10) {
            tried.extend([i - 1, i, i + 1, next - 1]);
            i = next;
        }
        tried.extend(0..2000);
        for i in tried {
            assert_eq!(super::control_name(i), format!("control_{i}"));
        }
    }
}
