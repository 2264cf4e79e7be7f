//! Real files of `../shared/data` read by the families and exported: every clip of every
//! skeleton, read back from the GLB; the joints' world matrices rebuilt from the file's
//! channels must equal the forward kinematics of the document's sampled locals at every
//! frame (what this crate promises), and are also compared with `Document::pose` (the
//! family's engine matrices; the consistency rule says within 1e-4: asserted for Oni and
//! Shenmue, printed for Zelda 64, whose sine-table matrices differ from its locals' FK by
//! up to ~5e-3 relative on object_human). With node and
//! `.ci/gltf/node_modules`, the Khronos validator must report 0 errors and 0 warnings.

mod common;

use boneyard_core::testdata::shared_data;
use boneyard_core::{fk, Document, Family, InputFile};
use boneyard_export::{glb_skipping, ExportOptions};
use std::path::{Path, PathBuf};

fn open(family: &dyn Family, files: &[PathBuf]) -> Box<dyn Document> {
    family
        .open(
            files.iter().map(|p| InputFile::read(p).unwrap()).collect(),
            &Default::default(),
            &boneyard_core::DiskCompanions::default(),
        )
        .unwrap()
}

/// Export every skeleton with every `pick`-th of its clips (all when 1), and check each
/// exported clip frame by frame. Returns (clips exported, clips skipped, worst deviation
/// from `pose`).
fn check_document(doc: &dyn Document, pick: usize, tag: &str) -> (usize, usize, f32) {
    let mut exported = 0;
    let mut skipped = 0;
    let mut worst_pose = 0f32;
    for (s, info) in doc.skeletons().iter().enumerate() {
        let anims: Vec<usize> =
            (0..doc.animations().len()).filter(|&a| doc.skeleton_for(a) == Some(s)).step_by(pick).collect();
        let out = glb_skipping(doc, s, &anims, &ExportOptions::default()).unwrap();
        exported += anims.len() - out.skipped.len();
        skipped += out.skipped.len();
        validate(&out.bytes, &format!("{tag}_{s}"));
        let g = common::parse_glb(&out.bytes);
        assert_eq!(g.count("animations"), anims.len() - out.skipped.len());
        let parents: Vec<Option<usize>> = info.skeleton.bones.iter().map(|b| b.parent).collect();
        let exported_anims: Vec<usize> =
            anims.iter().copied().filter(|a| !out.skipped.iter().any(|(k, _)| k == a)).collect();
        for (k, &a) in exported_anims.iter().enumerate() {
            let name = g.json["animations"][k]["name"].as_str().unwrap().to_string();
            assert_eq!(g.json["animations"][k]["extras"]["index"], a);
            let (_, ch) = g.animation(&name);
            // The samplers interpolate as the engine plays between frames: STEP where it
            // holds each frame (its pose half a frame on is the frame's), else LINEAR.
            let step = doc.animations()[a].interpolation == boneyard_core::Interpolation::Step;
            let samplers = g.json["animations"][k]["samplers"].as_array().unwrap();
            assert!(
                samplers.iter().all(|x| x["interpolation"] == if step { "STEP" } else { "LINEAR" }),
                "{tag}: {name}"
            );
            for f in 0..doc.animations()[a].frames as usize {
                let world = common::file_world(&g, &parents, &ch, f);
                let locals = doc.sample(a, f as f64).unwrap().locals;
                let fk = fk::world_matrices(&info.skeleton, &locals);
                let e = common::max_rel(&world, &fk);
                assert!(e <= 1e-5, "{tag}: skeleton {s} anim #{a} {name} frame {f}: {e}");
                let pose = doc.pose(s, Some(a), f as f64).unwrap();
                worst_pose = worst_pose.max(common::max_rel(&world, &pose));
                if step {
                    assert_eq!(doc.pose(s, Some(a), f as f64 + 0.5).unwrap(), pose, "{tag}: {name} frame {f}.5");
                }
            }
        }
    }
    println!("{tag}: {exported} clips exported, {skipped} skipped, worst relative deviation from pose {worst_pose:e}");
    (exported, skipped, worst_pose)
}

fn validate(bytes: &[u8], tag: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.ci/gltf");
    let node = std::process::Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    if !node || !dir.join("node_modules/gltf-validator").is_dir() {
        println!("SKIPPED (validator on {tag}): node or .ci/gltf/node_modules missing");
        return;
    }
    let tmp = tempfile::Builder::new().prefix("boneyard-export-real-").tempdir().unwrap();
    let p = tmp.path().join(format!("{tag}.glb"));
    std::fs::write(&p, bytes).unwrap();
    let out = std::process::Command::new("node").arg(dir.join("validate.mjs")).arg(&p).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    println!("{}", text.lines().next().unwrap_or(""));
    assert!(out.status.success() && text.contains("errors=0 warnings=0"), "{text}");
}

#[test]
fn shenmue_motion_bin() {
    let Some(p) = shared_data("shenmue/motion.bin", "shenmue_motion_bin") else { return };
    let doc = open(&boneyard_shenmue::Shenmue, &[p]);
    // Every 8th clip keeps the debug-build test short; the CLI exports them all.
    let (exported, _, worst) = check_document(doc.as_ref(), 8, "shenmue");
    assert!(exported > 150, "{exported}");
    assert!(worst <= 1e-4, "pose deviation {worst}");
}

#[test]
fn z64_objects() {
    let dir = "z64/oot-gc-eu-mq-dbg";
    for obj in ["object_dekunuts", "object_human"] {
        let Some(p) = shared_data(&format!("{dir}/{obj}"), "z64_objects") else { return };
        let doc = open(&boneyard_z64::Z64, &[p]);
        let (exported, skipped, _) = check_document(doc.as_ref(), 1, obj);
        assert!(exported > 0 && skipped == 0);
    }
    let Some(p) = shared_data("z64/fan/Aria_Hiro_Girl_OOTO.zobj", "z64_objects") else { return };
    let doc = open(&boneyard_z64::Z64, &[p]);
    assert_eq!(check_document(doc.as_ref(), 1, "aria").0, 5);
}

/// OoT's treasure chest: a Flex skeleton and a curve skeleton (0x5EB8) whose limbs keep their
/// meshes in dList[1] and whose light beams are hidden by a zero scale at the first frames.
#[test]
fn z64_curve_skeleton_object_box() {
    let Some(p) = shared_data("z64/oot-gc-eu-mq-dbg/object_box", "z64_curve_skeleton_object_box") else { return };
    let doc = open(&boneyard_z64::Z64, &[p]);
    let (exported, skipped, _) = check_document(doc.as_ref(), 1, "object_box");
    assert_eq!((exported, skipped), (5, 0));
    // The curve skeleton's locals (what the file holds, checked above) rebuild the game's
    // matrices within 1e-4 of each matrix's largest element at every frame, hidden limbs
    // included (translations reach 2734 units; an element near 0 beside them is not held to
    // 1e-4 of itself).
    let s = doc.skeletons().iter().position(|s| s.id == "0x5EB8").unwrap();
    let mut worst = 0f32;
    for a in (0..doc.animations().len()).filter(|&a| doc.skeleton_for(a) == Some(s)) {
        for f in 0..doc.animations()[a].frames {
            let locals = doc.sample(a, f as f64).unwrap().locals;
            let fk = fk::world_matrices(&doc.skeletons()[s].skeleton, &locals);
            for (x, y) in fk.iter().zip(&doc.pose(s, Some(a), f as f64).unwrap()) {
                let big = y.to_cols_array().iter().fold(1f32, |m, v| m.max(v.abs()));
                worst = worst.max((*x - *y).abs().to_cols_array().iter().fold(0f32, |m, v| m.max(*v)) / big);
            }
        }
    }
    println!("object_box curve skeleton: worst relative deviation from pose {worst:e}");
    assert!(worst <= 1e-4, "pose deviation {worst}");
    let out = glb_skipping(doc.as_ref(), s, &[], &ExportOptions::default()).unwrap();
    // One mesh a limb with a dList[1] (limbs 1, 4, 7, 10, 13), no stick figure.
    assert_eq!(common::parse_glb(&out.bytes).count("meshes"), 5);
}

#[test]
fn oni_level() {
    let Some(p) = shared_data("oni/level1_Final.dat", "oni_level") else { return };
    let doc = open(&boneyard_oni::Oni, &[p]);
    let (exported, skipped, worst) = check_document(doc.as_ref(), 1, "oni");
    assert!(exported >= 6 && skipped == 0, "{exported} {skipped}");
    assert!(worst <= 1e-4, "pose deviation {worst}");
}

/// Meshes that draw the same texels share one embedded image (adult Link's 47 meshes drew 40
/// textures, many the same pixels): no two images of the glb hold the same bytes, and each
/// textured primitive's image, decoded, is its own mesh's texture pixel for pixel.
#[test]
fn meshes_drawing_the_same_texels_share_one_image() {
    let dir = "z64/oot-gc-eu-mq-dbg";
    for obj in ["object_link_boy", "object_human", "object_box"] {
        let Some(p) = shared_data(&format!("{dir}/{obj}"), "meshes_drawing_the_same_texels_share_one_image") else {
            return;
        };
        let doc = open(&boneyard_z64::Z64, &[p]);
        // The skeleton with most meshes (the chest's curve skeleton, not its empty one).
        let sk = (0..doc.skeletons().len()).max_by_key(|&s| (doc.skeletons()[s].meshes.len(), usize::MAX - s)).unwrap();
        let bytes = boneyard_export::glb(doc.as_ref(), sk, &[], &ExportOptions::default()).unwrap();
        let g = common::parse_glb(&bytes);
        let image_bytes = |i: usize| -> Vec<u8> {
            let v = g.get("bufferViews", g.get("images", i)["bufferView"].as_u64().unwrap() as usize);
            let start = v["byteOffset"].as_u64().unwrap_or(0) as usize;
            g.bin[start..start + v["byteLength"].as_u64().unwrap() as usize].to_vec()
        };
        let images: Vec<Vec<u8>> = (0..g.count("images")).map(image_bytes).collect();
        let distinct: std::collections::HashSet<&Vec<u8>> = images.iter().collect();
        assert_eq!(distinct.len(), images.len(), "{obj}: an image embedded twice");
        let meshes = &doc.skeletons()[sk].meshes;
        let textured = meshes.iter().filter(|m| m.texture.is_some() && m.uvs.is_some()).count();
        let mut checked = 0;
        for m in g.json["meshes"].as_array().unwrap() {
            let Some(k) = m["extras"]["mesh"].as_u64() else { continue };
            let mesh = &meshes[k as usize];
            let material = g.get("materials", m["primitives"][0]["material"].as_u64().unwrap() as usize);
            let Some(t) = material["pbrMetallicRoughness"]["baseColorTexture"]["index"].as_u64() else { continue };
            let image = g.get("textures", t as usize)["source"].as_u64().unwrap() as usize;
            let mut dec = png::Decoder::new(std::io::Cursor::new(&images[image])).read_info().unwrap();
            let mut px = vec![0; dec.output_buffer_size().unwrap()];
            let info = dec.next_frame(&mut px).unwrap();
            let tex = mesh.texture.as_ref().unwrap();
            assert_eq!((info.width, info.height), (tex.width, tex.height), "{obj} mesh {k}");
            assert!(px[..info.buffer_size()] == tex.rgba[..], "{obj} mesh {k}: another mesh's pixels");
            checked += 1;
        }
        println!("{obj}: {checked}/{textured} textured meshes draw {} images", images.len());
        assert_eq!(checked, textured, "{obj}");
        assert!(checked > 0 && images.len() < textured, "{obj}: nothing shared");
    }
}

/// `subframes` keys a frame for the clips the engine evaluates between frames: key `k` of the
/// file is the document's pose at frame `k / n` (its FK within 1e-5, the family's `pose`
/// within 1e-4), the keys on the frame grid are the one-key-a-frame file's bit for bit, the
/// times are `k / (n · fps)`, and `extras` say `subframes` beside the engine's `frames`.
/// Clips the engine holds (STEP) are written as before, byte for byte. Printed: how far one
/// key a frame, interpolated LINEAR half a frame on, is from the engine there.
#[test]
fn curve_clips_baked_between_frames_follow_the_engine() {
    let Some(motion) = shared_data("shenmue/motion.bin", "curve_clips_baked_between_frames_follow_the_engine") else {
        return;
    };
    let dir = "z64/oot-gc-eu-mq-dbg";
    let Some(chest) = shared_data(&format!("{dir}/object_box"), "curve_clips_baked_between_frames_follow_the_engine")
    else {
        return;
    };
    let shenmue = open(&boneyard_shenmue::Shenmue, &[motion]);
    let zelda = open(&boneyard_z64::Z64, &[chest]);
    let chest_curves = zelda.skeletons().iter().position(|s| s.id == "0x5EB8").unwrap();
    let mut checked_keys = 0usize;
    // Zelda's matrices are its sine tables', within ~5e-3 of its locals' FK (see the module's doc).
    for (tag, doc, skeleton, pick, n, pose_within) in
        [("shenmue", &shenmue, 0usize, 97usize, 4u32, 1e-4f32), ("object_box", &zelda, chest_curves, 1, 3, 5e-3)]
    {
        let doc = doc.as_ref();
        let (lo, hi) = doc.skeletons()[skeleton].rest_bounds().unwrap();
        let height = (hi - lo).max_element();
        let anims: Vec<usize> =
            (0..doc.animations().len()).filter(|&a| doc.skeleton_for(a) == Some(skeleton)).step_by(pick).collect();
        assert!(!anims.is_empty(), "{tag}");
        let parents: Vec<Option<usize>> = doc.skeletons()[skeleton].skeleton.bones.iter().map(|b| b.parent).collect();
        let one = common::parse_glb(&boneyard_export::glb(doc, skeleton, &anims, &ExportOptions::default()).unwrap());
        let opts = ExportOptions { subframes: n, ..Default::default() };
        let bytes = boneyard_export::glb(doc, skeleton, &anims, &opts).unwrap();
        validate(&bytes, &format!("{tag}_subframes"));
        let many = common::parse_glb(&bytes);
        // How far a joint of one key a frame, blended LINEAR, is from the engine's between frames.
        let (mut worst_fk, mut worst_pose, mut worst_straight) = (0f32, 0f32, (0f32, String::new()));
        for (i, &a) in anims.iter().enumerate() {
            let info = &doc.animations()[a];
            assert_eq!(info.interpolation, boneyard_core::Interpolation::Linear, "{tag}: {}", info.name);
            let name = many.json["animations"][i]["name"].as_str().unwrap().to_string();
            let extras = &many.json["animations"][i]["extras"];
            assert_eq!(
                (extras["frames"].as_u64(), extras["subframes"].as_u64()),
                (Some(info.frames as u64), Some(n as u64))
            );
            let (_, ch) = many.animation(&name);
            let (_, ch1) = one.animation(&name);
            let keys = (info.frames as usize - 1) * n as usize + 1;
            for (node, path, times, values, _) in &ch {
                if times.len() == 1 {
                    continue;
                }
                assert_eq!(times.len(), keys, "{tag}: {name} node {node} {path}");
                for (k, t) in times.iter().enumerate() {
                    assert_eq!(*t, (k as f64 / (n as f64 * info.fps)) as f32, "{tag}: {name} key {k}");
                }
                // A scale that moves only between frames has no channel in the other file.
                let Some((_, _, _, values1, _)) = ch1.iter().find(|c| (&c.0, &c.1) == (node, path)) else { continue };
                for f in 0..info.frames as usize {
                    let v1 = &values1[if values1.len() == 1 { 0 } else { f }];
                    // A rotation may be the other quaternion of the same turn: each key is put in
                    // the hemisphere of the key before it, which is a subframe's here.
                    let v = &values[f * n as usize];
                    let negated: Vec<f32> = v.iter().map(|x| -x).collect();
                    assert!(
                        v == v1 || (path == "rotation" && &negated == v1),
                        "{tag}: {name} node {node} {path} frame {f}"
                    );
                }
            }
            for k in 0..keys {
                let frame = (k / n as usize) as f64 + (k % n as usize) as f64 / n as f64;
                let world = common::file_world(&many, &parents, &ch, k);
                let locals = doc.sample(a, frame).unwrap().locals;
                let fk = fk::world_matrices(&doc.skeletons()[skeleton].skeleton, &locals);
                worst_fk = worst_fk.max(common::max_rel(&world, &fk));
                worst_pose = worst_pose.max(common::max_rel(&world, &doc.pose(skeleton, Some(a), frame).unwrap()));
                checked_keys += 1;
                if k % n as usize != 0 && k + 1 < keys {
                    // One key a frame, LINEAR: the locals of the frames either side blended.
                    let f = k / n as usize;
                    let w = (k % n as usize) as f32 / n as f32;
                    let blended: Vec<boneyard_core::Transform> = {
                        let l0 = doc.sample(a, f as f64).unwrap().locals;
                        let l1 = doc.sample(a, f as f64 + 1.0).unwrap().locals;
                        l0.iter()
                            .zip(&l1)
                            .map(|(x, y)| boneyard_core::Transform {
                                translation: x.translation.lerp(y.translation, w),
                                rotation: x.rotation.slerp(y.rotation, w),
                                scale: x.scale.lerp(y.scale, w),
                            })
                            .collect()
                    };
                    let straight = fk::world_matrices(&doc.skeletons()[skeleton].skeleton, &blended);
                    let off = straight.iter().zip(&fk).map(|(x, y)| x.w_axis.distance(y.w_axis)).fold(0f32, f32::max);
                    if off > worst_straight.0 {
                        worst_straight = (off, format!("{} frame {frame:.2}", info.name));
                    }
                }
            }
        }
        println!(
            "{tag}: {} clips at {n} keys a frame: worst relative deviation from the FK of the samples {worst_fk:e}, \
             from pose {worst_pose:e}; one key a frame blended LINEAR puts a joint up to {} units from the engine's \
             ({}; the figure is {height} units tall)",
            anims.len(),
            worst_straight.0,
            worst_straight.1
        );
        assert!(worst_fk <= 1e-5, "{tag}: {worst_fk}");
        assert!(worst_pose <= pose_within, "{tag}: {worst_pose}");
        assert!(
            worst_straight.0 > height / 100.0,
            "{tag}: the engine's curves are straight between frames: {worst_straight:?}"
        );
    }
    println!("{checked_keys} keys checked");
    // STEP clips keep one key a frame: the file is the same bytes.
    let Some(p) = shared_data(&format!("{dir}/object_dekunuts"), "curve_clips_baked_between_frames_follow_the_engine")
    else {
        return;
    };
    let doc = open(&boneyard_z64::Z64, &[p]);
    let all: Vec<usize> = (0..doc.animations().len()).collect();
    let opts = ExportOptions { subframes: 4, ..Default::default() };
    assert_eq!(
        boneyard_export::glb(doc.as_ref(), 0, &all, &opts).unwrap(),
        boneyard_export::glb(doc.as_ref(), 0, &all, &ExportOptions::default()).unwrap()
    );
}
