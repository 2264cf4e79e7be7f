//! MM keyframe skeletons and animations on fixtures from our own encoder (tests/common), with
//! the expected values worked by hand from c_keyframe.c's formulas (see each comment).

mod common;

use boneyard_core::document::Document;
use boneyard_core::family::InputFile;
use boneyard_z64::{math_cos_s, math_sin_s};
use boneyard_z64::{open_files, Z64Document};

fn open(name: &str, data: Vec<u8>) -> Z64Document {
    open_files(vec![InputFile::new(name, data)]).unwrap()
}

fn joints(doc: &Z64Document, anim: usize, frame: f64) -> Vec<[i16; 3]> {
    doc.table_at(anim, frame).unwrap().1.joints
}

fn assert_consistent(doc: &Z64Document, anim: usize, frames: &[f64]) {
    let skel = doc.animations()[anim].skeleton.unwrap();
    let sk = &doc.skeletons()[skel].skeleton;
    for &f in frames {
        let s = doc.sample(anim, f).unwrap();
        let fk = boneyard_core::fk::world_matrices(sk, &s.locals);
        let pose = doc.pose(skel, Some(anim), f).unwrap();
        for (a, p) in fk.iter().zip(&pose) {
            for (x, y) in a.to_cols_array().iter().zip(p.to_cols_array()) {
                assert!((x - y).abs() <= 1e-4 * (1.0 + y.abs()), "frame {f}: {a} vs {p}");
            }
        }
    }
}

#[test]
fn standard_keyframe_skeleton_and_animation() {
    let doc = open("object_kftest.zobj", common::kf_standard_object());
    assert_eq!(doc.skeletons().len(), 1);
    let s = &doc.skeletons()[0];
    assert_eq!(s.id, "0x34");
    assert_eq!(s.extra["type"], "KeyFrame");
    assert_eq!(s.extra["limb_type"], "KeyFrameStandard");
    assert_eq!(s.skeleton.len(), 3);
    // Limb 0 has numChildren 2: limbs 1 and 2 are both its children.
    assert_eq!(s.skeleton.bones[1].parent, Some(0));
    assert_eq!(s.skeleton.bones[2].parent, Some(0));
    let anims = doc.animations();
    assert_eq!(anims.len(), 1);
    let a = &anims[0];
    assert_eq!((a.frames, a.fps, a.skeleton, a.format.as_str(), a.bones), (11, 30.0, Some(0), "z64 mm keyframe", 3));
    assert_eq!(doc.animation_extra(a.index)["header"], "0x7C");
    assert_eq!(doc.animation_extra(a.index)["layout"], "standard");

    // Frame 5 = curTime 6. tx: keys (1,0)(11,100), u = 5/10 = 0.5, px1 = 0.5 -> 50.
    // ty 20, tz -5 fixed. Limb 0 rz: (1,0)(11,900) -> 450 tenths = 45 deg; 45 * 182.04445 =
    // 8192.0 -> 0x2000. Limb 1 rx: one key, -450 -> -45 deg -> -0x2000; ry 1800 -> 180 deg ->
    // 32768 -> (s16) -0x8000. Limb 2 rz 3600 -> FMOD(360, 360) = 0.
    assert_eq!(joints(&doc, 0, 5.0), vec![[50, 20, -5], [0, 0, 0x2000], [-0x2000, -0x8000, 0], [0, 0, 0]]);
    // Frame 0 = curTime 1, at the first keys: tx 0, rz 0.
    assert_eq!(joints(&doc, 0, 0.0)[0..2], [[0, 20, -5], [0, 0, 0]]);
    // Frame 10 = curTime 11, the last keys: tx 100, rz 900 -> 90 deg -> 0x4000.
    assert_eq!(joints(&doc, 0, 10.0)[0..2], [[100, 20, -5], [0, 0, 0x4000]]);
    // Frame 2.5 = curTime 3.5 (the game samples half frames: 1.5 a game update): u = 0.25,
    // px1 = 3/16 - 2/64 = 0.15625; tx = 15.625 -> 16; rz = 140.625 -> 141 tenths;
    // 141 * 0.1f = 14.1000004; * 182.04445 = 2566.827 -> (s32) 2566.
    let j = joints(&doc, 0, 2.5);
    assert_eq!((j[0][0], j[1][2]), (16, 2566));
    let smp = doc.sample(0, 2.5).unwrap();
    assert_eq!(smp.frame, 2.5);
    assert_eq!(smp.extra["cur_time"], 3.5);
    // Wrapping: the loop period is frameCount - 1 = 10, so frame 12 is curTime 13 -> 3.
    assert_eq!(joints(&doc, 0, 12.0), joints(&doc, 0, 2.0));
    assert_eq!(joints(&doc, 0, -1.0), joints(&doc, 0, 9.0));

    // Posing at frame 5 by hand: the root: T(50, 20, -5) then Z by 0x2000, so xx = cos,
    // yx = sin, xy = -sin (from the table: sin 0x5A93/32767, cos 0x5A6F/32767). Limb 1 at
    // jointPos (100, 0, 0): xw = 50 + cos * 100, yw = 20 + sin * 100, zw = -5.
    let (s45, c45) = (math_sin_s(0x2000), math_cos_s(0x2000));
    assert_eq!(s45, 23187.0f32 * (1.0f32 / 32767.0));
    let m = doc.game_matrices(0, Some(0), 5.0).unwrap();
    assert_eq!((m[0].xw, m[0].yw, m[0].zw), (50.0, 20.0, -5.0));
    assert_eq!((m[0].xx, m[0].yx, m[0].xy), (c45, s45, -s45));
    assert_eq!((m[1].xw, m[1].yw, m[1].zw), (50.0 + c45 * 100.0, 20.0 + s45 * 100.0, -5.0));
    // Limb 2 at (0, 50, 0): xw = 50 + xy * 50 = 50 - sin * 50, yw = 20 + cos * 50.
    assert_eq!((m[2].xw, m[2].yw), (50.0 + -s45 * 50.0, 20.0 + c45 * 50.0));
    assert_consistent(&doc, 0, &[0.0, 2.5, 5.0, 10.0]);

    let lines = doc.check().unwrap();
    assert!(
        lines[0].starts_with(
            "0 object_kftest_kf_anim_00007C kind=mm-keyframe frames=11 fps=30 joints=4 skeleton=0x34 crc="
        ),
        "{}",
        lines[0]
    );
}

#[test]
fn flex_keyframe_skeleton_scales_children() {
    let doc = open("object_kfflex.zobj", common::kf_flex_object());
    let s = &doc.skeletons()[0];
    assert_eq!((s.id.as_str(), s.skeleton.len()), ("0x20", 2));
    assert_eq!(s.extra["type"], "KeyFrameFlex");
    assert_eq!(s.extra["limb_type"], "KeyFrameFlex");
    let a = &doc.animations()[0];
    assert_eq!((a.frames, a.fps, a.skeleton, a.bones), (5, 30.0, Some(0), 2));
    assert_eq!(doc.animation_extra(a.index)["layout"], "flex");
    // Frame 2 = curTime 3: u = (3 - 1) / 4 = 0.5 for every curve: sx (100 -> 200) = 150,
    // ty (0 -> 40) = 20, limb 1 rz (0 -> 900) = 450 tenths -> 0x2000. Table: scale, rotation,
    // translation per limb.
    assert_eq!(
        joints(&doc, 0, 2.0),
        vec![[150, 100, 100], [0, 0, 0], [0, 20, 0], [100, 100, 100], [0, 0, 0x2000], [30, 0, 0]]
    );
    // Posing by hand: limb 0: T(0, 20, 0), Z by 0 (cos = Math_CosS(0) = 32767 * (1/32767f)),
    // then Matrix_Scale(150 * 0.01f = 1.5, 100 * 0.01f = 1.0, 1.0) since x is not 1:
    // xx = cos * 1.5. Limb 1 (scale 100 -> 1.0 on every axis: no Matrix_Scale) at (30, 0, 0):
    // xw = 0 + xx * 30, yw = 20; then Z by 0x2000: xx = (cos * 1.5) * c45 + xy * s45 with
    // xy = 0 * cos - 1 * 0 = 0 (sin 0 = 0), so the parent's x scale reaches the child.
    let c0 = math_cos_s(0);
    let (s45, c45) = (math_sin_s(0x2000), math_cos_s(0x2000));
    let m = doc.game_matrices(0, Some(0), 2.0).unwrap();
    assert_eq!((m[0].xx, m[0].yy, m[0].yw), (c0 * 1.5, c0, 20.0));
    assert_eq!((m[1].xw, m[1].yw, m[1].zw), (c0 * 1.5 * 30.0, 20.0, 0.0));
    assert_eq!(m[1].xx, (c0 * 1.5) * c45 + 0.0 * s45);
    // Root motion follows limb 0's translation (entry 2): 20 up from frame 0.
    let smp = doc.sample(0, 2.0).unwrap();
    assert_eq!(smp.root_motion.unwrap().y, 20.0);
    assert_consistent(&doc, 0, &[0.0, 1.5, 2.0, 4.0]);
}

#[test]
fn keyframe_bad_counts_are_errors_or_skipped() {
    // kfNums of 0 would make the game read the key before the channel: the scan drops it.
    let mut d = common::kf_standard_object();
    d[0x62..0x64].copy_from_slice(&0i16.to_be_bytes());
    let doc = open("object_kftest.zobj", d);
    assert_eq!(doc.animations().len(), 0);
    // Keys out of frame order (tx keys at frames 11 then 1): the scan does not take it as an
    // animation; given explicitly it is read as the game would: Keyframe_KeyCalc first tests
    // t <= keys[0].frame, and t = 6 <= 11 gives the first key's value, 0.
    let mut d = common::kf_standard_object();
    d[0x44..0x46].copy_from_slice(&11i16.to_be_bytes());
    d[0x4A..0x4C].copy_from_slice(&1i16.to_be_bytes());
    assert_eq!(open("object_kftest.zobj", d.clone()).animations().len(), 0);
    use boneyard_z64::{Explicit, ExplicitKind};
    let x =
        [Explicit { file: "object_kftest".into(), offset: 0x7C, kind: ExplicitKind::KeyFrameAnimation, name: None }];
    let doc = boneyard_z64::open_files_with(vec![InputFile::new("object_kftest.zobj", d)], &x).unwrap();
    assert_eq!(joints(&doc, 0, 5.0)[0][0], 0);
    // Frame 10 = curTime 11 <= 11: still the first key's value.
    assert_eq!(joints(&doc, 0, 10.0)[0][0], 0);
    // numChildren leading past limbCount: no skeleton, nothing found (an object file with
    // nothing in it is an empty document; under a name no object has, an error).
    let mut d = common::kf_standard_object();
    d[0x10 + 4] = 5;
    let empty = open_files(vec![InputFile::new("object_kftest.zobj", d.clone())]).unwrap();
    assert!(empty.skeletons().is_empty() && empty.animations().is_empty());
    assert!(open_files(vec![InputFile::new("kftest.dat", d)]).is_err());
}

#[test]
fn curve_skeleton_and_animation() {
    let doc = open("object_curvetest.zobj", common::curve_object());
    assert_eq!(doc.skeletons().len(), 1, "{:?}", doc.skeletons().iter().map(|s| &s.id).collect::<Vec<_>>());
    let s = &doc.skeletons()[0];
    assert_eq!((s.id.as_str(), s.skeleton.len()), ("0x30", 2));
    assert_eq!((s.extra["type"].as_str(), s.extra["limb_type"].as_str()), (Some("Curve"), Some("Curve")));
    let anims = doc.animations();
    assert_eq!(anims.len(), 1);
    let a = &anims[0];
    assert_eq!((a.frames, a.fps, a.skeleton, a.format.as_str(), a.bones), (10, 30.0, Some(0), "z64 curve", 2));
    // Frame 5 = curFrame 5. Limb 0 rz: cubic (0, 0) -> (10, 90), gradients 0: t = 0.5,
    // h01 = 0.75 - 0.25 = 0.5 -> 45 deg; DEG_TO_BINANG: 45 * 182.04445 = 8192.0 -> 0x2000.
    // Limb 0 py: 0.5 * 2.5 = 1.25 -> * 100 = 125. Limb 1 sx: linear 1 + 0.5 * (2 - 1) = 1.5 ->
    // * 1024 = 1536. Constants as stored.
    assert_eq!(
        joints(&doc, 0, 5.0),
        vec![[1024, 1024, 1024], [0, 0, 0x2000], [0, 125, 0], [1536, 1024, 1024], [0, 0, 0], [3000, 0, 0]]
    );
    // Frame 2.5: t = 0.25, h01 = 0.1875 - 0.03125 = 0.15625: rz = 14.0625 deg -> * 182.04445
    // = 2560.00006 -> f32 2560.0 -> 2560; py = 0.390625 * 100 = 39.0625 -> 39; sx linear
    // 1.25 -> 1280.
    let j = joints(&doc, 0, 2.5);
    assert_eq!((j[1][2], j[2][1], j[3][0]), (2560, 39, 1280));
    // Posing at frame 5 by hand: limb 0: T(0, 125, 0), Z by 0x2000, Matrix_Scale(1, 1, 1).
    // Limb 1 at (3000, 0, 0): xw = xx * 3000 = cos45 * 3000, yw = 125 + sin45 * 3000; Z by 0
    // (cos0 = Math_CosS(0), sin 0): xx = cos45 * cos0 + (-sin45) * 0, then x scale 1536/1024.
    let (s45, c45, c0) = (math_sin_s(0x2000), math_cos_s(0x2000), math_cos_s(0));
    let m = doc.game_matrices(0, Some(0), 5.0).unwrap();
    assert_eq!((m[0].xw, m[0].yw, m[0].xx), (0.0, 125.0, c45));
    assert_eq!((m[1].xw, m[1].yw), (c45 * 3000.0, 125.0 + s45 * 3000.0));
    assert_eq!(m[1].xx, (c45 * c0 + -s45 * 0.0) * 1.5);
    assert_consistent(&doc, 0, &[0.0, 2.5, 5.0, 9.0]);
    let lines = doc.check().unwrap();
    assert!(lines[0].contains(" kind=curve frames=10 fps=30 joints=6 skeleton=0x30 crc="), "{}", lines[0]);
}

/// A one-limb flex keyframe skeleton (the scan wants two or more) given explicitly, with the
/// animation of the flex fixture: its arrays read for one limb (bit flags 0x102: scale x and
/// translation y animated; 2 + 2 keys; 7 fixed values). Frame 2 = curTime 3: u = 0.5 ->
/// sx 150, ty 20.
#[test]
fn keyframe_data_given_explicitly() {
    use boneyard_z64::{Explicit, ExplicitKind};
    let mut d = common::kf_flex_object();
    d[0x20] = 1; // limbCount
    d[0x21] = 1; // dListCount
    d[0x14] = 0; // limb 0 numChildren
    let scanned = open_files(vec![InputFile::new("object_kfone.zobj", d.clone())]).unwrap();
    assert!(scanned.skeletons().is_empty() && scanned.animations().is_empty(), "the scan wants two limbs");
    let x = |offset, kind| Explicit { file: "object_kfone".into(), offset, kind, name: None };
    let explicit =
        [x(0x20, ExplicitKind::KeyFrameSkeleton { flex: Some(true) }), x(0x74, ExplicitKind::KeyFrameAnimation)];
    let doc = boneyard_z64::open_files_with(vec![InputFile::new("object_kfone.zobj", d.clone())], &explicit).unwrap();
    assert_eq!(doc.skeletons().len(), 1);
    assert_eq!(doc.animations()[0].name, "object_kfone_kf_anim_000074");
    assert_eq!(joints(&doc, 0, 2.0), vec![[150, 100, 100], [0, 0, 0], [0, 20, 0]]);
    // An explicit animation that fits no skeleton is an error naming the file.
    let bad = [x(0x74, ExplicitKind::KeyFrameAnimation)];
    let e = boneyard_z64::open_files_with(vec![InputFile::new("object_kfone.zobj", d)], &bad).err().unwrap();
    assert_eq!(e.offset, Some(0x74), "{e}");
}

/// Flex keyframe and curve limbs have no position of their own; their rest pose is frame 0 of
/// the first animation playing on them (flex fixture at frame 0 = curTime 1: limb 1 at
/// translation (30, 0, 0) under limb 0 at (0, 0, 0)).
#[test]
fn rest_pose_of_positionless_skeletons() {
    let doc = open("object_kfflex.zobj", common::kf_flex_object());
    let rest = doc.pose(0, None, 0.0).unwrap();
    assert_eq!(rest, doc.pose(0, Some(0), 0.0).unwrap());
    assert_eq!(rest[1].w_axis.x, 30.0);
    let sk = &doc.skeletons()[0].skeleton;
    assert_eq!(sk.bones[1].rest.translation.x, 30.0);
}
