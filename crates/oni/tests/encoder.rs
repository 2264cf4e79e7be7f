//! The encoder: byte-for-byte against OniSplit's own files where it can be (the TRAM .oni
//! fixtures re-encoded from what boneyard read), and the demo level read back.

#![allow(clippy::needless_range_loop)] // indices follow the formulas

mod common;
use boneyard_core::demo::{self, DemoClip};
use boneyard_core::{fk, Family, InputFile, NoCompanions, OpenOptions};
use boneyard_oni::decode_key as decode;
use boneyard_oni::{demo_files, open_paths, Oni};
use boneyard_oni::{encode_key, quat_to_xyz, rotation_block, write_oni};
use common::*;

/// Every TRAM fixture, read by boneyard and written back by boneyard's encoder, gives
/// OniSplit's file byte for byte (header, name and data blocks, pre-data, struct, every raw
/// array in OniSplit's order and alignment).
#[test]
fn tram_oni_files_re_encode_byte_for_byte() {
    for name in [
        "TRAMfixture_tiny2",
        "TRAMfixture_walk19",
        "TRAMfixture_walk19_overlay",
        "TRAMfixture_pose1",
        "TRAMfixture_gap255",
        "TRAMfixture_qrekey",
    ] {
        let Some(p) = fixture(&format!("{name}.oni"), "tram_oni_files_re_encode_byte_for_byte") else { return };
        let original = std::fs::read(&p).unwrap();
        let doc = open_paths(&[p.as_path()]).unwrap();
        let inst = boneyard_oni::tram_instance(&doc.trams()[0]).unwrap();
        let mine = write_oni(&[inst]).unwrap();
        if mine != original {
            let at = mine.iter().zip(&original).position(|(a, b)| a != b).unwrap_or(mine.len().min(original.len()));
            panic!("{name}: differs at byte {at:#x} (lengths {} vs {})", mine.len(), original.len());
        }
    }
}

/// Keys of every size written by the encoder decode to the quaternion given, within each
/// format's quantization.
#[test]
fn every_key_size_encodes() {
    let q = from_axis_angle([0.3, -0.5, 0.8], 1.1);
    for (size, tol) in [(16u16, 0.0f32), (8, 5e-5), (6, 2e-4), (4, 1e-2), (3, 0.05)] {
        let k = encode_key(size, q).unwrap();
        assert_eq!(k.len(), size as usize);
        let d = decode(size, &k).unwrap();
        let dot: f32 = (0..4).map(|i| d[i] * q[i]).sum::<f32>().abs();
        let len: f32 = d.iter().map(|c| c * c).sum::<f32>().sqrt();
        assert!(1.0 - dot / len <= tol.max(1e-7), "size {size}: {d:?} vs {q:?}");
    }
    // Euler extraction inverts the engine's conversion (up to the equivalent triple).
    let q6 = decode(6, &[0x10, 0x20, 0x30, 0x40, 0x50, 0x60]).unwrap();
    let a = quat_to_xyz(q6).map(|v| v as f32);
    let back = boneyard_oni::xyzr_euler_to_quat(a[0], a[1], a[2]);
    let dot: f32 = (0..4).map(|i| back[i] * q6[i]).sum();
    assert!(dot.abs() > 1.0 - 1e-6, "{back:?} {q6:?}");
    // A block with gaps; a bad gap is refused.
    let id = [0.0, 0.0, 0.0, 1.0];
    let (b, s) = rotation_block(6, 5, &[vec![(0, id), (4, id)]]).unwrap();
    assert_eq!((b.len(), s[0].keys), (2 + 13, 2));
    assert!(rotation_block(6, 300, &[vec![(0, id), (299, id)]]).is_err());
}

fn from_axis_angle(axis: [f32; 3], a: f32) -> [f32; 4] {
    let n = (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]).sqrt();
    let s = (a / 2.0).sin() / n;
    // engine convention: (x, y, z, -w) of the usual quaternion
    [axis[0] * s, axis[1] * s, axis[2] * s, -(a / 2.0).cos()]
}

/// The demo level reads back through `Family::open`: the 19-part body, both clips at 60 fps,
/// rotations within the key size's quantization, the root where the demo puts it.
#[test]
fn demo_reads_back() {
    let files = demo_files().unwrap();
    assert_eq!(files.len(), 2);
    for (n, b) in &files {
        assert!(Oni.probe(std::path::Path::new(n), b).claims(), "{n}");
    }
    let inputs = files.into_iter().map(|(n, b)| InputFile::new(n, b)).collect();
    let doc = Oni.open(inputs, &OpenOptions::default(), &NoCompanions).unwrap();
    let sk = &doc.skeletons()[0];
    assert_eq!(sk.skeleton.len(), 19);
    assert_eq!(sk.meshes.len(), 19);
    let ds = demo::skeleton();
    for (a, b) in sk.skeleton.bones.iter().zip(&ds.bones) {
        assert_eq!((&a.name, a.parent), (&b.name, b.parent));
    }
    assert_eq!(doc.animations().len(), 2);
    for (clip, a) in DemoClip::ALL.iter().zip(doc.animations()) {
        assert_eq!(a.name, clip.name());
        assert_eq!(a.fps, 60.0);
        assert_eq!(a.frames, clip.frames(60.0));
        assert_eq!(a.skeleton, Some(0));
        let mut worst = 0f32;
        for f in 0..a.frames {
            let s = doc.sample(a.index, f as f64).unwrap();
            let want = demo::pose(*clip, f as f32 / 60.0);
            for (l, w) in s.locals.iter().zip(&want) {
                // The angle between them, ≈ 2·|q1 - q2| once in the same hemisphere (acos of
                // an f32 dot would have a noise floor of 7e-4 rad).
                let w2 = if l.rotation.dot(w.rotation) < 0.0 { -w.rotation } else { w.rotation };
                worst = worst.max(2.0 * (l.rotation - w2).length());
            }
            assert!((s.locals[0].translation - want[0].translation).length() < 1e-3, "{f}");
            let world = fk::world_matrices(&sk.skeleton, &s.locals);
            let pose = doc.pose(0, Some(a.index), f as f64).unwrap();
            for (x, y) in world.iter().zip(&pose) {
                assert!(x.abs_diff_eq(*y, 1e-4));
            }
        }
        // 6-byte keys: 2π/65535 steps per Euler angle; 16-byte keys: f32.
        let tol = if a.format == "TRAM/6" { 3e-4 } else { 1e-5 };
        assert!(worst < tol, "{}: {worst}", a.name);
    }
    assert!(doc.check().is_ok());
}

/// A level whose class (ONCC → TRBS, TRAC) links its animations through placeholders that
/// another file given with it defines (as a level does with level0_Final): the links resolve
/// by name, the animations play on the class's body. Alone, the level still opens and says
/// what is missing.
#[test]
fn placeholders_resolve_across_files() {
    use boneyard_oni::layout::TRAM;
    use boneyard_oni::{body_instances, oncc_instance, trac_instance, write_level, Instance};
    // level0: the two demo TRAMs (taken from the demo level).
    let demo = boneyard_oni::open_files(
        demo_files().unwrap().into_iter().map(|(n, b)| InputFile::new(format!("/nonexistent/{n}"), b)).collect(),
    )
    .unwrap();
    let trams: Vec<Instance> = demo.trams().iter().map(|t| boneyard_oni::tram_instance(t).unwrap()).collect();
    let (l0, l0raw) = write_level(&trams, 0).unwrap();
    // level1: a class with the demo body and a TRAC of placeholders.
    let body = boneyard_oni::demo_body();
    let mut inst = body_instances("konoko_body", &body, &body.meshes).unwrap();
    let ph: Vec<usize> = demo
        .trams()
        .iter()
        .map(|t| {
            inst.push(Instance::placeholder(TRAM, &format!("TRAM{}", t.name)));
            inst.len() - 1
        })
        .collect();
    let trac = inst.len();
    inst.push(trac_instance("konoko_anims", &ph, None));
    inst.push(oncc_instance("konoko", 0, Some(trac)));
    let (l1, l1raw) = write_level(&inst, 1).unwrap();
    let files = vec![
        InputFile::new("/nonexistent/level1_Final.dat", l1.clone()),
        InputFile::new("/nonexistent/level1_Final.raw", l1raw.clone()),
        InputFile::new("/nonexistent/level0_Final.dat", l0),
        InputFile::new("/nonexistent/level0_Final.raw", l0raw),
    ];
    let doc = boneyard_oni::open_files(files).unwrap();
    let sk = &boneyard_core::Document::skeletons(&doc)[0];
    assert_eq!(sk.id, "ONCCkonoko");
    assert_eq!(sk.extra["animations"], serde_json::json!(["demo_walk", "demo_wave"]));
    for a in boneyard_core::Document::animations(&doc) {
        assert_eq!(a.skeleton, Some(0), "{}", a.name);
    }
    // Alone: opens, no animations, the missing placeholders are reported.
    let alone = boneyard_oni::open_files(vec![
        InputFile::new("/nonexistent/level1_Final.dat", l1),
        InputFile::new("/nonexistent/level1_Final.raw", l1raw),
    ])
    .unwrap();
    let f = boneyard_core::Document::files(&alone);
    assert!(f[0].notes.iter().any(|n| n.contains("2 placeholders not defined")), "{:?}", f[0].notes);
    assert_eq!(f[0].counts.iter().find(|c| c.0 == "placeholders").unwrap().1, 2);
}

/// OniSplit's level keeps only TRAM arrays in its .raw (geometry lives in the .dat). The six
/// TRAMs boneyard read from the level, written back by boneyard's level writer in the same
/// order, give OniSplit's .raw byte for byte.
#[test]
fn level_raw_re_encodes_byte_for_byte() {
    let test = "level_raw_re_encodes_byte_for_byte";
    let Some(dat) = fixture("level1_Final.dat", test) else { return };
    let Some(raw) = fixture("level1_Final.raw", test) else { return };
    let doc = open_paths(&[dat.as_path()]).unwrap();
    let inst: Vec<_> = doc.trams().iter().map(|t| boneyard_oni::tram_instance(t).unwrap()).collect();
    let (mine_dat, mine) = boneyard_oni::write_level(&inst, 1).unwrap();
    // Each TRAM struct (raw offsets patched) equals OniSplit's in its level .dat.
    let theirs = boneyard_oni::InstanceFile::parse("theirs", std::fs::read(&dat).unwrap(), None, None).unwrap();
    let ours = boneyard_oni::InstanceFile::parse("ours", mine_dat, None, None).unwrap();
    for i in ours.with_tag(boneyard_oni::layout::TRAM) {
        let name = ours.descriptors[i].name.clone();
        let j = theirs.descriptors.iter().position(|d| d.name == name).unwrap();
        let (a, b) = (ours.instance(i).unwrap(), theirs.instance(j).unwrap());
        assert_eq!(a.data(), b.data(), "{name:?}");
        assert_eq!(ours.pre_data(i).unwrap().1, theirs.pre_data(j).unwrap().1); // level 1's file id
    }
    let original = std::fs::read(raw).unwrap();
    if mine != original {
        let at = mine.iter().zip(&original).position(|(a, b)| a != b).unwrap_or(mine.len().min(original.len()));
        panic!("differs at byte {at:#x} (lengths {} vs {})", mine.len(), original.len());
    }
}

/// The body's TRTA and TRIA, re-encoded from what boneyard read, equal OniSplit's instances
/// byte for byte; the TRCM struct too (OniSplit leaves the polygon count and debug name 0).
#[test]
fn body_arrays_re_encode_byte_for_byte() {
    use boneyard_oni::layout::{TRCM, TRIA, TRTA};
    let test = "body_arrays_re_encode_byte_for_byte";
    let Some(p) = fixture("TRBSfixture_body19.oni", test) else { return };
    let doc = open_paths(&[p.as_path()]).unwrap();
    let body = &doc.bodies()[0];
    let mine = boneyard_oni::body_instances("", body, &[]).unwrap();
    let theirs = &doc.instance_files()[0];
    for tag in [TRTA, TRIA, TRCM] {
        let a = mine.iter().find(|i| i.tag == tag).unwrap();
        let j = theirs.with_tag(tag).next().unwrap();
        let b = theirs.instance(j).unwrap();
        let mut ours = a.data.clone();
        if tag == TRCM {
            // links are patched by the container writer; compare the rest
            ours[0x54..0x60].copy_from_slice(&b.data()[0x54..0x60]);
        }
        assert_eq!(ours, b.data(), "{}", boneyard_oni::layout::tag_name(tag));
    }
}
