//! The demo character through our encoder and reader, and synthetic ROMs (all byte orders,
//! Yaz0-compressed files) built around it. Round trips: they check the plumbing, not the
//! format (the real-file tests do that).

use boneyard_core::demo::{self, DemoClip};
use boneyard_core::document::Document;
use boneyard_core::family::{Family, InputFile};
use boneyard_z64::{demo_files, open_files, Z64};
use std::path::Path;

fn open_demo() -> boneyard_z64::Z64Document {
    let files = demo_files().unwrap();
    assert_eq!(files.len(), 1);
    let (name, data) = files.into_iter().next().unwrap();
    assert!(Z64.probe(Path::new(&name), &data).claims());
    open_files(vec![InputFile::new(name, data)]).unwrap()
}

#[test]
fn demo_reads_back() {
    let doc = open_demo();
    assert_eq!(doc.skeletons().len(), 1);
    let s = &doc.skeletons()[0];
    assert_eq!(s.skeleton.len(), 19);
    assert_eq!(s.extra["type"], "Normal");
    assert_eq!(s.meshes.len(), 19);
    assert_eq!(s.name, "demo_humanoid");
    assert_eq!(s.skeleton.bones[13].name, "left_wrist");
    let skel = demo::skeleton();
    // Same hierarchy (the demo is parents-first in draw order already), lengths x100.
    for (a, b) in s.skeleton.bones.iter().zip(&skel.bones) {
        assert_eq!(a.parent, b.parent);
        assert!((a.rest.translation - b.rest.translation * 100.0).length() < 0.6);
    }
    let anims = doc.animations();
    assert_eq!(anims.len(), 2);
    for (a, clip) in anims.iter().zip(DemoClip::ALL) {
        assert_eq!(a.frames, clip.frames(20.0));
        assert_eq!(a.name, clip.name());
        assert_eq!((a.fps, a.skeleton), (20.0, Some(0)));
        for f in 0..a.frames {
            let s = doc.sample(a.index, f as f64).unwrap();
            let want = demo::pose(clip, f as f32 / 20.0);
            for (b, (got, w)) in s.locals.iter().zip(&want).enumerate() {
                // s16 angles, then the game's 4096-step sine table: about 0.1 degree per axis.
                let ang = got.rotation.angle_between(w.rotation);
                assert!(ang < 0.006, "{} frame {f} bone {b}: {ang} rad", clip.name());
            }
            let root = s.locals[0].translation;
            assert!((root - want[0].translation * 100.0).length() < 1.0);
        }
    }
    assert_eq!(doc.check().unwrap().len(), 2);
}

#[test]
fn synthetic_roms_in_every_byte_order() {
    let (_, obj) = demo_files().unwrap().remove(0);
    let filler = vec![0x11u8; 0x300];
    for compress in [false, true] {
        let z64 = boneyard_z64::build_test_rom(&[filler.clone(), obj.clone()], compress, 10);
        let v64: Vec<u8> = z64.chunks(2).flat_map(|c| [c[1], c[0]]).collect();
        let n64: Vec<u8> = z64.chunks(4).flat_map(|c| [c[3], c[2], c[1], c[0]]).collect();
        for (name, data) in [("t.z64", z64), ("t.v64", v64), ("t.n64", n64)] {
            assert!(Z64.probe(Path::new(name), &data).claims());
            let doc = open_files(vec![InputFile::new(name, data)]).unwrap();
            let f = &doc.files()[0];
            assert_eq!(f.format, "Zelda 64 ROM");
            assert_eq!(f.variant, "OoT GC EU MQ debug");
            assert_eq!(doc.skeletons().len(), 1, "{name}");
            assert_eq!(doc.skeletons()[0].skeleton.len(), 19);
            assert_eq!(doc.animations().len(), 2);
        }
    }
}

#[test]
fn rom_with_lying_yaz0_is_an_error_with_offset() {
    let (_, obj) = demo_files().unwrap().remove(0);
    let mut rom = boneyard_z64::build_test_rom(&[obj], true, 0);
    // Make the compressed file's header announce one byte more than the DMA table says.
    let at = rom.windows(4).position(|w| w == b"Yaz0").unwrap();
    let size = u32::from_be_bytes(rom[at + 4..at + 8].try_into().unwrap()) + 1;
    rom[at + 4..at + 8].copy_from_slice(&size.to_be_bytes());
    let e = open_files(vec![InputFile::new("bad.z64", rom)]).err().unwrap();
    assert_eq!(e.offset, Some(at as u64 + 4));
    assert_eq!(e.file.as_deref(), Some("bad.z64"));
}

/// probe: a ROM's magic, a name objects are given (Extension), a skeleton header in a
/// headerless file (Structure); other families' files are left alone by what they are not
/// (their magics are theirs to score higher; z64 does not look for them).
#[test]
fn probe_leaves_other_families_alone() {
    use boneyard_core::Score;
    assert_eq!(Z64.probe(Path::new("MOTION.BIN"), b"MOTN\0\0\0\0"), Score::No);
    assert_eq!(Z64.probe(Path::new("level0_Final.dat"), b"\x1f\x27\xdc\x33\xdf\xbc\x03\x00VR31"), Score::No);
    assert_eq!(Z64.probe(Path::new("TRAMKONOKOlev1_idle.oni"), b"VR31"), Score::No);
    assert_eq!(Z64.probe(Path::new("object_x.oni"), b"VR31"), Score::No);
    assert_eq!(Z64.probe(Path::new("dir/object_dekunuts"), &[0u8; 16]), Score::Extension);
    assert_eq!(Z64.probe(Path::new("gameplay_keep"), &[0u8; 16]), Score::Extension);
    assert_eq!(Z64.probe(Path::new("link_animetion"), &[0u8; 16]), Score::Extension);
    assert_eq!(Z64.probe(Path::new("whatever.zobj"), &[0u8; 16]), Score::Extension);
    assert_eq!(Z64.probe(Path::new("rom.z64"), &[0u8; 16]), Score::No, "a .z64 without the magic is not a ROM");
    // A headerless object under any name is recognised by its skeleton header.
    let (_, obj) = demo_files().unwrap().remove(0);
    assert_eq!(Z64.probe(Path::new("my_model"), &obj), Score::Structure);
    assert_eq!(Z64.probe(Path::new("my_model.bin"), &obj), Score::Structure);
    assert_eq!(Z64.probe(Path::new("my_model.oni"), &obj), Score::No);
    assert_eq!(Z64.probe(Path::new("my_model"), &[0u8; 4096]), Score::No);
}

/// A ROM file named like a known object whose data does not fit the asset table (another
/// version, a mod): the entries that do not hold are warnings (file and offset), and what the
/// scan finds is listed.
#[test]
fn rom_file_that_does_not_fit_its_names_is_scanned() {
    let (_, obj) = demo_files().unwrap().remove(0);
    let rom = boneyard_z64::build_test_rom_named(&[(&obj, true)], Some(&["object_dekunuts"]), 10);
    let doc = open_files(vec![InputFile::new("mod.z64", rom)]).unwrap();
    assert_eq!(doc.skeletons().len(), 1);
    assert_eq!(doc.skeletons()[0].skeleton.len(), 19);
    assert_eq!(doc.animations().len(), 2);
    assert!(doc.animations().iter().all(|a| a.name.starts_with("object_dekunuts_Anim_")));
    let file = &doc.files()[1];
    assert!(file.notes.iter().any(|n| n.contains("asset table") && n.contains("(0 of 11 ")), "{:?}", doc.files());
    assert!(file.counts.contains(&("animations from the structural scan".into(), 2)), "{:?}", file.counts);
    let w = doc.warnings();
    assert_eq!(w.len(), 11, "{w:?}");
    assert!(w.iter().all(|w| w.file == "mod.z64#object_dekunuts" && w.offset.is_some()), "{w:?}");
    assert!(w.iter().any(|w| w.offset == Some(0x3268) && w.message.contains("gDekuNutsSkel")), "{w:?}");
}

/// The other families' real files (when present) are not claimed.
#[test]
fn probe_does_not_claim_other_families_real_files() {
    let Some(dir) = boneyard_core::testdata::data_dir() else { return };
    let mut seen = 0;
    for sub in ["oni", "shenmue"] {
        let Ok(rd) = std::fs::read_dir(dir.join(sub)) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_file() {
                let data = std::fs::read(&p).unwrap();
                assert!(!Z64.probe(&p, &data).claims(), "{}", p.display());
                seen += 1;
            }
        }
    }
    println!("{seen} files of other families checked");
}

/// `--frame` is truncated toward zero and wrapped into the clip, whatever its size: huge frames
/// are checked against integer remainders worked in u128 (a cast through i64 saturated, and
/// gave frame 7 of 18 for 1e20, where 10^20 mod 18 is 10).
#[test]
fn engine_frame_wraps_any_finite_frame() {
    let doc = open_demo();
    let n = doc.animations()[0].frames as usize;
    assert!(n > 2);
    let at = |f: f64| doc.engine_frame(0, f).unwrap();
    let modulo = |v: u128| (v % n as u128) as usize;
    for v in [10u128.pow(20), 1 << 70, (1 << 63) + (1 << 11), 5u128.pow(22) << 20] {
        // Every one is a whole number an f64 holds exactly.
        assert_eq!(v as f64 as u128, v);
        assert_eq!(at(v as f64), modulo(v), "{v}");
        assert_eq!(at(-(v as f64)), (n - modulo(v)) % n, "-{v}");
    }
    // 1e300 is not 10^300 but the f64 nearest it: 10^300 (mod n) holds only when n's factors
    // are 2s and 5s, so the check is that it lands in range and agrees with its own negation.
    let f = at(1e300);
    assert!(f < n);
    assert_eq!(at(-1e300), (n - f) % n);
    assert_eq!(at(n as f64 + 0.9), 0);
    assert_eq!(at(-0.5), 0);
    assert_eq!(at(-1.0), n - 1);
    assert_eq!(at(3.0 * n as f64 + 1.5), 1);
    assert!(doc.engine_frame(0, f64::NAN).is_err());
}

/// A DMA table whose entries name the ROM bytes of an earlier one (the games' files never
/// overlap): read once, with a warning at the first such entry. 200 entries naming one object
/// made 200 documents of it, and a 74 KB ROM of 4,000 such entries minutes of export.
#[test]
fn dma_entries_over_an_earlier_ones_bytes_are_read_once() {
    let (_, obj) = demo_files().unwrap().remove(0);
    let filler = vec![0x11u8; 0x300];
    let mut rom = boneyard_z64::build_test_rom(&[filler.clone(), obj.clone(), filler], false, 10);
    let limits = boneyard_core::Limits::default();
    let (info, files) = boneyard_z64::read_rom(&rom, &limits).unwrap();
    let n = files.len();
    assert!(info.overlapping.is_empty());
    // The object's entry (the fourth file: makerom, boot, dmadata, filler, object, filler) and
    // the filler after it, which now names the object's bytes from 16 bytes in.
    let obj_entry = files.iter().find(|f| f.data == obj).unwrap().index;
    let at = |i: usize| info.dmadata + 16 * i;
    let word = |rom: &[u8], p: usize| u32::from_be_bytes(rom[p..p + 4].try_into().unwrap());
    let rs = word(&rom, at(obj_entry) + 8);
    let next = at(obj_entry + 1);
    let vs2 = word(&rom, next);
    rom[next + 4..next + 8].copy_from_slice(&(vs2 + 0x100).to_be_bytes());
    rom[next + 8..next + 12].copy_from_slice(&(rs + 16).to_be_bytes());
    let (info, files) = boneyard_z64::read_rom(&rom, &limits).unwrap();
    assert_eq!(files.len(), n - 1);
    assert_eq!(info.overlapping, vec![(obj_entry + 1, obj_entry, next as u64)]);
    let doc = open_files(vec![InputFile::new("overlap.z64", rom)]).unwrap();
    let w: Vec<&str> = doc.warnings().iter().map(|w| w.message.as_str()).collect();
    assert!(w.iter().any(|m| m.contains("1 DMA entries (the first: entry") && m.contains("not read")), "{w:?}");
    assert_eq!(doc.skeletons().len(), 1);
}
