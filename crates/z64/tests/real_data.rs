//! Tests on real files from ../shared/data/z64 (skipped, with a message, when absent).
//! Expected values come from the files' bytes read by hand (hex dumps), from the decomp's
//! asset XML (names, offsets, Link frame counts) and from the data MANIFEST.

use boneyard_core::document::Document;
use boneyard_core::family::{Family, InputFile};
use boneyard_core::testdata::shared_data;
use boneyard_z64::{math_cos_s, math_sin_s};
use boneyard_z64::{open_files, Z64Document, Z64};
use std::path::PathBuf;

fn dbg_file(name: &str, test: &str) -> Option<PathBuf> {
    shared_data(&format!("z64/oot-gc-eu-mq-dbg/{name}"), test)
}

/// The files opened as the CLI opens them: Link's companions found beside them on disk.
fn open(paths: &[PathBuf]) -> Z64Document {
    let files = paths.iter().map(|p| InputFile::read(p).unwrap()).collect();
    let disk = boneyard_core::DiskCompanions::default();
    boneyard_z64::open_files_running(files, &[], None, Default::default(), &disk).unwrap()
}

fn channel(doc: &Z64Document, anim: usize, frame: f64, joint: usize, axis: &str) -> i64 {
    let s = doc.sample(anim, frame).unwrap();
    s.channels.iter().find(|c| c.target == joint.to_string() && c.path == axis).unwrap().value.as_i64().unwrap()
}

/// fk(locals) must equal pose within 1e-4 (relative for large values), at every frame given.
fn assert_consistent(doc: &Z64Document, anim: usize, frames: &[u32]) {
    let skel = doc.animations()[anim].skeleton.expect("animation has a skeleton");
    let sk = &doc.skeletons()[skel].skeleton;
    for &f in frames {
        let s = doc.sample(anim, f as f64).unwrap();
        let fk = boneyard_core::fk::world_matrices(sk, &s.locals);
        let pose = doc.pose(skel, Some(anim), f as f64).unwrap();
        assert_eq!(fk.len(), pose.len());
        for (b, (a, p)) in fk.iter().zip(&pose).enumerate() {
            // Relative to the matrix's largest element (translations reach 30000 model units).
            let scale = p.to_cols_array().iter().fold(1.0f32, |m, v| m.max(v.abs()));
            for (x, y) in a.to_cols_array().iter().zip(p.to_cols_array()) {
                assert!((x - y).abs() <= 1e-4 * scale, "anim {anim} frame {f} bone {b}: {a} vs {p}");
            }
        }
    }
}

#[test]
fn dekunuts_skeleton_and_ten_animations() {
    let Some(p) = dbg_file("object_dekunuts", "dekunuts_skeleton_and_ten_animations") else { return };
    assert!(Z64.probe(&p, &std::fs::read(&p).unwrap()).claims());
    let doc = open(&[p]);
    assert_eq!(doc.skeletons().len(), 1);
    let s = &doc.skeletons()[0];
    assert_eq!((s.id.as_str(), s.name.as_str(), s.skeleton.len()), ("0x3268", "gDekuNutsSkel", 24));
    assert_eq!(s.extra["type"], "Normal");
    assert_eq!(s.extra["limb_type"], "Standard");
    // Names and offsets from object_dekunuts.xml; frame counts from the headers (hex dump).
    let want = [
        ("gDekuNutsSpitAnim", 0x1C4, 18),
        ("gDekuNutsDamageAnim", 0x368, 14),
        ("gDekuNutsBurrowAnim", 0x4D8, 10),
        ("gDekuNutsDieAnim", 0x6B0, 11),
        ("gDekuNutsUnburrowAnim", 0x8C4, 16),
        ("gDekuNutsLookAroundAnim", 0xAF0, 26),
        ("gDekuNutsUpAnim", 0xD1C, 21),
        ("gDekuNutsStandAnim", 0xE6C, 15),
        ("gDekuNutsGaspAnim", 0x1024, 9),
        ("gDekuNutsRunAnim", 0x3650, 18),
    ];
    let anims = doc.animations();
    assert_eq!(anims.len(), 10);
    for (a, (name, off, frames)) in anims.iter().zip(want) {
        assert_eq!(a.name, name);
        assert_eq!(doc.animation_extra(a.index)["header"], format!("0x{off:X}"));
        assert_eq!(a.frames, frames, "{name}");
        assert_eq!(a.fps, 20.0);
        assert_eq!(a.skeleton, Some(0));
        assert_eq!(a.bones, 24);
    }
    // gDekuNutsSpitAnim by hand: staticIndexMax 6, frameData at 0, jointIndices at 0x12C:
    // joint 0 = (0, 2, 6) -> x = fd[0] = 0, y = fd[2] = 0x02BC, z = fd[6 + frame]: fd[6] = 0,
    // fd[7] = 0xFFE4; joint 1 = (0, 1, 0) -> (0, 0x4000, 0).
    assert_eq!(channel(&doc, 0, 0.0, 0, "y"), 700);
    assert_eq!(channel(&doc, 0, 0.0, 0, "z"), 0);
    assert_eq!(channel(&doc, 0, 1.0, 0, "z"), -28);
    assert_eq!(channel(&doc, 0, 1.9, 0, "z"), -28, "frames are truncated");
    assert_eq!(channel(&doc, 0, 0.0, 1, "y"), 0x4000);
    assert_eq!(doc.sample(0, 19.0).unwrap().frame, 1.0, "frames wrap as in a loop");
    let lines = doc.check().unwrap();
    assert_eq!(lines.len(), 10);
    assert!(lines[0].starts_with("0 gDekuNutsSpitAnim kind=normal frames=18 fps=20 joints=25 skeleton=0x3268 crc="));
    for a in anims {
        assert_consistent(&doc, a.index, &[0, a.frames / 2, a.frames - 1]);
    }
    // 9 limbs have display lists (a mesh per texture they use); every mesh is valid, textured
    // (gDekuNutsLeafTex is rgba16 32x32, gDekuNutsBodyTex 16x16) and coloured.
    assert_eq!(s.extra["display_lists"], 9);
    let mut bones: Vec<usize> = s
        .meshes
        .iter()
        .map(|m| match m.binding {
            boneyard_core::MeshBinding::Rigid { bone } => bone,
            _ => panic!("dekunuts meshes are rigid"),
        })
        .collect();
    bones.dedup();
    assert_eq!(bones.len(), 9);
    for m in &s.meshes {
        m.validate(24).unwrap();
        // Vertex colours where the combiner reads SHADE: all but what limb 3's list draws
        // after its G_SETCOMBINE FC11FFFF FFFFF238 at 0x19C8 (TEXEL0 * PRIMITIVE, decoded by
        // hand from gbi.h's layout).
        assert!(m.colors.is_some() || m.name.starts_with("limb_03_dl_0018C0"), "{}", m.name);
    }
    assert!(s.meshes.iter().any(|m| m.colors.is_none()), "the TEXEL0 * PRIMITIVE part has no vertex colours");
    let sizes: Vec<(u32, u32)> =
        s.meshes.iter().filter_map(|m| m.texture.as_ref().map(|t| (t.width, t.height))).collect();
    assert!(sizes.contains(&(32, 32)) && sizes.contains(&(16, 16)), "{sizes:?}");
}

/// The root limb's matrix at frame 0 of gDekuNutsSpitAnim, worked by hand: identity, then
/// Matrix_TranslateRotateZYX's steps (Z; Y if non-zero; X if non-zero) written out.
#[test]
fn dekunuts_root_matrix_by_hand() {
    let Some(p) = dbg_file("object_dekunuts", "dekunuts_root_matrix_by_hand") else { return };
    let doc = open(&[p]);
    let t = doc.joint_table(0, 0).unwrap();
    let [tx, ty, tz] = t.joints[0];
    let [rx, ry, rz] = t.joints[1];
    assert_eq!((tx, ty, tz, rx, ry, rz), (0, 700, 0, 0, 0x4000, 0));
    let (sz, cz) = (math_sin_s(rz), math_cos_s(rz));
    let (sy, cy) = (math_sin_s(ry), math_cos_s(ry));
    // Z step on the identity: xx = cz, xy = -sz, yx = sz, yy = cz (exact). Y step:
    // xx = cz*cy - 0*sy, xz = cz*sy + 0*cy, yx = sz*cy, yz = sz*sy, zx = 0*cy - 1*sy, zz = 0*sy + 1*cy.
    let m = doc.pose(0, Some(0), 0.0).unwrap()[0].to_cols_array();
    let (xx, yx, zx) = (cz * cy - 0.0 * sy, sz * cy - 0.0 * sy, 0.0 * cy - 1.0 * sy);
    let (xz, yz, zz) = (cz * sy + 0.0 * cy, sz * sy + 0.0 * cy, 0.0 * sy + 1.0 * cy);
    assert_eq!([m[0], m[1], m[2]], [xx, yx, zx]);
    assert_eq!([m[8], m[9], m[10]], [xz, yz, zz]);
    assert_eq!([m[12], m[13], m[14], m[15]], [0.0, 700.0, 0.0, 1.0]);
    // Math_SinS(0x4000) = 32767 * (1/32767f); Math_CosS(0x4000) = sins(0x8000) = 0.
    assert_eq!(sy, 32767.0 * (1.0f32 / 32767.0));
    assert_eq!(cy, 0.0);
}

#[test]
fn link_animations_from_gameplay_keep() {
    let (Some(gk), Some(la), Some(boy)) = (
        dbg_file("gameplay_keep", "link_animations_from_gameplay_keep"),
        dbg_file("link_animetion", "link_animations_from_gameplay_keep"),
        dbg_file("object_link_boy", "link_animations_from_gameplay_keep"),
    ) else {
        return;
    };
    let doc = open(&[boy, gk, la]);
    let link: Vec<_> = doc.animations().iter().filter(|a| a.format == "z64 link").collect();
    assert_eq!(link.len(), 573);
    assert_eq!(link[0].name, "gPlayerAnim_clink_demo_DDbox_open");
    assert_eq!(doc.animation_extra(link[0].index)["header"], "0x2310");
    assert_eq!(doc.animation_extra(link[572].index)["header"], format!("0x{:X}", 0x2310 + 572 * 8));
    // Link's skeleton: adult Flex, 21 LOD limbs, 18 display lists, at 0x377F4.
    let skel = link[0].skeleton.unwrap();
    let s = &doc.skeletons()[skel];
    assert_eq!((s.name.as_str(), s.skeleton.len()), ("gLinkAdultSkel", 21));
    assert_eq!(s.extra["type"], "Flex");
    assert_eq!(s.extra["limb_type"], "LOD");
    assert_eq!(s.extra["dlist_count"], 18);
    assert_eq!(s.extra["offset"], "0x377F4");
    // Frame counts and data offsets against link_animetion.xml (PlayerAnimationData).
    let xml = shared_data("z64/oot-decomp-xml/misc/link_animetion.xml", "link_animations_from_gameplay_keep").unwrap();
    let xml = std::fs::read_to_string(xml).unwrap();
    let attr = |l: &str, k: &str| {
        let s = l.find(&format!("{k}=\""))? + k.len() + 2;
        Some(l[s..s + l[s..].find('"')?].to_string())
    };
    // Every PlayerAnimationData block (561 blocks) is the data of a header with its frame count.
    let mut blocks = std::collections::HashMap::new();
    for l in xml.lines().filter(|l| l.contains("<PlayerAnimationData")) {
        let off = u32::from_str_radix(attr(l, "Offset").unwrap().trim_start_matches("0x"), 16).unwrap();
        blocks.insert(format!("0x{:X}", 0x0700_0000 | off), attr(l, "FrameCount").unwrap().parse::<u32>().unwrap());
    }
    assert_eq!(blocks.len(), 573);
    let mut checked = 0;
    for a in &link {
        assert_eq!(a.fps, 30.0);
        if let Some(&frames) = blocks.get(doc.animation_extra(a.index)["frame_data"].as_str().unwrap()) {
            assert_eq!(frames, a.frames, "{}", a.name);
            checked += 1;
        }
    }
    assert_eq!(checked, 573);
    // First frame of the first animation, by hand: ffdb 0917 0001 | 0000 0000 0000 | c000 02da ...
    let i = link[0].index;
    assert_eq!(channel(&doc, i, 0.0, 0, "x"), -37);
    assert_eq!(channel(&doc, i, 0.0, 0, "y"), 2327);
    assert_eq!(channel(&doc, i, 0.0, 0, "z"), 1);
    assert_eq!(channel(&doc, i, 0.0, 2, "x"), -0x4000);
    assert_eq!(channel(&doc, i, 0.0, 2, "y"), 0x02DA);
    assert!(doc.sample(i, 0.0).unwrap().extra.contains_key("face"));
    for a in [link[0].index, link[100].index, link[572].index] {
        assert_consistent(&doc, a, &[0, doc.animations()[a].frames - 1]);
    }
    assert_eq!(doc.check().unwrap().len(), doc.animations().len());
}

#[test]
fn flex_skeletons_of_link_child_and_zelda() {
    let (Some(child), Some(zl2)) = (
        dbg_file("object_link_child", "flex_skeletons_of_link_child_and_zelda"),
        dbg_file("object_zl2", "flex_skeletons_of_link_child_and_zelda"),
    ) else {
        return;
    };
    let doc = open_files(vec![InputFile::read(&zl2).unwrap()]).unwrap();
    let s = &doc.skeletons()[0];
    assert_eq!((s.id.as_str(), s.name.as_str(), s.skeleton.len()), ("0x10D70", "gZelda2Skel", 14));
    assert_eq!(s.extra["type"], "Flex");
    assert_eq!(s.extra["dlist_count"], 13);
    // Zelda's meshes reach other limbs' matrices through segment 0x0D: some are skinned.
    assert!(s.meshes.iter().any(|m| matches!(m.binding, boneyard_core::MeshBinding::Skinned { .. })));
    for m in &s.meshes {
        m.validate(14).unwrap();
    }
    let doc = open_files(vec![InputFile::read(&child).unwrap()]).unwrap();
    let s = doc.skeletons().iter().find(|s| s.name == "gLinkChildSkel").unwrap();
    assert_eq!((s.extra["offset"].as_str(), s.skeleton.len()), (Some("0x2CF6C"), 21));
    assert_eq!(s.extra["limb_type"], "LOD");
}

#[test]
fn object_human_beta_format() {
    let Some(p) = dbg_file("object_human", "object_human_beta_format") else { return };
    let doc = open(&[p]);
    let s = &doc.skeletons()[0];
    assert_eq!((s.name.as_str(), s.skeleton.len()), ("gHumanLimbTable", 41));
    assert_eq!(s.extra["type"], "Legacy");
    // Root limb at 0x11FA8 (hex dump): trans (0, 0x4557B19A = 3451.1, 0x42220000 = 40.5).
    assert_eq!(s.skeleton.bones[0].name, "gHumanRootLimb");
    let t = s.skeleton.bones[0].rest.translation;
    assert_eq!((t.x, t.y, t.z), (0.0, f32::from_bits(0x4557B19A), 40.5));
    let anims = doc.animations();
    assert_eq!(anims.len(), 12);
    // gHumanLookingBackAnim at 0x8354: 003c 0029 -> 60 frames, 41 limbs.
    assert_eq!((anims[0].name.as_str(), anims[0].frames, anims[0].bones), ("gHumanLookingBackAnim", 60, 41));
    for a in anims {
        assert_eq!(a.format, "z64 legacy");
        assert_eq!(a.skeleton, Some(0));
    }
    for a in anims {
        assert_consistent(&doc, a.index, &[0, a.frames - 1]);
    }
}

#[test]
fn fan_player_models() {
    let (Some(girl), Some(child)) = (
        shared_data("z64/fan/Aria_Hiro_Girl_OOTO.zobj", "fan_player_models"),
        shared_data("z64/fan/Aria_Hiro_Child_OOTO.zobj", "fan_player_models"),
    ) else {
        return;
    };
    let doc = open(&[girl]);
    assert_eq!(doc.skeletons().len(), 1);
    let s = &doc.skeletons()[0];
    assert_eq!((s.id.as_str(), s.skeleton.len()), ("0x17614", 21));
    assert_eq!(s.extra["type"], "Flex");
    assert_eq!(s.extra["limb_type"], "LOD");
    assert!(doc.files()[0].notes.iter().any(|n| n.contains("MODLOADER64")));
    let want = [(0x16E50, 89), (0x16FCC, 88), (0x17230, 12), (0x1738C, 68), (0x17458, 10)];
    let anims = doc.animations();
    assert_eq!(anims.len(), 5);
    for (a, (off, frames)) in anims.iter().zip(want) {
        assert_eq!(doc.animation_extra(a.index)["header"], format!("0x{off:X}"));
        assert_eq!((a.frames, a.bones, a.skeleton), (frames, 21, Some(0)));
    }
    for a in anims {
        assert_consistent(&doc, a.index, &[0, a.frames - 1]);
    }
    let doc = open(&[child]);
    assert_eq!(doc.animations().len(), 1);
    assert_eq!(doc.animation_extra(0)["header"], "0x12174");
    assert_eq!(doc.animations()[0].frames, 68);
    for name in ["Adult_saria.zobj", "Child_FrogSong_OoT.zobj"] {
        let Some(p) = shared_data(&format!("z64/fan/{name}"), "fan_player_models") else { return };
        let doc = open(&[p]);
        assert_eq!(doc.skeletons().len(), 1, "{name}");
        assert_eq!(doc.skeletons()[0].skeleton.len(), 21);
    }
}

/// The structural scan (what unnamed files get) finds what the decomp's XML names: the same
/// skeletons and animations, at the same offsets, in Nintendo's files read under another name.
#[test]
fn structural_scan_finds_what_the_decomp_names() {
    for (file, skels, anims) in [
        ("object_dekunuts", vec![0x3268], 10),
        ("object_link_boy", vec![0x377F4], 0),
        ("object_link_child", vec![0x2CF6C], 0),
        ("object_zl2", vec![0x10D70], 0),
        ("object_human", vec![0x11FC8], 12),
    ] {
        let Some(p) = dbg_file(file, "structural_scan_finds_what_the_decomp_names") else { return };
        let named = open(std::slice::from_ref(&p));
        let scanned = open_files(vec![InputFile::new("unknown.zobj", std::fs::read(&p).unwrap())]).unwrap();
        let offs: Vec<String> =
            scanned.skeletons().iter().map(|s| s.extra["offset"].as_str().unwrap().to_string()).collect();
        let want: Vec<String> = skels.iter().map(|o| format!("0x{o:X}")).collect();
        assert_eq!(offs, want, "{file}");
        let na: Vec<_> = named
            .animations()
            .iter()
            .filter(|a| a.format != "z64 link" && named.animation_extra(a.index)["file"] == file)
            .map(|a| (named.animation_extra(a.index)["header"].clone(), a.frames))
            .collect();
        let sa: Vec<_> = scanned
            .animations()
            .iter()
            .map(|a| (scanned.animation_extra(a.index)["header"].clone(), a.frames))
            .collect();
        assert_eq!(na.len(), anims);
        assert_eq!(sa, na, "{file}");
        // Same check lines apart from the names.
        let strip = |l: &String| l.split_once(" kind=").unwrap().1.to_string();
        let names: Vec<String> = named
            .animations()
            .iter()
            .filter(|a| named.animation_extra(a.index)["file"] == file)
            .map(|a| format!("{} {} ", a.index, a.name))
            .collect();
        let a: Vec<_> = named
            .check()
            .unwrap()
            .iter()
            .filter(|l| names.iter().any(|n| l.starts_with(n.as_str())))
            .map(strip)
            .collect();
        let b: Vec<_> = scanned.check().unwrap().iter().map(strip).collect();
        assert_eq!(a, b, "{file}");
    }
}

/// A ROM built around the real files: the audio-like big uncompressed file must not be taken
/// for link_animetion; gameplay_keep is recognised by its Link headers; the compressed object
/// is found by the scan.
#[test]
fn rom_around_real_files() {
    let (Some(gk), Some(la), Some(dk)) = (
        dbg_file("gameplay_keep", "rom_around_real_files"),
        dbg_file("link_animetion", "rom_around_real_files"),
        dbg_file("object_dekunuts", "rom_around_real_files"),
    ) else {
        return;
    };
    let (gk, la, dk) = (std::fs::read(gk).unwrap(), std::fs::read(la).unwrap(), std::fs::read(dk).unwrap());
    let audio = vec![0x5Au8; 0x30_0000];
    let rom = boneyard_z64::build_test_rom_with(&[(&audio, false), (&la, false), (&gk, false), (&dk, true)], 0);
    let doc = open_files(vec![InputFile::new("test.z64", rom)]).unwrap();
    assert_eq!(doc.files()[0].variant, "OoT NTSC 1.0");
    let link = doc.animations().iter().filter(|a| a.format == "z64 link").count();
    assert_eq!(link, 573);
    let normal: Vec<_> = doc.animations().iter().filter(|a| a.source.starts_with("file_0006")).collect();
    assert_eq!(normal.len(), 10);
    assert!(doc.skeletons().iter().any(|s| s.source == "file_0006@0x3268"));
}

/// The interpolating playback modes on real data, by hand: gDekuNutsSpitAnim joint 0 z goes
/// 0 -> -28 from frame 0 to 1; at 0.3 the game shows (s16)(-28 * 0.3) + 0 = -8.
#[test]
fn dekunuts_interpolated_playback() {
    let Some(p) = dbg_file("object_dekunuts", "dekunuts_interpolated_playback") else { return };
    let doc = open(&[p]);
    assert_eq!(doc.joint_table_interp(0, 0.3).unwrap().joints[0][2], -8);
    assert_eq!(doc.joint_table_interp(0, 0.5).unwrap().joints[0][2], -14);
    // Past the last frame the blend goes toward frame 0.
    let last = doc.joint_table(0, 17).unwrap();
    let first = doc.joint_table(0, 0).unwrap();
    let blended = doc.joint_table_interp(0, 17.5).unwrap();
    let want =
        (((first.joints[0][2].wrapping_sub(last.joints[0][2])) as f32 * 0.5) as i16).wrapping_add(last.joints[0][2]);
    assert_eq!(blended.joints[0][2], want);
    assert!(doc.sample(0, 0.3).unwrap().extra.contains_key("interp_mode_joints"));
}

/// A debug-style ROM with a file name table: files get their names, so the decomp's names
/// apply to the objects inside the ROM.
#[test]
fn named_rom_files_use_the_asset_table() {
    let (Some(gk), Some(la), Some(dk)) = (
        dbg_file("gameplay_keep", "named_rom_files_use_the_asset_table"),
        dbg_file("link_animetion", "named_rom_files_use_the_asset_table"),
        dbg_file("object_dekunuts", "named_rom_files_use_the_asset_table"),
    ) else {
        return;
    };
    let (gk, la, dk) = (std::fs::read(gk).unwrap(), std::fs::read(la).unwrap(), std::fs::read(dk).unwrap());
    let files: [(&[u8], bool); 3] = [(&la, false), (&gk, false), (&dk, true)];
    let names = ["link_animetion", "gameplay_keep", "object_dekunuts"];
    let rom = boneyard_z64::build_test_rom_named(&files, Some(&names), 10);
    let doc = open_files(vec![InputFile::new("dbg.z64", rom)]).unwrap();
    assert!(doc.files()[0].notes.iter().any(|n| n.contains("name table")));
    let a =
        doc.animations().iter().find(|a| a.name == "gDekuNutsSpitAnim").unwrap_or_else(|| panic!("{:?}", doc.files()));
    assert_eq!(a.frames, 18);
    assert_eq!(doc.animations().iter().filter(|a| a.format == "z64 link").count(), 573);
    assert!(doc.skeletons().iter().any(|s| s.name == "gDekuNutsSkel"));
}

/// The run scan for Link's headers finds OoT's 573 from 0x2310 in gameplay_keep.
#[test]
fn link_header_run_scan() {
    let (Some(gk), Some(la)) =
        (dbg_file("gameplay_keep", "link_header_run_scan"), dbg_file("link_animetion", "link_header_run_scan"))
    else {
        return;
    };
    let (gk, la) = (std::fs::read(gk).unwrap(), std::fs::read(la).unwrap());
    let h = boneyard_z64::link_headers(&gk, la.len());
    assert_eq!((h.len(), h[0]), (573, 0x2310));
}

/// The face word's MM fields (z64player.h: left hand `w & 0xF000`, right hand `w & 0x0F00`)
/// next to OoT's eyes/mouth: frame 0 of the first Link animation given the word 0x3A21 by hand
/// (at data + 22 * 6 = +132): eyes (1) - 1 = 0, mouth (2) - 1 = 1, right hand 0xA, left 3.
#[test]
fn link_face_word_with_mm_hands() {
    let (Some(gk), Some(la), Some(boy)) = (
        dbg_file("gameplay_keep", "link_face_word_with_mm_hands"),
        dbg_file("link_animetion", "link_face_word_with_mm_hands"),
        dbg_file("object_link_boy", "link_face_word_with_mm_hands"),
    ) else {
        return;
    };
    let doc = open(&[boy.clone(), gk.clone(), la.clone()]);
    let first = doc.animations().iter().find(|a| a.format == "z64 link").unwrap();
    let data = u32::from_str_radix(
        doc.animation_extra(first.index)["frame_data"].as_str().unwrap().trim_start_matches("0x"),
        16,
    )
    .unwrap();
    let mut bytes = std::fs::read(&la).unwrap();
    let at = (data & 0xFF_FFFF) as usize + 132;
    bytes[at..at + 2].copy_from_slice(&0x3A21u16.to_be_bytes());
    let inputs = vec![
        InputFile::read(&boy).unwrap(),
        InputFile::read(&gk).unwrap(),
        InputFile::new(la.to_string_lossy().as_ref(), bytes),
    ];
    let doc = open_files(inputs).unwrap();
    let s = doc.sample(first.index, 0.0).unwrap();
    assert_eq!(s.extra["face"], 0x3A21);
    assert_eq!((s.extra["eyes"].as_i64(), s.extra["mouth"].as_i64()), (Some(0), Some(1)));
    assert_eq!((s.extra["right_hand"].as_i64(), s.extra["left_hand"].as_i64()), (Some(0xA), Some(3)));
}

/// object_ganon: the decomp's NTSC description puts gGanondorfEndingFloatAnim at 0xFF48, its
/// PAL one (object_ganon_pal.xml) at 0x11348; this file is from a PAL build. As a bare file the
/// reading whose entries all verify is taken; inside a ROM the build decides, and the entries
/// of another build's reading that do not hold are warnings while the scan still lists what is
/// there.
#[test]
fn ganon_reading_chosen_by_the_bytes_or_the_build() {
    let Some(p) = dbg_file("object_ganon", "ganon_reading_chosen_by_the_bytes_or_the_build") else { return };
    let doc = open(std::slice::from_ref(&p));
    let table_warnings =
        |doc: &Z64Document| doc.warnings().iter().filter(|w| w.message.contains("asset table")).count();
    assert_eq!(table_warnings(&doc), 0, "{:?}", doc.warnings());
    let float = |doc: &Z64Document| {
        doc.animations().iter().find(|a| doc.animation_extra(a.index)["header"] == "0x11348").cloned()
    };
    assert_eq!(float(&doc).unwrap().name, "gGanondorfEndingFloatAnim");
    assert!(doc.files()[0].notes.iter().any(|n| n.contains("pal xml for pal-1.0")), "{:?}", doc.files()[0].notes);
    let data = std::fs::read(&p).unwrap();
    // BUILDS[10]: the GC EU MQ debug build (PAL): the PAL reading, nothing to warn about.
    let rom = boneyard_z64::build_test_rom_named(&[(&data, false)], Some(&["object_ganon"]), 10);
    let doc = open_files(vec![InputFile::new("dbg.z64", rom)]).unwrap();
    assert_eq!(table_warnings(&doc), 0, "{:?}", doc.warnings());
    assert_eq!(float(&doc).unwrap().name, "gGanondorfEndingFloatAnim");
    // BUILDS[0]: NTSC 1.0: the NTSC reading's 0xFF48 is a warning; the scan lists 0x11348.
    let rom = boneyard_z64::build_test_rom_named(&[(&data, false)], Some(&["object_ganon"]), 0);
    let doc = open_files(vec![InputFile::new("ntsc.z64", rom)]).unwrap();
    let w = doc.warnings().iter().find(|w| w.offset == Some(0xFF48)).expect("a warning at 0xFF48");
    assert_eq!(w.file, "ntsc.z64#object_ganon");
    assert!(w.message.contains("gGanondorfEndingFloatAnim") && w.message.contains("0 frames"), "{w}");
    assert_eq!(float(&doc).unwrap().name, "object_ganon_Anim_011348");
}

/// gameplay_keep: the NTSC and the PAL readings differ in `<Version>` blocks (a display list
/// the NTSC builds have at 0xC8B0, a texture or padding before the doors), and what the XML
/// places after them (the doors', fairies', fish's and bugs' skeletons and clips) sits at
/// different offsets in each; only the PAL reading verifies on these bytes, so it is taken,
/// those skeletons and clips have their decomp names, and Link's 573 animations keep theirs.
#[test]
fn gameplay_keep_reading_is_the_one_that_fits() {
    let Some(p) = dbg_file("gameplay_keep", "gameplay_keep_reading_is_the_one_that_fits") else {
        return;
    };
    let doc = open(&[p]);
    // (Its scanned skeletons call display lists the actor binds at run time: those warnings.)
    assert!(!doc.warnings().iter().any(|w| w.message.contains("asset table")), "{:?}", doc.warnings());
    let notes = &doc.files()[0].notes;
    assert!(
        notes.iter().any(|n| n.contains("xml for pal-1.0, pal-1.1, gc-eu, gc-eu-mq, gc-eu-dbg, gc-eu-mq-dbg")
            && n.contains("2 readings of this file")),
        "{notes:?}"
    );
    let link = doc.animations().iter().filter(|a| doc.animation_extra(a.index)["kind"] == "link").count();
    assert_eq!(link, 573);
    assert_eq!(
        doc.animations().iter().find(|a| doc.animation_extra(a.index)["header"] == "0x2310").unwrap().name,
        "gPlayerAnim_clink_demo_DDbox_open"
    );
    // Placed by the XML only after the version blocks (`Offset=".+0x10"` after four limbs).
    let skeletons: Vec<(&str, &str)> =
        doc.skeletons().iter().map(|s| (s.name.as_str(), s.extra["offset"].as_str().unwrap())).collect();
    for want in [("gDoorSkel", "0xFF78"), ("gFairySkel", "0x16A48"), ("gFishSkel", "0x18FE0"), ("gBugSkel", "0x35590")]
    {
        assert!(skeletons.contains(&want), "{want:?} in {skeletons:?}");
    }
}

/// The lean path (`sample_locals`, what the exporters bake) gives `sample`'s pose and root
/// motion bit for bit, at every frame of every animation of the Deku Scrub and of Link.
#[test]
fn sample_locals_is_sample_bit_for_bit() {
    let t = "sample_locals_is_sample_bit_for_bit";
    let sets = [
        vec![dbg_file("object_dekunuts", t)],
        vec![dbg_file("object_link_boy", t), dbg_file("gameplay_keep", t), dbg_file("link_animetion", t)],
    ];
    let mut frames = 0u64;
    for set in sets {
        let Some(paths) = set.into_iter().collect::<Option<Vec<_>>>() else { return };
        let doc = open(&paths);
        let mut locals = Vec::new();
        for (i, a) in doc.animations().iter().enumerate() {
            for f in 0..a.frames {
                let s = doc.sample(i, f as f64).unwrap();
                let root = doc.sample_locals(i, f as f64, &mut locals).unwrap();
                assert_eq!(
                    root.map(|r| r.to_array().map(f32::to_bits)),
                    s.root_motion.map(|r| r.to_array().map(f32::to_bits))
                );
                let bits = |l: &[boneyard_core::model::Transform]| -> Vec<u32> {
                    l.iter()
                        .flat_map(|t| {
                            t.translation.to_array().into_iter().chain(t.rotation.to_array()).chain(t.scale.to_array())
                        })
                        .map(f32::to_bits)
                        .collect()
                };
                assert_eq!(bits(&locals), bits(&s.locals), "{} frame {f}", a.name);
                frames += 1;
            }
        }
    }
    println!("sample_locals = sample at {frames} frames");
}

/// A thread keeps the display-list decoder's emptied buffers from one document to the next:
/// each of these objects decodes to the same meshes and warnings on a new thread (nothing
/// kept) as after the other files on one thread (the buffers of adult Link's large groups and
/// of every file before it).
#[test]
fn meshes_do_not_depend_on_what_the_thread_read_before() {
    let names = ["object_link_boy", "object_human", "object_mb", "object_dekunuts", "object_zl2", "object_horse"];
    let Some(paths) =
        names.iter().map(|n| dbg_file(n, "meshes_do_not_depend_on_the_thread")).collect::<Option<Vec<_>>>()
    else {
        return;
    };
    type Seen = Vec<(Vec<Vec<boneyard_core::Mesh>>, Vec<String>)>;
    let read = |doc: &Z64Document| {
        let meshes = doc.skeletons().iter().map(|s| s.meshes.clone()).collect::<Vec<_>>();
        (meshes, doc.warnings().iter().map(|w| w.to_string()).collect::<Vec<_>>())
    };
    let alone: Seen = paths
        .iter()
        .map(|p| {
            let p = p.clone();
            std::thread::spawn(move || read(&open(&[p]))).join().unwrap()
        })
        .collect();
    let paths_in_turn = paths.clone();
    let in_turn: Seen =
        std::thread::spawn(move || paths_in_turn.iter().map(|p| read(&open(std::slice::from_ref(p)))).collect())
            .join()
            .unwrap();
    let meshes: usize = alone.iter().flat_map(|(m, _)| m).map(Vec::len).sum();
    assert!(meshes > 100, "{meshes} meshes");
    for ((a, b), name) in alone.iter().zip(&in_turn).zip(names) {
        assert!(a == b, "{name}: the meshes or warnings differ");
    }
    println!("{meshes} meshes of {} files alike alone and in turn", names.len());
}

/// Meshes drawn with lighting on carry the vertices' normals (F3DEX2's `Vtx_tn`: the colour
/// bytes as signed bytes), unit length, and they point out of the surface: at most triangles
/// the three normals' sum agrees with the face normal the winding gives (the RSP culls back
/// faces by that winding, so it is the game's own outside). Checked on adult Link and the Deku
/// Scrub; before, no Zelda mesh but Skin's had normals, so viewers drew them faceted.
#[test]
fn lit_meshes_carry_normals_that_point_out_of_the_surface() {
    for name in ["object_link_boy", "object_dekunuts"] {
        let Some(path) = dbg_file(name, "lit_meshes_carry_normals_that_point_out_of_the_surface") else { return };
        let doc = open(&[path]);
        let s = &doc.skeletons()[0];
        let (mut meshes, mut with, mut agree, mut tris) = (0, 0, 0usize, 0usize);
        for m in &s.meshes {
            meshes += 1;
            let Some(n) = &m.normals else { continue };
            with += 1;
            assert_eq!(n.len(), m.positions.len(), "{name} {}", m.name);
            assert!(n.iter().all(|v| (v.length() - 1.0).abs() < 1e-5), "{name} {}: unit normals", m.name);
            for t in m.indices.chunks_exact(3) {
                let [a, b, c] = [t[0], t[1], t[2]].map(|i| m.positions[i as usize]);
                let face = (b - a).cross(c - a);
                if face.length() < 1e-3 {
                    continue;
                }
                tris += 1;
                let sum = n[t[0] as usize] + n[t[1] as usize] + n[t[2] as usize];
                agree += usize::from(sum.dot(face) > 0.0);
            }
        }
        println!(
            "{name}: {with}/{meshes} meshes with normals; {agree}/{tris} triangles' normals agree with their winding"
        );
        assert_eq!(with, meshes, "{name}: every mesh is drawn lit");
        assert!(tris > 100 && agree * 100 >= tris * 95, "{name}: {agree}/{tris}");
    }
}
