//! Hostile documents for the robustness tests and the fuzz target: any bytes decode to a
//! `BakedDocument` whose skeleton, meshes and clips may be inconsistent in every way a buggy
//! or fooled family could produce (parents out of order, NaN and huge values, indices and
//! joints out of range, missing or extra locals, zero or non-finite frame rates). The
//! exporters must answer each with a file or an error, never a panic or a hang.

use boneyard_core::memory::{BakedClip, BakedDocument};
use boneyard_core::{AnimInfo, Bone, Interpolation, Mesh, MeshBinding, Skeleton, SkeletonInfo, Transform};
use glam::{Quat, Vec2, Vec3};

/// A cursor that reads zeros once the bytes run out.
struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }
    fn small(&mut self, max: u8) -> usize {
        (self.u8() % max.max(1)) as usize
    }
    /// Mostly ordinary values, sometimes any bit pattern (NaN, infinities, huge, subnormal).
    fn f32(&mut self) -> f32 {
        let b = self.u8();
        if b < 224 {
            (b as f32 - 112.0) / 16.0
        } else {
            f32::from_bits(u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()]))
        }
    }
    fn vec3(&mut self) -> Vec3 {
        Vec3::new(self.f32(), self.f32(), self.f32())
    }
    fn quat(&mut self) -> Quat {
        if self.u8() < 128 {
            // A valid rotation.
            Quat::from_euler(glam::EulerRot::XYZ, self.f32(), self.f32(), self.f32())
        } else {
            Quat::from_xyzw(self.f32(), self.f32(), self.f32(), self.f32())
        }
    }
    fn transform(&mut self) -> Transform {
        let translation = self.vec3();
        let rotation = self.quat();
        let scale = if self.u8() < 200 { Vec3::ONE } else { self.vec3() };
        Transform { translation, rotation, scale }
    }
}

/// Decode `data` into a document with one or two skeletons, up to 3 meshes and 3 clips.
pub fn doc_from_bytes(data: &[u8]) -> BakedDocument {
    let mut r = Bytes { data, pos: 0 };
    let nb = r.small(9);
    let bones: Vec<Bone> = (0..nb)
        .map(|i| {
            let p = r.u8();
            // Mostly a valid parent; sometimes one that does not precede the bone.
            let parent = match p {
                0..=63 => None,
                64..=239 if i > 0 => Some(p as usize % i),
                _ => Some(p as usize % (nb + 2)),
            };
            Bone { name: ["", "a", "a", "b c", "{x}"][r.small(5)].to_string(), parent, rest: r.transform() }
        })
        .collect();
    let skeleton = Skeleton { name: "fuzz".into(), bones };
    let meshes = (0..r.small(4))
        .map(|k| {
            let nv = r.small(9);
            let positions: Vec<Vec3> = (0..nv).map(|_| r.vec3()).collect();
            let indices: Vec<u32> = (0..r.small(13)).map(|_| r.small(10) as u32).collect();
            let binding = if r.u8() < 128 {
                MeshBinding::Rigid { bone: r.small(10) }
            } else {
                let n = if r.u8() < 240 { nv } else { r.small(9) };
                MeshBinding::Skinned {
                    joints: (0..n).map(|_| [0; 4].map(|_: u8| r.small(10) as u16)).collect(),
                    weights: (0..n).map(|_| [0; 4].map(|_: u8| r.f32())).collect(),
                }
            };
            let mut m = Mesh::rigid(format!("m{k}"), 0, positions, indices);
            m.binding = binding;
            if r.u8() < 100 {
                let n = if r.u8() < 240 { nv } else { r.small(9) };
                m.normals = Some((0..n).map(|_| r.vec3()).collect());
            }
            if r.u8() < 60 {
                m.colors = Some((0..nv).map(|_| [r.f32(), r.f32(), r.f32(), r.f32()]).collect());
            }
            if r.u8() < 30 {
                m.uvs = Some((0..nv).map(|_| Vec2::new(r.f32(), r.f32())).collect());
            }
            m.base_color = [r.f32(), r.f32(), r.f32(), r.f32()];
            m
        })
        .collect();
    let clips = (0..r.small(4))
        .map(|index| {
            let frames = r.small(7);
            let fps = [30.0, 60.0, 0.0, f64::NAN, 1e-30, 1e30, -5.0, 12.5][r.small(8)];
            let skeleton = [Some(0), Some(0), None, Some(1)][r.small(4)];
            let info = AnimInfo {
                index,
                name: ["walk", "walk", ""][r.small(3)].into(),
                frames: if r.u8() < 250 { frames as u32 } else { u32::MAX },
                fps,
                bones: nb,
                format: "fuzz".into(),
                source: "bytes".into(),
                skeleton,
                interpolation: if r.u8() < 128 { Interpolation::Linear } else { Interpolation::Step },
                extra: Default::default(),
            };
            let per_frame = if r.u8() < 220 { nb } else { r.small(10) };
            let frames_data: Vec<Vec<Transform>> =
                (0..frames).map(|_| (0..per_frame).map(|_| r.transform()).collect()).collect();
            let root_motion =
                if r.u8() < 128 { None } else { Some((0..frames).map(|_| r.vec3()).collect::<Vec<Vec3>>()) };
            BakedClip { info, frames: frames_data, root_motion }
        })
        .collect();
    let info = SkeletonInfo {
        id: "fuzz".into(),
        name: "fuzz".into(),
        source: "bytes".into(),
        skeleton,
        meshes,
        extra: Default::default(),
    };
    BakedDocument::new("fuzz", vec![], vec![info], clips)
}

/// A seed whose document is valid (so mutations start from files that export), written in
/// the decoder's field order. Ordinary values are bytes below 224: (b - 112) / 16.
pub fn seed() -> Vec<u8> {
    const Z: u8 = 112; // 0.0
    let mut s = vec![3u8]; // 3 bones
                           // parent byte, name, translation, rotation (0 = Euler xyz follows), scale (0 = 1)
    s.extend([0, 1, Z, Z, Z, 0, Z, Z, Z, 0]); // root
    s.extend([64, 2, Z, Z + 16, Z, 0, Z, Z, Z, 0]); // parent 64 % 1 = 0, at (0,1,0)
    s.extend([65, 3, Z, Z + 32, Z, 0, Z, Z, Z, 0]); // parent 65 % 2 = 1, at (0,2,0)
    s.push(1); // 1 mesh
    s.extend([3, Z, Z, Z, Z + 16, Z, Z, Z, Z + 16, Z]); // 3 positions
    s.extend([3, 0, 1, 2]); // 3 indices
    s.extend([0, 2]); // rigid on bone 2
    s.extend([200, 200, 200]); // no normals, colors, uvs
    s.extend([120, 124, 128, 128]); // base colour
    s.push(1); // 1 clip
    s.extend([3, 0, 0, 0, 0, 0, 0]); // 3 frames, 30 fps, skeleton 0, "walk", frames as given, LINEAR, all bones
    for f in 0..3u8 {
        for b in 0..3u8 {
            s.extend([Z, Z + 16 * b, Z + f, 0, Z + f, Z + 2 * f, Z, 0]);
        }
    }
    s.push(200); // root motion
    s.extend([1, 2, 3]);
    s
}

/// Run every exporter over the document decoded from `data` (what the fuzz target does).
pub fn export_all(data: &[u8]) {
    let doc = doc_from_bytes(data);
    let opts = crate::ExportOptions::default();
    let in_place = crate::ExportOptions { in_place: true, ..Default::default() };
    let anims: Vec<usize> = (0..doc.clips.len()).collect();
    let _ = crate::glb(&doc, 0, &anims, &opts);
    let _ = crate::glb(&doc, 0, &anims, &in_place);
    let _ = crate::glb(&doc, 1, &anims, &opts);
    for &a in &anims {
        let _ = crate::bvh(&doc, 0, a, &opts);
        let _ = crate::obj(&doc, 0, Some(a), 1.0);
    }
    let _ = crate::obj(&doc, 0, None, 0.0);
}
