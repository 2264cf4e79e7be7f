//! Curve skeletons (SkelCurve): the limbs' second display list, limbs hidden by a zero scale,
//! and a curve limb whose display list cannot be drawn. On a hand-made fixture (tests/common)
//! and on the OoT debug ROM's object_box (skipped, with a message, when ../shared/data is
//! absent), with the expected values read from the file's bytes here, independently of the
//! crate's readers, and worked by hand from z_fcurve_data.c / z_fcurve_data_skelanime.c.

mod common;

use boneyard_core::document::Document;
use boneyard_core::family::InputFile;
use boneyard_core::model::MeshBinding;
use boneyard_core::testdata::shared_data;
use boneyard_z64::{open_files, Z64Document};

fn open(name: &str, data: Vec<u8>) -> Z64Document {
    open_files(vec![InputFile::new(name, data)]).unwrap()
}

fn be32(d: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([d[at], d[at + 1], d[at + 2], d[at + 3]])
}

/// Bones that carry at least one mesh (rigid meshes name their bone).
fn bones_with_meshes(doc: &Z64Document, skel: usize) -> Vec<usize> {
    let mut b: Vec<usize> = doc.skeletons()[skel]
        .meshes
        .iter()
        .map(|m| match m.binding {
            MeshBinding::Rigid { bone } => bone,
            MeshBinding::Skinned { .. } => panic!("curve limb meshes are rigid: {}", m.name),
        })
        .collect();
    b.sort();
    b.dedup();
    b
}

/// Every local and world value of every frame is finite, every rotation a unit quaternion, and
/// a scale entry keyed to 0 gives a scale of exactly 0. Returns how many zero scales were seen.
fn assert_finite_everywhere(doc: &Z64Document, anim: usize) -> usize {
    let skel = doc.animations()[anim].skeleton.unwrap();
    let frames = doc.animations()[anim].frames;
    let mut zeros = 0;
    for f in 0..frames {
        let (_, jt) = doc.table_at(anim, f as f64).unwrap();
        let s = doc.sample(anim, f as f64).unwrap();
        let order = &doc.skeletons()[skel].skeleton;
        assert_eq!(s.locals.len(), order.len());
        for (b, t) in s.locals.iter().enumerate() {
            assert!(t.translation.is_finite() && t.scale.is_finite(), "anim {anim} frame {f} bone {b}: {t:?}");
            assert!(t.rotation.is_finite(), "anim {anim} frame {f} bone {b}: rotation {:?}", t.rotation);
            assert!((t.rotation.length() - 1.0).abs() < 1e-5, "frame {f} bone {b}: {:?}", t.rotation);
        }
        // Joint table: 3 entries a limb, the first the scale; limb l is the bone named limb_NN.
        for (l, sc) in jt.joints.chunks(3).map(|c| c[0]).enumerate() {
            let bone = order.find(&format!("limb_{l:02}")).unwrap();
            for (c, &v) in sc.iter().enumerate() {
                if v == 0 {
                    zeros += 1;
                    assert_eq!(s.locals[bone].scale[c], 0.0, "anim {anim} frame {f} limb {l}");
                }
            }
        }
        for m in doc.pose(skel, Some(anim), f as f64).unwrap() {
            assert!(m.is_finite(), "anim {anim} frame {f}: {m}");
        }
        // The JSON a `sample --json` prints: never null.
        for t in &s.locals {
            let v = serde_json::json!([t.translation.to_array(), t.rotation.to_array(), t.scale.to_array()]);
            assert!(!v.to_string().contains("null"), "frame {f}: {v}");
        }
    }
    zeros
}

/// The fixture of tests/common with: limb 1's display list moved to dList[1] (a triangle at
/// 0xC8, vertices at 0xE0), limb 0's dList[1] a list at 0x110 whose second command lies past
/// the end of the file, and limb 1's scale y constant (at 0xA2) 0.
fn curve_fixture() -> Vec<u8> {
    let mut d = common::curve_object();
    assert_eq!(d.len(), 0xC4);
    d.resize(0x118, 0);
    let put = |d: &mut Vec<u8>, at: usize, w: u32| d[at..at + 4].copy_from_slice(&w.to_be_bytes());
    // Limb 0 dList[1], limb 1 dList[0] and dList[1]; limb 1's scale y constant.
    put(&mut d, 0x18, 0x0600_0110);
    put(&mut d, 0x20, 0);
    put(&mut d, 0x24, 0x0600_00C8);
    d[0xA2..0xA4].copy_from_slice(&0i16.to_be_bytes());
    // G_VTX 3 vertices from 0xE0 into 0..3, G_TRI1 (0, 1, 2), G_ENDDL.
    for (i, w) in [0x0100_3006u32, 0x0600_00E0, 0x0500_0204, 0, 0xDF00_0000, 0].into_iter().enumerate() {
        put(&mut d, 0xC8 + 4 * i, w);
    }
    for (i, p) in [[0i16, 0, 0], [100, 0, 0], [0, 100, 0]].into_iter().enumerate() {
        for (c, v) in p.into_iter().enumerate() {
            d[0xE0 + 16 * i + 2 * c..0xE2 + 16 * i + 2 * c].copy_from_slice(&v.to_be_bytes());
        }
    }
    // G_TEXTURE off; the next command is past the end.
    put(&mut d, 0x110, 0xD700_0000);
    d
}

#[test]
fn second_display_list_zero_scale_and_warning_on_a_fixture() {
    let doc = open("object_curvetest.zobj", curve_fixture());
    let s = &doc.skeletons()[0];
    assert_eq!(s.extra["type"], "Curve");
    // Both limbs have a display list (limb 0 in dList[0] and dList[1], limb 1 in dList[1]).
    assert_eq!(s.extra["display_lists"], 2);
    // Limb 1 (bone 1) draws its dList[1]: one mesh, the triangle, named after the list.
    assert_eq!(s.meshes.len(), 1, "{:?}", s.meshes.iter().map(|m| &m.name).collect::<Vec<_>>());
    assert_eq!(s.meshes[0].name, "limb_01_dl_0000C8");
    assert_eq!(s.meshes[0].indices, vec![0, 1, 2]);
    assert_eq!(bones_with_meshes(&doc, 0), vec![1]);
    // Limb 0's dList[1] (0x06000110) runs off the file: a warning at that display list's
    // own bytes, naming the file and the limb.
    let w = doc.warnings();
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!((w[0].file.as_str(), w[0].offset), ("object_curvetest.zobj", Some(0x110)));
    assert!(w[0].message.contains("limb 0") && w[0].message.contains("0x06000110"), "{}", w[0]);
    // Limb 1's scale y is the constant 0 at every frame: scale exactly 0, finite everything.
    let zeros = assert_finite_everywhere(&doc, 0);
    assert_eq!(zeros, 10);
    let f5 = doc.sample(0, 5.0).unwrap();
    // Frame 5: limb 1 sx linear 1.0 -> 2.0 at t 0.5: 1.5 (1536 / 1024); rotation 0: the
    // identity.
    assert_eq!(f5.locals[1].scale.y, 0.0);
    assert!(f5.locals[1].rotation.abs_diff_eq(glam::Quat::IDENTITY, 1e-6), "{:?}", f5.locals[1]);
    assert_eq!(f5.locals[1].translation, glam::Vec3::new(3000.0, 0.0, 0.0));
    assert!((f5.locals[1].scale.x - 1.5).abs() < 1e-6);
    // The rest pose binds the hidden limb at scale 1 (its matrices invert); pose(None) agrees.
    let rest = &s.skeleton.bones[1].rest;
    assert!((rest.scale.y - 1.0).abs() < 1e-6, "{rest:?}");
    let pose = doc.pose(0, None, 0.0).unwrap();
    assert!(pose[1].determinant().abs() > 0.5, "{}", pose[1]);
    for (a, b) in s.skeleton.rest_world().iter().zip(&pose) {
        assert!(a.abs_diff_eq(*b, 1e-3), "{a} vs {b}");
    }
}

/// A hostile twist of the fixture: every byte of the limb table and both display lists set to
/// each of a few values never panics, and what opens has finite poses.
#[test]
fn mutated_curve_fixture_never_panics() {
    let base = curve_fixture();
    for at in (0x10..0x30).chain(0xC8..0xE0).chain(0x110..0x118) {
        for v in [0x00u8, 0x01, 0x06, 0x7F, 0xDE, 0xFF] {
            let mut d = base.clone();
            d[at] = v;
            let Ok(doc) = open_files(vec![InputFile::new("object_curvetest.zobj", d)]) else { continue };
            for s in 0..doc.skeletons().len() {
                for m in doc.pose(s, None, 0.0).unwrap() {
                    assert!(m.is_finite(), "byte {at:#x} = {v:#x}: {m}");
                }
            }
        }
    }
}

#[test]
fn object_box_curve_skeleton() {
    let Some(p) = shared_data("z64/oot-gc-eu-mq-dbg/object_box", "object_box_curve_skeleton") else { return };
    let bytes = std::fs::read(&p).unwrap();
    let doc = open_files(vec![InputFile::read(&p).unwrap()]).unwrap();
    let si = doc.skeletons().iter().position(|s| s.id == "0x5EB8").expect("curve skeleton at 0x5EB8");
    let s = &doc.skeletons()[si];
    assert_eq!((s.name.as_str(), s.skeleton.len()), ("gTreasureChestCurveSkel", 14));
    // CurveSkeletonHeader at 0x5EB8 (object_box.xml): limbs** then u8 limbCount, read here.
    let table = (be32(&bytes, 0x5EB8) & 0xFF_FFFF) as usize;
    assert_eq!(bytes[0x5EBC], 14);
    let mut with_dl = Vec::new();
    for l in 0..14 {
        let la = (be32(&bytes, table + 4 * l) & 0xFF_FFFF) as usize;
        let (d0, d1) = (be32(&bytes, la + 4), be32(&bytes, la + 8));
        // The chest's limbs keep their lists in the second slot only.
        assert_eq!(d0, 0, "limb {l}");
        if d1 != 0 {
            with_dl.push(l);
        }
    }
    assert_eq!(with_dl, vec![1, 4, 7, 10, 13]);
    assert_eq!(s.extra["display_lists"], 5);
    // Bone of each limb: the bones are named limb_NN (no limb names in the asset table).
    let bone = |l: usize| s.skeleton.find(&format!("limb_{l:02}")).unwrap();
    let mut want: Vec<usize> = with_dl.iter().map(|&l| bone(l)).collect();
    want.sort();
    assert_eq!(bones_with_meshes(&doc, si), want);
    assert!(s.meshes.iter().all(|m| !m.indices.is_empty() && m.positions.iter().all(|p| p.is_finite())));
    // Two warnings: their display lists call segment 8, which the actor drawing them
    // (Demo_Tre_Lgt, the light of a big chest opening) binds to a texture scroll, taken at
    // its first frame, said at the skeleton's bytes; and the beams' combiner (TEXEL1, and
    // colours the actor sets at run time) is approximated, said at its G_SETCOMBINE.
    let (w, other): (Vec<_>, Vec<_>) =
        doc.warnings().iter().partition(|w| w.message.starts_with("skeleton gTreasureChestCurveSkel:"));
    assert_eq!(w.len(), 2, "{w:?}");
    // And one of the other chest skeleton: what En_Box's draw sets and draws after its limbs;
    // and one of the file: the boss key chest's two lists, which no limb draws.
    let (undrawn, other): (Vec<_>, Vec<_>) = other.into_iter().partition(|w| w.message.contains("that no limb draws"));
    assert_eq!(undrawn.len(), 1, "{undrawn:?}");
    assert!(undrawn[0].message.starts_with("2 display lists") && undrawn[0].offset == Some(0xAE8), "{}", undrawn[0]);
    assert_eq!(other.len(), 1, "{other:?}");
    assert!(
        other[0].message.contains("gTreasureChestChestFrontDL (0x6F0) drawn after limb 0")
            && other[0].message.contains("gTreasureChestChestSideAndLidDL (0x10C0) drawn after limb 2"),
        "{}",
        other[0]
    );
    assert!(
        w[0].message.contains("segment 0x8: the light rays' texture scroll") && w[0].offset == Some(0x5EB8),
        "{}",
        w[0]
    );
    assert!(w[1].message.contains("combiner FC20AC60 350C937F") && w[1].offset == Some(0x5A58), "{}", w[1]);

    // The two curve animations, 136 frames each; the light beams (limbs 3, 6, 9, 12) are hidden
    // by a zero scale y before frame 20.
    let anims: Vec<usize> = (0..doc.animations().len()).filter(|&a| doc.animations()[a].skeleton == Some(si)).collect();
    assert_eq!(anims.len(), 2);
    for &a in &anims {
        assert_eq!(doc.animations()[a].frames, 136);
        assert!(assert_finite_everywhere(&doc, a) > 0, "anim {a} has zero scales");
    }

    // Limb 3 of gTreasureChestCurveAnim_4B60, read from the bytes: knotCounts at the header's
    // first pointer; limb 3's properties are entries 27..36; its scale y (entry 28) has 5 knots,
    // its rotation z (entry 32) 4. Knots of 12 bytes {flags, abscissa, left, right, f32}.
    let a = anims.iter().copied().find(|&a| doc.animations()[a].name == "gTreasureChestCurveAnim_4B60").unwrap();
    let counts = (be32(&bytes, 0x4B60) & 0xFF_FFFF) as usize;
    let knots = (be32(&bytes, 0x4B64) & 0xFF_FFFF) as usize;
    let before: usize = bytes[counts..counts + 28].iter().map(|&c| c as usize).sum();
    assert_eq!((bytes[counts + 28], bytes[counts + 32]), (5, 4));
    let knot = |i: usize| {
        let k = knots + 12 * i;
        let h = |o: usize| i16::from_be_bytes([bytes[k + o], bytes[k + o + 1]]);
        (h(2), h(4), h(6), f32::from_bits(be32(&bytes, k + 8)))
    };
    // Scale y knots 1 and 2: (20, 0.0, right gradient 0) and (30, 5.5, left gradient 0).
    assert_eq!((knot(before + 1).0, knot(before + 1).2, knot(before + 1).3), (20, 0, 0.0));
    assert_eq!((knot(before + 2).0, knot(before + 2).1, knot(before + 2).3), (30, 0, 5.5));
    // Frame 25: t = 5 / 10 = 0.5, h01 = 0.75 - 0.25 = 0.5, gradients 0: 5.5 * 0.5 = 2.75;
    // * 1024 = 2816.
    let (_, jt) = doc.table_at(a, 25.0).unwrap();
    assert_eq!(jt.joints[3 * 3][1], 2816);
    // Frame 0 (before knot 0 at abscissa 1): scale y 0.0 -> 0; rotation z -85 deg: -85 *
    // (32768 / 180.0f = 182.04445) = -15473.778 -> truncated -15473. Frame 120 (after the last
    // knot, abscissa 116): -36 deg * 182.04445 = -6553.6 -> -6553.
    let rz0 = before + 5 + bytes[counts + 29] as usize + bytes[counts + 30] as usize + bytes[counts + 31] as usize;
    assert_eq!((knot(rz0).0, knot(rz0).3), (1, -85.0));
    assert_eq!((knot(rz0 + 3).0, knot(rz0 + 3).3), (116, -36.0));
    let (_, j0) = doc.table_at(a, 0.0).unwrap();
    assert_eq!((j0.joints[9][1], j0.joints[10][2]), (0, -15473));
    assert_eq!(doc.table_at(a, 120.0).unwrap().1.joints[10][2], -6553);
    // Posed at frame 25: limb 3 sits at limb 2's position (2127, 2734, 0) (limb 2's constants)
    // under the root at the origin, whose rotation by 0 still multiplies x and y by
    // Math_CosS(0) (c0): xw = c0 * 2127 + 0 * 2734, yw = 0 * 2127 + c0 * 2734; limb 2's and 3's
    // own rotations do not move their origin. Limb 3's local scale y is 2.75 times the length of
    // the game's rotation column (-sin, cos, 0), within f32 rounding.
    let s25 = doc.sample(a, 25.0).unwrap();
    let w = doc.pose(si, Some(a), 25.0).unwrap();
    let c0 = boneyard_z64::math_cos_s(0);
    assert_eq!(w[bone(3)].w_axis.truncate(), glam::Vec3::new(c0 * 2127.0, c0 * 2734.0, 0.0));
    let r = jt.joints[10][2];
    let (sn, cs) = (boneyard_z64::math_sin_s(r), boneyard_z64::math_cos_s(r));
    let len = (sn * sn + cs * cs).sqrt();
    assert!((s25.locals[bone(3)].scale.y - 2.75 * len).abs() < 1e-6, "{:?}", s25.locals[bone(3)]);
    // Frame 0: hidden, exactly 0, the rotation still the -85 degree turn about z.
    let s0 = doc.sample(a, 0.0).unwrap();
    let t = s0.locals[bone(3)];
    assert_eq!(t.scale.y, 0.0);
    // Its x axis is the game's first rotation column (cos, sin, 0) of -15473 (the sine table's
    // 4096 steps a turn: -85.08 degrees), normalised.
    let x = t.rotation * glam::Vec3::X;
    let (sn, cs) = (boneyard_z64::math_sin_s(-15473), boneyard_z64::math_cos_s(-15473));
    let want = glam::Vec3::new(cs, sn, 0.0).normalize();
    assert!(x.abs_diff_eq(want, 1e-6), "{x} vs {want}");
}

/// MM flex keyframe limbs scale the same way (`value * 0.01f`): the flex fixture of
/// tests/common with limb 1's fixed scale x (the 8th fixed value, at 0x56 + 14) set to 0.
/// Frame 2 = curTime 3: limb 1 rz is 900 * h01(0.5) = 450 (0.1 degree units).
#[test]
fn flex_keyframe_limb_hidden_by_a_zero_scale() {
    let mut d = common::kf_flex_object();
    assert_eq!(i16::from_be_bytes([d[0x64], d[0x65]]), 100);
    d[0x64..0x66].copy_from_slice(&0i16.to_be_bytes());
    let doc = open("object_kfflex.zobj", d);
    assert_eq!(doc.table_at(0, 2.0).unwrap().1.joints[3], [0, 100, 100]);
    assert_eq!(assert_finite_everywhere(&doc, 0), 5);
    let t = doc.sample(0, 2.0).unwrap().locals[1];
    assert_eq!(t.scale.x, 0.0);
    assert!(t.rotation.z.abs() > 0.01, "{t:?}");
    // The rest pose binds limb 1 at scale 1, and pose(None) agrees with it.
    let s = &doc.skeletons()[0];
    assert!((s.skeleton.bones[1].rest.scale.x - 1.0).abs() < 1e-6);
    for (a, b) in s.skeleton.rest_world().iter().zip(&doc.pose(0, None, 0.0).unwrap()) {
        assert!(a.abs_diff_eq(*b, 1e-4), "{a} vs {b}");
    }
}

/// The chest itself (gTreasureChestSkel, Flex, 4 limbs, no display list in any limb): En_Box
/// draws gTreasureChestChestFrontDL after its root limb and gTreasureChestChestSideAndLidDL
/// after its third (EnBox_PostLimbDraw's limbIndex 1 and 3 count from 1), with those limbs'
/// matrices. Each of its meshes hangs on one of those two bones and is named after its list
/// as the decomp's XML names it; the lid's bone is the one gTreasureChestAnim_000128 turns.
#[test]
fn the_chest_is_drawn_by_its_actor_after_limbs_0_and_2() {
    let Some(p) = shared_data("z64/oot-gc-eu-mq-dbg/object_box", "the_chest_is_drawn_by_its_actor_after_limbs_0_and_2")
    else {
        return;
    };
    let doc = open_files(vec![InputFile::read(&p).unwrap()]).unwrap();
    let si = doc.skeletons().iter().position(|s| s.name == "gTreasureChestSkel").unwrap();
    let s = &doc.skeletons()[si];
    assert_eq!(s.skeleton.len(), 4);
    assert!(!s.meshes.is_empty());
    let bone_of = |name: &str| s.skeleton.bones.iter().position(|b| b.name == name);
    let mut by_bone: Vec<(usize, &str)> = s
        .meshes
        .iter()
        .map(|m| match m.binding {
            MeshBinding::Rigid { bone } => (bone, m.name.as_str()),
            MeshBinding::Skinned { .. } => panic!("{}: rigid", m.name),
        })
        .collect();
    by_bone.sort();
    for (bone, name) in &by_bone {
        let list = if name.starts_with("gTreasureChestChestFrontDL") {
            0
        } else if name.starts_with("gTreasureChestChestSideAndLidDL") {
            2
        } else {
            panic!("mesh {name} of no list En_Box draws")
        };
        // Limb l's bone, by the name the reader gives a limb the XML does not name.
        let limb_bone = bone_of(&format!("limb_{list:02}")).unwrap();
        assert_eq!(*bone, limb_bone, "{name}");
    }
    assert!(by_bone.iter().any(|(_, n)| n.starts_with("gTreasureChestChestFrontDL")));
    assert!(by_bone.iter().any(|(_, n)| n.starts_with("gTreasureChestChestSideAndLidDL")));
    // The lid's bone turns over the opening clip; the box's does not.
    let anim = doc.animations().iter().position(|a| a.name == "gTreasureChestAnim_000128").unwrap();
    let lid = by_bone.iter().find(|(_, n)| n.starts_with("gTreasureChestChestSideAndLidDL")).unwrap().0;
    let front = by_bone.iter().find(|(_, n)| n.starts_with("gTreasureChestChestFrontDL")).unwrap().0;
    let turn = |bone: usize| {
        let (a, b) = (doc.pose(si, Some(anim), 0.0).unwrap()[bone], doc.pose(si, Some(anim), 120.0).unwrap()[bone]);
        (a.x_axis - b.x_axis).length() + (a.y_axis - b.y_axis).length()
    };
    assert!(turn(lid) > 0.5 && turn(front) < 1e-3, "lid {} box {}", turn(lid), turn(front));
    println!("gTreasureChestSkel: {} meshes on bones {:?}", s.meshes.len(), by_bone);
}

/// A skeleton none of whose limbs holds a display list, drawn by no actor boneyard knows (the
/// demo object with every limb's list pointer zeroed): a warning at the skeleton says only the
/// bones are exported, rather than an empty model given without a word.
#[test]
fn a_skeleton_of_limbs_without_lists_is_said() {
    let (name, mut bytes) = boneyard_z64::demo_files().unwrap().remove(0);
    let doc = open_files(vec![InputFile::new(name.clone(), bytes.clone())]).unwrap();
    let off = u32::from_str_radix(doc.skeletons()[0].extra["offset"].as_str().unwrap().trim_start_matches("0x"), 16)
        .unwrap() as usize;
    let (table, n) = ((be32(&bytes, off) & 0xFF_FFFF) as usize, bytes[off + 4] as usize);
    for l in 0..n {
        let limb = (be32(&bytes, table + 4 * l) & 0xFF_FFFF) as usize;
        bytes[limb + 8..limb + 12].fill(0);
    }
    let doc = open_files(vec![InputFile::new(name, bytes)]).unwrap();
    assert!(doc.skeletons()[0].meshes.is_empty());
    let said: Vec<&str> = doc.warnings().iter().map(|w| w.message.as_str()).collect();
    let want = format!("none of its {n} limbs has a display list: the actor draws the model from its own code");
    let w = doc.warnings().iter().find(|w| w.message.contains(&want)).unwrap_or_else(|| panic!("{said:?}"));
    assert_eq!(w.offset, Some(off as u64));
}

/// Props and eyes other actors draw after a limb, with the matrix that limb's own list loaded
/// (the decomp's PostLimbDraws): Dampé's shovel after his right hand (EnTk, limbIndex 14), the
/// Keese's eyes after its head (EnFirefly, 27), Anubis's eyes after its head (EnAnubice,
/// ANUBICE_LIMB_HEAD = 13; counted from 1). Each list's meshes hang on that limb's bone (the
/// limb draws a list of its own just before), and the warning about lists no limb draws does
/// not name them.
#[test]
fn props_and_eyes_actors_draw_after_limbs_hang_on_those_limbs() {
    let test = "props_and_eyes_actors_draw_after_limbs";
    for (object, prop, limb) in [
        ("object_tk", "gDampeShovelDL", 13),
        ("object_firefly", "gKeeseEyesDL", 26),
        ("object_anubice", "gAnubiceEyesDL", 12),
    ] {
        let Some(p) = shared_data(&format!("z64/oot-gc-eu-mq-dbg/{object}"), test) else { return };
        let doc = open_files(vec![InputFile::read(&p).unwrap()]).unwrap();
        let s = &doc.skeletons()[0];
        // Limb l's bone, by the name the reader gives a limb the XML does not name.
        let limb_bone = s.skeleton.bones.iter().position(|b| b.name == format!("limb_{limb:02}")).unwrap();
        let prop_bones: Vec<usize> = s
            .meshes
            .iter()
            .filter(|m| m.name.starts_with(prop))
            .map(|m| match m.binding {
                MeshBinding::Rigid { bone } => bone,
                MeshBinding::Skinned { .. } => panic!("{}: rigid", m.name),
            })
            .collect();
        assert!(
            !prop_bones.is_empty() && prop_bones.iter().all(|&b| b == limb_bone),
            "{object}: {prop_bones:?} {limb_bone}"
        );
        // The limb draws a list of its own, whose matrix the prop's list draws under.
        assert!(s.meshes.iter().any(|m| m.name.starts_with(&format!("limb_{limb:02}_dl_"))), "{object}");
        assert!(
            !doc.warnings().iter().any(|w| w.message.contains("that no limb draws") && w.message.contains(prop)),
            "{object}: {:?}",
            doc.warnings()
        );
        println!("{object}: {prop} ({} meshes) on limb {limb}'s bone", prop_bones.len());
    }
}

/// Link's sheath limb (PLAYER_LIMB_SHEATH, 20 counted from 1) is drawn as Player's
/// OverrideLimbDraw draws it for his sword sheathed and his shield (`sSheathWithSwordDLs`):
/// by default the shield he first carries at his age (the adult's Hylian Shield, the child's
/// Deku Shield), said in a warning; `shield=none|deku|hylian|mirror` chooses, an adult's Deku
/// Shield being the sheath alone, as in the game's table.
#[test]
fn link_carries_his_shield_on_his_back() {
    use boneyard_core::{Family, NoCompanions, OpenOptions};
    let test = "link_carries_his_shield_on_his_back";
    for (object, shield, list) in [
        ("object_link_boy", None, "gLinkAdultHylianShieldSwordAndSheathNearDL"),
        ("object_link_boy", Some("mirror"), "gLinkAdultMirrorShieldSwordAndSheathNearDL"),
        ("object_link_boy", Some("none"), "gLinkAdultMasterSwordAndSheathNearDL"),
        ("object_link_boy", Some("deku"), "gLinkAdultMasterSwordAndSheathNearDL"),
        ("object_link_child", None, "gLinkChildDekuShieldSwordAndSheathNearDL"),
        ("object_link_child", Some("hylian"), "gLinkChildHylianShieldSwordAndSheathNearDL"),
        ("object_link_child", Some("mirror"), "gLinkChildSwordAndSheathNearDL"),
    ] {
        let Some(p) = shared_data(&format!("z64/oot-gc-eu-mq-dbg/{object}"), test) else { return };
        let runtime: Vec<(String, String)> = shield.iter().map(|s| ("shield".to_string(), s.to_string())).collect();
        let options = OpenOptions { runtime, ..Default::default() };
        let doc = boneyard_z64::Z64.open(vec![InputFile::read(&p).unwrap()], &options, &NoCompanions).unwrap();
        let s = doc.skeletons().iter().find(|s| s.name.starts_with("gLink")).unwrap();
        // The XML's gLinkAdultSwordAndSheathLimb / gLinkChildSwordAndSheathLimb.
        let sheath = s.skeleton.bones.iter().position(|b| b.name.ends_with("SwordAndSheathLimb")).unwrap();
        assert_eq!(sheath, 19);
        let on: Vec<_> = s.meshes.iter().filter(|m| m.name.starts_with(list)).collect();
        assert!(!on.is_empty(), "{object} {shield:?}: no mesh of {list}");
        for m in &on {
            let bones: Vec<usize> = match &m.binding {
                MeshBinding::Rigid { bone } => vec![*bone],
                MeshBinding::Skinned { joints, .. } => joints.iter().map(|j| usize::from(j[0])).collect(),
            };
            assert!(bones.contains(&sheath), "{object} {shield:?}: {} on {bones:?}", m.name);
        }
        let said =
            doc.warnings().iter().any(|w| w.message.contains(&format!("limb 19 (the sheath) drawn with {list}")));
        assert_eq!(said, shield.is_none(), "{object} {shield:?}");
        // A shield he does not carry at this age is said (the adult's Deku Shield, the child's
        // Mirror Shield: the sheath alone).
        let not_carried =
            doc.warnings().iter().any(|w| w.message.contains("Link does not carry that shield at this age"));
        assert_eq!(
            not_carried,
            matches!((object, shield), ("object_link_boy", Some("deku")) | ("object_link_child", Some("mirror")))
        );
        assert!(doc.uses_runtime("shield"));
        println!("{object} shield {}: {} ({} meshes)", shield.unwrap_or("(default)"), list, on.len());
    }
}
