//! The built-in demo character in Shenmue's own formats: its two clips as a MOTN file whose
//! curves drive the 37-control human rig, and a rig-shaped MT5 body of boxes.
//!
//! The rig is IK-driven, so the demo's 19 bones are *retargeted*, not copied: the demo's
//! world pose (Y up, facing +Z, about 18 units tall) is turned to face the rig's -Z and scaled
//! to metres, then
//! * the root (control 0) takes the pelvis translation (plus the rig's default height) and
//!   the pelvis yaw as rotation channels; the hip, torso, neck and arm roots hold constant
//!   rotations like the game's walk (they set the frames and the IK poles);
//! * the foot targets (8, 15) take the demo ankles relative to the demo hips, scaled so the
//!   demo leg's full length is the rig's (thigh + shin), placed from the rig's leg roots;
//! * the hand targets (29, 35) likewise from the demo shoulders to the demo fists;
//! * the torso target (20) and head target (23) take the demo's pelvis→neck and neck→head
//!   directions at the rig's segment lengths.
//!
//! So the encoded motion plays the demo's limb *positions* through the game's solvers; the
//! demo's bone rotations (e.g. knee twist) are whatever the rig's IK makes of them. Every
//! value is stored as keys at every frame with a shared tangent (count 2).

use crate::curve::Axis;
use crate::encode::{dense_keys, encode_file, CurveSpec, SequenceSpec};
use crate::mt5::{self, NodeSpec};
use crate::rig::{self, Controls, HUMAN_RIG};
use boneyard_core::demo::{self, DemoClip};
use boneyard_core::{fk, Result};
use glam::{Mat4, Vec3};

/// The engine rate the clips are baked at.
pub const FPS: f32 = 30.0;
/// Demo units → metres for the body (the rig's legs are 0.837 m, the demo's 8 units).
const LEG_SCALE: f32 = (0.392_728_98 + 0.444_607_97) / 8.0;
/// Demo arm (shoulder→fist: 3 + 2.5 units) → the rig's upper arm + forearm.
const ARM_SCALE: f32 = (0.242_53 + 0.250_657_98) / 5.5;

/// Constant rotations (int16 turns) on the controls that set the rig's frames and IK poles,
/// rounded from what the game's walk holds at frame 0: the hip a quarter turn about Y (the
/// pelvis and legs hang below the root, leg A on +X; the walk holds 0.238 turns), the torso
/// the same (its Z axis, the aim pole, points sideways; 0.27), the neck root (-1/4, 0.044,
/// -1/4: its small Y turn keeps the head's pole off the aim) and the arm roots half a turn
/// about Z (elbows bend back; the walk: -0.51 and -0.44).
const POSE_ROTATIONS: [(usize, [i16; 3]); 5] =
    [(1, [0, 16384, 0]), (18, [0, 16384, 0]), (21, [-16384, 2910, -16384]), (26, [0, 0, -32768]), (32, [0, 0, -32768])];

/// Demo space (Y up, facing +Z) → rig space (facing -Z): a half turn about Y.
fn to_rig(v: Vec3) -> Vec3 {
    Vec3::new(-v.x, v.y, -v.z)
}

/// The control values for one demo pose.
struct Frame {
    root_pos: Vec3,
    root_yaw: f32,
    targets: [(usize, Vec3); 6],
}

fn demo_frame(clip: DemoClip, t: f32) -> Frame {
    let skel = demo::skeleton();
    let world = fk::world_matrices(&skel, &demo::pose(clip, t));
    let at = |i: usize| world[i].w_axis.truncate();
    let pelvis = at(0);
    let rest_pelvis = Vec3::from(demo::BONES[0].2);
    let root_pos = Vec3::new(0.0, HUMAN_RIG[0].position[1], 0.0) + to_rig(pelvis - rest_pelvis) * LEG_SCALE;
    // Yaw of the pelvis about Y (turns), seen in rig space (a half turn keeps yaw's sign).
    let x = world[0].x_axis.truncate();
    let root_yaw = (-x.z).atan2(x.x) / std::f32::consts::TAU;
    let aim =
        |origin: Vec3, from: usize, to: usize, len: f32| origin + to_rig(at(to) - at(from)).normalize_or(Vec3::Y) * len;
    let torso = aim(root_pos, 0, 9, HUMAN_RIG[20].position[0]);
    let head = aim(torso, 9, 10, HUMAN_RIG[23].position[0]);
    // Evaluate the rig with the root, the hip and the torso/head targets (everything the limb
    // mounts depend on) to find where the limbs are mounted at playback.
    let mut c = Controls::defaults(&HUMAN_RIG);
    c.position[0] = root_pos;
    c.rotation[0] = [0, crate::curve::turns_to_raw(root_yaw), 0];
    for (ctl, r) in POSE_ROTATIONS {
        c.rotation[ctl] = r;
    }
    c.position[20] = torso;
    c.position[23] = head;
    let ev = rig::evaluate(&HUMAN_RIG, &c);
    let mount = |ctl: usize| ev.world[ctl].w_axis.truncate();
    let limb =
        |mount_ctl: usize, from: usize, to: usize, scale: f32| mount(mount_ctl) + to_rig(at(to) - at(from)) * scale;
    Frame {
        root_pos,
        root_yaw,
        targets: [
            // Demo right thigh (4) → right ankle (6) onto rig leg A (right), left likewise.
            (8, limb(5, 4, 6, LEG_SCALE)),
            (15, limb(12, 1, 3, LEG_SCALE)),
            (20, torso),
            (23, head),
            // Arm A (26..29) is the rig's left arm: the demo's left (12 → 14) drives it.
            (29, limb(26, 12, 14, ARM_SCALE)),
            (35, limb(32, 16, 18, ARM_SCALE)),
        ],
    }
}

/// The demo clip as a MOTN sequence on the rig.
pub fn demo_sequence(clip: DemoClip) -> SequenceSpec {
    let frames = clip.frames(FPS);
    let samples: Vec<Frame> = (0..frames).map(|f| demo_frame(clip, f as f32 / FPS)).collect();
    let mut curves = Vec::new();
    let mut push = |control: u16, axis: Axis, values: Vec<f32>| {
        curves.push(CurveSpec { control, axis, keys: dense_keys(&values) });
    };
    for (k, axis) in [Axis::PosX, Axis::PosY, Axis::PosZ].into_iter().enumerate() {
        push(0, axis, samples.iter().map(|s| s.root_pos[k]).collect());
    }
    push(0, Axis::RotX, vec![0.0; samples.len()]);
    push(0, Axis::RotY, samples.iter().map(|s| s.root_yaw).collect());
    push(0, Axis::RotZ, vec![0.0; samples.len()]);
    for (ctl, r) in POSE_ROTATIONS {
        for (k, axis) in [Axis::RotX, Axis::RotY, Axis::RotZ].into_iter().enumerate() {
            push(ctl as u16, axis, vec![f32::from(r[k]) / 65536.0; samples.len()]);
        }
    }
    for slot in 0..6 {
        let id = samples[0].targets[slot].0 as u16;
        for (k, axis) in [Axis::PosX, Axis::PosY, Axis::PosZ].into_iter().enumerate() {
            push(id, axis, samples.iter().map(|s| s.targets[slot].1[k]).collect());
        }
    }
    SequenceSpec { name: clip.name().to_string(), frames: frames as u16, flag_high: 0, curves }
}

/// Where the demo's targets and root are at frame `f` of `clip` (what the MOTN encodes),
/// for tests: `(control, world position)`.
pub fn demo_targets(clip: DemoClip, frame: u32) -> Vec<(usize, Vec3)> {
    let s = demo_frame(clip, frame as f32 / FPS);
    let mut v = vec![(0, s.root_pos)];
    v.extend(s.targets);
    v
}

/// A box from the control's origin along its +X to its first child (bones point along +X),
/// or a small cube for end controls; none for IK targets and zero-size helpers.
fn control_box(i: usize) -> Option<(Vec3, Vec3)> {
    let def = &HUMAN_RIG[i];
    if def.class == 4 || i == 0 {
        return None;
    }
    let child_len = HUMAN_RIG.iter().filter(|c| c.parent == Some(i)).map(|c| c.position[0]).fold(0.0f32, f32::max);
    let (len, r) = match def.name {
        "head" => (0.0, 0.11),
        n if n.ends_with("foot") => (0.0, 0.05),
        n if n.ends_with("hand") => (0.0, 0.045),
        _ if child_len > 0.05 => (child_len, if i == 19 { 0.12 } else { 0.05 }),
        _ => return None,
    };
    Some(if len > 0.0 { (Vec3::new(0.0, -r, -r), Vec3::new(len, r, r)) } else { (Vec3::splat(-r), Vec3::splat(r)) })
}

/// The rig-shaped MT5 body: one node per control (the rig's hierarchy and defaults), render
/// key = control index, a box mesh (one triangle strip per face) on the segments.
pub fn demo_body() -> Vec<u8> {
    let nodes: Vec<NodeSpec> = HUMAN_RIG
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let (vertices, strips) = match control_box(i) {
                Some((lo, hi)) => box_strips(lo, hi),
                None => (Vec::new(), Vec::new()),
            };
            NodeSpec {
                render_key: i as i16,
                parent: c.parent,
                rotation: c.rotation.map(i32::from),
                scale: Vec3::ONE,
                position: Vec3::from(c.position),
                vertices,
                strips,
            }
        })
        .collect();
    mt5::write(&nodes, &[])
}

/// A box as 24 vertices (4 per face, face normals) and 6 four-vertex strips with UVs.
fn box_strips(lo: Vec3, hi: Vec3) -> (Vec<(Vec3, Vec3)>, mt5::StripSpec) {
    let mut verts = Vec::new();
    let mut strips = Vec::new();
    for axis in 0..3 {
        for side in [0usize, 1] {
            let n = Vec3::from({
                let mut a = [0.0; 3];
                a[axis] = if side == 1 { 1.0 } else { -1.0 };
                a
            });
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            let base = verts.len() as i16;
            for (a, b) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let mut p = [0.0f32; 3];
                p[axis] = if side == 1 { hi[axis] } else { lo[axis] };
                p[u] = if a == 1 { hi[u] } else { lo[u] };
                p[v] = if b == 1 { hi[v] } else { lo[v] };
                verts.push((Vec3::from(p), n));
            }
            // Counter-clockwise seen from outside: flip the strip on the negative faces.
            let idx = if side == 1 {
                vec![base, base + 1, base + 2, base + 3]
            } else {
                vec![base + 1, base, base + 3, base + 2]
            };
            strips.push((idx, Some(vec![[0, 0], [1024, 0], [0, 1024], [1024, 1024]])));
        }
    }
    (verts, strips)
}

/// The controller family the demo's own 19-node model declares (its root's render key is
/// `0x7001 + family`), so its FK clips play on it.
pub const DEMO_FAMILY: u16 = 1;

/// The demo clip as FK curves of family [`DEMO_FAMILY`]: per demo bone (control = node index)
/// its rotation as Shenmue's X-then-Y-then-Z angles in turns, and the pelvis translation.
pub fn demo_fk_sequence(clip: DemoClip) -> SequenceSpec {
    let frames = clip.frames(FPS);
    let poses: Vec<Vec<boneyard_core::Transform>> = (0..frames).map(|f| demo::pose(clip, f as f32 / FPS)).collect();
    let mut curves = Vec::new();
    for b in 0..demo::BONES.len() {
        if b == 0 {
            for (k, axis) in [Axis::PosX, Axis::PosY, Axis::PosZ].into_iter().enumerate() {
                let v: Vec<f32> = poses.iter().map(|p| p[0].translation[k]).collect();
                curves.push(CurveSpec { control: 0, axis, keys: dense_keys(&v) });
            }
        }
        // q = Rz · Ry · Rx; unwrap each angle so the curves stay continuous.
        let mut angles: Vec<[f32; 3]> = Vec::with_capacity(poses.len());
        for p in &poses {
            let (z, y, x) = p[b].rotation.to_euler(glam::EulerRot::ZYX);
            let mut a = [x, y, z].map(|r| r / std::f32::consts::TAU);
            if let Some(prev) = angles.last() {
                for k in 0..3 {
                    a[k] -= (a[k] - prev[k]).round();
                }
            }
            angles.push(a);
        }
        for (k, axis) in [Axis::RotX, Axis::RotY, Axis::RotZ].into_iter().enumerate() {
            let v: Vec<f32> = angles.iter().map(|a| a[k]).collect();
            curves.push(CurveSpec { control: b as u16, axis, keys: dense_keys(&v) });
        }
    }
    SequenceSpec { name: format!("{}_fk", clip.name()), frames: frames as u16, flag_high: DEMO_FAMILY, curves }
}

/// The demo character's own body as an MT5: 19 nodes in the demo's hierarchy and rest, its
/// boxes as 3-vertex strips, the root declaring controller family [`DEMO_FAMILY`].
pub fn demo_character() -> Vec<u8> {
    let skel = demo::skeleton();
    let meshes = demo::meshes(&skel);
    let nodes: Vec<NodeSpec> = skel
        .bones
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let mut vertices = Vec::new();
            let mut strips = Vec::new();
            for m in
                meshes.iter().filter(|m| matches!(m.binding, boneyard_core::MeshBinding::Rigid { bone } if bone == i))
            {
                let base = vertices.len() as i16;
                let center = m.positions.iter().copied().sum::<Vec3>() / m.positions.len().max(1) as f32;
                vertices.extend(m.positions.iter().map(|p| (*p, (*p - center).normalize_or(Vec3::Y))));
                for t in m.indices.chunks_exact(3) {
                    strips.push((t.iter().map(|&k| base + k as i16).collect(), None));
                }
            }
            NodeSpec {
                render_key: if i == 0 { (0x7001 + DEMO_FAMILY) as i16 } else { 100 + i as i16 },
                parent: b.parent,
                rotation: [0; 3],
                scale: Vec3::ONE,
                position: b.rest.translation,
                vertices,
                strips,
            }
        })
        .collect();
    mt5::write(&nodes, &[])
}

/// The demo as Shenmue files: `demo_motion.bin` (MOTN: both clips retargeted onto the human
/// rig, and both again as FK curves of the demo's own family), `demo_body.mt5` (the
/// rig-shaped body) and `demo_character.mt5` (the demo's 19-node body declaring its family).
pub fn demo_files() -> Result<Vec<(String, Vec<u8>)>> {
    let mut seqs: Vec<SequenceSpec> = DemoClip::ALL.iter().map(|&c| demo_sequence(c)).collect();
    seqs.extend(DemoClip::ALL.iter().map(|&c| demo_fk_sequence(c)));
    Ok(vec![
        ("demo_motion.bin".into(), encode_file(&seqs)),
        ("demo_body.mt5".into(), demo_body()),
        ("demo_character.mt5".into(), demo_character()),
    ])
}

/// The rig's rest world matrices (for tests of the body).
pub fn rig_rest() -> Vec<Mat4> {
    rig::rest_world(&HUMAN_RIG)
}
