//! Write-back on the real files (skipped, with a message, when absent): real clips exported by
//! boneyard's own glTF writer, read back as clips (`boneyard_export::gltf_in`), imported
//! (`Family::import_clips`), and the written files read again and compared, frame by frame,
//! with the original as the game computes it (`Z64Document::game_matrices`, the sine table's
//! `Matrix_TranslateRotateZYX`): limb rotation matrices within 2e-3, the root within 1 unit.

use boneyard_core::document::Document;
use boneyard_core::family::{Family, InputFile};
use boneyard_core::testdata::shared_data;
use boneyard_core::{Clip, ImportOptions, Imported};
use boneyard_export::gltf_in::GltfSource;
use boneyard_z64::game_rotation;
use boneyard_z64::{open_files, Z64Document, Z64};
use glam::Quat;
use std::collections::HashMap;

fn dbg_files(names: &[&str], test: &str) -> Option<Vec<InputFile>> {
    names
        .iter()
        .map(|n| shared_data(&format!("z64/oot-gc-eu-mq-dbg/{n}"), test).map(|p| InputFile::read(&p).unwrap()))
        .collect()
}

/// The clip of animation `anim` on skeleton `skel` as a glb written by boneyard and read back.
fn clip_through_gltf(doc: &Z64Document, skel: usize, anim: usize) -> Clip {
    let glb = boneyard_export::glb(doc, skel, &[anim], &Default::default()).unwrap();
    let src = GltfSource::read("export.glb", &glb, None).unwrap();
    let fps = Z64.import_fps_for(doc, skel).unwrap();
    let mut w = Vec::new();
    src.clip(0, &doc.skeletons()[skel].skeleton, fps, &HashMap::new(), &mut w).unwrap()
}

/// The written files as one document (named as written, so the asset table reads them).
fn reopen(imp: &Imported, object: Option<&InputFile>) -> Z64Document {
    let mut files: Vec<InputFile> = object.into_iter().cloned().collect();
    files.extend(
        imp.files
            .iter()
            .filter(|f| !f.name.ends_with(".c") && !f.name.ends_with(".xml"))
            .map(|f| InputFile::new(&f.name, f.bytes.clone())),
    );
    open_files(files).unwrap()
}

fn rot3(m: &boneyard_z64::MtxF) -> [[f64; 3]; 3] {
    [
        [m.xx as f64, m.xy as f64, m.xz as f64],
        [m.yx as f64, m.yy as f64, m.yz as f64],
        [m.zx as f64, m.zy as f64, m.zz as f64],
    ]
}

/// How many of the joint values (every frame, joint, axis) are identical, of how many.
fn same_values(a: &Z64Document, ia: usize, b: &Z64Document, ib: usize, frames: usize) -> (usize, usize) {
    let (mut same, mut all) = (0, 0);
    for f in 0..frames {
        let (x, y) = (a.joint_table(ia, f).unwrap(), b.joint_table(ib, f).unwrap());
        for (p, q) in x.joints.iter().zip(&y.joints) {
            same += (0..3).filter(|&c| p[c] == q[c]).count();
            all += 3;
        }
    }
    (same, all)
}

/// Per frame, the largest rotation-matrix element difference of any limb (local and world
/// matrices) and the largest root translation difference, original vs written.
fn compare(a: (&Z64Document, usize, usize), b: (&Z64Document, usize, usize), frames: usize) -> (f64, i32) {
    let (mut worst, mut root) = (0f64, 0i32);
    for f in 0..frames {
        let (ja, jb) = (a.0.joint_table(a.2, f).unwrap(), b.0.joint_table(b.2, f).unwrap());
        assert_eq!(ja.joints.len(), jb.joints.len());
        for c in 0..3 {
            root = root.max((ja.joints[0][c] as i32 - jb.joints[0][c] as i32).abs());
        }
        for (x, y) in ja.joints[1..].iter().zip(&jb.joints[1..]) {
            worst = worst.max(boneyard_z64::max_diff(&game_rotation(*x), &game_rotation(*y)));
        }
        let (wa, wb) = (
            a.0.game_matrices(a.1, Some(a.2), f as f64).unwrap(),
            b.0.game_matrices(b.1, Some(b.2), f as f64).unwrap(),
        );
        for (x, y) in wa.iter().zip(&wb) {
            worst = worst.max(boneyard_z64::max_diff(&rot3(x), &rot3(y)));
        }
    }
    (worst, root)
}

fn anim_named(doc: &Z64Document, name: &str) -> usize {
    doc.animations().iter().position(|a| a.name == name).unwrap_or_else(|| panic!("no animation {name}"))
}

#[test]
fn dekunuts_run_round_trip_through_gltf() {
    let Some(into) = dbg_files(&["object_dekunuts"], "dekunuts_run_round_trip_through_gltf") else { return };
    let doc = open_files(into.clone()).unwrap();
    let run = anim_named(&doc, "gDekuNutsRunAnim");
    let clip = clip_through_gltf(&doc, 0, run);
    assert_eq!((clip.frames(), clip.fps), (18, 20.0));
    let imp = Z64
        .import_clips(into.clone(), &[clip], &ImportOptions::default(), &boneyard_core::DiskCompanions::default())
        .unwrap();
    let names: Vec<&str> = imp.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["object_dekunuts", "object_dekunuts_imported.c", "object_dekunuts_imported.xml"]);
    let a = &imp.files[0].animations[0];
    // Appended after the file's 13920 bytes (0x3660, already 16-aligned): frame data first.
    assert_eq!(a.extra["frame_data"], "0x3660");
    let off = a.offset.unwrap() as usize;
    assert_eq!(a.frames, 18);
    assert_eq!(imp.files[0].bytes.len() % 16, 0);
    // The original bytes are untouched.
    assert_eq!(&imp.files[0].bytes[..into[0].data.len()], &into[0].data[..]);
    let back = reopen(&imp, None);
    let new =
        back.animations().iter().position(|x| back.animation_extra(x.index)["header"] == format!("0x{off:X}")).unwrap();
    assert_eq!(new, a.index);
    assert_eq!(back.animations()[new].frames, 18);
    assert_eq!(back.animations()[new].skeleton, Some(0));
    // The ten original animations still read, named by the asset table.
    assert_eq!(back.animations().iter().filter(|x| x.name.starts_with("gDekuNuts")).count(), 10);
    let (worst, root) = compare((&doc, 0, run), (&back, 0, new), 18);
    let same = same_values(&doc, run, &back, new, 18);
    // The clip is gDekuNutsRunAnim's, which the file holds: where the game's matrix of its
    // stored angles is the solved angles' (the table's steps of 16; two limbs at gimbal lock,
    // y = ±0x4000, where only x ± z is fixed), the stored ones are written, so the unedited round
    // trip writes every one of Nintendo's numbers and the game's matrices are the same bits.
    eprintln!("dekunuts gDekuNutsRunAnim: 18 frames, max rotation matrix error {worst:.2e}, root within {root}, {}/{} joint values identical, header at {off:#X}", same.0, same.1);
    assert_eq!(same, (1350, 1350));
    assert_eq!((worst, root), (0.0, 0));
    assert_eq!(a.extra["original"], "gDekuNutsRunAnim");
    // object_dekunuts' clips take limb 0 first, without the moving root's values.
    assert_eq!(a.extra["frame_data_layout"], serde_json::json!({"root_always": false, "limb_first": true}));
    assert_eq!(
        (a.extra["original_rotations_kept"].as_u64(), a.extra["rotations"].as_u64()),
        (Some(18 * 24), Some(18 * 24))
    );
    // The C and the XML name the offsets.
    let c = String::from_utf8(imp.files[1].bytes.clone()).unwrap();
    let xml = String::from_utf8(imp.files[2].bytes.clone()).unwrap();
    assert!(
        c.contains("AnimationHeader gDekuNutsRunAnim_imported = {\n    { 18 }, gDekuNutsRunAnim_importedFrameData,"),
        "{c}"
    );
    assert!(xml.contains(&format!("<Animation Name=\"gDekuNutsRunAnim_imported\" Offset=\"0x{off:X}\"/>")), "{xml}");
    // The C's arrays are the bytes written: the frame data values in order.
    let fd =
        u32::from_str_radix(a.extra["frame_data"].as_str().unwrap().trim_start_matches("0x"), 16).unwrap() as usize;
    let first: Vec<String> =
        imp.files[0].bytes[fd..fd + 8].chunks(2).map(|b| format!("0x{:02X}{:02X}", b[0], b[1])).collect();
    assert!(c.contains(&format!("FrameData[] = {{\n    {},", first.join(", "))), "{c}");
}

#[test]
fn link_walk_round_trip_through_gltf() {
    let files = ["object_link_boy", "gameplay_keep", "link_animetion"];
    let Some(into) = dbg_files(&files, "link_walk_round_trip_through_gltf") else { return };
    let doc = open_files(into.clone()).unwrap();
    let walk = anim_named(&doc, "gPlayerAnim_link_normal_walk");
    let skel = doc.animations()[walk].skeleton.unwrap();
    assert_eq!(doc.skeletons()[skel].name, "gLinkAdultSkel");
    let clip = clip_through_gltf(&doc, skel, walk);
    assert_eq!((clip.frames(), clip.fps), (29, 30.0));
    let opts = ImportOptions {
        skeleton: Some(doc.skeletons()[skel].id.clone()),
        like: Some("gPlayerAnim_link_normal_walk".into()),
        ..Default::default()
    };
    let imp = Z64
        .import_clips(into.clone(), std::slice::from_ref(&clip), &opts, &boneyard_core::DiskCompanions::default())
        .unwrap();
    let names: Vec<&str> = imp.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["gameplay_keep", "link_animetion", "player_anim_imported.c", "player_anim_imported.xml"]);
    let a = &imp.files[0].animations[0];
    let off = a.offset.unwrap() as usize;
    // gameplay_keep's 354224 bytes (0x567B0, 16-aligned): the header right after them; the
    // frames after link_animetion's 2513968 bytes (0x265C30).
    assert_eq!(off, 0x567B0);
    assert_eq!(a.extra["frame_data"], "0x265C30");
    assert_eq!(imp.files[1].bytes.len(), 0x265C30 + 29 * 134 + 2);
    let back = reopen(&imp, Some(&into[0]));
    let new =
        back.animations().iter().position(|x| back.animation_extra(x.index)["header"] == format!("0x{off:X}")).unwrap();
    assert_eq!(new, a.index);
    assert_eq!(back.animations()[new].frames, 29);
    assert_eq!(back.animations()[new].fps, 30.0);
    assert_eq!(back.animations()[new].skeleton, Some(skel));
    // All 573 of the game's Link animations still there.
    assert_eq!(back.animations().iter().filter(|x| x.name.starts_with("gPlayerAnim_")).count(), 573);
    let (worst, root) = compare((&doc, skel, walk), (&back, skel, new), 29);
    // The face words are --like's.
    for f in 0..29 {
        assert_eq!(back.joint_table(new, f).unwrap().face, doc.joint_table(walk, f).unwrap().face);
    }
    let same = same_values(&doc, walk, &back, new, 29);
    eprintln!("adult Link gPlayerAnim_link_normal_walk: 29 frames, max rotation matrix error {worst:.2e}, root within {root}, {}/{} joint values identical (faces from --like), header at gameplay_keep {off:#X}", same.0, same.1);
    // --like is the walk itself: its stored angles are kept wherever the game computes the same.
    assert_eq!(same, (1914, 1914));
    assert_eq!((worst, root), (0.0, 0));
    let xml = String::from_utf8(imp.files[3].bytes.clone()).unwrap();
    assert!(
        xml.contains("<PlayerAnimation Name=\"gPlayerAnim_link_normal_walk_imported\" Offset=\"0x567B0\"/>"),
        "{xml}"
    );
    assert!(xml.contains("<PlayerAnimationData Name=\"gPlayerAnim_link_normal_walk_imported_Data\" FrameCount=\"29\" Offset=\"0x265C30\"/>"), "{xml}");
    // Without --like: face 0, said in a warning.
    let opts = ImportOptions { skeleton: opts.skeleton.clone(), ..Default::default() };
    let imp = Z64.import_clips(into, &[clip], &opts, &boneyard_core::DiskCompanions::default()).unwrap();
    assert!(imp.warnings.iter().any(|w| w.message.contains("face word 0")));
    let back = reopen(&imp, None);
    let new =
        back.animations().iter().position(|x| back.animation_extra(x.index)["header"] == format!("0x{off:X}")).unwrap();
    assert_eq!(back.joint_table(new, 7).unwrap().face, Some(0));
}

/// A bone turned 20° (about its local X, at every frame) in the clip: the written animation
/// shows the turn at that limb and nowhere else.
#[test]
fn an_edited_bone_shows_in_the_written_animation() {
    let Some(into) = dbg_files(&["object_dekunuts"], "an_edited_bone_shows_in_the_written_animation") else { return };
    let doc = open_files(into.clone()).unwrap();
    let run = anim_named(&doc, "gDekuNutsRunAnim");
    let mut clip = clip_through_gltf(&doc, 0, run);
    let sk = &doc.skeletons()[0].skeleton;
    let bone = 5;
    let turn = Quat::from_rotation_x(20f32.to_radians());
    for pose in &mut clip.poses {
        pose[bone].rotation = (pose[bone].rotation * turn).normalize();
    }
    let imp =
        Z64.import_clips(into, &[clip], &ImportOptions::default(), &boneyard_core::DiskCompanions::default()).unwrap();
    let back = reopen(&imp, None);
    let new = imp.files[0].animations[0].index;
    let (mut at_bone, mut elsewhere) = (0f64, 0f64);
    let mut turned = (f64::INFINITY, 0f64);
    for f in 0..18 {
        let (ja, jb) = (doc.joint_table(run, f).unwrap(), back.joint_table(new, f).unwrap());
        let (sa, sb) = (doc.sample(run, f as f64).unwrap(), back.sample(new, f as f64).unwrap());
        for b in 0..sk.len() {
            let (qa, qb) = (sa.locals[b].rotation, sb.locals[b].rotation);
            let angle = qa.angle_between(qb) as f64;
            if b == bone {
                at_bone = at_bone.max((angle - 20f64.to_radians()).abs());
                turned = (turned.0.min(angle.to_degrees()), turned.1.max(angle.to_degrees()));
                // About the limb's own X: the written rotation is the original one turned.
                let want = (qa * turn).normalize();
                assert!(want.angle_between(qb) < 3e-3, "frame {f}: {}", want.angle_between(qb));
            } else {
                elsewhere = elsewhere.max(angle);
            }
        }
        assert_eq!(ja.joints[0], jb.joints[0], "root frame {f}");
    }
    eprintln!(
        "edit: {} ({}) turned {:.3}°..{:.3}° at every frame (20° asked), other limbs within {elsewhere:.2e} rad",
        sk.bones[bone].name, bone, turned.0, turned.1
    );
    assert!(at_bone < 3e-3, "{at_bone}");
    assert!(elsewhere < 3e-3, "{elsewhere}");
}

#[test]
fn bad_clips_are_errors_naming_clip_and_bone() {
    let Some(into) = dbg_files(&["object_dekunuts"], "bad_clips_are_errors_naming_clip_and_bone") else { return };
    let doc = open_files(into.clone()).unwrap();
    let run = anim_named(&doc, "gDekuNutsRunAnim");
    let clip = clip_through_gltf(&doc, 0, run);
    let err = |c: &Clip| {
        Z64.import_clips(
            into.clone(),
            std::slice::from_ref(c),
            &ImportOptions::default(),
            &boneyard_core::DiskCompanions::default(),
        )
        .unwrap_err()
        .to_string()
    };
    // Longer than an s16 frame count.
    let mut long = clip.clone();
    long.poses = (0..0x8000).map(|f| clip.poses[f % 18].clone()).collect();
    let e = err(&long);
    assert!(e.contains("gDekuNutsRunAnim") && e.contains("32768 frames") && e.contains("s16"), "{e}");
    // NaN.
    let mut nan = clip.clone();
    nan.poses[3][4].rotation.y = f32::NAN;
    let e = err(&nan);
    assert!(e.contains("gDekuNutsRunAnim") && e.contains("frame 3") && e.contains(&clip.bones[4]), "{e}");
    // No bone matched.
    let mut none = clip.clone();
    none.animated = vec![false; clip.bones.len()];
    let e = err(&none);
    assert!(e.contains("gDekuNutsRunAnim") && e.contains("gDekuNutsSkel"), "{e}");
    // A root outside the s16 range names the root bone.
    let mut far = clip.clone();
    far.poses[2][0].translation.x = 40000.0;
    let e = err(&far);
    assert!(e.contains("gDekuNutsRunAnim") && e.contains(&clip.bones[0]) && e.contains("frame 2"), "{e}");
    // The wrong rate.
    let mut slow = clip.clone();
    slow.fps = 30.0;
    assert!(err(&slow).contains("20 fps"));
    // Link's skeleton without gameplay_keep and link_animetion.
    if let Some(boy) = dbg_files(&["object_link_boy"], "bad_clips_are_errors_naming_clip_and_bone") {
        let tmp = tempfile::Builder::new().prefix("boneyard-z64-import-").tempdir().unwrap();
        let alone = InputFile::new(tmp.path().join("object_link_boy"), boy[0].data.clone());
        let d = open_files(vec![alone.clone()]).unwrap();
        let sk = &d.skeletons()[0];
        let mut c = clip.clone();
        c.bones = sk.skeleton.bones.iter().map(|b| b.name.clone()).collect();
        c.poses = vec![sk.skeleton.rest_locals(); 3];
        c.animated = vec![true; c.bones.len()];
        c.fps = 30.0;
        let e = Z64
            .import_clips(vec![alone], &[c], &ImportOptions::default(), &boneyard_core::DiskCompanions::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("gameplay_keep") && e.contains("link_animetion"), "{e}");
    }
}

/// The game's own gameplay_keep has no header past its run that the appended-header scan would
/// take (its frames end at link_animetion's end); the imported copy has exactly the new ones.
#[test]
fn appended_link_headers_only_in_written_copies() {
    let files = ["object_link_boy", "gameplay_keep", "link_animetion"];
    let Some(into) = dbg_files(&files, "appended_link_headers_only_in_written_copies") else { return };
    let (gk, la) = (&into[1].data, &into[2].data);
    let run = boneyard_z64::link_headers(gk, la.len());
    assert_eq!(run.len(), 573);
    assert!(boneyard_z64::appended_link_headers(gk, la.len(), &run).is_empty());
    let doc = open_files(into.clone()).unwrap();
    let walk = anim_named(&doc, "gPlayerAnim_link_normal_walk");
    let skel = doc.animations()[walk].skeleton.unwrap();
    let clip = clip_through_gltf(&doc, skel, walk);
    let mut short = clip.clone();
    short.name = "gPlayerAnim_boneyard_short".into();
    short.poses.truncate(5);
    let opts = ImportOptions { skeleton: Some(doc.skeletons()[skel].id.clone()), ..Default::default() };
    let imp = Z64.import_clips(into, &[clip, short], &opts, &boneyard_core::DiskCompanions::default()).unwrap();
    let (wgk, wla) = (&imp.files[0].bytes, &imp.files[1].bytes);
    let run2 = boneyard_z64::link_headers(wgk, wla.len());
    assert_eq!(run2, run);
    assert_eq!(boneyard_z64::appended_link_headers(wgk, wla.len(), &run2), vec![0x567B0, 0x567B8]);
    let offs: Vec<u64> = imp.files[0].animations.iter().map(|a| a.offset.unwrap()).collect();
    assert_eq!(offs, [0x567B0, 0x567B8]);
    // The second clip's frames start on the next 16 bytes after the first's 29 frames.
    assert_eq!(imp.files[0].animations[1].extra["frame_data"], format!("0x{:X}", (0x265C30 + 29 * 134 + 15) / 16 * 16));
}

/// An edited clip keeps the original's stored angles where the game computes what the edit left
/// alone, and only there; a clip of another name (no original) is solved alone.
#[test]
fn dekunuts_run_edited_and_renamed() {
    let Some(into) = dbg_files(&["object_dekunuts"], "dekunuts_run_edited_and_renamed") else { return };
    let doc = open_files(into.clone()).unwrap();
    let run = anim_named(&doc, "gDekuNutsRunAnim");
    let clip = clip_through_gltf(&doc, 0, run);
    let import = |c: Clip| {
        let imp = Z64
            .import_clips(into.clone(), &[c], &ImportOptions::default(), &boneyard_core::DiskCompanions::default())
            .unwrap();
        let back = reopen(&imp, None);
        let new = imp.files[0].animations[0].index;
        (imp, back, new)
    };
    // Limb 5 turned 10 degrees more about x at every frame.
    let mut edited = clip.clone();
    let b = 5;
    for pose in &mut edited.poses {
        pose[b].rotation = (pose[b].rotation * Quat::from_rotation_x(10f32.to_radians())).normalize();
    }
    let (imp, back, new) = import(edited);
    let mut changed_limbs = std::collections::BTreeSet::new();
    for f in 0..18 {
        let (x, y) = (doc.joint_table(run, f).unwrap(), back.joint_table(new, f).unwrap());
        for (j, (p, q)) in x.joints.iter().zip(&y.joints).enumerate() {
            if p != q {
                changed_limbs.insert(j);
            }
        }
    }
    let a = &imp.files[0].animations[0].extra;
    eprintln!(
        "dekunuts gDekuNutsRunAnim, limb 5 turned 10 degrees: joints changed {changed_limbs:?}, {} of {} rotations the original's",
        a["original_rotations_kept"], a["rotations"]
    );
    // Joint b + 1 is limb b's rotation (joint 0 the root's translation): only it changed.
    assert_eq!(changed_limbs.into_iter().collect::<Vec<_>>(), [b + 1]);
    assert_eq!(a["original_rotations_kept"].as_u64(), Some(18 * 23));
    // Renamed, and no --like: nothing to keep; the solver's own angles (the game computes the
    // same rotations within 2e-3 of a matrix element, most of them exactly).
    let mut renamed = clip.clone();
    renamed.name = "gDekuNutsRunAnim_mine".into();
    let (imp, back, new) = import(renamed);
    assert!(imp.files[0].animations[0].extra.get("original").is_none());
    let same = same_values(&doc, run, &back, new, 18);
    let (worst, root) = compare((&doc, 0, run), (&back, 0, new), 18);
    eprintln!("renamed: {}/{} joint values identical, max rotation matrix error {worst:.2e}", same.0, same.1);
    assert!(same.0 < same.1 && worst < 2e-3 && root <= 1, "{same:?} {worst} {root}");
}

/// Every normal animation of every object file, as the game pairs them with a skeleton of its
/// file: exported by boneyard's glTF writer, read back as a clip and imported into its own file
/// (one import per skeleton, all its clips at once). The written joint tables must be the
/// original's, every value of every frame: the round trip loses nothing the game stores.
#[test]
fn every_normal_animation_round_trips_to_its_own_numbers() {
    let Some(dir) = shared_data("z64/oot-gc-eu-mq-dbg", "every_normal_animation_round_trips_to_its_own_numbers") else {
        return;
    };
    let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    let (mut files, mut anims, mut same, mut all, mut byte_same) = (0, 0, 0usize, 0usize, 0);
    let (mut differ, mut byte_differ) = (Vec::new(), Vec::new());
    for path in paths {
        let input = InputFile::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(doc) = open_files(vec![input.clone()]) else { continue };
        for si in 0..doc.skeletons().len() {
            let ours: Vec<usize> = doc
                .animations()
                .iter()
                .filter(|a| {
                    a.skeleton == Some(si) && a.format == "z64 normal" && a.source.starts_with(&format!("{name}@"))
                })
                .map(|a| a.index)
                .collect();
            if ours.is_empty() {
                continue;
            }
            let clips: Vec<Clip> = ours.iter().map(|&a| clip_through_gltf(&doc, si, a)).collect();
            let opts = ImportOptions { skeleton: Some(doc.skeletons()[si].id.clone()), ..Default::default() };
            let imp = Z64
                .import_clips(vec![input.clone()], &clips, &opts, &boneyard_core::NoCompanions)
                .unwrap_or_else(|e| panic!("{name}: skeleton {si}: {e}"));
            let back = reopen(&imp, None);
            files += 1;
            for (&a, written) in ours.iter().zip(&imp.files[0].animations) {
                let frames = doc.animations()[a].frames as usize;
                let (s, n) = same_values(&doc, a, &back, written.index, frames);
                anims += 1;
                same += s;
                all += n;
                if s != n {
                    differ.push(format!("{name} {} ({s}/{n})", doc.animations()[a].name));
                }
                // The frame data and joint indices as bytes: Nintendo's, in Nintendo's order.
                let (old, new) = (doc.animation_extra(a), &written.extra);
                let at =
                    |v: &serde_json::Value| usize::from_str_radix(&v.as_str().unwrap()[2..], 16).unwrap() & 0xFF_FFFF;
                let len = 2 * new["values"].as_u64().unwrap() as usize;
                let joints = 6 * (doc.skeletons()[si].skeleton.bones.len() + 1);
                let (fo, fnew) = (at(&old["frame_data"]), at(&new["frame_data"]));
                let (jo, jnew) = (at(&old["joint_indices"]), at(&new["joint_indices"]));
                let bytes = &imp.files[0].bytes;
                if input.data.get(fo..fo + len) == bytes.get(fnew..fnew + len)
                    && input.data.get(jo..jo + joints) == bytes.get(jnew..jnew + joints)
                    && old["static_index_max"] == new["static_index_max"]
                {
                    byte_same += 1;
                } else {
                    byte_differ.push(format!("{name} {}", doc.animations()[a].name));
                }
            }
        }
    }
    eprintln!(
        "{anims} normal animations of {files} skeletons round-tripped: {same}/{all} joint values identical, {byte_same} with Nintendo's frame data and joint indices byte for byte; differing: {differ:?}; laid out otherwise: {byte_differ:?}"
    );
    assert!(anims >= 445, "{anims}");
    assert!(differ.is_empty(), "{differ:?}");
    // Each file's layout of the static values is inferred from its own animations
    // (`StaticOrder`): every one comes out as Nintendo's bytes (174 with one plain layout).
    assert!(byte_differ.is_empty(), "{byte_same}: {byte_differ:?}");
}

/// Every one of adult Link's 573 animations, from one glb (as `export --anim all` writes them),
/// imported at once into gameplay_keep and link_animetion: each written joint table is the
/// game's own, every value of every frame.
#[test]
fn every_link_animation_round_trips_to_its_own_numbers() {
    let files = ["object_link_boy", "gameplay_keep", "link_animetion"];
    let Some(into) = dbg_files(&files, "every_link_animation_round_trips_to_its_own_numbers") else { return };
    let doc = open_files(into.clone()).unwrap();
    let skel = doc.skeletons().iter().position(|s| s.name == "gLinkAdultSkel").unwrap();
    let ours: Vec<usize> = doc.animations().iter().filter(|a| a.skeleton == Some(skel)).map(|a| a.index).collect();
    let glb = boneyard_export::glb(&doc, skel, &ours, &Default::default()).unwrap();
    let src = GltfSource::read("all.glb", &glb, None).unwrap();
    let fps = Z64.import_fps_for(&doc, skel).unwrap();
    let mut w = Vec::new();
    let clips: Vec<Clip> = (0..ours.len())
        .map(|i| src.clip(i, &doc.skeletons()[skel].skeleton, fps, &HashMap::new(), &mut w).unwrap())
        .collect();
    let opts = ImportOptions { skeleton: Some(doc.skeletons()[skel].id.clone()), ..Default::default() };
    let imp = Z64.import_clips(into.clone(), &clips, &opts, &boneyard_core::DiskCompanions::default()).unwrap();
    let back = reopen(&imp, Some(&into[0]));
    let (mut same, mut all, mut differ) = (0, 0, Vec::new());
    for (&a, written) in ours.iter().zip(&imp.files[0].animations) {
        assert_eq!(written.name, doc.animations()[a].name);
        let (s, n) = same_values(&doc, a, &back, written.index, doc.animations()[a].frames as usize);
        same += s;
        all += n;
        if s != n {
            differ.push(format!("{} ({s}/{n})", written.name));
        }
    }
    eprintln!(
        "{} of adult Link's animations round-tripped: {same}/{all} joint values identical; differing: {differ:?}",
        ours.len()
    );
    assert_eq!(ours.len(), 573);
    assert!(differ.is_empty(), "{differ:?}");
}
