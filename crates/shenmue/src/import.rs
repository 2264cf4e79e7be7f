//! Write-back: [`Clip`]s on the human rig (30 fps, the rig's 37 control names) encoded as MOTN
//! sequences in a copy of the `--into` `MOTION.BIN` ([`crate::bank`]).
//!
//! * **From the FK pose to what the rig reads.** The clip's locals give every control's world
//!   matrix (plain FK, as boneyard exports the rig: the IK already baked in). The rig reads
//!   back: the root's position and rotation; every control a solver does not place, its
//!   rotation relative to its parent (feet and hands relative to the solved targets, as the
//!   rig chains them); each IK target's world position (feet, hands: where the FK pose puts
//!   them; the torso and head aims: the end of the aimed bone, which the aim solver puts back
//!   at the same place). The limbs' bend is set by the two-bone root's rotation (its Z axis is
//!   the pole): that rotation is turned about the root→target axis until its pole is the
//!   normal of the plane the FK pose's knee or elbow lies in (on the side the solver bends to),
//!   so an edited knee or elbow is solved back where the FK pose has it; the aimed roots'
//!   rotations likewise carry the aimed bone's roll. Rotations are the rig's `Rz · Ry · Rx`
//!   angles, in turns, chosen continuous from frame to frame.
//! * **Channels.** The root: position and rotation (0x1F8); the six targets: position
//!   (0x1C0); every other control whose rotation leaves the rig's default at some frame:
//!   rotation (0x38), as the game's own human sequences have them. Translations of other
//!   controls (bone lengths) and scales are not in the rig: a warning names the bones.
//! * **Keys** ([`crate::fit`]): within `tolerance` of the clip, read as metres for position
//!   channels and radians for rotation channels ([`DEFAULT_TOLERANCE`]); half precision is the
//!   floor where it is coarser.
//! * **Read back.** The written file is opened again by the reader ([`crate::open_bytes`]): every
//!   entry not written must have its bytes and metadata unchanged, every written sequence must
//!   decode to the keys written, and the rig is evaluated at every frame from the file: the
//!   largest distance of any control from where the clip's FK pose has it is reported
//!   (`max_control_error_m`), and a warning names the controls farther than
//!   [`WARN_CONTROL_ERROR`] (what the rig cannot hold: other bone lengths, a twisted limb).
//! * **Other controller families** (their rigs are not published; boneyard plays them as flat
//!   FK, control 0 the root and every other control under it): each control's own position and
//!   rotation are written as they are, for every control whose values leave 0 (what a control
//!   without curves holds) at some frame, with the family in flagHigh ([`family_targets`]).

use crate::bank::{self, NewSequence};
use crate::curve::Axis;
use crate::encode::{encode_sequence_checked, CurveSpec, KeySpec, SequenceSpec};
use crate::fit::{place_keys, Quantity};
use crate::motn::MotnFile;
use crate::rig::{RigPlan, HUMAN_RIG};
use boneyard_core::Warning;
use boneyard_core::{Clip, Document, Error, ImportOptions, Imported, ImportedAnim, ImportedFile, InputFile, Result};
use glam::{DMat3, DMat4, DQuat, DVec3};
use serde_json::json;
use std::f64::consts::TAU;

/// Default tolerance: 0.5 mm for position channels, 0.5 mrad (0.03°) for rotation channels.
pub const DEFAULT_TOLERANCE: f64 = 5e-4;
/// A control the written motion puts farther than this from the clip's pose is warned about.
pub const WARN_CONTROL_ERROR: f64 = 5e-3;
/// A knee or elbow closer than this (metres) to the line from its limb's root to its target
/// leaves the pole to the upper bone's own axes (the plane it bends in is then noise).
pub const MIN_BEND: f64 = 0.01;
/// A bent limb's target this far (metres) off its lower bone's end is a pose the rig cannot
/// hold ([`Strain`]).
pub const STRAIN: f64 = 1e-3;
/// Longest sequence name written (the reader reads 63 characters and the NUL). A fact of the format, not a `Limits` field.
pub const MAX_NAME: usize = 63;

/// One channel's targets, one per frame (metres, or turns continuous from frame to frame).
#[derive(Debug, Clone)]
pub struct ChannelTarget {
    /// The rig control the channel drives.
    pub control: u16,
    /// Which of its position or rotation components.
    pub axis: Axis,
    /// Whether the values are metres or turns (what the tolerance bounds).
    pub quantity: Quantity,
    /// The target at every frame.
    pub values: Vec<f64>,
    /// Whether the channel is written. A channel whose targets are what the engine holds with
    /// no channel (the control's default) is not, unless the sequence the clip was made from
    /// has it (its name, or `--like`).
    pub needed: bool,
}

/// What a clip asks of the rig.
#[derive(Debug, Clone)]
pub struct HumanTargets {
    /// Every channel the rig reads, with its per-frame targets.
    pub channels: Vec<ChannelTarget>,
    /// Per frame, every control's world position in the clip's FK pose.
    pub positions: Vec<Vec<DVec3>>,
    /// Bones whose translations or scales the rig does not hold.
    pub not_kept: Vec<String>,
    /// Per frame, every control's world rotation in the clip's FK pose (what the bones'
    /// rotation error is measured against).
    pub rotations: Vec<Vec<DQuat>>,
    /// Two-bone limbs the pose holds bent with the target off the lower bone's end: what the
    /// rig cannot play (it bends the limb or reaches past it, not both).
    pub strained: Vec<Strain>,
}

/// A two-bone limb whose target the clip's pose holds off the lower bone's end while the limb
/// is bent (see [`HumanTargets::strained`]): a stretched limb an editor interpolated (a kick
/// retimed: the foot target's translation and the knee's rotation blended apart).
#[derive(Debug, Clone, PartialEq)]
pub struct Strain {
    /// The lower bone (shin, forearm).
    pub lower: String,
    /// The target (foot, hand target).
    pub target: String,
    /// The largest distance (metres) of the target from where the lower bone ends.
    pub max_m: f64,
    /// The first and last frame it happens at, and at how many frames.
    pub frames: (usize, usize, usize),
}

/// `Rz · Ry · Rx` angles (radians, x, y, z) of a rotation matrix; the principal solution
/// (|y| ≤ 90°). x is solved from `Rz(−z) · m = Ry(y) · Rx(x)` with the z found, so the triple
/// is the matrix's even near gimbal lock: there z and x are each as uncertain as the
/// matrix's rounding is large against cos y (a single-precision pose at y = 90° gave angles 5.6°
/// off, x and z taken each from its own noisy pair of entries), but x − z or x + z, which is
/// all the matrix holds, comes out right.
pub fn euler_zyx(m: &DMat3) -> [f64; 3] {
    let (r00, r10, r20) = (m.x_axis.x, m.x_axis.y, m.x_axis.z);
    let (r01, r11) = (m.y_axis.x, m.y_axis.y);
    let (r02, r12) = (m.z_axis.x, m.z_axis.y);
    let c = r00.hypot(r10);
    let y = (-r20).atan2(c);
    // At exact lock only x ± z is defined: z = 0.
    let z = if c < 1e-12 { 0.0 } else { r10.atan2(r00) };
    let (sz, cz) = z.sin_cos();
    [(sz * r02 - cz * r12).atan2(cz * r11 - sz * r01), y, z]
}

/// Of the two angle triples of the rotation (`a` and `(x + ½, ½ − y, z + ½)` turns), each
/// angle moved by whole turns to the nearest of `prev`, the one closest to `prev`.
fn continuous(a: [f64; 3], prev: Option<[f64; 3]>) -> [f64; 3] {
    let Some(p) = prev else { return a };
    let near = |v: f64, p: f64| v + ((p - v) + 0.5).floor();
    let cands =
        [a, [a[0] + 0.5, 0.5 - a[1], a[2] + 0.5]].map(|c| [near(c[0], p[0]), near(c[1], p[1]), near(c[2], p[2])]);
    let cost = |c: &[f64; 3]| (0..3).map(|i| (c[i] - p[i]).abs()).sum::<f64>();
    if cost(&cands[1]) < cost(&cands[0]) {
        cands[1]
    } else {
        cands[0]
    }
}

fn rot3(m: &DMat4) -> DMat3 {
    DMat3::from_mat4(*m)
}

/// `m`'s columns made unit (a pose's scale taken out, so that its rotation can be read).
fn orthonormal(m: &DMat3) -> DMat3 {
    DMat3::from_cols(m.x_axis.normalize_or_zero(), m.y_axis.normalize_or_zero(), m.z_axis.normalize_or_zero())
}

/// The angle (radians) between two rotations, well-conditioned near 0 (4·atan2(|a − b|,
/// |a + b|) in one hemisphere; an acos of the dot product is only good to 1e-4 there in f32).
fn angle_between(a: DQuat, b: DQuat) -> f64 {
    let b = if a.dot(b) < 0.0 { -b } else { b };
    4.0 * (a - b).length().atan2((a + b).length())
}

/// Turn `w`'s rotation about `axis` (unit) so that its Z axis, made perpendicular to `axis`,
/// points along `want` (perpendicular to `axis`, unit); `w` unchanged when either is degenerate.
fn roll_pole(w: &DMat4, axis: DVec3, want: DVec3) -> DMat4 {
    let z = w.z_axis.truncate();
    let cur = z - axis * z.dot(axis);
    if cur.length() < 1e-6 || want.length() < 0.5 {
        return *w;
    }
    let cur = cur.normalize();
    let angle = cur.cross(want).dot(axis).atan2(cur.dot(want));
    let r = DMat3::from_axis_angle(axis, angle) * rot3(w);
    DMat4::from_cols(r.x_axis.extend(0.0), r.y_axis.extend(0.0), r.z_axis.extend(0.0), w.w_axis)
}

/// The targets of `clip` (its bones = the rig's controls, in order): see the module docs.
pub fn human_targets(clip: &Clip) -> Result<HumanTargets> {
    let skel = crate::document::rig_skeleton();
    let plan = RigPlan::human();
    let n = HUMAN_RIG.len();
    let frames = clip.frames();
    let mut rot: Vec<Vec<[f64; 3]>> = vec![Vec::with_capacity(frames); n];
    let mut positions = Vec::with_capacity(frames);
    let mut target_pos: Vec<Vec<DVec3>> = vec![Vec::with_capacity(frames); n];
    let mut not_kept = std::collections::BTreeSet::new();
    let mut rotations = Vec::with_capacity(frames);
    let limbs: Vec<(usize, usize, usize)> =
        (0..n).filter_map(|r| plan.chain(r).and_then(|(u, l, t)| Some((u, l?, t)))).collect();
    let mut strain: Vec<Option<(f64, usize, usize, usize)>> = vec![None; limbs.len()];
    // The two-bone targets: their world positions are written (the solver reaches for them
    // whether or not the limb spans them), so their translations are kept.
    let reached: Vec<usize> = (0..n).filter_map(|r| plan.chain(r).filter(|c| c.1.is_some()).map(|c| c.2)).collect();
    for pose in &clip.poses {
        for (b, t) in pose.iter().enumerate().skip(1) {
            let rest = &skel.bones[b].rest;
            if !reached.contains(&b) && (t.translation - rest.translation).abs().max_element() > 1e-4 {
                not_kept.insert(skel.bones[b].name.clone());
            }
        }
        for (b, t) in pose.iter().enumerate() {
            if (t.scale - glam::Vec3::ONE).abs().max_element() > 1e-4 {
                not_kept.insert(skel.bones[b].name.clone());
            }
        }
        let mut w: Vec<DMat4> = boneyard_core::fk::world_matrices(&skel, pose).iter().map(|m| m.as_dmat4()).collect();
        positions.push(w.iter().map(|m| m.w_axis.truncate()).collect::<Vec<_>>());
        rotations.push(w.iter().map(|m| DQuat::from_mat3(&orthonormal(&rot3(m)))).collect::<Vec<_>>());
        // A bent limb whose target is off its lower bone's end (the rig's solve has it there).
        for (k, &(upper, lower, target)) in limbs.iter().enumerate() {
            let origin = w[upper].w_axis.truncate();
            let (joint, end) = (w[lower].w_axis.truncate(), w[target].w_axis.truncate());
            let Some(axis) = (end - origin).try_normalize() else { continue };
            let knee = joint - origin;
            let bent = (knee - axis * knee.dot(axis)).length() >= MIN_BEND;
            let off = ((end - joint).length() - DVec3::from(HUMAN_RIG[target].position.map(f64::from)).length()).abs();
            if bent && off > STRAIN {
                let f = positions.len() - 1;
                let e = strain[k].get_or_insert((0.0, f, f, 0));
                *e = (e.0.max(off), e.1, f, e.3 + 1);
            }
        }
        // The poles: the solver roots' rolls about their root→target axes.
        for r in 0..n {
            let Some((upper, lower, target)) = plan.chain(r) else { continue };
            let origin = w[r].w_axis.truncate();
            let Some(axis) = (w[target].w_axis.truncate() - origin).try_normalize() else { continue };
            // The upper bone's own Z (the pole the solver gave it), unless a bent limb's
            // plane says otherwise (an edited knee or elbow): then that plane's normal, on the
            // side the solver bends to (target × pole for the lower joint's subtype 0, else
            // pole × target). A nearly straight limb's plane is noise: its Z decides.
            let z = w[upper].z_axis.truncate();
            let mut want = (z - axis * z.dot(axis)).normalize_or_zero();
            if let Some(l) = lower {
                let knee = w[l].w_axis.truncate() - origin;
                let perp = knee - axis * knee.dot(axis);
                if perp.length() >= MIN_BEND {
                    let bend = perp.normalize();
                    want = if HUMAN_RIG[l].subtype == 0 { bend.cross(axis) } else { axis.cross(bend) };
                }
            }
            w[r] = roll_pole(&w[r], axis, want);
        }
        for c in 0..n {
            if plan.is_solved(c) {
                target_pos[c].push(w[c].w_axis.truncate());
                continue;
            }
            let local = match HUMAN_RIG[c].parent {
                Some(p) => w[p].inverse() * w[c],
                None => w[c],
            };
            let a = euler_zyx(&rot3(&local)).map(|v| v / TAU);
            let prev = rot[c].last().copied();
            rot[c].push(continuous(a, prev));
        }
    }
    let mut channels = Vec::new();
    let push = |channels: &mut Vec<ChannelTarget>, c: usize, axis: Axis, values: Vec<f64>, needed: bool| {
        let quantity = if axis.is_rotation() { Quantity::Rotation } else { Quantity::Position };
        channels.push(ChannelTarget { control: c as u16, axis, quantity, values, needed });
    };
    for c in 0..n {
        let is_target = plan.is_solved(c) && (0..n).any(|r| plan.chain(r).is_some_and(|ch| ch.2 == c));
        if c == 0 || is_target {
            for (k, axis) in [Axis::PosX, Axis::PosY, Axis::PosZ].into_iter().enumerate() {
                let v: Vec<f64> = if c == 0 {
                    positions.iter().map(|f| f[0][k]).collect()
                } else {
                    target_pos[c].iter().map(|v| v[k]).collect()
                };
                push(&mut channels, c, axis, v, true);
            }
        }
        if plan.is_solved(c) {
            continue;
        }
        let default = HUMAN_RIG[c].rotation;
        let moves = rot[c].iter().any(|a| {
            (0..3).any(|k| {
                let d = ((a[k] * 65536.0).round() - f64::from(default[k])).rem_euclid(65536.0);
                d != 0.0
            })
        });
        for (k, axis) in [Axis::RotX, Axis::RotY, Axis::RotZ].into_iter().enumerate() {
            let mut v: Vec<f64> = rot[c].iter().map(|a| a[k]).collect();
            // Whole turns off, so the curve starts within half a turn of 0 (halves are
            // finer there).
            let shift = (v[0] + 0.5).floor();
            v.iter_mut().for_each(|x| *x -= shift);
            push(&mut channels, c, axis, v, c == 0 || moves);
        }
    }
    let strained = limbs
        .iter()
        .zip(strain)
        .filter_map(|(&(_, lower, target), s)| {
            let (max_m, first, last, count) = s?;
            Some(Strain {
                lower: HUMAN_RIG[lower].name.to_string(),
                target: HUMAN_RIG[target].name.to_string(),
                max_m,
                frames: (first, last, count),
            })
        })
        .collect();
    Ok(HumanTargets { channels, positions, not_kept: not_kept.into_iter().collect(), rotations, strained })
}

/// The sequence name of a clip: its name with characters other than ASCII letters, digits and
/// `_` replaced by `_`.
pub fn sequence_name(clip: &str) -> Result<String> {
    let s: String = clip.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if s.is_empty() || s.len() > MAX_NAME {
        return Err(Error::unplaced(format!("clip {clip:?}: a sequence name has 1 to {MAX_NAME} characters")));
    }
    Ok(s)
}

/// One clip encoded.
#[derive(Debug, Clone)]
pub struct EncodedClip {
    /// The sequence as the encoder takes it (curves and keys).
    pub spec: SequenceSpec,
    /// Its encoded bytes (header and five blocks).
    pub bytes: Vec<u8>,
    /// What the keys were fitted to.
    pub targets: HumanTargets,
    /// Keys written over all channels.
    pub keys: usize,
    /// Largest distance (metres) of a position channel from its target at any frame.
    pub max_position_error: f64,
    /// Largest difference (turns) of a rotation channel from its target at any frame.
    pub max_rotation_error: f64,
    /// The sequence the clip was made from (its name, or `--like`) and how many of its channels were
    /// written with its own keys.
    pub original: Option<(String, usize)>,
}

/// A sequence of the `--into` file the clip was made from (its name, or `--like`): a channel
/// whose keys, as the engine samples them, stay within the tolerance of the clip's at every
/// frame is written with those keys, not fitted anew. An unedited round trip then keeps Sega's
/// keys (bytes a tool comparing sequences finds unchanged) and an edit rewrites only the
/// channels it moved.
pub struct Original<'a> {
    /// Its name (for the report).
    pub name: &'a str,
    /// Its frame count (channels are kept only when it is the clip's).
    pub frames: u16,
    /// Its channels.
    pub curves: &'a [crate::curve::Curve],
}

/// The skeleton clips are written for: the human rig, or the flat control skeleton of another
/// controller family (control 0 the root, every other control under it, plain FK).
#[derive(Debug, Clone)]
pub enum Target {
    /// The 37-control human rig (family 0), IK targets written.
    Human,
    /// Another controller family: every control's own position and rotation.
    Family {
        /// The controller family (flagHigh).
        family: u16,
        /// Its flat control skeleton, as boneyard reads it.
        skeleton: boneyard_core::Skeleton,
    },
}

impl Target {
    fn names(&self) -> Vec<String> {
        match self {
            Target::Human => HUMAN_RIG.iter().map(|c| c.name.to_string()).collect(),
            Target::Family { skeleton, .. } => skeleton.bones.iter().map(|b| b.name.clone()).collect(),
        }
    }
    fn flag_high(&self) -> u16 {
        match self {
            Target::Human => 0,
            Target::Family { family, .. } => *family,
        }
    }

    /// What the engine holds in a channel a sequence does not have: the rig's default (a
    /// position as it is, a rotation in turns of its int16); 0 for the flat families.
    fn default_value(&self, control: u16, axis: Axis) -> f32 {
        let Target::Human = self else { return 0.0 };
        let Some(def) = HUMAN_RIG.get(usize::from(control)) else { return 0.0 };
        let k = axis.component();
        if axis.is_rotation() {
            f32::from(def.rotation[k]) / 65536.0
        } else {
            def.position[k]
        }
    }
}

/// A family's flat control skeleton: each control's own position and rotation, as the curves
/// drive them (controls hold 0 where no curve drives them, as the reader plays them): the
/// channels of a control whose values leave 0 at some frame.
pub fn family_targets(clip: &Clip, skeleton: &boneyard_core::Skeleton) -> HumanTargets {
    let n = skeleton.len();
    let mut positions = Vec::with_capacity(clip.frames());
    let mut rot: Vec<Vec<[f64; 3]>> = vec![Vec::with_capacity(clip.frames()); n];
    let mut not_kept = std::collections::BTreeSet::new();
    let mut rotations = Vec::with_capacity(clip.frames());
    for pose in &clip.poses {
        let w = boneyard_core::fk::world_matrices(skeleton, pose);
        positions.push(w.iter().map(|m| m.w_axis.truncate().as_dvec3()).collect::<Vec<_>>());
        rotations.push(w.iter().map(|m| DQuat::from_mat3(&orthonormal(&rot3(&m.as_dmat4())))).collect::<Vec<_>>());
        for (c, t) in pose.iter().enumerate().take(n) {
            if (t.scale - glam::Vec3::ONE).abs().max_element() > 1e-4 {
                not_kept.insert(skeleton.bones[c].name.clone());
            }
            let m = DMat3::from_quat(t.rotation.as_dquat().normalize());
            let a = euler_zyx(&m).map(|v| v / TAU);
            let prev = rot[c].last().copied();
            rot[c].push(continuous(a, prev));
        }
    }
    let mut channels = Vec::new();
    for c in 0..n {
        let pos: Vec<[f64; 3]> = clip.poses.iter().map(|p| p[c].translation.as_dvec3().to_array()).collect();
        let needed = pos.iter().any(|v| v.iter().any(|x| x.abs() > 1e-6));
        for (k, axis) in [Axis::PosX, Axis::PosY, Axis::PosZ].into_iter().enumerate() {
            let values = pos.iter().map(|v| v[k]).collect();
            channels.push(ChannelTarget { control: c as u16, axis, quantity: Quantity::Position, values, needed });
        }
        let needed = rot[c].iter().any(|a| a.iter().any(|x| (x * 65536.0).round().rem_euclid(65536.0) != 0.0));
        for (k, axis) in [Axis::RotX, Axis::RotY, Axis::RotZ].into_iter().enumerate() {
            let mut values: Vec<f64> = rot[c].iter().map(|a| a[k]).collect();
            let shift = (values[0] + 0.5).floor();
            values.iter_mut().for_each(|x| *x -= shift);
            channels.push(ChannelTarget { control: c as u16, axis, quantity: Quantity::Rotation, values, needed });
        }
    }
    HumanTargets { channels, positions, not_kept: not_kept.into_iter().collect(), rotations, strained: Vec::new() }
}

/// Encode one clip on the human rig (see the module docs).
pub fn encode_clip(clip: &Clip, tolerance: f64) -> Result<EncodedClip> {
    encode_on(clip, &Target::Human, tolerance, None)
}

/// Encode one clip on `target`, keeping `original`'s channels where they hold.
pub fn encode_on(clip: &Clip, target: &Target, tolerance: f64, original: Option<&Original>) -> Result<EncodedClip> {
    let err = |m: String| Error::unplaced(format!("clip {:?}: {m}", clip.name)).in_file(&clip.source);
    clip.validate()?;
    let names = target.names();
    if clip.bones != names {
        return Err(err(format!("its bones are not the skeleton's {} controls in order", names.len())));
    }
    if !clip.animated.iter().any(|&a| a) {
        return Err(err("no bone of the clip matches a control of the skeleton".into()));
    }
    if clip.fps != crate::document::FPS {
        return Err(err(format!("sampled at {} fps; MOTN plays {} fps", clip.fps, crate::document::FPS)));
    }
    if clip.frames() > crate::encode::MAX_FRAMES {
        return Err(err(format!(
            "{} frames; a MOTN sequence holds at most {}",
            clip.frames(),
            crate::encode::MAX_FRAMES
        )));
    }
    if !(tolerance.is_finite() && tolerance >= 0.0) {
        return Err(err(format!("tolerance {tolerance}")));
    }
    let name = sequence_name(&clip.name).map_err(|e| e.in_file(&clip.source))?;
    let targets = match target {
        Target::Human => human_targets(clip)?,
        Target::Family { skeleton, .. } => family_targets(clip, skeleton),
    };
    let (mut pos_err, mut rot_err, mut keys, mut kept) = (0f64, 0f64, 0usize, 0usize);
    let original = original.filter(|o| usize::from(o.frames) == clip.frames());
    let mut targets = targets;
    let default = |c: u16, axis: Axis| target.default_value(c, axis);
    if let Some(o) = original {
        take_original_angles(&mut targets.channels, o.curves, tolerance, &default);
        if matches!(target, Target::Human) {
            take_original_aims(&mut targets, o.curves, tolerance, &default);
        }
    }
    // The channels written: those needed, and those the original has (kept below where they
    // hold, else fitted); where the original has no channel and the engine's default holds at
    // every frame, none (as the original).
    targets.channels.retain(|ch| {
        let stored = original.map(|o| o.curves.iter().any(|c| c.control == ch.control && c.axis == ch.axis));
        match stored {
            None => ch.needed,
            Some(true) => true,
            Some(false) => {
                let d = default(ch.control, ch.axis);
                ch.needed && !ch.values.iter().all(|&v| ch.quantity.error(d, v) <= tolerance)
            }
        }
    });
    let mut curves = Vec::with_capacity(targets.channels.len());
    for ch in &targets.channels {
        if let Some(f) = ch.values.iter().position(|v| !v.is_finite()) {
            return Err(err(format!(
                "control {} ({}) {} at frame {f} is not finite",
                ch.control,
                names[usize::from(ch.control)],
                ch.axis.path()
            )));
        }
        // Positions are stored as IEEE halves: a value past the largest would be written as it
        // (the game playing the root tens of kilometres from where the clip has it).
        let most = f64::from(half::f16::MAX);
        if ch.quantity == Quantity::Position {
            if let Some((f, v)) = ch.values.iter().enumerate().find(|(_, v)| v.abs() > most) {
                return Err(err(format!(
                    "control {} ({}) {} at frame {f} is {v} m, outside the range MOTN's half floats hold (±{most})",
                    ch.control,
                    names[usize::from(ch.control)],
                    ch.axis.path()
                )));
            }
        }
        // The original's channel where it holds within the tolerance at every frame (its keys
        // are whole halves, as the encoder writes them, so they are written as they were read).
        let stored = original
            .and_then(|o| o.curves.iter().find(|c| c.control == ch.control && c.axis == ch.axis))
            .filter(|c| c.keys.first().is_some_and(|k| k.frame == 0))
            .map(|c| {
                let error = (0..ch.values.len())
                    .map(|f| ch.quantity.error(c.sample(f as f32), ch.values[f]))
                    .fold(0.0, f64::max);
                crate::fit::Fitted { keys: c.keys.to_vec(), max_error: error }
            })
            .filter(|f| f.max_error <= tolerance);
        kept += usize::from(stored.is_some());
        let fit = stored.unwrap_or_else(|| place_keys(ch.quantity, &ch.values, tolerance));
        match ch.quantity {
            Quantity::Position => pos_err = pos_err.max(fit.max_error),
            Quantity::Rotation => rot_err = rot_err.max(fit.max_error),
        }
        keys += fit.keys.len();
        curves.push(CurveSpec {
            control: ch.control,
            axis: ch.axis,
            keys: fit
                .keys
                .iter()
                .map(|k| KeySpec {
                    frame: k.frame,
                    count: k.count,
                    tangent_in: k.tangent_in,
                    tangent_out: k.tangent_out,
                    value: k.value,
                })
                .collect(),
        });
    }
    let spec = SequenceSpec { name, frames: clip.frames() as u16, flag_high: target.flag_high(), curves };
    let bytes = encode_sequence_checked(&spec).map_err(|e| {
        // Name the control by its bone name too. (The encoder's offsets are in the sequence
        // being made, which is no file's: only the message is kept.)
        let m = e.kind.to_string();
        let bone = spec
            .curves
            .iter()
            .find(|c| m.contains(&format!("control {} ", c.control)))
            .map(|c| format!(" (bone {:?})", names[usize::from(c.control)]))
            .unwrap_or_default();
        err(format!("{m}{bone}"))
    })?;
    Ok(EncodedClip {
        spec,
        bytes,
        targets,
        keys,
        max_position_error: pos_err,
        max_rotation_error: rot_err,
        original: original.map(|o| (o.name.to_string(), kept)),
    })
}

/// A rotation has two `Rz·Ry·Rx` angle triples (and whole turns more or less), and the pose
/// says which rotation, not which triple: where the original's three rotation channels of a
/// control play, at every frame, a rotation within `tolerance` (radians) of the target's (as
/// the engine uses them: its int16 angles), the targets become the original's angles, so that
/// its channels can be kept (and a channel fitted anew stays on its branch).
fn take_original_angles(
    channels: &mut [ChannelTarget],
    curves: &[crate::curve::Curve],
    tolerance: f64,
    default: &dyn Fn(u16, Axis) -> f32,
) {
    let rotation =
        |a: [f64; 3]| DQuat::from_rotation_z(a[2]) * DQuat::from_rotation_y(a[1]) * DQuat::from_rotation_x(a[0]);
    let controls: std::collections::BTreeSet<u16> = channels.iter().map(|c| c.control).collect();
    for control in controls {
        let axes = [Axis::RotX, Axis::RotY, Axis::RotZ];
        let Some((at, stored)) = original_triples(channels, curves, control, axes, default) else { continue };
        let holds = stored.iter().enumerate().all(|(f, o)| {
            let engine = o.map(|v| f64::from(crate::curve::raw_to_radians(crate::curve::turns_to_raw(v))));
            let want = at.map(|i| channels[i].values[f] * TAU);
            angle_between(rotation(engine), rotation(want)) <= tolerance
        });
        if holds {
            take_values(channels, at, &stored);
        }
    }
}

/// An aimed bone (the torso, the head) turns to its target's direction and puts its end at its
/// own length: the pose gives that end, while the original's target may lie anywhere on the
/// line. Where the original's target is, at every frame, in the direction of the pose's within
/// `tolerance` (radians) as seen from the aimed bone's root, the targets become the original's.
fn take_original_aims(
    targets: &mut HumanTargets,
    curves: &[crate::curve::Curve],
    tolerance: f64,
    default: &dyn Fn(u16, Axis) -> f32,
) {
    let plan = RigPlan::human();
    for r in 0..HUMAN_RIG.len() {
        let Some((upper, None, aim)) = plan.chain(r) else { continue };
        let axes = [Axis::PosX, Axis::PosY, Axis::PosZ];
        let Some((at, stored)) = original_triples(&targets.channels, curves, aim as u16, axes, default) else {
            continue;
        };
        let point = |v: [f64; 3]| DVec3::from_array(v);
        let holds = stored.iter().enumerate().all(|(f, o)| {
            let root = targets.positions[f][upper];
            let want = point(at.map(|i| targets.channels[i].values[f]));
            match ((point(o.map(f64::from)) - root).try_normalize(), (want - root).try_normalize()) {
                (Some(a), Some(b)) => a.angle_between(b) <= tolerance,
                _ => false,
            }
        });
        if holds {
            take_values(&mut targets.channels, at, &stored);
        }
    }
}

/// `control`'s channels of `axes` (their indices in `channels`) and the original's values of
/// them at every frame, an axis it has no channel for holding `default`'s; `None` when the
/// clip's channels lack one of them.
fn original_triples(
    channels: &[ChannelTarget],
    curves: &[crate::curve::Curve],
    control: u16,
    axes: [Axis; 3],
    default: &dyn Fn(u16, Axis) -> f32,
) -> Option<([usize; 3], Vec<[f32; 3]>)> {
    let at = |axis: Axis| channels.iter().position(|c| c.control == control && c.axis == axis);
    let [Some(x), Some(y), Some(z)] = axes.map(at) else { return None };
    let stored = axes.map(|axis| curves.iter().find(|c| c.control == control && c.axis == axis));
    let frames = channels[x].values.len();
    let values = (0..frames)
        .map(|f| [0, 1, 2].map(|k| stored[k].map_or_else(|| default(control, axes[k]), |c| c.sample(f as f32))))
        .collect();
    Some(([x, y, z], values))
}

/// The channels at `at` take the original's values.
fn take_values(channels: &mut [ChannelTarget], at: [usize; 3], stored: &[[f32; 3]]) {
    for (k, i) in at.into_iter().enumerate() {
        channels[i].values = stored.iter().map(|o| f64::from(o[k])).collect();
    }
}

/// The action metadata an appended clip takes without `--like`: the block most human entries
/// share whose decoded records hold no hit frames, attack, or cues. `None` when there is none.
fn empty_action(m: &MotnFile) -> Option<(u32, String)> {
    let mut count: std::collections::BTreeMap<u32, (usize, String)> = Default::default();
    for e in &m.entries {
        let Some(a) = e.action() else { continue };
        if m.blocks[e.block].family() == 0
            && a.hit_frames.is_none()
            && a.attack.is_none()
            && a.sound_cues.is_empty()
            && a.surface_cues.is_empty()
        {
            count.entry(e.meta_offset).or_insert((0, e.name.to_string())).0 += 1;
        }
    }
    count.into_iter().max_by_key(|(o, (c, _))| (*c, std::cmp::Reverse(*o))).map(|(o, (_, n))| (o, n))
}

/// [`boneyard_core::Family::import_clips`] for Shenmue: `into` holds one MOTN file (a
/// `MOTION.BIN`), the clips are written into a copy of it.
pub fn import_clips(into: Vec<InputFile>, clips: &[Clip], options: &ImportOptions) -> Result<Imported> {
    let motns: Vec<&InputFile> = into.iter().filter(|f| crate::motn::looks_like_motn(&f.data)).collect();
    let file = match motns.as_slice() {
        [one] => *one,
        [] => {
            return Err(Error::unsupported(
                "the --into files hold no MOTN file (MOTION.BIN) to write into; MOTN inside containers is not written",
            ))
        }
        _ => {
            return Err(Error::unplaced(format!("--into holds {} MOTN files: give the one to write into", motns.len())))
        }
    };
    let fname = file.name();
    let doc = crate::open_bytes(&[(fname.clone(), &file.data[..])])?;
    let d: &dyn Document = &doc;
    let sk = match &options.skeleton {
        Some(s) => d.find_skeleton(s)?,
        None => 0,
    };
    let info = &d.skeletons()[sk];
    let family = info.extra.get("controller_family").and_then(|v| v.as_u64());
    let target = match (sk, family) {
        (0, _) => Target::Human,
        (_, Some(f)) if info.id == format!("family_{f}") => {
            Target::Family { family: f as u16, skeleton: info.skeleton.clone() }
        }
        _ => {
            return Err(Error::unsupported(format!(
                "writing onto skeleton {} ({}) is not supported yet: Shenmue write-back writes the human rig (skeleton human_rig) and the flat control skeletons of other controller families (family_N)",
                info.id, info.name
            )))
        }
    };
    let m = MotnFile::parse(&file.data).map_err(|e| e.in_file(&fname))?;
    let tolerance = options.tolerance.unwrap_or(DEFAULT_TOLERANCE);
    let mut out = Imported::default();
    out.read_warnings.extend(d.warnings().iter().cloned());
    if let Some(k) = options.key_size {
        out.warnings.push(Warning::in_file(&fname, format!("key size {k} is for Oni; MOTN keys are halves (ignored)")));
    }
    let like = options.like.as_deref().map(|a| d.find_animation(a)).transpose()?;
    let meta = match like {
        Some(i) => (m.entries[i].meta_offset, format!("--like {}", m.entries[i].name)),
        None => match empty_action(&m) {
            Some((o, n)) => {
                (o, format!("the action metadata of {n} (no hit frames, attacks or cues), as no --like was given"))
            }
            None => {
                (0, "no action metadata (offset 0): the file has no empty action block and no --like was given".into())
            }
        },
    };
    let mut encoded = Vec::with_capacity(clips.len());
    let mut seen = std::collections::HashSet::new();
    for clip in clips {
        // The sequence the clip was made from: --like's, else the one of its name.
        let from = like.or_else(|| {
            let name = sequence_name(&clip.name).ok()?;
            m.entries.iter().position(|e| e.name.as_str() == name)
        });
        let original = from.and_then(|i| {
            let (e, b) = (&m.entries[i], &m.blocks[m.entries[i].block]);
            let motion = b.motion().filter(|_| b.family() == target.flag_high())?;
            Some(Original { name: e.name.as_str(), frames: b.frames, curves: &motion.curves })
        });
        let enc = encode_on(clip, &target, tolerance, original.as_ref())?;
        if enc.spec.name != clip.name {
            out.warnings.push(Warning::in_file(
                &clip.source,
                format!(
                    "clip {:?}: written as {}: a sequence name holds ASCII letters, digits and _ only",
                    clip.name, enc.spec.name
                ),
            ));
        }
        if !seen.insert(enc.spec.name.clone()) {
            return Err(Error::unplaced(format!(
                "clip {:?}: a second clip is also named {}",
                clip.name, enc.spec.name
            ))
            .in_file(&clip.source));
        }
        for st in &enc.targets.strained {
            let (first, last, count) = st.frames;
            out.warnings.push(Warning::in_file(&clip.source, format!(
                "clip {:?}: at {count} frame{} ({first}..{last}) the glTF holds {} up to {:.1} mm off the end of {} with the limb bent, which the rig cannot play (it bends the limb or reaches past it, not both): the game reaches the target and bends the limb otherwise (a stretched limb interpolated by an editor, as when a kick is retimed)",
                clip.name,
                if count == 1 { "" } else { "s" },
                st.target,
                st.max_m * 1e3,
                st.lower
            )));
        }
        if !enc.targets.not_kept.is_empty() {
            out.warnings.push(Warning::in_file(&clip.source, format!(
                "clip {:?}: the rig animates rotations, the root and the IK targets only; the translations (bone lengths) or scales of {} are not kept",
                clip.name, enc.targets.not_kept.join(", ")
            )));
        }
        encoded.push(enc);
    }
    let seqs: Vec<NewSequence> = encoded
        .iter()
        .map(|e| NewSequence { name: e.spec.name.clone(), bytes: e.bytes.clone(), meta: meta.0 })
        .collect();
    let rebuilt = bank::rebuild(&file.data, &m, &seqs).map_err(|e| e.in_file(&fname))?;
    let short = boneyard_core::text::file_name(&fname).to_string();
    let errors = read_back(&file.data, &m, &rebuilt, &encoded, &short)?;
    let mut anims = Vec::new();
    for ((enc, p), back) in encoded.iter().zip(&rebuilt.placed).zip(errors) {
        let (err, far) = (back.max_control_error, &back.far);
        let clip_name = &enc.spec.name;
        if !p.replaced {
            out.warnings.push(Warning::in_file(
                &short,
                format!("{clip_name}: appended as entry #{} with {}", p.entries[0], meta.1),
            ));
        } else if let Some(like) = &options.like {
            // A replaced sequence keeps its own entry's metadata: `--like` is for appended ones.
            out.warnings.push(Warning::in_file(
                &short,
                format!("{clip_name}: replaces the sequence of that name and keeps its action metadata; --like {like} is for clips appended"),
            ));
        }
        // Replaced entries keep their action metadata: say when cues the old clip reached
        // pass the new one's end. (Cues past the old clip's own last frame are the game's: a
        // round trip of a clip of as many frames said that of every such entry.)
        let last = u32::from(enc.spec.frames.saturating_sub(1));
        for &i in p.entries.iter().filter(|_| p.replaced) {
            let Some(a) = m.entries[i].action() else { continue };
            let old_last = m.blocks.get(m.entries[i].block).map_or(u32::MAX, |b| u32::from(b.frames.saturating_sub(1)));
            let frames = a.hit_frames.iter().flatten().copied().chain(a.sound_cues.iter().map(|c| c.0));
            let late = frames.chain(a.surface_cues.iter().map(|c| c.0)).map(u32::from).filter(|&f| f <= old_last).max();
            if let Some(f) = late.filter(|&f| f > last) {
                out.warnings.push(Warning::at(
                    &short,
                    a.offset as u64,
                    format!(
                        "{}: its action metadata (kept) has cues up to frame {f}, past the new clip's last frame {last}",
                        m.entries[i].name
                    ),
                ));
            }
        }
        if !p.kept_for.is_empty() {
            out.warnings.push(Warning::in_file(&short, format!(
                "{clip_name}: its old data is shared with {}, which keep playing it; {clip_name} now has a block of its own",
                p.kept_for.join(", ")
            )));
        }
        if !far.is_empty() {
            out.warnings.push(Warning::in_file(
                &short,
                format!(
                    "{clip_name}: the rig puts {} more than {} mm from the clip's pose (at most {:.1} mm)",
                    far.join(", "),
                    WARN_CONTROL_ERROR * 1e3,
                    err * 1e3
                ),
            ));
        }
        let mut extra = serde_json::Map::new();
        extra.insert("replaced".into(), json!(p.replaced));
        extra.insert("entries".into(), json!(p.entries));
        extra.insert("shared_old_data_with".into(), json!(p.kept_for));
        extra.insert("channels".into(), json!(enc.spec.curves.len()));
        extra.insert("keys".into(), json!(enc.keys));
        if let Some((name, kept)) = &enc.original {
            extra.insert("original".into(), json!(name));
            extra.insert("original_channels_kept".into(), json!(kept));
        }
        extra.insert("tolerance".into(), json!(tolerance));
        extra.insert("max_position_error_m".into(), json!(enc.max_position_error));
        extra.insert("max_rotation_error_rad".into(), json!(enc.max_rotation_error));
        extra.insert("max_control_error_m".into(), json!(err));
        extra.insert("max_bone_rotation_error_rad".into(), json!(back.max_rotation_error));
        extra.insert(
            "max_bone_rotation_error_at".into(),
            json!({"bone": back.most_turned.0, "frame": back.most_turned.1}),
        );
        extra.insert("bytes".into(), json!(enc.bytes.len()));
        extra.insert("skeleton".into(), json!(info.id));
        extra.insert("controller_family".into(), json!(target.flag_high()));
        anims.push(ImportedAnim {
            name: clip_name.clone(),
            index: p.entries[0],
            offset: Some(p.offset as u64),
            frames: u32::from(enc.spec.frames),
            fps: crate::document::FPS,
            extra,
        });
    }
    out.files.push(ImportedFile {
        name: short,
        bytes: rebuilt.bytes,
        format: "Shenmue MOTN".into(),
        animations: anims,
    });
    Ok(out)
}

/// What the rig does with a written clip, against the clip's FK pose.
struct ReadBack {
    /// The largest distance (metres) of any control from where the pose has it.
    max_control_error: f64,
    /// The controls farther than [`WARN_CONTROL_ERROR`] at some frame.
    far: Vec<String>,
    /// The largest angle (radians) of any control's world rotation from the pose's, the
    /// solvers' roots aside.
    max_rotation_error: f64,
    /// The control and frame of that angle.
    most_turned: (String, usize),
}

/// Read the written file back (see the module docs); per clip, what the rig does with it.
fn read_back(old: &[u8], m: &MotnFile, r: &bank::Rebuilt, enc: &[EncodedClip], file: &str) -> Result<Vec<ReadBack>> {
    let bad =
        |msg: String| Error::unplaced(format!("the written file does not read back as written: {msg}")).in_file(file);
    let doc = crate::open_bytes(&[(file.to_string(), &r.bytes[..])]).map_err(|e| bad(e.to_string()))?;
    let back = MotnFile::parse(&r.bytes).map_err(|e| bad(e.to_string()))?;
    let written: std::collections::BTreeSet<usize> = r.placed.iter().flat_map(|p| p.entries.iter().copied()).collect();
    // Everything not written: unchanged.
    for (i, e) in m.entries.iter().enumerate() {
        let b = &back.entries[i];
        if b.name != e.name {
            return Err(bad(format!("entry #{i} is named {}, was {}", b.name, e.name)));
        }
        let (ob, nb) = (&m.blocks[e.block], &back.blocks[b.block]);
        if !written.contains(&i) {
            let (ol, nl) = (bank::sequence_len(m, e.block), bank::sequence_len(&back, b.block));
            if old[ob.offset..ob.offset + ol] != r.bytes[nb.offset..nb.offset + nl] {
                return Err(bad(format!("entry #{i} {}: its sequence changed", e.name)));
            }
        }
        if let (Some(oa), Some(na)) = (e.action(), b.action()) {
            if old[oa.offset..oa.offset + oa.len] != r.bytes[na.offset..na.offset + oa.len.min(na.len)] {
                return Err(bad(format!("entry #{i} {}: its action metadata changed", e.name)));
            }
        } else if e.action().is_some() != b.action().is_some() {
            return Err(bad(format!("entry #{i} {}: its action metadata moved out of its region", e.name)));
        }
    }
    let mut out = Vec::with_capacity(enc.len());
    for (e, p) in enc.iter().zip(&r.placed) {
        for &i in &p.entries {
            let blk = &back.blocks[back.entries[i].block];
            if blk.offset != p.offset {
                return Err(bad(format!("{} points at {:#x}, not {:#x}", e.spec.name, blk.offset, p.offset)));
            }
        }
        let motion = back.blocks[back.entries[p.entries[0]].block]
            .motion()
            .ok_or_else(|| bad(format!("{} is not a curve sequence", e.spec.name)))?;
        let mut want = e.spec.curves.clone();
        want.sort_by_key(|c| (c.control, c.axis));
        let same = motion.curves.len() == want.len()
            && motion.curves.iter().zip(&want).all(|(g, w)| {
                g.control == w.control
                    && g.axis == w.axis
                    && g.keys.len() == w.keys.len()
                    && g.keys.iter().zip(&w.keys).all(|(a, b)| {
                        a.frame == b.frame
                            && a.count == b.count
                            && a.value.to_bits() == b.value.to_bits()
                            && (a.count < 2 || a.tangent_in.to_bits() == b.tangent_in.to_bits())
                            && (a.count < 3 || a.tangent_out.to_bits() == b.tangent_out.to_bits())
                    })
            });
        if !same {
            return Err(bad(format!("{}: the curves read are not the keys written", e.spec.name)));
        }
        // The rig from the written file at every frame, against the clip's FK pose: every
        // control's position, and the rotation of every control but the solvers' roots (whose
        // rotations carry the poles: rolled so the limbs bend as the pose has them).
        let mut worst = 0f64;
        let mut turned = (0f64, 0usize, 0usize);
        let mut far = std::collections::BTreeSet::new();
        let roots: Vec<bool> = match doc.animations()[p.entries[0]].skeleton {
            Some(0) => (0..HUMAN_RIG.len()).map(|c| RigPlan::human().chain(c).is_some()).collect(),
            _ => Vec::new(),
        };
        for (f, want) in e.targets.positions.iter().enumerate() {
            let sk = doc.animations()[p.entries[0]]
                .skeleton
                .ok_or_else(|| bad(format!("{} has no skeleton", e.spec.name)))?;
            let world = doc.pose(sk, Some(p.entries[0]), f as f64)?;
            for (c, (w, q)) in world.iter().zip(&e.targets.rotations[f]).enumerate() {
                if roots.get(c).copied().unwrap_or(false) {
                    continue;
                }
                let got = DQuat::from_mat3(&orthonormal(&DMat3::from_mat4(w.as_dmat4())));
                let a = angle_between(got, *q);
                if a > turned.0 {
                    turned = (a, c, f);
                }
            }
            for (c, (w, t)) in world.iter().zip(want).enumerate() {
                let d = (w.w_axis.truncate().as_dvec3() - *t).length();
                if !d.is_finite() {
                    return Err(bad(format!("{} frame {f}: control {c} is not finite", e.spec.name)));
                }
                worst = worst.max(d);
                if d > WARN_CONTROL_ERROR {
                    far.insert(c);
                }
            }
        }
        let names = doc.skeletons()[doc.animations()[p.entries[0]].skeleton.unwrap_or(0)].skeleton.bones.clone();
        let name = |c: usize| names.get(c).map_or(format!("control {c}"), |b| b.name.clone());
        out.push(ReadBack {
            max_control_error: worst,
            far: far.into_iter().map(name).collect(),
            max_rotation_error: turned.0,
            most_turned: (name(turned.1), turned.2),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn euler_is_the_rigs_order() {
        for &(x, y, z) in &[(0.1, -0.4, 2.0), (-2.5, 1.2, -0.3), (0.0, 0.0, 0.0), (3.0, -1.5, 1.0)] {
            let m = DMat3::from_rotation_z(z) * DMat3::from_rotation_y(y) * DMat3::from_rotation_x(x);
            let [a, b, c] = euler_zyx(&m);
            let back = DMat3::from_rotation_z(c) * DMat3::from_rotation_y(b) * DMat3::from_rotation_x(a);
            assert!((back - m).abs().to_cols_array().iter().all(|v| *v < 1e-12), "{x} {y} {z}");
        }
        // The rig's own matrix (f32, raw turns) gives its angles back.
        let r = crate::rig::local_matrix(glam::Vec3::ZERO, [1000, -2000, 16384]).as_dmat4();
        let a = euler_zyx(&rot3(&r)).map(|v| v / TAU * 65536.0);
        assert!((a[0] - 1000.0).abs() < 0.01 && (a[1] + 2000.0).abs() < 0.01 && (a[2] - 16384.0).abs() < 0.01, "{a:?}");
    }

    /// At and near gimbal lock (y a quarter turn, give or take a few int16 steps), the rig's
    /// single-precision matrix gives angles whose matrix is that matrix within f32 rounding:
    /// x and z each come from entries as small as the rounding, but their sum or difference
    /// (all the matrix holds) is right. (Taking x and z each from its own pair of entries
    /// was 5.6° off on AKIRA_PU_SAFE's hip at frame 9, raw (0, 16384, 0).)
    #[test]
    fn angles_near_gimbal_lock_give_the_matrix_back() {
        let mut rng = boneyard_core::testdata::XorShift64(0x9_1b4d);
        for i in 0..2000 {
            let mut r = |n: u64| (rng.next_u64() % n) as i64;
            let y = if i % 2 == 0 { 16384 } else { -16384 } + r(9) - 4;
            let raw = [r(65536) as u16 as i16, y as i16, r(65536) as u16 as i16];
            let mut m = rot3(&crate::rig::local_matrix(glam::Vec3::ZERO, raw).as_dmat4());
            // A local matrix the import makes is parent⁻¹ · world of single-precision world
            // matrices: every entry off by up to a few 1e-7, more than cos y at lock.
            for col in [&mut m.x_axis, &mut m.y_axis, &mut m.z_axis] {
                for k in 0..3 {
                    col[k] += (r(2001) - 1000) as f64 * 3e-10;
                }
            }
            let [a, b, c] = euler_zyx(&m);
            let back = DMat3::from_rotation_z(c) * DMat3::from_rotation_y(b) * DMat3::from_rotation_x(a);
            let worst = (back - m).abs().to_cols_array().into_iter().fold(0.0, f64::max);
            assert!(worst < 2e-6, "{raw:?}: {worst}");
        }
    }

    #[test]
    fn angles_stay_continuous() {
        // Past half a turn: 0.49 then -0.49 (principal) is 0.51.
        assert_eq!(continuous([0.0, 0.0, -0.49], Some([0.0, 0.0, 0.49])), [0.0, 0.0, 0.51]);
        // The other triple when it is closer (y past a quarter turn).
        let c = continuous([0.5, 0.2, 0.5], Some([0.0, 0.3, 0.0]));
        assert!((c[0] - 0.0).abs() < 1e-12 && (c[1] - 0.3).abs() < 1e-12 && (c[2] - 0.0).abs() < 1e-12, "{c:?}");
    }
}
