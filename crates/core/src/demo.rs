//! The built-in sample character: a 19-bone humanoid (Oni's part order, Y up, about 18 units
//! tall) with a box per bone and two clips, a walk with root motion and a wave.
//!
//! It is defined as continuous functions of time so that every family can bake it at its own
//! engine rate and encode it in its own format (the demo then reads it back with the real
//! reader). Angles are kept well inside every format's range.

use crate::model::{Bone, Mesh, Skeleton, Transform};
use glam::{EulerRot, Quat, Vec3};
use std::f32::consts::{PI, TAU};

/// (name, parent, offset from parent) in Oni's body-part order.
pub const BONES: [(&str, Option<usize>, [f32; 3]); 19] = [
    ("pelvis", None, [0.0, 9.0, 0.0]),
    ("left_thigh", Some(0), [1.0, -0.5, 0.0]),
    ("left_calf", Some(1), [0.0, -4.0, 0.0]),
    ("left_foot", Some(2), [0.0, -4.0, 0.0]),
    ("right_thigh", Some(0), [-1.0, -0.5, 0.0]),
    ("right_calf", Some(4), [0.0, -4.0, 0.0]),
    ("right_foot", Some(5), [0.0, -4.0, 0.0]),
    ("mid", Some(0), [0.0, 1.0, 0.0]),
    ("chest", Some(7), [0.0, 2.5, 0.0]),
    ("neck", Some(8), [0.0, 3.0, 0.0]),
    ("head", Some(9), [0.0, 1.0, 0.0]),
    ("left_shoulder", Some(8), [1.2, 2.5, 0.0]),
    ("left_biceps", Some(11), [1.0, 0.0, 0.0]),
    ("left_wrist", Some(12), [0.0, -3.0, 0.0]),
    ("left_handfist", Some(13), [0.0, -2.5, 0.0]),
    ("right_shoulder", Some(8), [-1.2, 2.5, 0.0]),
    ("right_biceps", Some(15), [-1.0, 0.0, 0.0]),
    ("right_wrist", Some(16), [0.0, -3.0, 0.0]),
    ("right_handfist", Some(17), [0.0, -2.5, 0.0]),
];

/// The demo's clips.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DemoClip {
    /// A walk cycle along +Z with root motion (1 s loop).
    Walk,
    /// A right-arm wave in place (1.5 s loop).
    Wave,
}

impl DemoClip {
    /// Every demo clip, in the order the demo document lists them.
    pub const ALL: [DemoClip; 2] = [DemoClip::Walk, DemoClip::Wave];
    /// The clip's animation name (`demo_walk`, `demo_wave`).
    pub fn name(self) -> &'static str {
        match self {
            DemoClip::Walk => "demo_walk",
            DemoClip::Wave => "demo_wave",
        }
    }
    /// Length in seconds (one loop).
    pub fn duration(self) -> f32 {
        match self {
            DemoClip::Walk => 1.0,
            DemoClip::Wave => 1.5,
        }
    }
    /// Number of frames when baked at `fps` (both ends included).
    pub fn frames(self, fps: f32) -> u32 {
        (self.duration() * fps).round() as u32 + 1
    }
    /// Forward speed of the root, units per second (root motion).
    pub fn speed(self) -> f32 {
        match self {
            DemoClip::Walk => 10.0,
            DemoClip::Wave => 0.0,
        }
    }
}

/// The demo's 19-bone humanoid skeleton (Oni's bone names, parents first), rest offsets in
/// engine units.
pub fn skeleton() -> Skeleton {
    let bones = BONES
        .iter()
        .map(|&(name, parent, o)| Bone {
            name: name.into(),
            parent,
            rest: Transform::new(Vec3::from(o), Quat::IDENTITY),
        })
        .collect();
    Skeleton::new("demo_humanoid", bones).expect("the demo skeleton is ordered parents-first")
}

fn euler(x_deg: f32, y_deg: f32, z_deg: f32) -> Quat {
    Quat::from_euler(EulerRot::XYZ, x_deg.to_radians(), y_deg.to_radians(), z_deg.to_radians())
}

/// Local transforms of every bone at time `t` seconds. Only the pelvis translates.
pub fn pose(clip: DemoClip, t: f32) -> Vec<Transform> {
    let mut out: Vec<Transform> = skeleton().rest_locals();
    let ph = TAU * (t / clip.duration());
    let mut rot = vec![Quat::IDENTITY; BONES.len()];
    let mut pelvis = Vec3::from(BONES[0].2);
    match clip {
        DemoClip::Walk => {
            let s = ph.sin();
            pelvis.y += 0.3 * (2.0 * ph).cos().abs() - 0.3;
            pelvis.z += clip.speed() * t;
            rot[0] = euler(0.0, 8.0 * s, 0.0);
            rot[1] = euler(-30.0 * s, 0.0, 0.0);
            rot[4] = euler(30.0 * s, 0.0, 0.0);
            rot[2] = euler(35.0 * (1.0 - (ph + PI / 2.0).cos()) * 0.5, 0.0, 0.0);
            rot[5] = euler(35.0 * (1.0 - (ph - PI / 2.0).cos()) * 0.5, 0.0, 0.0);
            rot[3] = euler(-10.0 * s, 0.0, 0.0);
            rot[6] = euler(10.0 * s, 0.0, 0.0);
            rot[7] = euler(0.0, -10.0 * s, 0.0);
            rot[8] = euler(4.0, -6.0 * s, 0.0);
            rot[10] = euler(-4.0, 10.0 * s, 0.0);
            rot[12] = euler(25.0 * s, 0.0, 8.0);
            rot[16] = euler(-25.0 * s, 0.0, -8.0);
            rot[13] = euler(-20.0 - 10.0 * s, 0.0, 0.0);
            rot[17] = euler(-20.0 + 10.0 * s, 0.0, 0.0);
        }
        DemoClip::Wave => {
            let raise = (t / 0.4).clamp(0.0, 1.0);
            let raise = raise * raise * (3.0 - 2.0 * raise);
            let w = (3.0 * ph).sin();
            rot[15] = euler(0.0, 0.0, -20.0 * raise);
            rot[16] = euler(0.0, 10.0 * raise, -150.0 * raise);
            rot[17] = euler(0.0, 0.0, 30.0 * raise * w - 20.0 * raise);
            rot[18] = euler(0.0, 20.0 * raise * w, 0.0);
            rot[10] = euler(0.0, -15.0 * raise, 5.0 * raise);
            rot[12] = euler(0.0, 0.0, 5.0 * (ph).sin());
            rot[8] = euler(0.0, 0.0, 3.0 * raise);
        }
    }
    for (o, r) in out.iter_mut().zip(rot) {
        o.rotation = r.normalize();
    }
    out[0].translation = pelvis;
    out
}

/// The root displacement of `clip` at `t` (what an in-place export removes).
pub fn root_motion(clip: DemoClip, t: f32) -> Vec3 {
    Vec3::new(0.0, 0.0, clip.speed() * t)
}

/// A box per bone, in the bone's local space, spanning from the bone's origin towards its
/// first child (or a small cube for leaves).
pub fn meshes(skel: &Skeleton) -> Vec<Mesh> {
    let mut out = Vec::new();
    for (i, b) in skel.bones.iter().enumerate() {
        let tip = skel.children(i).next().map(|c| skel.bones[c].rest.translation).unwrap_or_else(|| {
            let dir = b.rest.translation.normalize_or_zero();
            if dir == Vec3::ZERO {
                Vec3::new(0.0, 1.0, 0.0)
            } else {
                dir * 1.2
            }
        });
        let (lo, hi) = if i == 0 {
            (Vec3::new(-1.6, -1.0, -0.9), Vec3::new(1.6, 1.2, 0.9))
        } else if b.name == "head" {
            (Vec3::new(-1.0, 0.0, -1.1), Vec3::new(1.0, 2.4, 1.1))
        } else {
            let r = if b.name.contains("chest") { 1.4 } else { 0.45 };
            let a = Vec3::ZERO.min(tip) - Vec3::splat(r);
            let c = Vec3::ZERO.max(tip) + Vec3::splat(r);
            (a, c)
        };
        let (p, idx) = cuboid(lo, hi);
        let mut m = Mesh::rigid(format!("{}_box", b.name), i, p, idx);
        let hue = i as f32 / skel.bones.len() as f32;
        m.base_color = [0.55 + 0.4 * (TAU * hue).cos().abs(), 0.5 + 0.3 * (TAU * hue).sin().abs(), 0.7, 1.0];
        out.push(m);
    }
    out
}

/// An axis-aligned box as 8 corners and 12 triangles (counter-clockwise seen from outside).
pub fn cuboid(lo: Vec3, hi: Vec3) -> (Vec<Vec3>, Vec<u32>) {
    let p = (0..8)
        .map(|k| {
            Vec3::new(
                if k & 1 != 0 { hi.x } else { lo.x },
                if k & 2 != 0 { hi.y } else { lo.y },
                if k & 4 != 0 { hi.z } else { lo.z },
            )
        })
        .collect();
    let idx = vec![
        0, 2, 1, 1, 2, 3, // -z
        4, 5, 6, 5, 7, 6, // +z
        0, 1, 4, 1, 5, 4, // -y
        2, 6, 3, 3, 6, 7, // +y
        0, 4, 2, 2, 4, 6, // -x
        1, 3, 5, 3, 7, 5, // +x
    ];
    (p, idx)
}

/// The demo as an in-memory document (no file format involved), baked at `fps`.
pub fn baked_document(fps: f32) -> crate::memory::BakedDocument {
    use crate::document::{AnimInfo, FileSummary, Interpolation, SkeletonInfo};
    use crate::memory::{BakedClip, BakedDocument};
    let skel = skeleton();
    let meshes = meshes(&skel);
    let clips = DemoClip::ALL
        .iter()
        .enumerate()
        .map(|(index, &clip)| {
            let n = clip.frames(fps);
            let times = (0..n).map(|f| f as f32 / fps);
            BakedClip {
                info: AnimInfo {
                    index,
                    name: clip.name().into(),
                    frames: n,
                    fps: fps as f64,
                    bones: skel.len(),
                    format: "builtin".into(),
                    source: "built-in demo".into(),
                    skeleton: Some(0),
                    interpolation: Interpolation::Linear,
                    extra: Default::default(),
                },
                frames: times.clone().map(|t| pose(clip, t)).collect(),
                root_motion: Some(times.map(|t| root_motion(clip, t)).collect()),
            }
        })
        .collect();
    let files = vec![FileSummary {
        path: "(built-in)".into(),
        format: "boneyard demo character".into(),
        variant: String::new(),
        counts: vec![("bones".into(), skel.len() as u64), ("animations".into(), DemoClip::ALL.len() as u64)],
        notes: vec![],
    }];
    let info = SkeletonInfo {
        id: "demo".into(),
        name: skel.name.clone(),
        source: "built-in".into(),
        skeleton: skel,
        meshes,
        extra: Default::default(),
    };
    BakedDocument::new("builtin", files, vec![info], clips)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walk_moves_forward_and_loops() {
        let a = pose(DemoClip::Walk, 0.0);
        let b = pose(DemoClip::Walk, 1.0);
        assert!((b[0].translation.z - a[0].translation.z - 10.0).abs() < 1e-4);
        for (x, y) in a.iter().zip(&b).skip(1) {
            assert!(x.rotation.dot(y.rotation).abs() > 1.0 - 1e-5);
        }
    }

    #[test]
    fn meshes_are_valid() {
        let s = skeleton();
        for m in meshes(&s) {
            m.validate(s.len()).unwrap();
        }
    }
}
