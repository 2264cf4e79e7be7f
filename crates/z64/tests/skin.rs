//! Skin limbs' animated meshes against positions worked by hand from z_skin.c and
//! z_skin_matrix.c (no object with Skin limbs is in the shared data: the fixture is our own
//! encoding of skin.h's structures, tests/common/mod.rs `skin_object`).
//!
//! Rest limb matrices (`Skin_ApplyAnimTransformations`, rotations 0): SetRotateZYX(0,0,0) is
//! diag(Math_CosS(0), Math_CosS(0), 1, 1) and Math_CosS(0) = 32767 * (1.0f / 32767.0f), which
//! rounds to exactly 1.0 in f32, so every matrix is a pure translation:
//! W0 = T(10,20,30), W1 = W0 * T(100,0,0) = T(110,20,30), W2 = W0 * T(0,50,0) = T(10,70,30).
//! Weights are `scale * 0.01f`: 0.01f = 0.0099999998, 30 * 0.01f = 0.29999998,
//! 70 * 0.01f = 0.69999999, 50 * 0.01f = 0.5 (all f32).

mod common;

use boneyard_core::document::Document;
use boneyard_core::family::InputFile;
use boneyard_core::MeshBinding;
use boneyard_z64::open_files;
use boneyard_z64::JointTable;
use boneyard_z64::{Ctx, SegFile};
use glam::Vec3;

fn seg_files(data: Vec<u8>) -> [SegFile; 1] {
    [SegFile {
        name: "object_skintest".into(),
        stem: "object_skintest".into(),
        shown: "object_skintest".into(),
        segment: 6,
        data,
        lenient: false,
    }]
}

fn ctx(files: &[SegFile]) -> Ctx<'_> {
    let mut map = [None; 16];
    map[6] = Some(0);
    Ctx::new(files, map, 0)
}

fn read(data: Vec<u8>, jt: Option<&JointTable>, entries: usize) -> boneyard_core::Result<boneyard_z64::SkinLimbMesh> {
    let files = seg_files(data);
    let c = ctx(&files);
    let s = boneyard_z64::read_skeleton(&c, 0x0600_010C, 0, "t".into(), None, None)?;
    let mats = boneyard_z64::limb_matrices(&s, jt);
    let mut left = boneyard_core::Budget::new(boneyard_core::Limit::new("max_skin_entries", entries as u64), "entries");
    boneyard_z64::read_animated_limb(&c, &s, 2, 0x0600_0020, &mats, &mut left)
}

#[test]
fn rest_vertices_by_hand() {
    let m = read(common::skin_object(), None, usize::MAX).unwrap();
    assert_eq!(m.dlist, 0x0600_0000);
    assert_eq!(m.vertices.len(), 4);
    let v: Vec<_> = m.vertices.iter().map(|v| v.clone().unwrap()).collect();
    // Modification 0, one transformation: W1 * (5,-7,3) = (115, 13, 33), no weight applied.
    assert_eq!(v[0].pos, [115, 13, 33]);
    assert_eq!((v[0].st, v[0].alpha), ([32, 64], 255));
    assert_eq!(v[0].influences, vec![(1, 1.0)]);
    // Modification 1: W0 * (1,2,3) = (11,22,33), W1 * (-4,5,7) = (106,25,37);
    // x = 11 * 0.29999998 + 106 * 0.69999999 = 77.5 in f32, truncated to 77 (rounding: 78);
    // y = 6.6 + 17.5 = 24.099998 -> 24; z = 9.9 + 25.9 = 35.8 -> 35 (rounding: 36).
    // Vertices 1 and 3 share it.
    assert_eq!(v[1].pos, [77, 24, 35]);
    assert_eq!(v[3].pos, [77, 24, 35]);
    assert_eq!(v[1].influences, vec![(0, 30.0 * 0.01f32), (1, 70.0 * 0.01f32)]);
    // Modification 2: W0 * (-21,0,0) = (-11,20,30), W1 * (-122,0,0) = (-12,20,30), halves:
    // x = -5.5 + -6 = -11.5 -> -11 (toward zero; floor would give -12), y 20, z 30.
    assert_eq!(v[2].pos, [-11, 20, 30]);
    // Normals turn with the static transformation's limb, translation removed: at rest the
    // identity, so they are the file's, stored back to s8 (-128 stays -128).
    assert_eq!(v[0].normal, [0, 127, 0]);
    assert_eq!(v[3].normal, [0, 0, 127]);
    assert_eq!(v[2].normal, [0, 0, -128]);
}

/// Limb 1 turned 0x4000 about Z: Math_SinS(0x4000) = 32767 * (1/32767f) = 1.0,
/// Math_CosS(0x4000) = sins(0x8000) * (1/32767f) = 0, so SetRotateZYX gives xx = 0, xy = -1,
/// yx = 1, yy = 0 and W1 = T(110,20,30) * Rz.
#[test]
fn posed_vertices_by_hand_and_linear_blend_skinning() {
    let jt = JointTable { joints: vec![[10, 20, 30], [0, 0, 0], [0, 0, 0x4000], [0, 0, 0]], face: None };
    let m = read(common::skin_object(), Some(&jt), usize::MAX).unwrap();
    let v: Vec<_> = m.vertices.iter().map(|v| v.clone().unwrap()).collect();
    // W1 * (5,-7,3) = (110 + (5*0 + -7*-1 + 3*0), 20 + (5*1 + -7*0 + 3*0), 30 + 3) = (117, 25, 33).
    assert_eq!(v[0].pos, [117, 25, 33]);
    // The normal (0,127,0) turns to (127*-1, 127*0, 0) = (-127, 0, 0).
    assert_eq!(v[0].normal, [-127, 0, 0]);
    // Modification 1: W1 * (-4,5,7) = (110 - 5, 20 - 4, 37) = (105, 16, 37);
    // 0.29999998 * (11,22,33) + 0.69999999 * (105,16,37) = (76.8, 17.8, 35.8) -> (76, 17, 35).
    assert_eq!(v[1].pos, [76, 17, 35]);

    // Linear blend skinning of the rest mesh reproduces a single-transformation vertex:
    // W1' * W1^-1 * (115,13,33) = W1' * (5,-7,3) = (117,25,33).
    let doc = open_files(vec![InputFile::new("object_skintest.zobj", common::skin_object())]).unwrap();
    let sk = &doc.skeletons()[0];
    let mesh = &sk.meshes[0];
    let rest = doc.pose(0, None, 0.0).unwrap();
    let mut posed = rest.clone();
    // Bone 1 is limb 1: its world matrix turned about its own origin.
    posed[1] = rest[1] * glam::Mat4::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let MeshBinding::Skinned { joints, weights } = &mesh.binding else { panic!("not skinned") };
    let p = mesh.positions[0];
    let mut out = Vec3::ZERO;
    for k in 0..4 {
        let b = joints[0][k] as usize;
        out += weights[0][k] * (posed[b] * rest[b].inverse()).transform_point3(p);
    }
    assert!((out - Vec3::new(117.0, 25.0, 33.0)).length() < 1e-3, "{out}");
}

#[test]
fn document_mesh_is_skinned_with_normalised_weights() {
    let doc = open_files(vec![InputFile::new("object_skintest.zobj", common::skin_object())]).unwrap();
    let sk = &doc.skeletons()[0];
    assert_eq!(sk.extra["limb_type"], "Skin");
    assert_eq!(sk.meshes.len(), 1, "{:?}", sk.extra.get("mesh_notes"));
    let m = &sk.meshes[0];
    // First use order of the triangles (0,1,2) (0,2,3).
    assert_eq!(m.indices, vec![0, 1, 2, 0, 2, 3]);
    let want = [[115.0, 13.0, 33.0], [77.0, 24.0, 35.0], [-11.0, 20.0, 30.0], [77.0, 24.0, 35.0]];
    assert_eq!(m.positions, want.map(Vec3::from_array).to_vec());
    let MeshBinding::Skinned { joints, weights } = &m.binding else { panic!("not skinned") };
    // Bones: limb 0 -> 0, limb 1 -> 1, limb 2 -> 2 (draw order).
    assert_eq!(joints[0], [1, 0, 0, 0]);
    assert_eq!(weights[0], [1.0, 0.0, 0.0, 0.0]);
    // 0.29999998 + 0.69999999 = 1.0 in f32: the weights stand as they are, largest first.
    assert_eq!(joints[1], [1, 0, 0, 0]);
    assert_eq!(weights[1], [70.0 * 0.01f32, 30.0 * 0.01f32, 0.0, 0.0]);
    assert_eq!((joints[2], weights[2]), ([0, 1, 0, 0], [0.5, 0.5, 0.0, 0.0]));
    for w in weights {
        assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }
    let n = m.normals.as_ref().unwrap();
    assert_eq!(n[0], Vec3::Y);
    assert_eq!(n[2], -Vec3::Z);
    let c = m.colors.as_ref().unwrap();
    assert_eq!(c[2][3], 50.0 / 255.0);
}

fn with(at: usize, bytes: &[u8]) -> Vec<u8> {
    let mut d = common::skin_object();
    d[at..at + bytes.len()].copy_from_slice(bytes);
    d
}

#[test]
fn bad_skin_data_names_the_offset() {
    let cases: [(usize, &[u8], u64, &str); 6] = [
        // SkinVertex 0's index 4 of totalVtxCount 4.
        (0x60, &[0, 4], 0x60, "totalVtxCount"),
        // Transformation 0's limb 3 of 3 limbs.
        (0x90, &[3], 0x90, "limb count"),
        // limbModifications outside the segment (pointer read at 0x24).
        (0x24, &[0x06, 0xFF, 0xFF, 0x00], 0x24, "outside segment 6"),
        // 65535 modifications do not fit the file.
        (0x22, &[0xFF, 0xFF], 0x24, "outside segment 6"),
        // Modification 0: static index 1 of 1 transformation.
        (0x34, &[0, 1], 0x34, "static transformation"),
        // Modification 1: no transformations.
        (0x42, &[0, 0], 0x42, "no transformations"),
    ];
    for (at, bytes, off, msg) in cases {
        let e = read(with(at, bytes), None, usize::MAX).unwrap_err();
        assert_eq!(e.offset, Some(off), "{e}");
        assert!(e.to_string().contains(msg), "{e}");
        // Opened as an unnamed file, the mesh is left out with a note; never a panic.
        let doc = open_files(vec![InputFile::new("object_skintest.zobj", with(at, bytes))]).unwrap();
        let notes = doc.skeletons()[0].extra["mesh_notes"].to_string();
        assert!(notes.contains(msg), "{notes}");
        // ... and a warning naming the file and the offset of the bad bytes.
        let w = doc.warnings().iter().find(|w| w.message.contains(msg)).expect("a warning");
        assert_eq!((w.file.as_str(), w.offset), ("object_skintest.zobj", Some(off)), "{w}");
    }
    // The document's entry budget: 4 vertices + 5 transformations, 8 allowed.
    let e = read(common::skin_object(), None, 8).unwrap_err();
    assert_eq!(e.offset, Some(0x50), "{e}");
    assert_eq!(e.limit_name(), Some("max_skin_entries"), "{e}");
}

/// The document poses Skin skeletons with the Skin system's matrices: at rest the limb
/// matrices are the translations worked out above.
#[test]
fn skin_skeleton_pose_uses_the_skin_matrices() {
    let doc = open_files(vec![InputFile::new("object_skintest.zobj", common::skin_object())]).unwrap();
    let w = doc.game_matrices(0, None, 0.0).unwrap();
    let t: Vec<[f32; 3]> = w.iter().map(|m| [m.xw, m.yw, m.zw]).collect();
    assert_eq!(t, vec![[10.0, 20.0, 30.0], [110.0, 20.0, 30.0], [10.0, 70.0, 30.0]]);
    assert!(w.iter().all(|m| (m.xx, m.yy, m.zz, m.ww) == (1.0, 1.0, 1.0, 1.0)));
}

/// A deterministic mutation loop over the whole fixture (counts, pointers, indices, scales):
/// the reader answers with a document or an error, never a panic.
#[test]
fn mutated_skin_objects_never_panic() {
    let base = common::skin_object();
    let mut x: u32 = 0x2545_F491;
    let mut rand = move || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    for _ in 0..3000 {
        let mut d = base.clone();
        for _ in 0..1 + rand() % 4 {
            let at = rand() as usize % d.len();
            d[at] = rand() as u8;
        }
        let _ = read(d.clone(), None, 1 << 16);
        if let Ok(doc) = open_files(vec![InputFile::new("object_skintest.zobj", d)]) {
            for s in 0..doc.skeletons().len() {
                let _ = doc.pose(s, None, 0.0);
            }
        }
    }
}
